// The model and the trainer: every scheme's shapes and learning, the
// schemes' invariants (Post-LN normalized outputs, nGPT unit norms, DeepNorm
// init, NormFormer's parameters), every probe against a brute-force
// recomputation, reproducibility, divergence, cancel/pause/resume. The fused
// CPU kernels against the eager ops: test_fused_ops.cpp.
// Tolerances: 1e-4 relative for float32 reductions recomputed in double;
// 1e-5 absolute for unit norms.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/data/data.h"
#include "core/model/gpt.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/precision.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"
#include "tests/model_util.h"
#include "tests/store_series.h"
#endif

#include <QtTest/QtTest>

#include <cmath>
#include <thread>

using namespace normlab;

namespace {

using test::param;
using test::rel;
using test::tiny;
using test::stored;

std::vector<double> values(Store& s, int64_t run, const std::string& series, int layer = -1) {
    std::vector<double> v;
    for (auto& p : s.points(s.series_id(run, series, layer))) v.push_back(p.value);
    return v;
}

// mean |g| and ‖g‖ of rows [r0, r1) of a 2-d gradient, element by element in double.
std::pair<double, double> brute_norms(const torch::Tensor& g, int64_t r0, int64_t r1) {
    auto a = g.to(torch::kDouble).contiguous();
    auto acc = a.accessor<double, 2>();
    double l1 = 0, l2 = 0;
    for (int64_t i = r0; i < r1; ++i)
        for (int64_t j = 0; j < a.size(1); ++j) {
            l1 += std::abs(acc[i][j]);
            l2 += acc[i][j] * acc[i][j];
        }
    return {l1 / double((r1 - r0) * a.size(1)), std::sqrt(l2)};
}

}  // namespace

class TestModel : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string store_path(const char* n) { return dir_.filePath(n).toStdString(); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        torch::set_num_threads(1);
    }

    void shapesAndFiniteLoss() {
        for (Scheme s : all_schemes()) {
            RunConfig c = tiny(s);
            GPT m(c.model);
            m->reset_parameters(1);
            auto idx = torch::randint(0, 256, {3, 16}, torch::kInt64);
            auto logits = m->forward(idx);
            QCOMPARE(logits.sizes().vec(), (std::vector<int64_t>{3, 16, 256}));
            const double loss = GPTImpl::loss(logits, idx).item<double>();
            QVERIFY2(std::isfinite(loss), scheme_name(s).c_str());
            // Near-uniform predictions at init: within a nat of ln 256.
            QVERIFY2(std::abs(loss - std::log(256.0)) < 1.0, qPrintable(QString("%1: %2").arg(scheme_name(s).c_str()).arg(loss)));
            // Causality: a change at position 10 leaves logits before it unchanged.
            auto idx2 = idx.clone();
            idx2.index_put_({0, 10}, (idx[0][10].item<int64_t>() + 1) % 256);
            auto l2 = m->forward(idx2);
            QVERIFY(torch::allclose(logits.narrow(1, 0, 10), l2.narrow(1, 0, 10), 1e-5, 1e-6));
            QVERIFY(!torch::allclose(logits.narrow(1, 10, 1), l2.narrow(1, 10, 1)));
        }
    }


    void everySchemeLearnsALearnableSource() {
        Store store(store_path("learn.sqlite"));
        for (Scheme s : all_schemes()) {
            RunConfig c = tiny(s, 150);
            c.train.eval_every = 150;
            const int64_t id = queue_run(store, c);
            RunResult r = train_run(store, id);
            QCOMPARE(r.status, RunStatus::Finished);
            auto loss = values(store, id, "train/loss");
            const double floor = store.run(id)->info["loss_floor"].get<double>();
            // and below what byte frequencies alone give: it learned from the context
            const double unigram = store.run(id)->info["unigram_loss"].get<double>();
            QVERIFY2(r.final_loss < unigram - 0.1, qPrintable(QString("%1: final %2, unigram %3").arg(scheme_name(s).c_str())
                                                                  .arg(r.final_loss).arg(unigram)));
            // From ln 256 ≈ 5.5 nats to below the 8-symbol uniform entropy ln 8 ≈ 2.08.
            QVERIFY2(loss.front() > 4.5 && r.final_loss < std::log(8.0) && r.final_loss > floor - 0.05,
                     qPrintable(QString("%1: first %2 final %3 floor %4").arg(scheme_name(s).c_str())
                                    .arg(loss.front()).arg(r.final_loss).arg(floor)));
        }
    }

    void postLNBlockOutputsAreNormalized() {
        RunConfig c = tiny(Scheme::PostLN);
        GPT m(c.model);
        m->reset_parameters(3);
        torch::NoGradGuard ng;
        auto idx = torch::randint(0, 256, {4, 16}, torch::kInt64);
        auto x = m->tok_emb(idx) + m->pos_emb.narrow(0, 0, 16);
        for (auto& b : *m->blocks) {
            x = b->as<Block>()->forward(x, 1.0, {}, {}, nullptr);
            const double mean = x.mean(-1).abs().max().item<double>();
            const double var_err = (x.var(-1, /*unbiased=*/false) - 1).abs().max().item<double>();
            QVERIFY2(mean < 1e-5 && var_err < 1e-3, qPrintable(QString("mean %1 var err %2").arg(mean).arg(var_err)));
        }
    }

    void ngptKeepsEverythingOnTheSphere() {
        Store store(store_path("ngpt.sqlite"));
        RunConfig c = tiny(Scheme::NGPT, 3);
        c.probes.forward_every = 1;
        const int64_t id = queue_run(store, c);
        QCOMPARE(train_run(store, id).status, RunStatus::Finished);
        GPT m = load_run_model(c, store.run(id)->checkpoint);   // weights after 3 updates
        auto unit = [](const torch::Tensor& w, int64_t dim) {
            return (w.norm(2, dim) - 1).abs().max().item<double>();
        };
        QVERIFY(unit(m->tok_emb->weight, 1) < 1e-5);
        QVERIFY(unit(m->lm_head, 1) < 1e-5);
        for (int l = 0; l < 2; ++l) {
            const std::string b = "blocks." + std::to_string(l);
            QVERIFY(unit(param(m, b + ".attn.qkv.weight"), 1) < 1e-5);
            QVERIFY(unit(param(m, b + ".attn.out.weight"), 0) < 1e-5);
            QVERIFY(unit(param(m, b + ".mlp.fc1.weight"), 1) < 1e-5);
            QVERIFY(unit(param(m, b + ".mlp.fc2.weight"), 0) < 1e-5);
            // The scalers moved but are never renormalized.
            QVERIFY(std::abs(param(m, b + ".attn.s_qk").norm().item<double>() - 1.0) > 1e-4);
            for (int64_t step = 0; step < 3; ++step)      // hidden states: unit norm per token
                QVERIFY(std::abs(stored(store, id, "hidden/norm", l, step) - 1.0) < 1e-5);
        }
        // Eigen learning rates start at α = 0.05 (stored as 1/√d, used as θ·0.05·√d).
        auto d0 = store.distributions(id, "gain/alpha_A");
        QVERIFY(!d0.empty());
        QVERIFY(std::abs(d0.front().mean - 0.05) < 1e-7);
        const double scale = 0.05 * std::sqrt(32.0);
        auto alpha = (param(m, "blocks.1.alpha_A") * scale).abs();
        for (auto& d : store.distributions(id, "gain/alpha_A"))
            if (d.layer == 1 && d.step == 3) {
                QVERIFY(rel(d.mean, alpha.mean().item<double>()) < 1e-5);
                QVERIFY(rel(d.max, alpha.max().item<double>()) < 1e-5);
            }
    }

    void deepNormInitScalesTheRightWeights() {
        RunConfig c = tiny(Scheme::DeepNorm);
        c.model.d_model = 128;
        c.model.d_ff = 256;
        c.model.n_layers = 6;
        GPT m(c.model);
        m->reset_parameters(5);
        const double beta = deepnorm_beta_for(6), d = 128;
        auto qkv = param(m, "blocks.2.attn.qkv.weight");
        auto near = [](double got, double want) { return std::abs(got / want - 1) < 0.05; };
        QVERIFY(near(qkv.narrow(0, 0, 128).std().item<double>(), 1 / std::sqrt(d)));        // W_q gain 1
        QVERIFY(near(qkv.narrow(0, 128, 128).std().item<double>(), 1 / std::sqrt(d)));      // W_k gain 1
        QVERIFY(near(qkv.narrow(0, 256, 128).std().item<double>(), beta / std::sqrt(d)));   // W_v gain β
        QVERIFY(near(param(m, "blocks.2.attn.out.weight").std().item<double>(), beta / std::sqrt(d)));
        QVERIFY(near(param(m, "blocks.2.mlp.fc1.weight").std().item<double>(), beta * std::sqrt(2 / (d + 256))));
        QVERIFY(near(param(m, "blocks.2.mlp.fc2.weight").std().item<double>(), beta * std::sqrt(2 / (d + 256))));
        QCOMPARE(m->blocks[0]->as<Block>()->residual_alpha, deepnorm_alpha_for(6));
    }

    void normFormerAddsExactlyItsParameters() {
        const int L = 2, H = 4, d = 32, f = 64;
        GPT pre(tiny(Scheme::PreLN).model);
        GPT nf(tiny(Scheme::NormFormer).model);
        QCOMPARE(nf->parameter_count() - pre->parameter_count(), int64_t(L * (H + 2 * d + 2 * f)));
        RunConfig rs = tiny(Scheme::NormFormer);
        rs.model.normformer.res_scale = true;
        GPT with_res(rs.model);
        QCOMPARE(with_res->parameter_count() - pre->parameter_count(), int64_t(L * (H + 2 * d + 2 * f + d)));
        rs.model.norm = NormKind::RMSNorm;
        RunConfig pre_rms = tiny(Scheme::PreLN);
        pre_rms.model.norm = NormKind::RMSNorm;
        GPT a(rs.model), b(pre_rms.model);
        QCOMPARE(a->parameter_count() - b->parameter_count(), int64_t(L * (H + d + f + d)));
    }

    // A GPU's probe steps take the max logit from the scaled logits without
    // gradient, a few batch rows at a time (gpt.cpp): the same value as the
    // whole (B, H, T, T) matrix gives, whatever the rows per chunk.
    void maxCausalLogitInChunksIsTheWhole() {
        torch::manual_seed(3);
        RunConfig c = tiny(Scheme::PreLN, 1);
        Attention attn(c.model);
        auto q = torch::randn({5, 4, 16, 8}), k = torch::randn({5, 4, 16, 8});
        auto att = torch::matmul(q * 0.35, k.transpose(-2, -1));
        att.masked_fill_(torch::ones({16, 16}, torch::kBool).triu(1), -std::numeric_limits<float>::infinity());
        const double want = att.max().item<double>();
        for (int64_t limit : {int64_t(1) << 27, int64_t(4 * 16 * 16 * 2), int64_t(1)})
            QCOMPARE(attn->max_causal_logit(q, k, 0.35, limit).item<double>(), want);
        // float32 inside a bf16 autocast forward, as every probe (a bf16 product is off by ~2e-3
        // here), also from bf16 queries and keys (nGPT's CUDA kernel hands attention those).
        const auto q16 = q.to(torch::kBFloat16), k16 = k.to(torch::kBFloat16);
        auto att16 = torch::matmul(q16.to(torch::kFloat) * 0.35, k16.to(torch::kFloat).transpose(-2, -1));
        att16.masked_fill_(torch::ones({16, 16}, torch::kBool).triu(1), -std::numeric_limits<float>::infinity());
        const double want16 = att16.max().item<double>();
        {
            const AutocastScope bf16("bf16", false);
            QCOMPARE(attn->max_causal_logit(q, k, 0.35, int64_t(1) << 27).item<double>(), want);
            QCOMPARE(attn->max_causal_logit(q16, k16, 0.35, int64_t(1) << 27).item<double>(), want16);
        }
        // The future is masked: a large logit above the diagonal is not seen.
        auto q2 = q.clone(), k2 = k.clone();
        q2[4][3][2].fill_(10);
        k2[4][3][9].fill_(10);
        QVERIFY(attn->max_causal_logit(q2, k2, 0.35, 1).item<double>() < 0.35 * 800);
    }

    void probesMatchBruteForce() {
        Store store(store_path("probes.sqlite"));
        RunConfig c = tiny(Scheme::NormFormer, 1);
        c.probes = ProbeConfig{1, 1, 1, 1, 16, 0};
        // The same model, batch and loss, recomputed here.
        auto [id, m, tok] = test::train_and_rebuild(store, c, 0);
        auto x = tok.narrow(1, 0, 16), y = tok.narrow(1, 1, 16);
        auto loss = GPTImpl::loss(m->forward(x), y);
        QVERIFY(rel(loss.item<double>(), stored(store, id, "train/loss", -1, 0)) < 1e-6);
        loss.backward();
        const int64_t d = 32;
        for (int l = 0; l < 2; ++l) {
            const std::string b = "blocks." + std::to_string(l);
            struct { const char* probe; std::string param; int64_t r0, r1; } cases[] = {
                {"q", b + ".attn.qkv.weight", 0, d},       {"k", b + ".attn.qkv.weight", d, 2 * d},
                {"v", b + ".attn.qkv.weight", 2 * d, 3 * d}, {"o", b + ".attn.out.weight", 0, d},
                {"fc1", b + ".mlp.fc1.weight", 0, 64},     {"fc2", b + ".mlp.fc2.weight", 0, d}};
            for (auto& k : cases) {
                auto [l1, l2] = brute_norms(param(m, k.param).grad(), k.r0, k.r1);
                QVERIFY2(rel(l1, stored(store, id, std::string("grad_l1/") + k.probe, l, 0)) < 1e-4, k.probe);
                QVERIFY2(rel(l2, stored(store, id, std::string("grad_l2/") + k.probe, l, 0)) < 1e-4, k.probe);
            }
        }
        // Global gradient norm (before clipping).
        double sq = 0;
        for (auto& p : m->parameters())
            if (p.grad().defined()) sq += p.grad().to(torch::kDouble).pow(2).sum().item<double>();
        QVERIFY(rel(std::sqrt(sq), stored(store, id, "train/grad_norm", -1, 0)) < 1e-4);

        // Hidden states, cosine to the previous layer, largest attention logit, active share.
        torch::NoGradGuard ng;
        auto h = (m->tok_emb(x) + m->pos_emb.narrow(0, 0, 16)).to(torch::kDouble);
        for (int l = 0; l < 2; ++l) {
            auto blk = m->blocks[l]->as<Block>();
            // largest q·k/√d_h over allowed (causal) pairs, from the raw weights
            auto a = blk->norm1->forward(h.to(torch::kFloat)).to(torch::kDouble);
            auto W = blk->attn->qkv->weight.to(torch::kDouble), bias = blk->attn->qkv->bias.to(torch::kDouble);
            auto acc_a = a.accessor<double, 3>();
            auto accW = W.accessor<double, 2>();
            auto accb = bias.accessor<double, 1>();
            std::vector<double> q(8 * 16 * d), k(8 * 16 * d);
            for (int64_t bb = 0; bb < 8; ++bb)
                for (int64_t t = 0; t < 16; ++t)
                    for (int64_t e = 0; e < d; ++e) {
                        double qs = accb[e], ks = accb[d + e];
                        for (int64_t j = 0; j < d; ++j) {
                            qs += accW[e][j] * acc_a[bb][t][j];
                            ks += accW[d + e][j] * acc_a[bb][t][j];
                        }
                        q[(bb * 16 + t) * d + e] = qs;
                        k[(bb * 16 + t) * d + e] = ks;
                    }
            double best = -1e300;
            for (int64_t bb = 0; bb < 8; ++bb)
                for (int64_t hh = 0; hh < 4; ++hh)
                    for (int64_t t = 0; t < 16; ++t)
                        for (int64_t s = 0; s <= t; ++s) {
                            double dot = 0;
                            for (int64_t e = hh * 8; e < hh * 8 + 8; ++e) dot += q[(bb * 16 + t) * d + e] * k[(bb * 16 + s) * d + e];
                            best = std::max(best, dot / std::sqrt(8.0));
                        }
            QVERIFY(rel(best, stored(store, id, "attn/max_logit", l, 0)) < 1e-4);
            // share of GELU(fc1(LN2(x_mid))) > 0, x_mid the residual stream after attention
            auto mid = h.to(torch::kFloat) + blk->attn->forward(blk->norm1->forward(h.to(torch::kFloat)), {}, {}, nullptr);
            auto pre = blk->mlp->fc1->forward(blk->norm2->forward(mid)).to(torch::kDouble);
            auto pacc_ = pre.accessor<double, 3>();
            double on = 0;
            for (int64_t bb = 0; bb < 8; ++bb)
                for (int64_t t = 0; t < 16; ++t)
                    for (int64_t e = 0; e < 64; ++e) {
                        const double u = pacc_[bb][t][e];
                        on += 0.5 * u * (1 + std::erf(u / std::sqrt(2.0))) > 0;
                    }
            QVERIFY(rel(on / (8 * 16 * 64), stored(store, id, "mlp/active", l, 0)) < 3e-4);   // ≤ 1 of 8192 may flip at 0
            auto prev = h;
            h = blk->forward(h.to(torch::kFloat), 1.0, {}, {}, nullptr).to(torch::kDouble);
            auto acc = h.accessor<double, 3>();
            auto pacc = prev.accessor<double, 3>();
            double norm_sum = 0, sq_sum = 0, cos_sum = 0;
            for (int64_t bb = 0; bb < 8; ++bb)
                for (int64_t t = 0; t < 16; ++t) {
                    double n2 = 0, p2 = 0, dot = 0;
                    for (int64_t j = 0; j < d; ++j) {
                        n2 += acc[bb][t][j] * acc[bb][t][j];
                        p2 += pacc[bb][t][j] * pacc[bb][t][j];
                        dot += acc[bb][t][j] * pacc[bb][t][j];
                    }
                    norm_sum += std::sqrt(n2);
                    sq_sum += n2 / d;
                    cos_sum += dot / std::sqrt(n2 * p2);
                }
            QVERIFY(rel(norm_sum / 128, stored(store, id, "hidden/norm", l, 0)) < 1e-4);
            QVERIFY(rel(sq_sum / 128, stored(store, id, "hidden/sq_over_d", l, 0)) < 1e-4);
            QVERIFY(rel(cos_sum / 128, stored(store, id, "hidden/cos_prev", l, 0)) < 1e-4);
            // every pair of different positions of a sequence, mean over pairs, then over the 8 sequences
            double pair_sum = 0;
            for (int64_t bb = 0; bb < 8; ++bb)
                for (int64_t t = 0; t < 16; ++t)
                    for (int64_t t2 = 0; t2 < 16; ++t2) {
                        if (t2 == t) continue;
                        double a2 = 0, b2 = 0, dot = 0;
                        for (int64_t j = 0; j < d; ++j) {
                            a2 += acc[bb][t][j] * acc[bb][t][j];
                            b2 += acc[bb][t2][j] * acc[bb][t2][j];
                            dot += acc[bb][t][j] * acc[bb][t2][j];
                        }
                        pair_sum += dot / std::sqrt(a2 * b2);
                    }
            QVERIFY(rel(pair_sum / (8 * 16 * 15), stored(store, id, "hidden/cos_tokens", l, 0)) < 1e-4);
        }

        // Condition numbers: √(λmax/λmin) of W Wᵀ per head for q, median over the 4 heads.
        for (int l = 0; l < 2; ++l) {
            auto W = param(m, "blocks." + std::to_string(l) + ".attn.qkv.weight").detach().to(torch::kDouble);
            std::vector<double> conds;
            for (int hh = 0; hh < 4; ++hh) {
                auto Wh = W.narrow(0, hh * 8, 8);                         // (d_h, d)
                auto ev = torch::linalg_eigvalsh(torch::matmul(Wh, Wh.t()));
                conds.push_back(std::sqrt(ev[-1].item<double>() / ev[0].item<double>()));
            }
            std::sort(conds.begin(), conds.end());
            QVERIFY(rel(0.5 * (conds[1] + conds[2]), stored(store, id, "cond/q", l, 0)) < 1e-6);
            auto fc2 = param(m, "blocks." + std::to_string(l) + ".mlp.fc2.weight").detach().to(torch::kDouble);
            auto ev = torch::linalg_eigvalsh(torch::matmul(fc2, fc2.t()));
            QVERIFY(rel(std::sqrt(ev[-1].item<double>() / ev[0].item<double>()), stored(store, id, "cond/fc2", l, 0)) < 1e-6);
        }

        // Gains after the update: FFN-LN γ of layer 1 from the checkpoint.
        GPT trained = load_run_model(c, store.run(id)->checkpoint);
        auto g = param(trained, "blocks.1.mlp.ffn_norm.weight").to(torch::kDouble);
        std::vector<double> v(g.data_ptr<double>(), g.data_ptr<double>() + g.numel());
        std::sort(v.begin(), v.end());
        bool found = false;
        for (auto& dist : store.distributions(id, "gain/ffn_norm"))
            if (dist.layer == 1 && dist.step == 1) {
                found = true;
                QCOMPARE(dist.count, int64_t(64));
                QVERIFY(rel(dist.min, v.front()) < 1e-6 && rel(dist.max, v.back()) < 1e-6);
                QVERIFY(rel(dist.median, 0.5 * (v[31] + v[32])) < 1e-6);
                QVERIFY(dist.max > dist.min);              // the update moved them
            }
        QVERIFY(found);
        QVERIFY(rel(stored(store, id, "gain_mean/head_scale", 0, 0), 1.0) < 1e-12);

        // Embedding spectrum at step 0: covariance eigenvalues / their median, by SVD here.
        auto E = param(m, "tok_emb.weight").detach().to(torch::kDouble);
        auto sv = torch::linalg_svdvals(E - E.mean(0, true));
        auto ev = std::get<0>((sv * sv / 256).sort());                         // ascending, (d)
        const double med = 0.5 * (ev[15].item<double>() + ev[16].item<double>());
        auto spec = store.distributions(id, "emb_eig/tok_emb");
        QVERIFY(!spec.empty() && spec[0].step == 0 && spec[0].count == 32);
        QVERIFY(rel(spec[0].max, ev[31].item<double>() / med) < 1e-6);
        QVERIFY(rel(spec[0].min, ev[0].item<double>() / med) < 1e-6);
        QVERIFY(rel(spec[0].median, 1.0) < 1e-9);
    }

    void expectedGradientAveragesBatches() {
        Store store(store_path("expected.sqlite"));
        RunConfig c = tiny(Scheme::PreLN, 1);
        c.probes.expected_grad_batches = 3;
        const int64_t id = queue_run(store, c);
        QCOMPARE(train_run(store, id).status, RunStatus::Finished);
        GPT m(c.model);
        m->reset_parameters(c.train.seed);
        const Dataset data = load_dataset(c.data, c.model.context);
        for (int i = 0; i < 3; ++i) {
            auto tok = batch_tokens(data, c.train.seed ^ 0xE6E6ull, i, 8, 16, false);
            (GPTImpl::loss(m->forward(tok.narrow(1, 0, 16)), tok.narrow(1, 1, 16)) / 3).backward();
        }
        auto [l1, l2] = brute_norms(param(m, "blocks.1.mlp.fc2.weight").grad(), 0, 32);
        QVERIFY(rel(l2, stored(store, id, "grad_expected_l2/fc2", 1, 0)) < 1e-4);
    }

    void sameSeedSameLossTrace() {
        Store store(store_path("repro.sqlite"));
        for (Scheme s : {Scheme::PreLN, Scheme::NGPT, Scheme::BranchNorm}) {
            RunConfig c = tiny(s, 25);
            c.model.dropout = s == Scheme::NGPT ? 0.0 : 0.1;   // dropout included where allowed
            const int64_t a = queue_run(store, c), b = queue_run(store, c);
            train_run(store, a);
            train_run(store, b);
            QVERIFY(values(store, a, "train/loss") == values(store, b, "train/loss"));
            c.train.seed = 2;
            const int64_t other = queue_run(store, c);
            train_run(store, other);
            QVERIFY(values(store, a, "train/loss") != values(store, other, "train/loss"));
        }
    }

    void divergenceEndsTheRunWithItsStep() {
        Store store(store_path("diverge.sqlite"));
        RunConfig c = tiny(Scheme::PostLN, 500);
        c.optim.schedule.kind = ScheduleKind::Ramp;
        c.optim.schedule.ramp_increment = 0.05;
        c.optim.grad_clip = 0;
        c.optim.kind = OptimizerKind::SGD;
        c.optim.momentum = 0.9;
        const int64_t id = queue_run(store, c);
        RunResult r = train_run(store, id);
        QCOMPARE(r.status, RunStatus::Diverged);
        auto info = *store.run(id);
        QCOMPARE(info.status, RunStatus::Diverged);
        QVERIFY(info.status_step >= 0 && info.status_step < 500);
        QVERIFY(info.info["diverged_lr"].get<double>() > 0);
        QCOMPARE(info.info["diverged_step"].get<int64_t>(), info.status_step);
        auto pts = store.points(store.series_id(id, "train/loss"));
        QCOMPARE(pts.back().step, info.status_step);       // the diverging step is recorded
    }

    void cancelThenResumeContinuesExactly() {
        Store store(store_path("resume.sqlite"));
        RunConfig c = tiny(Scheme::NormFormer, 40);
        const int64_t full = queue_run(store, c);
        QCOMPARE(train_run(store, full).status, RunStatus::Finished);

        const int64_t part = queue_run(store, c);
        RunControl control;
        TrainOptions o;
        o.control = &control;
        o.progress_interval_s = 0;
        o.on_progress = [&](const Progress& p) {
            if (p.step >= 17) control.cancel();
        };
        RunResult r = train_run(store, part, o);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QCOMPARE(r.steps, int64_t(17));
        QVERIFY(!store.run(part)->checkpoint.empty());
        TrainOptions again;
        again.resume = true;
        r = train_run(store, part, again);
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(r.steps, int64_t(40));
        QVERIFY(values(store, full, "train/loss") == values(store, part, "train/loss"));
        QCOMPARE(r.final_loss, store.run(full)->final_loss);
    }

    void pauseHoldsTheRunUntilResumed() {
        Store setup(store_path("pause.sqlite"));
        RunConfig c = tiny(Scheme::PreLN, 10);
        const int64_t id = queue_run(setup, c);
        RunControl control;
        control.pause();
        RunResult r;
        std::thread worker([&] {
            Store s(store_path("pause.sqlite"));
            TrainOptions o;
            o.control = &control;
            r = train_run(s, id, o);
        });
        QTRY_COMPARE_WITH_TIMEOUT(setup.run(id)->status, RunStatus::Running, 20000);
        QTest::qWait(300);
        QCOMPARE(setup.points(setup.series_id(id, "train/loss")).size(), size_t(0));
        control.resume();
        worker.join();
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(setup.points(setup.series_id(id, "train/loss")).size(), size_t(10));
    }

    void badDeviceFailsClearly() {
        if (cuda_available()) QSKIP("a CUDA device is present");
        Store store(store_path("device.sqlite"));
        RunConfig c = tiny(Scheme::PreLN, 2);
        c.train.device = "cuda";
        const int64_t id = queue_run(store, c);
        RunResult r = train_run(store, id);
        QCOMPARE(r.status, RunStatus::Failed);
        QVERIFY2(r.message.find("no CUDA device") != std::string::npos, r.message.c_str());
        QCOMPARE(store.run(id)->status, RunStatus::Failed);
    }
};

QTEST_GUILESS_MAIN(TestModel)
#include "test_model.moc"
