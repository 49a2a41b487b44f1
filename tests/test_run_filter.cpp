// RunFilter: the window's filter box and `normlab-cli list TEXT` — every word must
// match; a word is a text found in the run's fields, or KEY OP VALUE comparing a
// column or a setting (by path or last part), numbers as numbers; a comparison
// word also matches as text (a sweep's names say "lr=3e-3").
#include "core/run_filter.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;

class TestRunFilter : public QObject {
    Q_OBJECT

    static RunInfo run() {
        RunInfo r;
        r.id = 12;
        r.name = "Pre-LN seed=2";
        r.scheme = "pre_ln";
        r.status_text = "finished";
        r.notes = "the one to beat";
        r.tags = {"paper", "Baseline"};
        r.steps_done = 2500;
        r.config = {{"model", {{"n_layers", 48}, {"final_norm", true}, {"norm", "layernorm"}, {"deepnorm", {{"alpha", nullptr}}}}},
                    {"optim", {{"lr", 0.001}, {"schedule", {{"warmup", 100}, {"min_lr_ratio", 0.1}}}}},
                    {"train", {{"seed", 2}}},
                    {"data", {{"markov", {{"seed", 1234}}}}}};
        return r;
    }
    static bool picks(const std::string& text, double val = 3.1, const std::vector<std::string>& more = {}) {
        return RunFilter(text).matches(run(), val, more);
    }

private Q_SLOTS:
    void plainWordsMustAllMatchIgnoringCase() {
        QVERIFY(picks(""));
        QVERIFY(RunFilter("   ").empty());
        QVERIFY(picks("pre-ln"));
        QVERIFY(picks("PRE_LN"));            // the scheme
        QVERIFY(picks("baseline"));          // a tag
        QVERIFY(picks("beat to"));           // the notes, in any order
        QVERIFY(picks("Finished paper"));
        QVERIFY(!picks("pre-ln ngpt"));      // every word
        QVERIFY(!picks("\"to the\""));       // quoted: one text, and not in the notes as such
        QVERIFY(picks("\"to beat\""));
        QVERIFY(picks("12-07", 3.1, {"2026-12-07 03:54"}));   // a text the caller adds (the created time)
        QVERIFY(!picks("12-07"));
    }

    void columnsCompare() {
        QVERIFY(picks("id=12"));
        QVERIFY(picks("id>=10 id<13"));
        QVERIFY(!picks("id!=12"));
        QVERIFY(picks("steps>2000"));
        QVERIFY(picks("val<3.2"));
        QVERIFY(!picks("val<3.1"));
        QVERIFY(picks("val<=3.1"));
        QVERIFY(!picks("val<3.2", std::nan("")));   // no loss: no match
        QVERIFY(picks("status=finished"));
        QVERIFY(!picks("status=fin"));
        QVERIFY(picks("status:fin"));
        QVERIFY(picks("scheme!=ngpt"));
        QVERIFY(picks("tag=paper"));
        QVERIFY(picks("tag=baseline"));
        QVERIFY(!picks("tag=pap"));
        QVERIFY(picks("tag:pap"));
        QVERIFY(!picks("tag!=paper"));
        QVERIFY(picks("tag!=draft"));
        QVERIFY(picks("notes:beat"));
        QVERIFY(picks("\"name=Pre-LN seed=2\""));
        QVERIFY(!picks("server=gpu1"));       // not mirrored: no server
    }

    void settingsByPathOrLastPart() {
        QVERIFY(picks("lr=1e-3"));
        QVERIFY(picks("optim.lr=0.001"));
        QVERIFY(picks("lr>=1e-3"));
        QVERIFY(!picks("lr>1e-3"));
        QVERIFY(picks("schedule.warmup=100"));
        QVERIFY(picks("n_layers=48 final_norm=true norm=layernorm"));
        QVERIFY(!picks("norm=rmsnorm"));
        QVERIFY(picks("min_lr_ratio<0.5"));
        QVERIFY(picks("seed=1234"));          // data.markov.seed: one of the two seeds
        QVERIFY(picks("seed=2"));
        QVERIFY(!picks("seed!=2"));           // != : none of them is it... (train.seed is 2)
        QVERIFY(!picks("alpha=1"));           // null: none
        QVERIFY(!picks("d_model=128"));       // a setting the run does not have
        QVERIFY(!picks("lr=abc"));
        QVERIFY(!picks("r=0.001"));           // a last part, not a piece of one
    }

    // A comparison word also matches as text: a sweep's name "Post-LN lr=8e-3" is found by what it says,
    // whatever its settings.
    void aComparisonIsAlsoText() {
        RunInfo r = run();
        r.name = "Post-LN lr=8e-3";
        QVERIFY(RunFilter("lr=8e-3").matches(r, 3.0));
        QVERIFY(!RunFilter("lr=8e-4").matches(r, 3.0));
        QVERIFY(RunFilter("03:54").matches(r, 3.0, {"2026-12-07 03:54"}));   // "03" is no key of it
        const RunFilter f("lr>=1e-3 \"two words\" x");
        QCOMPARE(f.words().size(), size_t(3));
        QCOMPARE(f.words()[0].key, std::string("lr"));
        QCOMPARE(f.words()[0].op, std::string(">="));
        QVERIFY(f.words()[0].is_number);
        QCOMPARE(f.words()[1].text, std::string("two words"));
        QVERIFY(f.words()[1].op.empty());
        QVERIFY(RunFilter("lr=").words()[0].op.empty());   // nothing to compare with: a text
        QVERIFY(RunFilter("=3").words()[0].op.empty());
    }

    // Case is ignored in the scripts names are written in (the window's filter folded case with Qt):
    // Latin with its accents, Greek, Cyrillic; CJK, which has no case, and bytes that are not UTF-8
    // are compared as they are.
    void caseIsIgnoredBeyondAscii() {
        RunInfo r = run();
        r.name = "ÜBER-Lauf ŁÓDŹ ΑΛΦΑ ПРОГОН Ÿ 归一化 \xff";
        QVERIFY(RunFilter("über-lauf").matches(r, 3.0));
        QVERIFY(RunFilter("łódź").matches(r, 3.0));
        QVERIFY(RunFilter("ŁóDź").matches(r, 3.0));
        QVERIFY(RunFilter("αλφα").matches(r, 3.0));
        QVERIFY(RunFilter("прогон").matches(r, 3.0));
        QVERIFY(RunFilter("ÿ").matches(r, 3.0));
        QVERIFY(RunFilter("归一化").matches(r, 3.0));
        QVERIFY(RunFilter("\xff").matches(r, 3.0));
        QVERIFY(!RunFilter("uber").matches(r, 3.0));   // case, not accents
        r.name = "straße";
        QVERIFY(RunFilter("STRAßE").matches(r, 3.0));
    }

    // Why a filter that picks nothing may have: a key no run has (with the nearest column or setting, a
    // dotted tail too), or < and > given a word; keys that are columns or settings are not noted.
    void notesSayWhyNothingWasPicked() {
        const std::vector<RunInfo> runs{run()};
        auto notes = RunFilter("n_layer=4 lr>abc name<x schedule.warmp=1 status=none lr=1 seed=3 gpu").notes(runs);
        QCOMPARE(notes.size(), size_t(4));
        QCOMPARE(RunFilter::describe(notes[0]), std::string("n_layer=4: no run has a column or setting \"n_layer\"; did you mean n_layers?"));
        QCOMPARE(RunFilter::describe(notes[1]), std::string("lr>abc: <, <=, > and >= compare numbers, and \"abc\" is not one"));
        QCOMPARE(notes[2].kind, RunFilter::Note::Kind::NotANumber);   // name<x
        QCOMPARE(notes[3].suggestion, std::string("schedule.warmup"));
        QCOMPARE(RunFilter::describe(RunFilter("zzzzzz=1").notes(runs).at(0)), std::string("zzzzzz=1: no run has a column or setting \"zzzzzz\""));
        QVERIFY(RunFilter("stauts=finished").notes(runs).at(0).suggestion == "status");
    }

    void aMirroredRunHasItsServer() {
        RunInfo r = run();
        r.info = {{"remote", {{"dest", "gpu1"}, {"store", "/srv/runs.sqlite"}, {"run", 4}}}};
        QVERIFY(RunFilter("server=gpu1").matches(r, 3.0));
        QVERIFY(RunFilter("gpu1").matches(r, 3.0));
        QVERIFY(!RunFilter("server=gpu2").matches(r, 3.0));
    }
};

QTEST_MAIN(TestRunFilter)
#include "test_run_filter.moc"
