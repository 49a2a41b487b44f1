// NormLab core: run colours (palette.h).
#include "core/palette.h"

#include <cctype>

namespace normlab {

std::string palette_color(int64_t i) {
    static const char* const kTableau10[] = {"#4e79a7", "#e15759", "#59a14f", "#f28e2b", "#b07aa1",
                                             "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#bab0ac"};
    return kTableau10[((i % 10) + 10) % 10];
}

std::string default_run_color(int64_t run_id) { return palette_color(run_id - 1); }

bool is_hex_color(const std::string& s) {
    if (s.size() != 7 || s[0] != '#') return false;
    for (size_t i = 1; i < 7; ++i)
        if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
    return true;
}

}  // namespace normlab
