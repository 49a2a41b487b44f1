// normlab-cli (internal): a Slurm sweep's folder and the programs it runs, for
// `sweep` (the engine) and `stream --sweep` (the front end, without LibTorch).
#pragma once

#include "core/dist/slurm.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace normlab::cli {

// Runs a program and returns its standard output; throws RunError with its
// error output when it fails.
std::string run_command(const std::vector<std::string>& argv);
// A sweep folder's sweep.json, checked, with its folder as it is now; throws
// UsageError naming `option` when there is none.
std::pair<SlurmSweep, nlohmann::json> read_sweep(const std::string& dir, const std::string& option);

}  // namespace normlab::cli
