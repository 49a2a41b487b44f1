// NormLab core: ticks for print (see print_ticks.h).
#include "core/print_ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

namespace normlab {

namespace {

struct Candidate {
    std::vector<double> values;
    double score = std::numeric_limits<double>::infinity();
};

// How well `n` ticks suit: inside [lo_n, hi_n] as near `target` as can be,
// outside far behind; `bias` breaks ties between kinds of steps.
double score_of(size_t n, int target, int lo_n, int hi_n, double bias) {
    const int k = static_cast<int>(n);
    if (k < 2) return 1e9;
    // too few is worse than too many: an axis with two labels is the failure people report
    const double off = k < lo_n ? 2.0 * (lo_n - k) : (k > hi_n ? k - hi_n : 0);
    return (off > 0 ? 100 + 10 * off : 0) + std::abs(k - target) + bias;
}

void consider(Candidate& best, std::vector<double> values, double score) {
    if (score < best.score) best = {std::move(values), score};
}

// Multiples of m × 10^k inside [lo, hi], for the m and k that suit.
void linear_candidates(Candidate& best, double lo, double hi, int target, int lo_n, int hi_n, bool integer, double extra_bias,
                       bool positive_only) {
    const double span = hi - lo;
    const int k0 = static_cast<int>(std::floor(std::log10(span))) - 2;
    for (int k = k0; k <= k0 + 3; ++k)
        for (double m : {1.0, 2.0, 2.5, 5.0}) {
            const double step = m * std::pow(10.0, k);
            if (integer && (step < 1 || std::abs(step - std::round(step)) > 1e-9)) continue;
            const double first = std::ceil(lo / step - 1e-9), last = std::floor(hi / step + 1e-9);
            if (last - first > 50) continue;
            std::vector<double> v;
            for (double i = first; i <= last; i += 1) {
                const double x = i * step;
                if (positive_only && x <= 0) continue;
                v.push_back(std::abs(x) < 1e-12 * step ? 0.0 : x);
            }
            const double sc = score_of(v.size(), target, lo_n, hi_n, (m == 2.5 ? 1.0 : 0.0) + extra_bias);
            consider(best, std::move(v), sc);
        }
}

bool is_power_of_ten(double v) {
    const double e = std::log10(v);
    return std::abs(e - std::round(e)) < 1e-9;
}

// The fewest decimals (0..9) that write every value of `v` exactly.
int decimals_for(const std::vector<double>& v) {
    for (int d = 0; d < 9; ++d) {
        const double s = std::pow(10.0, d);
        bool exact = true;
        for (double x : v) {
            const double y = x * s;
            exact = exact && std::abs(y - std::round(y)) < 1e-6 * std::max(1.0, std::abs(y));
        }
        if (exact) return d;
    }
    return 9;
}

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);   // "-0.0" → "0.0"
    return s;
}

// Counts of 10,000 and more (steps, tokens) in thousands, millions or billions,
// as TensorBoard and W&B label them: "200k 400k 600k 800k", not "800000"
// (seven characters a tick at 89 mm) nor "8×10⁵". One unit for the axis, one
// that writes every tick with at most one decimal ("0.5M 1.0M 1.5M"; "250k 500k
// 750k 1000k", not "0.25M"), the one with the narrowest labels (the larger on
// a tie); zero stays "0". amax: the largest |value|. False, leaving `t` alone,
// when no unit is narrower than every digit (a zoom onto 123,457,000 and 123,457,500).
bool count_labels(PrintTicks& t, double amax) {
    static const std::pair<double, const char*> units[] = {{1e9, "B"}, {1e6, "M"}, {1e3, "k"}};
    auto widest = [](const std::vector<std::string>& l) {
        size_t w = 0;
        for (const std::string& s : l) w = std::max(w, s.size());
        return w;
    };
    std::vector<std::string> best;
    for (double x : t.values) best.push_back(fixed(x, 0));
    const size_t plain = widest(best);
    for (const auto& [unit, name] : units) {
        if (amax < unit) continue;
        std::vector<double> scaled;
        for (double x : t.values) scaled.push_back(x / unit);
        const int d = decimals_for(scaled);
        if (d > 1) continue;
        std::vector<std::string> l;
        for (double x : scaled) l.push_back(x == 0 ? std::string("0") : fixed(x, d) + name);
        if (widest(l) < widest(best)) best = std::move(l);
    }
    if (widest(best) == plain) return false;
    t.labels = std::move(best);
    return true;
}

}  // namespace

std::string superscript(int n) {
    static const char* digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
    std::string s = n < 0 ? "⁻" : "";
    const std::string d = std::to_string(std::abs(n));
    for (char c : d) s += digits[c - '0'];
    return s;
}

std::string scientific(double v) {
    if (v == 0 || !std::isfinite(v)) return fixed(v, 0);
    int e = static_cast<int>(std::floor(std::log10(std::abs(v))));
    double m = v / std::pow(10.0, e);
    if (std::abs(m) >= 10 * (1 - 1e-6)) m /= 10, ++e;   // 9.9999999 is 10 to decimals_for: 1×10¹
    const int d = decimals_for({m});
    if (d == 0 && std::abs(std::abs(m) - 1) < 1e-6) return (m < 0 ? "-10" : "10") + superscript(e);
    return fixed(m, d) + "×10" + superscript(e);
}

PrintTicks label_ticks(std::vector<double> values, bool log, bool counts) {
    PrintTicks t;
    t.values = std::move(values);
    const auto& v = t.values;
    if (v.empty()) return t;
    double amax = 0, amin = std::numeric_limits<double>::infinity();
    for (double x : v) amax = std::max(amax, std::abs(x)), amin = std::min(amin, std::abs(x) > 0 ? std::abs(x) : amin);
    bool even = v.size() > 2;   // evenly spaced: one number of decimals for all (0.0, 0.5, 1.0)
    for (size_t i = 2; i < v.size(); ++i)
        even = even && std::abs((v[i] - v[i - 1]) - (v[1] - v[0])) < 1e-6 * std::abs(v[1] - v[0]);
    if (!log || (v.front() > 0 && v.back() < 10 * v.front())) even = true;   // within a decade: 2.5 3.0 4.0, not 2.5 3 4
    auto write = [&](const std::vector<double>& w) {
        t.labels.clear();
        const int d = decimals_for(w);
        for (double x : w) t.labels.push_back(fixed(x, even ? d : decimals_for({x})));
    };
    if (counts && !log && amax >= 1e4) {
        if (!count_labels(t, amax)) write(v);   // every digit ("1000002"), never a factor a heatmap would not draw
        return t;
    }
    const bool plain = log ? (amin >= 1e-3 * (1 - 1e-9) && amax < 1e5 * (1 + 1e-9)) : (amax == 0 || (amax >= 1e-3 && amax < 1e6 * (1 + 1e-9)));
    if (plain) {
        write(v);
        return t;
    }
    bool powers = log;
    for (double x : v) powers = powers && is_power_of_ten(x);
    if (powers) {
        for (double x : v) t.labels.push_back("10" + superscript(static_cast<int>(std::lround(std::log10(x)))));
        return t;
    }
    // A log axis over a decade or more: each tick in its own power (LogFormatterSciNotation: "3×10⁻³ 10⁻³
    // 3×10⁻⁴"), not a factor its ticks are hundreds of ("300 100 30 ×10⁻⁵"). Within a decade a factor keeps
    // their decimals alike ("2.5 3.0 ×10⁻⁴").
    if (log && v.size() >= 2 && v.back() >= 10 * v.front() * (1 - 1e-9)) {
        for (double x : v) t.labels.push_back(scientific(x));
        return t;
    }
    // A common factor: 10^e of the largest (linear) or smallest (log) value.
    const int e = static_cast<int>(std::floor(std::log10(log ? amin : amax) + 1e-9));
    std::vector<double> scaled;
    for (double x : v) scaled.push_back(x / std::pow(10.0, e));
    write(scaled);
    t.factor = "×10" + superscript(e);
    return t;
}

PrintTicks print_ticks(double lo, double hi, bool log, int target, int min_count, int max_count, bool integer) {
    if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || (log && !(lo > 0)))
        return label_ticks(std::isfinite(lo) && (!log || lo > 0) ? std::vector<double>{lo} : std::vector<double>{}, log);
    Candidate best;
    if (!log) {
        linear_candidates(best, lo, hi, target, min_count, max_count, integer, 0.0, false);
        return label_ticks(best.values, false, integer);
    }
    const double decades = std::log10(hi / lo);
    const int e0 = static_cast<int>(std::floor(std::log10(lo))) - 1, e1 = static_cast<int>(std::ceil(std::log10(hi))) + 1;
    auto in = [&](double x) { return x >= lo * (1 - 1e-9) && x <= hi * (1 + 1e-9); };
    // Powers of ten, every one or every n-th: the ticks people read a log axis by.
    for (int every = 1; every <= std::max(1, static_cast<int>(decades)); ++every) {
        std::vector<double> v;
        for (int e = e0; e <= e1; ++e)
            if (((e % every) + every) % every == 0 && in(std::pow(10.0, e))) v.push_back(std::pow(10.0, e));
        const double sc = score_of(v.size(), target, min_count, max_count, 0.2 * (every - 1));
        consider(best, std::move(v), sc);
    }
    // Mantissas within each decade, for a range of a few decades.
    const std::vector<std::vector<double>> mantissas = {{1, 3}, {1, 2, 5}, {1, 2, 3, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
    for (size_t m = 0; m < mantissas.size(); ++m) {
        std::vector<double> v;
        for (int e = e0; e <= e1; ++e)
            for (double k : mantissas[m])
                if (in(k * std::pow(10.0, e))) v.push_back(k * std::pow(10.0, e));
        const double sc = score_of(v.size(), target, min_count, max_count, 0.3 + 0.2 * static_cast<double>(m));
        consider(best, std::move(v), sc);
    }
    // Less than a decade or so: evenly spaced ticks read best.
    if (decades < 1.2) linear_candidates(best, lo, hi, target, min_count, max_count, integer, 0.6, true);
    return label_ticks(best.values, true);
}

}  // namespace normlab
