// Lossless resume, in process: a run cancelled at any step (a train step, a
// validation step, the last step) and resumed writes every series exactly as
// an uninterrupted run does — values bit-identical, distributions and final
// losses too; a run without a checkpoint restarts from step 0; a resume that
// cannot start leaves the run's record as it was; the checkpoint folder keeps
// one file per run; every toggle does what it says (ngpt.renormalize); a
// checkpoint received as bytes loads from memory.
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <filesystem>
#include <fstream>
#include <map>

#include <stdlib.h>

using namespace normlab;
namespace fs = std::filesystem;

namespace {

// test::tiny with validation every 10 steps and every probe on short intervals.
RunConfig tiny(Scheme s, int steps) {
    RunConfig c = test::tiny(s, steps);
    c.train.eval_every = 10;
    c.probes.grads_every = 3;
    c.probes.forward_every = 3;
    c.probes.gains_every = 5;
    c.probes.cond_every = 10;
    return c;
}

// Every recorded point and distribution of a run, keyed for comparison;
// wall time and throughput are measurements of the machine, not of the run.
struct Trace {
    std::map<std::tuple<std::string, int, int64_t>, double> points;
    std::map<std::tuple<std::string, int, int64_t>, std::vector<double>> dists;
};
Trace trace(Store& s, int64_t run) {
    Trace t;
    for (auto& si : s.series(run)) {
        if (si.name == "train/wall_s" || si.name == "train/tokens_per_s") continue;
        for (auto& p : s.points(si.id)) t.points[{si.name, si.layer, p.step}] = p.value;
    }
    for (auto& d : s.distributions(run)) {
        std::vector<double> v{d.min, d.q1, d.median, d.q3, d.max, d.mean, d.std, double(d.count)};
        v.insert(v.end(), d.hist.begin(), d.hist.end());
        t.dists[{d.name, d.layer, d.step}] = v;
    }
    return t;
}
bool same(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }
QString differences(const Trace& a, const Trace& b) {
    if (a.points.size() != b.points.size()) return QString("%1 points vs %2").arg(a.points.size()).arg(b.points.size());
    for (auto& [k, v] : a.points) {
        auto it = b.points.find(k);
        if (it == b.points.end()) return QString("missing %1 step %2").arg(QString::fromStdString(std::get<0>(k))).arg(std::get<2>(k));
        if (!same(v, it->second))
            return QString("%1 step %2: %3 vs %4").arg(QString::fromStdString(std::get<0>(k))).arg(std::get<2>(k)).arg(v, 0, 'g', 17).arg(it->second, 0, 'g', 17);
    }
    if (a.dists != b.dists) return QString("distributions differ (%1 vs %2)").arg(a.dists.size()).arg(b.dists.size());
    return {};
}

// Trains the run, cancelling it at the first progress report `when` holds for.
RunResult cancel_when(Store& store, int64_t id, const std::function<bool(const Progress&)>& when) {
    RunControl control;
    TrainOptions o;
    o.control = &control;
    o.progress_interval_s = 0;
    o.on_progress = [&](const Progress& p) {
        if (when(p)) control.cancel();
    };
    return train_run(store, id, o);
}

RunResult cancel_at(Store& store, int64_t id, int64_t at) {
    return cancel_when(store, id, [at](const Progress& p) { return p.step >= at; });
}

RunResult resume(Store& store, int64_t id) {
    TrainOptions o;
    o.resume = true;
    return train_run(store, id, o);
}

}  // namespace

class TestResume : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string store_path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void cancelledAnywhereResumesToTheSameTrace() {
        for (Scheme scheme : {Scheme::NormFormer, Scheme::BranchNorm, Scheme::NGPT}) {
            const std::string p = store_path(("any-" + scheme_name(scheme) + ".sqlite").c_str());
            Store store(p);
            RunConfig c = tiny(scheme, 40);
            const int64_t full = queue_run(store, c);
            QCOMPARE(train_run(store, full).status, RunStatus::Finished);
            const Trace want = trace(store, full);
            for (int64_t at : {7, 20, 39}) {                // a train step, a validation step, the last update
                const int64_t id = queue_run(store, c);
                RunResult r = cancel_at(store, id, at);
                QCOMPARE(r.status, RunStatus::Cancelled);
                QCOMPARE(r.steps, at);
                r = resume(store, id);
                QCOMPARE(r.status, RunStatus::Finished);
                const QString diff = differences(want, trace(store, id));
                QVERIFY2(diff.isEmpty(), (scheme_name(scheme) + " cancelled at " + std::to_string(at) + ": " + diff.toStdString()).c_str());
                QCOMPARE(store.run(id)->final_loss, store.run(full)->final_loss);
                QCOMPARE(store.run(id)->info["final_train_loss"], store.run(full)->info["final_train_loss"]);
                QCOMPARE(store.run(id)->info["resumed_at_step"].get<int64_t>(), at);
            }
            // One checkpoint file per run, no temporary files.
            std::map<std::string, int> per_run;
            for (auto& e : fs::directory_iterator(p + ".checkpoints")) {
                const std::string n = e.path().filename().string();
                QVERIFY2(n.find(".tmp") == std::string::npos, n.c_str());
                per_run[n.substr(0, n.find("-step-"))]++;
            }
            for (auto& [run, n] : per_run) QCOMPARE(n, 1);
        }
    }

    void cancelledInsideAnEvaluationKeepsItsStep() {
        // A stop during the validation due at step 20 (the GUI's SIGTERM met
        // this): the run keeps a checkpoint of step 20, and its resume measures
        // that validation first, so the trace is the uninterrupted one.
        const std::string p = store_path("in-eval.sqlite");
        Store store(p);
        RunConfig c = tiny(Scheme::PreLN, 30);
        c.train.eval_batches = 6;
        const int64_t full = queue_run(store, c);
        QCOMPARE(train_run(store, full).status, RunStatus::Finished);
        const int64_t id = queue_run(store, c);
        bool seen = false;
        RunResult r = cancel_when(store, id, [&](const Progress& pr) {
            return seen = seen || (pr.step == 20 && pr.eval_batch == 3);
        });
        QVERIFY(seen);
        QCOMPARE(r.status, RunStatus::Cancelled);
        QCOMPARE(r.steps, int64_t(20));
        QVERIFY(!store.run(id)->checkpoint.empty());
        QCOMPARE(store.run(id)->steps_done, int64_t(20));
        for (auto& pt : store.points(store.series_id(id, "val/loss"))) QVERIFY(pt.step < 20);
        QCOMPARE(resume(store, id).status, RunStatus::Finished);
        const QString diff = differences(trace(store, full), trace(store, id));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void killedAfterItsLastCheckpointItFinishesTheSame() {
        // Killed between the last checkpoint and finishing: the final
        // validation loss, the final gains and final_train_loss come back.
        Store store(store_path("last.sqlite"));
        RunConfig c = tiny(Scheme::NormFormer, 30);
        const int64_t full = queue_run(store, c);
        train_run(store, full);
        const Trace want = trace(store, full);
        const int64_t id = queue_run(store, c);
        train_run(store, id);
        store.exec("DELETE FROM distributions WHERE run_id=" + std::to_string(id) + " AND step=30");
        store.exec("UPDATE runs SET status='interrupted', final_loss=NULL, info=json_remove(info, '$.final_train_loss')"
                   " WHERE id=" + std::to_string(id));
        QCOMPARE(resume(store, id).status, RunStatus::Finished);
        const QString diff = differences(want, trace(store, id));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
        QCOMPARE(store.run(id)->final_loss, store.run(full)->final_loss);
        QCOMPARE(store.run(id)->info["final_train_loss"], store.run(full)->info["final_train_loss"]);
    }

    void aRunWithoutCheckpointRestartsFromZero() {
        Store store(store_path("nockpt.sqlite"));
        RunConfig c = tiny(Scheme::PreLN, 25);
        const int64_t full = queue_run(store, c);
        train_run(store, full);
        // As a kill -9 before the first checkpoint leaves it: running rows, no checkpoint.
        const int64_t id = queue_run(store, c);
        QVERIFY(store.claim_run(id, RunStatus::Queued, "cpu", nlohmann::json::object()));
        RunWriter w(store, id);
        for (int s = 0; s < 6; ++s) w.scalar("train/loss", s, 99.0);
        w.flush();
        store.set_status(id, RunStatus::Interrupted, "killed");
        QVERIFY(store.run(id)->checkpoint.empty());
        RunResult r = resume(store, id);
        QCOMPARE(r.status, RunStatus::Finished);
        QCOMPARE(r.steps, int64_t(25));
        const QString diff = differences(trace(store, full), trace(store, id));
        QVERIFY2(diff.isEmpty(), qPrintable(diff));
    }

    void aFailedResumeLeavesTheRecordAsItWas() {
        const std::string p = store_path("failed.sqlite");
        Store store(p);
        RunConfig c = tiny(Scheme::PreLN, 40);
        const int64_t id = queue_run(store, c);
        QCOMPARE(cancel_at(store, id, 12).status, RunStatus::Cancelled);
        const RunInfo before = *store.run(id);
        const Trace rows = trace(store, id);
        const std::string ckpt = before.checkpoint;
        const std::string good = [&] {
            std::ifstream f(ckpt, std::ios::binary);
            return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
        }();
        auto check_untouched = [&](const char* what) {
            bool threw = false;
            try {
                resume(store, id);
            } catch (const RunError& e) {
                threw = std::string(e.what()).find("its record was left as it was") != std::string::npos;
            }
            QVERIFY2(threw, what);
            const RunInfo after = *store.run(id);
            QCOMPARE(after.status, before.status);
            QCOMPARE(after.status_step, before.status_step);
            QCOMPARE(after.message, before.message);
            QCOMPARE(after.steps_done, before.steps_done);
            QCOMPARE(after.checkpoint, before.checkpoint);
            QCOMPARE(after.ended_at, before.ended_at);
            QCOMPARE(after.info, before.info);
            QVERIFY(same(after.final_loss, before.final_loss));
            QVERIFY(differences(rows, trace(store, id)).isEmpty());
        };
        std::ofstream(ckpt, std::ios::binary | std::ios::trunc) << good.substr(0, good.size() / 2);
        check_untouched("truncated checkpoint");
        std::ofstream(ckpt, std::ios::binary | std::ios::trunc) << std::string(good.size(), '\0');
        check_untouched("zeroed checkpoint");
        fs::remove(ckpt);
        check_untouched("deleted checkpoint");
        std::ofstream(ckpt, std::ios::binary) << good;            // put back: it resumes
        QCOMPARE(resume(store, id).status, RunStatus::Finished);
        // Finished runs are not resumed, and nothing changes.
        QVERIFY_THROWS_EXCEPTION(RunError, resume(store, id));
        QCOMPARE(store.run(id)->status, RunStatus::Finished);
    }

    void checkpointsByTimeKeepOneFile() {
        const std::string p = store_path("bytime.sqlite");
        Store store(p);
        RunConfig c = tiny(Scheme::PreLN, 30);
        c.train.checkpoint_every = 0;
        c.train.checkpoint_seconds = 1e-6;                  // every step
        const int64_t id = queue_run(store, c);
        QCOMPARE(cancel_at(store, id, 17).status, RunStatus::Cancelled);
        int files = 0;
        for (auto& e : fs::directory_iterator(p + ".checkpoints")) {
            ++files;
            QCOMPARE(e.path().filename().string(), std::string("run-1-step-17.pt"));
        }
        QCOMPARE(files, 1);
        QCOMPARE(store.run(id)->steps_done, int64_t(17));
    }

    // Another rank's checkpoint, received as bytes, loads from memory: with no temporary folder to
    // write (it went through one, and a full or missing one read as a "damaged" checkpoint).
    void checkpointBytesLoadFromMemory() {
        Store store(store_path("bytes.sqlite"));
        const RunConfig c = tiny(Scheme::NormFormer, 12);
        const int64_t id = queue_run(store, c);
        train_run(store, id);
        const std::string file = store.run(id)->checkpoint, bytes = read_checkpoint_bytes(file);
        QVERIFY(!bytes.empty());
        const GPT want = load_run_model(c, file);
        const QByteArray tmpdir = qgetenv("TMPDIR");
        ::setenv("TMPDIR", "/nonexistent/normlab-tmp", 1);
        GPT got(c.model);
        nlohmann::json state;
        int64_t step = -1;
        QString error;
        try {
            step = load_checkpoint_bytes(bytes, got, nullptr, &state);
            load_checkpoint_bytes(bytes.substr(0, bytes.size() / 2), got, nullptr, nullptr);
        } catch (const RunError& e) {
            error = e.what();
        }
        if (tmpdir.isNull()) ::unsetenv("TMPDIR");
        else ::setenv("TMPDIR", tmpdir.constData(), 1);
        QCOMPARE(step, int64_t(12));
        QVERIFY(!state.empty());
        QVERIFY2(error.startsWith("cannot read the checkpoint received from rank 0 (damaged or truncated?)"), qPrintable(error));
        const auto a = want->named_parameters(), b = got->named_parameters();
        QCOMPARE(a.size(), b.size());
        for (size_t i = 0; i < a.size(); ++i) QVERIFY2(torch::equal(a[i].value(), b[i].value()), a[i].key().c_str());
    }

    void renormalizeOffIsHonoured() {
        Store store(store_path("renorm.sqlite"));
        RunConfig on = tiny(Scheme::NGPT, 8), off = on;
        off.model.ngpt.renormalize = false;
        const int64_t a = queue_run(store, on), b = queue_run(store, off);
        train_run(store, a);
        train_run(store, b);
        auto la = store.points(store.series_id(a, "train/loss")), lb = store.points(store.series_id(b, "train/loss"));
        QCOMPARE(la.front().value, lb.front().value);       // the same start
        QVERIFY(la.back().value != lb.back().value);        // then the weights leave the sphere
    }
};

QTEST_GUILESS_MAIN(TestResume)
#include "test_resume.moc"
