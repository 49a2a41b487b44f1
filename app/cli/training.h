// normlab-cli (internal): what the commands that train share (training.cpp).
#pragma once

#include "app/cli/cli.h"
#include "app/cli/sweep_dir.h"
#include "core/dist/launch.h"
#include "core/dist/slurm.h"
#include "core/experiment.h"

#include <functional>
#include <memory>

#include <string>
#include <utility>
#include <vector>

namespace normlab::cli {

// The exit code for a list of results: 130 when one was cancelled, else 4 for
// a failure, 3 for a divergence, 0.
int exit_for(const std::vector<RunResult>& results);
// --device, --threads; resume for the `resume` command.
TrainOptions train_options(const Args& args);
// Runs a stop left queued become cancelled, so none waits forever.
void cancel_rest(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued, size_t from);
// Trains the queued runs one after another with a progress printer; the first
// Ctrl-C or SIGTERM cancels (the run is saved with a checkpoint), a second exits.
// `quiet`: no progress (the data-parallel ranks other than 0). `only_queued`:
// a run no longer queued when its turn comes (cancelled meanwhile) is skipped.
// SIGUSR1 cancels the run being trained and goes on with the next.
std::vector<RunResult> train_all(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued,
                                 TrainOptions opts, bool quiet = false, bool only_queued = false);

// Trains `runs` of the store, queued, in a process of its own that outlives
// this one, the terminal and the ssh session that started it (`run --detach`,
// `resume --detach`): `normlab-cli resume --if-queued OPTIONS` with its output
// in <store>.logs/. A run it cannot start is marked failed (train_all).
// Returns the log file's path.
std::string train_detached(const std::string& store, const std::vector<int64_t>& runs, const std::vector<std::string>& options);
// train_detached, then "ID<TAB>WORD<TAB>NAME" per run on stdout (what `remote` reads) and the log's path on stderr.
int detach_and_report(const Store& store, const std::vector<std::pair<int64_t, std::string>>& runs, const char* word,
                      const std::vector<std::string>& options);

// The device of a data-parallel launch: "cuda:LOCAL_RANK" or "cpu". "auto" takes
// the GPUs when this node has one per process; "cuda" with fewer is a
// ConfigError naming train.device. Every rank decides alike.
std::string data_parallel_device(const std::string& requested, const LaunchInfo& launch);
// Data-parallel training (data_parallel.cpp), when a launcher started this
// process as one of several (core/dist/launch.h). Every rank joins the group
// on `device`; rank 0 runs `prepare`, which opens the store and queues (or
// picks) the runs; their configurations reach the other ranks, which train
// copies of them in scratch stores of their own. A failure in `prepare`
// stops every rank with rank 0's message. Returns the exit code.
// `device`: --device or the runs' train.device ("auto", "cpu", "cuda"); see data_parallel_device.
int train_data_parallel(const LaunchInfo& launch, const std::string& device, TrainOptions opts,
                        const std::function<std::vector<std::pair<int64_t, std::string>>(std::unique_ptr<Store>&)>& prepare);
// Every chosen run checked (fields, device, data, memory) before the store is opened.
void preflight_all(const std::vector<ExperimentRun>& runs);
// The experiment's runs picked by --only, with --steps, --device and --threads applied.
std::vector<ExperimentRun> chosen_runs(const Experiment& ex, const Args& args);

}  // namespace normlab::cli
