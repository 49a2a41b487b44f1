// NormLab core: axis ticks and their labels, one place for every figure —
// the app's charts (widgets/linechart.cpp), the report's figures (drawn by the
// same charts) and normlab-cli plot (app/cli/svg_plot.cpp). No Qt.
//
// Linear axes: 1-2-5 × 10^k steps. Log axes at any range: powers of ten over
// many decades, 1-2-5 × 10^k over a few, and 1-2-5 linear steps when the data
// span less than a decade — Qt Charts' QLogValueAxis labels powers of its base
// only, which leaves an axis from 2 to 2000 with one label and one from 2 to 3
// with none.
#pragma once

#include <utility>
#include <vector>

namespace normlab {

// About `target` ticks at 1, 2 or 5 × 10^k steps inside [lo, hi].
std::vector<double> nice_ticks(double lo, double hi, int target = 6, bool integer = false);

// Ticks for a log axis over [lo, hi] (0 < lo < hi): at least two whenever the
// range allows, at most about 2 × target.
std::vector<double> log_ticks(double lo, double hi, int target = 6);

// Their labels: label_ticks (core/print_ticks.h), one notation for every figure.

// A linear range for data spanning [lo, hi]: itself, unless the data are flat (hi - lo within
// 1e-12 of their size), then 5% of their value either side (±1 about 0), so that a constant
// learning rate of 1e-3 sits mid-axis with its own ticks, not on the floor of a 0–0.5 axis.
std::pair<double, double> unflat(double lo, double hi);

}  // namespace normlab
