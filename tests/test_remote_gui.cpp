// The window trains on a server over ssh, against a real OpenSSH server on
// 127.0.0.1 (started by tests/remote_ssh.py --serve; this machine's own build
// is the server): Run → Train on a server… checks the server and starts an
// experiment there; its runs appear in the run table (Server column) and on
// the charts live; a run writing 10^5 points/s is followed with the event
// loop fluid (p99 measured 7-15 ms; asserted under 50 ms);
// every point of the server's store reaches the window's; the window closed
// mid-run and opened again follows the runs again; a run is stopped and
// resumed on the server from the window.
#include "app/gui/mainwindow.h"
#include "app/gui/remote.h"
#include "core/remote/mirror.h"
#include "core/store/store.h"
#include "widgets/designer.h"
#include "widgets/runtable.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTableView>
#include <QtTest/QtTest>

#include <fstream>
#include <map>

using namespace normlab;

namespace {

using Rows = std::map<std::tuple<std::string, std::string, int>, std::map<int64_t, double>>;

// Every point of every run, by (run name, series, layer).
Rows rows_of(const QString& path) {
    Store s(path.toStdString(), Store::Mode::ReadOnly);
    Rows out;
    for (const RunInfo& r : s.runs())
        for (const SeriesInfo& si : s.series(r.id, false))
            for (const Point& p : s.points(si.id)) out[{r.name, si.name, si.layer}][p.step] = p.value;
    return out;
}

std::string experiment(const std::string& name, int steps, int runs) {
    nlohmann::json variants = nlohmann::json::array();
    const char* schemes[] = {"pre_ln", "ngpt"};
    for (int i = 0; i < runs; ++i) variants.push_back({{"name", std::string(i ? "nGPT" : "Pre-LN")}, {"scheme", schemes[i]}});
    // Per-layer probes every step: ~10^5 points a second reach the window.
    nlohmann::json doc = {
        {"name", name},
        {"base",
         {{"model", {{"d_model", 32}, {"n_layers", 4}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
          {"optim", {{"lr", 3e-4}}},
          {"train", {{"steps", steps}, {"batch_size", 4}, {"eval_every", 100}, {"threads", 1}, {"checkpoint_every", 200}}},
          {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}},
          {"probes", {{"grads_every", 1}, {"forward_every", 1}}}}},
        {"variants", variants}};
    return doc.dump(2);
}

}  // namespace

class RemoteGuiTest : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QProcess sshd_;
    QString server_store_;

    RemoteTarget target() const { return RemoteTarget{"gpu", NORMLAB_CLI, server_store_}; }

    // Drives Run → Train on a server…: check, then start; returns the dialog's last message.
    QString launch(MainWindow& w, const QString& exp_file, bool* started) {
        QString error;
        if (!w.designer()->openExperiment(exp_file, &error)) return error;
        QString message;
        *started = false;
        auto c = connect(&w, &MainWindow::remoteDialogOpened, this, [&](RemoteDialog* d) {
            QTimer::singleShot(0, d, [&, d] {
                d->setTarget(target());
                d->checkButton()->click();
                QTRY_VERIFY_WITH_TIMEOUT(d->checkButton()->isEnabled(), 30000);
                message = d->result()->text();
                // scripts/screenshots.sh: the dialog after its check, for the README.
                if (const QString shots = qEnvironmentVariable("NORMLAB_SCREENSHOTS"); !shots.isEmpty())
                    d->grab().save(shots + "/normlab-remote-dialog.png");
                if (!message.startsWith("NormLab")) {
                    d->reject();
                    return;
                }
                connect(d, &QDialog::accepted, this, [&] { *started = true; });
                d->startButton()->click();
                QTRY_VERIFY_WITH_TIMEOUT(!d->isVisible() || d->startButton()->isEnabled(), 60000);
                if (d->isVisible()) {
                    message = d->result()->text();
                    d->reject();
                }
            });
        });
        w.trainOnServer();
        disconnect(c);
        return message;
    }

    std::vector<qint64> mirrored(MainWindow& w) {
        std::vector<qint64> ids;
        for (const RunInfo& r : w.store().runs())
            if (remote_ref(r).run > 0) ids.push_back(r.id);
        return ids;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        sshd_.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        sshd_.start("python3", {NORMLAB_SOURCE_DIR "/tests/remote_ssh.py", "--cli", NORMLAB_CLI, "--serve", dir_.path() + "/sshd"});
        QVERIFY2(sshd_.waitForReadyRead(30000), "tests/remote_ssh.py --serve did not start sshd");
        const auto info = nlohmann::json::parse(sshd_.readLine().toStdString());
        qputenv("NORMLAB_SSH", QByteArray::fromStdString(info["ssh"].get<std::string>()));
        qputenv("NORMLAB_SSH_CONTROL_DIR", QByteArray::fromStdString(info["control_dir"].get<std::string>()));
        qputenv("NORMLAB_CLI", NORMLAB_CLI);
        server_store_ = dir_.path() + "/server runs.sqlite";
        QCoreApplication::setOrganizationName("normlab-test-remote");
        QSettings().remove("geometry");      // a first start's layout, as a fresh machine has it
        QSettings().remove("windowState");   // (the README's screenshot comes from here)
    }

    void cleanupTestCase() {
        sshd_.closeWriteChannel();
        QVERIFY(sshd_.waitForFinished(20000));
    }

    void trainOnServerLive() {
        const QString store = dir_.path() + "/window.sqlite";
        const QString exp = dir_.path() + "/live.json";
        std::ofstream(exp.toStdString()) << experiment("live", 2500, 2);
        MainWindow w(store);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        bool started = false;
        const QString said = launch(w, exp, &started);
        QVERIFY2(started, qPrintable(said));
        // The runs appear, are shown and draw live; the event loop stays fluid.
        QTRY_VERIFY_WITH_TIMEOUT(mirrored(w).size() == 2, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!w.runTable()->isColumnHidden(RunTableModel::Host), 5000);
        const int row = w.runModel()->rowOf(mirrored(w).front());
        QCOMPARE(w.runModel()->data(w.runModel()->index(row, RunTableModel::Host), Qt::DisplayRole).toString(), QString("gpu"));
        w.latency()->reset();
        QElapsedTimer clock;
        clock.start();
        const int64_t before = rows_of(store).size();
        // scripts/screenshots.sh: the window mid-run, for the README.
        if (const QString shots = qEnvironmentVariable("NORMLAB_SCREENSHOTS"); !shots.isEmpty()) {
            QTRY_VERIFY_WITH_TIMEOUT(w.store().run(mirrored(w).back())->steps_done >= 800, 120000);
            QTest::qWait(1200);
            QVERIFY(w.grab().save(shots + "/normlab-remote.png"));
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (qint64 id : mirrored(w))
                    if (!follow_ended(w.store().run(id)->status)) return false;
                return true;
            }(),
            180000);
        size_t points = 0;
        for (auto& [k, v] : rows_of(store)) points += v.size();
        const double rate = points / (clock.elapsed() / 1000.0);
        qInfo("%zu points followed (%.0f points/s), %lld series before; UI latency p50 %.1f ms, p99 %.1f ms over %zu samples",
              points, rate, static_cast<long long>(before), w.latency()->percentile(50), w.latency()->percentile(99),
              w.latency()->samples());
        QCOMPARE(rows_of(store), rows_of(server_store_));
        QTRY_COMPARE_WITH_TIMEOUT(   // a finished run: its steps alone
            w.runModel()->data(w.runModel()->index(w.runModel()->rowOf(mirrored(w).front()), RunTableModel::Steps), Qt::DisplayRole).toString(),
            QString::number(w.store().run(mirrored(w).front())->steps_done), 10000);
        // A run's weights fetched from the server: the bytes the server exports.
        const QString fetched = dir_.path() + "/fetched.safetensors";
        QSignalSpy done(&w, &MainWindow::remoteFetched);
        QStringList bar;   // the status bar: how far the fetch is (its last progress: all of it), then where it went
        connect(w.statusBar(), &QStatusBar::messageChanged, &w, [&](const QString& m) { bar << m; });
        w.fetchRemoteWeights(mirrored(w).front(), fetched);
        QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, 60000);
        QCOMPARE(done.first().first().toString(), fetched);
        const QString size = w.locale().formattedDataSize(QFileInfo(fetched).size(), 1, QLocale::DataSizeSIFormat);
        QVERIFY2(bar.contains(QString("Fetching the weights of Pre-LN from gpu: %1 of %1 (100%)…").arg(size)), qPrintable(bar.join('\n')));
        QCOMPARE(bar.last(), QString("Weights written to %1").arg(fetched));
        QCOMPARE(w.fetchProgressText("nGPT", "gpu1", {{"event", "progress"}, {"bytes", 250'000'000}, {"total", 500'000'000}}),
                 QString("Fetching the weights of nGPT from gpu1: %1 of %2 (50%)…")
                     .arg(w.locale().formattedDataSize(250'000'000, 1, QLocale::DataSizeSIFormat),
                          w.locale().formattedDataSize(500'000'000, 1, QLocale::DataSizeSIFormat)));
        QVERIFY(w.fetchProgressText("nGPT", "gpu1", {{"bytes", "x"}}).isEmpty());
        const QString direct = dir_.path() + "/direct.safetensors";
        QProcess exporter;
        exporter.start(NORMLAB_CLI, {"export-weights", QString::number(remote_ref(*w.store().run(mirrored(w).front())).run), direct,
                                "--store", server_store_});
        QVERIFY(exporter.waitForFinished(60000) && exporter.exitCode() == 0);
        QFile a(fetched), b(direct);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(a.size() > 0);
        QCOMPARE(a.readAll(), b.readAll());
    }

    // A run that writes 10^5 points a second, followed into a window that shows it.
    void fastRunKeepsTheWindowFluid() {
        const QString store = dir_.path() + "/fast-window.sqlite";
        const QString server = dir_.path() + "/fast server.sqlite";
        QProcess writer;
        writer.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        writer.start("python3", {NORMLAB_SOURCE_DIR "/tests/remote_ssh.py", "--cli", NORMLAB_CLI, "--fast-writer", server,
                                 "--rate", "100000", "--seconds", "10"});
        QVERIFY(writer.waitForReadyRead(60000));
        const qint64 rid = writer.readLine().trimmed().toLongLong();
        QVERIFY(rid > 0);
        MainWindow w(store);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.remote()->follow(RemoteTarget{"gpu", NORMLAB_CLI, server}, {rid});
        QTRY_VERIFY_WITH_TIMEOUT(mirrored(w).size() == 1, 30000);
        const qint64 id = mirrored(w).front();
        w.selectRuns({id});
        w.latency()->reset();
        QElapsedTimer clock;
        clock.start();
        QTRY_VERIFY_WITH_TIMEOUT(follow_ended(w.store().run(id)->status), 120000);
        QCOMPARE(w.store().run(id)->status, RunStatus::Finished);
        QVERIFY(writer.state() == QProcess::NotRunning || writer.waitForFinished(30000));
        QTRY_COMPARE_WITH_TIMEOUT(w.remote()->following(), 0, 10000);
        size_t points = 0;
        for (auto& [k, v] : rows_of(store)) points += v.size();
        qInfo("%zu points in %.1f s (%.0f points/s); UI latency p50 %.1f ms, p99 %.1f ms over %zu samples", points,
              clock.elapsed() / 1000.0, points / (clock.elapsed() / 1000.0), w.latency()->percentile(50),
              w.latency()->percentile(99), w.latency()->samples());
        QVERIFY(points >= 990000);   // 10 s × 10^5 (whole steps of 64 series)
        // Measured p99 7-15 ms here (the 16 ms target, docs/REMOTE.md; 27-35 ms, over 50 now and
        // then, while the window read a refresh's ~50,000 rows in one block). The bound asserted is the
        // one an event loop that waits on ssh or parses the stream itself breaks by far, with room
        // for a loaded machine: speed targets live in bench/, not in tests.
        QVERIFY2(w.latency()->percentile(99) < 50.0, "the event loop's p99 exceeded 50 ms while following 10^5 points/s");
        Rows theirs;
        for (auto& [k, v] : rows_of(server))
            if (std::get<0>(k) == "fast writer") theirs[k] = v;
        QCOMPARE(rows_of(store), theirs);
    }

    void reopenedWindowFollowsAgain() {
        const QString store = dir_.path() + "/reopen.sqlite";
        const QString exp = dir_.path() + "/reopen.json";
        std::ofstream(exp.toStdString()) << experiment("reopen", 4000, 1);
        {
            MainWindow w(store);
            bool started = false;
            const QString said = launch(w, exp, &started);
            QVERIFY2(started, qPrintable(said));
            QTRY_VERIFY_WITH_TIMEOUT(mirrored(w).size() == 1 && w.store().run(mirrored(w)[0])->steps_done >= 200, 60000);
            w.close();   // mid-run: the run goes on on the server
        }
        QTest::qWait(1500);
        MainWindow again(store);
        QCOMPARE(again.remote()->following(), 1);
        const qint64 id = mirrored(again).front();
        QTRY_VERIFY_WITH_TIMEOUT(follow_ended(again.store().run(id)->status), 180000);
        QTRY_COMPARE_WITH_TIMEOUT(again.remote()->following(), 0, 10000);
        // Only this experiment's run: compare it with the server's copy.
        Rows mine = rows_of(store), theirs;
        for (auto& [k, v] : rows_of(server_store_))
            if (std::get<0>(k) == again.store().run(id)->name && mine.count(k)) theirs[k] = v;
        QVERIFY(!mine.empty());
        QCOMPARE(mine, theirs);
    }

    void stopAndResumeOnServer() {
        const QString store = dir_.path() + "/stop.sqlite";
        const QString exp = dir_.path() + "/stop.json";
        std::ofstream(exp.toStdString()) << experiment("stop", 20000, 1);
        MainWindow w(store);
        bool started = false;
        const QString said = launch(w, exp, &started);
        QVERIFY2(started, qPrintable(said));
        QTRY_VERIFY_WITH_TIMEOUT(mirrored(w).size() == 1 && w.store().run(mirrored(w)[0])->steps_done >= 200, 60000);
        const qint64 id = mirrored(w).front();
        // What the status bar said (the follower's lines come after, each replacing the last).
        QStringList said_there;
        connect(w.statusBar(), &QStatusBar::messageChanged, &w, [&](const QString& m) { said_there << m; });
        QVERIFY(w.remoteAction({id}, "cancel").empty());
        QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->status == RunStatus::Cancelled, 60000);
        // Named as the run table names it (its id and name here, not its id on the server).
        const QString stopped = QString("Stopped on gpu: #%1 Pre-LN").arg(id);
        QTRY_VERIFY2_WITH_TIMEOUT(said_there.contains(stopped), qPrintable(said_there.join('\n')), 60000);
        const int64_t stopped_at = w.store().run(id)->steps_done;
        // The run table says how far a run short of its steps got.
        QTRY_COMPARE_WITH_TIMEOUT(w.runModel()->data(w.runModel()->index(w.runModel()->rowOf(id), RunTableModel::Steps), Qt::DisplayRole).toString(),
                                  QString("%1 / 20000").arg(stopped_at), 10000);
        w.resumeRuns({id});
        QTRY_VERIFY2_WITH_TIMEOUT(said_there.contains(QString("Resumed on gpu: #%1 Pre-LN").arg(id)), qPrintable(said_there.join('\n')),
                                  60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->status == RunStatus::Running, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->steps_done > stopped_at, 60000);
        // The follower's news worded by the window (remote follow --json): the run's progress
        // under its id and name here, then how far it got when it stopped.
        const QRegularExpression progress(QString("^Run #%1 Pre-LN on gpu: step [0-9]+/20000 \\([0-9]+%\\) · loss [0-9.]+ "
                                                  "(· validation [0-9.]+ )?· [0-9]+ tokens/s · ETA [0-9:]+$").arg(id));
        QTRY_VERIFY2_WITH_TIMEOUT(!said_there.filter(progress).isEmpty(), qPrintable(said_there.join('\n')), 60000);
        QVERIFY(w.remoteAction({id}, "cancel").empty());
        QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->status == RunStatus::Cancelled, 60000);
        const QRegularExpression ended(QString("^Run #%1 Pre-LN on gpu: cancelled after [0-9]+ step").arg(id));
        QTRY_VERIFY2_WITH_TIMEOUT(!said_there.filter(ended).isEmpty(), qPrintable(said_there.join('\n')), 60000);
        // Stopped once more (it was, meanwhile): the server's own words, not "Stopped".
        QTRY_VERIFY_WITH_TIMEOUT(said_there.count(stopped) == 2, 60000);
        QVERIFY(w.remoteAction({id}, "cancel").empty());
        const QString nothing = QString("gpu: #%1 Pre-LN is cancelled: nothing to stop").arg(id);
        QTRY_VERIFY2_WITH_TIMEOUT(said_there.contains(nothing), qPrintable(said_there.join('\n')), 60000);
        QCOMPARE(said_there.count(stopped), 2);
    }
};

QTEST_MAIN(RemoteGuiTest)
#include "test_remote_gui.moc"
