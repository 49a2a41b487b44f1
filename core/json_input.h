// NormLab core: reading JSON that a person wrote, strictly.
//
// nlohmann::json accepts duplicate keys (the last wins), documents nested
// deeply enough to overflow any recursive reader, and numbers beyond double
// range with an exception of its own. Experiment files are read here instead:
// a duplicate key, nesting deeper than kMaxJsonDepth, a number out of range
// or a file that is not a regular file of a sane size is a ConfigError that
// names the place (file:line:column and the field path).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <string>

namespace normlab {

constexpr int kMaxJsonDepth = 64;
constexpr std::size_t kMaxExperimentBytes = 16u << 20;   // 16 MiB: experiments are small

// Parses `text`; `origin` ("experiments/x.json" or "") prefixes positions.
nlohmann::json parse_json_strict(const std::string& text, const std::string& origin = "");

// Reads and parses a regular file of at most `max_bytes`.
nlohmann::json read_json_file(const std::string& path, std::size_t max_bytes = kMaxExperimentBytes);

// JSON a program wrote (a store's info, the window's settings, a follower's line), read leniently:
// a field of `obj` as the type it should have, or the default where it is missing, of another type
// or `obj` is no object; never thrown (nlohmann's value() throws on another type).
std::string string_field(const nlohmann::json& obj, const char* key, const std::string& otherwise = "");
int64_t int_field(const nlohmann::json& obj, const char* key, int64_t otherwise = 0);

}  // namespace normlab
