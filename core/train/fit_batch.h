// NormLab core: the batch that fills a GPU (`--batch auto`).
//
// Measured, not estimated: one training step (forward in the run's
// precision, backward, the optimizer) at batch 1 and 2 on the run's device
// gives the caching allocator's peak per extra row; the largest power of two
// predicted under the budget is then run once to confirm (halved while it
// does not fit). The chosen batch is written into the run's configuration
// before it is queued, so a resume trains with it wherever it resumes.
#pragma once

#include "core/config.h"

#include <functional>
#include <string>

namespace normlab {

struct BatchFit {
    int batch = 0;
    double peak_bytes = 0;     // the confirming step's peak allocation
    double budget_bytes = 0;   // the share of the device's memory allowed (fraction × total)
    double total_bytes = 0;
    std::string device;
};

// The largest power of two (≤ 65536) whose step's predicted peak, from a
// step at batch 1 (peak1) and at batch 2 (peak2), stays within budget; 0 when
// not even batch 1 does.
int choose_batch(double peak1, double peak2, double budget);

// Measures on cfg.train.device (a CUDA device; anything else is refused with
// a ConfigError naming train.batch_size). fraction: of the device's total
// memory. Throws Cancelled when `cancelled` says so between steps.
BatchFit fit_batch(const RunConfig& cfg, double fraction = 0.85, const std::function<bool()>& cancelled = {});

}  // namespace normlab
