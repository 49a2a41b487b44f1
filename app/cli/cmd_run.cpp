// normlab-cli run: trains every chosen run of an experiment, after checking all of them.
#include "app/cli/training.h"

#include "core/counted.h"
#include "core/errors.h"

#include <cstdio>

namespace normlab::cli {

static int cmd_run(const Args& args) {
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

extern const Command kRunCommand{"run", "run EXPERIMENT.json",
    "train every run of an experiment (--only NAME to pick some,\n"
    "--device cpu|cuda|auto, --threads N, --steps N to override)\n",
    cmd_run,
    "options:\n"
    "  --only NAME      train only the runs named NAME (or starting with \"NAME \"); repeatable\n"
    "  --index I[-J]    train only the runs at positions I to J\n"
    "                   (0-based; what a sweep's array task trains)\n"
    "  --scale NAME     use the experiment's named scale (e.g. gpu)\n"
    "  --steps N        override every run's train.steps\n"
    "  --device D       cpu, cuda, cuda:N or auto;  --threads N  LibTorch threads (0: all cores)\n"
    "  --precision P    fp32, tf32 or bf16 (mixed precision, fp32 weights): overrides train.precision\n"
    "  --cuda-graph M   auto, on or off: the step captured as a CUDA graph (auto: on a GPU when\n"
    "                   the run allows it): overrides train.cuda_graph\n"
    "  --batch N|auto   override every run's train.batch_size; auto: the largest power of two whose\n"
    "                   training step fits in 85% of the GPU's memory, measured on it before queueing\n"
    "  --detach         queue the runs, print their ids and train them in a process of its own\n"
    "                   that outlives the terminal and the ssh session (output: STORE.logs/)\n"
    "Every run is checked (fields, data source, device, memory) before anything is written.\n"
    "Ctrl-C or SIGTERM cancels within a second, keeping a checkpoint; a second one exits at once.\n"
    "So does a hang-up (its terminal or ssh session closed) or a closed pipe; not under nohup.\n"
    "Data-parallel: started by torchrun --no-python, by srun -n N, or with RANK, WORLD_SIZE,\n"
    "MASTER_ADDR and MASTER_PORT set, each process trains a slice of every batch (Gloo on the\n"
    "CPU, NCCL on CUDA); rank 0 writes the store (docs/SCALING.md).\n",
    "--only --index --scale --steps --device --threads --precision --cuda-graph --batch --detach"};

}  // namespace normlab::cli
