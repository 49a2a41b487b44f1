// normlab-cli as a hostile user meets it: every bad input is refused with
// exit 2 and the field named before a store exists; Ctrl-C and SIGTERM stop
// long work within a second, and one stop sent twice at once is one; a hang-up or
// a closed pipe stops it as Ctrl-C does; killed, it leaves no run queued; two resumes of one run train it once; a
// relative --store works from anywhere; a queued run deleted or cancelled, or one resumed elsewhere, is skipped; a full disk ends a run cleanly.
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <sys/stat.h>
#include <filesystem>
#include <fstream>
#include <sys/mount.h>
#include <sqlite3.h>
#include <unistd.h>

using nlohmann::json;
namespace fs = std::filesystem;

using namespace cli_harness;

class TestCliSafety : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    QString write(const QString& name, const std::string& text) { return write_file(dir_.filePath(name), text); }

    // Stops `p` (SIGSTOP; SIGCONT goes on) where it holds no write transaction on `store`, so that another
    // process can write there meanwhile: held inside one, it would keep every other writer waiting.
    static bool hold_outside_a_write(QProcess& p, const QString& store) {
        const pid_t pid = static_cast<pid_t>(p.processId());
        auto stopped = [&] {   // "pid (comm) T ...": the state after the command's name
            std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
            const std::string stat((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
            const size_t close = stat.rfind(')');
            return close != std::string::npos && close + 2 < stat.size() && stat[close + 2] == 'T';
        };
        for (int tries = 0; tries < 500; ++tries) {
            ::kill(pid, SIGSTOP);
            if (!QTest::qWaitFor(stopped, 10000)) return false;
            sqlite3* db = nullptr;
            bool free = false;
            if (sqlite3_open_v2(store.toUtf8().constData(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
                sqlite3_busy_timeout(db, 0);
                free = sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
                if (free) sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
            }
            sqlite3_close(db);
            if (free) return true;
            ::kill(pid, SIGCONT);
            QTest::qWait(20);
        }
        return false;
    }

private Q_SLOTS:
    void badInputIsRefusedBeforeAStoreExists() {
        const QString empty = write("empty.txt", ""), shortf = write("short.txt", std::string(30, 'x'));
        const std::vector<std::pair<std::string, std::string>> cases = {
            {tiny(5, {{"model", {{"d_model", 4294967360.0}}}}).dump(), "base.model.d_model"},
            {tiny(5, {{"train", {{"steps", 4294967297.0}}}}).dump(), "base.train.steps"},
            {tiny(5, {{"model", {{"n_layers", -4294967294.0}}}}).dump(), "base.model.n_layers"},
            {tiny(5, {{"train", {{"seed", -1.0}}}}).dump(), "base.train.seed"},
            {R"({"base": {"model": {"d_model": 64, "d_model": 128}}})", "base.model.d_model: this key appears twice"},
            {std::string(100000, '[') + std::string(100000, ']'), "nested more than 64 levels"},
            {R"({"base": {"optim": {"lr": 1e400}}})", "base.optim.lr"},
            {tiny(5, {{"model", {{"d_ff", 2e9}}}}).dump(), "base.model.d_ff"},
            {tiny(5, {{"train", {{"batch_size", 1e9}}}}).dump(), "base.train.batch_size"},
            {tiny(5, {{"model", {{"d_model", 16384}, {"n_layers", 512}}}}).dump(), "the run would need about"},
            {tiny(5, {{"model", {{"init_std", 1e300}}}}).dump(), "base.model.init_std"},
            {tiny(5, {{"optim", {{"schedule", {{"kind", "ramp"}, {"ramp_increment", 1e300}}}}}}).dump(),
             "base.optim.schedule.ramp_increment"},
            {tiny(5, {{"train", {{"eval_batches", 2e9}}}}).dump(), "base.train.eval_batches"},
            {tiny(5, {{"train", {{"threads", 100000}}}}).dump(), "base.train.threads"},
            {tiny(5, {{"data", {{"source", "file"}, {"path", "/no/such/file"}}}}).dump(), "data.path"},
            {tiny(5, {{"data", {{"source", "file"}, {"path", empty.toStdString()}}}}).dump(), "too short"},
            {tiny(5, {{"data", {{"source", "file"}, {"path", shortf.toStdString()}}}}).dump(), "too short"},
            {tiny(5, {{"data", {{"source", "file"}, {"path", dir_.path().toStdString()}}}}).dump(), "is a folder"},
            {tiny(5, {{"data", {{"source", "file"}, {"path", "/dev/zero"}}}}).dump(), "not a regular file"},
        };
        int n = 0;
        for (auto& [text, expected] : cases) {
            const QString exp = write(QString("bad%1.json").arg(n), text);
            const QString store = dir_.filePath(QString("never%1.sqlite").arg(n++));
            for (const char* cmd : {"validate", "run"}) {
                Result r = cli({cmd, exp, "--store", store}, {}, 30000);
                QVERIFY2(r.code == 2 && r.err.contains(QString::fromStdString(expected)),
                         qPrintable(QString("%1 %2: exit %3: %4").arg(cmd).arg(QString::fromStdString(expected)).arg(r.code).arg(r.err.left(300))));
            }
            QVERIFY2(!QFile::exists(store), qPrintable(store));
        }
        // 64 sweep axes of two values: refused, not "0 runs".
        json sweep = json::object();
        for (int i = 0; i < 64; ++i) sweep["probes.hist_bins_" + std::to_string(i)] = {2, 3};
        json big = tiny(5);
        big["sweep"] = sweep;
        Result r = cli({"validate", write("sweep.json", big.dump())});
        QVERIFY2(r.code == 2 && r.err.contains("sweep: expands to more than 10000 runs"), qPrintable(r.err));
        // Files that are not experiments, bad options, CUDA without a GPU, URIs.
        const QString sparse = dir_.filePath("huge.json");
        { std::ofstream f(sparse.toStdString()); }
        fs::resize_file(sparse.toStdString(), 64u << 20);
        QElapsedTimer t;
        t.start();
        r = cli({"validate", sparse});
        QVERIFY2(r.code == 2 && r.err.contains("MiB") && t.elapsed() < 5000, qPrintable(r.err));
        r = cli({"run", dir_.path()});
        QVERIFY2(r.code == 2 && r.err.contains("is a folder"), qPrintable(r.err));
        const QString good = write("good.json", tiny(5).dump());
        r = cli({"run", good, "--threads", "-5", "--store", dir_.filePath("t.sqlite")});
        QVERIFY2(r.code == 2 && r.err.contains("--threads -5 is out of range"), qPrintable(r.err));
        r = cli({"run", good, "--device", "cuda", "--store", dir_.filePath("cuda.sqlite")});
        if (!r.err.contains("cuda:0")) {
            QVERIFY2(r.code == 2 && r.err.contains("train.device"), qPrintable(r.err));
            QVERIFY(!QFile::exists(dir_.filePath("cuda.sqlite")));
        }
        r = cli({"run", good, "--store", "file:" + dir_.filePath("x.sqlite") + "?mode=memory"}, dir_.path());
        QVERIFY2(r.code == 5 && r.err.contains("SQLite URI"), qPrintable(r.err));
        QVERIFY(!QFileInfo::exists(dir_.filePath("file:")));
    }

    void signalsStopLongWorkWithinASecond() {
        // Generating 2 GB of Markov data takes many seconds: Ctrl-C stops it.
        const QString slow = write("slowdata.json", tiny(5, {{"data", {{"markov", {{"length", 2147483648ll}}}}}}).dump());
        const QString store = dir_.filePath("signals.sqlite");
        for (int sig : {SIGINT, SIGTERM}) {
            QProcess p;
            p.start(QStringLiteral(NORMLAB_CLI), {"run", slow, "--store", store});
            QVERIFY(p.waitForStarted());
            // Until the run is queued (then its data load starts), however slow the machine
            // (a sanitizer build under load took over 2 s); then into the load.
            const size_t before = sig == SIGINT ? 0 : 1;
            QTRY_VERIFY_WITH_TIMEOUT(runs_in(store) > before, 60000);
            QTest::qWait(1000);
            QElapsedTimer t;
            t.start();
            ::kill(static_cast<pid_t>(p.processId()), sig);
            QVERIFY(p.waitForFinished(10000));
            qInfo("signal %d: the process ended %lld ms after it", sig, static_cast<long long>(t.elapsed()));
            QVERIFY2(t.elapsed() < 1500, qPrintable(QString("took %1 ms").arg(t.elapsed())));
            QCOMPARE(p.exitCode(), 130);
        }
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        for (auto& r : s.runs()) {
            QCOMPARE(r.status, normlab::RunStatus::Cancelled);
            QVERIFY2(r.message.find("before training started") != std::string::npos, r.message.c_str());
        }
    }

    // One stop sent twice at once — GNU timeout signals its command and then the command's process
    // group, a scheduler every process of a job — is one Ctrl-C: the run is kept as cancelled with
    // its checkpoint. It used to count as a second Ctrl-C, which ends the process at once, whenever
    // the first had been taken before the second arrived (the run then ended `interrupted`).
    void oneStopSentTwiceIsOneStop() {
        const QString exp = write("twice-stopped.json", tiny(100000).dump());
        const QString store = dir_.filePath("twice-stopped.sqlite");
        QProcess p;
        const QString out = start_training(p, {"run", exp, "--store", store});
        QVERIFY2(trains(out), qPrintable("no progress line: " + out));
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        ::usleep(50000);   // the first is taken by then: the two cannot merge into one pending signal
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 130);
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        const auto runs = s.runs();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].status, normlab::RunStatus::Cancelled);
        QVERIFY(runs[0].steps_done > 0);
        QVERIFY(!runs[0].checkpoint.empty());
    }

    void aStoppedExperimentLeavesNoRunQueued() {
        json two = tiny(100000);
        two["variants"] = {{{"scheme", "pre_ln"}}, {{"scheme", "post_ln"}}};
        const QString exp = write("two.json", two.dump());
        const QString store = dir_.filePath("stopped.sqlite");
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", exp, "--store", store});
        QVERIFY(p.waitForStarted());
        // Until both runs are queued, however slow the machine (a fixed 2.5 s was too short for
        // test_cli's like test under the sanitizers beside test_neighbours' load), then into the first.
        QTRY_VERIFY_WITH_TIMEOUT(runs_in(store) >= 2, 60000);
        QTest::qWait(1000);
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitCode(), 130);
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        const auto runs = s.runs();
        QCOMPARE(runs.size(), size_t(2));
        QCOMPARE(runs[0].status, normlab::RunStatus::Cancelled);
        QCOMPARE(runs[1].status, normlab::RunStatus::Cancelled);
        QVERIFY2(runs[1].message.find("not started") != std::string::npos &&
                     runs[1].message.find("normlab-cli resume 2") != std::string::npos, runs[1].message.c_str());
    }

    // Killed outright (kill -9, the OOM killer), an experiment leaves no run queued with nobody to
    // train it: the runs after the one it trained show as interrupted, and resume trains them.
    void aKilledExperimentLeavesNoRunQueued() {
        json two = tiny(100000);
        two["variants"] = {{{"scheme", "pre_ln"}}, {{"scheme", "post_ln"}, {"train", {{"steps", 20}}}}};
        const QString exp = write("killed.json", two.dump()), store = dir_.filePath("killed.sqlite");
        QProcess p;
        const QString out = start_training(p, {"run", exp, "--store", store});
        QVERIFY2(trains(out), qPrintable("no progress line: " + out));
        p.kill();
        QVERIFY(p.waitForFinished(10000));
        Result r = cli({"list", "--store", store});
        QVERIFY2(r.code == 0 && !r.out.contains("queued") && r.out.count("interrupted") == 2, qPrintable(r.out + r.err));
        r = cli({"show", "2", "--store", store});
        QVERIFY2(r.out.contains("that ended before it trained it; 'normlab-cli resume 2' starts it"), qPrintable(r.out));
        r = cli({"resume", "2", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // It never trained: it starts, said so, not "restarts" as if work were lost.
        QVERIFY2(r.err.contains("run 2 never trained: it starts now") && !r.err.contains("restart"), qPrintable(r.err));
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        QCOMPARE(s.run(2)->status, normlab::RunStatus::Finished);
        QCOMPARE(s.run(2)->steps_done, int64_t(20));
    }

    // The terminal or ssh session an experiment was started from closes (SIGHUP), or what read its
    // output goes away (`| head`: SIGPIPE): each stops it as Ctrl-C does — the run kept as cancelled
    // with its checkpoint and the reason, the runs after it cancelled, exit 130. Both used to end the
    // process mid-step: the run `interrupted`, the runs after it queued with nobody to train them.
    // Under `nohup` the hang-up stays ignored and training goes on.
    void aHangUpOrAClosedPipeStopsLikeCtrlC() {
        json two = tiny(100000);
        two["variants"] = {{{"scheme", "pre_ln"}}, {{"scheme", "post_ln"}}};
        const QString exp = write("hangup.json", two.dump());
        auto check = [](const QString& store, const char* why) {
            normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
            const auto runs = s.runs();
            QCOMPARE(runs.size(), size_t(2));
            QCOMPARE(runs[0].status, normlab::RunStatus::Cancelled);
            QVERIFY2(runs[0].message.find(why) != std::string::npos, runs[0].message.c_str());
            QVERIFY(runs[0].steps_done > 0);
            QVERIFY(!runs[0].checkpoint.empty());
            QCOMPARE(runs[1].status, normlab::RunStatus::Cancelled);
        };
        {
            const QString store = dir_.filePath("hangup.sqlite");
            QProcess p;
            const QString out = start_training(p, {"run", exp, "--store", store});
            QVERIFY2(trains(out), qPrintable("no progress line: " + out));
            ::kill(static_cast<pid_t>(p.processId()), SIGHUP);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 130);
            check(store, "(SIGHUP)");
        }
        {
            // `| head -n 3`: the queued line and two progress lines (a tenth of the steps apart when not
            // on a terminal), then the pipe is closed; the next tenth's line meets it.
            json shorter = two;
            shorter["base"]["train"]["steps"] = 10000;
            const QString exp = write("pipe.json", shorter.dump());
            const QString store = dir_.filePath("pipe.sqlite"), rc = dir_.filePath("pipe.rc");
            const QString script = QString("'%1' run '%2' --store '%3' 2>&1 | head -n 3 >/dev/null; echo ${PIPESTATUS[0]} > '%4'")
                                       .arg(NORMLAB_CLI, exp, store, rc);
            QProcess p;
            p.start("bash", {"-c", script});
            QVERIFY(p.waitForStarted());
            QVERIFY(p.waitForFinished(120000));
            QCOMPARE(QString::fromUtf8(bytes_of(rc)).trimmed(), QString("130"));
            check(store, "a closed pipe");
        }
        {
            const QString store = dir_.filePath("nohup.sqlite");
            QProcess p;
            const QString out = start_training(p, {QStringLiteral(NORMLAB_CLI), "run", exp, "--store", store}, "nohup");
            QVERIFY2(trains(out), qPrintable("no progress line: " + out));
            ::kill(static_cast<pid_t>(p.processId()), SIGHUP);
            QVERIFY(!p.waitForFinished(2000));   // ignored: still training
            ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(30000));
            QCOMPARE(p.exitCode(), 130);
            check(store, "cancelled by the user");
        }
    }

    // A queued run deleted or cancelled (normlab-cli cancel) while an experiment trains in a terminal
    // is skipped: the runs after it still train (its absence stopped the experiment and cancelled them
    // all; its cancelling ended the experiment "run 3 is cancelled, not queued", exit 4).
    void aQueuedRunDeletedOrCancelledIsSkipped() {
        json four = tiny(20);
        four["variants"] = {{{"name", "long"}, {"scheme", "pre_ln"}, {"train", {{"steps", 100000}}}},
                            {{"name", "deleted"}, {"scheme", "post_ln"}},
                            {{"name", "cancelled"}, {"scheme", "deepnorm"}},
                            {{"name", "after"}, {"scheme", "ngpt"}}};
        const QString exp = write("four.json", four.dump()), store = dir_.filePath("skip.sqlite");
        QProcess p;
        QString out = start_training(p, {"run", exp, "--store", store});
        QVERIFY2(trains(out), qPrintable(out));
        normlab::Store(store.toStdString()).delete_run(2);
        Result r = cli({"cancel", "3", "--store", store});
        QVERIFY2(r.code == 0 && r.out.contains("3\tcancelled\tcancelled"), qPrintable(r.out + r.err));
        QCOMPARE(cli({"cancel", "1", "--store", store}).code, 0);   // the long run stops; the experiment goes on
        QVERIFY(p.waitForFinished(120000));
        out += QString::fromUtf8(p.readAll());
        QVERIFY2(out.contains("[2/4] deleted: deleted before it started; skipped") &&
                     out.contains("[3/4] cancelled: cancelled before it started; skipped"),
                 qPrintable(out));
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        const auto runs = s.runs();
        QCOMPARE(runs.size(), size_t(3));
        QCOMPARE(runs[0].status, normlab::RunStatus::Cancelled);
        QCOMPARE(runs[1].status, normlab::RunStatus::Cancelled);
        QVERIFY2(runs[1].message.find("normlab-cli cancel") != std::string::npos, runs[1].message.c_str());
        QCOMPARE(runs[2].name, std::string("after"));
        QCOMPARE(runs[2].status, normlab::RunStatus::Finished);
    }

    // `resume 1 2` while another process resumes run 2 to its end first: run 2 is skipped when its
    // turn comes (it ended the command with "run 2 is finished; only queued, cancelled, interrupted
    // or failed runs can be resumed", exit 4).
    void aRunResumedElsewhereIsSkipped() {
        json two = tiny(100000);
        two["variants"] = {{{"name", "long"}, {"scheme", "pre_ln"}}, {{"name", "short"}, {"scheme", "post_ln"}, {"train", {{"steps", 20}}}}};
        const QString exp = write("elsewhere.json", two.dump()), store = dir_.filePath("elsewhere.sqlite");
        {
            QProcess p;   // both cancelled: the first after some steps, the second before it started
            QVERIFY(trains(start_training(p, {"run", exp, "--store", store})));
            ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(30000));
        }
        QProcess a;
        QString out = start_training(a, {"resume", "1", "2", "--store", store});
        QVERIFY2(trains(out), qPrintable(out));
        Result r = cli({"resume", "2", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(cli({"cancel", "1", "--store", store}).code, 0);
        QVERIFY(a.waitForFinished(60000));
        out += QString::fromUtf8(a.readAll());
        QVERIFY2(out.contains("[2/2] short: finished by another process before its turn; skipped") && !out.contains("only queued"),
                 qPrintable(out));
        QCOMPARE(a.exitCode(), 130);   // run 1 was cancelled
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        QCOMPARE(s.run(2)->status, normlab::RunStatus::Finished);
        QCOMPARE(s.run(2)->steps_done, int64_t(20));
    }

    void twoResumesTrainARunOnce() {
        const QString exp = write("twice.json", tiny(600, {{"train", {{"checkpoint_every", 50}}}}).dump());
        const QString store = dir_.filePath("twice.sqlite");
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"run", exp, "--store", store});
        QVERIFY(p.waitForStarted());
        // Killed mid-run, however fast or slow the build: once its first checkpoint (step 50 of 600) is in.
        QTRY_VERIFY_WITH_TIMEOUT(steps_in(store) >= 50, 60000);
        ::kill(static_cast<pid_t>(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(10000));
        QProcess a, b;
        a.start(QStringLiteral(NORMLAB_CLI), {"resume", "1", "--store", store});
        b.start(QStringLiteral(NORMLAB_CLI), {"resume", "1", "--store", store});
        QVERIFY(a.waitForFinished(120000) && b.waitForFinished(120000));
        const int ok = (a.exitCode() == 0) + (b.exitCode() == 0);
        QVERIFY2(ok == 1, qPrintable(QString("exits %1 and %2: %3 %4").arg(a.exitCode()).arg(b.exitCode())
                                         .arg(QString::fromUtf8(a.readAllStandardError()).right(200))
                                         .arg(QString::fromUtf8(b.readAllStandardError()).right(200))));
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        QCOMPARE(s.run(1)->status, normlab::RunStatus::Finished);
        QCOMPARE(s.points(s.series_id(1, "train/loss")).size(), size_t(600));
    }

    // `resume 1 2`, and run 2 started by another process (a second `resume 2`) while the first trains run 1:
    // at its turn run 2 is skipped, and the command exits 4 (a run could not start), as when the other process
    // claims it a moment later; it exited 0, so that two resumes of one run at once sometimes both exited 0.
    // The first process is held (SIGSTOP) while the other takes run 2, so that run 1 need not be long enough
    // for that on the slowest machine (10,000 steps were, at a third of the suite's time under the sanitizers).
    void aRunToResumeTakenMeanwhileExitsFour() {
        json two = tiny(1000, {{"train", {{"eval_every", 5000}}}});
        two["variants"] = {{{"name", "first"}, {"scheme", "pre_ln"}},
                           {{"name", "second"}, {"scheme", "post_ln"}, {"train", {{"steps", 100000}}}}};
        const QString exp = write("taken.json", two.dump()), store = dir_.filePath("taken.sqlite");
        {
            QProcess p;   // both cancelled: the first after some steps, the second before it started
            QVERIFY(trains(start_training(p, {"run", exp, "--store", store})));
            ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            QVERIFY(p.waitForFinished(30000));
        }
        auto status = [&](int64_t id) { return normlab::Store(store.toStdString(), normlab::Store::Mode::ReadOnly).run(id)->status; };
        QProcess a;
        QString out = start_training(a, {"resume", "1", "2", "--store", store});
        QVERIFY2(trains(out), qPrintable(out));
        QVERIFY(hold_outside_a_write(a, store));
        QProcess b;
        const QString b_out = start_training(b, {"resume", "2", "--store", store});
        ::kill(static_cast<pid_t>(a.processId()), SIGCONT);
        QVERIFY2(trains(b_out), qPrintable(b_out));
        QCOMPARE(status(2), normlab::RunStatus::Running);
        QCOMPARE(status(1), normlab::RunStatus::Running);   // the other process had run 2 before the first finished run 1
        QVERIFY(a.waitForFinished(300000));
        out += QString::fromUtf8(a.readAll());
        QVERIFY2(out.contains("[2/2] second: started by another process (pid " + QString::number(b.processId())), qPrintable(out.right(400)));
        QCOMPARE(a.exitCode(), 4);
        QCOMPARE(status(1), normlab::RunStatus::Finished);
        QCOMPARE(cli({"cancel", "2", "--store", store}).code, 0);
        QVERIFY(b.waitForFinished(60000));
        QCOMPARE(status(2), normlab::RunStatus::Cancelled);
    }

    void aRelativeStoreWorksFromAnywhere() {
        QDir(dir_.path()).mkpath("here/there");
        const QString exp = write("rel.json", tiny(10).dump());
        Result r = cli({"run", exp, "--store", "rel.sqlite"}, dir_.filePath("here"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"export-weights", "1", "w.safetensors", "--store", "../rel.sqlite"}, dir_.filePath("here/there"));
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"resume", "1", "--store", dir_.filePath("here/rel.sqlite")});
        QVERIFY2(r.code == 2 && r.err.contains("already finished"), qPrintable(r.err));
    }

    // `delete` asks first (not on a terminal: --yes, or nothing is deleted), refuses a run a
    // live process trains before it deletes any, and takes the runs' checkpoints with them.
    void deleteAsksAndRefusesATrainingRun() {
        const QString exp = write("del.json", tiny(5).dump()), store = dir_.filePath("del.sqlite");
        QVERIFY(cli({"run", exp, "--store", store}).code == 0);
        const QString ckpt = store + ".checkpoints/run-1-step-5.pt";
        QVERIFY(QFile::exists(ckpt));
        Result r = cli({"delete", "1", "--store", store});
        QVERIFY2(r.code == 2 && r.err.contains("give --yes") && r.err.contains("Nothing was deleted"), qPrintable(r.err));
        int64_t live = 0;
        {
            normlab::Store s(store.toStdString());
            QCOMPARE(s.runs().size(), size_t(1));
            live = s.create_run("live", "pre_ln", json::object(), 1);
            QVERIFY(s.claim_run(live, normlab::RunStatus::Queued, "cpu", json::object()));   // this process trains it
        }
        r = cli({"delete", "1", QString::number(live), "--yes", "--store", store});
        QVERIFY2(r.code == 2 && r.err.contains("is training (pid " + QString::number(::getpid())) &&
                     r.err.contains("normlab-cli cancel " + QString::number(live)) && r.err.contains("Nothing was deleted"),
                 qPrintable(r.err));
        QVERIFY(QFile::exists(ckpt));
        r = cli({"delete", "1", "--yes", "--store", store});
        QVERIFY2(r.code == 0 && r.out.contains("1\tdeleted\trun") && r.out.contains("1 checkpoint file removed"), qPrintable(r.out + r.err));
        QVERIFY(!QFile::exists(ckpt));
        r = cli({"compact", "--store", store});
        QVERIFY2(r.code == 0 && r.out.contains("nothing to compact"), qPrintable(r.out + r.err));   // a few kB freed
        const QString missing = dir_.filePath("nowhere/runs.sqlite");
        r = cli({"compact", "--store", missing});
        QVERIFY2(r.code == 5 && r.err.contains("no run store at") && !QFileInfo::exists(dir_.filePath("nowhere")), qPrintable(r.err));
        normlab::Store s(store.toStdString());
        QCOMPARE(s.runs().size(), size_t(1));
        QCOMPARE(s.runs()[0].id, live);
    }

    void aReadOnlyStoreIsListedAsIs() {
        // As an ordinary user would meet it: a store in a folder they cannot
        // write. Root is made such a user by dropping every capability (no
        // CAP_DAC_OVERRIDE: the folder's mode bits hold for it too) rather than
        // by switching to another user, who might not reach the clone at all
        // (a clone inside a 0700 folder, with its LibTorch in .venv-torch2).
        const QString exp = write("ro.json", tiny(5).dump());
        const QString ro = dir_.filePath("ro");
        QVERIFY(QDir().mkpath(ro));
        const QString store = ro + "/runs.sqlite";
        QVERIFY(cli({"run", exp, "--store", store}).code == 0);
        QVERIFY(QFile::exists(store + ".checkpoints"));
        ::chmod(store.toUtf8().constData(), 0444);
        ::chmod(ro.toUtf8().constData(), 0555);
        struct Restore {
            QString dir;
            ~Restore() { ::chmod(dir.toUtf8().constData(), 0755); }
        } restore{ro};
        QProcess p;
        if (::geteuid() == 0) {
            QVERIFY2(!QStandardPaths::findExecutable("setpriv").isEmpty(), "root needs setpriv (util-linux) to drop its capabilities");
            p.start("setpriv", {"--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", QStringLiteral(NORMLAB_CLI),
                                "list", "--store", store});
        } else {
            p.start(QStringLiteral(NORMLAB_CLI), {"list", "--store", store});
        }
        QVERIFY(p.waitForFinished(60000));
        const QString out = QString::fromUtf8(p.readAllStandardOutput()), err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0 && out.contains("finished"), qPrintable(out + err));
        QVERIFY(!QFile::exists(store + "-wal") && !QFile::exists(store + "-shm"));
        // The check above proves something only if that process could not have written there.
        QProcess w;
        if (::geteuid() == 0)
            w.start("setpriv", {"--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", "touch", ro + "/probe"});
        else
            w.start("touch", {ro + "/probe"});
        QVERIFY(w.waitForFinished(10000));
        QVERIFY2(w.exitCode() != 0 && !QFile::exists(ro + "/probe"), "the folder was writable: the case tests nothing");
    }

    void aFullDiskEndsARunCleanly() {
        const QString full = dir_.filePath("full");
        SmallDisk disk(full, "2300k");
        if (!disk.mounted()) QSKIP(SmallDisk::why_not());
        // About 1.4 MB per checkpoint: the first fits (with the 64 KiB a run keeps aside), the second cannot.
        const QString exp = write("full.json", tiny(200, {{"model", {{"d_model", 64}, {"d_ff", 256}}},
                                                          {"train", {{"checkpoint_every", 20}}}}).dump());
        const QString store = full + "/s.sqlite";
        Result r = cli({"run", exp, "--store", store});
        QVERIFY2(r.code == 4 && r.err.contains("No space left on device"), qPrintable(r.err));
        r = cli({"list", "--store", store});                       // readable while the disk is full
        QVERIFY2(r.code == 0 && r.out.contains("failed"), qPrintable(r.out + r.err));
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        auto run = *s.run(1);
        QVERIFY2(run.message.find("No space left on device") != std::string::npos, run.message.c_str());
        QVERIFY(fs::exists(run.checkpoint));                       // the last good checkpoint is kept
        for (auto& e : fs::recursive_directory_iterator(full.toStdString()))
            QVERIFY2(e.path().string().find(".tmp") == std::string::npos, e.path().c_str());
        // An export that cannot be written fails and leaves nothing behind.
        std::ofstream(full.toStdString() + "/filler", std::ios::binary) << std::string(1 << 20, 'x');
        r = cli({"export", "1", "--csv", "--out", full + "/run.csv", "--store", store});
        QVERIFY2(r.code != 0 && r.err.contains("No space left"), qPrintable(r.err));
        QVERIFY(!QFile::exists(full + "/run.csv") && !QFile::exists(full + "/run.csv.tmp"));
        r = cli({"export-weights", "1", full + "/w.safetensors", "--store", store});
        QVERIFY(r.code != 0);
        QVERIFY(!QFile::exists(full + "/w.safetensors") && !QFile::exists(full + "/w.safetensors.tmp"));
    }
};

QTEST_GUILESS_MAIN(TestCliSafety)
#include "test_cli_safety.moc"
