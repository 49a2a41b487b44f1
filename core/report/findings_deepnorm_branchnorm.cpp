// Wang et al., "DeepNet" (DeepNorm) and Liu et al., "BranchNorm": finding 9
// (a deep Post-LN stack fails where both train).
#include "core/report/measure.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace normlab::report {

using nlohmann::json;
using namespace detail;

// Mean |Δ ln g| between consecutive recorded steps in [0, until]: how jagged a
// gradient-norm curve is.
static double roughness(const std::vector<Point>& p, int64_t until) {
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
static Finding deep_post_ln(const json& e, const std::vector<RunData>& runs) {
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

extern const FindingSpec kDeepPostLn{9, "Deep Post-LN fails where DeepNorm and BranchNorm train",
    "Liu et al., BranchNorm, §4 and Fig. 3 (DeepNorm: Wang et al.)",
    "A deep Post-LN stack diverges or stalls where DeepNorm and BranchNorm train; BranchNorm's early "
    "gradient norms are smoother than Post-LN's, and its final loss is at least as good as DeepNorm's.",
    deep_post_ln};
}  // namespace normlab::report
