// A run's series as the store holds it, and how far two runs' series are
// apart (test_static_step, test_cuda_model_emulated).
#pragma once

#include "core/store/store.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace normlab::test {

inline std::map<int64_t, double> series(Store& s, int64_t run, const char* name) {
    std::map<int64_t, double> m;
    for (auto& p : s.points(s.series_id(run, name))) m[p.step] = p.value;
    return m;
}

// The largest relative difference of two series over their common steps (-1: different steps).
inline double max_rel(const std::map<int64_t, double>& a, const std::map<int64_t, double>& b) {
    if (a.size() != b.size()) return -1;
    double worst = 0;
    for (auto& [k, v] : a) {
        auto it = b.find(k);
        if (it == b.end()) return -1;
        worst = std::max(worst, std::abs(v - it->second) / std::max(1e-12, std::abs(v)));
    }
    return worst;
}

}  // namespace normlab::test
