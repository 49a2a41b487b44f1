// What a window polling a run store each second reads (docs/PERFORMANCE.md,
// "The window over a large store"): Store::generation, compared before any
// read; Store::runs(reuse), which parses again only the JSON of runs whose
// stored texts changed; Store::statuses, one query for whether a run shown
// trains again. Each gives what a plain read would.
#include "core/store/store.h"

#include <QtTest/QtTest>

#include <sys/wait.h>
#include <unistd.h>

using namespace normlab;
using nlohmann::json;

class TestStorePolling : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void init() { QVERIFY(dir_.isValid()); }

    // Store::generation, which the window compares before reading every run again: the same while
    // nothing is written; another after a commit of this connection, of another one, and once a
    // reader of a cleanly closed file finds it written; never two stores' alike.
    void theGenerationChangesWithEveryCommit() {
        const std::string p = path("generation.sqlite");
        int64_t id;
        {
            Store w(p);
            const Store::Generation g0 = w.generation();
            QVERIFY(w.generation() == g0);
            id = w.create_run("a", "pre_ln", nlohmann::json::object(), 1);
            const Store::Generation g1 = w.generation();
            QVERIFY(g1 != g0);   // its own commit
            Store r(p, Store::Mode::ReadOnly);   // a reader beside the writer
            const Store::Generation r0 = r.generation();
            QVERIFY(r0 != g1);   // two stores
            QVERIFY(r.generation() == r0);
            w.set_notes(id, "x");
            QVERIFY(r.generation() != r0);   // another connection's commit
            QVERIFY(w.generation() != g1);
            const Store::Generation r1 = r.generation();
            QCOMPARE(r.runs().size(), size_t(1));   // reading changes nothing
            QVERIFY(r.generation() == r1);
        }
        Store r(p, Store::Mode::ReadOnly);   // the file closed cleanly: read as it is
        const Store::Generation r0 = r.generation();
        QVERIFY(r.generation() == r0);
        {
            Store w(p);
            w.rename_run(id, "b");
        }
        QVERIFY(r.generation() != r0);
        QCOMPARE(r.run(id)->name, std::string("b"));
    }

    // A run whose config, versions and info are stored as they were takes their JSON from the row read
    // before (which then has none to give); one whose info was written since, one new, and one whose row
    // comes from another store with other texts under the same id are parsed. Either way each row is
    // what a plain runs() reads.
    void unchangedRunsTakeTheirJsonFromTheRowsReadBefore() {
        const std::string p = path("reuse.sqlite"), q = path("other.sqlite");
        Store s(p);
        const int64_t a = s.create_run("a", "pre_ln", json{{"model", {{"d_model", 64}}}}, 1);
        const int64_t b = s.create_run("b", "post_ln", json{{"model", {{"d_model", 32}}}}, 2);
        std::vector<RunInfo> before = s.runs();
        QCOMPARE(before.size(), size_t(2));
        QVERIFY(before[0].json_digest != 0 && before[1].json_digest != 0 && before[0].json_digest != before[1].json_digest);
        s.set_info(b, json{{"params", 123}});
        s.heartbeat(a, 7);
        const int64_t c = s.create_run("c", "ngpt", json::object(), 3);
        std::vector<RunInfo> after = s.runs({&before[0], &before[1]});
        const std::vector<RunInfo> plain = s.runs();
        QCOMPARE(after.size(), size_t(3));
        QCOMPARE(before[0].json_digest, uint64_t(0));   // a's taken
        QVERIFY(before[0].config.is_null());
        QVERIFY(before[1].json_digest != 0);            // b's info changed: parsed, its old row untouched
        QCOMPARE(before[1].config, plain[1].config);
        for (size_t i = 0; i < after.size(); ++i) {
            QCOMPARE(after[i].id, plain[i].id);
            QCOMPARE(after[i].config, plain[i].config);
            QCOMPARE(after[i].versions, plain[i].versions);
            QCOMPARE(after[i].info, plain[i].info);
            QCOMPARE(after[i].json_digest, plain[i].json_digest);
            QCOMPARE(after[i].steps_done, plain[i].steps_done);
        }
        QCOMPARE(after[0].steps_done, int64_t(7));
        QCOMPARE(after[0].config["model"]["d_model"], json(64));
        QCOMPARE(after[1].info["params"], json(123));
        QCOMPARE(after[2].id, c);
        // another store's run 1, its settings other: never taken for this store's
        Store o(q);
        o.create_run("x", "deepnorm", json{{"model", {{"d_model", 16}}}}, 4);
        std::vector<RunInfo> theirs = o.runs();
        const std::vector<RunInfo> mine = s.runs({&theirs[0]});
        QVERIFY(theirs[0].json_digest != 0);
        QCOMPARE(mine[0].config["model"]["d_model"], json(64));
        // taken once: the same row offered again gives nothing and the run is parsed
        std::vector<RunInfo> again = s.runs({&after[0], &after[0]});
        QCOMPARE(again[0].config, plain[0].config);
        const std::vector<RunInfo> third = s.runs({&after[0]});
        QCOMPARE(third[0].config, plain[0].config);
    }

    // statuses(): each run's status as run() shows it — a run whose writer died, read-only, interrupted.
    void statusesAreWhatRunShows() {
        const std::string p = path("statuses.sqlite");
        int64_t done, gone, queued;
        {
            Store s(p);
            done = s.create_run("done", "pre_ln", json::object(), 1);
            s.mark_running(done, "cpu", json::object());
            s.finish_run(done, RunStatus::Finished, 5, "", 2.0);
            gone = s.create_run("gone", "pre_ln", json::object(), 2);
            queued = s.create_run("queued", "pre_ln", json::object(), 3);
        }
        const pid_t child = fork();
        if (child == 0) {   // starts to train, then dies without a word
            Store s(p);
            s.mark_running(gone, "cpu", json::object());
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        Store ro(p, Store::Mode::ReadOnly);
        const auto st = ro.statuses();
        QCOMPARE(st.size(), size_t(3));
        for (const auto& [id, s] : st) QCOMPARE(s, ro.run(id)->status);
        QCOMPARE(st[0], std::make_pair(done, RunStatus::Finished));
        QCOMPARE(st[1], std::make_pair(gone, RunStatus::Interrupted));
        QCOMPARE(st[2], std::make_pair(queued, RunStatus::Queued));
    }
};

QTEST_GUILESS_MAIN(TestStorePolling)
#include "test_store_polling.moc"
