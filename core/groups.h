// NormLab core: runs that differ only by their seed, drawn as one line with a
// band (mean ± std or min–max) — what TensorBoard, MLflow and W&B users ask
// for most when comparing runs. No Qt: the charts and tests use it.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace normlab {

// A group index per run (0, 1, … in order of first appearance): runs whose
// configurations are equal once the dotted paths in `ignore` are removed
// share a group. By default only the seed (and the name, a label) may differ.
std::vector<int> group_runs(const std::vector<nlohmann::json>& configs,
                            const std::vector<std::string>& ignore = {"train.seed", "name"});

// A group's name from its runs' names: what they share, without a trailing
// seed ("pre_ln seed 1", "pre_ln seed 2" → "pre_ln"); the first name when
// they share nothing.
std::string group_name(const std::vector<std::string>& names);

enum class BandKind { Std, MinMax };

struct Band {
    std::vector<double> x, mean, lo, hi;   // lo/hi: mean ∓ std (population), or min and max
};

// Several runs' series of one quantity (each x ascending, y aligned with x):
// at every x that all of them have, the mean of their finite values and the
// band around it (NaN where none is finite). Empty when they share no x
// (e.g. wall-clock time on x).
Band band_of(const std::vector<const std::vector<double>*>& xs, const std::vector<const std::vector<double>*>& ys,
             BandKind kind);

}  // namespace normlab
