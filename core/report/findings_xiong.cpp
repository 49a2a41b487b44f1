// Xiong et al. 2020, "On Layer Normalization in the Transformer Architecture":
// findings 1–4 (gradients at initialization, hidden-state norms, warm-up).
// Each finding is its analysis followed by its FindingSpec (title, source,
// claim); the registry (findings.cpp) lists the specs in report order.
#include "core/report/measure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace normlab::report {

using nlohmann::json;
using namespace detail;

// Gradient norm of `weight` at layer `layer` at initialization: Xiong's
// expected gradient when recorded, else the first batch's.
static double init_grad(const RunData& r, const std::string& weight, int layer) {
    double v = value_at(r.get("grad_expected_l2/" + weight, layer), 0);
    if (!std::isfinite(v)) v = value_at(r.get("grad_l2/" + weight, layer), 0);
    return v;
}

// 1. Xiong Fig. 3 (c, d) / Theorem 1: ‖∂L/∂W_fc2^L‖ is O(d√ln d) for Post-LN,
// independent of L, and O(d√(ln d / L)) for Pre-LN.
// Holds when Post-LN's ratio (deepest/shallowest) is within [2/3, 1.5] and
// Pre-LN's is ≤ 0.85 and below Post-LN's by 15%.
static Finding last_fc2_grad_vs_depth(const json& e, const std::vector<RunData>& runs) {
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
    theory.dash = 1;
    const double y0 = fig.lines[1].y.front(), x0 = fig.lines[1].x.front();
    for (double x : fig.lines[1].x) theory.x.push_back(x), theory.y.push_back(y0 * std::sqrt(x0 / x));
    fig.lines.push_back(theory);
    fig.caption = "Mean over seeds; the dashed line is Xiong et al.'s O(1/√L) through Pre-LN's shallowest point.";
    f.figures.push_back(fig);
    return f;
}

extern const FindingSpec kLastFc2GradVsDepth{1, "Last-layer FC2 gradient vs depth at initialization",
    "Xiong et al. 2020, §3.2 Theorem 1, Fig. 3 (c, d)",
    "At initialization the gradient norm of the last layer's FC2 weight stays roughly constant as the "
    "model gets deeper for Post-LN, and shrinks with depth (like 1/√L) for Pre-LN.",
    last_fc2_grad_vs_depth};

// Runs of `scheme` at depth `depth` (or the deepest present).
static std::vector<const RunData*> at_depth(const std::vector<RunData>& runs, const std::string& scheme, int& depth) {
    if (depth <= 0)
        for (auto& r : runs)
            if (r.scheme() == scheme) depth = std::max(depth, r.layers());
    const int d = depth;
    return select(runs, [&](const RunData& r) { return r.scheme() == scheme && r.layers() == d; });
}

// 2. Xiong Fig. 3 (a, b): per-layer gradient norms at init grow with the layer
// index for Post-LN and are flat for Pre-LN. Post-LN grows when its norms rise
// with the layer (Spearman ≥ 0.7) and last/first ≥ 1.2; Pre-LN is flat when
// its last/first ratio lies in [2/3, 1.5].
static Finding per_layer_grads_at_init(const json& e, const std::vector<RunData>& runs) {
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

extern const FindingSpec kPerLayerGradsAtInit{2, "Per-layer gradient norms at initialization",
    "Xiong et al. 2020, Fig. 3 (a, b)",
    "At initialization Post-LN's per-layer gradient norms grow with the layer index; Pre-LN's are nearly "
    "the same in every layer.",
    per_layer_grads_at_init};

// 3. Xiong Lemma 1: Pre-LN's E‖x_l‖² grows linearly with l; Post-LN's block
// outputs are layer-normalized (norm √d). Holds when Pre-LN's last/first
// ratio of the hidden-state norm is ≥ 1.3 and Post-LN's within 10% of 1.
static Finding hidden_norms_grow(const json& e, const std::vector<RunData>& runs) {
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
                                "mean ‖x_{ℓ}‖₂", false, {{"Post-LN", hpost}, {"Pre-LN", hpre}});
    fig.hlines.push_back({std::sqrt(post.front()->cfg_number("model.d_model")), "√d"});
    fig.caption = "Mean over seeds; block outputs of the first forward pass.";
    f.figures.push_back(fig);
    return f;
}

extern const FindingSpec kHiddenNormsGrow{3, "Hidden-state norms grow with depth in Pre-LN",
    "Xiong et al. 2020, Lemma 1",
    "Pre-LN's hidden-state norms grow with depth (E‖x_l‖² rises linearly in l); Post-LN's do not.",
    hidden_norms_grow};

// 4. Xiong Fig. 2: without warm-up Post-LN trains much worse at a large
// learning rate; Pre-LN does not need warm-up. At the largest rate tested:
// holds when Post-LN loses ≥ 0.1 nats without warm-up and Pre-LN loses at
// most max(0.05, a third of Post-LN's loss).
static Finding warmup_needed(const json& e, const std::vector<RunData>& runs) {
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
                l.dash = wu ? 0 : 1;
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

extern const FindingSpec kWarmupNeeded{4, "Post-LN needs learning-rate warm-up",
    "Xiong et al. 2020, §3.1, Fig. 2",
    "Without warm-up at a large learning rate Post-LN trains much worse than with warm-up; Pre-LN does "
    "not need warm-up.",
    warmup_needed};
}  // namespace normlab::report
