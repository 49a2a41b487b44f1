// The window's queue when its runs change outside it: the window killed
// outright leaves no run queued with nobody to train it (they read
// interrupted, which its Resume takes); a queued run cancelled (normlab-cli
// cancel), deleted or started by another process before its turn is skipped,
// not failed, and the queue goes on. The window killed outright takes the
// processes it started with it: its report's training stops as on Ctrl-C and
// its servers' followers end.
#include "app/gui/mainwindow.h"
#include "app/gui/remote.h"
#include "app/gui/reportdialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"
#include "tests/window_util.h"

#include <QProcess>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QTextStream>

#include <fstream>
#include <map>
#include <csignal>
#include <unistd.h>

using namespace normlab;

class TestGuiQueue : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // A reproduction experiment of two tiny runs of `steps` steps each (a progress line every 10%).
    QString write_report_experiment(const QString& file, int steps) {
        nlohmann::json e{{"name", "report-" + std::to_string(steps)},
                         {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                                   {"train", {{"steps", steps}, {"batch_size", 4}, {"threads", 1}, {"eval_every", 0}}},
                                   {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}},
                         {"variants", {{{"scheme", "post_ln"}}, {{"scheme", "pre_ln"}}}},
                         {"report", {{{"finding", 3}}}}};
        std::ofstream(dir_.filePath(file).toStdString()) << e.dump();
        return dir_.filePath(file);
    }

private Q_SLOTS:
    // The window killed outright (kill -9, the OOM killer, a crash) with runs in its queue: they show
    // as interrupted, which its Resume takes, not queued with nobody to train them.
    void aKilledWindowLeavesNoRunQueued() {
        const QString exp = dir_.filePath("two.json");
        test::write_endless_experiment(exp, "two", {{{"scheme", "pre_ln"}}, {{"scheme", "post_ln"}}});
        const QString st = dir_.filePath("killed.sqlite");
        QProcess app;
        QVERIFY(test::start_app_training(app, QStringLiteral(NORMLAB_APP), dir_.path(), st, exp));
        QVERIFY(QTest::qWaitFor([&] { return test::trains_past_step_5(st, 1); }, 60000));
        QCOMPARE(Store(st.toStdString(), Store::Mode::ReadOnly).run(2)->status, RunStatus::Queued);
        app.kill();
        QVERIFY(app.waitForFinished(10000));
        MainWindow w(st);
        for (qint64 id : {1, 2}) QCOMPARE(w.store().run(id)->status, RunStatus::Interrupted);
    }

    // The window started with its output piped to a reader that has gone (`normlab 2>&1 | tee log`, tee
    // closed): its first write — Qt's own warning as it shows — raised SIGPIPE and ended it before it
    // trained a step. It trains on, and a stop (SIGTERM) still keeps its run cancelled.
    void aWindowWhoseOutputIsGoneTrainsOn() {
        const QString exp = dir_.filePath("piped.json");
        test::write_endless_experiment(exp, "piped", {{{"scheme", "pre_ln"}}});
        const QString st = dir_.filePath("piped.sqlite");
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        env.insert("HOME", dir_.path());
        // stdout and stderr a pipe whose reader has exited before the window starts: every write meets it closed
        QProcess win;
        win.setProcessEnvironment(env);
        win.start("sh", {"-c", "{ sleep 1; exec \"$@\"; } 2>&1 | { exit 0; }", "sh", NORMLAB_APP, "--store", st, "--experiment", exp,
                         "--run"});
        QVERIFY(win.waitForStarted());
        QVERIFY2(QTest::qWaitFor([&] { return test::trains_past_step_5(st, 1); }, 60000), "the window did not train");
        const int64_t pid = Store(st.toStdString(), Store::Mode::ReadOnly).run(1)->pid;
        QVERIFY(pid > 0);
        ::kill(static_cast<pid_t>(pid), SIGTERM);
        QVERIFY(win.waitForFinished(30000));
        QCOMPARE(Store(st.toStdString(), Store::Mode::ReadOnly).run(1)->status, RunStatus::Cancelled);
    }

    // The window starts processes of its own: Reproduce paper findings' `normlab report`, a server's
    // `normlab-cli remote follow`. Killed outright, it used to leave them running unseen: the report
    // trained on until a write to the window's pipe killed it mid-step, the follower wrote into the
    // store beside the next window's for as long as the server's runs went on. A stand-in window (this
    // program, --as-window) starts both as the window does; killed, everything it started ends, the
    // report's run kept cancelled, as Stop keeps it.
    void aKilledWindowTakesItsChildrenWithIt() {
        const QString exp = write_report_experiment("endless_report.json", 1000000);
        const QString server = dir_.filePath("server.sqlite");
        int64_t waiting;
        {
            Store s(server.toStdString());
            waiting = queue_run(s, test::tiny(Scheme::PreLN, 5));   // nobody trains it: followed for ever
        }
        // An ssh that runs the remote command here.
        const QString ssh = dir_.filePath("fake-ssh");
        {
            std::ofstream f(ssh.toStdString());
            f << "#!/bin/sh\nfor a; do last=$a; done\nexec sh -c \"$last\"\n";
        }
        QVERIFY(QFile::setPermissions(ssh, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString reports = dir_.filePath("reports.sqlite"), mirror = dir_.filePath("mirror.sqlite");
        QProcess window;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("HOME", dir_.path());
        env.insert("NORMLAB_SSH", ssh);
        env.insert("NORMLAB_SSH_SHARE", "0");
        env.insert("NORMLAB_CLI", NORMLAB_CLI);   // the window's normlab-cli: the one beside it
        window.setProcessEnvironment(env);
        window.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        window.start(QCoreApplication::applicationFilePath(),
                     {"--as-window", reports, exp, dir_.filePath("report-out"), mirror, server, QString::number(waiting)});
        QVERIFY(window.waitForStarted());
        QVERIFY(QTest::qWaitFor([&] { return test::trains_past_step_5(reports, 1); }, 60000));
        QVERIFY(QTest::qWaitFor([&] {
            try {
                return !Store(mirror.toStdString(), Store::Mode::ReadOnly).runs().empty();
            } catch (const StoreError&) {
                return false;
            }
        }, 60000));
        // The processes the window started, by the folder every one of them names.
        auto started = [&, self = window.processId()] {
            QStringList out;
            for (QDirIterator it("/proc"); it.hasNext();) {
                const QString pid = QFileInfo(it.next()).fileName();
                if (pid.toLongLong() <= 0 || pid.toLongLong() == self) continue;
                QFile cmd("/proc/" + pid + "/cmdline"), stat("/proc/" + pid + "/stat");
                if (!cmd.open(QIODevice::ReadOnly) || !stat.open(QIODevice::ReadOnly)) continue;
                const QByteArray line = cmd.readAll(), state = stat.readAll();
                const int close = state.lastIndexOf(')');
                if (line.contains(dir_.path().toUtf8()) && close > 0 && state.mid(close + 2, 1) != "Z")
                    out << pid + ": " + QString::fromUtf8(line).replace(QChar(0), ' ');
            }
            return out;
        };
        QVERIFY2(started().size() >= 2, qPrintable(started().join("\n")));   // the report and the follower
        window.kill();
        QVERIFY(window.waitForFinished(10000));
        (void)QTest::qWaitFor([&] { return started().isEmpty(); }, 30000);   // what is left is named below
        QVERIFY2(started().isEmpty(), qPrintable(started().join("\n")));
        const std::optional<RunInfo> r = Store(reports.toStdString(), Store::Mode::ReadOnly).run(1);
        QVERIFY(r);
        QCOMPARE(r->status, RunStatus::Cancelled);
        QCOMPARE(r->message, std::string("cancelled: the window that started it ended"));
        QVERIFY(!r->checkpoint.empty());
    }

    // `normlab report` stopped by the dialog's Stop (SIGTERM), a hang-up or a closed pipe (`| head`, or
    // on a system without PR_SET_PDEATHSIG its window gone) keeps its run cancelled, with its checkpoint and
    // why; a closed pipe used to end it mid-step, its run left for dead.
    void aStoppedReportKeepsItsRunCancelled_data() {
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("message");
        QTest::newRow("Stop") << "SIGTERM" << "cancelled by the user";
        QTest::newRow("hang-up") << "SIGHUP" << "cancelled: the terminal or ssh session it was started from closed (SIGHUP)";
        QTest::newRow("closed pipe") << "pipe" << "cancelled: what read its output went away (a closed pipe)";
    }
    void aStoppedReportKeepsItsRunCancelled() {
        QFETCH(QString, how);
        QFETCH(QString, message);
        const QString exp = write_report_experiment("report_" + how + ".json", 2000);
        const QString st = dir_.filePath("report_" + how + ".sqlite");
        const QStringList args{"report", exp, "--out", dir_.filePath("out-" + how), "--store", st};
        QProcess report;
        if (how == "pipe") {   // what reads its output takes a byte and goes
            report.start("sh", QStringList{"-c", "\"$@\" 2>&1 | head -c 1 >/dev/null", "sh", NORMLAB_APP} + args);
        } else {
            report.start(NORMLAB_APP, args);
        }
        QVERIFY(report.waitForStarted());
        QVERIFY(QTest::qWaitFor([&] { return test::trains_past_step_5(st, 1); }, 60000));
        if (how != "pipe") ::kill(static_cast<pid_t>(report.processId()), how == "SIGHUP" ? SIGHUP : SIGTERM);
        QVERIFY(report.waitForFinished(60000));
        const std::optional<RunInfo> r = Store(st.toStdString(), Store::Mode::ReadOnly).run(1);
        QVERIFY(r);
        QCOMPARE(r->status, RunStatus::Cancelled);
        QCOMPARE(QString::fromStdString(r->message), message);
        QVERIFY(!r->checkpoint.empty());
        QVERIFY(!Store(st.toStdString(), Store::Mode::ReadOnly).run(2));   // nothing after it was started
    }

    void aRunNoLongerQueuedIsSkipped() {
        const QString st = dir_.filePath("skip.sqlite");
        int64_t first, cancelled, deleted, last;
        {
            Store s(st.toStdString());
            first = queue_run(s, test::tiny(Scheme::PreLN, 5));
            cancelled = queue_run(s, test::tiny(Scheme::PostLN, 5));
            deleted = queue_run(s, test::tiny(Scheme::DeepNorm, 5));
            last = queue_run(s, test::tiny(Scheme::NGPT, 5));
        }
        TrainingWorker worker(st);
        QSignalSpy ended(&worker, &TrainingWorker::runEnded);
        for (int64_t id : {first, cancelled, deleted, last}) worker.enqueue(id);
        {
            // As normlab-cli cancel and delete do, before the worker gets to them.
            Store s(st.toStdString());
            QVERIFY(s.cancel_queued(cancelled, "cancelled before it started (normlab-cli cancel)"));
            s.delete_run(deleted);
        }
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 4, 120000);
        std::map<qint64, std::pair<QString, QString>> got;
        for (auto& args : ended) got[args.at(0).toLongLong()] = {args.at(1).toString(), args.at(2).toString()};
        QCOMPARE(got[first].first, QString("finished"));
        QCOMPARE(got[cancelled].first, QString("cancelled"));
        QVERIFY2(got[cancelled].second.contains("skipped"), qPrintable(got[cancelled].second));
        QCOMPARE(got[deleted].first, QString("deleted"));
        QCOMPARE(got[last].first, QString("finished"));
        Store s(st.toStdString(), Store::Mode::ReadOnly);
        QCOMPARE(s.run(cancelled)->status, RunStatus::Cancelled);
        QVERIFY2(s.run(cancelled)->message.find("normlab-cli cancel") != std::string::npos, s.run(cancelled)->message.c_str());
    }
};

// --as-window REPORT_STORE EXPERIMENT OUT MIRROR_STORE SERVER_STORE RUN: what the window starts when
// Reproduce paper findings trains EXPERIMENT and a server's run is followed, then waits to be killed.
static int as_window(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("normlab-test-gui-queue-window");
    const QStringList a = app.arguments().mid(2);
    if (a.size() != 6) return 2;
    ReportDialog report(a[0]);
    report.setExperiments({a[1]});
    report.setScale("");
    report.setOutputDir(a[2]);
    report.setProgram(NORMLAB_APP);
    report.start();
    RemoteControl remote(a[3]);
    remote.follow(RemoteTarget{"gpu", NORMLAB_CLI, a[4]}, {a[5].toLongLong()});
    return report.running() && remote.following() == 1 ? app.exec() : 1;
}

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--as-window") return as_window(argc, argv);
    QApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    TestGuiQueue t;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&t, argc, argv);
}
#include "test_gui_queue.moc"
