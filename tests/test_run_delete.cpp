// Deleting a run (Store::delete_run, the window's Delete, `normlab-cli delete`):
// its checkpoint files go with it and only those; its id is never given to
// another run; a run a live process trains is refused; a trainer or a mirror's
// follower still holding a deleted run writes nothing more into the store;
// compacting gives their space back.
#include "core/errors.h"
#include "core/remote/mirror.h"
#include "core/store/store.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

using namespace normlab;
using nlohmann::json;
using test::store_error;
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, size_t bytes) {
    std::ofstream(p, std::ios::binary) << std::string(bytes, 'x');
}

// Rows that belong to no run: series of a missing run, points of a missing series, distributions of a missing run.
int64_t orphans(const std::string& path) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    int64_t n = 0;
    for (const char* sql : {"SELECT count(*) FROM series WHERE run_id NOT IN (SELECT id FROM runs)",
                            "SELECT count(*) FROM points WHERE series_id NOT IN (SELECT id FROM series)",
                            "SELECT count(*) FROM distributions WHERE run_id NOT IN (SELECT id FROM runs)"}) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
        if (sqlite3_step(st) == SQLITE_ROW) n += sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(db);
    return n;
}

}  // namespace

class TestRunDelete : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    // Its checkpoints (the one it points at, older ones, a half-written one)
    // go; another run's, and a file of run 20 when run 2 is deleted, stay.
    void checkpointsGoWithTheRun() {
        const std::string p = path("ckpt.sqlite");
        Store s(p);
        const int64_t a = s.create_run("a", "pre_ln", json::object(), 1);
        const int64_t b = s.create_run("b", "pre_ln", json::object(), 1);
        QCOMPARE(b, int64_t{2});
        const fs::path dir = p + ".checkpoints";
        fs::create_directories(dir);
        write_file(dir / "run-2-step-10.pt", 1000);
        write_file(dir / "run-2-step-20.pt", 3000);
        write_file(dir / "run-2-step-30.pt.tmp", 500);
        write_file(dir / "run-1-step-20.pt", 700);
        write_file(dir / "run-20-step-5.pt", 900);
        s.set_checkpoint(b, (dir / "run-2-step-20.pt").string());
        s.set_checkpoint(a, (dir / "run-1-step-20.pt").string());
        const Store::Deleted d = s.delete_run(b);
        QCOMPARE(d.files, 3);
        QCOMPARE(d.bytes, uintmax_t{4500});
        QVERIFY(!s.run(b));
        for (const char* gone : {"run-2-step-10.pt", "run-2-step-20.pt", "run-2-step-30.pt.tmp"}) QVERIFY(!fs::exists(dir / gone));
        for (const char* kept : {"run-1-step-20.pt", "run-20-step-5.pt"}) QVERIFY(fs::exists(dir / kept));
        QCOMPARE(orphans(p), int64_t{0});
    }

    // A copy of a store (without its folder) points at the original's
    // checkpoints: deleting the copy's run leaves the original's file.
    void aCopyLeavesTheOriginalsCheckpoint() {
        const std::string p = path("orig.sqlite");
        fs::create_directories(p + ".checkpoints");
        const fs::path file = fs::path(p + ".checkpoints") / "run-1-step-5.pt";
        {
            Store s(p);
            const int64_t a = s.create_run("a", "pre_ln", json::object(), 1);
            write_file(file, 100);
            s.set_checkpoint(a, file.string());
        }
        fs::create_directories(path("elsewhere"));
        const std::string copy = path("elsewhere/copy.sqlite");
        fs::copy_file(p, copy);
        Store c(copy);
        c.set_checkpoint(1, file.string());   // as an absolute path: the original's
        QCOMPARE(c.delete_run(1).files, 0);
        QVERIFY(fs::exists(file));
    }

    // The last run deleted: the next run gets a new id, in this connection, in a
    // new one, and in a merge; a merge into the store does too.
    void idsAreNeverReused() {
        const std::string p = path("ids.sqlite");
        {
            Store s(p);
            for (const char* n : {"a", "b", "c"}) s.create_run(n, "pre_ln", json::object(), 1);
            s.delete_run(3);
            s.delete_run(2);
            QCOMPARE(s.create_run("d", "pre_ln", json::object(), 1), int64_t{4});
            s.delete_run(4);
        }
        Store s(p);
        QCOMPARE(s.create_run("e", "pre_ln", json::object(), 1), int64_t{5});
        s.delete_run(5);
        const std::string other = path("other.sqlite");
        {
            Store o(other);
            o.create_run("f", "pre_ln", json::object(), 7);
        }
        s.merge_from(other);
        std::vector<int64_t> ids;
        for (const RunInfo& r : s.runs()) ids.push_back(r.id);
        QCOMPARE(ids, (std::vector<int64_t>{1, 6}));
    }

    // Refused while a live process trains it (this one, here), before anything
    // is deleted; once it has ended, deleted.
    void aRunTrainingIsRefused() {
        const std::string p = path("live.sqlite");
        Store s(p);
        const int64_t a = s.create_run("a", "pre_ln", json::object(), 1);
        QVERIFY(s.claim_run(a, RunStatus::Queued, "cpu", json::object()));
        QVERIFY(!Store::delete_refusal(*s.run(a)).empty());
        const std::string why = store_error([&] { s.delete_run(a); });
        QVERIFY2(why.find("is training (pid " + std::to_string(::getpid())) != std::string::npos, why.c_str());
        QVERIFY2(why.find("normlab-cli cancel 1") != std::string::npos, why.c_str());
        QVERIFY(s.run(a).has_value());
        s.finish_run(a, RunStatus::Cancelled, 3, "cancelled", 2.5);
        QVERIFY(Store::delete_refusal(*s.run(a)).empty());
        s.delete_run(a);
        QVERIFY(!s.run(a));
        QVERIFY(!store_error([&] { s.delete_run(a); }).empty());   // not there any more: said so
    }

    // A trainer (a RunWriter in another connection) still holding a run deleted
    // under it writes nothing more: no points under its old series' ids, which a
    // new run's series may hold, and no new series for it.
    void aDeletedRunGetsNoMoreRows() {
        const std::string p = path("writer.sqlite");
        Store trainer(p), window(p);
        const int64_t a = trainer.create_run("a", "pre_ln", json::object(), 1);
        RunWriter w(trainer, a, 1e9);
        w.scalar("train/loss", 1, 3.0);
        w.flush();
        window.delete_run(a);   // queued, so deletable: as an older NormLab would have too
        const int64_t b = window.create_run("b", "pre_ln", json::object(), 1);
        QVERIFY(b > a);
        const int64_t sb = window.series_id(b, "train/loss");
        w.scalar("train/loss", 2, 2.0);
        w.layer("hidden/norm", 0, 2, 1.0);
        const std::string why = store_error([&] { w.flush(); });
        QVERIFY2(why.find("deleted while it trained") != std::string::npos, why.c_str());
        QCOMPARE(trainer.series_id(a, "train/other"), int64_t{0});
        QVERIFY(window.points(sb).empty());
        QCOMPARE(orphans(p), int64_t{0});
    }

    // A name, tags, notes or a colour given to a run another process deleted meanwhile: said, not dropped.
    void editsOfADeletedRunAreRefused() {
        const std::string p = path("edits.sqlite");
        Store window(p), cli(p);
        const int64_t a = window.create_run("a", "pre_ln", json::object(), 1);
        cli.delete_run(a);
        for (const std::string& why : {store_error([&] { window.rename_run(a, "b"); }),
                                       store_error([&] { window.set_tags(a, {"t"}); }),
                                       store_error([&] { window.set_notes(a, "my notes"); }),
                                       store_error([&] { window.set_run_color(a, "#123456"); })})
            QVERIFY2(why.find("is no longer in") != std::string::npos, why.c_str());
    }

    // The follower of a server's run deleted here: the rest of the run's stream
    // is dropped, neither written under its old id nor mirrored as a new run
    // from the middle; the server's other runs go on being mirrored.
    void aMirrorDropsARunDeletedHere() {
        const std::string p = path("mirror.sqlite");
        Store local(p);
        Mirror m(local, "gpu1", "normlab-cli");
        m.hello(json{{"t", "hello"}, {"protocol", kStreamProtocol}, {"store", "/srv/runs.sqlite"}, {"host", "gpu1"}}.dump());
        auto run = [&](int64_t id, const char* name) {
            m.apply(json{{"t", "run"}, {"id", id}, {"row", {{"name", name}, {"scheme", "pre_ln"}, {"status", "running"}}}}.dump());
        };
        auto points = [&](int64_t id, int64_t step) {
            m.apply(json{{"t", "points"}, {"run", id}, {"name", "train/loss"}, {"layer", -1}, {"p", {{step, 2.0}}}}.dump());
        };
        run(7, "seven");
        run(8, "eight");
        points(7, 1);
        points(8, 1);
        QCOMPARE(m.apply(R"({"t":"sync"})"), Mirror::Got::Synced);
        QCOMPARE(local.runs().size(), size_t(2));
        const int64_t seven = local.runs()[0].id, eight = local.runs()[1].id;
        QVERIFY(Store::delete_refusal(*local.run(seven)).empty());   // mirrored: deleted here only
        local.delete_run(seven);
        run(7, "seven");
        run(8, "eight");
        points(7, 2);
        points(8, 2);
        QCOMPARE(m.apply(R"({"t":"sync"})"), Mirror::Got::Synced);
        const std::vector<RunInfo> runs = local.runs();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].id, eight);
        QCOMPARE(local.points(local.series_id(eight, "train/loss")).size(), size_t(2));
        QCOMPARE(orphans(p), int64_t{0});
    }

    // compact gives the space of deleted runs back to the disk: the file shrinks, what is left is
    // as it was, ids included; stopped, it changes nothing.
    void compactGivesTheSpaceBack() {
        const std::string p = path("compact.sqlite");
        Store s(p);
        int64_t kept = 0;
        for (int k = 0; k < 3; ++k) {
            const int64_t id = s.create_run("r" + std::to_string(k), "pre_ln", json::object(), 1);
            RunWriter w(s, id, 1e9);
            for (int step = 0; step < 20000; ++step) w.scalar("train/loss", step, 3.0 - step * 1e-4 + k);
            w.flush();
            kept = id;
        }
        const std::vector<Point> before = s.points(s.series_id(kept, "train/loss"));
        s.delete_run(1);
        s.delete_run(2);
        QVERIFY(s.free_bytes() > 200'000);
        const uintmax_t size = fs::file_size(p) + (fs::exists(p + "-wal") ? fs::file_size(p + "-wal") : 0);
        std::atomic<bool> stop{true};
        const std::string why = store_error([&] { s.compact(&stop); });
        QVERIFY2(why.find("stopped; nothing was changed") != std::string::npos, why.c_str());
        QVERIFY(s.free_bytes() > 200'000);
        const Store::Compacted c = s.compact();
        QCOMPARE(c.before, size);
        QVERIFY2(c.after < c.before / 2, qPrintable(QString("%1 → %2").arg(c.before).arg(c.after)));
        QVERIFY(s.free_bytes() < 10'000);
        Store again(p);
        QCOMPARE(again.runs().size(), size_t(1));
        QCOMPARE(again.runs()[0].id, kept);
        const std::vector<Point> after = again.points(again.series_id(kept, "train/loss"));
        QCOMPARE(after.size(), before.size());
        for (size_t i = 0; i < after.size(); ++i) QVERIFY(after[i].step == before[i].step && after[i].value == before[i].value);
        QCOMPARE(again.create_run("next", "pre_ln", json::object(), 1), kept + 1);
        QVERIFY(!store_error([&] { Store(p, Store::Mode::ReadOnly).compact(); }).empty());
    }
};

QTEST_GUILESS_MAIN(TestRunDelete)
#include "test_run_delete.moc"
