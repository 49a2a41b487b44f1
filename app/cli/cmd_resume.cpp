// normlab-cli resume: continues a cancelled, interrupted or failed run from its checkpoint.
#include "app/cli/training.h"

#include <cstdio>

namespace normlab::cli {

static int cmd_resume(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("resume needs one run: normlab-cli resume RUN");
    const TrainOptions opts = train_options(args);
    auto pick = [&](Store& store) {
        RunInfo run = store.find_run(args.positional[0]);
        if (!resumable(run.status)) {
            if (run.status == RunStatus::Finished) throw UsageError("run " + std::to_string(run.id) + " already finished");
            if (run.status == RunStatus::Running)
                throw UsageError("run " + std::to_string(run.id) + " is running in process " + std::to_string(run.pid));
            throw UsageError("run " + std::to_string(run.id) + " is " + run.status_text + " and cannot be resumed");
        }
        if (run.checkpoint.empty())
            std::fprintf(stderr, "run %lld has no checkpoint: it restarts from step 0\n", static_cast<long long>(run.id));
        return std::vector<std::pair<int64_t, std::string>>{{run.id, run.name}};
    };
    if (const LaunchInfo launch = detect_launch(); launch.distributed())
        return train_data_parallel(launch, opts.device.empty() ? "auto" : opts.device, opts,
                                   [&](std::unique_ptr<Store>& store) {
                                       store = std::make_unique<Store>(store_path(args));
                                       return pick(*store);
                                   });
    Store store(store_path(args));
    return exit_for(train_all(store, pick(store), opts));
}

extern const Command kResumeCommand{"resume", "resume RUN",
    "continue an interrupted, cancelled or failed run from its\n"
    "checkpoint (from step 0 when it has none)\n",
    cmd_resume,
    "options: --device D, --threads N.\n"
    "The run continues from its last checkpoint to exactly the trace it would have written.\n"};

}  // namespace normlab::cli
