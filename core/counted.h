// NormLab core: a count with its noun, for messages in English ("1 run",
// "3 runs", "2 array tasks"), not "run(s)". The window's messages have their
// plurals through Qt (translations/strings_en.py).
#pragma once

#include <string>

namespace normlab {

inline std::string counted(long long n, const std::string& noun, const std::string& plural = "") {
    return std::to_string(n) + " " + (n == 1 ? noun : plural.empty() ? noun + "s" : plural);
}

}  // namespace normlab
