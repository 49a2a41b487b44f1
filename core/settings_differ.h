// NormLab core: the settings in which stored runs' configurations differ — what
// the window's "Settings that differ" panel and `normlab-cli show A B` list,
// and what the Sweep draws an axis for. No LibTorch, no Qt.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace normlab {

// The scheme a stored configuration names; "" where it names none.
std::string scheme_of(const nlohmann::json& config);

// Whether each run has `key` at the value its scheme gives it (run_config_from_json of the scheme
// alone: the defaults with the scheme's preset applied), so that the scheme says it already.
// Each scheme's defaults are computed once per object.
class SchemeDefaults {
public:
    // schemes[i]: run i's scheme ("" where its config names none); v[i]: its value of `key` (nullptr: absent)
    bool implied(const std::string& key, const std::vector<std::string>& schemes, const std::vector<const nlohmann::json*>& v);

private:
    std::map<std::string, std::map<std::string, nlohmann::json>> cache_;
    const std::map<std::string, nlohmann::json>* defaults(const std::string& scheme);
};

struct DifferingSettings {
    // The dotted keys on which the configurations differ — a key some runs lack counts, and "name"
    // never: the scheme first, then what the runs chose, then those their schemes imply (every run has
    // them at its own scheme's value; the Sweep leaves such keys out).
    std::vector<std::string> keys;
    size_t implied_from = 0;   // keys[implied_from...] are the implied ones
    std::vector<std::map<std::string, nlohmann::json>> leaves;   // each run's settings by dotted key
};
DifferingSettings differing_settings(const std::vector<nlohmann::json>& configs);

// A setting's value as a table shows it: a text without its quotes, a fraction to six significant
// digits (a random search's 0.00018566433578077863 took a column's width), "—" where the run has none.
std::string setting_text(const nlohmann::json* v);

}  // namespace normlab
