// The run store: round trip, reading while writing, crashed writers,
// foreign and newer files refused untouched, migration from schema 1.
#include "core/errors.h"
#include "core/palette.h"
#include "core/store/store.h"
#include "tests/test_util.h"
#include "core/train/probes.h"

#include <QtTest/QtTest>

#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <fstream>
#include <set>
#include <thread>

using namespace normlab;
using test::config_error;
using test::read_bytes;
using test::store_error;

namespace {
void raw_exec(const std::string& path, const std::string& sql) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) qWarning("sqlite: %s", err);
    sqlite3_free(err);
    sqlite3_close(db);
    QCOMPARE(rc, SQLITE_OK);
}
}  // namespace

class TestStore : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) { return dir_.filePath(name).toStdString(); }

private Q_SLOTS:
    void init() { QVERIFY(dir_.isValid()); }

    void roundTrip() {
        const std::string p = path("rt.sqlite");
        int64_t id;
        {
            Store s(p);
            QCOMPARE(s.schema_version(), Store::kSchemaVersion);
            const int64_t ex = s.add_experiment("exp", "exp.json", {{"base", {}}});
            id = s.create_run("r1", "pre_ln", {{"scheme", "pre_ln"}}, 7, ex, {"a", "b"});
            s.mark_running(id, "cpu", {{"libtorch", "x"}});
            {
                RunWriter w(s, id);
                for (int i = 0; i < 100; ++i) w.scalar("train/loss", i, 5.0 - i * 0.01);
                w.scalar("train/loss", 100, std::nan(""));                  // a non-finite value survives as NaN
                w.scalar("train/grad_norm", 3, std::numeric_limits<double>::infinity());
                for (int l = 0; l < 3; ++l) w.layer("grad_l1/fc2", l, 0, 0.1 * (l + 1));
                w.distribution(summarize("gain/ffn_norm", 1, 0, {1.0, 2.0, 3.0, 4.0}, 4));
            }
            s.set_info(id, {{"parameters", 1234}});
            s.set_info(id, {{"loss_floor", 1.5}});
            s.finish_run(id, RunStatus::Finished, 100, "", 2.25);
            s.set_notes(id, "looks good");
            s.set_tags(id, {"x"});
            s.rename_run(id, "renamed");
        }
        Store s(p);
        auto r = s.run(id);
        QVERIFY(r.has_value());
        QCOMPARE(r->name, std::string("renamed"));
        QCOMPARE(r->status, RunStatus::Finished);
        QCOMPARE(r->seed, uint64_t(7));
        QCOMPARE(r->final_loss, 2.25);
        QCOMPARE(r->notes, std::string("looks good"));
        QCOMPARE(r->tags, std::vector<std::string>{"x"});
        QCOMPARE(r->info["parameters"].get<int>(), 1234);
        QCOMPARE(r->info["loss_floor"].get<double>(), 1.5);
        QCOMPARE(r->device, std::string("cpu"));
        QCOMPARE(s.find_run("renamed").id, id);
        QCOMPARE(s.find_run(std::to_string(id)).id, id);
        QVERIFY(store_error([&] { s.find_run("nope"); }).find("no run named") != std::string::npos);
        auto series = s.series(id);
        QCOMPARE(series.size(), size_t(5));
        const int64_t loss = s.series_id(id, "train/loss");
        auto pts = s.points(loss);
        QCOMPARE(pts.size(), size_t(101));
        QCOMPARE(pts[10].value, 4.9);
        QVERIFY(std::isnan(pts[100].value));
        QCOMPARE(s.points(loss, 95).size(), size_t(5));                      // incremental reads
        QVERIFY(std::isinf(s.points(s.series_id(id, "train/grad_norm"))[0].value));
        QCOMPARE(s.points(s.series_id(id, "grad_l1/fc2", 2))[0].value, 0.3);
        auto d = s.distributions(id, "gain/ffn_norm");
        QCOMPARE(d.size(), size_t(1));
        QCOMPARE(d[0].median, 2.5);
        QCOMPARE(d[0].q1, 1.75);
        QCOMPARE(d[0].hist.size(), size_t(4));
        QCOMPARE(d[0].layer, 1);
        s.truncate_for_resume(id, 50);
        QCOMPARE(s.points(loss).size(), size_t(50));
        s.delete_run(id);
        QVERIFY(!s.run(id).has_value());
        QVERIFY(s.series(id).empty());
    }

    // A series created in a transaction that rolls back is forgotten with it:
    // its id goes to the next series inserted, and a cached id would send the
    // first run's later points into that one (a mirror's failed snapshot).
    void rolledBackSeriesAreForgotten() {
        Store s(path("rollback.sqlite"));
        const int64_t a = s.create_run("a", "pre_ln", nlohmann::json::object(), 1);
        const int64_t b = s.create_run("b", "pre_ln", nlohmann::json::object(), 1);
        int64_t gone = 0;
        {
            Store::Transaction tx(s);
            gone = s.series_id(a, "train/loss");
        }   // no commit: rolled back
        const int64_t other = s.series_id(b, "train/loss");
        const int64_t again = s.series_id(a, "train/loss");
        QVERIFY(gone > 0 && other > 0 && again > 0);
        QVERIFY2(again != other, "run a's series was given run b's id");
        QCOMPARE(s.series(a).size(), size_t(1));
        QCOMPARE(s.series(b).size(), size_t(1));
    }

    void readersSeeRowsWhileARunWrites() {
        const std::string p = path("concurrent.sqlite");
        int64_t id, sid;
        {
            Store s(p);
            id = s.create_run("live", "pre_ln", json_object(), 1);
            sid = s.series_id(id, "train/loss");
        }
        std::atomic<bool> done{false};
        std::thread writer([&] {
            Store s(p);                       // its own connection
            RunWriter w(s, id, 0.0);
            for (int b = 0; b < 40; ++b) {
                for (int i = 0; i < 500; ++i) w.scalar("train/loss", b * 500 + i, i);
                w.flush();
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
            done = true;
        });
        Store reader(p);
        size_t last = 0, reads = 0, partial = 0;
        int64_t after = -1;
        while (!done || last < 20000) {
            auto fresh = reader.points(sid, after);          // only the new rows
            if (!fresh.empty()) after = fresh.back().step;
            last += fresh.size();
            QVERIFY(last % 500 == 0);                        // whole transactions only
            if (last > 0 && last < 20000) ++partial;
            ++reads;
            if (done && last >= 20000) break;
        }
        writer.join();
        QCOMPARE(last, size_t(20000));
        QVERIFY2(partial > 0, "the reader never saw a run in progress");
        Q_UNUSED(reads);
    }

    // A reader opened while no writer had the store open (read as the file was,
    // leaving no -wal/-shm) sees what a writer starting later commits: what
    // `stream --follow` is, started on a server before the detached trainer.
    void aReaderOpenedBeforeTheWriterSeesItsRows() {
        const std::string p = path("follow.sqlite");
        int64_t id;
        {
            Store s(p);
            id = s.create_run("queued", "pre_ln", json_object(), 1);
        }
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        {
            Store idle(p, Store::Mode::ReadOnly);   // no writer comes: nothing is left beside the store
            Store::ReadSnapshot snap(idle);
            QCOMPARE(idle.runs().size(), size_t(1));
        }
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-shm")));
        auto seen = [&](Store& reader, const char* series) {
            Store::ReadSnapshot snap(reader);
            for (const SeriesInfo& i : reader.series(id, false))
                if (i.name == series) return reader.points(i.id, -1).size();
            return size_t(0);
        };
        {
            Store reader(p, Store::Mode::ReadOnly);
            QCOMPARE(seen(reader, "train/loss"), size_t(0));
            Store writer(p);                        // starts after the reader, stays open
            RunWriter w(writer, id, 0.0);
            for (int i = 0; i < 50; ++i) w.scalar("train/loss", i, i);
            w.flush();
            QCOMPARE(seen(reader, "train/loss"), size_t(50));
            for (int i = 50; i < 80; ++i) w.scalar("train/loss", i, i);
            w.flush();
            QCOMPARE(seen(reader, "train/loss"), size_t(80));
        }
        { Store last(p); }                          // the last writer out folds the log into the file
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        Store reader(p, Store::Mode::ReadOnly);
        QCOMPARE(seen(reader, "train/loss"), size_t(80));
        {
            Store writer(p);                        // a writer that comes and goes between two reads
            RunWriter w(writer, id, 0.0);
            for (int i = 0; i < 20; ++i) w.scalar("train/val_loss", i, i);
        }
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        QCOMPARE(seen(reader, "train/val_loss"), size_t(20));
        QCOMPARE(seen(reader, "train/loss"), size_t(80));
    }

    // A reader held open without a snapshot (a store compared in the window,
    // `normlab-cli stream` between polls) while another process deletes runs,
    // adds one and compacts the store: every later read is of the store as it
    // is now. Read through the connection opened on the old file, SQLite
    // returned a count of rows the store never held.
    void aReaderHeldOpenReadsTheStoreAsItIsNow() {
        const std::string p = path("held.sqlite");
        int64_t old_run;
        {
            Store s(p);
            old_run = s.create_run("old", "pre_ln", json_object(), 1);
            RunWriter w(s, old_run, 0.0);
            for (int i = 0; i < 20000; ++i) w.scalar("train/loss", i, i * 0.5);
        }
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        Store reader(p, Store::Mode::ReadOnly);
        QCOMPARE(reader.points(reader.series_id(old_run, "train/loss")).size(), size_t(20000));
        int64_t new_run;
        {
            Store writer(p);
            writer.delete_run(old_run);
            new_run = writer.create_run("new", "post_ln", json_object(), 2);
            RunWriter w(writer, new_run, 0.0);
            for (int i = 0; i < 30000; ++i) w.scalar("train/loss", i, -i);
            w.flush();
            writer.compact();
        }
        QVERIFY(!QFile::exists(QString::fromStdString(p + "-wal")));
        const std::vector<RunInfo> runs = reader.runs();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].id, new_run);
        QCOMPARE(runs[0].name, std::string("new"));
        QVERIFY(!reader.run(old_run));
        QVERIFY(reader.series(old_run).empty());
        QCOMPARE(reader.series_id(old_run, "train/loss"), int64_t(0));
        const std::vector<Point> pts = reader.points(reader.series_id(new_run, "train/loss"));
        QCOMPARE(pts.size(), size_t(30000));
        QCOMPARE(pts.back().value, -29999.0);
        const std::vector<SeriesInfo> series = reader.series(new_run);
        QCOMPARE(series.size(), size_t(1));
        QCOMPARE(series[0].count, int64_t(30000));
        // The file replaced by something that is not a store: the read fails, naming it, and the
        // reader reads again once the store is back.
        QVERIFY(QFile::rename(QString::fromStdString(p), QString::fromStdString(p + ".away")));
        { std::ofstream(p) << "not a store"; }
        QVERIFY(store_error([&] { reader.runs(); }).find(p) != std::string::npos);
        QVERIFY(QFile::remove(QString::fromStdString(p)));
        QVERIFY(QFile::rename(QString::fromStdString(p + ".away"), QString::fromStdString(p)));
        QCOMPARE(reader.runs().size(), size_t(1));
    }

    // Readers opened while no writer has the store open, racing writers that
    // come and go (each rewriting a series whole, compacting now and then):
    // every read is of one state the store was in, and not older than the
    // last writer to close before the read began. (A connection read the file
    // as it first was, for good: SQLite keeps its pages.)
    void readersRacingWritersReadTheStoreAsItIs() {
        const std::string p = path("race.sqlite");
        constexpr int kPoints = 3000;
        int64_t id;
        {
            Store s(p);
            id = s.create_run("raced", "pre_ln", json_object(), 1);
            RunWriter w(s, id, 1e9);
            for (int i = 0; i < kPoints; ++i) w.scalar("train/loss", i, 0.0);
        }
        std::atomic<bool> stop{false};
        std::atomic<int> closed{0};   // the generation of the last writer closed
        std::string writer_failed;
        std::thread writer([&] {
            for (int g = 1; !stop; ++g) try {
                {
                    Store s(p);
                    s.truncate_for_resume(id, 0);
                    {
                        RunWriter w(s, id, 1e9);
                        for (int i = 0; i < kPoints; ++i) w.scalar("train/loss", i, g);
                    }
                    if (g % 8 == 0) s.compact();
                }
                closed = g;
                std::this_thread::sleep_for(std::chrono::milliseconds(5 * (g % 4)));
            } catch (const std::exception& e) {
                writer_failed = e.what();
                return;
            }
        });
        int reads = 0;
        std::string wrong;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(1500);
        while (wrong.empty() && (std::chrono::steady_clock::now() < until || closed < 10)) {
            try {
                Store reader(p, Store::Mode::ReadOnly);
                for (int k = 0; k < 20 && wrong.empty(); ++k, ++reads) {
                    const int before = closed;
                    const std::vector<Point> pts = reader.points(reader.series_id(id, "train/loss"));
                    if (pts.empty()) continue;   // between a truncation and its rewrite
                    bool one = pts.size() == size_t(kPoints);
                    for (const Point& q : pts) one = one && q.value == pts.front().value;
                    if (!one || pts.front().value < before)
                        wrong = std::to_string(pts.size()) + " points, from " + std::to_string(pts.front().value) + " to " +
                                std::to_string(pts.back().value) + ", read after writer " + std::to_string(before) + " closed";
                }
            } catch (const std::exception& e) {
                wrong = std::string("a reader failed: ") + e.what();
            }
        }
        stop = true;
        writer.join();
        QVERIFY2(writer_failed.empty(), writer_failed.c_str());
        QVERIFY2(wrong.empty(), wrong.c_str());
        qInfo("%d reads beside %d writers", reads, closed.load());
    }

    void killedWriterLeavesAnInterruptedRun() {
        const std::string p = path("killed.sqlite");
        { Store s(p); }
        int fds[2];
        QCOMPARE(pipe(fds), 0);
        const pid_t child = fork();
        if (child == 0) {
            Store s(p);
            const int64_t id = s.create_run("doomed", "post_ln", json_object(), 1);
            s.mark_running(id, "cpu", json_object());
            RunWriter w(s, id);
            for (int i = 0; i < 10; ++i) w.scalar("train/loss", i, 1.0);
            w.flush();
            s.heartbeat(id, 10);
            char c = 1;
            (void)!write(fds[1], &c, 1);
            for (;;) pause();                                // killed here
        }
        char c;
        QCOMPARE(read(fds[0], &c, 1), ssize_t(1));
        {
            Store s(p);                                      // writer alive: still running
            QVERIFY(s.recovered().empty());
            QCOMPARE(s.runs().at(0).status, RunStatus::Running);
        }
        kill(child, SIGKILL);
        // Dead but not yet reaped by its parent (a zombie, as under a launcher that has not
        // waited yet): it writes nothing more, and its run reads interrupted already.
        siginfo_t info{};
        QCOMPARE(waitid(P_PID, child, &info, WEXITED | WNOWAIT), 0);
        {
            Store ro(p, Store::Mode::ReadOnly);
            QCOMPARE(ro.runs().at(0).status, RunStatus::Interrupted);
        }
        int status = 0;
        waitpid(child, &status, 0);
        QVERIFY(WIFSIGNALED(status));
        Store s(p);
        QCOMPARE(s.recovered().size(), size_t(1));
        auto r = s.runs().at(0);
        QCOMPARE(r.status, RunStatus::Interrupted);
        QVERIFY2(r.message.find("ended without finishing the run, after step 10") != std::string::npos, r.message.c_str());
        QCOMPARE(s.points(s.series_id(r.id, "train/loss")).size(), size_t(10));   // its data is kept
        close(fds[0]);
        close(fds[1]);
    }

    void foreignFilesAreRefusedUntouched() {
        const std::string junk = path("junk.sqlite");
        {
            std::ofstream f(junk, std::ios::binary);
            f << "this is a text file, not a database\n";
        }
        const std::string before = read_bytes(junk);
        auto e = store_error([&] { Store s(junk); });
        QVERIFY2(e.find("is not a NormLab run store (not an SQLite database). It was left untouched") != std::string::npos, e.c_str());
        QCOMPARE(read_bytes(junk), before);

        const std::string other = path("other.sqlite");
        raw_exec(other, "CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES(1, 'x');");
        const std::string other_before = read_bytes(other);
        e = store_error([&] { Store s(other); });
        QVERIFY2(e.find("is an SQLite database but not a NormLab run store") != std::string::npos, e.c_str());
        QCOMPARE(read_bytes(other), other_before);
    }

    void newerStoresAreRefusedUntouched() {
        const std::string p = path("newer.sqlite");
        { Store s(p); s.create_run("r", "pre_ln", json_object(), 1); }
        raw_exec(p, "UPDATE meta SET value='99' WHERE key='schema_version';");
        const std::string before = read_bytes(p);
        auto e = store_error([&] { Store s(p); });
        QVERIFY2(e.find("was written by a newer NormLab (store schema 99; this build reads up to 3)") != std::string::npos, e.c_str());
        QCOMPARE(read_bytes(p), before);
    }

    void migratesFromSchemaOne() {
        const std::string p = path("v1.sqlite");
        raw_exec(p, read_bytes(NORMLAB_SOURCE_DIR "/tests/fixtures/store_v1.sql"));
        Store s(p);
        QCOMPARE(s.schema_version(), 3);
        auto r = s.run(1);
        QVERIFY(r.has_value());
        QCOMPARE(r->name, std::string("legacy-run"));
        QCOMPARE(r->final_loss, 2.5);
        QCOMPARE(r->heartbeat, 0.0);                          // the column schema 2 added
        QCOMPARE(s.points(s.series_id(1, "train/loss")).size(), size_t(2));
        QCOMPARE(r->color, default_run_color(1));             // schema 3: an earlier run gets its default colour
        s.heartbeat(1, 100);                                  // and it is writable
        QVERIFY(s.run(1)->heartbeat > 0);
    }

    // A run's colour is chosen when it is created and stored with it; a user's
    // choice persists; a schema-2 store opens read-only unchanged, its runs in
    // their default colours.
    void runColours() {
        const std::string p = path("colours.sqlite");
        {
            Store s(p);
            std::vector<int64_t> ids;
            for (int i = 0; i < 12; ++i) ids.push_back(s.create_run("r" + std::to_string(i), "pre_ln", nlohmann::json::object(), 1));
            std::set<std::string> first10;
            for (int i = 0; i < 10; ++i) first10.insert(s.run(ids[i])->color);
            QCOMPARE(first10.size(), size_t(10));              // ten runs, ten colours
            for (auto& c : first10) QVERIFY(is_hex_color(c));
            s.set_run_color(ids[3], "#123ABC");
            QCOMPARE(s.run(ids[3])->color, std::string("#123ABC"));
            QVERIFY(config_error([&] { s.set_run_color(ids[3], "red"); }).find("color") == 0);
            QCOMPARE(s.run(ids[3])->color, std::string("#123ABC"));   // a refused colour changes nothing
            s.set_run_color(ids[3], "");                       // back to its default
            QCOMPARE(s.run(ids[3])->color, default_run_color(ids[3]));
        }
        {
            Store s(p, Store::Mode::ReadOnly);
            QCOMPARE(s.run(1)->color, default_run_color(1));
        }
        // The same store as schema 2 wrote it: no colour column.
        raw_exec(p, "ALTER TABLE runs DROP COLUMN color; UPDATE meta SET value='2' WHERE key='schema_version';"
                    "PRAGMA user_version=2;");
        const std::string before = read_bytes(p);
        {
            Store s(p, Store::Mode::ReadOnly);
            QCOMPARE(s.runs().size(), size_t(12));
            QCOMPARE(s.run(5)->color, default_run_color(5));
        }
        QCOMPARE(read_bytes(p), before);
        Store w(p);                                           // writable: migrated to 3, nothing lost
        QCOMPARE(w.schema_version(), 3);
        QCOMPARE(w.runs().size(), size_t(12));
        QCOMPARE(w.run(5)->color, default_run_color(5));
    }

    void summaryMatchesBruteForce() {
        std::vector<double> v;
        for (int i = 0; i < 101; ++i) v.push_back(std::sin(i * 0.7) * 3 + 1);
        Distribution d = summarize("g", 0, 0, v, 10);
        std::vector<double> sorted = v;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(d.min, sorted.front());
        QCOMPARE(d.max, sorted.back());
        QCOMPARE(d.median, sorted[50]);
        QCOMPARE(d.q1, sorted[25]);
        QCOMPARE(d.q3, sorted[75]);
        double sum = 0;
        for (double x : v) sum += x;
        QVERIFY(std::abs(d.mean - sum / v.size()) < 1e-12);
        float total = 0;
        for (float c : d.hist) total += c;
        QCOMPARE(total, 101.f);
        QCOMPARE(median({3, 1, 2, 10}), 2.5);
    }

    void histogramOfEqualValuesIsCentredOnThem() {
        // Gains at initialization are all exactly 1: the one filled bin must be
        // centred on 1 (the issue saw the histogram peak at 1.03), for odd and even bin counts.
        for (int bins : {32, 31, 10}) {
            Distribution d = summarize("gain", 0, 0, std::vector<double>(64, 1.0), bins);
            const double w = (d.hist_hi - d.hist_lo) / bins;
            int filled = -1;
            for (int b = 0; b < bins; ++b)
                if (d.hist[b] > 0) {
                    QCOMPARE(filled, -1);
                    filled = b;
                }
            QVERIFY(filled >= 0);
            QCOMPARE(d.hist[filled], 64.f);
            QVERIFY2(std::abs(d.hist_lo + (filled + 0.5) * w - 1.0) < 1e-12,
                     qPrintable(QString("bins %1: bin %2 centred at %3").arg(bins).arg(filled).arg(d.hist_lo + (filled + 0.5) * w)));
        }
    }

private:
    static nlohmann::json json_object() { return nlohmann::json::object(); }
};

QTEST_GUILESS_MAIN(TestStore)
#include "test_store.moc"
