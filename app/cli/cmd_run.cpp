// normlab-cli run: trains every chosen run of an experiment, after checking all of them.
#include "app/cli/training.h"

#include "core/counted.h"
#include "core/errors.h"

#include <cstdio>

namespace normlab::cli {

int cmd_run(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("run needs one experiment file: normlab-cli run EXPERIMENT.json");
    const TrainOptions opts = train_options(args);
    Experiment ex = load_experiment(args.positional[0], args.opt("--scale"));
    const std::vector<ExperimentRun> chosen = chosen_runs(ex, args);
    preflight_all(chosen);
    if (const LaunchInfo launch = detect_launch(); launch.distributed()) {
        // One of several processes (torchrun, srun): each run trained data-parallel.
        for (auto& r : chosen)
            if (r.config.train.batch_size % launch.world_size != 0)
                throw ConfigError("train.batch_size", std::to_string(r.config.train.batch_size) + " (run \"" + r.name +
                                                          "\") cannot be split among " + std::to_string(launch.world_size) +
                                                          " processes; use a multiple of " + std::to_string(launch.world_size));
        return train_data_parallel(launch, chosen.front().config.train.device, opts,
                                   [&](std::unique_ptr<Store>& store) {
                                       store = std::make_unique<Store>(store_path(args));
                                       const int64_t exp_id = store->add_experiment(ex.name, ex.file, ex.spec);
                                       std::vector<std::pair<int64_t, std::string>> q;
                                       for (auto& r : chosen) {
                                           q.emplace_back(queue_run(*store, r.config, exp_id, {ex.name}), r.name);
                                           store->own_queued(q.back().first);   // as below
                                       }
                                       std::fprintf(stderr, "%s: %s queued in %s\n", ex.name.c_str(),
                                                    counted(static_cast<long long>(q.size()), "run").c_str(),
                                                    store->path().c_str());
                                       return q;
                                   });
    }
    Store store(store_path(args));
    const int64_t exp_id = store.add_experiment(ex.name, ex.file, ex.spec);
    std::vector<std::pair<int64_t, std::string>> queued;
    const bool detach = args.has_flag("--detach");
    for (auto& r : chosen) {
        queued.emplace_back(queue_run(store, r.config, exp_id, {ex.name}), r.name);
        // Trained by this process: killed before it gets to them, or failing to queue the
        // rest (a full disk), those queued read interrupted once it has ended, not queued for ever.
        if (!detach) store.own_queued(queued.back().first);
    }
    std::fprintf(stderr, "%s: %s queued in %s\n", ex.name.c_str(), counted(static_cast<long long>(queued.size()), "run").c_str(),
                 store.path().c_str());
    if (detach) return detach_and_report(store, queued, "queued", {});
    auto results = train_all(store, queued, opts);
    for (auto& r : results)
        if (r.run_id > 0) std::printf("%lld\t%s\n", static_cast<long long>(r.run_id), status_name(r.status).c_str());
    return exit_for(results);
}

}  // namespace normlab::cli
