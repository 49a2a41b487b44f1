// NormLab core: the helpers the findings share (measure.h).
#include "core/report/measure.h"

#include "core/errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace normlab::report::detail {

using nlohmann::json;

double value_at(const std::vector<Point>& p, int64_t step) {
    auto it = std::lower_bound(p.begin(), p.end(), step, [](const Point& a, int64_t s) { return a.step < s; });
    return it != p.end() && it->step == step ? it->value : kNaN;
}
double last_finite(const std::vector<Point>& p) {
    for (auto it = p.rbegin(); it != p.rend(); ++it)
        if (std::isfinite(it->value)) return it->value;
    return kNaN;
}
double mean_between(const std::vector<Point>& p, int64_t from, int64_t to) {
    std::vector<double> v;
    for (auto& pt : p)
        if (pt.step >= from && pt.step <= to) v.push_back(pt.value);
    return mean_of(v);
}
// Point-wise mean over runs (of the steps every run recorded, or any did).
std::pair<std::vector<double>, std::vector<double>> mean_curve(const std::vector<const RunData*>& runs,
                                                               const std::string& name, int layer, bool every_run) {
    std::map<int64_t, std::vector<double>> at;
    for (auto* r : runs)
        for (auto& p : r->get(name, layer)) at[p.step].push_back(p.value);
    std::vector<double> x, y;
    for (auto& [s, vals] : at) {
        if (every_run && vals.size() != runs.size()) continue;
        double sum = 0;
        bool finite = true;
        for (double v : vals) finite = finite && std::isfinite(v), sum += v;
        x.push_back(static_cast<double>(s));
        y.push_back(finite ? sum / vals.size() : kNaN);
    }
    return {x, y};
}

// Final validation loss; +∞ for a run that diverged (it is worse than any number).
double final_val(const RunData& r) {
    if (r.status == RunStatus::Diverged) return kInf;
    if (std::isfinite(r.final_loss) && r.final_loss > 0) return r.final_loss;
    return last_finite(r.get("val/loss"));
}

// Appends a non-finite point where the first of `runs` diverged: the app's
// charts mark it with a red triangle instead of letting the curve just stop.
void mark_divergence(Line& l, const std::vector<const RunData*>& runs) {
    int64_t at = -1;
    for (auto* r : runs)
        if (r->status == RunStatus::Diverged && (at < 0 || r->status_step < at)) at = std::max<int64_t>(r->status_step, 0);
    if (at < 0) return;
    if (!l.x.empty() && l.x.back() >= at) at = static_cast<int64_t>(l.x.back()) + 1;
    l.x.push_back(static_cast<double>(at));
    l.y.push_back(kNaN);
}

// Final validation losses of runs (diverged: +∞).
std::vector<double> losses(const std::vector<const RunData*>& rs) {
    std::vector<double> v;
    for (auto* r : rs) v.push_back(final_val(*r));
    return v;
}

// A figure with its id, title and axes; lines are added by the caller.
Figure make_figure(const std::string& id, const std::string& title, const std::string& x_label,
                   const std::string& y_label, bool log_y) {
    Figure f;
    f.id = id;
    f.title = title;
    f.x_label = x_label;
    f.y_label = y_label;
    f.log_y = log_y;
    return f;
}

std::vector<const RunData*> select(const std::vector<RunData>& runs, const std::function<bool(const RunData&)>& pred) {
    std::vector<const RunData*> out;
    for (auto& r : runs)
        if (pred(r)) out.push_back(&r);
    return out;
}
std::vector<const RunData*> of_scheme(const std::vector<RunData>& runs, const std::string& scheme) {
    return select(runs, [&](const RunData& r) { return r.scheme() == scheme; });
}
bool is_full_normformer(const RunData& r) {
    return r.scheme() == "normformer" && r.cfg_bool("model.normformer.head_scale") &&
           r.cfg_bool("model.normformer.post_attn_norm") && r.cfg_bool("model.normformer.ffn_norm");
}

void need(bool ok, const std::string& what) {
    if (!ok) throw ConfigError("", what);
}

// "d_model 128, 6 layers, 4 heads, ..." with every value the runs use.
std::string describe_setup(const std::vector<RunData>& runs) {
    if (runs.empty()) return "no runs";
    struct F { const char* path; const char* label; };
    const F fields[] = {{"model.d_model", "d_model"},  {"model.n_layers", "layers"}, {"model.n_heads", "heads"},
                        {"model.d_ff", "d_ff"},        {"model.context", "context"}, {"train.batch_size", "batch"},
                        {"train.steps", "steps"},      {"optim.lr", "peak lr"},      {"optim.schedule.warmup", "warm-up"},
                        {"train.seed", "seeds"}};
    std::string out;
    for (auto& f : fields) {
        std::set<double> vals;
        for (auto& r : runs) vals.insert(r.cfg_number(f.path, kNaN));
        std::string v;
        for (double x : vals) v += (v.empty() ? "" : "/") + fmt(x, 4);
        out += (out.empty() ? "" : ", ") + std::string(f.label) + " " + v;
    }
    const json data = runs.front().config.value("data", json::object());
    const std::string src = data.value("source", "corpus");
    std::string what = src;
    if (src == "corpus") what = "the fortunes corpus (bytes)";
    else if (src == "file") {
        const std::string path = data.value("path", "");
        what = path.substr(path.find_last_of('/') + 1) + " (bytes";
        const double bytes = runs.front().info.value("data_bytes", 0.0);
        what += bytes > 0 ? ", " + fixed(bytes / 1e6, 1) + " MB)" : ")";
    } else if (src == "markov") what = "a Markov chain";
    out += "; data: " + what;
    double wall = 0;
    for (auto& r : runs) {
        const double w = last_finite(r.get("train/wall_s"));
        if (std::isfinite(w)) wall += w;
    }
    out += "; " + std::to_string(runs.size()) + " runs, " + fixed(wall / 60, 1) + " min of training";
    return out;
}

Verdict count_verdict(int held, int parts) {
    if (held == parts) return Verdict::Reproduced;
    if (held == 0) return Verdict::NotReproduced;
    return Verdict::Partly;
}

std::string yes(bool b) { return b ? "holds" : "does not hold"; }

std::string layer_label(int l) { return std::to_string(l + 1); }

// Per-layer means over seeds of f(run, layer).
std::vector<double> per_layer(const std::vector<const RunData*>& rs, int layers,
                              const std::function<double(const RunData&, int)>& fn) {
    std::vector<double> out;
    for (int l = 0; l < layers; ++l) {
        std::vector<double> v;
        for (auto* r : rs) v.push_back(fn(*r, l));
        out.push_back(mean_of(v));
    }
    return out;
}

Figure per_layer_figure(const std::string& id, const std::string& title, const std::string& y_label, bool log_y,
                        const std::vector<std::pair<std::string, std::vector<double>>>& lines) {
    Figure fig = make_figure(id, title, "layer", y_label, log_y);
    int c = 0;
    for (auto& [label, ys] : lines) {
        Line l;
        l.label = label;
        l.color = c++;
        l.markers = true;
        for (size_t i = 0; i < ys.size(); ++i) l.x.push_back(i + 1), l.y.push_back(ys[i]);
        fig.lines.push_back(l);
    }
    return fig;
}

}  // namespace normlab::report::detail
