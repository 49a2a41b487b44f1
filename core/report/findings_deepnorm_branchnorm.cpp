// Wang et al., "DeepNet" (DeepNorm) and Liu et al., "BranchNorm": finding 9
// (a deep Post-LN stack fails where both train).
#include "core/report/measure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
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

// Stalled: the run ends less than kStall nats below the loss of byte
// frequencies alone (the data's unigram loss, which runs record in their info
// since 2026-11-28): it learned nothing its context tells. For a run recorded
// before that, from its curve: the validation loss fell less than kStall nats
// from the first evaluation at or after the end of the warm-up to the last
// (unknown, false, with fewer than two such evaluations).
constexpr double kStall = 0.05;
static std::optional<double> unigram_of(const RunData& r) {
    if (r.info.is_object() && r.info.contains("unigram_loss") && r.info["unigram_loss"].is_number())
        return r.info["unigram_loss"].get<double>();
    return std::nullopt;
}
static bool stalled(const RunData& r) {
    if (r.status == RunStatus::Diverged) return false;
    const auto unigram = unigram_of(r);
    const double from = unigram ? -1 : r.cfg_number("optim.schedule.warmup", 0);   // the curve's test starts after the warm-up
    std::vector<double> v;
    for (auto& p : r.get("val/loss"))
        if (std::isfinite(p.value) && p.step >= from) v.push_back(p.value);
    if (unigram) return !v.empty() && v.back() > *unigram - kStall;
    return v.size() >= 2 && v.front() - v.back() < kStall;
}

// Trained: some run of the group neither stalled nor diverged.
static bool trained(const std::vector<const RunData*>& rs) {
    for (auto* r : rs)
        if (r->status != RunStatus::Diverged && !stalled(*r)) return true;
    return false;
}

// One scheme's runs at each peak learning rate, lowest first.
using ByRate = std::map<double, std::vector<const RunData*>>;
static ByRate by_rate(const std::vector<const RunData*>& rs) {
    ByRate m;
    for (auto* r : rs) m[r->cfg_number("optim.lr")].push_back(r);
    return m;
}

// The rate whose runs end lowest (mean over seeds, diverged = ∞); the lowest
// rate on a tie.
static double best_rate(const ByRate& m) {
    double best = m.begin()->first, lowest = std::numeric_limits<double>::infinity();
    for (auto& [lr, rs] : m) {
        const double l = mean_of_inf(losses(rs));
        if (l < lowest) lowest = l, best = lr;
    }
    return best;
}

// 9. BranchNorm (Liu et al.) with DeepNorm: a deep Post-LN diverges or stalls
// where DeepNorm and BranchNorm train; BranchNorm's early gradient norm is
// smoother than Post-LN's; its final loss is at least as good as DeepNorm's.
// Where the experiment sweeps the learning rate, the three are compared at the
// rate where DeepNorm or BranchNorm ends lowest, as the paper trains all its
// models with settings made for those two; Post-LN at its own best rate is
// named beside it (a lower rate may rescue it).
// Parts: Post-LN diverged or ends ≥ 0.2 nats above the better of the two,
// which trained; BranchNorm's roughness (mean |Δ ln ‖g‖| per step) at least 10%
// below Post-LN's; BranchNorm trained and its final loss ≤ DeepNorm's +
// max(0.01, DeepNorm's seed spread). Where all three stall level, the losses
// say nothing about the schemes, so neither loss part holds.
// What a Post-LN stack's norms leave of the gradient reaching the first layer
// (docs/PROBES.md, norm_in/sigma_*): ∏ 1/σ over the norms between layer 0's
// FC2 and the output (layer 0's norm after attention is below it), with the
// branches' mean cosine with the residual (attention, MLP), at the last step
// where every layer recorded them, and how alike the positions' hidden states are
// there (hidden/cos_tokens, mean over layers; NaN for runs without it). Empty for
// runs without the norms' probes.
struct NormShare {
    double log10_share, cos_attn, cos_mlp, cos_tokens;
    int64_t step;
};
static std::optional<NormShare> norm_share(const RunData& r) {
    const int L = r.layers();
    const auto& top = r.get("norm_in/sigma_mlp", L - 1);
    for (auto it = top.rbegin(); it != top.rend(); ++it) {
        NormShare n{0, 0, 0, 0, it->step};
        bool whole = true;
        for (int l = 0; l < L && whole; ++l) {
            const double a = value_at(r.get("norm_in/sigma_attn", l), n.step), m = value_at(r.get("norm_in/sigma_mlp", l), n.step);
            const double ca = value_at(r.get("branch/cos_attn", l), n.step), cm = value_at(r.get("branch/cos_mlp", l), n.step);
            whole = !std::isnan(a) && !std::isnan(m) && !std::isnan(ca) && !std::isnan(cm) && a > 0 && m > 0;
            n.log10_share -= (l > 0 ? std::log10(a) : 0.0) + std::log10(m);
            n.cos_attn += ca / L, n.cos_mlp += cm / L;
            n.cos_tokens += value_at(r.get("hidden/cos_tokens", l), n.step) / L;   // NaN where a layer lacks it
        }
        if (whole) return n;
    }
    return std::nullopt;
}

static Finding deep_post_ln(const json& e, const std::vector<RunData>& runs) {
    Finding f;
    const int early = e.value("early_steps", 100), start = e.value("start_steps", 20);
    const ByRate rates[] = {by_rate(of_scheme(runs, kPost)), by_rate(of_scheme(runs, "deepnorm")), by_rate(of_scheme(runs, "branchnorm"))};
    need(!rates[0].empty() && !rates[1].empty() && !rates[2].empty(), "finding 9 needs Post-LN, DeepNorm and BranchNorm runs");
    const char* const names[] = {"Post-LN", "DeepNorm", "BranchNorm"};
    bool swept = false;
    for (auto& m : rates) swept = swept || m.size() > 1;
    // the rate compared: of those all three were trained at, where the better of DeepNorm and BranchNorm ends lowest
    double rate = std::numeric_limits<double>::quiet_NaN(), lowest = std::numeric_limits<double>::infinity();
    for (auto& [lr, rs] : rates[1]) {
        if (!rates[0].count(lr) || !rates[2].count(lr)) continue;
        const double l = std::min(mean_of_inf(losses(rs)), mean_of_inf(losses(rates[2].at(lr))));
        if (std::isnan(rate) || l < lowest) lowest = l, rate = lr;
    }
    need(!std::isnan(rate), "finding 9 needs Post-LN, DeepNorm and BranchNorm runs at one learning rate at least");
    const double post_best = best_rate(rates[0]);
    const auto &post = rates[0].at(rate), &dn = rates[1].at(rate), &bn = rates[2].at(rate);
    f.measure = "Final validation loss (diverged = ∞), mean over seeds; smoothness of the global gradient norm at the "
                "very start (BranchNorm's Fig. 3), steps 0–" + std::to_string(start) + ", as the mean |Δ ln ‖g‖| from "
                "one step to the next (lower is smoother; steps 0–" + std::to_string(early) + " shown too). A run *stalled* when it ends less than 0.05 nats "
                "below the loss of byte frequencies alone (the data's unigram loss; for runs that did not record it: when its validation loss "
                "fell less than 0.05 nats from the end of the warm-up to its last evaluation). Where the learning rate is swept, the three at the rate where "
                "DeepNorm or BranchNorm ends lowest (the paper's settings are made for them), Post-LN's own best rate named beside. Parts: Post-LN diverges or ends ≥ 0.2 nats above the better of "
                "DeepNorm and BranchNorm, which trained (did not stall); BranchNorm at least 10% smoother than Post-LN; BranchNorm trained, "
                "its loss ≤ DeepNorm's + max(0.01, DeepNorm's seed spread).";
    auto rough = [&](const std::vector<const RunData*>& rs, int until) {
        std::vector<double> v;
        for (auto* r : rs) v.push_back(roughness(r->get("train/grad_norm"), until));
        return v;
    };
    const double lpost = mean_of_inf(losses(post)), ldn = mean_of_inf(losses(dn)), lbn = mean_of_inf(losses(bn));
    bool post_diverged = false;
    for (auto* r : post) post_diverged = post_diverged || r->status == RunStatus::Diverged;
    const bool others_train = trained(dn) || trained(bn);
    const bool a = (post_diverged || lpost - std::min(ldn, lbn) >= 0.2) && others_train;
    const double rpost = mean_of(rough(post, start)), rbn = mean_of(rough(bn, start)), rdn = mean_of(rough(dn, start));
    const double rpost_e = mean_of(rough(post, early)), rbn_e = mean_of(rough(bn, early)), rdn_e = mean_of(rough(dn, early));
    const bool b = rbn < 0.9 * rpost;   // at least 10% smoother: not a coin flip
    const double tol = std::max(0.01, half_range(losses(dn)));
    const bool c = trained(bn) && lbn <= ldn + tol;
    f.verdict = count_verdict(a + b + c, 3);
    const int L = post.front()->layers();
    auto n_stalled = [](const std::vector<const RunData*>& rs) {
        int n = 0;
        for (auto* r : rs) n += stalled(*r);
        return n;
    };
    const int sp = n_stalled(post), sd = n_stalled(dn), sb = n_stalled(bn);
    std::string stall_text;
    std::optional<double> unigram;
    for (auto* rs : {&post, &dn, &bn})
        for (auto* r : *rs)
            if (!unigram) unigram = unigram_of(*r);
    if (sp + sd + sb > 0)
        stall_text = std::string(" Stalled") + (unigram ? " (the unigram loss is " + fixed(*unigram, 3) + ")" : "") + ": Post-LN " + of_n(sp, post.size()) +
                     ", DeepNorm " + of_n(sd, dn.size()) + ", BranchNorm " + of_n(sb, bn.size()) + "." +
                     (others_train ? "" : " Neither DeepNorm nor BranchNorm trained, so the losses cannot tell the schemes apart.");
    auto per_seed = [&](const std::vector<const RunData*>& rs) {
        std::string t;
        for (double v : losses(rs)) t += (t.empty() ? "" : ", ") + fixed(v, 3);
        return rs.size() > 1 ? " (per seed " + t + ")" : std::string();
    };
    std::string rate_text, post_text;
    if (swept) {
        std::set<double> all;
        for (auto& m : rates)
            for (auto& [lr, rs] : m) all.insert(lr);
        std::string list;
        for (double lr : all) list += (list.empty() ? "" : ", ") + fmt(lr, 3);
        rate_text = "At learning rate " + fmt(rate, 3) + ", where DeepNorm or BranchNorm ends lowest (swept: " + list + "). ";
        if (post_best != rate)
            post_text = " At its own best rate, " + fmt(post_best, 3) + ", Post-LN ends at " +
                        fixed(mean_of_inf(losses(rates[0].at(post_best))), 3) + (trained(rates[0].at(post_best)) ? "" : " (stalled)") + ".";
    }
    // the norms' share of the gradient, where the compared runs recorded it (mean over seeds, in decades)
    std::string norms_text;
    {
        std::string parts;
        int64_t at = -1;
        bool tokens_recorded = false;
        for (int i = 0; i < 3; ++i) {
            const auto& rs = i == 0 ? post : i == 1 ? dn : bn;
            double lg = 0, ca = 0, cm = 0, ct = 0;
            int n = 0;
            for (auto* r : rs)
                if (auto ns = norm_share(*r))
                    lg += ns->log10_share, ca += ns->cos_attn, cm += ns->cos_mlp, ct += ns->cos_tokens, ++n, at = std::max(at, ns->step);
            if (n == 0) continue;
            const double share = std::pow(10.0, lg / n);
            const std::string key = i == 0 ? "post_ln" : i == 1 ? "deepnorm" : "branchnorm";
            parts += std::string(parts.empty() ? "" : "; ") + names[i] + " " + fmt(share, 2) + " (cos " + fixed(ca / n, 2) + " / " + fixed(cm / n, 2);
            if (!std::isnan(ct)) {
                parts += "; positions " + fixed(ct / n, 2);
                f.numbers.push_back({key + "_cos_tokens", ct / n});
            }
            parts += ")";
            f.numbers.push_back({key + "_norm_share", share});
            tokens_recorded = tokens_recorded || !std::isnan(ct);
        }
        if (!parts.empty())
            norms_text = " What the norms leave of the gradient reaching layer 0's FC2 (∏ 1/σ over the norms above it, at step " + std::to_string(at) +
                         "; the branches' mean cosine with the residual, attention / MLP, beside it" +
                         (tokens_recorded ? ", and the mean cosine between two positions' hidden states, 1 where every position carries one vector"
                                          : "") +
                         "): " + parts + ".";
    }
    f.result = rate_text + "With " + std::to_string(L) + " layers: Post-LN " + (post_diverged ? "diverged" : "ends at " + fixed(lpost, 3)) +
               per_seed(post) + ", DeepNorm " + fixed(ldn, 3) + per_seed(dn) + ", BranchNorm " + fixed(lbn, 3) + per_seed(bn) +
               " nats/byte. Gradient-norm roughness over steps 0–" + std::to_string(start) + ": Post-LN " + fixed(rpost, 3) +
               ", DeepNorm " + fixed(rdn, 3) + ", BranchNorm " + fixed(rbn, 3) + " (over 0–" + std::to_string(early) + ": " +
               fixed(rpost_e, 3) + ", " + fixed(rdn_e, 3) + ", " + fixed(rbn_e, 3) + "). Post-LN fails: " + yes(a) + "; BranchNorm smoother: " + yes(b) +
               "; BranchNorm at least as good as DeepNorm: " + yes(c) + "." + stall_text + post_text + norms_text;
    f.numbers.insert(f.numbers.end(), {{"post_ln_loss", lpost}, {"deepnorm_loss", ldn}, {"branchnorm_loss", lbn},
                 {"post_ln_roughness", rpost}, {"deepnorm_roughness", rdn}, {"branchnorm_roughness", rbn},
                 {"post_ln_stalled", double(sp)}, {"deepnorm_stalled", double(sd)}, {"branchnorm_stalled", double(sb)},
                 {"lr", rate}, {"post_ln_best_lr", post_best}});
    f.table.header = {"scheme", "final val loss", "‖g‖ roughness, steps 0–" + std::to_string(start),
                      "‖g‖ roughness, steps 0–" + std::to_string(early), "runs stalled", "runs diverged"};
    if (swept) f.table.header.insert(f.table.header.begin() + 1, "peak lr");
    Figure loss = make_figure("f09-deep-val-loss",
                              std::to_string(L) + "-layer stack: validation loss",
                              "step",
                              "validation loss (nats/byte)");
    Figure grad = make_figure("f09-deep-grad-norm-early",
                              std::to_string(L) + "-layer stack: gradient norm, first " + std::to_string(early) + " steps",
                              "step",
                              "‖g‖ (before clipping)",
                              true);
    for (int i = 0; i < 3; ++i) {
        // every rate a row (the one compared marked); the figures: the rate
        // compared solid, each other rate in the loss figure its own dash (the
        // same for a rate in every scheme's colour)
        int other = 0;
        for (auto& [lr, rs] : rates[i]) {
            int d = 0;
            for (auto* r : rs) d += r->status == RunStatus::Diverged;
            std::vector<std::string> row{names[i], with_spread_inf(losses(rs)), with_spread(rough(rs, start)),
                                         with_spread(rough(rs, early)), of_n(n_stalled(rs), rs.size()), of_n(d, rs.size())};
            if (swept) row.insert(row.begin() + 1, fmt(lr, 3) + (lr == rate ? " (compared)" : ""));
            f.table.rows.push_back(row);
            auto [x, y] = mean_curve(rs, "val/loss");
            Line l;
            l.label = swept ? std::string(names[i]) + ", lr " + fmt(lr, 3) : names[i];
            l.color = i;
            l.markers = true;
            l.dash = lr == rate ? 0 : 1 + other++ % 4;
            l.x = x, l.y = y;
            mark_divergence(l, rs);
            loss.lines.push_back(l);
        }
        const RunData* first = rates[i].at(rate).front();
        Line gl;
        gl.label = std::string(names[i]) + " (seed " + std::to_string(first->seed()) + (swept ? ", lr " + fmt(rate, 3) : "") + ")";
        gl.color = i;
        for (auto& p : first->get("train/grad_norm"))
            if (p.step <= early) gl.x.push_back(p.step), gl.y.push_back(p.value);
        grad.lines.push_back(gl);
    }
    if (unigram) loss.hlines.push_back({*unigram, "unigram (byte frequencies)"});
    loss.caption = swept ? "Mean over seeds; the rate compared solid, each other rate its own dash; ▲ where a run diverged."
                         : "Mean over seeds; ▲ where a run diverged.";
    grad.caption = swept ? "One seed at the rate compared, every step." : "One seed, every step.";
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
