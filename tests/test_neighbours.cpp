// The commands around the store, as a hostile user meets them (issue 22):
// an output that is an input is refused before anything is written; a copy,
// a renamed pair or a symlinked store resumes without touching another
// store's checkpoints; a damaged source is never merged in part, nor one
// stopped by Ctrl-C; a live run
// merged is a snapshot; a long lock never fails a run; a changed data file
// and a deleted store are noticed; names reach no shell and no terminal raw.
#include "core/errors.h"
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

using nlohmann::json;
using namespace cli_harness;
namespace fs = std::filesystem;

class TestNeighbours : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString path(const QString& name) const { return dir_.filePath(name); }
    QString write(const QString& name, const std::string& text) { return write_file(path(name), text); }

    // A store whose run 1 was killed mid-run, with a checkpoint at step >= 40 (of 100000 unless `extra` says).
    QString killed_store(const QString& store, const json& extra = json::object()) {
        json e = tiny(100000, {{"train", {{"checkpoint_every", 20}}}});
        e["base"].merge_patch(extra);
        const QString exp = write(QFileInfo(store).fileName() + ".json", e.dump());
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", exp, "--store", store});
        if (!p.waitForStarted()) return {};
        if (!QTest::qWaitFor([&] { return steps_in(store) >= 40; }, 60000)) return {};
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        p.waitForFinished(10000);
        return exp;
    }
    static normlab::RunInfo run_of(const QString& store, int64_t id = 1) {
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        return *s.run(id);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // 1. No output may be the store, its log, its checkpoints or a file in their folder.
    void anOutputThatIsAnInputIsRefused() {
        const QString store = path("out.sqlite");
        QVERIFY(cli({"run", write("out.json", tiny(20).dump()), "--store", store}).code == 0);
        const QString ckpt = QString::fromStdString(run_of(store).checkpoint);
        QVERIFY(QFile::exists(ckpt));
        QVERIFY(QFile::link(store, path("link-to-store.csv")));
        QVERIFY(::link(store.toUtf8().constData(), path("hard-link.csv").toUtf8().constData()) == 0);
        const QByteArray store_bytes = bytes_of(store), ckpt_bytes = bytes_of(ckpt);
        const QString in_ckpts = store + ".checkpoints/new.safetensors";
        const std::vector<QStringList> cases = {
            {"export", "1", "--csv", "--out", store},
            {"export", "1", "--csv", "--out", path("link-to-store.csv")},
            {"export", "1", "--csv", "--out", path("hard-link.csv")},
            {"export", "1", "--json", "--out", store + "-wal"},
            {"export", "1", "--json", "--out", store + "-shm"},
            {"export", "1", "--json", "--out", dir_.path() + "/./sub/../out.sqlite"},
            {"export-weights", "1", ckpt},
            {"export-weights", "1", in_ckpts},
            {"export-weights", "1", store},
            {"eval-batch", "1", store},
            {"eval-batch", "1", ckpt},
            {"plot", "1", "--out", store + ".checkpoints"},
            {"plot", "1", "--out", store + ".checkpoints/figures"},
            {"plot", "1", "--out", store},
            // a folder at the log's name leaves SQLite unable to open the store: plot made one
            {"plot", "1", "--out", store + "-wal"},
            {"plot", "1", "--out", store + "-shm/figures"},
            {"plot", "1", "--out", store + "-journal"},
        };
        for (const QStringList& c : cases) {
            Result r = cli(QStringList(c) << "--store" << store);
            QVERIFY2(r.code == 2 && r.err.contains("would destroy it") && r.err.contains("Nothing was written"),
                     qPrintable(c.join(' ') + QString(": exit %1: ").arg(r.code) + r.err));
        }
        // Nor is a store made in another's log, shared memory or journal: `merge --into STORE-wal` made
        // one in the log that a process training into STORE writes.
        for (const char* suffix : {"-wal", "-shm", "-journal"})
            for (const QStringList& c : {QStringList{"merge", store, "--into", store + suffix},
                                         QStringList{"run", write("out.json", tiny(20).dump()), "--store", store + suffix}}) {
                Result r = cli(c);
                QVERIFY2(r.code == 5 && r.err.contains("belongs to the SQLite database " + store) && r.err.contains("left untouched"),
                         qPrintable(c.join(' ') + QString(": exit %1: ").arg(r.code) + r.err));
                QVERIFY2(!QFile::exists(store + suffix) && !QFile::exists(store + suffix + ".checkpoints"), qPrintable(c.join(' ')));
            }
        QVERIFY(bytes_of(store) == store_bytes);
        QVERIFY(bytes_of(ckpt) == ckpt_bytes);
        QVERIFY(!QFile::exists(store + "-wal") && !QFile::exists(store + "-shm") && !QFile::exists(store + "-journal") &&
                !QFile::exists(in_ckpts));
        QCOMPARE(QDir(store + ".checkpoints").entryList(QDir::Files).size(), 1);   // no svg landed there
        QVERIFY(!QFile::exists(store + ".checkpoints/figures"));
        Result r = cli({"resume", "1", "--store", store});                         // the store and run intact
        QVERIFY2(r.code == 2 && r.err.contains("already finished"), qPrintable(r.err));
        // What is not an input is written as before.
        r = cli({"export", "1", "--csv", "--out", path("run1.csv"), "--store", store});
        QVERIFY2(r.code == 0 && QFile::exists(path("run1.csv")), qPrintable(r.err));
#ifdef NORMLAB_APP
        QProcess fig;
        fig.start(QStringLiteral(NORMLAB_APP), {"figure", "1", "--store", store, "--out", path("fig.pdf")});
        QVERIFY(fig.waitForFinished(60000));
        QVERIFY2(fig.exitCode() == 0, fig.readAllStandardError().constData());   // a new file: fine
        QVERIFY(QFile::link(store, path("store-link.pdf")));
        fig.start(QStringLiteral(NORMLAB_APP), {"figure", "1", "--store", store, "--out", path("store-link.pdf")});
        QVERIFY(fig.waitForFinished(60000));
        const QString err = QString::fromUtf8(fig.readAllStandardError());
        QVERIFY2(fig.exitCode() != 0 && err.contains("would destroy it"), qPrintable(err));
        QVERIFY(bytes_of(store) == store_bytes);
        fig.start(QStringLiteral(NORMLAB_APP), {"report", "--out", store + ".checkpoints", "--store", store,
                                                QStringLiteral(NORMLAB_SOURCE_DIR) + "/experiments/reproduction/xiong_init.json"});
        QVERIFY(fig.waitForFinished(60000));
        QVERIFY2(fig.exitCode() == 2 && fig.readAllStandardError().contains("checkpoints folder"), "report into the checkpoints");
#endif
    }

    // 2. A copy resumes from the original's checkpoint and never deletes it; a
    //    renamed pair and a store made through a symlink resume by their new names.
    void copiesAndMovedStoresKeepTheirCheckpoints() {
        const QString orig = path("orig.sqlite");
        QVERIFY(!killed_store(orig, {{"train", {{"steps", 1000}}}}).isEmpty());
        const normlab::RunInfo before = run_of(orig);
        QVERIFY(!before.checkpoint.empty() && fs::exists(before.checkpoint));
        // A copy beside it (cp of the store, closed cleanly first), resumed to the end.
        { normlab::Store recover(orig.toStdString()); }
        QVERIFY(QFile::copy(orig, path("copy.sqlite")));
        Result r = cli({"resume", "1", "--store", path("copy.sqlite")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(fs::exists(before.checkpoint), "the copy deleted the original's checkpoint");
        const normlab::RunInfo copied = run_of(path("copy.sqlite"));
        QVERIFY2(QString::fromStdString(copied.checkpoint).startsWith(path("copy.sqlite.checkpoints/")), copied.checkpoint.c_str());
        // The original still resumes, from its own checkpoint.
        r = cli({"resume", "1", "--store", orig});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(run_of(orig).status, normlab::RunStatus::Finished);
        // A store renamed together with its checkpoints folder.
        const QString moved = path("moved.sqlite");
        QVERIFY(!killed_store(path("pair.sqlite"), {{"train", {{"steps", 1000}}}}).isEmpty());
        { normlab::Store recover(path("pair.sqlite").toStdString()); }   // closed cleanly: its log in the file
        QVERIFY(QFile::rename(path("pair.sqlite"), moved));
        QVERIFY(QDir().rename(path("pair.sqlite.checkpoints"), moved + ".checkpoints"));
        QVERIFY2(fs::exists(run_of(moved).checkpoint), run_of(moved).checkpoint.c_str());
        r = cli({"resume", "1", "--store", moved});
        QVERIFY2(r.code == 0 && run_of(moved).steps_done == 1000, qPrintable(r.err));
        // Created through a symlink, opened by its real path.
        QVERIFY(QDir().mkpath(path("real")));
        QVERIFY(QFile::link(path("real"), path("linked")));
        QVERIFY(!killed_store(path("linked/sym.sqlite"), {{"train", {{"steps", 1000}}}}).isEmpty());
        r = cli({"resume", "1", "--store", path("real/sym.sqlite")});
        QVERIFY2(r.code == 0 && run_of(path("real/sym.sqlite")).steps_done == 1000, qPrintable(r.err));
    }

    // 3. A damaged source is refused whole, naming it; the target is untouched.
    void aDamagedSourceIsNotMerged() {
        const QString good = path("good.sqlite"), bad = path("bad.sqlite"), target = path("target.sqlite");
        QVERIFY(cli({"run", write("m.json", tiny(150).dump()), "--store", good}).code == 0);
        QVERIFY(QFile::copy(good, bad));
        // One leaf page of the points table, zeroed.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open_v2(bad.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* st = nullptr;
        QCOMPARE(sqlite3_prepare_v2(db, "SELECT pageno FROM dbstat WHERE name='points' AND pagetype='leaf' ORDER BY pageno",
                                    -1, &st, nullptr), SQLITE_OK);
        std::vector<int64_t> pages;
        while (sqlite3_step(st) == SQLITE_ROW) pages.push_back(sqlite3_column_int64(st, 0));
        sqlite3_finalize(st);
        sqlite3_close(db);
        QVERIFY(pages.size() > 4);
        {
            std::fstream f(bad.toStdString(), std::ios::in | std::ios::out | std::ios::binary);
            f.seekp((pages[pages.size() / 2] - 1) * 4096);
            const std::string zeros(4096, '\0');
            f.write(zeros.data(), 4096);
        }
        QVERIFY(cli({"merge", good, "--into", target}).code == 0);
        const QByteArray target_bytes = bytes_of(target);
        Result r = cli({"merge", bad, "--into", target});
        QVERIFY2(r.code == 5 && r.err.contains(bad) && r.err.contains("damaged"), qPrintable(r.err));
        QVERIFY(bytes_of(target) == target_bytes);
        // Named second, after a good one: still nothing is merged.
        const QString other = path("other-good.sqlite");   // a good source not merged yet
        QVERIFY(cli({"run", write("m2.json", tiny(20).dump()), "--store", other}).code == 0);
        r = cli({"merge", other, bad, "--into", target});
        QVERIFY2(r.code == 5 && r.err.contains("damaged"), qPrintable(r.err));
        QVERIFY(bytes_of(target) == target_bytes);
    }

    // 3b. Ctrl-C while a store is merged: nothing of it is in the target (the stores before it
    //     are), no checkpoint is copied, and the command exits with 130. Before, SIGINT killed
    //     it, leaving the checkpoint files copied so far beside the target, for no run.
    void aMergeStoppedByCtrlCLeavesNothingOfIt() {
        const QString first = path("ctrlc-first.sqlite"), second = path("ctrlc-second.sqlite"),
                      target = path("ctrlc-target.sqlite");
        QVERIFY(cli({"run", write("c1.json", tiny(30).dump()), "--store", first}).code == 0);
        QVERIFY(cli({"run", write("c2.json", tiny(30).dump()), "--store", second}).code == 0);
        QVERIFY(!run_of(second).checkpoint.empty());
        QVERIFY(cli({"merge", first, "--into", target}).code == 0);
        const std::string ckpts = target.toStdString() + ".checkpoints";
        auto files = [&] {
            std::error_code ec;
            int n = 0;
            for (auto it = std::filesystem::directory_iterator(ckpts, ec); !ec && it != std::filesystem::directory_iterator(); ++it) ++n;
            return n;
        };
        const int files_before = files();
        // The target's write lock held here: the merge opens both stores, then waits for it.
        sqlite3* db = nullptr;
        QCOMPARE(sqlite3_open(target.toUtf8().constData(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"merge", second, "--into", target});
        QVERIFY(p.waitForStarted());
        auto holds = [&](const QString& file) {   // the merging process has `file` open
            std::error_code ec;
            const std::string fd_dir = "/proc/" + std::to_string(p.processId()) + "/fd";
            for (auto& e : std::filesystem::directory_iterator(fd_dir, ec))
                if (std::filesystem::read_symlink(e.path(), ec) == std::filesystem::path(file.toStdString())) return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(holds(second) && holds(target), 30000);
        QTest::qWait(200);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QTest::qWait(200);
        sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
        sqlite3_close(db);
        QVERIFY(p.waitForFinished(30000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 130, qPrintable(err));
        QVERIFY2(err.contains("merge stopped: nothing of " + second + " was merged"), qPrintable(err));
        QCOMPARE(normlab::Store(target.toStdString(), normlab::Store::Mode::ReadOnly).runs().size(), size_t(1));
        QCOMPARE(files(), files_before);
        const Result r = cli({"merge", second, "--into", target});   // again, to the end
        QVERIFY2(r.code == 0 && r.out.contains("1 run added"), qPrintable(r.out + r.err));
        QCOMPARE(files(), files_before + 1);
    }

    // 8. A run still training is merged as a snapshot, brought up to date by later merges.
    void aLiveRunIsMergedAsASnapshot() {
        const QString live = path("live.sqlite"), into = path("into.sqlite");
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", write("live.json", tiny(100000).dump()), "--store", live});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(live) >= 1, 60000);
        Result r = cli({"merge", live, "--into", into});
        QVERIFY2(r.code == 0 && r.out.contains("1 run added"), qPrintable(r.out + r.err));
        normlab::RunInfo copy = run_of(into);
        QVERIFY2(copy.status == normlab::RunStatus::Interrupted && copy.pid == 0 &&
                     copy.message.find("still training") != std::string::npos, copy.message.c_str());
        QTest::qWait(1500);
        r = cli({"merge", live, "--into", into});
        QVERIFY2(r.code == 0 && r.out.contains("1 updated"), qPrintable(r.out + r.err));
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        r = cli({"merge", live, "--into", into});
        QVERIFY2(r.code == 0 && r.out.contains("1 updated"), qPrintable(r.out + r.err));
        QCOMPARE(run_of(into).status, normlab::RunStatus::Cancelled);
    }

    // 4. Another process holding the write lock longer than SQLite's old 10 s
    //    does not fail a run; beyond NORMLAB_LOCK_TIMEOUT it ends interrupted, saying why.
    void aLongLockDoesNotFailARun() {
        const QString store = path("locked.sqlite");
        auto hold_lock = [](const QString& file, double seconds) {
            sqlite3* db = nullptr;
            if (sqlite3_open(file.toUtf8().constData(), &db) != SQLITE_OK) return false;
            sqlite3_busy_timeout(db, 30000);
            const bool ok = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
            std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int>(seconds * 1000)));
            sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr);
            sqlite3_close(db);
            return ok;
        };
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", write("lock.json", tiny(100000).dump()), "--store", store});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(store) >= 1, 60000);
        QTest::qWait(500);
        QVERIFY(hold_lock(store, 12));
        QTest::qWait(1000);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 130, p.readAllStandardError().constData());
        normlab::RunInfo r = run_of(store);
        QVERIFY2(r.status == normlab::RunStatus::Cancelled, r.message.c_str());

        // Past the limit: interrupted, with the reason, and resumable.
        const QString store2 = path("locked2.sqlite");
        QProcess q;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("NORMLAB_LOCK_TIMEOUT", "3");
        q.setProcessEnvironment(env);
        q.start(QStringLiteral(NORMLAB_CLI), {"run", write("lock2.json", tiny(100000).dump()), "--store", store2});
        QVERIFY(q.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(store2) >= 1, 60000);
        QTest::qWait(500);
        QVERIFY(hold_lock(store2, 5));
        QVERIFY(q.waitForFinished(30000));
        const QString qerr = QString::fromUtf8(q.readAllStandardError());
        QVERIFY2(q.exitCode() == 4, qPrintable(qerr));
        r = run_of(store2);
        QVERIFY2(r.status == normlab::RunStatus::Interrupted && r.message.find("stayed locked") != std::string::npos,
                 qPrintable(QString::fromStdString(r.message) + " / " + qerr));
        QVERIFY(normlab::resumable(r.status));
    }

    // 6. A resume refuses a data file that changed since, naming it.
    void aChangedDataFileIsNoticedOnResume() {
        std::string text;
        for (int i = 0; i < 400; ++i) text += "The quick brown fox jumps over the lazy dog, line " + std::to_string(i) + ".\n";
        const QString data = write("corpus.txt", text);
        const QString store = path("data.sqlite");
        QVERIFY(!killed_store(store, {{"data", {{"source", "file"}, {"path", data.toStdString()}}},
                                      {"train", {{"steps", 1000}}}}).isEmpty());
        QVERIFY(run_of(store).info.contains("data_hash"));
        std::string changed = text;
        changed[100] = 'X';
        write("corpus.txt", changed);
        Result r = cli({"resume", "1", "--store", store});
        QVERIFY2(r.code == 4 && r.err.contains("data changed") && r.err.contains(data), qPrintable(r.err));
        QCOMPARE(run_of(store).status, normlab::RunStatus::Interrupted);   // its record left as it was
        write("corpus.txt", text);                                        // the bytes it trained on again
        r = cli({"resume", "1", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
    }

    // 7. A store deleted under a running writer stops it with an error.
    void aDeletedStoreStopsTheRun() {
        const QString store = path("gone.sqlite");
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", write("gone.json", tiny(100000).dump()), "--store", store});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(store) >= 1, 60000);
        QTest::qWait(300);
        for (const char* ext : {"", "-wal", "-shm"}) QFile::remove(store + ext);
        QVERIFY(p.waitForFinished(30000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 4 && err.contains("was deleted") && !err.contains("finished after"), qPrintable(err));
    }

    // 12. A disk that fills under the store itself (another program took the
    //     last bytes): the run still records why it ended.
    void aFullDiskStillRecordsWhyTheRunEnded() {
        const QString full = path("full");
        SmallDisk disk(full, "8m");
        if (!disk.mounted()) QSKIP(SmallDisk::why_not());
        // No checkpoint until the end: the store's own log is what needs the space.
        const QString exp = write("fill.json", tiny(1000000, {{"train", {{"checkpoint_seconds", 0}, {"eval_every", 0}}}}).dump());
        const QString store = full + "/s.sqlite";
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", exp, "--store", store});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(store) >= 1, 60000);
        {   // another program fills the disk to its last byte
            std::ofstream filler((full + "/filler").toStdString(), std::ios::binary);
            const std::string block(4096, 'x');
            while (filler.write(block.data(), block.size())) filler.flush();
        }
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 4, qPrintable(err.right(600)));
        QFile::remove(full + "/filler");
        normlab::RunInfo run = run_of(store);
        QVERIFY2(run.status == normlab::RunStatus::Failed && run.message.find("full") != std::string::npos,
                 qPrintable(QString::fromStdString(normlab::status_name(run.status) + ": " + run.message) + " / " + err.right(400)));
        QVERIFY(!QFile::exists(store + ".checkpoints/.space-reserve"));
    }

    // 9. Names hold no control characters; none reaches a script or a terminal raw.
    void namesCannotInjectOrForge() {
        const std::vector<std::pair<json, QString>> cases = {
            {{{"name", "x\ntouch /tmp/normlab-injected"}, {"base", tiny(5)["base"]}}, "name: holds a newline"},
            {{{"name", "x"}, {"base", tiny(5)["base"]}, {"variants", {{{"name", "v\x1b[31m"}}}}}, "variants[0].name"},
            {{{"name", "evil\u202Etxt.exe"}, {"base", tiny(5)["base"]}}, "text-direction"},
        };
        int i = 0;
        for (auto& [spec, expected] : cases) {
            const QString exp = write(QString("name%1.json").arg(i++), spec.dump());
            for (QStringList args : {QStringList{"validate", exp}, QStringList{"sweep", exp, "--slurm", "--dir", path("sw")}}) {
                Result r = cli(args);
                QVERIFY2(r.code == 2 && r.err.contains(expected), qPrintable(args.join(' ') + ": " + r.err));
            }
            QVERIFY(!QFileInfo::exists(path("sw")));
        }
        // A name stored by an older version or by hand is printed escaped.
        const QString store = path("names.sqlite");
        QVERIFY(cli({"run", write("plain.json", tiny(5).dump()), "--store", store}).code == 0);
        {
            normlab::Store s(store.toStdString());
            s.exec("UPDATE runs SET name='row\n2    fake   finished \x1b[2J', tags='[\"a\\u001b]0;x\\u0007\"]' WHERE id=1");
            // and every other text show prints: device, colour, info and versions (a C1 CSI in
            // them: JSON's \u009b), a series' name
            s.exec("UPDATE runs SET device='cpu\x1b[2J', color='#000\x07', info='{\"data\\u009b[2J\": \"x\\u009b[2J\"}',"
                   " versions='{\"n\": \"\\u009b\"}' WHERE id=1");
            s.exec("INSERT INTO series(run_id, name, layer) VALUES(1, 'evil\x1b[2J', -1)");
            QVERIFY(!s.run(1)->name.empty());
            bool refused = false;
            try {
                s.rename_run(1, "bad\x1b");
            } catch (const normlab::StoreError&) {
                refused = true;
            }
            QVERIFY(refused);
        }
        Result r = cli({"list", "--store", store});
        QVERIFY2(r.code == 0 && !r.out.contains('\x1b') && r.out.contains("row\\x0A2"), qPrintable(r.out));
        QCOMPARE(r.out.count('\n'), 2);   // the header and one row: the name forged none
        r = cli({"show", "1", "--store", store});
        QVERIFY2(r.code == 0 && !r.out.contains('\x1b') && !r.out.contains('\x07') && r.out.contains("\\x1B]0;x\\x07"),
                 qPrintable(r.out));
        QVERIFY2(!r.out.contains(QChar(0x9b)) && r.out.contains("device      cpu\\x1B[2J") && r.out.contains("evil\\x1B[2J") &&
                     r.out.contains("data\\x9B[2J  x\\x9B[2J"),
                 qPrintable(r.out));
        r = cli({"show", "x\x1b[2J\nforged", "--store", store});   // an error naming what it was given
        QVERIFY2(r.code == 5 && !r.err.contains('\x1b') && r.err.contains("no run named \"x\\x1B[2J\\x0Aforged\""), qPrintable(r.err));
        for (QStringList args : {QStringList{"cancel", "1"}, QStringList{"delete", "1", "--yes"}}) {   // their lines too
            r = cli(args + QStringList{"--store", store});
            QVERIFY2(r.code == 0 && !r.out.contains('\x1b') && r.out.contains("row\\x0A2"), qPrintable(r.out + r.err));
        }
    }

    // 12. The smaller ones: sweeps' own files, Slurm times, store names too long for their folders.
    void sweepsAndNamesAreCheckedFirst() {
        const QString exp = write("sweep.json", tiny(5).dump());
        Result r = cli({"sweep", exp, "--slurm", "--dir", path("sw1"), "--time", "::::"});
        QVERIFY2(r.code == 2 && r.err.contains("--time"), qPrintable(r.err));
        r = cli({"sweep", exp, "--slurm", "--dir", path("sw1")});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // Moved: its status reads the stores where sweep.json is now.
        QVERIFY(QDir().rename(path("sw1"), path("sw-moved")));
        r = cli({"sweep", "--status", path("sw-moved")});
        QVERIFY2(r.code == 0 && !r.out.contains(path("sw1")), qPrintable(r.out + r.err));
        // A damaged record: refused, not a crash.
        json rec = json::parse(bytes_of(path("sw-moved/sweep.json")).toStdString());
        rec["runs_per_task"] = 0;
        write("sw-moved/sweep.json", rec.dump());
        r = cli({"sweep", "--status", path("sw-moved")});
        QVERIFY2(r.code == 2 && r.err.contains("--runs-per-task"), qPrintable(r.err));
        // A folder with old task stores and no sweep.json.
        QVERIFY(QDir().mkpath(path("sw2/stores")));
        write("sw2/stores/task-000.sqlite", "");
        r = cli({"sweep", exp, "--slurm", "--dir", path("sw2")});
        QVERIFY2(r.code == 2 && r.err.contains("task stores"), qPrintable(r.err));
        // A store name whose checkpoints folder could not exist.
        const QString longname = path(QString(240, 'a') + ".sqlite");
        r = cli({"run", exp, "--store", longname});
        QVERIFY2(r.code == 5 && r.err.contains("243 bytes"), qPrintable(r.err));
        QVERIFY(!QFile::exists(longname));
        // A timeout that is no number of seconds.
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("NORMLAB_LOCK_TIMEOUT", "inf");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(NORMLAB_CLI), {"list", "--store", path("names.sqlite")});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 5 && p.readAllStandardError().contains("NORMLAB_LOCK_TIMEOUT"), "inf accepted");
    }
};

QTEST_GUILESS_MAIN(TestNeighbours)
#include "test_neighbours.moc"
