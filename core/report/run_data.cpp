// NormLab core: a stored run as the findings see it, and the index of
// finished runs a report reuses (report.h).
#include "core/report/report.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/experiment.h"

namespace normlab::report {

using nlohmann::json;

static const std::vector<Point> kNoPoints;

const std::vector<Point>& RunData::get(const std::string& n, int layer) const {
    auto it = series.find({n, layer});
    return it == series.end() ? kNoPoints : it->second;
}
std::string RunData::scheme() const { return config.value("scheme", std::string()); }
int RunData::layers() const { return static_cast<int>(cfg_number("model.n_layers", 0)); }
int64_t RunData::seed() const { return static_cast<int64_t>(cfg_number("train.seed", 0)); }

double RunData::cfg_number(const std::string& dotted, double fallback) const {
    const json* v = find_path(config, dotted);
    return v && v->is_number() ? v->get<double>() : fallback;
}
bool RunData::cfg_bool(const std::string& dotted) const {
    const json* v = find_path(config, dotted);
    return v && v->is_boolean() && v->get<bool>();
}

std::string variant_of(const std::string& run_name) {
    std::string n = run_name;
    for (;;) {
        const auto sp = n.rfind(' ');
        if (sp == std::string::npos || n.find('=', sp) == std::string::npos) return n;
        n = n.substr(0, sp);
    }
}

RunData load_run(Store& store, const RunInfo& info) {
    RunData r;
    r.id = info.id;
    r.name = info.name;
    r.variant = variant_of(info.name);
    r.config = info.config;
    r.status = info.status;
    r.status_step = info.status_step;
    r.steps_done = info.steps_done;
    r.final_loss = info.final_loss;
    r.info = info.info;
    for (auto& s : store.series(info.id, false)) r.series[{s.name, s.layer}] = store.points(s.id);
    r.distributions = store.distributions(info.id);
    return r;
}

// The comparison key of a configuration; "" when it no longer parses.
static std::string config_key(json c) {
    try {
        c = to_json(run_config_from_json(c));
    } catch (const ConfigError&) {
        return "";
    }
    c.erase("name");
    if (c.contains("train")) c["train"].erase("device"), c["train"].erase("threads");
    return c.dump();
}

CompletedRuns::CompletedRuns(Store& store) {
    for (auto& r : store.runs())   // in id order: a later run replaces an earlier match
        if (r.status == RunStatus::Finished || r.status == RunStatus::Diverged) add(r.id, r.config);
}

void CompletedRuns::add(int64_t run, const json& config) {
    if (auto k = config_key(config); !k.empty()) by_key_[k] = run;
}

int64_t CompletedRuns::find(const json& config) const {
    const auto k = config_key(config);
    auto it = k.empty() ? by_key_.end() : by_key_.find(k);
    return it == by_key_.end() ? 0 : it->second;
}

int64_t find_completed_run(Store& store, const json& config) { return CompletedRuns(store).find(config); }

}  // namespace normlab::report
