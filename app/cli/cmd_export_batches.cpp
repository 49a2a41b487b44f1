// normlab-cli export-batches: the exact tokens a run's training steps drew, as
// safetensors, so that its training can be replayed elsewhere (another
// framework, a notebook). The store is opened read-only; nothing is changed.
#include "app/cli/cli.h"

#include "core/counted.h"
#include "core/train/trainer.h"

#include <cstdio>

namespace normlab::cli {

int cmd_export_batches(const Args& args) {
    if (args.positional.size() != 1 || !args.options.count("--out"))
        throw UsageError("export-batches needs a run and --out: normlab-cli export-batches RUN --steps A..B --out FILE.safetensors");
    const std::string range = args.opt("--steps", "0..0");
    const auto dots = range.find("..");
    if (dots == std::string::npos)
        throw UsageError("--steps " + range + ": give a range A..B (training updates, 0-based, both included), e.g. 0..99");
    const int first = parse_int("--steps (its first step)", range.substr(0, dots), 0);
    const int last = parse_int("--steps (its last step)", range.substr(dots + 2), 0);
    Store store(store_path(args), Store::Mode::ReadOnly);
    const RunInfo r = store.find_run(args.positional[0]);
    const int64_t n = write_train_batches(r, args.opt("--out"), first, last);
    std::fprintf(stderr, "wrote %s: the tokens of %s, %d..%d, of run %lld\n", args.opt("--out").c_str(),
                 counted(n, "training step").c_str(), first, last, static_cast<long long>(r.id));
    return kOk;
}

}  // namespace normlab::cli
