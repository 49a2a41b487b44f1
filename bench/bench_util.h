// normlab-bench: what its benchmarks share (bench_core.cpp, bench_ops.cpp,
// bench_sample.cpp): the median of repeated timings and the options they read.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace normlab::bench {

using Options = std::map<std::string, std::string>;   // "--name" → value

// The median (0 for none): what every benchmark reports of alternated repetitions.
inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : (v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]));
}

// An integer option, or `d` where it is not given.
inline int geti(const Options& o, const std::string& k, int d) {
    const auto it = o.find(k);
    return it == o.end() ? d : std::stoi(it->second);
}

}  // namespace normlab::bench
