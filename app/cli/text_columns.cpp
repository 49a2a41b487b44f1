// normlab-cli: text measured in a terminal's columns (UTF-8, East Asian wide
// characters two), and wrapped to a width: `list`'s columns, `validate`'s
// description.
#include "app/cli/cli.h"

#include <algorithm>

namespace normlab::cli {

std::pair<char32_t, size_t> code_point(const std::string& s, size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
    if (n == 1 || i + n > s.size()) return {b, 1};
    char32_t cp = b & (0xFF >> (n + 1));
    for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    return {cp, n};
}

int columns(char32_t c) {
    const bool wide = (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
                      (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                      (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1FAFF) || c >= 0x20000;
    return wide ? 2 : 1;
}

int width_of(const std::string& s) {
    int w = 0;
    for (size_t i = 0; i < s.size();) {
        auto [c, n] = code_point(s, i);
        w += columns(c);
        i += n;
    }
    return w;
}

size_t bytes_within(const std::string& s, int width) {
    int w = 0;
    size_t i = 0;
    while (i < s.size()) {
        auto [c, n] = code_point(s, i);
        if (w + columns(c) > width) break;
        w += columns(c);
        i += n;
    }
    return i;
}

// `s` padded to `width` columns, or cut to it with "…" (never inside a character).
std::string fit(const std::string& s, int width) {
    const int w = width_of(s);
    if (w <= width) return s + std::string(static_cast<size_t>(width - w), ' ');
    const std::string head = s.substr(0, bytes_within(s, width - 1));
    return head + "…" + std::string(static_cast<size_t>(width - 1 - width_of(head)), ' ');
}

std::vector<std::string> wrap_columns(const std::string& text, int width) {
    std::vector<std::string> lines;
    std::string line;
    int line_w = 0;
    auto flush = [&] {
        if (!line.empty()) lines.push_back(line);
        line.clear();
        line_w = 0;
    };
    for (size_t i = 0; i < text.size();) {
        if (text[i] == ' ') {
            ++i;
            continue;
        }
        const size_t end = std::min(text.find(' ', i), text.size());
        std::string word = text.substr(i, end - i);
        i = end;
        // A word longer than a line (a path, a URL) is cut at the width, between characters
        // (a character wider than the line goes whole).
        for (size_t k; width_of(word) > width && (k = bytes_within(word, width)) > 0; word.erase(0, k)) {
            flush();
            lines.push_back(word.substr(0, k));
        }
        const int ww = width_of(word);
        if (!line.empty() && line_w + 1 + ww > width) flush();
        if (!line.empty()) {
            line += ' ';
            ++line_w;
        }
        line += word;
        line_w += ww;
    }
    flush();
    return lines;
}

}  // namespace normlab::cli
