// normlab-cli eval-batch: a run's logits and loss on a validation batch, for the
// independent cross-check (tests/crosscheck.py).
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include "core/train/trainer.h"

#include <cstdio>

namespace normlab::cli {

int cmd_eval_batch(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("eval-batch needs a run and a file: normlab-cli eval-batch RUN FILE.safetensors");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    const int batch = args.options.count("--batch") ? parse_int("--batch", args.opt("--batch"), 1, 4096) : 4;
    const int seed = args.options.count("--seed") ? parse_int("--seed", args.opt("--seed"), 0) : 7;
    const double loss = write_eval_batch(r, args.positional[1], batch, static_cast<uint64_t>(seed));
    std::printf("%.9g\n", loss);
    return kOk;
}

}  // namespace normlab::cli
