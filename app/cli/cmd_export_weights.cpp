// normlab-cli export-weights: a run's latest weights as safetensors (docs/WEIGHTS.md).
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include "core/train/trainer.h"

#include <cstdio>

namespace normlab::cli {

int cmd_export_weights(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("export-weights needs a run and a file: normlab-cli export-weights RUN FILE.safetensors");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    export_safetensors(r, args.positional[1]);
    std::fprintf(stderr, "wrote %s (run %lld)\n", args.positional[1].c_str(), static_cast<long long>(r.id));
    return kOk;
}

}  // namespace normlab::cli
