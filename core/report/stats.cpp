// NormLab core: the findings' statistics and number formatting (stats.h).
#include "core/report/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace normlab::report::detail {

double mean_of(const std::vector<double>& v) {
    double s = 0;
    int n = 0;
    for (double x : v)
        if (std::isfinite(x)) s += x, ++n;
    return n ? s / n : kNaN;
}
double min_of(const std::vector<double>& v) {
    double m = kInf;
    for (double x : v)
        if (!std::isnan(x)) m = std::min(m, x);
    return m == kInf && v.empty() ? kNaN : m;
}
double max_of(const std::vector<double>& v) {
    double m = -kInf;
    for (double x : v)
        if (!std::isnan(x)) m = std::max(m, x);
    return m == -kInf ? kNaN : m;
}
double half_range(const std::vector<double>& v) {
    const double lo = min_of(v), hi = max_of(v);
    return std::isfinite(lo) && std::isfinite(hi) ? (hi - lo) / 2 : 0.0;
}
double geo_mean(const std::vector<double>& v) {
    double s = 0;
    int n = 0;
    for (double x : v)
        if (std::isfinite(x) && x > 0) s += std::log(x), ++n;
    return n ? std::exp(s / n) : kNaN;
}
// Least-squares slope of y on x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
    double sx = 0, sy = 0, n = 0;
    for (size_t i = 0; i < x.size(); ++i)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) sx += x[i], sy += y[i], ++n;
    if (n < 2) return kNaN;
    const double mx = sx / n, my = sy / n;
    double num = 0, den = 0;
    for (size_t i = 0; i < x.size(); ++i)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) num += (x[i] - mx) * (y[i] - my), den += (x[i] - mx) * (x[i] - mx);
    return den > 0 ? num / den : kNaN;
}
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        for (size_t k = i; k <= j; ++k) r[idx[k]] = (i + j) / 2.0;
        i = j + 1;
    }
    return r;
}
// Spearman's rank correlation (ties share their mean rank).
double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    const auto rx = ranks(x), ry = ranks(y);
    const double s = slope(rx, ry), sx = slope(ry, rx);
    if (!std::isfinite(s) || !std::isfinite(sx)) return kNaN;
    return (s >= 0 ? 1 : -1) * std::sqrt(std::max(0.0, s * sx));
}

std::string fmt(double v, int sig) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
    char b[48];
    std::snprintf(b, sizeof b, "%.*g", sig, v);
    return b;
}
std::string thousands(double v) {
    if (!std::isfinite(v)) return fmt(v);
    std::string digits = std::to_string(std::llround(std::abs(v))), out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return (v < 0 && std::llround(v) != 0 ? "-" : "") + out;
}

std::string of_n(int k, size_t n) { return std::to_string(k) + " of " + std::to_string(n); }

std::string fixed(double v, int decimals) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}
std::string ratio_text(double v) { return fmt(v, 3) + "×"; }
// "2.583 ± 0.004" (± half the range over seeds) or just the value for one seed.
std::string with_spread(const std::vector<double>& v, int decimals) {
    const double m = mean_of(v);
    if (v.size() < 2) return fixed(m, decimals);
    return fixed(m, decimals) + " ± " + fixed(half_range(v), decimals);
}

// Mean that keeps +∞ (a diverged run makes the group's mean +∞).
double mean_of_inf(const std::vector<double>& v) {
    for (double x : v)
        if (std::isinf(x) && x > 0) return kInf;
    return mean_of(v);
}
std::string with_spread_inf(const std::vector<double>& v, int decimals) {
    int diverged = 0;
    for (double x : v) diverged += std::isinf(x) && x > 0;
    if (diverged) return "diverged (" + std::to_string(diverged) + " of " + std::to_string(v.size()) + ")";
    return with_spread(v, decimals);
}

}  // namespace normlab::report::detail
