// The probes of what enters each Post-LN norm (norm_in/sigma_*, branch/cos_*,
// docs/PROBES.md) against a brute-force recomputation: for Post-LN with
// RMSNorm, DeepNorm (its residual α) and BranchNorm at α_t = 0 and ½, the
// sums s = α·x + α_t·F(x) rebuilt here from the model's own attention, MLP and
// norms, and σ(s) and cos(α·x, α_t·F) taken element by element in double. The
// runs train with a learning rate of 1e-30, so that the weights a probe step
// saw are the initial ones (an update of 1e-30 vanishes against ~1e-2 in float32).
// Pre-LN and nGPT record none of these series.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/data/data.h"
#include "core/model/gpt.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"
#include "tests/model_util.h"
#include "tests/store_series.h"
#endif

#include <QtTest/QtTest>

#include <cmath>
#include <set>

using namespace normlab;

namespace {

using test::rel;
using test::tiny;
using test::stored;

// Mean over tokens of the norm's divisor of s = r + f, and of cos(r, f), in double.
std::pair<double, double> brute(const torch::Tensor& r_in, const torch::Tensor& f_in, bool rms, double eps) {
    auto r = r_in.to(torch::kDouble).contiguous(), f = f_in.to(torch::kDouble).contiguous();
    auto ra = r.accessor<double, 3>(), fa = f.accessor<double, 3>();
    const int64_t B = r.size(0), T = r.size(1), d = r.size(2);
    double sig = 0, cos = 0;
    for (int64_t b = 0; b < B; ++b)
        for (int64_t t = 0; t < T; ++t) {
            double mean = 0, sq = 0, rr = 0, ff = 0, rf = 0;
            for (int64_t j = 0; j < d; ++j) mean += (ra[b][t][j] + fa[b][t][j]) / d;
            for (int64_t j = 0; j < d; ++j) {
                const double s = ra[b][t][j] + fa[b][t][j] - (rms ? 0.0 : mean);
                sq += s * s / d;
                rr += ra[b][t][j] * ra[b][t][j];
                ff += fa[b][t][j] * fa[b][t][j];
                rf += ra[b][t][j] * fa[b][t][j];
            }
            sig += std::sqrt(sq + eps);
            cos += rf / std::max(std::sqrt(rr * ff), 1e-8);
        }
    return {sig / double(B * T), cos / double(B * T)};
}

}  // namespace

class TestNormInputProbe : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Trains c with every step a probe step and checks each block's four values at `step`.
    void check(RunConfig c, int64_t step, const char* what) {
        const std::string path = dir_.filePath(QString("%1.sqlite").arg(what)).toStdString();
        Store store(path);
        c.optim.lr = 1e-30;
        c.optim.schedule.warmup = 0;
        c.probes = ProbeConfig{0, 1, 0, 0, 16, 0};
        auto [id, m, tok] = test::train_and_rebuild(store, c, step);
        auto idx = tok.narrow(1, 0, c.model.context);
        torch::NoGradGuard ng;
        auto x = m->tok_emb(idx) + m->pos_emb.narrow(0, 0, c.model.context);
        const double a = m->blocks[0]->as<Block>()->residual_alpha;
        const double at = branchnorm_alpha(c.model.branchnorm, step);
        const bool rms = c.model.norm == NormKind::RMSNorm;
        int checked = 0;
        for (int l = 0; l < c.model.n_layers; ++l) {
            auto blk = m->blocks[l]->as<Block>();
            auto r = x * a, f = blk->attn->forward(x, {}, {}, nullptr) * at;
            auto [sig, cos] = brute(r, f, rms, blk->norm1->eps);
            QVERIFY2(rel(sig, stored(store, id, "norm_in/sigma_attn", l, step)) < 1e-4, what);
            QVERIFY2(std::abs(cos - stored(store, id, "branch/cos_attn", l, step)) < 1e-5, what);
            x = blk->norm1->forward(r + f);
            r = x * a, f = blk->mlp->forward(x, nullptr) * at;
            std::tie(sig, cos) = brute(r, f, rms, blk->norm2->eps);
            QVERIFY2(rel(sig, stored(store, id, "norm_in/sigma_mlp", l, step)) < 1e-4, what);
            QVERIFY2(std::abs(cos - stored(store, id, "branch/cos_mlp", l, step)) < 1e-5, what);
            x = blk->norm2->forward(r + f);
            checked += 4;
        }
        QCOMPARE(checked, 4 * c.model.n_layers);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void postLnWithRmsNorm() {
        RunConfig c = tiny(Scheme::PostLN, 2);
        c.model.norm = NormKind::RMSNorm;
        check(c, 1, "post_ln_rms");
    }

    void deepNormsResidualAlpha() {
        RunConfig c = tiny(Scheme::DeepNorm, 1);
        QVERIFY(std::abs(m_alpha(c) - std::pow(2.0 * c.model.n_layers, 0.25)) < 1e-12);
        check(c, 0, "deepnorm");
    }

    void branchNormsRamp() {
        RunConfig c = tiny(Scheme::BranchNorm, 3);
        c.model.branchnorm.T = 4;
        check(c, 2, "branchnorm_half");   // α_t = ½
        check(c, 0, "branchnorm_zero");   // α_t = 0: the branch adds nothing, its cosine is 0
    }

    void preLnAndNgptRecordNone() {
        for (Scheme s : {Scheme::PreLN, Scheme::NGPT}) {
            Store store(dir_.filePath(QString("none_%1.sqlite").arg(int(s))).toStdString());
            RunConfig c = tiny(s, 1);
            c.probes = ProbeConfig{0, 1, 0, 0, 16, 0};
            const int64_t id = queue_run(store, c);
            QCOMPARE(train_run(store, id).status, RunStatus::Finished);
            std::set<std::string> names;
            for (auto& si : store.series(id, false)) names.insert(si.name);
            QVERIFY(names.count("hidden/norm"));          // the run recorded its forward probes
            for (const char* n : {"norm_in/sigma_attn", "norm_in/sigma_mlp", "branch/cos_attn", "branch/cos_mlp"})
                QVERIFY2(!names.count(n), n);
        }
    }

private:
    static double m_alpha(const RunConfig& c) { return c.model.deepnorm_alpha(); }
};

QTEST_GUILESS_MAIN(TestNormInputProbe)
#include "test_norm_input_probe.moc"
