// What the run store promises beyond the round trip (docs/RELIABILITY.md):
// refused files stay byte-for-byte untouched with a hot write-ahead log too;
// a log lost or damaged after a crash is reported, not silently empty; a
// damaged schema page is reported as damage, not as an old store;
// read-only opens take no write lock and leave nothing beside the store;
// SQLite URIs, folders and companion files are refused. What it promises
// its runs (claims, owners, checkpoints, edits of a file gone) is
// test_store_runs.cpp's.
#include "core/errors.h"
#include "core/store/store.h"
#include "tests/test_util.h"
#include "core/store/wal.h"

#include <QtTest/QtTest>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

using namespace normlab;
using test::read_bytes;
using test::store_error;
namespace fs = std::filesystem;

namespace {
// Runs `sql` in a child process that then dies without closing the database:
// the write-ahead log it leaves is hot (and its -shm index says how much it committed).
void write_and_die(const std::string& path, const std::string& sql) {
    const pid_t child = fork();
    if (child == 0) {
        sqlite3* db = nullptr;
        if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) _exit(2);
        sqlite3_exec(db, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) _exit(3);
        _exit(0);   // no sqlite3_close: nothing is checkpointed
    }
    int status = 0;
    waitpid(child, &status, 0);
    QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}
// A NormLab store whose crashed writer left `runs` runs with points in its log.
void killed_store(const std::string& path, int runs) {
    { Store s(path); }
    std::string sql = "BEGIN;";
    for (int i = 1; i <= runs; ++i) {
        sql += "INSERT INTO runs(name, scheme, config, status, created_at) VALUES('r" + std::to_string(i) +
               "', 'pre_ln', '{}', 'running', 0);";
        sql += "INSERT INTO series(run_id, name, layer) VALUES(" + std::to_string(i) + ", 'train/loss', -1);";
        for (int s = 0; s < 200; ++s)
            sql += "INSERT INTO points VALUES(" + std::to_string(i) + ", " + std::to_string(s) + ", 1.5);";
    }
    write_and_die(path, sql + "COMMIT;");
}
// The data: the file and its log (-shm is SQLite's index of the log, rebuilt from it).
std::string files_of(const std::string& p) {
    std::string out;
    for (const char* ext : {"", "-wal"})
        out += std::string(ext) + ":" + (fs::exists(p + ext) ? std::to_string(std::hash<std::string>{}(read_bytes(p + ext))) : "-") + " ";
    return out;
}
}  // namespace

class TestStoreSafety : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void init() { QVERIFY(dir_.isValid()); }

    void foreignStoreWithHotLogIsRefusedUntouched() {
        const std::string p = path("foreign-hot.sqlite");
        write_and_die(p, "CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1, 'x');");
        QVERIFY(inspect_wal(p).hot());
        const std::string before = files_of(p);
        const auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("not a NormLab run store") != std::string::npos, e.c_str());
        QCOMPARE(files_of(p), before);                     // the file and its log as they were
        QVERIFY(!store_error([&] { Store s(p, Store::Mode::ReadOnly); }).empty());
        QCOMPARE(files_of(p), before);
    }

    void newerStoreWithHotLogIsRefusedUntouched() {
        const std::string p = path("newer-hot.sqlite");
        { Store s(p); s.create_run("r", "pre_ln", nlohmann::json::object(), 1); }
        // A newer NormLab migrates both records of its schema in one transaction, then crashes.
        write_and_die(p, "BEGIN; UPDATE meta SET value='9' WHERE key='schema_version'; PRAGMA user_version=9; COMMIT;");
        QVERIFY(!inspect_wal(p).header.empty());
        const std::string before = files_of(p);
        const auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("newer NormLab (store schema 9") != std::string::npos, e.c_str());
        QCOMPARE(files_of(p), before);
    }

    void killedStoreOpensWithEveryCommittedRow() {
        const std::string p = path("killed.sqlite");
        killed_store(p, 3);
        const WalState w = inspect_wal(p);
        QVERIFY(w.hot());
        QCOMPARE(w.lost_frames(), int64_t(0));
        Store ro(p, Store::Mode::ReadOnly);
        QCOMPARE(ro.runs().size(), size_t(3));
        QCOMPARE(ro.runs()[0].status, RunStatus::Interrupted);   // shown so, not written
        Store s(p);
        QCOMPARE(s.points(s.series_id(3, "train/loss")).size(), size_t(200));
    }

    void missingLogAfterACrashIsReported() {
        const std::string p = path("nowal.sqlite");
        killed_store(p, 3);
        fs::remove(p + "-wal");
        const std::string before = files_of(p);
        const auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("write-ahead log") != std::string::npos && e.find("is missing") != std::string::npos, e.c_str());
        QVERIFY(!store_error([&] { Store s(p, Store::Mode::ReadOnly); }).empty());
        QCOMPARE(files_of(p), before);
    }

    // A writer that closes the store between the reads of the log's index and of the log
    // (folding the log into the file and deleting both) is not a crash that lost the log:
    // whether that writer is another thread or another process, the store opens, every row
    // there. (Reading the log was refused as "missing, … rows lost" when the writer was only
    // looked for after it: test_store's racing readers, 1 CI run.)
    void aWriterClosingWhileTheLogIsReadIsNoCrash() {
        constexpr int kPoints = 500;
        int n = 0;
        for (bool other_process : {false, true})
            for (auto mode : {Store::Mode::ReadOnly, Store::Mode::ReadWrite}) {
                const std::string p = path(("closing" + std::to_string(n++) + ".sqlite").c_str());
                const std::string what = std::string(other_process ? "another process" : "this process") +
                                         (mode == Store::Mode::ReadOnly ? ", read-only" : ", writable");
                std::unique_ptr<Store> w;
                int up[2], down[2];
                pid_t child = -1;
                auto write_rows = [&](Store& s) {
                    const int64_t id = s.create_run("closing", "pre_ln", nlohmann::json::object(), 1);
                    RunWriter rw(s, id, 1e9);
                    for (int i = 0; i < kPoints; ++i) rw.scalar("train/loss", i, 1.5);
                };
                if (!other_process) {
                    w = std::make_unique<Store>(p);
                    write_rows(*w);
                } else {
                    QCOMPARE(pipe(up), 0);
                    QCOMPARE(pipe(down), 0);
                    child = fork();
                    if (child == 0) {
                        char c = 0;
                        {
                            Store s(p);
                            write_rows(s);
                            if (write(up[1], "w", 1) != 1 || read(down[0], &c, 1) != 1) _exit(2);
                        }   // closed: the log folded into the file, it and its index deleted
                        _exit(0);
                    }
                    char c = 0;
                    QCOMPARE(read(up[0], &c, 1), ssize_t(1));
                }
                const WalState open = inspect_wal(p);
                QVERIFY2(open.committed_frames > open.backfilled_frames, what.c_str());   // rows only in the log
                bool closed = false;
                at_next_inspection([&] {
                    if (other_process) {
                        int status = -1;
                        if (write(down[1], "c", 1) == 1 && waitpid(child, &status, 0) == child)
                            closed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
                    } else {
                        w.reset();
                        closed = true;
                    }
                });
                std::string e = store_error([&] {
                    Store r(p, mode);
                    const size_t got = r.points(r.series_id(1, "train/loss")).size();
                    if (got != size_t(kPoints)) throw StoreError(std::to_string(got) + " points read");
                });
                QVERIFY2(closed, what.c_str());
                QVERIFY2(e.empty(), (what + ": " + e).c_str());
                QVERIFY2(!fs::exists(p + "-wal"), what.c_str());
                if (other_process)
                    for (int fd : {up[0], up[1], down[0], down[1]}) ::close(fd);
            }
    }

    // A store a crash left, opened and closed by another writer between those two reads (the
    // window and a terminal opening it at once after the crash): that writer folded the log
    // into the file, so nothing is lost, though neither reading sees it open. A second
    // reading finds the log changed and reads again; a writer of this process is counted.
    void aCrashedStoreRecoveredWhileItIsReadOpens() {
        int n = 0;
        for (bool other_process : {false, true}) {
            const std::string p = path(("recovered" + std::to_string(n++) + ".sqlite").c_str());
            killed_store(p, 3);
            QVERIFY(inspect_wal(p).hot());
            bool recovered = false;
            at_next_inspection([&] {
                if (!other_process) {
                    { Store s(p); }
                    recovered = true;
                    return;
                }
                const pid_t child = fork();
                if (child == 0) {
                    try {
                        Store s(p);
                    } catch (...) {
                        _exit(2);
                    }
                    _exit(0);
                }
                int status = -1;
                recovered = waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0;
            });
            const std::string e = store_error([&] {
                Store r(p, Store::Mode::ReadOnly);
                if (r.runs().size() != 3 || r.points(r.series_id(3, "train/loss")).size() != 200)
                    throw StoreError("rows missing");
            });
            QVERIFY2(recovered, other_process ? "another process" : "this process");
            QVERIFY2(e.empty(), e.c_str());
            QVERIFY(!fs::exists(p + "-wal"));
        }
    }

    void aSymlinkedStoreIsCheckedAsItsRealFile() {
        // The lost-log check, the log and the checkpoints are the real file's,
        // whatever name (a symlink) the store is opened by.
        const std::string p = path("real.sqlite"), link = path("link.sqlite");
        killed_store(p, 3);
        fs::create_symlink(p, link);
        fs::remove(p + "-wal");
        const std::string before = files_of(p);
        for (auto mode : {Store::Mode::ReadOnly, Store::Mode::ReadWrite}) {
            const auto e = store_error([&] { Store s(link, mode); });
            QVERIFY2(e.find("is missing") != std::string::npos, e.c_str());
        }
        QCOMPARE(files_of(p), before);
        QVERIFY(!fs::exists(link + "-wal") && !fs::exists(link + "-shm"));
        // Opened through the link, it is the real file (path, checkpoints folder).
        const std::string q = path("real2.sqlite"), link2 = path("link2.sqlite");
        { Store s(q); }
        fs::create_symlink(q, link2);
        Store s(link2);
        QCOMPARE(s.path(), fs::canonical(q).string());
    }

    void damagedLogIsReported() {
        const std::string p = path("badwal.sqlite");
        killed_store(p, 3);
        std::string wal = read_bytes(p + "-wal");
        QVERIFY(wal.size() > 10000);
        wal[wal.size() / 2] ^= 0x5a;                         // one flipped byte in a middle frame
        std::ofstream(p + "-wal", std::ios::binary | std::ios::trunc) << wal;
        const std::string before = files_of(p);
        const auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("write-ahead log is damaged") != std::string::npos, e.c_str());
        QCOMPARE(files_of(p), before);
    }

    // A store whose page of the schema's version is damaged is refused as damaged, untouched, by
    // every open; it was refused as "written by an older NormLab … open it once writable to migrate it".
    void aDamagedSchemaPageIsNotAnOldStore() {
        const std::string p = path("badmeta.sqlite");
        int root = 0, page_size = 0;
        {
            Store s(p);
            s.create_run("r", "pre_ln", nlohmann::json::object(), 1);
        }
        {
            sqlite3* db = nullptr;
            QCOMPARE(sqlite3_open(p.c_str(), &db), SQLITE_OK);
            sqlite3_stmt* st = nullptr;
            sqlite3_prepare_v2(db, "SELECT rootpage, (SELECT page_size FROM pragma_page_size) FROM sqlite_master WHERE name='meta'",
                               -1, &st, nullptr);
            QCOMPARE(sqlite3_step(st), SQLITE_ROW);
            root = sqlite3_column_int(st, 0), page_size = sqlite3_column_int(st, 1);
            sqlite3_finalize(st);
            sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", nullptr, nullptr, nullptr);
            sqlite3_close(db);
        }
        QVERIFY(root > 1 && page_size > 0);
        std::string bytes = read_bytes(p);
        QVERIFY(bytes.size() >= static_cast<size_t>(root) * page_size);
        bytes.replace(static_cast<size_t>(root - 1) * page_size, 7, "garbage");   // the page's b-tree header
        std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
        const std::string before = files_of(p);
        for (Store::Mode mode : {Store::Mode::ReadOnly, Store::Mode::ReadWrite}) {
            const auto e = store_error([&] { Store s(p, mode); });
            QVERIFY2(e.find("is damaged") != std::string::npos && e.find("older NormLab") == std::string::npos, e.c_str());
            QCOMPARE(files_of(p), before);
        }
    }

    void readOnlyOpensLeaveNothingAndTakeNoLock() {
        const std::string p = path("ro.sqlite");
        { Store s(p); s.create_run("r", "pre_ln", nlohmann::json::object(), 1); }
        QVERIFY(!fs::exists(p + "-wal") && !fs::exists(p + "-shm"));
        const std::string before = read_bytes(p);
        {
            Store ro(p, Store::Mode::ReadOnly);
            QVERIFY(ro.read_only());
            QCOMPARE(ro.runs().size(), size_t(1));
        }
        QCOMPARE(read_bytes(p), before);
        QVERIFY(!fs::exists(p + "-wal") && !fs::exists(p + "-shm"));   // nothing left beside it

        // A writer holding the write lock does not make a reader wait.
        Store writer(p);
        writer.exec("BEGIN IMMEDIATE");
        const auto t0 = std::chrono::steady_clock::now();
        Store ro(p, Store::Mode::ReadOnly);
        QCOMPARE(ro.runs().size(), size_t(1));
        QVERIFY(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(2));
        writer.exec("ROLLBACK");
        QVERIFY(!store_error([&] { Store(path("absent.sqlite"), Store::Mode::ReadOnly); }).empty());
        QVERIFY(!fs::exists(path("absent.sqlite")));
    }

    void otherApplicationsAreRefusedByTheirHeader() {
        const std::string p = path("otherapp.sqlite");
        write_and_die(p, "PRAGMA application_id=1234; CREATE TABLE meta(key TEXT, value TEXT);"
                         " INSERT INTO meta VALUES('app', 'normlab'), ('schema_version', '2');");
        const std::string before = files_of(p);
        const auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("another application (application id 0x000004D2)") != std::string::npos, e.c_str());
        QCOMPARE(files_of(p), before);
    }

    void refusedNewFilesLeaveNothingBeside() {
        const std::string p = path("plain-foreign.sqlite");
        sqlite3* db = nullptr;
        sqlite3_open(p.c_str(), &db);
        sqlite3_exec(db, "PRAGMA journal_mode=WAL; CREATE TABLE t(x);", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QVERIFY(!fs::exists(p + "-wal"));
        QVERIFY(!store_error([&] { Store s(p); }).empty());
        QVERIFY(!fs::exists(p + "-wal") && !fs::exists(p + "-shm"));
    }

    // A store's log, shared memory and journal are never opened as a store, while the store is open
    // (its writer's log and index, byte for byte) or not: `merge --into runs.sqlite-wal` made a
    // database in the log a training process was writing. A name that only ends so is a store.
    void aStoresCompanionFilesAreNeverAStore() {
        const std::string p = path("live.sqlite");
        Store live(p);
        live.create_run("r", "pre_ln", nlohmann::json::object(), 1);
        QVERIFY(fs::exists(p + "-wal") && fs::exists(p + "-shm"));
        const std::string wal = read_bytes(p + "-wal"), shm = read_bytes(p + "-shm");
        for (const char* suffix : {"-wal", "-shm", "-journal"})
            for (Store::Mode mode : {Store::Mode::ReadWrite, Store::Mode::ReadOnly}) {
                const auto e = store_error([&] { Store s(p + suffix, mode); });
                QVERIFY2(e.find("belongs to the SQLite database " + p) != std::string::npos, e.c_str());
            }
        QVERIFY(read_bytes(p + "-wal") == wal && read_bytes(p + "-shm") == shm);
        QVERIFY(!fs::exists(p + "-journal") && !fs::exists(p + "-wal-wal") && !fs::exists(p + "-wal.checkpoints"));
        QCOMPARE(live.runs().size(), size_t(1));
        Store named(path("notes-wal"));   // no database called "notes" beside it
        QCOMPARE(named.runs().size(), size_t(0));
    }

    void urisAndFoldersAreRefused() {
        const QString cwd = QDir::currentPath();
        QDir::setCurrent(dir_.path());
        for (const char* uri : {"file:/tmp/x?mode=memory", "file:x.sqlite", ":memory:"}) {
            const auto e = store_error([&] { Store s(uri); });
            QVERIFY2(e.find("SQLite URI") != std::string::npos, e.c_str());
        }
        QVERIFY(!fs::exists(dir_.filePath("file:").toStdString()));
        QDir::setCurrent(cwd);
        const auto e = store_error([&] { Store s(dir_.path().toStdString()); });
        QVERIFY2(e.find("is a folder") != std::string::npos, e.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStoreSafety)
#include "test_store_safety.moc"
