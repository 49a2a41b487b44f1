// What the run store promises its runs beyond the round trip (docs/RELIABILITY.md): an unknown
// status is shown, not fatal; a damaged histogram reads as the whole counts it holds; an edit of a
// store whose file was deleted or replaced is refused; a run is claimed by one process only; a
// queued run whose owner died shows as interrupted; checkpoints are stored relative to the store;
// a resume's truncation keeps what its checkpoint covers. (The files themselves, refused, crashed
// or damaged: test_store_safety.cpp.)
#include "core/store/store.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>

using namespace normlab;
using test::store_error;
namespace fs = std::filesystem;

class TestStoreRuns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void init() { QVERIFY(dir_.isValid()); }

    void unknownStatusIsShownNotFatal() {
        const std::string p = path("status.sqlite");
        Store s(p);
        const int64_t a = s.create_run("a", "pre_ln", nlohmann::json::object(), 1);
        s.create_run("b", "pre_ln", nlohmann::json::object(), 1);
        s.exec("UPDATE runs SET status='hibernating' WHERE id=" + std::to_string(a));
        auto runs = s.runs();
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].status, RunStatus::Unknown);
        QCOMPARE(runs[0].status_text, std::string("hibernating"));
        QVERIFY(!resumable(runs[0].status));
    }

    // A run is found by its id or its name; a name that is a number is found where no run has
    // that id, both at once are refused with the ids that tell them apart, and id:/name: say which.
    void runsAreFoundByIdOrName() {
        Store s(path("find.sqlite"));
        const int64_t one = s.create_run("Pre-LN", "pre_ln", nlohmann::json::object(), 1);
        const int64_t two = s.create_run("7", "pre_ln", nlohmann::json::object(), 1);
        const int64_t three = s.create_run("1", "pre_ln", nlohmann::json::object(), 1);
        const int64_t four = s.create_run("id:2", "pre_ln", nlohmann::json::object(), 1);
        QCOMPARE(s.find_run("Pre-LN").id, one);
        QCOMPARE(s.find_run("7").id, two);                     // no run 7: the run named "7"
        QCOMPARE(s.find_run("2").id, two);
        QCOMPARE(s.find_run("id:1").id, one);
        QCOMPARE(s.find_run("name:1").id, three);
        QCOMPARE(s.find_run("name:Pre-LN").id, one);
        QCOMPARE(s.find_run("name:id:2").id, four);
        const std::string both = store_error([&] { s.find_run("1"); });
        QVERIFY2(both.find("\"1\" is run 1's id and the name of run " + std::to_string(three) + "; say id:1 or id:" +
                           std::to_string(three)) != std::string::npos, both.c_str());
        const std::string both_forced = store_error([&] { s.find_run("id:2"); });   // the id, and a run named so
        QVERIFY2(both_forced.find("say id:2 or id:" + std::to_string(four)) != std::string::npos, both_forced.c_str());
        QCOMPARE(s.find_run("id:4").id, four);
        s.create_run("7", "pre_ln", nlohmann::json::object(), 1);
        const std::string two_sevens = store_error([&] { s.find_run("7"); });
        QVERIFY2(two_sevens.find("2 runs are named \"7\"; say id:2 or id:5") != std::string::npos, two_sevens.c_str());
        QVERIFY(store_error([&] { s.find_run("99"); }).find("no run with id 99") != std::string::npos);
        QVERIFY(store_error([&] { s.find_run("id:x"); }).find("id: takes the number") != std::string::npos);
        QVERIFY(store_error([&] { s.find_run("name:nope"); }).find("no run named \"nope\"") != std::string::npos);
    }

    // A histogram blob cut short, empty or NULL (a damaged or hand-edited file)
    // reads as the whole counts it holds; the fuzzer once found the cut one
    // (fuzz/regressions/fuzz_store_open/hist-not-whole-floats.sqlite).
    void damagedHistogramsReadAsTheirWholeCounts() {
        const std::string p = path("hist.sqlite");
        Store s(p);
        const int64_t run = s.create_run("a", "pre_ln", nlohmann::json::object(), 1);
        const std::string cols = "INSERT INTO distributions(run_id, name, layer, step, count, hist) VALUES(" +
                                 std::to_string(run) + ", 'gain/norm1', 0, ";
        s.exec(cols + "1, 4, x'0102')");                   // 2 bytes: no whole float
        s.exec(cols + "2, 4, x'0000803f000000')");         // 7 bytes: one float, 1.0
        s.exec(cols + "3, 4, x'')");
        s.exec(cols + "4, 4, NULL)");
        const auto d = s.distributions(run);
        QCOMPARE(d.size(), size_t(4));
        QVERIFY(d[0].hist.empty());
        QCOMPARE(d[1].hist, std::vector<float>{1.0f});
        QVERIFY(d[2].hist.empty() && d[3].hist.empty());
    }

    // The store's file deleted or replaced while a process has it open: an edit would go to the
    // removed file, lost with it (the window renamed a run in a store already gone); each is
    // refused, saying why. Only the trainer's batches were checked before.
    void editsOfAStoreWhoseFileIsGoneAreRefused() {
        const std::string p = path("gone.sqlite");
        Store s(p);
        const int64_t id = s.create_run("kept", "pre_ln", nlohmann::json::object(), 1);
        const std::string moved = p + ".moved";
        fs::rename(p, moved);
        for (auto edit : std::vector<std::function<void()>>{
                 [&] { s.rename_run(id, "lost"); }, [&] { s.set_tags(id, {"a"}); }, [&] { s.set_notes(id, "n"); },
                 [&] { s.set_run_color(id, "#123456"); }, [&] { s.create_run("new", "pre_ln", nlohmann::json::object(), 2); },
                 [&] { s.add_experiment("e", "e.json", nlohmann::json::object()); }, [&] { s.delete_run(id); }}) {
            const std::string why = store_error(edit);
            QVERIFY2(why.find(p + " was deleted after this process opened it") != std::string::npos, why.c_str());
        }
        {
            Store other(path("other.sqlite"));   // another store put where it was
        }
        fs::rename(path("other.sqlite"), p);
        QVERIFY2(store_error([&] { s.rename_run(id, "lost"); }).find("was replaced by another file") != std::string::npos,
                 "an edit went to the replaced file");
        fs::remove(p);
        fs::rename(moved, p);   // back: edits go through again
        s.rename_run(id, "renamed");
        QCOMPARE(Store(p, Store::Mode::ReadOnly).run(id)->name, std::string("renamed"));
    }

    void aRunIsClaimedOnce() {
        const std::string p = path("claim.sqlite");
        Store a(p), b(p);
        const int64_t id = a.create_run("r", "pre_ln", nlohmann::json::object(), 1);
        a.set_status(id, RunStatus::Cancelled);
        QVERIFY(a.claim_run(id, RunStatus::Cancelled, "cpu", nlohmann::json::object()));
        QVERIFY(!b.claim_run(id, RunStatus::Cancelled, "cpu", nlohmann::json::object()));
        QCOMPARE(b.run(id)->status, RunStatus::Running);
    }

    // A run queued by a process that trains it itself (own_queued: a normlab-cli's experiment, the
    // window's queue) shows as interrupted once that process is gone — read-only without a write,
    // writable marked — where it used to stay queued with nobody to train it. Left queued: one
    // nobody owns (a detached launch's, before its process starts), one whose owner lives, one owned
    // on another machine, and one queued again to be resumed (its last trainer gone).
    void aQueuedRunWhoseOwnerIsGoneIsInterrupted() {
        const std::string p = path("owner.sqlite");
        int64_t owned, unowned, mine, elsewhere, requeued;
        {
            Store s(p);
            const auto make = [&](const char* name) { return s.create_run(name, "pre_ln", nlohmann::json::object(), 1); };
            owned = make("owned"), unowned = make("unowned"), mine = make("mine"), elsewhere = make("elsewhere");
            requeued = make("requeued");
        }
        const pid_t child = fork();
        if (child == 0) {
            // Queues and starts to train, then dies without a word (kill -9).
            Store s(p);
            if (!s.own_queued(owned) || !s.own_queued(elsewhere) ||
                !s.claim_run(requeued, RunStatus::Queued, "cpu", nlohmann::json::object()))
                _exit(3);
            s.exec("UPDATE runs SET host='another-machine' WHERE id=" + std::to_string(elsewhere));
            _exit(0);
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        {
            Store ro(p, Store::Mode::ReadOnly);
            const RunInfo r = *ro.run(owned);
            QCOMPARE(r.status, RunStatus::Interrupted);
            QVERIFY2(r.message.find("queued by a process (pid " + std::to_string(child)) != std::string::npos &&
                         r.message.find("not yet marked") != std::string::npos &&
                         r.message.find("'normlab-cli resume " + std::to_string(owned) + "' starts it") != std::string::npos,
                     r.message.c_str());
            QCOMPARE(ro.run(requeued)->status, RunStatus::Interrupted);
            for (int64_t id : {unowned, mine, elsewhere}) QCOMPARE(ro.run(id)->status, RunStatus::Queued);
        }
        {
            Store s(p);
            std::vector<int64_t> rec = s.recovered();
            std::sort(rec.begin(), rec.end());
            QCOMPARE(rec, (std::vector<int64_t>{owned, requeued}));
            QVERIFY(s.run(owned)->message.find("not yet marked") == std::string::npos);
            QVERIFY(s.own_queued(mine));
            QVERIFY(!s.own_queued(requeued));   // not queued: nothing to own
            QVERIFY(s.requeue(requeued, RunStatus::Interrupted, "resumed in a process of its own"));
        }
        Store s(p);
        QVERIFY(s.recovered().empty());
        QCOMPARE(s.run(owned)->status, RunStatus::Interrupted);
        QCOMPARE(s.run(requeued)->status, RunStatus::Queued);
        for (int64_t id : {unowned, mine, elsewhere}) QCOMPARE(s.run(id)->status, RunStatus::Queued);
    }

    void checkpointsAreStoredRelativeToTheStore() {
        const std::string p = path("rel.sqlite");
        const std::string ckpt = path("rel.sqlite.checkpoints/run-1-step-5.pt");
        {
            Store s(p);
            const int64_t id = s.create_run("r", "pre_ln", nlohmann::json::object(), 1);
            s.write_batch({}, {}, id, &ckpt, 5);
            QCOMPARE(s.run(id)->checkpoint, ckpt);
            QCOMPARE(s.run(id)->steps_done, int64_t(5));
            s.set_checkpoint(id, "/elsewhere/run.pt");            // outside the store's folder: absolute
            QCOMPARE(s.run(id)->checkpoint, std::string("/elsewhere/run.pt"));
            s.set_checkpoint(id, ckpt);
        }
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(p.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "SELECT checkpoint FROM runs WHERE id=1", -1, &st, nullptr);
        QCOMPARE(sqlite3_step(st), SQLITE_ROW);
        QCOMPARE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))),
                 std::string("rel.sqlite.checkpoints/run-1-step-5.pt"));
        sqlite3_finalize(st);
        sqlite3_close(db);
        // Moved with its checkpoints, the store still finds them.
        const std::string moved = path("moved");
        fs::create_directories(moved);
        fs::rename(p, moved + "/rel.sqlite");
        Store s(moved + "/rel.sqlite", Store::Mode::ReadOnly);
        QCOMPARE(s.run(1)->checkpoint, moved + "/rel.sqlite.checkpoints/run-1-step-5.pt");
    }

    void truncationKeepsWhatTheCheckpointCovers() {
        Store s(path("trunc.sqlite"));
        const int64_t id = s.create_run("r", "pre_ln", nlohmann::json::object(), 1);
        RunWriter w(s, id);
        for (int i = 0; i < 30; ++i) w.scalar("train/loss", i, i);
        for (int i : {10, 20, 30}) w.scalar("val/loss", i, i);
        Distribution d;
        d.name = "gain/x";
        for (int i : {0, 20, 30}) {
            d.step = i;
            w.distribution(d);
        }
        w.flush();
        s.truncate_for_resume(id, 20);                   // the checkpoint was taken after 20 updates
        QCOMPARE(s.points(s.series_id(id, "train/loss")).size(), size_t(20));    // steps 0..19
        QCOMPARE(s.points(s.series_id(id, "val/loss")).back().step, int64_t(20));  // measured before it
        QCOMPARE(s.distributions(id).size(), size_t(1));                          // step 0 only
        s.truncate_for_resume(id, 0);
        QCOMPARE(s.points(s.series_id(id, "train/loss")).size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestStoreRuns)
#include "test_store_runs.moc"
