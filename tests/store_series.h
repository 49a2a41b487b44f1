// A run's series as the store holds it, and how far two runs' series are
// apart (test_static_step, test_cuda_model_emulated); one point of a series
// (test_model, test_norm_input_probe).
#pragma once

#include "core/store/store.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

namespace normlab::test {

inline std::map<int64_t, double> series(Store& s, int64_t run, const char* name) {
    std::map<int64_t, double> m;
    for (auto& p : s.points(s.series_id(run, name))) m[p.step] = p.value;
    return m;
}

// The value a run's series (of a layer, -1: none) recorded at a step; fails the test where it recorded none.
inline double stored(Store& s, int64_t run, const std::string& series, int layer, int64_t step) {
    for (auto& p : s.points(s.series_id(run, series, layer)))
        if (p.step == step) return p.value;
    qFatal("no point %s layer %d step %lld", series.c_str(), layer, static_cast<long long>(step));
    return 0;
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
