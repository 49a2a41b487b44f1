// normlab: the desktop app.
//
//   normlab [--store FILE] [--experiment FILE.json] [--run]
//   normlab --screenshots DIR --experiment FILE.json [--store FILE]
//       trains the experiment's runs, then saves a PNG of each main view into DIR and quits
//   normlab --measure-latency --experiment FILE.json [--store FILE]
//       trains the experiment with the charts on screen and prints the event loop's
//       latency (p50/p99 in ms) as JSON, then quits (bench/run.py uses it)
//   normlab report EXPERIMENT.json... --out DIR [...]
//       reproduces the papers' findings and writes a report (app/gui/report.h); offscreen
//   normlab figure RUN... --out FILE.pdf|svg|png [...]
//       one chart of stored runs at a size for print (app/gui/figure_command.h); offscreen
#include "app/gui/figure_command.h"
#include "app/gui/mainwindow.h"
#include "app/gui/report.h"
#include "app/gui/reportdialog.h"
#include "app/gui/sampledialog.h"
#include "app/gui/worker.h"
#include "app/stop_signals.h"
#include "core/platform.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QInputDialog>
#include <QLineEdit>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <string>

using namespace normlab;

namespace {

// SIGTERM/SIGINT/SIGHUP (a session ending, `kill`, Ctrl-C in the terminal, the
// terminal it was started from closing): the run in progress is cancelled with
// a checkpoint, as the Stop button would, and the app quits. The handler only
// sets a flag; a timer acts on it.
std::atomic<int> g_stop{0};
void on_stop_signal(int) { g_stop = 1; }

// Waits (serving the event loop, which sleeps between events as app.exec()'s
// does) until no run is queued or training.
void wait_for_runs(MainWindow& w, const std::vector<qint64>& ids) {
    auto busy = [&] {
        if (w.worker()->current() != 0 || !w.worker()->queued().empty()) return true;
        for (qint64 id : ids)
            if (auto r = w.store().run(id); r && (r->status == RunStatus::Queued || r->status == RunStatus::Running)) return true;
        return false;
    };
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (!busy()) loop.quit();
    });
    poll.start(100);
    loop.exec();
    QTimer::singleShot(500, &loop, &QEventLoop::quit);   // the last redraws
    loop.exec();
}

}  // namespace

// ssh's SSH_ASKPASS (app/gui/remote.h): the window's children have no
// terminal, so ssh asks for a passphrase, a password or a two-factor code
// through this program (NORMLAB_ASKPASS=1, the prompt as its one argument).
int ask_pass(int argc, char** argv) {
    QApplication app(argc, argv);
    const QString prompt = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QObject::tr("ssh asks:");
    // A yes/no question (an unknown host key) is answered in words; a secret is hidden.
    const bool secret = !prompt.contains("(yes/no");
    bool ok = false;
    const QString answer = QInputDialog::getText(nullptr, QObject::tr("NormLab — ssh"), prompt,
                                                 secret ? QLineEdit::Password : QLineEdit::Normal, QString(), &ok);
    if (!ok) return 1;
    std::printf("%s\n", answer.toLocal8Bit().constData());
    return 0;
}

int main(int argc, char** argv) {
    if (qEnvironmentVariable("NORMLAB_ASKPASS") == "1" && argc <= 2) return ask_pass(argc, argv);
    // The window and the report train: they start again with OpenMP's threads
    // waiting passively (core/platform.h); a figure need not pay for that.
    if (!(argc > 1 && std::string(argv[1]) == "figure")) tune_thread_waiting(argv);
    tune_cpu_kernels();
    if (argc > 1 && std::string(argv[1]) == "report") {
        // Headless: figures are drawn offscreen, no display needed.
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QStringList args = QApplication::arguments().mid(2);
        return run_report(args);
    }
    if (argc > 1 && std::string(argv[1]) == "figure") {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        return run_figure(QApplication::arguments().mid(2));
    }
    // The window: what it writes on its standard streams (Qt's warnings, a message) is never worth its life.
    // Started with them piped (`normlab 2>&1 | tee log`, a launcher's pipe) and the reader gone, a write
    // raised SIGPIPE and ended it mid-step, its run interrupted; ignored, the write fails and it goes on.
    // (Qt ignores SIGPIPE itself once it starts a process, and gives its children the default back.)
    std::signal(SIGPIPE, SIG_IGN);
    // --help and --version print and exit: they need no display (without one, Qt would abort).
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if ((a == "--help" || a == "-h" || a == "--help-all" || a == "--version" || a == "-v") &&
            qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    QApplication::setOrganizationName("NormLab");
    QApplication::setApplicationName("NormLab");
    QApplication::setApplicationVersion(NORMLAB_VERSION);
    QApplication::setWindowIcon(QIcon(":/normlab.svg"));

    QCommandLineParser cli;
    cli.setApplicationDescription(QCoreApplication::translate(
        "main", "NormLab: normalization in Transformer language models\n"
                "normlab report EXPERIMENT.json... --out DIR: reproduce the papers' findings (see normlab report --help)\n"
                "normlab figure RUN... --out FILE.pdf: one chart of stored runs for a paper (see normlab figure --help)"));
    cli.addHelpOption();
    cli.addVersionOption();
    QCommandLineOption store({"s", "store"}, QCoreApplication::translate("main", "Run store file."), "file");
    QCommandLineOption experiment({"e", "experiment"}, QCoreApplication::translate("main", "Experiment to open."), "file");
    QCommandLineOption run({"r", "run"}, QCoreApplication::translate("main", "Start the opened experiment at once."));
    QCommandLineOption shots("screenshots", QCoreApplication::translate("main", "Train, save screenshots into DIR, quit."), "dir");
    QCommandLineOption size("window-size", QCoreApplication::translate("main", "With --screenshots: the window's size, WIDTHxHEIGHT (default 1600x1000)."), "size");
    QCommandLineOption latency("measure-latency", QCoreApplication::translate("main", "Train and print the UI latency."));
    QCommandLineOption lang("language", QCoreApplication::translate("main", "UI language (en, de, zh_CN)."), "code");
    QCommandLineOption theme("theme", QCoreApplication::translate("main", "Colours: system (the platform's, the default), light or dark; remembered from View → Theme otherwise."), "name");
    QCommandLineOption compare("compare", QCoreApplication::translate("main", "Open another run store beside it, read-only, to compare its runs (repeatable)."), "file");
    cli.addOptions({store, experiment, run, shots, size, latency, lang, theme, compare});
    cli.process(app);
    // refused before the store is opened (which creates it)
    QSize window(1600, 1000);
    if (cli.isSet(size)) {
        const QStringList wh = cli.value(size).split('x');
        bool ok_w = false, ok_h = false;
        if (wh.size() == 2) window = QSize(wh[0].toInt(&ok_w), wh[1].toInt(&ok_h));
        if (!ok_w || !ok_h || window.width() < 640 || window.height() < 400) {
            std::fprintf(stderr, "normlab: --window-size %s: give WIDTHxHEIGHT, at least 640x400 (e.g. 1280x720)\n",
                         qPrintable(cli.value(size)));
            return 2;
        }
    }

    if (cli.isSet(theme) && !QStringList{"system", "light", "dark"}.contains(cli.value(theme))) {
        std::fprintf(stderr, "normlab: --theme %s: give system, light or dark\n", qPrintable(cli.value(theme)));
        return 2;
    }

    MainWindow w(cli.value(store));
    // before the window is shown: it opens in its colours, not in the system's first
    if (!w.switchTheme(cli.isSet(theme) ? cli.value(theme) : QSettings().value("theme").toString())) w.switchTheme("system");
    w.switchLanguage(cli.isSet(lang) ? cli.value(lang) : QSettings().value("language").toString());
    for (const QString& other : cli.values(compare)) {
        QString err;
        if (!w.compareStore(other, &err)) std::fprintf(stderr, "normlab: --compare %s: %s\n", qPrintable(other), qPrintable(err));
    }
    if (cli.isSet(experiment)) {
        QString err;
        if (!w.designer()->openExperiment(cli.value(experiment), &err)) {
            std::fprintf(stderr, "normlab: %s\n", qPrintable(err));
            return 2;
        }
    }
    w.show();

    if (cli.isSet(shots) || cli.isSet(latency)) {
        if (!w.designer()->experiment()) {
            std::fprintf(stderr, "normlab: --screenshots and --measure-latency need --experiment FILE\n");
            return 2;
        }
        w.resize(window);
        QApplication::processEvents();
        w.fitDocks();   // as a first start at this size lays them out
        QApplication::processEvents();
        w.latency()->reset();
        const auto ids = w.runExperiment();
        wait_for_runs(w, ids);
        if (cli.isSet(latency)) {
            std::printf("{\"p50_ms\": %.3f, \"p99_ms\": %.3f, \"samples\": %zu}\n", w.latency()->percentile(50),
                        w.latency()->percentile(99), w.latency()->samples());
            return 0;
        }
        QDir dir(cli.value(shots));
        dir.mkpath(".");
        w.showRuns(ids);
        const char* names[] = {"loss", "gradients", "gains", "layers", "scalars", "sweep", "block"};
        for (int t = 0; t < w.charts()->tabs()->count() && t < static_cast<int>(std::size(names)); ++t) {
            w.charts()->tabs()->setCurrentIndex(t);
            for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 30);
            w.grab().save(dir.filePath(QString("normlab-%1.png").arg(names[t])));
        }
        // Run → Reproduce paper findings…, as it opens.
        ReportDialog report(QString::fromStdString(w.store().path()), &w);
        report.show();
        for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 30);
        report.grab().save(dir.filePath("normlab-report-dialog.png"));
        report.hide();
        // Write text… with the experiment's runs, once their texts are written.
        std::vector<RunInfo> runs;
        for (qint64 id : ids)
            if (auto r = w.store().run(id)) runs.push_back(*r);
        SampleDialog sample(std::move(runs), 0, &w);
        sample.show();
        sample.write();
        while (sample.writing()) {
            QApplication::processEvents(QEventLoop::AllEvents, 30);
            QThread::msleep(20);
        }
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 30);
        sample.grab().save(dir.filePath("normlab-write-text.png"));
        return 0;
    }
    if (cli.isSet(run) && w.designer()->experiment()) QTimer::singleShot(0, &w, [&w] { w.runExperiment(); });
    std::signal(SIGTERM, on_stop_signal);
    std::signal(SIGINT, on_stop_signal);
    normlab::app::stop_on_hangup(on_stop_signal);   // the terminal it was started from closed
    QTimer stop_watch;
    QObject::connect(&stop_watch, &QTimer::timeout, &app, [&w] {
        if (g_stop) w.stopAndQuit();
    });
    stop_watch.start(100);
    return app.exec();
}
