// NormLab core: run colours (palette.h).
#include "core/palette.h"

#include <cctype>
#include <set>

namespace normlab {

std::string palette_color(int64_t i) {
    static const char* const kTableau10[] = {"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1",
                                             "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
    return kTableau10[((i % 10) + 10) % 10];
}

std::string default_run_color(int64_t run_id) { return palette_color(run_id - 1); }

std::vector<std::string> distinct_colors(const std::vector<std::string>& colors, size_t fixed) {
    auto lower = [](std::string c) {
        for (char& ch : c) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        return c;
    };
    std::set<std::string> taken;
    for (size_t i = 0; i < colors.size() && i < fixed; ++i) taken.insert(lower(colors[i]));
    std::vector<std::string> out = colors;
    int64_t next = 0;
    for (size_t i = fixed; i < colors.size(); ++i) {
        if (taken.count(lower(colors[i]))) {
            // the first palette colour nobody shown has; past ten, the palette again
            int64_t k = next;
            while (k < next + 10 && taken.count(palette_color(k))) ++k;
            out[i] = palette_color(k);
            next = k + 1;
        }
        taken.insert(lower(out[i]));
    }
    return out;
}

bool is_hex_color(const std::string& s) {
    if (s.size() != 7 || s[0] != '#') return false;
    for (size_t i = 1; i < 7; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

}  // namespace normlab
