// NormLab core: axis ticks (see axis_ticks.h).
#include "core/axis_ticks.h"

#include <algorithm>
#include <cmath>

namespace normlab {

std::vector<double> nice_ticks(double lo, double hi, int target, bool integer) {
    std::vector<double> t;
    const double span = hi - lo;
    if (!(span > 0) || !std::isfinite(span)) return {lo};
    const double raw = span / std::max(1, target), mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (raw <= m * mag) {
            step = m * mag;
            break;
        }
    if (integer) step = std::max(1.0, std::round(step));
    const double first = std::ceil(lo / step - 1e-9);
    for (double k = first; k * step <= hi + 1e-9 * span; k += 1) {
        const double v = k * step;
        t.push_back(std::abs(v) < 1e-12 * step ? 0 : v);
    }
    return t;
}

std::pair<double, double> unflat(double lo, double hi) {
    if (hi - lo > 1e-12 * std::max(1.0, std::max(std::abs(lo), std::abs(hi)))) return {lo, hi};
    const double d = lo != 0 ? 0.05 * std::abs(lo) : 1.0;
    return {lo - d, hi + d};
}

std::vector<double> log_ticks(double lo, double hi, int target) {
    if (!(lo > 0) || !(hi > lo) || !std::isfinite(hi)) return {};
    const double decades = std::log10(hi / lo);
    std::vector<double> t;
    auto in = [&](double v) { return v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9); };
    const int e0 = static_cast<int>(std::floor(std::log10(lo))), e1 = static_cast<int>(std::ceil(std::log10(hi)));
    if (decades > target) {
        // Many decades: every n-th power of ten.
        const int every = static_cast<int>(std::ceil(decades / target));
        for (int e = e0; e <= e1; ++e)
            if (e % every == 0 && in(std::pow(10.0, e))) t.push_back(std::pow(10.0, e));
        if (t.size() >= 2) return t;
        t.clear();
    }
    if (decades > 1.0) {
        // A few decades: powers of ten, with 2 and 5 between them while that stays readable.
        for (int e = e0; e <= e1; ++e)
            if (in(std::pow(10.0, e))) t.push_back(std::pow(10.0, e));
        std::vector<double> dense;
        for (int e = e0; e <= e1; ++e)
            for (double m : {1.0, 2.0, 5.0})
                if (in(m * std::pow(10.0, e))) dense.push_back(m * std::pow(10.0, e));
        if (t.size() < 3 || dense.size() <= static_cast<size_t>(2 * target)) t = dense;
        if (t.size() >= 2) return t;
    }
    // Less than a decade (or too few of the above): linear 1-2-5 steps.
    t.clear();
    for (double v : nice_ticks(lo, hi, std::max(3, target - 1)))
        if (v > 0) t.push_back(v);
    return t;
}

}  // namespace normlab
