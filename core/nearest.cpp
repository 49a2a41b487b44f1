#include "core/nearest.h"

#include <algorithm>

namespace normlab {

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string nearest(const std::string& word, const std::vector<std::string>& choices, size_t max_distance) {
    std::string best;
    size_t best_d = max_distance + 1;
    for (const std::string& c : choices)
        if (const size_t d = edit_distance(word, c); d < best_d) best_d = d, best = c;
    return best;
}

}  // namespace normlab
