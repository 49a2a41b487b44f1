// NormLab core: the ten findings, measured (see report.h).
//
// Every analysis follows the same shape: pick the runs the finding compares
// (by scheme and configuration, never by display name alone), reduce each to
// the paper's quantity, average over seeds and keep the spread, then decide
// the verdict from explicit thresholds written next to the code. A verdict
// is "reproduced" when every part of the claim holds, "partly" when some
// parts hold, "not reproduced" when none does, and "inconclusive" when the
// effect is smaller than the spread between seeds.
#include "core/report/report.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <sstream>

namespace normlab::report {
namespace {

using nlohmann::json;

const std::vector<Point> kNoPoints;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---------------------------------------------------------------- numbers

double mean_of(const std::vector<double>& v) {
    double s = 0;
    int n = 0;
    for (double x : v)
        if (std::isfinite(x)) s += x, ++n;
    return n ? s / n : kNaN;
}
double min_of(const std::vector<double>& v) {
    double m = kInf;
    for (double x : v)
        if (!std::isnan(x)) m = std::min(m, x);
    return m == kInf && v.empty() ? kNaN : m;
}
double max_of(const std::vector<double>& v) {
    double m = -kInf;
    for (double x : v)
        if (!std::isnan(x)) m = std::max(m, x);
    return m == -kInf ? kNaN : m;
}
double half_range(const std::vector<double>& v) {
    const double lo = min_of(v), hi = max_of(v);
    return std::isfinite(lo) && std::isfinite(hi) ? (hi - lo) / 2 : 0.0;
}
double geo_mean(const std::vector<double>& v) {
    double s = 0;
    int n = 0;
    for (double x : v)
        if (std::isfinite(x) && x > 0) s += std::log(x), ++n;
    return n ? std::exp(s / n) : kNaN;
}
// Least-squares slope of y on x.
double slope(const std::vector<double>& x, const std::vector<double>& y) {
    double sx = 0, sy = 0, n = 0;
    for (size_t i = 0; i < x.size(); ++i)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) sx += x[i], sy += y[i], ++n;
    if (n < 2) return kNaN;
    const double mx = sx / n, my = sy / n;
    double num = 0, den = 0;
    for (size_t i = 0; i < x.size(); ++i)
        if (std::isfinite(x[i]) && std::isfinite(y[i])) num += (x[i] - mx) * (y[i] - my), den += (x[i] - mx) * (x[i] - mx);
    return den > 0 ? num / den : kNaN;
}
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        for (size_t k = i; k <= j; ++k) r[idx[k]] = (i + j) / 2.0;
        i = j + 1;
    }
    return r;
}
// Spearman's rank correlation (ties share their mean rank).
double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    const auto rx = ranks(x), ry = ranks(y);
    const double s = slope(rx, ry), sx = slope(ry, rx);
    if (!std::isfinite(s) || !std::isfinite(sx)) return kNaN;
    return (s >= 0 ? 1 : -1) * std::sqrt(std::max(0.0, s * sx));
}

std::string fmt(double v, int sig = 3) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
    char b[48];
    std::snprintf(b, sizeof b, "%.*g", sig, v);
    return b;
}
std::string fixed(double v, int decimals) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "∞" : "−∞";
    char b[48];
    std::snprintf(b, sizeof b, "%.*f", decimals, v);
    return b;
}
std::string ratio_text(double v) { return fmt(v, 3) + "×"; }
// "2.583 ± 0.004" (± half the range over seeds) or just the value for one seed.
std::string with_spread(const std::vector<double>& v, int decimals = 3) {
    const double m = mean_of(v);
    if (v.size() < 2) return fixed(m, decimals);
    return fixed(m, decimals) + " ± " + fixed(half_range(v), decimals);
}

// Mean that keeps +∞ (a diverged run makes the group's mean +∞).
double mean_of_inf(const std::vector<double>& v) {
    for (double x : v)
        if (std::isinf(x) && x > 0) return kInf;
    return mean_of(v);
}
std::string with_spread_inf(const std::vector<double>& v, int decimals = 3) {
    int diverged = 0;
    for (double x : v) diverged += std::isinf(x) && x > 0;
    if (diverged) return "diverged (" + std::to_string(diverged) + " of " + std::to_string(v.size()) + ")";
    return with_spread(v, decimals);
}

// ---------------------------------------------------------------- series

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
// Point-wise mean over runs (of the steps every run recorded).
std::pair<std::vector<double>, std::vector<double>> mean_curve(const std::vector<const RunData*>& runs,
                                                               const std::string& name, int layer = -1) {
    std::map<int64_t, std::vector<double>> at;
    for (auto* r : runs)
        for (auto& p : r->get(name, layer)) at[p.step].push_back(p.value);
    std::vector<double> x, y;
    for (auto& [s, vals] : at) {
        if (vals.size() != runs.size()) continue;
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
                   const std::string& y_label, bool log_y = false) {
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
                        {"train.steps", "steps"},      {"optim.lr", "peak lr"},      {"train.seed", "seeds"}};
    std::string out;
    for (auto& f : fields) {
        std::set<double> vals;
        for (auto& r : runs) vals.insert(r.cfg_number(f.path, kNaN));
        std::string v;
        for (double x : vals) v += (v.empty() ? "" : "/") + fmt(x, 4);
        out += (out.empty() ? "" : ", ") + std::string(f.label) + " " + v;
    }
    const std::string src = runs.front().config.value("data", json::object()).value("source", "corpus");
    out += "; data: " + (src == "corpus" ? std::string("the fortunes corpus (bytes)") : src);
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

// ---------------------------------------------------------------- findings

// Gradient norm of `weight` at layer `layer` at initialization: Xiong's
// expected gradient when recorded, else the first batch's.
double init_grad(const RunData& r, const std::string& weight, int layer) {
    double v = value_at(r.get("grad_expected_l2/" + weight, layer), 0);
    if (!std::isfinite(v)) v = value_at(r.get("grad_l2/" + weight, layer), 0);
    return v;
}

const char* kPost = "post_ln";
const char* kPre = "pre_ln";

// 1. Xiong Fig. 3 (c, d) / Theorem 1: ‖∂L/∂W_fc2^L‖ is O(d√ln d) for Post-LN,
// independent of L, and O(d√(ln d / L)) for Pre-LN.
// Holds when Post-LN's ratio (deepest/shallowest) is within [2/3, 1.5] and
// Pre-LN's is ≤ 0.85 and below Post-LN's by 15%.
Finding finding1(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const std::string w = e.value("weight", "fc2");
    f.measure = "Gradient norm ‖∂L/∂W‖_F of the last block's " + w +
                " weight at initialization (Xiong's expected gradient: the gradient averaged over several batches "
                "before the norm), for each depth; mean over seeds. \"Constant\" means the deepest/shallowest ratio "
                "lies in [0.67, 1.5]; \"shrinks\" means Pre-LN's ratio is ≤ 0.85 and 15% below Post-LN's.";
    std::map<std::string, std::map<int, std::vector<double>>> by;  // scheme → depth → values
    for (auto& r : runs)
        if (r.scheme() == kPost || r.scheme() == kPre) by[r.scheme()][r.layers()].push_back(init_grad(r, w, r.layers() - 1));
    need(by[kPost].size() >= 2 && by[kPre].size() >= 2,
         "finding 1 needs Post-LN and Pre-LN runs at two or more depths (sweep model.n_layers)");
    std::map<std::string, double> ratio, slp;
    for (const char* s : {kPost, kPre}) {
        std::vector<double> lx, ly;
        for (auto& [d, v] : by[s]) lx.push_back(std::log(d)), ly.push_back(std::log(mean_of(v)));
        ratio[s] = mean_of(by[s].rbegin()->second) / mean_of(by[s].begin()->second);
        slp[s] = slope(lx, ly);
    }
    const bool post_const = ratio[kPost] >= 1 / 1.5 && ratio[kPost] <= 1.5;
    const bool pre_shrinks = ratio[kPre] <= 0.85 && ratio[kPre] < 0.85 * ratio[kPost];
    f.verdict = count_verdict(post_const + pre_shrinks, 2);
    const int dmin = by[kPre].begin()->first, dmax = by[kPre].rbegin()->first;
    f.result = "From " + std::to_string(dmin) + " to " + std::to_string(dmax) + " layers the last " + w +
               " gradient changes by " + ratio_text(ratio[kPost]) + " for Post-LN (log-log slope " + fixed(slp[kPost], 2) +
               ") and by " + ratio_text(ratio[kPre]) + " for Pre-LN (slope " + fixed(slp[kPre], 2) +
               "; the theory's O(1/√L) is slope −0.5). Post-LN constant: " + yes(post_const) +
               "; Pre-LN shrinking: " + yes(pre_shrinks) + ".";
    f.numbers = {{"post_ratio", ratio[kPost]}, {"pre_ratio", ratio[kPre]}, {"post_slope", slp[kPost]}, {"pre_slope", slp[kPre]}};
    f.table.header = {"layers", "Post-LN ‖∇W‖", "Pre-LN ‖∇W‖"};
    for (auto& [d, v] : by[kPost]) {
        auto pre = by[kPre].count(d) ? by[kPre][d] : std::vector<double>{};
        f.table.rows.push_back({std::to_string(d), with_spread(v, 4), with_spread(pre, 4)});
    }
    Figure fig = make_figure("f01-last-" + w + "-grad-vs-depth",
                             "Gradient of the last " + w + " weight at init",
                             "layers",
                             "‖∂L/∂W‖ (expected gradient)",
                             true);
    int c = 0;
    for (const char* s : {kPost, kPre}) {
        Line l;
        l.label = s == std::string(kPost) ? "Post-LN" : "Pre-LN";
        l.color = c++;
        l.markers = true;
        for (auto& [d, v] : by[s]) l.x.push_back(d), l.y.push_back(mean_of(v));
        fig.lines.push_back(l);
    }
    Line theory;
    theory.label = "Pre-LN theory ∝ 1/√L";
    theory.color = 1;
    theory.dashed = true;
    const double y0 = fig.lines[1].y.front(), x0 = fig.lines[1].x.front();
    for (double x : fig.lines[1].x) theory.x.push_back(x), theory.y.push_back(y0 * std::sqrt(x0 / x));
    fig.lines.push_back(theory);
    fig.caption = "Mean over seeds; the dashed line is Xiong et al.'s O(1/√L) through Pre-LN's shallowest point.";
    f.figures.push_back(fig);
    return f;
}

// Runs of `scheme` at depth `depth` (or the deepest present).
std::vector<const RunData*> at_depth(const std::vector<RunData>& runs, const std::string& scheme, int& depth) {
    if (depth <= 0)
        for (auto& r : runs)
            if (r.scheme() == scheme) depth = std::max(depth, r.layers());
    const int d = depth;
    return select(runs, [&](const RunData& r) { return r.scheme() == scheme && r.layers() == d; });
}

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

// 2. Xiong Fig. 3 (a, b): per-layer gradient norms at init grow with the layer
// index for Post-LN and are flat for Pre-LN. Post-LN grows when its norms rise
// with the layer (Spearman ≥ 0.7) and last/first ≥ 1.2; Pre-LN is flat when
// its last/first ratio lies in [2/3, 1.5].
Finding finding2(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const std::string w = e.value("weight", "fc2");
    int depth = e.value("depth", 0);
    auto post = at_depth(runs, kPost, depth);
    auto pre = at_depth(runs, kPre, depth);
    need(!post.empty() && !pre.empty(), "finding 2 needs Post-LN and Pre-LN runs with " + std::to_string(depth) + " layers");
    f.measure = "Gradient norm ‖∂L/∂W‖_F of each block's " + w + " weight at initialization (expected gradient), " +
                std::to_string(depth) + " layers, mean over seeds. \"Grows\" means the norms rise with the layer "
                "index (Spearman ≥ 0.7) and last/first ≥ 1.2; \"flat\" means last/first in [0.67, 1.5].";
    auto g = [&](const RunData& r, int l) { return init_grad(r, w, l); };
    auto gpost = per_layer(post, depth, g), gpre = per_layer(pre, depth, g);
    auto g1post = per_layer(post, depth, [&](const RunData& r, int l) { return init_grad(r, "fc1", l); });
    auto g1pre = per_layer(pre, depth, [&](const RunData& r, int l) { return init_grad(r, "fc1", l); });
    const double rpost = gpost.back() / gpost.front(), rpre = gpre.back() / gpre.front();
    std::vector<double> idx;
    for (int l = 0; l < depth; ++l) idx.push_back(l);
    const double rho = spearman(idx, gpost);
    const bool grows = rpost >= 1.2 && rho >= 0.7, flat = rpre >= 1 / 1.5 && rpre <= 1.5;
    f.verdict = count_verdict(grows + flat, 2);
    f.result = "Last/first layer " + w + " gradient: Post-LN " + ratio_text(rpost) + " (Spearman with the layer " +
               fixed(rho, 2) + "), Pre-LN " + ratio_text(rpre) +
               " (FC1: " + ratio_text(g1post.back() / g1post.front()) + " and " + ratio_text(g1pre.back() / g1pre.front()) +
               "). Post-LN growing with the layer: " + yes(grows) + "; Pre-LN flat: " + yes(flat) + ".";
    f.numbers = {{"post_last_over_first", rpost}, {"pre_last_over_first", rpre}, {"post_spearman", rho}};
    f.table.header = {"layer", "Post-LN " + w, "Pre-LN " + w, "Post-LN fc1", "Pre-LN fc1"};
    for (int l = 0; l < depth; ++l)
        f.table.rows.push_back({layer_label(l), fmt(gpost[l], 4), fmt(gpre[l], 4), fmt(g1post[l], 4), fmt(g1pre[l], 4)});
    auto fig = per_layer_figure("f02-" + w + "-grad-per-layer", "Gradient of " + w + " per layer at init (" +
                                    std::to_string(depth) + " layers)",
                                "‖∂L/∂W‖ (expected gradient)", true, {{"Post-LN", gpost}, {"Pre-LN", gpre}});
    fig.caption = "Mean over seeds.";
    f.figures.push_back(fig);
    return f;
}

// 3. Xiong Lemma 1: Pre-LN's E‖x_l‖² grows linearly with l; Post-LN's block
// outputs are layer-normalized (norm √d). Holds when Pre-LN's last/first
// ratio of the hidden-state norm is ≥ 1.3 and Post-LN's within 10% of 1.
Finding finding3(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    int depth = e.value("depth", 0);
    auto post = at_depth(runs, kPost, depth);
    auto pre = at_depth(runs, kPre, depth);
    need(!post.empty() && !pre.empty(), "finding 3 needs Post-LN and Pre-LN runs with " + std::to_string(depth) + " layers");
    f.measure = "Mean over tokens of ‖x_l‖₂, x_l the output of block l, in the first forward pass (" +
                std::to_string(depth) + " layers, mean over seeds). \"Grows\": last/first ≥ 1.3; "
                "\"does not\": last/first within 10% of 1.";
    auto h = [](const RunData& r, int l) { return value_at(r.get("hidden/norm", l), 0); };
    auto sq = [](const RunData& r, int l) { return value_at(r.get("hidden/sq_over_d", l), 0); };
    auto hpost = per_layer(post, depth, h), hpre = per_layer(pre, depth, h);
    auto spost = per_layer(post, depth, sq), spre = per_layer(pre, depth, sq);
    const double rpost = hpost.back() / hpost.front(), rpre = hpre.back() / hpre.front();
    const bool grows = rpre >= 1.3, flat = std::fabs(rpost - 1) <= 0.1;
    f.verdict = count_verdict(grows + flat, 2);
    const double spre_slope = slope([&] {
        std::vector<double> x;
        for (int l = 0; l < depth; ++l) x.push_back(l + 1);
        return x;
    }(), spre);
    // Lemma 1: (1 + l/2) ≤ E‖x_l‖²/d ≤ (1 + 3l/2) for the input of layer l + 1,
    // i.e. the output of block l (1-based), when the embedding has E‖x₀‖² = d.
    int inside = 0;
    for (int l = 0; l < depth; ++l) inside += spre[l] >= 1 + (l + 1) / 2.0 && spre[l] <= 1 + 3 * (l + 1) / 2.0;
    f.result = "Hidden-state norm, last/first block: Pre-LN " + ratio_text(rpre) + " (" + fmt(hpre.front()) + " → " +
               fmt(hpre.back()) + "; ‖x‖²/d rises by " + fmt(spre_slope) + " per layer, linearly as the lemma says, and lies "
               "inside its bounds 1 + l/2 ≤ ‖x_l‖²/d ≤ 1 + 3l/2 in " + std::to_string(inside) + " of " +
               std::to_string(depth) + " layers — the bounds assume E‖x₀‖² = d, i.e. embeddings scaled by √d), Post-LN " +
               ratio_text(rpost) + " (" + fmt(hpost.front()) + " → " + fmt(hpost.back()) + ", √d = " +
               fmt(std::sqrt(post.front()->cfg_number("model.d_model"))) + "). Pre-LN growing: " + yes(grows) +
               "; Post-LN constant: " + yes(flat) + ".";
    f.numbers = {{"pre_last_over_first", rpre}, {"post_last_over_first", rpost}, {"pre_sq_over_d_per_layer", spre_slope},
                 {"pre_layers_inside_lemma_bounds", static_cast<double>(inside)}};
    f.table.header = {"layer", "Post-LN ‖x‖", "Pre-LN ‖x‖", "Post-LN ‖x‖²/d", "Pre-LN ‖x‖²/d"};
    for (int l = 0; l < depth; ++l)
        f.table.rows.push_back({layer_label(l), fmt(hpost[l], 4), fmt(hpre[l], 4), fmt(spost[l], 4), fmt(spre[l], 4)});
    auto fig = per_layer_figure("f03-hidden-norm-per-layer",
                                "Hidden-state norm per layer at init (" + std::to_string(depth) + " layers)",
                                "mean ‖x_l‖₂", false, {{"Post-LN", hpost}, {"Pre-LN", hpre}});
    fig.hlines.push_back({std::sqrt(post.front()->cfg_number("model.d_model")), "√d"});
    fig.caption = "Mean over seeds; block outputs of the first forward pass.";
    f.figures.push_back(fig);
    return f;
}

// 4. Xiong Fig. 2: without warm-up Post-LN trains much worse at a large
// learning rate; Pre-LN does not need warm-up. At the largest rate tested:
// holds when Post-LN loses ≥ 0.1 nats without warm-up and Pre-LN loses at
// most max(0.05, a third of Post-LN's loss).
Finding finding4(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    f.measure = "Final validation loss (nats/byte) with and without warm-up at each peak learning rate, mean over "
                "seeds; a diverged run counts as infinitely bad. \"Much worse\": ≥ 0.1 nats; \"does not need it\": "
                "Pre-LN loses at most max(0.05, a third of Post-LN's loss).";
    // lr → scheme → warm-up? → runs
    std::map<double, std::map<std::string, std::map<bool, std::vector<const RunData*>>>> rs;
    for (auto& r : runs) {
        if (r.scheme() != kPost && r.scheme() != kPre) continue;
        rs[r.cfg_number("optim.lr")][r.scheme()][r.cfg_number("optim.schedule.warmup") > 0].push_back(&r);
    }
    std::vector<double> complete;
    for (auto& [lr, m] : rs)
        if (m[kPost].size() == 2 && m[kPre].size() == 2) complete.push_back(lr);
    need(!complete.empty(), "finding 4 needs Post-LN and Pre-LN runs with and without warm-up at the same lr");
    f.table.header = {"peak lr", "Post-LN warm-up", "Post-LN none", "Δ Post-LN", "Pre-LN warm-up", "Pre-LN none", "Δ Pre-LN"};
    double gpost_top = 0, gpre_top = 0;
    bool any_post_bad = false;
    for (double lr : complete) {
        auto& m = rs[lr];
        const auto post_wu = losses(m[kPost][true]), post_none = losses(m[kPost][false]);
        const auto pre_wu = losses(m[kPre][true]), pre_none = losses(m[kPre][false]);
        const double gpost = mean_of_inf(post_none) - mean_of_inf(post_wu);
        const double gpre = mean_of_inf(pre_none) - mean_of_inf(pre_wu);
        any_post_bad = any_post_bad || gpost >= 0.1;
        gpost_top = gpost, gpre_top = gpre;
        f.table.rows.push_back({fmt(lr), with_spread_inf(post_wu), with_spread_inf(post_none), fixed(gpost, 3),
                                with_spread_inf(pre_wu), with_spread_inf(pre_none), fixed(gpre, 3)});
        f.numbers.push_back({"post_gap_lr_" + fmt(lr), gpost});
        f.numbers.push_back({"pre_gap_lr_" + fmt(lr), gpre});
        Figure fig = make_figure("f04-warmup-lr-" + fmt(lr),
                                 "Validation loss with and without warm-up, peak lr " + fmt(lr),
                                 "step",
                                 "validation loss (nats/byte)");
        int c = 0;
        for (const char* s : {kPost, kPre}) {
            for (bool wu : {true, false}) {
                auto [x, y] = mean_curve(rs[lr][s][wu], "val/loss");
                Line l;
                l.label = std::string(s == std::string(kPost) ? "Post-LN" : "Pre-LN") + (wu ? " warm-up" : " no warm-up");
                l.color = c;
                l.dashed = !wu;
                l.markers = true;
                l.x = x, l.y = y;
                mark_divergence(l, rs[lr][s][wu]);
                fig.lines.push_back(l);
            }
            ++c;
        }
        fig.caption = "Mean over seeds; dashed: no warm-up; ▲ where a run diverged.";
        f.figures.push_back(fig);
    }
    const double top = complete.back();
    const bool post_bad = gpost_top >= 0.1;
    const bool pre_ok = gpre_top <= std::max(0.05, gpost_top / 3);
    if (post_bad && pre_ok) f.verdict = Verdict::Reproduced;
    else if (any_post_bad || (gpost_top >= 0.03 && gpre_top < gpost_top)) f.verdict = Verdict::Partly;
    else f.verdict = Verdict::NotReproduced;
    f.result = "At peak lr " + fmt(top) + ", dropping warm-up costs Post-LN " + fixed(gpost_top, 3) + " nats and Pre-LN " +
               fixed(gpre_top, 3) + " nats of final validation loss (negative: better without). Post-LN much worse "
               "without warm-up: " + yes(post_bad) + "; Pre-LN not needing it: " + yes(pre_ok) + ".";
    (void)e;
    return f;
}

// 5. NormFormer Fig. 3: early in training the mean |gradient| of FC2 is larger
// in early layers than late ones for Pre-LN, the reverse for Post-LN, and
// closer together for NormFormer. Three parts: Pre-LN first/last ≥ 1.1,
// Post-LN first/last ≤ 1/1.1, NormFormer's max/min over layers ≥ 10% below Pre-LN's.
Finding finding5(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const int early = e.value("early_steps", 100);
    const std::string w = e.value("weight", "fc2");
    auto pre = of_scheme(runs, kPre), post = of_scheme(runs, kPost);
    auto nf = select(runs, is_full_normformer);
    need(!pre.empty() && !post.empty() && !nf.empty(), "finding 5 needs Pre-LN, Post-LN and NormFormer runs");
    const int L = pre.front()->layers();
    f.measure = "Mean |∂L/∂W| over the elements of each layer's " + w + " weight (NormFormer's \"average L1 norm\"), "
                "averaged over the recorded steps 0–" + std::to_string(early) +
                " and over seeds. Parts: Pre-LN first/last layer ≥ 1.1; Post-LN first/last ≤ 0.91; NormFormer's "
                "spread (largest/smallest layer) at least 10% below Pre-LN's.";
    auto g = [&](const RunData& r, int l) { return mean_between(r.get("grad_l1/" + w, l), 0, early); };
    auto gpre = per_layer(pre, L, g), gpost = per_layer(post, L, g), gnf = per_layer(nf, L, g);
    auto spread = [](const std::vector<double>& v) { return max_of(v) / min_of(v); };
    const double rpre = gpre.front() / gpre.back(), rpost = gpost.front() / gpost.back(), rnf = gnf.front() / gnf.back();
    const bool a = rpre >= 1.1, b = rpost <= 1 / 1.1, c = spread(gnf) < 0.9 * spread(gpre);   // 10% closer, not noise
    f.verdict = count_verdict(a + b + c, 3);
    f.result = "First/last layer mean |∇" + w + "| over steps 0–" + std::to_string(early) + ": Pre-LN " + ratio_text(rpre) +
               ", Post-LN " + ratio_text(rpost) + ", NormFormer " + ratio_text(rnf) + "; spread over layers Pre-LN " +
               ratio_text(spread(gpre)) + ", NormFormer " + ratio_text(spread(gnf)) + ", Post-LN " +
               ratio_text(spread(gpost)) + ". Pre-LN early > late: " + yes(a) + "; Post-LN the reverse: " + yes(b) +
               "; NormFormer at least 10% closer together than Pre-LN: " + yes(c) + ".";
    f.numbers = {{"pre_first_over_last", rpre},        {"post_first_over_last", rpost}, {"normformer_first_over_last", rnf},
                 {"pre_spread", spread(gpre)},         {"normformer_spread", spread(gnf)}, {"post_spread", spread(gpost)}};
    f.table.header = {"layer", "Post-LN", "Pre-LN", "NormFormer"};
    for (int l = 0; l < L; ++l) f.table.rows.push_back({layer_label(l), fmt(gpost[l], 3), fmt(gpre[l], 3), fmt(gnf[l], 3)});
    auto fig = per_layer_figure("f05-" + w + "-grad-l1-early", "Mean |∇" + w + "| per layer, steps 0–" + std::to_string(early),
                                "mean |∂L/∂W|", true, {{"Post-LN", gpost}, {"Pre-LN", gpre}, {"NormFormer", gnf}});
    fig.caption = "Averaged over the recorded steps and over seeds.";
    f.figures.push_back(fig);
    // NormFormer Fig. 3's own view: one curve per layer over the early steps.
    struct Arch { const char* label; const char* slug; std::vector<const RunData*>* runs; };
    const Arch archs[] = {{"Post-LN", "post-ln", &post}, {"Pre-LN", "pre-ln", &pre}, {"NormFormer", "normformer", &nf}};
    for (auto& [label, slug, rs] : archs) {
        Figure fl = make_figure(std::string("f05-") + w + "-per-step-" + slug,
                                std::string(label) + ": mean |∇" + w + "| by layer",
                                "step",
                                "mean |∂L/∂W|",
                                true);
        for (int l = 0; l < L; ++l) {
            auto [x, y] = mean_curve(*rs, "grad_l1/" + w, l);
            Line line;
            line.label = "layer " + layer_label(l);
            line.color = l;
            for (size_t i = 0; i < x.size(); ++i)
                if (x[i] <= 2 * early) line.x.push_back(x[i]), line.y.push_back(y[i]);
            fl.lines.push_back(line);
        }
        fl.caption = "Mean over seeds, first " + std::to_string(2 * early) + " steps.";
        f.figures.push_back(fl);
    }
    return f;
}

// 6. NormFormer Table 5: NormFormer reaches a lower loss than Pre-LN at the
// same step count, and removing any one operation loses part of the gain.
// Reproduced when the gain exceeds the seed spread and every ablation ends
// above NormFormer; partly when the gain is real but some ablation is not
// worse; inconclusive when the gain is within the seed spread.
Finding finding6(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    f.measure = "Final validation loss (nats/byte) of each variant at the same step count, mean ± half the range over "
                "seeds. The gain is Pre-LN − NormFormer; an ablation \"loses part of the gain\" when its loss ends "
                "above NormFormer's. The seed spread is the larger half-range of NormFormer and Pre-LN.";
    std::vector<std::string> order;
    std::map<std::string, std::vector<const RunData*>> by;
    for (auto& r : runs) {
        if (!by.count(r.variant)) order.push_back(r.variant);
        by[r.variant].push_back(&r);
    }
    auto nf = select(runs, is_full_normformer);
    auto pre = of_scheme(runs, kPre);
    need(!nf.empty() && !pre.empty(), "finding 6 needs NormFormer and Pre-LN runs");
    const double lnf = mean_of_inf(losses(nf)), lpre = mean_of_inf(losses(pre));
    const double noise = std::max({half_range(losses(nf)), half_range(losses(pre)), 0.002});
    const double gain = lpre - lnf;
    f.table.header = {"variant", "final val loss", "Δ vs NormFormer", "share of the gain lost"};
    int worse = 0, ablations = 0;
    std::string lost;
    for (auto& v : order) {
        auto& rs = by[v];
        const double l = mean_of_inf(losses(rs));
        const bool ablation = rs.front()->scheme() == "normformer" && !is_full_normformer(*rs.front());
        std::string share = "";
        if (ablation) {
            ++ablations;
            if (l > lnf) ++worse;
            share = gain > 0 ? fixed(100 * (l - lnf) / gain, 0) + "%" : "n/a";
            lost += (lost.empty() ? "" : ", ") + v + " " + (l - lnf >= 0 ? "+" : "") + fixed(l - lnf, 3);
            f.numbers.push_back({"ablation " + v, l - lnf});
        }
        f.table.rows.push_back({v, with_spread_inf(losses(rs)), (l - lnf >= 0 ? "+" : "") + fixed(l - lnf, 3), share});
    }
    if (gain > noise && worse == ablations) f.verdict = Verdict::Reproduced;
    else if (gain > noise) f.verdict = Verdict::Partly;
    else if (gain > 0) f.verdict = Verdict::Inconclusive;
    else f.verdict = Verdict::NotReproduced;
    f.result = "NormFormer ends at " + fixed(lnf, 3) + " and Pre-LN at " + fixed(lpre, 3) + " nats/byte: a gain of " +
               fixed(gain, 3) + " nats (seed spread ±" + fixed(noise, 3) + "). Removing one operation (loss above " +
               "NormFormer's): " + (lost.empty() ? std::string("no ablation runs") : lost) + "; " +
               std::to_string(worse) + " of " + std::to_string(ablations) + " ablations lose part of the gain.";
    f.numbers.insert(f.numbers.begin(), {{"normformer_loss", lnf}, {"pre_ln_loss", lpre}, {"gain", gain}, {"seed_spread", noise}});
    Figure fig = make_figure("f06-ablation-val-loss",
                             "Validation loss: NormFormer and its ablations",
                             "step",
                             "validation loss (nats/byte)");
    int c = 0;
    for (auto& v : order) {
        auto [x, y] = mean_curve(by[v], "val/loss");
        Line l;
        l.label = v;
        l.color = c++;
        l.markers = true;
        // The early steps squash the differences; start where the curves separate.
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i] >= e.value("from_step", 0)) l.x.push_back(x[i]), l.y.push_back(y[i]);
        fig.lines.push_back(l);
    }
    fig.caption = "Mean over seeds.";
    f.figures.push_back(fig);
    return f;
}

// 7. NormFormer §4, Table 3: with the LR stability ramp NormFormer survives to
// a higher learning rate than Pre-LN. A run's breaking rate is where it
// diverged, or — small fp32 models degrade instead of blowing up — where its
// smoothed training loss (debiased EMA, `smoothing`, default 0.95) first
// rises `delta` (default 0.3) nats above its best so far; a run that does
// neither counts with its last rate, as a lower bound. Reproduced when every
// NormFormer run breaks later than every Pre-LN run; partly when only the
// mean is later; inconclusive when no run broke.
Finding finding7(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const double delta = e.value("delta", 0.3), smoothing = e.value("smoothing", 0.95);
    f.measure = "The learning rate at which each run breaks on the ramp (the rate grows by a fixed increment per "
                "step): where the loss diverged, or else where the smoothed training loss (EMA " + fmt(smoothing) +
                ") first rises " + fmt(delta) + " nats above its best so far. A run that does neither counts with its "
                "last rate, as a lower bound. Reproduced when every NormFormer run breaks later than every Pre-LN run.";
    auto pre = of_scheme(runs, kPre);
    auto nf = select(runs, is_full_normformer);
    need(!pre.empty() && !nf.empty(), "finding 7 needs Pre-LN and NormFormer runs on the LR ramp");
    f.table.header = {"run", "breaks at lr", "how", "step", "best smoothed loss (at lr)"};
    std::vector<double> vpre, vnf;
    int broke = 0, survived_pre = 0, survived_nf = 0;
    Figure fig = make_figure("f07-lr-stability",
                             "Training loss along the learning-rate ramp",
                             "learning rate",
                             "training loss (EMA " + fmt(smoothing) + ")");
    for (auto* group : {&pre, &nf}) {
        for (auto* r : *group) {
            const auto& loss = r->get("train/loss");
            const auto& lrs = r->get("train/lr");
            std::vector<double> x, y;
            std::vector<int64_t> steps;
            for (auto& p : loss) {
                const double lr = value_at(lrs, p.step);
                if (!std::isfinite(lr)) continue;
                x.push_back(lr), y.push_back(p.value), steps.push_back(p.step);
            }
            const auto ema = debiased_ema(y, smoothing);
            double best = kInf, best_lr = kNaN, lr_break = kNaN;
            int64_t step_break = -1;
            std::string how;
            for (size_t i = 0; i < ema.size(); ++i) {
                if (!std::isfinite(ema[i])) break;
                if (ema[i] < best) best = ema[i], best_lr = x[i];
                if (ema[i] > best + delta) {
                    lr_break = x[i], step_break = steps[i], how = "loss +" + fmt(delta) + " above best";
                    break;
                }
            }
            if (r->status == RunStatus::Diverged && r->info.contains("diverged_lr") &&
                (!std::isfinite(lr_break) || r->info["diverged_lr"].get<double>() < lr_break)) {
                lr_break = r->info["diverged_lr"].get<double>(), step_break = r->status_step, how = "diverged";
            }
            const bool b = std::isfinite(lr_break);
            broke += b;
            if (!b) ++(group == &pre ? survived_pre : survived_nf);
            if (!b) lr_break = x.empty() ? kNaN : x.back(), step_break = r->steps_done, how = "survived the ramp";
            (group == &pre ? vpre : vnf).push_back(lr_break);
            f.table.rows.push_back({r->name, (b ? "" : "≥ ") + fmt(lr_break, 3), how, std::to_string(step_break),
                                    fixed(best, 3) + " (" + fmt(best_lr, 2) + ")"});
            Line l;
            l.label = r->name;
            l.color = group == &pre ? 0 : 1;
            l.dashed = r->seed() % 2 == 0;
            l.x = x;
            l.y = ema;
            fig.lines.push_back(l);
        }
    }
    fig.caption = "Blue: Pre-LN; red: NormFormer; dashed: even seeds.";
    f.figures.push_back(fig);
    const double mpre = mean_of(vpre), mnf = mean_of(vnf);
    if (broke == 0) f.verdict = Verdict::Inconclusive;
    else if (min_of(vnf) > max_of(vpre)) f.verdict = Verdict::Reproduced;
    else if (mnf > mpre) f.verdict = Verdict::Partly;
    else f.verdict = Verdict::NotReproduced;
    auto at_least = [](int survived) { return survived ? std::string("≥ ") : std::string(); };
    f.result = "Pre-LN breaks at lr " + at_least(survived_pre) + fmt(mpre) + " (" + fmt(min_of(vpre)) + "–" + fmt(max_of(vpre)) +
               "), NormFormer at " + at_least(survived_nf) + fmt(mnf) + " (" + fmt(min_of(vnf)) + "–" + fmt(max_of(vnf)) + "): " +
               at_least(survived_nf && !survived_pre) + ratio_text(mnf / mpre) + " the rate (the paper, at 125M parameters in fp16: 0.0275 vs 0.02, 1.38×)." +
               (broke == 0 ? " No run broke within its steps: lengthen the ramp." : "") +
               (survived_nf ? " " + std::to_string(survived_nf) + " NormFormer run(s) reached the end of the ramp unbroken." : "");
    f.numbers = {{"pre_ln_break_lr", mpre}, {"normformer_break_lr", mnf}, {"ratio", mnf / mpre}};
    return f;
}

// 8. NormFormer Fig. 4: the FFN-LN gains end up smaller in early layers than
// in late ones. Reproduced when the per-layer medians rise with depth
// (Spearman ≥ 0.6) and the first layer's is below the last's; partly when only
// one of the two holds.
Finding finding8(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const std::string g = e.value("gain", "ffn_norm");
    auto nf = select(runs, [&](const RunData& r) { return is_full_normformer(r); });
    need(!nf.empty(), "finding 8 needs NormFormer runs with FFN LN");
    const int L = nf.front()->layers();
    f.measure = "The distribution of the learned FFN-LN gains γ of each layer at the end of training (median, "
                "quartiles), mean over seeds; the trend is Spearman's rank correlation of the medians with the layer "
                "index. Reproduced when it is ≥ 0.6 and the first layer's median is below the last's.";
    std::vector<double> med(L), q1(L), q3(L), mean(L);
    for (int l = 0; l < L; ++l) {
        std::vector<double> m, a, b, mm;
        for (auto* r : nf) {
            const Distribution* last = nullptr;
            for (auto& d : r->distributions)
                if (d.name == "gain/" + g && d.layer == l && (!last || d.step > last->step)) last = &d;
            if (!last) continue;
            m.push_back(last->median), a.push_back(last->q1), b.push_back(last->q3), mm.push_back(last->mean);
        }
        med[l] = mean_of(m), q1[l] = mean_of(a), q3[l] = mean_of(b), mean[l] = mean_of(mm);
    }
    need(std::isfinite(med.front()), "finding 8 needs gain distributions (probes.gains_every > 0)");
    std::vector<double> idx;
    for (int l = 0; l < L; ++l) idx.push_back(l);
    const double rho = spearman(idx, med);
    const bool rising = rho >= 0.6, ends = med.front() < med.back();
    f.verdict = count_verdict(rising + ends, 2);
    f.result = "Median FFN-LN γ by layer at step " + std::to_string(nf.front()->steps_done) + ": " + [&] {
        std::string s;
        for (int l = 0; l < L; ++l) s += (l ? ", " : "") + fixed(med[l], 3);
        return s;
    }() + " (Spearman with depth " + fixed(rho, 2) + "). Smaller in early layers than late: " + yes(rising && ends) +
               (rising && ends ? "" : "; the trend runs " + std::string(rho < 0 ? "the other way" : "weakly")) + ".";
    f.numbers = {{"spearman", rho}, {"first_median", med.front()}, {"last_median", med.back()}};
    f.table.header = {"layer", "median γ", "q1", "q3", "mean"};
    for (int l = 0; l < L; ++l) f.table.rows.push_back({layer_label(l), fixed(med[l], 3), fixed(q1[l], 3), fixed(q3[l], 3), fixed(mean[l], 3)});
    Figure fig = per_layer_figure("f08-ffn-ln-gains", "FFN-LN gains γ at the end of training", "γ", false,
                                  {{"median", med}, {"q1", q1}, {"q3", q3}});
    fig.lines[1].dashed = fig.lines[2].dashed = true;
    fig.lines[1].color = fig.lines[2].color = 0;
    fig.hlines.push_back({1.0, "init"});
    fig.caption = "Quartiles dashed; mean over seeds.";
    f.figures.push_back(fig);
    Figure ev = make_figure("f08-ffn-ln-gain-mean-by-step",
                            "Mean FFN-LN γ per layer during training",
                            "step",
                            "mean γ");
    for (int l = 0; l < L; ++l) {
        auto [x, y] = mean_curve(nf, "gain_mean/" + g, l);
        Line line;
        line.label = "layer " + layer_label(l);
        line.color = l;
        line.markers = x.size() < 40;
        line.x = x, line.y = y;
        ev.lines.push_back(line);
    }
    ev.caption = "Mean over seeds.";
    f.figures.push_back(ev);
    return f;
}

// Mean |Δ ln g| between consecutive recorded steps in [0, until]: how jagged a
// gradient-norm curve is.
double roughness(const std::vector<Point>& p, int64_t until) {
    std::vector<double> d;
    for (size_t i = 1; i < p.size() && p[i].step <= until; ++i)
        if (p[i].value > 0 && p[i - 1].value > 0) d.push_back(std::fabs(std::log(p[i].value / p[i - 1].value)));
    return mean_of(d);
}

// 9. BranchNorm (Liu et al.) with DeepNorm: a deep Post-LN diverges or stalls
// where DeepNorm and BranchNorm train; BranchNorm's early gradient norm is
// smoother than Post-LN's; its final loss is at least as good as DeepNorm's.
// Parts: Post-LN diverged or ends ≥ 0.2 nats above the better of the two;
// BranchNorm's roughness (mean |Δ ln ‖g‖| per step) at least 10% below Post-LN's;
// BranchNorm's final loss ≤ DeepNorm's + max(0.01, DeepNorm's seed spread).
Finding finding9(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const int early = e.value("early_steps", 100), start = e.value("start_steps", 20);
    auto post = of_scheme(runs, kPost), dn = of_scheme(runs, "deepnorm"), bn = of_scheme(runs, "branchnorm");
    need(!post.empty() && !dn.empty() && !bn.empty(), "finding 9 needs Post-LN, DeepNorm and BranchNorm runs");
    f.measure = "Final validation loss (diverged = ∞), mean over seeds; smoothness of the global gradient norm at the "
                "very start (BranchNorm's Fig. 3), steps 0–" + std::to_string(start) + ", as the mean |Δ ln ‖g‖| from "
                "one step to the next (lower is smoother; steps 0–" + std::to_string(early) + " shown too). Parts: Post-LN diverges or ends ≥ 0.2 nats above the better of DeepNorm and BranchNorm; "
                "BranchNorm at least 10% smoother than Post-LN; BranchNorm's loss ≤ DeepNorm's + max(0.01, DeepNorm's seed spread).";
    auto rough = [&](const std::vector<const RunData*>& rs, int until) {
        std::vector<double> v;
        for (auto* r : rs) v.push_back(roughness(r->get("train/grad_norm"), until));
        return v;
    };
    const double lpost = mean_of_inf(losses(post)), ldn = mean_of_inf(losses(dn)), lbn = mean_of_inf(losses(bn));
    bool post_diverged = false;
    for (auto* r : post) post_diverged = post_diverged || r->status == RunStatus::Diverged;
    const bool a = post_diverged || lpost - std::min(ldn, lbn) >= 0.2;
    const double rpost = mean_of(rough(post, start)), rbn = mean_of(rough(bn, start)), rdn = mean_of(rough(dn, start));
    const double rpost_e = mean_of(rough(post, early)), rbn_e = mean_of(rough(bn, early)), rdn_e = mean_of(rough(dn, early));
    const bool b = rbn < 0.9 * rpost;   // at least 10% smoother: not a coin flip
    const double tol = std::max(0.01, half_range(losses(dn)));
    const bool c = lbn <= ldn + tol;
    f.verdict = count_verdict(a + b + c, 3);
    const int L = post.front()->layers();
    auto per_seed = [&](const std::vector<const RunData*>& rs) {
        std::string t;
        for (double v : losses(rs)) t += (t.empty() ? "" : ", ") + fixed(v, 3);
        return rs.size() > 1 ? " (per seed " + t + ")" : std::string();
    };
    f.result = "With " + std::to_string(L) + " layers: Post-LN " + (post_diverged ? "diverged" : "ends at " + fixed(lpost, 3)) +
               per_seed(post) + ", DeepNorm " + fixed(ldn, 3) + per_seed(dn) + ", BranchNorm " + fixed(lbn, 3) + per_seed(bn) +
               " nats/byte. Gradient-norm roughness over steps 0–" + std::to_string(start) + ": Post-LN " + fixed(rpost, 3) +
               ", DeepNorm " + fixed(rdn, 3) + ", BranchNorm " + fixed(rbn, 3) + " (over 0–" + std::to_string(early) + ": " +
               fixed(rpost_e, 3) + ", " + fixed(rdn_e, 3) + ", " + fixed(rbn_e, 3) + "). Post-LN fails: " + yes(a) + "; BranchNorm smoother: " + yes(b) +
               "; BranchNorm at least as good as DeepNorm: " + yes(c) + ".";
    f.numbers = {{"post_ln_loss", lpost}, {"deepnorm_loss", ldn}, {"branchnorm_loss", lbn},
                 {"post_ln_roughness", rpost}, {"deepnorm_roughness", rdn}, {"branchnorm_roughness", rbn}};
    f.table.header = {"scheme", "final val loss", "‖g‖ roughness, steps 0–" + std::to_string(start),
                      "‖g‖ roughness, steps 0–" + std::to_string(early), "runs diverged"};
    const std::pair<const char*, std::vector<const RunData*>*> groups[] = {{"Post-LN", &post}, {"DeepNorm", &dn}, {"BranchNorm", &bn}};
    Figure loss = make_figure("f09-deep-val-loss",
                              std::to_string(L) + "-layer stack: validation loss",
                              "step",
                              "validation loss (nats/byte)");
    Figure grad = make_figure("f09-deep-grad-norm-early",
                              std::to_string(L) + "-layer stack: gradient norm, first " + std::to_string(early) + " steps",
                              "step",
                              "‖g‖ (before clipping)",
                              true);
    int c2 = 0;
    for (auto& [label, rs] : groups) {
        int d = 0;
        for (auto* r : *rs) d += r->status == RunStatus::Diverged;
        f.table.rows.push_back({label, with_spread_inf(losses(*rs)), with_spread(rough(*rs, start)),
                                with_spread(rough(*rs, early)), std::to_string(d) + " of " + std::to_string(rs->size())});
        auto [x, y] = mean_curve(*rs, "val/loss");
        Line l;
        l.label = label;
        l.color = c2;
        l.markers = true;
        l.x = x, l.y = y;
        mark_divergence(l, *rs);
        loss.lines.push_back(l);
        const RunData* first = rs->front();
        Line gl;
        gl.label = std::string(label) + " (seed " + std::to_string(first->seed()) + ")";
        gl.color = c2++;
        for (auto& p : first->get("train/grad_norm"))
            if (p.step <= early) gl.x.push_back(p.step), gl.y.push_back(p.value);
        grad.lines.push_back(gl);
    }
    loss.caption = "Mean over seeds; ▲ where a run diverged.";
    grad.caption = "One seed, every step.";
    f.figures.push_back(loss);
    f.figures.push_back(grad);
    return f;
}

// Step at which `curve` first reaches ≤ target, interpolated linearly
// between recorded points; NaN when it never does.
double first_reach(const std::vector<Point>& curve, double target) {
    for (size_t i = 0; i < curve.size(); ++i) {
        if (!(curve[i].value <= target)) continue;
        if (i == 0) return static_cast<double>(curve[i].step);
        const double a = curve[i - 1].value, b = curve[i].value;
        const double t = a > b ? (a - target) / (a - b) : 1.0;
        return curve[i - 1].step + t * (curve[i].step - curve[i - 1].step);
    }
    return kNaN;
}

double last_step_mean(const RunData& r, const std::string& name, int layers) {
    std::vector<double> v;
    for (int l = 0; l < layers; ++l) v.push_back(last_finite(r.get(name, l)));
    return geo_mean(v);
}

// 10. nGPT: reaches the baseline's final loss in fewer steps (the paper:
// 4–20×); far smaller condition numbers of the attention matrices; eigen
// learning rates in a moderate range. Parts: speed-up factor > 1; baseline
// condition numbers of q/k/v ≥ 10× nGPT's (geometric means over layers);
// every layer's median α_A and α_M in [0.01, 1].
Finding finding10(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    auto ng_all = of_scheme(runs, "ngpt");
    auto base_all = select(runs, [](const RunData& r) { return r.scheme() != "ngpt"; });
    need(!ng_all.empty() && !base_all.empty(), "finding 10 needs nGPT and baseline runs");
    // The paper compares each model at its best initial learning rate: with
    // several rates per model, the one with the lowest mean final loss is used.
    Table lr_table;
    auto best_lr = [&](const std::vector<const RunData*>& rs, const std::string& label) {
        std::map<double, std::vector<double>> by;
        for (auto* r : rs) by[r->cfg_number("optim.lr")].push_back(final_val(*r));
        double best = kNaN, best_loss = kInf;
        for (auto& [lr, v] : by) {
            const double m = mean_of_inf(v);
            lr_table.rows.push_back({label, fmt(lr), with_spread_inf(v)});
            if (m < best_loss) best_loss = m, best = lr;
        }
        if (by.size() > 1)
            for (auto& row : lr_table.rows)
                if (row[0] == label && row[1] == fmt(best)) row[2] += " ← best";
        return select(runs, [&](const RunData& r) {
            return std::find(rs.begin(), rs.end(), &r) != rs.end() && r.cfg_number("optim.lr") == best;
        });
    };
    auto base = best_lr(base_all, "baseline");
    auto ng = best_lr(ng_all, "nGPT");
    const double lr_base = base.front()->cfg_number("optim.lr"), lr_ng = ng.front()->cfg_number("optim.lr");
    const int L = ng.front()->layers();
    f.measure = "Speed-up: the baseline's final validation loss is the target; the step at which nGPT's validation "
                "loss first reaches it (interpolated between evaluations) divides the baseline's step count (per "
                "seed, then averaged). Condition numbers σ_max/σ_min of the q, k and v matrices (median over heads) "
                "at the last measurement, geometric mean over layers. Eigen learning rates: per-layer medians of "
                "|α_A| and |α_M| at the end; \"moderate\" is [0.01, 1].";
    std::vector<double> factors, along;
    double target_mean = 0;
    for (auto* b : base) {
        const RunData* n = nullptr;
        for (auto* r : ng)
            if (r->seed() == b->seed()) n = r;
        if (!n) n = ng.front();
        const double target = last_finite(b->get("val/loss"));
        const auto& vb = b->get("val/loss");
        const double steps = vb.empty() ? b->steps_done : static_cast<double>(vb.back().step);
        const double reach = first_reach(n->get("val/loss"), target);
        factors.push_back(std::isfinite(reach) && reach > 0 ? steps / reach : kNaN);
        target_mean += target / base.size();
        // The same ratio at every baseline evaluation past the first sixth of
        // the run: is nGPT ahead early and caught up later, or the reverse?
        for (auto& p : vb) {
            if (p.step * 6 < steps || !std::isfinite(p.value)) continue;
            const double at = first_reach(n->get("val/loss"), p.value);
            along.push_back(std::isfinite(at) && at > 0 ? p.step / at : 0.0);
        }
    }
    const double factor = mean_of(factors);
    std::sort(along.begin(), along.end());
    const double along_min = along.empty() ? kNaN : along.front(), along_max = along.empty() ? kNaN : along.back();
    const double along_median = along.empty() ? kNaN : along[along.size() / 2];
    bool all_reached = true;
    for (double x : factors) all_reached = all_reached && std::isfinite(x);
    double ng_final = 0;
    for (auto* r : ng) ng_final += last_finite(r->get("val/loss")) / ng.size();
    std::vector<double> cb, cn;
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> perw;
    for (const char* w : {"q", "k", "v"}) {
        for (auto* r : base) cb.push_back(last_step_mean(*r, std::string("cond/") + w, L));
        for (auto* r : ng) cn.push_back(last_step_mean(*r, std::string("cond/") + w, L));
        perw[w].first = per_layer(base, L, [&](const RunData& r, int l) { return last_finite(r.get(std::string("cond/") + w, l)); });
        perw[w].second = per_layer(ng, L, [&](const RunData& r, int l) { return last_finite(r.get(std::string("cond/") + w, l)); });
    }
    const double cond_base = geo_mean(cb), cond_ng = geo_mean(cn), cond_ratio = cond_base / cond_ng;
    std::vector<double> aA(L), aM(L);
    for (int l = 0; l < L; ++l) {
        for (auto [name, out] : {std::pair<const char*, std::vector<double>*>{"gain/alpha_A", &aA}, {"gain/alpha_M", &aM}}) {
            std::vector<double> v;
            for (auto* r : ng) {
                const Distribution* last = nullptr;
                for (auto& d : r->distributions)
                    if (d.name == name && d.layer == l && (!last || d.step > last->step)) last = &d;
                if (last) v.push_back(last->median);
            }
            (*out)[l] = mean_of(v);
        }
    }
    const double lo = std::min(min_of(aA), min_of(aM)), hi = std::max(max_of(aA), max_of(aM));
    const bool fast = all_reached && factor > 1, cond = cond_ratio >= 10, moderate = lo >= 0.01 && hi <= 1;
    f.verdict = count_verdict(fast + cond + moderate, 3);
    f.result = (all_reached ? "nGPT reaches the baseline's final validation loss (" + fixed(target_mean, 3) + ") " +
                                  fixed(factor, 2) + "× sooner (per seed: " +
                                  [&] {
                                      std::string s;
                                      for (double x : factors) s += (s.empty() ? "" : ", ") + fixed(x, 2);
                                      return s;
                                  }() + "; the paper: 4–20× at 0.5–1B parameters and 1k–8k context)"
                            : "nGPT does not reach the baseline's final validation loss (" + fixed(target_mean, 3) +
                                  ") within the run: it ends at " + fixed(ng_final, 3)) +
               ". Matching every baseline evaluation after the first sixth of the run, not only the last, the step "
               "ratio baseline/nGPT to the same loss is " +
               (along.empty() ? std::string("n/a") : fixed(along_min, 2) + "–" + fixed(along_max, 2) + " (median " +
                                                          fixed(along_median, 2) + "; above 1: nGPT faster; 0: never reached)") +
               ". Attention condition numbers (q/k/v, geometric mean): baseline " + fmt(cond_base) + ", nGPT " +
               fmt(cond_ng) + " (" + ratio_text(cond_ratio) + "). Eigen learning rates α_A, α_M: per-layer medians " +
               fixed(lo, 3) + "–" + fixed(hi, 3) + " (init 0.05; the paper's settle around 0.2–0.4). Fewer steps: " +
               yes(fast) + "; far smaller condition numbers (≥ 10×): " + yes(cond) + "; moderate eigen learning rates: " +
               yes(moderate) + "." +
               (lr_table.rows.size() > 2 ? " Learning rates: baseline " + fmt(lr_base) + ", nGPT " + fmt(lr_ng) +
                                               ", each the best of those tried."
                                         : "");
    f.numbers = {{"speedup", factor}, {"cond_baseline", cond_base}, {"cond_ngpt", cond_ng}, {"cond_ratio", cond_ratio},
                 {"eigen_lr_min", lo}, {"eigen_lr_max", hi}, {"ngpt_final_loss", ng_final}, {"baseline_final_loss", target_mean},
                 {"speedup_along_median", along_median}};
    f.table.header = {"layer", "baseline cond q/k/v", "nGPT cond q/k/v", "nGPT α_A median", "nGPT α_M median"};
    for (int l = 0; l < L; ++l)
        f.table.rows.push_back({layer_label(l),
                                fmt(perw["q"].first[l]) + " / " + fmt(perw["k"].first[l]) + " / " + fmt(perw["v"].first[l]),
                                fmt(perw["q"].second[l]) + " / " + fmt(perw["k"].second[l]) + " / " + fmt(perw["v"].second[l]),
                                fixed(aA[l], 3), fixed(aM[l], 3)});
    if (lr_table.rows.size() > 2) {
        lr_table.header = {"model", "peak lr", "final val loss"};
        f.more_tables.push_back(lr_table);
    }
    Figure loss = make_figure("f10-ngpt-val-loss",
                              "nGPT against its baseline: validation loss",
                              "step",
                              "validation loss (nats/byte)");
    int c = 0;
    for (auto* rs : {&base, &ng}) {
        auto [x, y] = mean_curve(*rs, "val/loss");
        Line l;
        l.label = rs == &ng ? "nGPT" : "baseline (Pre-LN, SwiGLU, RoPE)";
        l.color = c++;
        l.markers = true;
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i] >= e.value("from_step", 0)) l.x.push_back(x[i]), l.y.push_back(y[i]);
        loss.lines.push_back(l);
    }
    loss.hlines.push_back({target_mean, "baseline final"});
    loss.caption = "Mean over seeds; the dashed line is the baseline's final loss.";
    f.figures.push_back(loss);
    Figure cf = make_figure("f10-attention-condition-numbers",
                            "Condition numbers of the attention matrices",
                            "layer",
                            "σ_max/σ_min (median over heads)",
                            true);
    c = 0;
    for (const char* w : {"q", "k", "v"}) {
        for (int which = 0; which < 2; ++which) {
            Line l;
            l.label = std::string(which ? "nGPT " : "baseline ") + w;
            l.color = c;
            l.dashed = which == 1;
            l.markers = true;
            auto& ys = which ? perw[w].second : perw[w].first;
            for (int i = 0; i < L; ++i) l.x.push_back(i + 1), l.y.push_back(ys[i]);
            cf.lines.push_back(l);
        }
        ++c;
    }
    cf.caption = "At the last measurement; mean over seeds; dashed: nGPT.";
    f.figures.push_back(cf);
    Figure ef = per_layer_figure("f10-eigen-learning-rates", "nGPT eigen learning rates at the end", "median |α|", false,
                                 {{"α_A (attention)", aA}, {"α_M (MLP)", aM}});
    ef.hlines.push_back({0.05, "init 0.05"});
    ef.caption = "Mean over seeds of each layer's median.";
    f.figures.push_back(ef);
    return f;
}

}  // namespace

// ---------------------------------------------------------------- RunData

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

std::string verdict_name(Verdict v) {
    switch (v) {
    case Verdict::Reproduced: return "reproduced";
    case Verdict::Partly: return "partly reproduced";
    case Verdict::NotReproduced: return "not reproduced";
    case Verdict::Inconclusive: return "inconclusive";
    }
    return "?";
}

bool known_finding(int n) { return n >= 1 && n <= 10; }

std::string finding_title(int n) {
    static const char* t[] = {"",
                              "Last-layer FC2 gradient vs depth at initialization",
                              "Per-layer gradient norms at initialization",
                              "Hidden-state norms grow with depth in Pre-LN",
                              "Post-LN needs learning-rate warm-up",
                              "Early FC2 gradient magnitude across layers",
                              "NormFormer beats Pre-LN; each operation counts",
                              "NormFormer survives a higher learning rate",
                              "FFN-LN gains smaller in early layers",
                              "Deep Post-LN fails where DeepNorm and BranchNorm train",
                              "nGPT: faster, well-conditioned, moderate eigen learning rates"};
    return known_finding(n) ? t[n] : "unknown finding";
}

static const char* source_of(int n) {
    switch (n) {
    case 1: return "Xiong et al. 2020, §3.2 Theorem 1, Fig. 3 (c, d)";
    case 2: return "Xiong et al. 2020, Fig. 3 (a, b)";
    case 3: return "Xiong et al. 2020, Lemma 1";
    case 4: return "Xiong et al. 2020, §3.1, Fig. 2";
    case 5: return "Shleifer et al., NormFormer, §4, Fig. 3";
    case 6: return "Shleifer et al., NormFormer, Table 5 (ablations)";
    case 7: return "Shleifer et al., NormFormer, §4 LR stability, Table 3";
    case 8: return "Shleifer et al., NormFormer, §4, Fig. 4";
    case 9: return "Liu et al., BranchNorm, §4 and Fig. 3 (DeepNorm: Wang et al.)";
    case 10: return "Loshchilov et al., nGPT, Fig. 1, 5 and 6";
    }
    return "";
}

static const char* claim_of(int n) {
    switch (n) {
    case 1: return "At initialization the gradient norm of the last layer's FC2 weight stays roughly constant as the "
                   "model gets deeper for Post-LN, and shrinks with depth (like 1/√L) for Pre-LN.";
    case 2: return "At initialization Post-LN's per-layer gradient norms grow with the layer index; Pre-LN's are nearly "
                   "the same in every layer.";
    case 3: return "Pre-LN's hidden-state norms grow with depth (E‖x_l‖² rises linearly in l); Post-LN's do not.";
    case 4: return "Without warm-up at a large learning rate Post-LN trains much worse than with warm-up; Pre-LN does "
                   "not need warm-up.";
    case 5: return "Early in training the mean |gradient| of FC2 is larger in early layers than in late ones for "
                   "Pre-LN, the reverse for Post-LN, and closer together for NormFormer.";
    case 6: return "NormFormer reaches a lower loss than Pre-LN at the same step count; removing any one of its "
                   "operations loses part of the gain.";
    case 7: return "In the LR stability test (the rate grows each step until the loss diverges) NormFormer survives to "
                   "a higher learning rate than Pre-LN (0.0275 vs 0.02).";
    case 8: return "NormFormer's learned FFN-LN gains end up smaller in early layers than in late ones.";
    case 9: return "A deep Post-LN stack diverges or stalls where DeepNorm and BranchNorm train; BranchNorm's early "
                   "gradient norms are smoother than Post-LN's, and its final loss is at least as good as DeepNorm's.";
    case 10: return "nGPT reaches the baseline's final loss in fewer steps (4–20×); its attention matrices have far "
                    "smaller condition numbers; its eigen learning rates settle in a moderate range.";
    }
    return "";
}

Finding analyze(const json& entry, const std::vector<RunData>& runs, const std::string& experiment) {
    if (!entry.is_object() || !entry.contains("finding") || !entry["finding"].is_number_integer())
        throw ConfigError("", "expected {\"finding\": N, ...} with N from 1 to 10");
    const int n = entry["finding"].get<int>();
    if (!known_finding(n))
        throw ConfigError("finding", std::to_string(n) + " is not a finding NormLab measures; use 1 to 10 (docs/REPRODUCTION.md)");
    if (runs.empty()) throw ConfigError("", "finding " + std::to_string(n) + " has no runs to measure");
    Finding f;
    switch (n) {
    case 1: f = finding1(entry, runs); break;
    case 2: f = finding2(entry, runs); break;
    case 3: f = finding3(entry, runs); break;
    case 4: f = finding4(entry, runs); break;
    case 5: f = finding5(entry, runs); break;
    case 6: f = finding6(entry, runs); break;
    case 7: f = finding7(entry, runs); break;
    case 8: f = finding8(entry, runs); break;
    case 9: f = finding9(entry, runs); break;
    case 10: f = finding10(entry, runs); break;
    }
    f.number = n;
    f.title = finding_title(n);
    f.source = source_of(n);
    f.claim = claim_of(n);
    f.experiment = experiment;
    f.setup = describe_setup(runs);
    return f;
}

// ---------------------------------------------------------------- documents

namespace {

std::string md_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '|') o += "\\|";
        else o += c;
    }
    return o;
}
std::string html_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        switch (c) {
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '&': o += "&amp;"; break;
        case '"': o += "&quot;"; break;
        default: o += c;
        }
    }
    return o;
}
std::string badge(Verdict v) {
    switch (v) {
    case Verdict::Reproduced: return "✅ reproduced";
    case Verdict::Partly: return "🟡 partly reproduced";
    case Verdict::NotReproduced: return "❌ not reproduced";
    case Verdict::Inconclusive: return "⚪ inconclusive";
    }
    return "";
}
std::string join_dir(const std::string& dir, const std::string& file) {
    return dir.empty() || dir == "." ? file : dir + "/" + file;
}

}  // namespace

std::string to_markdown(const std::vector<Finding>& findings, const ReportMeta& meta, const std::string& figure_dir) {
    std::ostringstream o;
    o << "# " << meta.title << "\n\n";
    o << "Generated by `" << meta.command << "` on " << meta.date << ".  \n";
    if (!meta.machine.empty()) o << "Machine: " << meta.machine << ".  \n";
    if (!meta.versions.empty()) o << "Versions: " << meta.versions << ".  \n";
    o << "Scale: " << (meta.scale.empty() ? "the CPU presets (each experiment's default)" : meta.scale) << ".\n\n";
    o << "| # | finding | source | verdict |\n|---|---|---|---|\n";
    for (auto& f : findings)
        o << "| " << f.number << " | [" << md_escape(f.title) << "](#finding-" << f.number << ") | " << md_escape(f.source)
          << " | " << badge(f.verdict) << " |\n";
    o << "\n";
    if (!meta.notes.empty()) o << meta.notes << "\n\n";
    for (auto& f : findings) {
        o << "<a id=\"finding-" << f.number << "\"></a>\n## " << f.number << ". " << f.title << "\n\n";
        o << "**Paper** (" << f.source << "): " << f.claim << "\n\n";
        o << "**Measured as:** " << f.measure << "\n\n";
        o << "**Runs:** experiment `" << f.experiment << "` — " << f.setup << ".\n\n";
        o << "**Result:** " << f.result << "\n\n";
        o << "**Verdict: " << verdict_name(f.verdict) << ".**\n\n";
        std::vector<const Table*> tables{&f.table};
        for (auto& t : f.more_tables) tables.push_back(&t);
        for (const Table* t : tables) {
            if (t->header.empty()) continue;
            o << "|";
            for (auto& h : t->header) o << " " << md_escape(h) << " |";
            o << "\n|";
            for (size_t i = 0; i < t->header.size(); ++i) o << "---|";
            o << "\n";
            for (auto& row : t->rows) {
                o << "|";
                for (auto& c : row) o << " " << md_escape(c) << " |";
                o << "\n";
            }
            o << "\n";
        }
        for (auto& fig : f.figures) {
            o << "![" << fig.title << "](" << join_dir(figure_dir, fig.id + ".png") << ")  \n";
            o << "*" << fig.caption << "* [SVG](" << join_dir(figure_dir, fig.id + ".svg") << ")\n\n";
        }
    }
    return o.str();
}

std::string to_html(const std::vector<Finding>& findings, const ReportMeta& meta, const std::string& figure_dir) {
    std::ostringstream o;
    o << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << html_escape(meta.title)
      << "</title>\n<style>body{font-family:sans-serif;max-width:980px;margin:2em auto;line-height:1.45;color:#222}"
         "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}"
         "th{background:#f3f3f3}img{max-width:100%;border:1px solid #eee}.v{font-weight:bold}"
         ".reproduced{color:#1a7f37}.partly{color:#9a6700}.not{color:#cf222e}.inconclusive{color:#57606a}</style>"
         "</head><body>\n";
    auto cls = [](Verdict v) {
        switch (v) {
        case Verdict::Reproduced: return "reproduced";
        case Verdict::Partly: return "partly";
        case Verdict::NotReproduced: return "not";
        case Verdict::Inconclusive: return "inconclusive";
        }
        return "";
    };
    o << "<h1>" << html_escape(meta.title) << "</h1>\n<p>Generated by <code>" << html_escape(meta.command) << "</code> on "
      << html_escape(meta.date) << ".<br>Machine: " << html_escape(meta.machine) << ".<br>Versions: "
      << html_escape(meta.versions) << ".<br>Scale: "
      << html_escape(meta.scale.empty() ? "the CPU presets (each experiment's default)" : meta.scale) << ".</p>\n";
    o << "<table><tr><th>#</th><th>finding</th><th>source</th><th>verdict</th></tr>\n";
    for (auto& f : findings)
        o << "<tr><td>" << f.number << "</td><td><a href=\"#finding-" << f.number << "\">" << html_escape(f.title)
          << "</a></td><td>" << html_escape(f.source) << "</td><td class=\"v " << cls(f.verdict) << "\">"
          << verdict_name(f.verdict) << "</td></tr>\n";
    o << "</table>\n";
    for (auto& f : findings) {
        o << "<h2 id=\"finding-" << f.number << "\">" << f.number << ". " << html_escape(f.title) << "</h2>\n";
        o << "<p><b>Paper</b> (" << html_escape(f.source) << "): " << html_escape(f.claim) << "</p>\n";
        o << "<p><b>Measured as:</b> " << html_escape(f.measure) << "</p>\n";
        o << "<p><b>Runs:</b> experiment <code>" << html_escape(f.experiment) << "</code> — " << html_escape(f.setup) << ".</p>\n";
        o << "<p><b>Result:</b> " << html_escape(f.result) << "</p>\n";
        o << "<p class=\"v " << cls(f.verdict) << "\">Verdict: " << verdict_name(f.verdict) << ".</p>\n";
        std::vector<const Table*> tables{&f.table};
        for (auto& t : f.more_tables) tables.push_back(&t);
        for (const Table* t : tables) {
            if (t->header.empty()) continue;
            o << "<table><tr>";
            for (auto& h : t->header) o << "<th>" << html_escape(h) << "</th>";
            o << "</tr>\n";
            for (auto& row : t->rows) {
                o << "<tr>";
                for (auto& c : row) o << "<td>" << html_escape(c) << "</td>";
                o << "</tr>\n";
            }
            o << "</table>\n";
        }
        for (auto& fig : f.figures)
            o << "<figure><img src=\"" << html_escape(join_dir(figure_dir, fig.id + ".png")) << "\" alt=\""
              << html_escape(fig.title) << "\"><figcaption>" << html_escape(fig.caption) << " <a href=\""
              << html_escape(join_dir(figure_dir, fig.id + ".svg")) << "\">SVG</a></figcaption></figure>\n";
    }
    o << "</body></html>\n";
    return o.str();
}

json to_json(const std::vector<Finding>& findings, const ReportMeta& meta) {
    json out = {{"title", meta.title}, {"command", meta.command}, {"date", meta.date}, {"machine", meta.machine},
                {"versions", meta.versions}, {"scale", meta.scale}, {"findings", json::array()}};
    for (auto& f : findings) {
        json nums = json::object();
        for (auto& [k, v] : f.numbers) nums[k] = std::isfinite(v) ? json(v) : json(fmt(v));
        json figs = json::array();
        for (auto& fig : f.figures) figs.push_back(fig.id);
        out["findings"].push_back({{"finding", f.number}, {"title", f.title}, {"source", f.source}, {"claim", f.claim},
                                   {"experiment", f.experiment}, {"setup", f.setup}, {"verdict", verdict_name(f.verdict)},
                                   {"result", f.result}, {"numbers", nums}, {"figures", figs}});
    }
    return out;
}

}  // namespace normlab::report
