// NormLab core: run groups and their bands (see groups.h).
#include "core/groups.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace normlab {

namespace {

void erase_path(nlohmann::json& j, const std::string& dotted) {
    nlohmann::json* node = &j;
    size_t start = 0;
    for (;;) {
        const size_t dot = dotted.find('.', start);
        const std::string key = dotted.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
        if (!node->is_object() || !node->contains(key)) return;
        if (dot == std::string::npos) {
            node->erase(key);
            return;
        }
        node = &(*node)[key];
        start = dot + 1;
    }
}

}  // namespace

std::vector<int> group_runs(const std::vector<nlohmann::json>& configs, const std::vector<std::string>& ignore) {
    std::vector<std::string> keys;
    std::vector<int> out;
    for (const auto& c : configs) {
        nlohmann::json j = c;
        for (const auto& path : ignore) erase_path(j, path);
        const std::string k = j.dump();
        const auto it = std::find(keys.begin(), keys.end(), k);
        if (it == keys.end()) {
            out.push_back(static_cast<int>(keys.size()));
            keys.push_back(k);
        } else {
            out.push_back(static_cast<int>(it - keys.begin()));
        }
    }
    return out;
}

std::string group_name(const std::vector<std::string>& names) {
    if (names.empty()) return "";
    std::string common = names.front();
    for (const auto& n : names) {
        size_t k = 0;
        while (k < common.size() && k < n.size() && common[k] == n[k]) ++k;
        common.resize(k);
    }
    auto trim = [&] {
        while (!common.empty() && std::string(" =,:;-_#(").find(common.back()) != std::string::npos) common.pop_back();
    };
    trim();
    for (const char* tail : {"seed", "Seed", "SEED"}) {
        const std::string t = tail;
        if (common.size() >= t.size() && common.compare(common.size() - t.size(), t.size(), t) == 0) {
            common.resize(common.size() - t.size());
            trim();
        }
    }
    return common.empty() ? names.front() : common;
}

Band band_of(const std::vector<const std::vector<double>*>& xs, const std::vector<const std::vector<double>*>& ys,
             BandKind kind) {
    Band b;
    const size_t n = std::min(xs.size(), ys.size());
    if (n == 0) return b;
    // x → the values of the runs that have it, in run order.
    std::map<double, std::vector<double>> at;
    for (size_t r = 0; r < n; ++r)
        for (size_t i = 0; i < xs[r]->size() && i < ys[r]->size(); ++i) {
            auto& v = at[(*xs[r])[i]];
            if (v.size() == r) v.push_back((*ys[r])[i]);   // a repeated x within one run counts once
        }
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (auto& [x, v] : at) {
        if (v.size() != n) continue;
        double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
        int finite = 0;
        for (double y : v)
            if (std::isfinite(y)) sum += y, lo = std::min(lo, y), hi = std::max(hi, y), ++finite;
        b.x.push_back(x);
        if (finite == 0) {
            b.mean.push_back(nan), b.lo.push_back(nan), b.hi.push_back(nan);
            continue;
        }
        const double mean = sum / finite;
        b.mean.push_back(mean);
        if (kind == BandKind::MinMax) {
            b.lo.push_back(lo);
            b.hi.push_back(hi);
        } else {
            double ss = 0;
            for (double y : v)
                if (std::isfinite(y)) ss += (y - mean) * (y - mean);
            const double sd = std::sqrt(ss / finite);
            b.lo.push_back(mean - sd);
            b.hi.push_back(mean + sd);
        }
    }
    return b;
}

}  // namespace normlab
