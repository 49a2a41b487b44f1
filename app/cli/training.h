// normlab-cli (internal): what the commands that train share (training.cpp).
#pragma once

#include "app/cli/cli.h"
#include "core/experiment.h"

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
std::vector<RunResult> train_all(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued,
                                 TrainOptions opts);
// Every chosen run checked (fields, device, data, memory) before the store is opened.
void preflight_all(const std::vector<ExperimentRun>& runs);
// The experiment's runs picked by --only, with --steps, --device and --threads applied.
std::vector<ExperimentRun> chosen_runs(const Experiment& ex, const Args& args);

}  // namespace normlab::cli
