// NormLab core: series operations (see series.h).
#include "core/series.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace normlab {

std::vector<double> debiased_ema(const std::vector<double>& y, double smoothing) {
    std::vector<double> out(y.size());
    double acc = 0, weight = 0;
    for (size_t i = 0; i < y.size(); ++i) {
        if (!std::isfinite(y[i])) {
            out[i] = y[i];
            continue;
        }
        acc = smoothing * acc + (1 - smoothing) * y[i];
        weight = smoothing * weight + (1 - smoothing);
        out[i] = acc / weight;
    }
    return out;
}

std::vector<double> smooth_along_x(const std::vector<double>& x, const std::vector<double>& y, double smoothing,
                                   double span) {
    if (!(span > 0) || !std::isfinite(span) || x.size() != y.size()) return debiased_ema(y, smoothing);
    if (!(smoothing > 0)) return y;
    std::vector<double> out(y.size());
    const double per_unit = kSmoothingScale / span;   // decays of `smoothing` per x unit
    double acc = 0, weight = 0, prev = std::numeric_limits<double>::quiet_NaN();
    double last_dx = 0, decay = 1;   // a series probed at even intervals takes one pow
    for (size_t i = 0; i < y.size(); ++i) {
        if (!std::isfinite(y[i]) || !std::isfinite(x[i])) {
            out[i] = y[i];
            continue;
        }
        // The weight so far decays over the distance from the previous point;
        // the first point starts the sum (the debiasing: no pull toward 0).
        const double dx = std::isfinite(prev) ? std::max(0.0, x[i] - prev) : 0.0;
        if (dx != last_dx) decay = std::pow(smoothing, dx * per_unit), last_dx = dx;
        acc = decay * acc + y[i];
        weight = decay * weight + 1.0;
        out[i] = acc / weight;
        prev = x[i];
    }
    return out;
}

std::vector<std::pair<double, double>> reduce_for_pixels(const std::vector<double>& x, const std::vector<double>& y,
                                                         double x0, double x1, int columns, bool log_y) {
    std::vector<std::pair<double, double>> out;
    if (x.empty() || columns <= 0 || !(x1 > x0)) return out;
    auto lo_it = std::lower_bound(x.begin(), x.end(), x0);
    auto hi_it = std::upper_bound(x.begin(), x.end(), x1);
    // One point beyond each edge, so lines run to the border.
    size_t i0 = static_cast<size_t>(std::max<std::ptrdiff_t>(0, lo_it - x.begin() - 1));
    size_t i1 = static_cast<size_t>(std::min<std::ptrdiff_t>(static_cast<std::ptrdiff_t>(x.size()), hi_it - x.begin() + 1));
    const double scale = columns / (x1 - x0);
    // A column keeps its first, lowest, highest and last point, each once and
    // in the data's order: by index, not by x, since a step-shaped series (a
    // histogram) has two points at one x, and both are its shape.
    long col = std::numeric_limits<long>::min();
    size_t first = 0, lowest = 0, highest = 0, last = 0;
    auto flush = [&] {
        if (col == std::numeric_limits<long>::min()) return;
        size_t keep[4] = {first, std::min(lowest, highest), std::max(lowest, highest), last};
        for (size_t k = 0; k < 4; ++k)
            if (k == 0 || keep[k] != keep[k - 1]) out.emplace_back(x[keep[k]], y[keep[k]]);
    };
    for (size_t i = i0; i < i1; ++i) {
        const double v = y[i];
        if (!std::isfinite(v) || (log_y && v <= 0)) continue;
        const long c = static_cast<long>(std::floor((x[i] - x0) * scale));
        if (c != col) {
            flush();
            col = c;
            first = lowest = highest = last = i;
        } else {
            if (v < y[lowest]) lowest = i;
            if (v > y[highest]) highest = i;
            last = i;
        }
    }
    flush();
    return out;
}

}  // namespace normlab
