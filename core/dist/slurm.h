// NormLab core: sweeps as Slurm job arrays. The experiment's runs are split
// into array tasks; each task trains its runs into a store of its own in the
// sweep folder (SQLite must not be shared between writers over a network
// file system), and `normlab-cli merge` brings the stores together. No
// LibTorch; the CLI writes, submits and watches. See docs/SCALING.md.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace normlab {

struct SlurmSweep {
    std::string cli;              // absolute path of normlab-cli
    std::string experiment;       // absolute path of the experiment file
    std::string name;             // the experiment's name (the job's name)
    std::string dir;              // absolute sweep folder
    std::string scale;            // --scale, "" for the default
    std::vector<std::string> run_names;   // the experiment's runs, in order
    int runs_per_task = 1;
    std::string partition, time;  // "" = the cluster's default
    int cpus_per_task = 1;
    int gpus_per_task = 0;
    int max_parallel = 0;         // 0: no limit
    std::string device;           // --device passed to each task, "" = the experiment's
    int steps = 0;                // --steps passed on, 0 = the experiment's

    int tasks() const { return static_cast<int>((run_names.size() + runs_per_task - 1) / runs_per_task); }
    std::string store_of(int task) const;   // DIR/stores/task-NNN.sqlite
    std::string log_of(int task) const;     // DIR/logs/task-NNN.log
    nlohmann::json to_json() const;         // DIR/sweep.json
    static SlurmSweep from_json(const nlohmann::json& j);   // throws ConfigError
};

// Checks the options (names the field: --partition, --time, ...).
void check_sweep(const SlurmSweep& s);
// The sbatch script: one array task per `runs_per_task` runs, each training
// them with `normlab-cli run --index FIRST-LAST` into its own store.
std::string sbatch_script(const SlurmSweep& s);

}  // namespace normlab
