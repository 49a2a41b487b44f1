// NormLab core: drawing-independent operations on recorded series, shared by
// the desktop charts and the CLI's SVG figures.
#pragma once

#include <utility>
#include <vector>

namespace normlab {

// Debiased exponential moving average (TensorBoard #610): the first point is
// not pulled toward 0; non-finite values pass through unchanged.
std::vector<double> debiased_ema(const std::vector<double>& y, double smoothing);

// The charts' smoothing: a debiased EMA whose decay follows the distance along
// x, not the count of points (the time-weighted EMA W&B draws by default).
// A point's weight falls by `smoothing` over every 1/kSmoothingScale of
// `span` (the chart's x extent): at a given setting every line is smoothed
// alike, whether it has 60 points or 800,000, a probe every step or every
// hundred, and a longer run is not left a band of noise. A run of 300 evenly
// spaced points (the default experiment's) is smoothed as the EMA per point
// smoothed it; longer ones more, shorter ones less. smoothing 0.6 keeps 1/e of
// a point's weight over 0.65 % of the span, 0.9 over 3.2 %, 0.99 over 33 %.
// Non-finite values (y or x) pass through; x going back counts as no
// distance. A span that is not positive and finite falls back to the EMA per
// point.
inline constexpr double kSmoothingScale = 300.0;
std::vector<double> smooth_along_x(const std::vector<double>& x, const std::vector<double>& y, double smoothing,
                                   double span);

// Per-pixel-column first/min/max/last of the points with x in [x0, x1] (x
// sorted ascending), plus one point beyond each edge; non-finite values, and
// with log_y values ≤ 0, are skipped. Never samples: every extreme survives.
std::vector<std::pair<double, double>> reduce_for_pixels(const std::vector<double>& x, const std::vector<double>& y,
                                                         double x0, double x1, int columns, bool log_y);

}  // namespace normlab
