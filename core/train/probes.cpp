// NormLab core: probe helpers (see probes.h).
#include "core/train/probes.h"

#include <algorithm>
#include <cmath>

namespace normlab {

double median(std::vector<double> v) {
    if (v.empty()) return std::nan("");
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

Distribution summarize(const std::string& name, int layer, int64_t step, std::vector<double> v, int bins) {
    Distribution d;
    d.name = name;
    d.layer = layer;
    d.step = step;
    d.count = static_cast<int64_t>(v.size());
    if (v.empty()) return d;
    std::sort(v.begin(), v.end());
    auto q = [&](double p) {
        const double pos = p * (v.size() - 1);
        const size_t i = static_cast<size_t>(std::floor(pos));
        const double f = pos - i;
        return i + 1 < v.size() ? v[i] * (1 - f) + v[i + 1] * f : v[i];
    };
    d.min = v.front();
    d.q1 = q(0.25);
    d.median = q(0.5);
    d.q3 = q(0.75);
    d.max = v.back();
    double s = 0, s2 = 0;
    for (double x : v) s += x;
    d.mean = s / v.size();
    for (double x : v) s2 += (x - d.mean) * (x - d.mean);
    d.std = std::sqrt(s2 / v.size());
    d.hist_lo = d.min;
    d.hist_hi = d.max;
    if (!(d.hist_hi > d.hist_lo)) {
        // Every value equal (gains at initialization): a unit-wide range on
        // which the value is the centre of its bin, not a bin's left edge —
        // the histogram showed gains that are all 1 peaking at 1.03.
        const double w1 = 1.0 / bins;
        d.hist_lo = d.min - w1 * (bins / 2 + 0.5);
        d.hist_hi = d.hist_lo + 1.0;
    }
    d.hist.assign(static_cast<size_t>(bins), 0.f);
    const double w = (d.hist_hi - d.hist_lo) / bins;
    for (double x : v) {
        if (!std::isfinite(x)) continue;
        int b = static_cast<int>((x - d.hist_lo) / w);
        d.hist[static_cast<size_t>(std::clamp(b, 0, bins - 1))] += 1.f;
    }
    return d;
}

}  // namespace normlab
