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
    long col = std::numeric_limits<long>::min();
    double xf = 0, yf = 0, xmin = 0, ymin = 0, xmax = 0, ymax = 0, xl = 0, yl = 0;
    auto flush = [&] {
        if (col == std::numeric_limits<long>::min()) return;
        out.emplace_back(xf, yf);
        // min and max in their x order, so the polyline keeps its shape
        if (xmin <= xmax) {
            if (xmin != xf && xmin != xl) out.emplace_back(xmin, ymin);
            if (xmax != xf && xmax != xl) out.emplace_back(xmax, ymax);
        } else {
            if (xmax != xf && xmax != xl) out.emplace_back(xmax, ymax);
            if (xmin != xf && xmin != xl) out.emplace_back(xmin, ymin);
        }
        if (xl != xf) out.emplace_back(xl, yl);
    };
    for (size_t i = i0; i < i1; ++i) {
        const double v = y[i];
        if (!std::isfinite(v) || (log_y && v <= 0)) continue;
        const long c = static_cast<long>(std::floor((x[i] - x0) * scale));
        if (c != col) {
            flush();
            col = c;
            xf = xmin = xmax = xl = x[i];
            yf = ymin = ymax = yl = v;
        } else {
            if (v < ymin) ymin = v, xmin = x[i];
            if (v > ymax) ymax = v, xmax = x[i];
            xl = x[i];
            yl = v;
        }
    }
    flush();
    return out;
}

}  // namespace normlab
