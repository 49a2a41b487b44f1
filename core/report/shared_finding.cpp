// NormLab core: a finding that several experiments of one report name, measured once on all their runs
// (see report.h).
#include "core/report/report.h"

#include "core/errors.h"
#include "core/report/measure.h"

#include <map>
#include <set>

namespace normlab::report {

using nlohmann::json;

namespace {

// "model.d_model" → "128": every leaf of a configuration (an array is one leaf).
void flatten(const json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
    if (j.is_object()) {
        for (auto& [k, v] : j.items()) flatten(v, prefix.empty() ? k : prefix + "." + k, out);
        return;
    }
    out[prefix] = j.dump();
}

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

std::string shown(const std::string& value) { return value.empty() ? "nothing" : value; }

}  // namespace

void check_shared_finding(int number, const std::vector<FindingSource>& sources) {
    if (sources.size() < 2) return;
    const FindingSource& first = sources.front();
    const std::string n = std::to_string(number);
    auto where = [](const FindingSource& s) { return "report[" + std::to_string(s.entry) + "]"; };
    auto fix = "; a finding is measured once, on the runs of every experiment that names it: name it in one of "
               "them, or give them the same ";
    for (size_t i = 1; i < sources.size(); ++i)
        if (sources[i].options != first.options && sources[i].file == first.file)
            throw ConfigError(where(sources[i]), base_name(first.file) + " names finding " + n + " twice, as " +
                                                     first.options.dump() + " and " + sources[i].options.dump() +
                                                     "; a finding is measured once: keep one of the two entries");
        else if (sources[i].options != first.options)
            throw ConfigError(where(sources[i]), base_name(sources[i].file) + " names finding " + n + " as " +
                                                     sources[i].options.dump() + " where " + base_name(first.file) +
                                                     " has " + first.options.dump() + fix + "options");
    // Each source's settings, and the settings any of them varies (its variants and sweeps).
    std::vector<std::map<std::string, std::string>> settings(sources.size());
    std::set<std::string> varied;
    for (size_t i = 0; i < sources.size(); ++i) {
        bool first_run = true;
        for (auto& c : sources[i].configs) {
            const json comparable = detail::comparable_config(c);
            if (comparable.is_null()) continue;   // parsed when the experiment was loaded: not expected
            std::map<std::string, std::string> flat;
            flatten(comparable, "", flat);
            if (first_run) {
                settings[i] = flat;
                first_run = false;
                continue;
            }
            for (auto& [k, v] : flat)
                if (auto it = settings[i].find(k); it == settings[i].end() || it->second != v) varied.insert(k);
            for (auto& [k, v] : settings[i])
                if (!flat.count(k)) varied.insert(k);
        }
    }
    for (size_t i = 1; i < sources.size(); ++i) {
        std::set<std::string> keys;
        for (auto& [k, v] : settings[0]) keys.insert(k);
        for (auto& [k, v] : settings[i]) keys.insert(k);
        for (auto& k : keys) {
            if (varied.count(k)) continue;
            const auto a = settings[0].count(k) ? settings[0].at(k) : "", b = settings[i].count(k) ? settings[i].at(k) : "";
            if (a != b)
                throw ConfigError(where(sources[i]), base_name(sources[i].file) + " trains finding " + n + " with " + k +
                                                         " " + shown(b) + " where " + base_name(first.file) + " has " +
                                                         shown(a) + fix + "set-up");
        }
    }
}

std::vector<RunData> union_of_runs(const std::vector<const std::vector<RunData>*>& sets) {
    std::vector<RunData> out;
    std::set<int64_t> ids;
    for (auto* set : sets)
        for (auto& r : *set)
            if (r.id == 0 || ids.insert(r.id).second) out.push_back(r);
    return out;
}

}  // namespace normlab::report
