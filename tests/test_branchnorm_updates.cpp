// model.branchnorm.scale_updates (lab-defined, docs/CONFIG.md): the optimizer's step of the
// branches' parameters (each block's attention and MLP) scaled by α_t as well as their output.
// At α_t = ½ they move half as far as without it while the rest moves alike; they are optimizer
// groups of their own; and without a ramp the run is the one it is without the switch, bit for
// bit. The static step, which a CUDA graph captures, takes it too (test_static_step).
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/model/gpt.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/recorder.h"
#include "core/train/trainer.h"

#include "tests/model_util.h"
#include "tests/test_util.h"
#endif

#include <QtTest/QtTest>

#include <set>

using namespace normlab;

class TestBranchNormUpdates : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static RunConfig ramp(int steps, int T, bool scaled) {
        RunConfig c = test::tiny(Scheme::BranchNorm, steps);
        c.model.branchnorm.T = T;
        c.model.branchnorm.scale_updates = scaled;
        c.optim.schedule.warmup = 0;
        c.optim.lr = 1e-2;
        c.train.checkpoint_every = steps;
        return c;
    }
    struct Trained {
        GPT model{nullptr};
        std::unique_ptr<torch::optim::Optimizer> opt;
        std::vector<double> loss;
    };
    // Trains c into a store of its own; its weights and optimizer as the last checkpoint has them.
    Trained train(const RunConfig& c, const char* name) {
        Store store(dir_.filePath(QString("%1.sqlite").arg(name)).toStdString());
        const int64_t id = queue_run(store, c);
        if (train_run(store, id).status != RunStatus::Finished) qFatal("%s did not finish", name);
        Trained t;
        t.model = GPT(c.model);
        t.opt = make_optimizer(c.optim, t.model);
        const std::string ckpt = store.run(id)->checkpoint;
        if (ckpt.empty()) qFatal("%s left no checkpoint", name);
        load_checkpoint(ckpt, t.model, t.opt.get());
        for (auto& p : store.points(store.series_id(id, "train/loss"))) t.loss.push_back(p.value);
        return t;
    }
    // The same ramp without weight decay, trained with the switch and without it.
    std::pair<Trained, Trained> with_and_without(int steps, int T, const QString& name) {
        RunConfig c = ramp(steps, T, true);
        c.optim.weight_decay = 0;
        Trained scaled = train(c, qPrintable(name + "_scaled"));
        c.model.branchnorm.scale_updates = false;
        return {std::move(scaled), train(c, qPrintable(name + "_plain"))};
    }
    static std::set<const void*> branch_of(GPT& m) {
        std::set<const void*> s;
        for (auto& p : m->branch_parameters()) s.insert(p.unsafeGetTensorImpl());
        return s;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // The branches are each block's attention and MLP, nothing else.
    void theBranchesAreTheAttentionAndTheMlp() {
        GPT m(ramp(1, 4, true).model);
        const auto branch = branch_of(m);
        int in = 0;
        for (auto& p : m->named_parameters()) {
            const bool inside = p.key().find(".attn.") != std::string::npos || p.key().find(".mlp.") != std::string::npos;
            QVERIFY2(inside == (branch.count(p.value().unsafeGetTensorImpl()) > 0), p.key().c_str());
            in += inside;
        }
        QCOMPARE(in, 2 * 8);   // per block: qkv, out, fc1, fc2, each a weight and a bias
    }

    // Steps 0 and 1 of a ramp over T = 2 (α_t = 0, then ½), without weight decay. At step 0 the
    // branches' gradient is 0 and the runs with and without the switch stay equal; at step 1 they
    // start from the same weights with the same gradients, so Adam's step is the same direction and
    // size, and the switch halves it for the branches alone: the rest moves bit for bit alike.
    void atAlphaHalfTheBranchesMoveHalfAsFar() {
        auto [scaled, plain] = with_and_without(2, 2, "half");
        const RunConfig c = ramp(2, 2, true);
        GPT init(c.model);
        init->reset_parameters(c.train.seed);
        auto before = init->named_parameters(), after = plain.model->named_parameters();
        const auto branch = branch_of(scaled.model);
        int halved = 0, same = 0;
        for (auto& p : scaled.model->named_parameters()) {
            const torch::Tensor full = after[p.key()] - before[p.key()], part = p.value() - before[p.key()];
            if (!branch.count(p.value().unsafeGetTensorImpl())) {
                QVERIFY2(torch::equal(p.value(), after[p.key()]), p.key().c_str());
                ++same;
                continue;
            }
            QVERIFY2(full.abs().max().item<double>() > 1e-4, p.key().c_str());   // Adam moved it at step 1
            const double off = (part - 0.5 * full).abs().max().item<double>() / full.abs().max().item<double>();
            QVERIFY2(off < 1e-3, qPrintable(QString("%1: %2").arg(p.key().c_str()).arg(off)));
            ++halved;
        }
        QCOMPARE(halved, 16);
        QVERIFY(same >= 4);
        QCOMPARE(scaled.loss, plain.loss);   // each step's loss is measured before its update
    }

    // The branches' parameters are groups of their own, after the others', and only with the switch
    // on under BranchNorm: off, the optimizer has its two groups (with and without weight decay).
    void theBranchesHaveGroupsOfTheirOwn() {
        for (bool on : {true, false}) {
            const RunConfig c = ramp(1, 4, on);
            GPT m(c.model);
            auto opt = make_optimizer(c.optim, m);
            const std::vector<bool> branch_group = branch_groups(*opt, m);
            auto& groups = opt->param_groups();
            QCOMPARE(groups.size(), size_t(on ? 4 : 2));
            if (!on) {
                QVERIFY(branch_group.empty());
                continue;
            }
            QCOMPARE(branch_group, (std::vector<bool>{false, false, true, true}));
            const auto branch = branch_of(m);
            size_t params = 0;
            for (size_t i = 0; i < groups.size(); ++i) {
                for (auto& p : groups[i].params()) QCOMPARE(branch.count(p.unsafeGetTensorImpl()) > 0, bool(branch_group[i]));
                params += groups[i].params().size();
            }
            QCOMPARE(params, m->parameters().size());
        }
    }

    // With a ramp of one step (α_t = 0 at step 0, where the branches' gradient is 0, then 1) and
    // no weight decay, the switch changes nothing: the same losses and weights, bit for bit,
    // though the optimizer has four groups where it had two.
    void withoutARampTheRunIsTheSame() {
        auto [a, b] = with_and_without(6, 1, "flat");
        QCOMPARE(a.opt->param_groups().size(), size_t(4));
        QCOMPARE(a.loss.size(), size_t(6));
        QCOMPARE(a.loss, b.loss);
        auto pb = b.model->named_parameters();
        for (auto& p : a.model->named_parameters()) QVERIFY2(torch::equal(p.value(), pb[p.key()]), p.key().c_str());
    }
};

QTEST_GUILESS_MAIN(TestBranchNormUpdates)
#include "test_branchnorm_updates.moc"
