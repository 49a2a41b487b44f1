// NormLab core: the known word a mistyped one was most likely meant to be
// ("did you mean …?"), for configuration fields, command-line options and commands.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace normlab {

// Levenshtein distance: insertions, deletions and substitutions of bytes.
size_t edit_distance(const std::string& a, const std::string& b);

// The choice nearest `word` within `max_distance` edits (the first of equals), or "" where none is.
std::string nearest(const std::string& word, const std::vector<std::string>& choices, size_t max_distance = 2);

}  // namespace normlab
