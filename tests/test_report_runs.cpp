// Which stored runs `normlab report` uses, and the command end to end: a
// finished run is reused by its configuration; a run stopped before its last
// step (a GPU lease's time limit) only with --accept-stopped, and then every
// run of its experiment is compared over the steps all of them reached (a seed
// stopped short of 90 % left out where another seed of its run got that far).
#include "app/gui/report.h"
#include "core/experiment.h"
#include "core/report/report.h"
#include "core/store/store.h"

#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace normlab;
using namespace normlab::report;
using nlohmann::json;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A run of `steps` configured steps that recorded a validation loss every 100 steps
// up to `done`, and a per-layer distribution at each.
RunData run(const std::string& name, RunStatus status, int64_t steps, int64_t done) {
    RunData r;
    r.name = name;
    r.variant = variant_of(name);
    r.config = {{"scheme", "pre_ln"}, {"train", {{"steps", steps}, {"seed", 1}}}};
    r.status = status;
    r.steps_done = done;
    r.final_loss = status == RunStatus::Finished ? 2.0 : kNaN;
    for (int64_t s = 0; s <= done; s += 100) {
        r.series[{"val/loss", -1}].push_back({s, 5.0 - s / 1000.0});
        Distribution d;
        d.name = "gain/ffn_norm";
        d.step = s;
        r.distributions.push_back(d);
    }
    return r;
}

void write_tiny(const QString& path) {
    std::ofstream f(path.toStdString());
    f << json{{"name", "tiny"},
              {"base", {{"model", {{"d_model", 32}, {"n_layers", 3}, {"n_heads", 2}, {"d_ff", 64}, {"context", 16}}},
                        {"train", {{"steps", 1}, {"batch_size", 2}, {"eval_every", 0}, {"threads", 1}}},
                        {"probes", {{"forward_every", 1}, {"cond_every", 0}, {"gains_every", 0}}},
                        {"data", {{"source", "markov"}, {"markov", {{"length", 20000}}}}}}},
              {"variants", {{{"scheme", "post_ln"}}, {{"scheme", "pre_ln"}}}},
              {"report", {{{"finding", 3}}}}}
             .dump(2);
}

QString read(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestReportRuns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void reusesFinishedRunsOnly() {
        const std::string p = dir_.filePath("reuse.sqlite").toStdString();
        Store s(p);
        auto ex = parse_experiment({{"base", {{"model", {{"d_model", 32}, {"n_heads", 2}}}}}, {"sweep", {{"train.seed", {1, 2}}}}});
        const int64_t a = s.create_run(ex.runs[0].name, "pre_ln", ex.runs[0].resolved, 1);
        QCOMPARE(find_completed_run(s, ex.runs[0].resolved), int64_t(0));   // queued: not reusable
        s.finish_run(a, RunStatus::Finished, 10, "", 2.0);
        QCOMPARE(find_completed_run(s, ex.runs[0].resolved), a);
        QCOMPARE(find_completed_run(s, ex.runs[1].resolved), int64_t(0));   // another seed
        json renamed = ex.runs[0].resolved;
        renamed["name"] = "something else";
        renamed["train"]["device"] = "cuda";
        renamed["train"]["threads"] = 16;
        renamed["train"]["cuda_graph"] = "auto";
        renamed["train"]["checkpoint_seconds"] = 5;
        renamed["train"]["checkpoint_every"] = 100;
        // name, device, threads, the CUDA graph and checkpoints do not change the science
        QCOMPARE(find_completed_run(s, renamed), a);
        json other = ex.runs[0].resolved;
        other["train"]["precision"] = "bf16";
        QCOMPARE(find_completed_run(s, other), int64_t(0));   // the precision does
        const int64_t b = s.create_run(ex.runs[1].name, "pre_ln", ex.runs[1].resolved, 2);
        s.finish_run(b, RunStatus::Cancelled, 3, "", kNaN);
        QCOMPARE(find_completed_run(s, ex.runs[1].resolved), int64_t(0));
    }

    void stoppedRunsOnlyWhenAsked() {
        const std::string p = dir_.filePath("stopped.sqlite").toStdString();
        Store s(p);
        auto ex = parse_experiment({{"base", {{"model", {{"d_model", 32}, {"n_heads", 2}}}}}, {"sweep", {{"train.seed", {1, 2, 3}}}}});
        const int64_t a = s.create_run(ex.runs[0].name, "pre_ln", ex.runs[0].resolved, 1);
        s.heartbeat(a, 7);
        s.finish_run(a, RunStatus::Cancelled, 7, "cancelled by the user", kNaN);
        QCOMPARE(CompletedRuns(s).find(ex.runs[0].resolved), int64_t(0));
        QCOMPARE(CompletedRuns(s, true).find(ex.runs[0].resolved), a);
        const int64_t b = s.create_run(ex.runs[0].name, "pre_ln", ex.runs[0].resolved, 1);   // trained again, whole
        s.finish_run(b, RunStatus::Finished, 10, "", 2.0);
        QCOMPARE(CompletedRuns(s, true).find(ex.runs[0].resolved), b);   // a finished run wins over a stopped one
        const int64_t c = s.create_run(ex.runs[1].name, "pre_ln", ex.runs[1].resolved, 2);
        s.finish_run(c, RunStatus::Cancelled, 0, "", kNaN);
        QCOMPARE(CompletedRuns(s, true).find(ex.runs[1].resolved), int64_t(0));   // stopped before its first step
        const int64_t d = s.create_run(ex.runs[2].name, "pre_ln", ex.runs[2].resolved, 3);
        s.heartbeat(d, 5);
        s.finish_run(d, RunStatus::Failed, 5, "out of memory", kNaN);
        QCOMPARE(CompletedRuns(s, true).find(ex.runs[2].resolved), int64_t(0));   // a failed run is not data
    }

    void alignedRunsCompareAtEqualSteps() {
        // Whole runs: nothing changes.
        std::vector<RunData> whole{run("A", RunStatus::Finished, 1000, 1000), run("B", RunStatus::Finished, 1000, 1000)};
        QCOMPARE(align_runs(whole), std::string());
        QCOMPARE(whole[0].get("val/loss").size(), size_t(11));
        QCOMPARE(whole[0].final_loss, 2.0);

        RunData diverged_early = run("D early", RunStatus::Diverged, 1000, 300);
        diverged_early.status_step = 300;
        RunData diverged_late = run("D late", RunStatus::Diverged, 1000, 900);
        diverged_late.status_step = 900;
        std::vector<RunData> rs{run("A", RunStatus::Finished, 1000, 1000), run("B", RunStatus::Cancelled, 1000, 620),
                                run("C", RunStatus::Interrupted, 1000, 740), diverged_early, diverged_late};
        const std::string note = align_runs(rs);
        QVERIFY2(note.find("first 620 of 1000 steps") != std::string::npos, note.c_str());
        QVERIFY2(note.find("B stopped at step 620 (cancelled)") != std::string::npos, note.c_str());
        QVERIFY2(note.find("C stopped at step 740 (interrupted)") != std::string::npos, note.c_str());
        for (auto* r : {&rs[0], &rs[1], &rs[2], &rs[4]}) {
            QCOMPARE(r->steps_done, int64_t(620));
            QCOMPARE(r->get("val/loss").back().step, int64_t(600));
            QCOMPARE(r->final_loss, 5.0 - 0.6);            // the last validation loss at or before step 620
            QCOMPARE(r->distributions.back().step, int64_t(600));
            QCOMPARE(int(r->status), int(RunStatus::Cancelled));   // none of them ended by then
        }
        QCOMPARE(int(rs[3].status), int(RunStatus::Diverged));   // diverged at 300, before 620: kept as it was
        QCOMPARE(rs[3].status_step, int64_t(300));
        QCOMPARE(rs[3].get("val/loss").back().step, int64_t(300));

        // A whole run shorter than the stopped one bounds the comparison too.
        std::vector<RunData> mixed{run("Short", RunStatus::Finished, 400, 400), run("Stopped", RunStatus::Cancelled, 1000, 700)};
        QVERIFY(align_runs(mixed).find("first 400 of 1000 steps") != std::string::npos);
        QCOMPARE(mixed[1].steps_done, int64_t(400));
    }

    void aShortSeedDoesNotCutTheRest() {
        // NF's seed 2 stopped halfway while its seed 1 finished: left out, and the rest compare over 950 steps
        // (P's seed 2 got 95 % of the way: kept, and it bounds the comparison).
        std::vector<RunData> rs{run("NF lr=0.001 seed=1", RunStatus::Finished, 1000, 1000),
                                run("NF lr=0.001 seed=2", RunStatus::Cancelled, 1000, 500),
                                run("P lr=0.001 seed=1", RunStatus::Finished, 1000, 1000),
                                run("P lr=0.001 seed=2", RunStatus::Cancelled, 1000, 950)};
        std::string note = align_runs(rs);
        QCOMPARE(rs.size(), size_t(3));
        for (auto& r : rs) QVERIFY(r.name != "NF lr=0.001 seed=2");
        QVERIFY2(note.find("NF lr=0.001 seed=2 (stopped at step 500 of 1000)") != std::string::npos, note.c_str());
        QVERIFY2(note.find("first 950 of 1000 steps") != std::string::npos, note.c_str());
        QCOMPARE(rs[0].steps_done, int64_t(950));

        // Only a short seed: left out, and nothing else is cut.
        std::vector<RunData> one{run("NF seed=1", RunStatus::Finished, 1000, 1000), run("NF seed=2", RunStatus::Interrupted, 1000, 300)};
        note = align_runs(one);
        QCOMPARE(one.size(), size_t(1));
        QCOMPARE(one[0].steps_done, int64_t(1000));
        QVERIFY2(note.find("left out") == 0 && note.find("compared over") == std::string::npos, note.c_str());

        // Kept where no other seed of the same run got 90 % of the way: another run's, or another rate's, does
        // not stand in for it, nor does a seed that stopped short too.
        std::vector<RunData> kept{run("NF lr=0.001 seed=2", RunStatus::Cancelled, 1000, 500),
                                  run("NF lr=0.003 seed=1", RunStatus::Finished, 1000, 1000),
                                  run("P lr=0.001 seed=1", RunStatus::Finished, 1000, 1000),
                                  run("Q seed=1", RunStatus::Cancelled, 1000, 800), run("Q seed=2", RunStatus::Cancelled, 1000, 600)};
        note = align_runs(kept);
        QCOMPARE(kept.size(), size_t(5));
        QVERIFY2(note.find("left out") == std::string::npos && note.find("first 500 of 1000 steps") != std::string::npos,
                 note.c_str());
    }

    // The whole command on a tiny experiment: trains two 1-step runs, then
    // reuses them the second time, writes every file, and refuses bad input.
    void endToEnd() {
        const QString exp = dir_.filePath("tiny.json");
        write_tiny(exp);
        const QString store = dir_.filePath("e2e.sqlite"), out = dir_.filePath("report");
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--dpi", "72"}), 0);
        for (auto f : {"report.md", "index.html", "report.json", "figures/f03-hidden-norm-per-layer.png",
                       "figures/f03-hidden-norm-per-layer.svg"})
            QVERIFY2(QFile::exists(out + "/" + f), f);
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(2));
        // Again: both runs come from the store (--no-train would fail otherwise).
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--no-train"}), 0);
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(2));
        QFile md(out + "/report.md");
        QVERIFY(md.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(md.readAll());
        QVERIFY(text.contains("## 3. Hidden-state norms"));
        QVERIFY(text.contains("(figures/f03-hidden-norm-per-layer.png)"));
        // --notes from another folder: its relative links and images point where they did from the notes
        // (a figure beside NOTES.md was a broken image in docs/REPRODUCTION-GPU.md); the others as written.
        QVERIFY(QDir().mkpath(dir_.filePath("notes")));
        std::ofstream(dir_.filePath("notes/NOTES.md").toStdString())
            << "![by layer](by-layer.png) [up](../tiny.json) [web](https://x.org/a.png) [here](#finding-3)\n";
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--no-train", "--notes", dir_.filePath("notes/NOTES.md"),
                             "--markdown", dir_.filePath("REPORT.md")}), 0);
        const QString noted = read(dir_.filePath("REPORT.md"));
        QVERIFY2(noted.contains("![by layer](notes/by-layer.png) [up](tiny.json) [web](https://x.org/a.png) [here](#finding-3)"),
                 qPrintable(noted.left(1500)));
        QVERIFY(noted.contains("(report/figures/f03-hidden-norm-per-layer.png)"));
        // Bad input: usage and configuration errors are refused before training.
        QCOMPARE(run_report({exp}), 2);                                          // no --out
        QCOMPARE(run_report({exp, "--out", out, "--scale", "gpu"}), 2);          // no such scale
        QCOMPARE(run_report({exp, "--out", out, "--retrain", "--no-train"}), 2);
        // A sweep trained a lease at a time: a run the store lacks is refused by --no-train, and
        // --trained-only reports the others, naming it, and trains nothing.
        const QString wider = dir_.filePath("tiny-wider.json");
        json spec = json::parse(read(exp).toStdString());
        spec["variants"].push_back({{"name", "NormFormer later"}, {"scheme", "normformer"}});
        std::ofstream(wider.toStdString()) << spec.dump(2);
        QCOMPARE(run_report({wider, "--out", out, "--store", store, "--no-train"}), 1);
        QCOMPARE(run_report({wider, "--out", out, "--store", store, "--trained-only", "--dpi", "72"}), 0);
        const QString partial = read(out + "/report.md");
        QVERIFY2(partial.contains("not trained yet, left out: NormFormer later"), qPrintable(partial.left(3000)));
        QVERIFY(partial.contains("## 3. Hidden-state norms"));
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(2));
        QCOMPARE(run_report({wider, "--out", out, "--retrain", "--trained-only"}), 2);
    }

    // Two experiments that name one finding: it is measured once, on the runs of both (a run they share
    // counted once); where their set-ups differ, the report refuses to start and trains nothing.
    void aFindingTwoExperimentsNameIsMeasuredOnce() {
        const QString a = dir_.filePath("tiny-a.json"), b = dir_.filePath("tiny-b.json"), wide = dir_.filePath("tiny-wide.json");
        write_tiny(a);
        json spec = json::parse(read(a).toStdString());
        spec["name"] = "tiny-seeds";
        spec["sweep"] = {{"train.seed", {1, 2}}};   // seed 1's runs are tiny-a's
        std::ofstream(b.toStdString()) << spec.dump(2);
        spec["name"] = "tiny-wide";
        spec["base"]["model"]["d_model"] = 48;
        std::ofstream(wide.toStdString()) << spec.dump(2);
        const QString store = dir_.filePath("shared.sqlite"), out = dir_.filePath("report-shared");
        QCOMPARE(run_report({a, b, "--out", out, "--store", store, "--dpi", "72"}), 0);
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(4));
        const QString md = read(out + "/report.md");
        QCOMPARE(md.count("## 3. Hidden-state norms"), 1);
        QVERIFY2(md.contains("**Runs:** experiments `tiny` and `tiny-seeds` — ") && md.contains("seeds 1/2") &&
                     md.contains("4 runs"),
                 qPrintable(md.left(3000)));
        QCOMPARE(md.count("](#finding-3)"), 1);   // one line in the summary
        const json rep = json::parse(read(out + "/report.json").toStdString());
        QCOMPARE(rep["findings"].size(), size_t(1));
        QCOMPARE(rep["findings"][0]["experiments"], json({"tiny", "tiny-seeds"}));
        // Different widths measured as one finding would compare what is not comparable.
        QCOMPARE(run_report({a, wide, "--out", out, "--store", store}), 2);
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(4));
    }

    // A run stopped early is refused by --no-train, and with --accept-stopped reused and named in the report.
    void endToEndWithAStoppedRun() {
        const QString exp = dir_.filePath("tiny-stopped.json");
        write_tiny(exp);
        const QString store = dir_.filePath("e2e-stopped.sqlite"), out = dir_.filePath("report-stopped");
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--dpi", "72"}), 0);
        {
            // Pre-LN's run as a GPU lease leaves it: its configuration asked for 3 steps, it was cancelled
            // after 1 (its data: the 1-step run's series).
            Store s(store.toStdString());
            auto runs = s.runs();
            QCOMPARE(runs.size(), size_t(2));
            json cfg = runs[1].config;
            cfg["train"]["steps"] = 3;
            const int64_t id = s.create_run(runs[1].name, "pre_ln", cfg, 1);
            std::vector<Store::PointRow> rows;
            for (auto& si : s.series(runs[1].id, false))
                for (auto& pt : s.points(si.id)) rows.push_back({s.series_id(id, si.name, si.layer), pt.step, pt.value});
            QVERIFY(!rows.empty());
            s.write_batch(rows, {});
            s.heartbeat(id, 1);
            s.finish_run(id, RunStatus::Cancelled, 1, "cancelled by the user", kNaN);
            json spec = json::parse(read(exp).toStdString());
            spec["variants"][1]["train"] = {{"steps", 3}};
            std::ofstream(exp.toStdString()) << spec.dump(2);
        }
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--no-train"}), 1);   // not whole: refused
        QCOMPARE(run_report({exp, "--out", out, "--store", store, "--no-train", "--accept-stopped", "--dpi", "72"}), 0);
        const QString md = read(out + "/report.md");
        QVERIFY2(md.contains("compared over the first 1 of 3 steps") && md.contains("stopped at step 1 (cancelled)"),
                 qPrintable(md.left(3000)));
        QCOMPARE(Store(store.toStdString()).runs().size(), size_t(3));   // nothing trained, nothing changed
        QCOMPARE(run_report({exp, "--out", out, "--retrain", "--accept-stopped"}), 2);
    }
};

QTEST_MAIN(TestReportRuns)
#include "test_report_runs.moc"
