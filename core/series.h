// NormLab core: drawing-independent operations on recorded series, shared by
// the desktop charts and the CLI's SVG figures.
#pragma once

#include <utility>
#include <vector>

namespace normlab {

// Debiased exponential moving average (TensorBoard #610): the first point is
// not pulled toward 0; non-finite values pass through unchanged.
std::vector<double> debiased_ema(const std::vector<double>& y, double smoothing);

// Per-pixel-column first/min/max/last of the points with x in [x0, x1] (x
// sorted ascending), plus one point beyond each edge; non-finite values, and
// with log_y values ≤ 0, are skipped. Never samples: every extreme survives.
std::vector<std::pair<double, double>> reduce_for_pixels(const std::vector<double>& x, const std::vector<double>& y,
                                                         double x0, double x1, int columns, bool log_y);

}  // namespace normlab
