// NormLab core: the settings in which stored runs differ (see settings_differ.h).
#include "core/settings_differ.h"

#include "core/config.h"
#include "core/experiment.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace normlab {

using nlohmann::json;

std::string scheme_of(const json& config) {
    const auto it = config.find("scheme");
    return it != config.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool SchemeDefaults::implied(const std::string& key, const std::vector<std::string>& schemes, const std::vector<const json*>& v) {
    for (size_t i = 0; i < schemes.size(); ++i) {
        if (schemes[i].empty() || !v[i]) return false;
        const auto* d = defaults(schemes[i]);
        if (!d) return false;
        const auto want = d->find(key);
        if (want == d->end() || want->second != *v[i]) return false;
    }
    return true;
}

const std::map<std::string, json>* SchemeDefaults::defaults(const std::string& scheme) {
    if (auto it = cache_.find(scheme); it != cache_.end()) return &it->second;
    try {
        return &cache_.emplace(scheme, dotted_leaves(to_json(run_config_from_json(json{{"scheme", scheme}})))).first->second;
    } catch (const std::exception&) {
        return nullptr;   // a scheme this build does not know: it implies nothing
    }
}

DifferingSettings differing_settings(const std::vector<json>& configs) {
    DifferingSettings d;
    if (configs.size() < 2) return d;
    std::set<std::string> all;   // every run's keys: one a newer version records differs from its absence
    for (const json& c : configs) {
        d.leaves.push_back(dotted_leaves(c));
        d.leaves.back().erase("name");
        for (auto& [k, v] : d.leaves.back()) all.insert(k);
    }
    for (const std::string& k : all) {
        const auto first = d.leaves.front().find(k);
        for (const auto& l : d.leaves) {
            const auto it = l.find(k);
            const bool same = it == l.end() ? first == d.leaves.front().end()
                                            : first != d.leaves.front().end() && it->second == first->second;
            if (!same) {
                d.keys.push_back(k);
                break;
            }
        }
    }
    // The scheme first, then what the runs chose, then what their schemes imply (four schemes differ in
    // layout, final_norm and NormFormer's switches because they are four schemes).
    std::vector<std::string> schemes, implied;
    for (const json& c : configs) schemes.push_back(scheme_of(c));
    SchemeDefaults defaults;
    for (const std::string& key : d.keys) {
        if (key == "scheme") continue;
        std::vector<const json*> v;
        for (const auto& l : d.leaves) {
            const auto it = l.find(key);
            v.push_back(it != l.end() ? &it->second : nullptr);
        }
        if (defaults.implied(key, schemes, v)) implied.push_back(key);
    }
    const auto rank = [&](const std::string& k) {
        return k == "scheme" ? 0 : std::find(implied.begin(), implied.end(), k) != implied.end() ? 2 : 1;
    };
    std::stable_sort(d.keys.begin(), d.keys.end(), [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    d.implied_from = d.keys.size() - implied.size();
    return d;
}

std::string setting_text(const json* v) {
    if (!v || v->is_null()) return "\u2014";
    if (v->is_string()) return v->get<std::string>();
    if (v->is_number_float()) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", v->get<double>());
        return buf;
    }
    return v->dump();
}

}  // namespace normlab
