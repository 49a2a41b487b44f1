// The capture-safe step (train.cuda_graph, core/train/static_step.h) on the
// CPU, where it runs eagerly: what a CUDA graph replays is arithmetic these
// tests check against the ordinary step.
//   * every scheme, with clipping, weight decay, probes and a warmup, tracks
//     the ordinary step's loss and gradient norm closely over 40 steps (the
//     bias corrections and the clip factor are fp32 device scalars there,
//     double host scalars in the ordinary step);
//   * cancelled and resumed, it writes the same trace bit for bit (the device
//     step count and the optimizer's host counts agree after a checkpoint);
//   * so does BranchNorm's scaled step, the branches at a rate of their own;
//   * the batches gathered one step ahead are the ordinary ones;
//   * what it cannot train is refused naming train.cuda_graph, before
//     training; "auto" on a CPU is the ordinary step.
// On a GPU the same step is captured and replayed (docs/GPU.md); CI has none.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/data/data.h"
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/batch_ahead.h"
#include "core/train/fit_batch.h"
#include "core/train/static_step.h"
#include "core/train/trainer.h"
#include "tests/store_series.h"
#include "tests/test_util.h"
#endif

#include <QtTest/QtTest>
#include <torch/version.h>

#include <array>
#include <cmath>

using namespace normlab;
using normlab::test::max_rel;
using normlab::test::series;

namespace {

constexpr bool kTorch2 = TORCH_VERSION_MAJOR >= 2;

RunConfig config(Scheme s, const char* graph, int steps = 40) {
    RunConfig c = test::tiny(s, steps);
    c.train.cuda_graph = graph;
    c.train.eval_every = 20;
    c.optim.grad_clip = 0.5;         // clipping active on most early steps
    c.optim.weight_decay = 0.1;
    c.probes.grads_every = 3;        // eager probe steps between the others
    c.probes.forward_every = 4;
    c.probes.gains_every = 5;
    c.probes.cond_every = 10;
    return c;
}

RunResult cancel_at(Store& store, int64_t id, int64_t at) {
    RunControl control;
    TrainOptions o;
    o.control = &control;
    o.progress_interval_s = 0;
    o.on_progress = [&](const Progress& p) {
        if (p.step >= at) control.cancel();
    };
    return train_run(store, id, o);
}

}  // namespace

class TestStaticStep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const std::string& name) { return dir_.filePath(QString::fromStdString(name)).toStdString(); }

private Q_SLOTS:
    void tracksTheOrdinaryStepForEveryScheme() {
        if (!kTorch2) QSKIP("the static step needs LibTorch 2.x (refusedWhereItCannotTrain covers this build)");
        for (Scheme s : {Scheme::PostLN, Scheme::PreLN, Scheme::NormFormer, Scheme::DeepNorm, Scheme::BranchNorm, Scheme::NGPT}) {
            Store store(path("track-" + scheme_name(s) + ".sqlite"));
            const int64_t a = queue_run(store, config(s, "off")), b = queue_run(store, config(s, "on"));
            QCOMPARE(train_run(store, a).status, RunStatus::Finished);
            QCOMPARE(train_run(store, b).status, RunStatus::Finished);
            const auto la = series(store, a, "train/loss"), lb = series(store, b, "train/loss");
            QCOMPARE(la.size(), size_t(40));
            // The first step is the same computation on the same weights.
            QCOMPARE(la.begin()->second, lb.begin()->second);
            const double dl = max_rel(la, lb), dg = max_rel(series(store, a, "train/grad_norm"), series(store, b, "train/grad_norm"));
            const double dv = max_rel(series(store, a, "val/loss"), series(store, b, "val/loss"));
            qInfo("%s: loss %.2e, grad norm %.2e, val loss %.2e (largest relative difference over 40 steps)",
                  scheme_name(s).c_str(), dl, dg, dv);
            QVERIFY2(dl >= 0 && dl < 1e-5, scheme_name(s).c_str());
            QVERIFY2(dg >= 0 && dg < 1e-4, scheme_name(s).c_str());
            QVERIFY2(dv >= 0 && dv < 1e-5, scheme_name(s).c_str());
            // Clipping happened, and the step actually trained.
            QVERIFY(series(store, b, "train/grad_norm").begin()->second > 0.5);
            QVERIFY(lb.rbegin()->second < lb.begin()->second);
            // The ordinary run says nothing of a graph. The other one, on a CPU,
            // steps eagerly and says nothing either; on a GPU (device auto) it
            // was captured, once BranchNorm's α_t had reached its final value.
            QVERIFY(!store.run(a)->info.contains("cuda_graph"));
            const std::string state = store.run(b)->info.value("cuda_graph", "");
            if (cuda_available())
                QVERIFY2(state.rfind("captured at step ", 0) == 0, (scheme_name(s) + ": " + state).c_str());
            else
                QVERIFY2(state.empty(), state.c_str());
        }
    }

    // BranchNorm's scaled step (model.branchnorm.scale_updates): the branches' groups at lr·α_t, a
    // device scalar of its own beside the learning rate, through the ramp (T = 20 of 40 steps) and the
    // eager probe steps; the same run without the switch is another run (the rate does reach them).
    void branchNormsScaledStepToo() {
        if (!kTorch2) QSKIP("LibTorch 2.x");
        Store store(path("branchnorm-scaled.sqlite"));
        RunConfig off = config(Scheme::BranchNorm, "off"), on = config(Scheme::BranchNorm, "on");
        RunConfig plain = on;
        off.model.branchnorm.scale_updates = on.model.branchnorm.scale_updates = true;
        QVERIFY(train_detail::static_step_unsupported(on, false).empty());
        const int64_t a = queue_run(store, off), b = queue_run(store, on), c = queue_run(store, plain);
        for (int64_t id : {a, b, c}) QCOMPARE(train_run(store, id).status, RunStatus::Finished);
        const auto la = series(store, a, "train/loss"), lb = series(store, b, "train/loss");
        QCOMPARE(la.size(), size_t(40));
        const double dl = max_rel(la, lb), dv = max_rel(series(store, a, "val/loss"), series(store, b, "val/loss"));
        const double apart = max_rel(lb, series(store, c, "train/loss"));
        qInfo("scaled step: loss %.2e, val loss %.2e from the ordinary step's; %.2e from the unscaled run's", dl, dv, apart);
        QVERIFY2(dl >= 0 && dl < 1e-5 && dv >= 0 && dv < 1e-5, QByteArray::number(std::max(dl, dv)).constData());
        QVERIFY2(apart > 100 * std::max(dl, 1e-7), QByteArray::number(apart).constData());
    }

    void adamWithoutDecouplingToo() {
        if (!kTorch2) QSKIP("LibTorch 2.x");
        Store store(path("adam.sqlite"));
        RunConfig off = config(Scheme::PreLN, "off", 25), on = config(Scheme::PreLN, "on", 25);
        off.optim.kind = on.optim.kind = OptimizerKind::Adam;
        const int64_t a = queue_run(store, off), b = queue_run(store, on);
        train_run(store, a);
        train_run(store, b);
        const double d = max_rel(series(store, a, "train/loss"), series(store, b, "train/loss"));
        QVERIFY2(d >= 0 && d < 1e-5, QByteArray::number(d).constData());
    }

    void cancelledAndResumedItIsBitIdentical() {
        if (!kTorch2) QSKIP("LibTorch 2.x");
        for (Scheme s : {Scheme::PreLN, Scheme::NGPT}) {
            Store store(path("resume-" + scheme_name(s) + ".sqlite"));
            const RunConfig c = config(s, "on", 30);
            const int64_t full = queue_run(store, c), cut = queue_run(store, c);
            QCOMPARE(train_run(store, full).status, RunStatus::Finished);
            QCOMPARE(cancel_at(store, cut, 13).status, RunStatus::Cancelled);
            TrainOptions o;
            o.resume = true;
            QCOMPARE(train_run(store, cut, o).status, RunStatus::Finished);
            for (const char* name : {"train/loss", "train/grad_norm", "val/loss"}) {
                const auto x = series(store, full, name), y = series(store, cut, name);
                QVERIFY2(x == y, (scheme_name(s) + " " + name).c_str());
            }
        }
    }

    // The step ahead (core/train/train_loop.h): each plain step is queued
    // before the one before it is read. Every series of a run is the same bit
    // for bit as with it off (NORMLAB_STEP_AHEAD=0), and exactly the steps that
    // may be launched ahead were: not a probe step, nor one after which the run
    // evaluates or checkpoints. A run that diverges with a step in flight ends
    // as it does without one.
    void theStepAheadChangesNoNumber() {
        if (!kTorch2) QSKIP("LibTorch 2.x");
        Store store(path("ahead.sqlite"));
        RunConfig c = config(Scheme::PreLN, "on", 40);
        c.train.eval_every = 7;        // after plain steps (7, 14), not only probe steps
        c.train.checkpoint_every = 11;
        const int64_t on = queue_run(store, c), off = queue_run(store, c);
        QCOMPARE(train_run(store, on).status, RunStatus::Finished);
        qputenv("NORMLAB_STEP_AHEAD", "0");
        const RunResult r = train_run(store, off);
        qunsetenv("NORMLAB_STEP_AHEAD");
        QCOMPARE(r.status, RunStatus::Finished);
        int64_t expected = 0;
        for (int n = 1; n < 40; ++n)
            expected += n % 3 && n % 4 && n % 5 && n % 10 && n % 7 && n % 11;   // probes, evaluations, checkpoints
        QCOMPARE(store.run(on)->info.value("steps_launched_ahead", int64_t(-1)), expected);
        QCOMPARE(store.run(off)->info.value("steps_launched_ahead", int64_t(-1)), int64_t(0));
        QVERIFY(expected >= 10);
        const auto names = store.series(on, false);
        QVERIFY(names.size() > 20);   // the probes' per-layer series too
        for (const SeriesInfo& si : names) {
            if (si.name == "train/wall_s" || si.name == "train/tokens_per_s" || si.name == "train/mfu") continue;
            std::map<int64_t, double> a, b;
            for (auto& pt : store.points(si.id)) a[pt.step] = pt.value;
            for (auto& pt : store.points(store.series_id(off, si.name, si.layer))) b[pt.step] = pt.value;
            QVERIFY2(!a.empty() && a == b, (si.name + " " + std::to_string(si.layer)).c_str());
        }
        QCOMPARE(store.run(on)->steps_done, store.run(off)->steps_done);

        // Diverged at its first step, where the second was already queued: the same end either way.
        RunConfig d = config(Scheme::PreLN, "on", 10);
        d.probes.grads_every = d.probes.forward_every = d.probes.gains_every = d.probes.cond_every = 0;
        d.train.divergence.max_loss = 1.0;   // below any loss a fresh model has
        const int64_t d_on = queue_run(store, d), d_off = queue_run(store, d);
        const RunResult ra = train_run(store, d_on);
        qputenv("NORMLAB_STEP_AHEAD", "0");
        const RunResult rb = train_run(store, d_off);
        qunsetenv("NORMLAB_STEP_AHEAD");
        QCOMPARE(ra.status, RunStatus::Diverged);
        QCOMPARE(rb.status, RunStatus::Diverged);
        QCOMPARE(ra.message, rb.message);
        QCOMPARE(store.run(d_on)->info.value("diverged_step", int64_t(-1)), int64_t(0));
        QCOMPARE(store.run(d_off)->info.value("diverged_step", int64_t(-1)), int64_t(0));
        QCOMPARE(series(store, d_on, "train/loss"), series(store, d_off, "train/loss"));
        QCOMPARE(store.run(d_on)->checkpoint, store.run(d_off)->checkpoint);   // none: nothing saved the queued step's weights
    }

    // Needs a GPU (scripts/gpu_session.sh graph runs it there; CI has none):
    // "auto" captures the step after 3 eager ones and the replayed steps,
    // with eager probe steps between them, track the ordinary step; BranchNorm
    // is captured once α_t has stopped changing.
    void onAGpuTheCapturedStepTracksTheOrdinaryStep() {
        if (!kTorch2 || !cuda_available()) QSKIP("no CUDA device here (scripts/gpu_session.sh graph runs this on one)");
        for (const char* precision : {"fp32", "bf16"})
            for (int k = 0; k < 5; ++k) {   // the fifth: BranchNorm with its scaled step (branchnorm.scale_updates)
                const Scheme s = std::array{Scheme::PreLN, Scheme::NormFormer, Scheme::BranchNorm, Scheme::NGPT, Scheme::BranchNorm}[k];
                const std::string what = scheme_name(s) + (k == 4 ? " scaled " : " ") + precision;
                Store store(path("gpu-" + what + ".sqlite"));
                RunConfig off = config(s, "off"), on = config(s, "auto");
                for (RunConfig* c : {&off, &on}) {
                    c->train.device = "cuda";
                    c->train.precision = precision;
                    c->model.branchnorm.scale_updates = k == 4;
                }
                const int64_t a = queue_run(store, off), b = queue_run(store, on);
                QCOMPARE(train_run(store, a).status, RunStatus::Finished);
                QCOMPARE(train_run(store, b).status, RunStatus::Finished);
                const std::string state = store.run(b)->info.value("cuda_graph", "");
                const std::string head = "captured at step ";
                QVERIFY2(state.rfind(head, 0) == 0, (what + ": " + state).c_str());
                const int at = std::stoi(state.substr(head.size()));
                QVERIFY2(at >= 3 && at < 40, (what + ": " + state).c_str());   // BranchNorm too: α_t is read on the device
                const double dl = max_rel(series(store, a, "train/loss"), series(store, b, "train/loss"));
                const double dv = max_rel(series(store, a, "val/loss"), series(store, b, "val/loss"));
                qInfo("%s: %s; loss %.2e, val loss %.2e", what.c_str(), state.c_str(), dl, dv);
                const double tol = std::string(precision) == "bf16" ? 2e-2 : 1e-4;   // bf16: rounding differs with kernel order
                QVERIFY2(dl >= 0 && dl < tol && dv >= 0 && dv < tol, what.c_str());
            }
    }

    // Needs a GPU: --batch auto's measurement (core/train/fit_batch.h) picks a
    // power of two whose step's peak is within the budget, and a run at that
    // batch trains; its step is captured only if the graph fits beside it.
    void onAGpuTheFittedBatchTrains() {
        if (!kTorch2 || !cuda_available()) QSKIP("no CUDA device here (scripts/gpu_session.sh graph runs this on one)");
        RunConfig c = test::tiny(Scheme::PreLN, 6);
        c.model.d_model = 512;
        c.model.n_heads = 8;
        c.model.d_ff = 2048;
        c.model.n_layers = 8;
        c.model.context = 512;
        c.data.markov.length = 200000;
        c.train.device = "cuda";
        c.train.precision = "bf16";
        c.train.cuda_graph = "auto";   // as a run written without it gets
        c.probes = ProbeConfig{0, 0, 0, 0, 32, 0};
        const BatchFit f = fit_batch(c);
        qInfo("fitted batch %d: peak %.1f GiB, budget %.1f GiB of %.1f", f.batch, f.peak_bytes / (1 << 30),
              f.budget_bytes / (1 << 30), f.total_bytes / (1 << 30));
        QVERIFY(f.batch >= 16 && (f.batch & (f.batch - 1)) == 0);
        QVERIFY(f.peak_bytes > 0 && f.peak_bytes <= f.budget_bytes);
        c.train.batch_size = f.batch;
        Store store(path("fitted.sqlite"));
        const int64_t id = queue_run(store, c);
        const RunResult r = train_run(store, id);
        QVERIFY2(r.status == RunStatus::Finished, r.message.c_str());
        const std::string state = store.run(id)->info.value("cuda_graph", "");
        qInfo("at batch %d: %s", f.batch, state.c_str());
        QVERIFY2(!state.empty(), "the run says what became of its graph");
    }

    // The batches gathered one step ahead (core/train/batch_ahead.h) are
    // batch_tokens', in order, after a jump (a resume) and repeated.
    void batchesGatheredAheadAreTheSame() {
        const RunConfig c = test::tiny(Scheme::PreLN, 10);
        const Dataset d = load_dataset(c.data, c.model.context);
        train_detail::BatchAhead ahead(d, 7, 4, 16, 10, false);
        for (int64_t s : {0, 1, 2, 5, 6, 3, 9, 9, 4}) {
            const auto got = ahead.get(s);
            QVERIFY2(torch::equal(got, batch_tokens(d, 7, s, 4, 16, false)), std::to_string(s).c_str());
            QCOMPARE(got.size(1), int64_t(17));
        }
        QVERIFY(!torch::equal(ahead.get(1), ahead.get(2)));
    }

    void refusedWhereItCannotTrain() {
        RunConfig dropout = config(Scheme::PreLN, "on", 5);
        dropout.model.dropout = 0.1;
        std::string e = test::config_error([&] { validate(dropout); });
        QVERIFY2(e.find("train.cuda_graph") != std::string::npos && e.find("dropout") != std::string::npos, e.c_str());
        RunConfig sgd = config(Scheme::PreLN, "on", 5);
        sgd.optim.kind = OptimizerKind::SGD;
        e = test::config_error([&] { validate(sgd); });
        QVERIFY2(e.find("train.cuda_graph") != std::string::npos && e.find("sgd") != std::string::npos, e.c_str());
        RunConfig bad = config(Scheme::PreLN, "sometimes", 5);
        e = test::config_error([&] { validate(bad); });
        QVERIFY2(e.find("auto, on, off") != std::string::npos, e.c_str());
        // "auto" with dropout is the ordinary step, not an error.
        RunConfig autod = dropout;
        autod.train.cuda_graph = "auto";
        validate(autod);

        Store store(path("refused.sqlite"));
        const int64_t id = queue_run(store, config(Scheme::PreLN, "on", 5));
        const RunResult r = train_run(store, id);
        if (kTorch2) {
            QCOMPARE(r.status, RunStatus::Finished);
        } else {   // LibTorch 1.13: refused before a step, naming the field and the build that has it
            QCOMPARE(r.status, RunStatus::Failed);
            QVERIFY2(r.message.find("train.cuda_graph") != std::string::npos &&
                         r.message.find("LibTorch 2.x") != std::string::npos, r.message.c_str());
            QCOMPARE(store.run(id)->steps_done, int64_t(0));
        }
        // "auto" on the CPU trains with the ordinary step in every build.
        const int64_t a = queue_run(store, config(Scheme::PreLN, "auto", 5));
        QCOMPARE(train_run(store, a).status, RunStatus::Finished);
    }
};

QTEST_GUILESS_MAIN(TestStaticStep)
#include "test_static_step.moc"
