// NormLab core: a stored run as the findings see it, and the index of
// finished runs a report reuses (report.h).
#include "core/report/report.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/report/measure.h"

#include <algorithm>
#include <sstream>

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

// The comparison key of a configuration; "" when it no longer parses. What
// only says how a run was executed is left out: its name, device and threads,
// whether its step was captured as a CUDA graph (the same arithmetic up to
// float32 rounding, as another thread count; its default changes once it has
// been measured on a GPU, and runs stored with the old one must still match),
// and when it wrote checkpoints (a resumed run's trace is bit-identical).
json detail::comparable_config(json c) {
    try {
        c = to_json(run_config_from_json(c));
    } catch (const ConfigError&) {
        return nullptr;
    }
    c.erase("name");
    if (c.contains("train"))
        for (const char* k : {"device", "threads", "cuda_graph", "checkpoint_every", "checkpoint_seconds"}) c["train"].erase(k);
    return c;
}

static std::string config_key(const json& c) {
    const json k = detail::comparable_config(c);
    return k.is_null() ? "" : k.dump();
}

CompletedRuns::CompletedRuns(Store& store, bool stopped_too) {
    for (auto& r : store.runs()) {   // in id order: a later run replaces an earlier match
        if (r.status == RunStatus::Finished || r.status == RunStatus::Diverged) add(r.id, r.config);
        else if (stopped_too && (r.status == RunStatus::Cancelled || r.status == RunStatus::Interrupted) && r.steps_done > 0)
            if (auto k = config_key(r.config); !k.empty()) stopped_[k] = r.id;
    }
}

void CompletedRuns::add(int64_t run, const json& config) {
    if (auto k = config_key(config); !k.empty()) by_key_[k] = run;
}

int64_t CompletedRuns::find(const json& config) const {
    const auto k = config_key(config);
    if (k.empty()) return 0;
    if (auto it = by_key_.find(k); it != by_key_.end()) return it->second;
    auto it = stopped_.find(k);
    return it == stopped_.end() ? 0 : it->second;
}

int64_t find_completed_run(Store& store, const json& config) { return CompletedRuns(store).find(config); }

static int64_t configured_steps(const RunData& r) { return static_cast<int64_t>(r.cfg_number("train.steps", 0)); }

bool stopped_early(const RunData& r) {
    return (r.status == RunStatus::Cancelled || r.status == RunStatus::Interrupted) && r.steps_done < configured_steps(r);
}

// A run's name without its "seed=N": the run it repeats with another seed.
static std::string without_seed(const std::string& name) {
    std::istringstream words(name);
    std::string w, out;
    while (words >> w)
        if (w.rfind("seed=", 0) != 0) out += (out.empty() ? "" : " ") + w;
    return out;
}

// Whether a run got at least 90 % of the way: as far as a short stop may cut a comparison.
static bool nearly_whole(const RunData& r) {
    return !stopped_early(r) || 10 * r.steps_done >= 9 * configured_steps(r);
}

std::string align_runs(std::vector<RunData>& runs) {
    // A seed stopped short of 90 % where another seed of the same run got that far is left out, so that a
    // lease's one short run does not cut every run of the finding to its steps.
    std::string dropped;
    for (size_t i = 0; i < runs.size();) {
        const RunData& r = runs[i];
        const bool sibling = !nearly_whole(r) && std::any_of(runs.begin(), runs.end(), [&](const RunData& q) {
            return &q != &r && q.name != r.name && without_seed(q.name) == without_seed(r.name) && nearly_whole(q);
        });
        if (!sibling) {
            ++i;
            continue;
        }
        dropped += (dropped.empty() ? "" : ", ") + r.name + " (stopped at step " + std::to_string(r.steps_done) + " of " +
                   std::to_string(configured_steps(r)) + ")";
        runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (!dropped.empty())
        dropped = "left out, as another seed of the same run got at least 90 % of the way: " + dropped;
    int64_t S = -1;
    std::string who;
    for (auto& r : runs)
        if (stopped_early(r)) {
            S = S < 0 ? r.steps_done : std::min(S, r.steps_done);
            who += (who.empty() ? "" : ", ") + r.name + " stopped at step " + std::to_string(r.steps_done) + " (" +
                   status_name(r.status) + ")";
        }
    if (S < 0) return dropped;
    int64_t longest = 0;
    for (auto& r : runs) {
        longest = std::max(longest, configured_steps(r));
        if (!stopped_early(r) && r.status != RunStatus::Diverged) S = std::min(S, configured_steps(r));
    }
    for (auto& r : runs) {
        if (r.status == RunStatus::Diverged && r.status_step >= 0 && r.status_step <= S) continue;   // ended before S
        for (auto& [key, pts] : r.series)
            pts.erase(std::remove_if(pts.begin(), pts.end(), [&](const Point& p) { return p.step > S; }), pts.end());
        r.distributions.erase(std::remove_if(r.distributions.begin(), r.distributions.end(),
                                             [&](const Distribution& d) { return d.step > S; }),
                              r.distributions.end());
        if (r.steps_done > S || r.status == RunStatus::Diverged) {
            r.status = RunStatus::Cancelled;
            r.status_step = -1;
        }
        r.steps_done = std::min(r.steps_done, S);
        r.final_loss = detail::last_finite(r.get("val/loss"));   // the last validation loss at or before S
    }
    return (dropped.empty() ? "" : dropped + "; ") + "compared over the first " + std::to_string(S) + " of " +
           std::to_string(longest) + " steps, where every run was: " + who + " (`normlab report --accept-stopped`)";
}

}  // namespace normlab::report
