// NormLab core: experiment expansion (see experiment.h).
#include "core/experiment.h"

#include "core/errors.h"
#include "core/json_input.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

namespace normlab {

namespace fs = std::filesystem;

using nlohmann::json;

namespace {
std::vector<std::string> split_path(const std::string& dotted) {
    std::vector<std::string> parts;
    std::stringstream ss(dotted);
    std::string p;
    while (std::getline(ss, p, '.')) parts.push_back(p);
    return parts;
}
}  // namespace

const json* find_path(const json& j, const std::string& dotted) {
    const json* cur = &j;
    for (auto& p : split_path(dotted)) {
        if (!cur->is_object()) return nullptr;
        auto it = cur->find(p);
        if (it == cur->end()) return nullptr;
        cur = &*it;
    }
    return cur;
}

static void add_leaves(const json& j, const std::string& prefix, std::map<std::string, json>& out) {
    if (!j.is_object()) {
        out[prefix] = j;
        return;
    }
    for (auto it = j.begin(); it != j.end(); ++it) add_leaves(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
}

std::map<std::string, json> dotted_leaves(const json& j) {
    std::map<std::string, json> out;
    add_leaves(j, "", out);
    return out;
}

void set_path(json& j, const std::string& dotted, const json& value) {
    json* cur = &j;
    for (auto& p : split_path(dotted)) {
        if (!cur->is_object()) *cur = json::object();
        cur = &(*cur)[p];
    }
    *cur = value;
}

namespace {

bool has_path(const json& j, const std::string& dotted) { return find_path(j, dotted) != nullptr; }

std::string value_label(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

}  // namespace

json merge_json(const json& base, const json& over) {
    if (!base.is_object() || !over.is_object()) return over;
    json out = base;
    for (auto it = over.begin(); it != over.end(); ++it)
        out[it.key()] = out.contains(it.key()) ? merge_json(out[it.key()], it.value()) : it.value();
    return out;
}

Experiment parse_experiment(const json& original, const std::string& name_hint, const std::string& scale) {
    if (!original.is_object())
        throw ConfigError("", "an experiment must be a JSON object with \"base\", \"variants\" and/or \"sweep\"");
    static const std::set<std::string> known{"name", "description", "base", "variants", "sweep", "scales", "report"};
    for (auto it = original.begin(); it != original.end(); ++it)
        if (!known.count(it.key()))
            throw ConfigError(it.key(), "unknown field; an experiment has name, description, base, variants, sweep,"
                                        " scales and report (run settings go inside \"base\")");
    Experiment ex;
    ex.spec = original;
    ex.scale = scale;
    json spec = original;
    if (original.contains("scales")) {
        const json& sc = original["scales"];
        if (!sc.is_object()) throw ConfigError("scales", "expected an object {\"gpu\": {\"base\": {...}}, ...}");
        for (auto it = sc.begin(); it != sc.end(); ++it) {
            if (!it.value().is_object())
                throw ConfigError("scales." + it.key(), "expected a partial experiment (an object with base, sweep, ...)");
            for (auto jt = it.value().begin(); jt != it.value().end(); ++jt)
                if (!known.count(jt.key()) || jt.key() == "scales" || jt.key() == "name")
                    throw ConfigError("scales." + it.key() + "." + jt.key(),
                                      "unknown field; a scale may override description, base, variants, sweep and report");
            ex.scales.push_back(it.key());
        }
        spec.erase("scales");
    }
    if (!scale.empty()) {
        if (!original.contains("scales") || !original["scales"].contains(scale)) {
            std::string names;
            for (auto& s : ex.scales) names += (names.empty() ? "" : ", ") + s;
            throw ConfigError("scales", "this experiment has no scale \"" + scale + "\"" +
                                            (names.empty() ? std::string("; it offers only its default preset")
                                                           : "; choose one of: " + names));
        }
        spec = merge_json(spec, original["scales"][scale]);
    }
    if (spec.contains("report")) {
        if (!spec["report"].is_array()) throw ConfigError("report", "expected an array of {\"finding\": N, ...}");
        for (size_t i = 0; i < spec["report"].size(); ++i) {
            const json& r = spec["report"][i];
            const std::string where = "report[" + std::to_string(i) + "]";
            if (!r.is_object() || !r.contains("finding") || !r["finding"].is_number_integer())
                throw ConfigError(where, "expected an object with an integer \"finding\" (see docs/REPRODUCTION.md)");
        }
        ex.report = spec["report"];
    }
    ex.name = name_hint;
    require_safe_name("name", ex.name);   // the file's name stands for it: rename the file or give a "name"
    if (spec.contains("name")) {
        if (!spec["name"].is_string() || spec["name"].get<std::string>().empty())
            throw ConfigError("name", "expected a non-empty string");
        ex.name = spec["name"].get<std::string>();
        require_safe_name("name", ex.name);
    }
    if (spec.contains("description")) {
        if (!spec["description"].is_string()) throw ConfigError("description", "expected a string");
        ex.description = spec["description"].get<std::string>();
    }
    json base = spec.value("base", json::object());
    if (!base.is_object()) throw ConfigError("base", "expected an object with a run configuration");
    if (base.contains("name")) throw ConfigError("base.name", "runs are named by their variant and sweep values; remove it");

    // Variants: each {"name": ..., overrides...}; none means the base alone.
    std::vector<std::pair<std::string, json>> variants;
    if (spec.contains("variants")) {
        const json& vs = spec["variants"];
        if (!vs.is_array() || vs.empty()) throw ConfigError("variants", "expected a non-empty array of objects");
        std::set<std::string> names;
        for (size_t i = 0; i < vs.size(); ++i) {
            const std::string where = "variants[" + std::to_string(i) + "]";
            if (!vs[i].is_object()) throw ConfigError(where, "expected an object");
            json v = vs[i];
            std::string vname;
            if (v.contains("name")) {
                if (!v["name"].is_string() || v["name"].get<std::string>().empty())
                    throw ConfigError(where + ".name", "expected a non-empty string");
                vname = v["name"].get<std::string>();
                require_safe_name(where + ".name", vname);
                v.erase("name");
            } else if (v.contains("scheme") && v["scheme"].is_string()) {
                vname = v["scheme"].get<std::string>();
            } else {
                vname = "v" + std::to_string(i);
            }
            if (!names.insert(vname).second)
                throw ConfigError(where + ".name", "\"" + vname + "\" is used by an earlier variant; names must be unique");
            variants.emplace_back(vname, v);
        }
    } else {
        // A scheme that is no string is reported by the configuration parser (base.scheme).
        const bool named = base.contains("scheme") && base["scheme"].is_string();
        variants.emplace_back(named ? base["scheme"].get<std::string>() : std::string("run"), json::object());
    }

    // Sweep axes: dotted path -> non-empty array of values.
    std::vector<std::pair<std::string, json>> axes;
    if (spec.contains("sweep")) {
        const json& sw = spec["sweep"];
        if (!sw.is_object()) throw ConfigError("sweep", "expected an object {\"optim.lr\": [values...], ...}");
        for (auto it = sw.begin(); it != sw.end(); ++it) {
            if (!it.value().is_array() || it.value().empty())
                throw ConfigError("sweep." + it.key(), "expected a non-empty array of values");
            if (it.key() == "name") throw ConfigError("sweep.name", "names cannot be swept");
            const std::string& k = it.key();
            if (k.empty() || k.front() == '.' || k.back() == '.' || k.find("..") != std::string::npos)
                throw ConfigError("sweep", "\"" + k + "\" is not a field path; name the field to sweep, e.g. \"optim.lr\"");
            axes.emplace_back(it.key(), it.value());
        }
    }
    // Counted with a cap, so 64 axes of two values cannot wrap around to 0 runs.
    constexpr size_t kMaxRuns = 10000;
    size_t points = 1;
    for (auto& [k, vals] : axes) {
        points *= vals.size();
        if (points * variants.size() > kMaxRuns)
            throw ConfigError("sweep", "expands to more than " + std::to_string(kMaxRuns) + " runs (" +
                                           std::to_string(axes.size()) + " axes); at most " +
                                           std::to_string(kMaxRuns) + " are allowed — sweep fewer values");
    }

    std::set<std::string> run_names;
    for (size_t vi = 0; vi < variants.size(); ++vi) {
        const auto& [vname, vjson] = variants[vi];
        for (size_t p = 0; p < points; ++p) {
            json merged = merge_json(base, vjson);
            std::string name = vname;
            std::vector<size_t> pick(axes.size());
            size_t rest = p;
            for (size_t a = axes.size(); a-- > 0;) {
                pick[a] = rest % axes[a].second.size();
                rest /= axes[a].second.size();
            }
            for (size_t a = 0; a < axes.size(); ++a) {
                const json& val = axes[a].second[pick[a]];
                set_path(merged, axes[a].first, val);
                const auto parts = split_path(axes[a].first);
                name += " " + (parts.empty() ? axes[a].first : parts.back()) + "=" + value_label(val);
            }
            merged["name"] = name;
            ExperimentRun run;
            try {
                run.config = run_config_from_json(merged);
                validate(run.config);
            } catch (const ConfigError& e) {
                // Point at the place the user wrote the value.
                for (size_t a = 0; a < axes.size(); ++a)
                    if (e.path() == axes[a].first || e.path().rfind(axes[a].first + ".", 0) == 0)
                        throw ConfigError("sweep." + axes[a].first + "[" + std::to_string(pick[a]) + "]",
                                          e.message());
                const std::string variant = "variants[" + std::to_string(vi) + "]";
                if (spec.contains("variants") && has_path(vjson, e.path())) throw e.prefixed(variant);
                if (has_path(base, e.path()) || !spec.contains("variants")) throw e.prefixed("base");
                // A default or preset value: blame the variant when it chose the scheme.
                if (has_path(vjson, "scheme")) throw e.prefixed(variant);
                throw e.prefixed("base");
            }
            if (!run_names.insert(name).second)
                throw ConfigError("variants", "two runs would both be named \"" + name + "\"; rename a variant");
            run.name = name;
            run.resolved = to_json(run.config);
            run.variant = spec.contains("variants") ? static_cast<int>(vi) : -1;
            ex.runs.push_back(std::move(run));
        }
    }
    return ex;
}

namespace {

// A relative data.path that does not exist from the working directory, looked
// for beside the experiment file and in each folder above it: found there, the
// runs read it by its absolute path. The reproduction experiments in
// experiments/reproduction/ name normlab-data/english.txt, which is in the
// project's root; the window's report, started from the home folder, refused
// every gpu-scale run. What exists from the working directory stays as written.
void find_data_paths(json& j, const fs::path& dir) {
    auto find = [&](json& v) {
        if (!v.is_string() || v.get<std::string>().empty()) return;
        const fs::path p(v.get<std::string>());
        std::error_code ec;
        if (p.is_absolute() || fs::exists(p, ec)) return;
        for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
            if (fs::exists(d / p, ec)) {
                v = (d / p).lexically_normal().string();
                return;
            }
            if (d == d.parent_path()) return;
        }
    };
    if (j.is_array())
        for (json& v : j) find_data_paths(v, dir);
    if (!j.is_object()) return;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (it.key() == "data" && it.value().is_object() && it.value().contains("path")) find(it.value()["path"]);
        if (it.key() == "data.path") {   // a sweep over files
            if (it.value().is_array())
                for (json& v : it.value()) find(v);
            else
                find(it.value());
        }
        find_data_paths(it.value(), dir);
    }
}

}  // namespace

Experiment load_experiment(const std::string& path, const std::string& scale) {
    const json spec = read_json_file(path);
    std::string stem = path;
    if (auto s = stem.find_last_of('/'); s != std::string::npos) stem = stem.substr(s + 1);
    if (auto d = stem.rfind(".json"); d != std::string::npos) stem = stem.substr(0, d);
    json found = spec;
    std::error_code ec;
    find_data_paths(found, fs::absolute(fs::path(path), ec).parent_path());
    Experiment ex = parse_experiment(found, stem, scale);
    ex.spec = spec;   // the file as written: what saving it again keeps
    ex.file = path;
    return ex;
}

json with_run_changes(const Experiment& ex, size_t run, const std::vector<std::pair<std::string, json>>& changes,
                      std::vector<std::string>* swept) {
    json doc = ex.spec;
    if (run >= ex.runs.size() || changes.empty()) return doc;
    const int v = ex.runs[run].variant;
    json& target = v >= 0 && doc.contains("variants") && doc["variants"].is_array() &&
                           static_cast<size_t>(v) < doc["variants"].size()
                       ? doc["variants"][static_cast<size_t>(v)]
                       : doc["base"];
    if (!target.is_object()) target = json::object();
    const json sweep = doc.value("sweep", json::object());
    for (auto& [path, value] : changes) {
        if (sweep.is_object() && sweep.contains(path)) {
            if (swept) swept->push_back(path);
            continue;
        }
        set_path(target, path, value);
    }
    return doc;
}

}  // namespace normlab
