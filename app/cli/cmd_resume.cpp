// normlab-cli resume: continues a cancelled, interrupted or failed run from its checkpoint.
#include "app/cli/training.h"

#include "core/remote/mirror.h"

#include <cstdio>

namespace normlab::cli {

int cmd_resume(const Args& args) {
    if (args.positional.empty()) throw UsageError("resume needs a run: normlab-cli resume RUN [RUN ...]");
    const TrainOptions opts = train_options(args);
    const bool if_queued = args.has_flag("--if-queued"), detach = args.has_flag("--detach");
    auto pick = [&](Store& store) {
        std::vector<std::pair<int64_t, std::string>> out;
        for (const std::string& key : args.positional) {
            RunInfo run = store.find_run(key);
            if (const RemoteRef ref = remote_ref(run); ref.run > 0)
                throw UsageError("run " + std::to_string(run.id) + " is mirrored from " + ref.dest + " (run " +
                                 std::to_string(ref.run) + " there) and trains there: 'normlab-cli remote resume " +
                                 ref.dest + " " + std::to_string(ref.run) + "' resumes it");
            // Queued runs this process trains are its own (Store::own_queued); a --detach launch's child owns them.
            if (run.status == RunStatus::Queued && !detach) store.own_queued(run.id);
            if (if_queued) {
                out.emplace_back(run.id, run.name);   // train_all skips it unless still queued
                continue;
            }
            if (!resumable(run.status)) {
                if (run.status == RunStatus::Finished) throw UsageError("run " + std::to_string(run.id) + " already finished");
                if (run.status == RunStatus::Running)
                    throw UsageError("run " + std::to_string(run.id) + " is running in process " + std::to_string(run.pid));
                throw UsageError("run " + std::to_string(run.id) + " is " + run.status_text + " and cannot be resumed");
            }
            if (run.checkpoint.empty() && run.steps_done > 0)
                std::fprintf(stderr, "run %lld has no checkpoint: it restarts from step 0\n", static_cast<long long>(run.id));
            else if (run.checkpoint.empty())
                std::fprintf(stderr, "run %lld never trained: it starts now\n", static_cast<long long>(run.id));
            out.emplace_back(run.id, run.name);
        }
        return out;
    };
    if (const LaunchInfo launch = detect_launch(); launch.distributed())
        return train_data_parallel(launch, opts.device.empty() ? "auto" : opts.device, opts,
                                   [&](std::unique_ptr<Store>& store) {
                                       store = std::make_unique<Store>(existing_store_path(args));
                                       return pick(*store);
                                   });
    Store store(existing_store_path(args));
    const auto runs = pick(store);
    if (detach) {
        // Queued before the process that resumes them starts, in one transaction: what
        // follows the store (`remote follow`, the window) sees runs to wait for at once,
        // not the status they are resumed from, which would end the following.
        {
            Store::Transaction t(store);
            const std::string why = "queued to resume in a detached process (its log: " + store.path() + ".logs/)";
            for (const auto& [id, name] : runs) {
                const RunInfo r = *store.run(id);
                if (!resumable(r.status) || !store.requeue(id, r.status, why))
                    throw UsageError("run " + std::to_string(id) + " is " + r.status_text + " and cannot be resumed; nothing was started");
            }
            t.commit();
        }
        std::vector<std::string> options;   // what the resuming process is to hear too
        for (const char* o : {"--device", "--threads"})
            if (args.options.count(o)) options.insert(options.end(), {o, args.opt(o)});
        return detach_and_report(store, runs, "resuming", options);
    }
    return exit_for(train_all(store, runs, opts, false, if_queued));
}

}  // namespace normlab::cli
