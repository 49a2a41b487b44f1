// NormLab core: a finding that several experiments of one report name, measured once on all their runs
// (see report.h).
#include "core/report/report.h"

#include "core/errors.h"
#include "core/experiment.h"
#include "core/report/measure.h"

#include <map>
#include <set>

namespace normlab::report {

using nlohmann::json;

namespace {

std::string base_name(const std::string& path) { return path.substr(path.find_last_of('/') + 1); }

std::string shown(const json* value) { return value ? value->dump() : "nothing"; }

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
    std::vector<std::map<std::string, json>> settings(sources.size());
    std::set<std::string> varied;
    for (size_t i = 0; i < sources.size(); ++i) {
        for (auto& c : sources[i].configs) {
            const json comparable = detail::comparable_config(c);
            if (comparable.is_null()) continue;   // parsed when the experiment was loaded: not expected
            const auto flat = dotted_leaves(comparable);
            if (settings[i].empty()) {
                settings[i] = flat;
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
            const auto ia = settings[0].find(k), ib = settings[i].find(k);
            const json* a = ia == settings[0].end() ? nullptr : &ia->second;
            const json* b = ib == settings[i].end() ? nullptr : &ib->second;
            if (!a || !b || *a != *b)
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
