// The desktop app, offscreen: a tiny run launched from the window reaches the
// store and the loss chart, resumes from the run browser, stops on SIGTERM and
// SIGHUP; a translation changes visible labels; settings load from a run; shown
// runs and panels come back; runs compare across stores; run data reads
// incrementally; the reproduction report's dialog. (Comparing and exporting:
// test_gui_compare; the queue's runs changed from outside: test_gui_queue.)
#include "app/gui/mainwindow.h"
#include "app/gui/report.h"
#include "app/gui/reportdialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/store/store.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "widgets/rundata.h"
#include "widgets/runtable.h"
#include "tests/designer_util.h"
#include "tests/test_util.h"
#include "tests/window_util.h"

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QStatusBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <cmath>
#include <functional>
#include <map>
#include <csignal>
#include <fstream>

using namespace normlab;
using test::make_tiny;

using test::wait_idle;

class TestGui : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store() { return dir_.filePath("gui.sqlite"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
    }

    void tinyRunFromTheWindowReachesStoreAndCharts() {
        MainWindow w(store());
        w.show();
        QAbstractItemModelTester tester(w.runModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        make_tiny(w.designer());
        w.latency()->reset();
        const qint64 id = w.runCurrent();
        QVERIFY(id > 0);
        wait_idle(w, id);
        QCOMPARE(w.store().run(id)->status, RunStatus::Finished);
        QTRY_VERIFY_WITH_TIMEOUT(!w.charts()->lossChart()->curves().empty(), 5000);
        const Curve& train = w.charts()->lossChart()->curves().front();
        QCOMPARE(train.x.size(), size_t(40));
        QCOMPARE(train.label, QString::fromStdString(w.store().run(id)->name) + " train");   // named, no id: no clash
        QVERIFY(w.charts()->lossChart()->pointsDrawn() > 0);
        QVERIFY(w.charts()->gradChart()->curves().empty());    // hidden tabs are not drawn ...
        w.charts()->tabs()->setCurrentIndex(1);
        QVERIFY(!w.charts()->gradChart()->curves().empty());   // ... until shown: per-layer gradients
        QVERIFY(w.runModel()->rowOf(id) >= 0);
        qInfo("event-loop latency while training: p50 %.2f ms, p99 %.2f ms over %zu samples", w.latency()->percentile(50),
              w.latency()->percentile(99), w.latency()->samples());
        QVERIFY(w.latency()->samples() > 0);
    }

    void resumeFromTheRunBrowser() {
        MainWindow w(store());
        w.show();
        make_tiny(w.designer(), 40);
        const RunConfig cfg = w.designer()->config();
        int64_t id;
        {
            // A run cancelled at step 12, as the Stop button or a closed window leaves it.
            Store s(store().toStdString());
            id = queue_run(s, cfg);
            RunControl control;
            TrainOptions o;
            o.control = &control;
            o.progress_interval_s = 0;
            o.on_progress = [&](const Progress& p) {
                if (p.step >= 12) control.cancel();
            };
            QCOMPARE(train_run(s, id, o).status, RunStatus::Cancelled);
        }
        w.reloadRuns();
        auto* resume = w.findChild<QPushButton*>("run_resume");
        QVERIFY(resume);
        w.showRuns({id});
        auto* table = w.findChild<QTableView*>("runTable");
        for (int r = 0; r < table->model()->rowCount(); ++r)
            if (table->model()->index(r, 0).data().toLongLong() == id) table->selectRow(r);
        QCOMPARE(w.selectedRuns(), std::vector<qint64>{id});
        resume->click();
        // (the run is `cancelled` until the worker claims it: wait for the end, not for "not running")
        QTRY_COMPARE_WITH_TIMEOUT(w.store().run(id)->status, RunStatus::Finished, 120000);
        const auto run = *w.store().run(id);
        QCOMPARE(run.info["resumed_at_step"].get<int64_t>(), int64_t(12));
        QCOMPARE(w.store().points(w.store().series_id(id, "train/loss")).size(), size_t(40));
    }

    void helpNeedsNoDisplay() {
        // `normlab --help` on a server without a display prints its options (it aborted in Qt's start-up).
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) env.remove(v);
        app.setProcessEnvironment(env);
        for (const char* flag : {"--help", "--version"}) {
            app.start(QStringLiteral(NORMLAB_APP), {flag});
            QVERIFY(app.waitForFinished(60000));
            const QString out = QString::fromUtf8(app.readAllStandardOutput());
            QVERIFY2(app.exitStatus() == QProcess::NormalExit && app.exitCode() == 0 &&
                         out.contains(flag == std::string("--help") ? "--store" : NORMLAB_VERSION),
                     qPrintable(out + app.readAllStandardError()));
        }
        // normlab figure's and report's usage: each option once, in lines that read as one list (figure's had a
        // line run into the next one's indent, "[--title TEXT]                      [--column ...]").
        for (const char* command : {"figure", "report"}) {
            app.start(QStringLiteral(NORMLAB_APP), {command, "--help"});
            QVERIFY(app.waitForFinished(60000));
            const QString out = QString::fromUtf8(app.readAllStandardOutput());
            QVERIFY2(app.exitCode() == 0 && out.startsWith(QString("usage: normlab ") + command), qPrintable(out));
            const QStringList lines = out.split('\n');
            QSet<QString> options;
            for (const QString& line : lines) {
                if (!line.startsWith("usage:") && !line.startsWith("                      [")) break;
                QVERIFY2(!line.trimmed().contains("  "), qPrintable(command + (": " + line)));
                for (const auto& m : QRegularExpression("--[a-z-]+").globalMatch(line)) {
                    QVERIFY2(!options.contains(m.captured()), qPrintable(command + (": twice: " + m.captured())));
                    options.insert(m.captured());
                }
            }
            QVERIFY2(options.contains("--store") && options.contains("--dpi"), qPrintable(out));
        }
    }

    void aBadWindowSizeIsRefusedBeforeTheStoreIsMade() {
        // --window-size (scripts/screenshots.sh at a laptop's 1280x720): a size it cannot use is named
        // with the fix, exit 2, and the store it names is not created.
        const QString st = dir_.filePath("never.sqlite");
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        app.setProcessEnvironment(env);
        for (const char* bad : {"1280", "12x7", "widexhigh"}) {
            app.start(QStringLiteral(NORMLAB_APP), {"--store", st, "--experiment", NORMLAB_SOURCE_DIR "/experiments/quick_look.json",
                                                    "--screenshots", dir_.filePath("shots"), "--window-size", bad});
            QVERIFY(app.waitForFinished(60000));
            const QString err = QString::fromUtf8(app.readAllStandardError());
            QVERIFY2(app.exitCode() == 2 && err.contains("--window-size") && err.contains("1280x720"), qPrintable(err));
            QVERIFY(!QFile::exists(st));
        }
    }

    void sigtermCancelsTheRunAndQuits_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void sigtermCancelsTheRunAndQuits() {
        // A session ending or `kill` sends SIGTERM, the terminal the window was started from
        // closing SIGHUP: the run is kept as cancelled, with a checkpoint.
        QFETCH(int, sig);
        const QString exp = dir_.filePath("slow.json");
        test::write_endless_experiment(exp, "slow");
        const QString st = dir_.filePath(QString("signal%1.sqlite").arg(sig));
        QProcess app;
        QVERIFY(test::start_app_training(app, QStringLiteral(NORMLAB_APP), dir_.path(), st, exp));
        const bool training =
            QTest::qWaitFor([&] { return app.state() == QProcess::NotRunning || test::trains_past_step_5(st, 1); }, 60000);
        QVERIFY2(training && app.state() != QProcess::NotRunning,
                 qPrintable(QString("the app %1 (exit %2, status %3): %4")
                                .arg(training ? "ended early" : "never trained").arg(app.exitCode()).arg(app.exitStatus())
                                .arg(QString::fromUtf8(app.readAllStandardError()).right(3000))));
        ::kill(static_cast<pid_t>(app.processId()), sig);
        QVERIFY(app.waitForFinished(10000));
        QCOMPARE(app.exitStatus(), QProcess::NormalExit);
        QCOMPARE(app.exitCode(), 0);
        Store s(st.toStdString(), Store::Mode::ReadOnly);
        QCOMPARE(s.run(1)->status, RunStatus::Cancelled);
        QVERIFY(!s.run(1)->checkpoint.empty());
    }

    void translationChangesVisibleLabels() {
        MainWindow w(store());
        QCOMPARE(w.designer()->runButton()->text(), QString("Run"));
        QVERIFY(w.switchLanguage("de"));
        QCoreApplication::processEvents();
        QCOMPARE(w.designer()->runButton()->text(), QString("Starten"));
        QCOMPARE(w.menuBar()->actions().first()->text(), QString("&Datei"));
        // the charts, the run browser and the queue follow too
        QCOMPARE(w.charts()->tabs()->tabText(0), QString("Verlust"));
        QCOMPARE(w.findChild<QComboBox*>("xUnit")->currentText(), QString("Schritt"));
        QCOMPARE(w.findChild<QPushButton*>("run_resume")->text(), QString("Fortsetzen"));
        QCOMPARE(w.findChild<QPushButton*>("queuePause")->text(), QString("Pausieren"));
        // the German form fits its panel: no row is cut off at the right
        w.resize(1400, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCoreApplication::processEvents();
        auto* form = w.designer()->findChild<QScrollArea*>();
        QVERIFY(form);
        QVERIFY2(form->widget()->minimumSizeHint().width() <= form->viewport()->width(),
                 qPrintable(QString("%1 > %2").arg(form->widget()->minimumSizeHint().width()).arg(form->viewport()->width())));
        QVERIFY(w.switchLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QCOMPARE(w.designer()->runButton()->text(), QString("运行"));
        w.switchLanguage("en");
        QCoreApplication::processEvents();
        QCOMPARE(w.designer()->runButton()->text(), QString("Run"));
        // and switching back leaves nothing of the other languages
        QCOMPARE(w.charts()->tabs()->tabText(0), QString("Loss"));
        QCOMPARE(w.findChild<QComboBox*>("xUnit")->currentText(), QString("step"));
        QCOMPARE(w.findChild<QPushButton*>("run_resume")->text(), QString("Resume"));
    }

    void loadSettingsIntoTheFormFromARun() {
        MainWindow w(store());
        make_tiny(w.designer(), 30);
        qobject_cast<QSpinBox*>(w.designer()->field("model.n_layers"))->setValue(3);
        w.designer()->setScheme(Scheme::NormFormer);
        const RunConfig want = w.designer()->config();
        int64_t id;
        {
            Store s(store().toStdString());
            id = queue_run(s, want);
        }
        w.designer()->setScheme(Scheme::PostLN);
        qobject_cast<QSpinBox*>(w.designer()->field("model.n_layers"))->setValue(2);
        QVERIFY(w.loadRunSettings(id));
        const RunConfig got = w.designer()->config();
        QCOMPARE(got.scheme, Scheme::NormFormer);
        QCOMPARE(got.model.n_layers, 3);
        QCOMPARE(QString::fromStdString(to_json(got).dump()), QString::fromStdString(to_json(want).dump()));
        QVERIFY(w.designer()->undo());                   // and back
        QCOMPARE(w.designer()->config().model.n_layers, 2);
    }

    void shownRunsComeBackSelectedAfterARestart() {
        const QString path = dir_.filePath("restart.sqlite");
        std::vector<int64_t> ids;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 3; ++k) ids.push_back(s.create_run("r" + std::to_string(k), "pre_ln", nlohmann::json::object(), 1));
        }
        {
            MainWindow w(path);
            QCOMPARE(w.selectedRuns(), std::vector<qint64>{ids[2]});   // a new window: the newest run, selected
            w.selectRuns({ids[0], ids[2]});
            QCOMPARE(w.selectedRuns(), (std::vector<qint64>{ids[0], ids[2]}));
            QCOMPARE(w.charts()->runs().size(), size_t(2));
            w.close();
        }
        MainWindow again(path);
        QCOMPARE(again.selectedRuns(), (std::vector<qint64>{ids[0], ids[2]}));
        QCOMPARE(again.charts()->runs().size(), size_t(2));
    }

    // Several stores at once: another store opened read-only beside the
    // window's own; its runs join the table and the charts, names that clash
    // say their store, its runs cannot be changed, and closing it leaves the
    // window's own runs shown.
    void comparesRunsAcrossStores() {
        const QString own = dir_.filePath("own.sqlite"), other = dir_.filePath("other.sqlite");
        auto fill = [](const QString& path, double offset) {
            Store s(path.toStdString());
            const int64_t id = s.create_run("pre_ln", "pre_ln", nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int i = 0; i < 30; ++i) w.scalar("train/loss", i, 5.0 - 0.05 * i + offset);
            w.flush();
            s.finish_run(id, RunStatus::Finished, 30, "", 3.0);
            return id;
        };
        const int64_t a = fill(own, 0), b = fill(other, 0.5);
        QCOMPARE(a, b);   // the same id in both: told apart by their store
        MainWindow w(own);
        QString err;
        QVERIFY(!w.compareStore(own, &err));
        QVERIFY2(err.contains("this window has open"), qPrintable(err));
        QVERIFY(w.runTable()->isColumnHidden(RunTableModel::Source));
        QVERIFY2(w.compareStore(other, &err), qPrintable(err));
        QVERIFY(!w.compareStore(other, &err));   // once
        QCOMPARE(w.runModel()->rowCount(), 2);
        QVERIFY(!w.runTable()->isColumnHidden(RunTableModel::Source));
        QCOMPARE(w.runModel()->data(w.runModel()->index(1, RunTableModel::Source), Qt::DisplayRole).toString(), QString("other.sqlite"));
        w.runTable()->selectAll();
        QTest::qWait(50);
        const auto refs = w.selectedRefs();
        QCOMPARE(refs.size(), size_t(2));
        QCOMPARE(w.selectedRuns(), std::vector<qint64>{a});   // what editing acts on: the window's own
        const auto& curves = w.charts()->lossChart()->curves();
        QStringList labels;
        for (auto& c : curves) labels << c.label;
        QVERIFY2(labels.contains(QString("pre_ln (#%1) train").arg(a)) &&
                 labels.contains(QString("pre_ln (#%1, other.sqlite) train").arg(b)), qPrintable(labels.join(" | ")));
        double last_other = 0;
        for (auto& c : curves)
            if (c.label.contains("other.sqlite")) last_other = c.y.back();
        QCOMPARE(last_other, 5.0 - 0.05 * 29 + 0.5);   // its data, from its store
        auto* diff = w.findChild<QTableWidget*>("differences");
        QCOMPARE(diff->columnCount(), 2);
        QVERIFY(diff->horizontalHeaderItem(1)->text().contains("other.sqlite"));
        w.stopComparing();
        QCOMPARE(w.runModel()->rowCount(), 1);
        QCOMPARE(w.charts()->runs().size(), size_t(1));
        QVERIFY(w.runTable()->isColumnHidden(RunTableModel::Source));
    }

    void everyPanelCanBeReopenedFromTheViewMenu() {
        MainWindow w(store());
        w.show();
        auto* panels = w.findChild<QMenu*>("panelsMenu");
        QVERIFY(panels);
        const auto docks = w.findChildren<QDockWidget*>();
        // one action a panel, then a separator and Reset layout
        QCOMPARE(panels->actions().size(), docks.size() + 2);
        QVERIFY(docks.size() >= 4);
        QVERIFY(panels->actions().back()->objectName() == "resetLayout");
        for (auto* dock : docks) {
            dock->close();
            QVERIFY(!dock->isVisible());
            QAction* a = nullptr;
            for (auto* x : panels->actions())
                if (x->text() == dock->windowTitle()) a = x;
            QVERIFY2(a, qPrintable(dock->windowTitle()));
            a->trigger();
            QVERIFY2(dock->isVisible(), qPrintable(dock->windowTitle()));
        }
        for (auto* dock : docks) dock->close();
        panels->actions().back()->trigger();   // Reset layout: every panel back
        for (auto* dock : docks) QVERIFY2(dock->isVisible(), qPrintable(dock->windowTitle()));
    }

    void runDataReadsIncrementally() {
        const std::string p = dir_.filePath("incr.sqlite").toStdString();
        Store s(p);
        const int64_t id = s.create_run("live", "pre_ln", nlohmann::json::object(), 1);
        s.mark_running(id, "cpu", nlohmann::json::object());
        RunData data(id);
        {
            RunWriter w(s, id);
            for (int i = 0; i < 100; ++i) w.scalar("train/loss", i, 1.0);
        }
        QVERIFY(data.refresh(s));
        QCOMPARE(data.series("train/loss")->steps.size(), size_t(100));
        QVERIFY(!data.refresh(s));   // nothing new
        {
            RunWriter w(s, id);
            for (int i = 100; i < 150; ++i) w.scalar("train/loss", i, 0.5);
            w.layer("grad_l1/fc2", 3, 0, 0.1);
        }
        QVERIFY(data.refresh(s));
        QCOMPARE(data.series("train/loss")->steps.size(), size_t(150));
        QCOMPARE(data.layers("grad_l1/fc2"), 4);
        RunTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.reload(s);
        QCOMPARE(model.rowCount(), 1);
        s.rename_run(id, "renamed");
        QSignalSpy spy(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(spy.isValid());
        model.reload(s);
        QCOMPARE(spy.count(), 1);
    }

    // Run → Reproduce paper findings…: the dialog lists the shipped
    // experiments, runs `normlab report` as a child process on a tiny one and
    // offers the finished report; the menu entry exists.
    // Where the window looks for its experiments: the working directory's, then the installed
    // ones (bin/../share/normlab/experiments), then the source tree's beside a build's app/.
    void shippedExperimentsAreFoundWhereInstalled() {
        QTemporaryDir t;
        const QString prefix = t.filePath("prefix"), bin = prefix + "/bin", cwd = t.filePath("work");
        QVERIFY(QDir().mkpath(bin) && QDir().mkpath(cwd));
        QCOMPARE(shipped_experiments_dir(bin, cwd), QString());   // none anywhere
        const QString installed = prefix + "/share/normlab/experiments";
        QVERIFY(QDir().mkpath(installed + "/reproduction"));
        QCOMPARE(shipped_experiments_dir(bin, cwd), QString());   // a folder without experiments is none
        std::ofstream((installed + "/reproduction/a.json").toStdString()) << "{}";
        QCOMPARE(shipped_experiments_dir(bin, cwd), installed);
        QVERIFY(QDir().mkpath(cwd + "/experiments/reproduction"));
        std::ofstream((cwd + "/experiments/reproduction/b.json").toStdString()) << "{}";
        QCOMPARE(shipped_experiments_dir(bin, cwd), cwd + "/experiments");   // a checkout's own first
        QCOMPARE(shipped_experiments_dir(bin, t.filePath("elsewhere")), installed);
    }

    void reproductionReportDialog() {
        MainWindow w(store());
        bool found = false;
        for (QAction* m : w.menuBar()->actions())
            for (QAction* a : m->menu() ? m->menu()->actions() : QList<QAction*>{})
                found = found || a->text().contains("Reproduce");
        QVERIFY(found);
        const QString exp = dir_.filePath("tiny_report.json");
        {
            std::ofstream f(exp.toStdString());
            f << R"({"name": "tiny-report",
              "base": {"model": {"d_model": 32, "n_layers": 2, "n_heads": 2, "d_ff": 64, "context": 16},
                       "train": {"steps": 1, "batch_size": 2, "eval_every": 0, "threads": 1},
                       "probes": {"forward_every": 1, "cond_every": 0, "gains_every": 0},
                       "data": {"source": "markov", "markov": {"length": 20000}}},
              "variants": [{"scheme": "post_ln"}, {"scheme": "pre_ln"}],
              "scales": {"two": {"base": {"train": {"steps": 2}}},
                         "nofile": {"base": {"data": {"source": "file", "path": "no-such-file.txt"}}}},
              "report": [{"finding": 3}]})";
        }
        // experiments/reproduction/*.json, from any working directory (a build outside the checkout
        // found none unless started in it)
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir_.path()));
        const QStringList shipped = default_reproduction_experiments();
        QVERIFY(QDir::setCurrent(cwd));
        QVERIFY2(shipped.size() >= 6, qPrintable(shipped.join(", ")));
        QCOMPARE(default_reproduction_experiments(), shipped);
        ReportDialog d(store());
        QCOMPARE(d.experiments(), default_reproduction_experiments());
        // Model size: the shipped experiments' gpu scale relabels every one with its runs and memory there,
        // where the English corpus has been made (scripts/make_corpus.py); else each says how to make it
        const bool corpus = QFile::exists(NORMLAB_SOURCE_DIR "/normlab-data/english.txt");
        QVERIFY(d.setScale("gpu"));
        auto* list = d.findChild<QListWidget*>("reportFiles");
        QVERIFY(list && list->count() == d.experiments().size());
        for (int i = 0; i < list->count(); ++i)
            QVERIFY2(list->item(i)->text().contains(corpus ? "GiB each" : "python3 scripts/make_corpus.py"),
                     qPrintable(list->item(i)->text()));
        if (corpus) QVERIFY(list->item(0)->text().startsWith("deep_stack.json — findings 9; 3 run(s), up to 17."));
        QVERIFY(d.arguments().mid(d.arguments().indexOf("--scale"), 2) == (QStringList{"--scale", "gpu"}));
        QPushButton* start = nullptr;
        for (auto* b : d.findChildren<QPushButton*>())
            if (b->text() == "Start") start = b;
        QVERIFY(start);
        QCOMPARE(start->isEnabled(), corpus);
        // a file without the chosen scale says so, and nothing starts
        const QString deep = default_reproduction_experiments().first();
        d.setExperiments({exp, deep});
        QCOMPARE(d.scale(), QString("gpu"));   // still offered (by deep_stack.json)
        QVERIFY(list->item(0)->text().contains("cannot be used"));
        QVERIFY(!start->isEnabled());
        QVERIFY(d.setScale("two"));
        QVERIFY(list->item(1)->text().contains("cannot be used") && !start->isEnabled());
        d.setExperiments({exp});   // "gpu" is offered no more: "two" is
        QCOMPARE(d.scale(), QString("two"));
        QVERIFY(d.setScale("nofile"));   // a file to read that is not there: said before anything trains
        QVERIFY2(list->item(0)->text().contains("cannot be used: data.path: no-such-file.txt does not exist"),
                 qPrintable(list->item(0)->text()));
        QVERIFY(!start->isEnabled());
        QVERIFY(!d.setScale("gpu"));
        QVERIFY(d.setScale(""));
        const QString out = dir_.filePath("dialog-report");
        d.setOutputDir(out);
        QVERIFY(start->isEnabled());
        QCOMPARE(d.arguments(), (QStringList{"report", exp, "--out", out, "--store", store()}));
        QVERIFY(d.setScale("two"));
        QCOMPARE(d.arguments(), (QStringList{"report", exp, "--out", out, "--scale", "two", "--store", store()}));
        d.setProgram(NORMLAB_APP);
        QSignalSpy done(&d, &ReportDialog::reportFinished);
        d.start();
        QVERIFY(d.running());
        QVERIFY(done.wait(120000));
        QCOMPARE(done.first().first().toInt(), 0);
        QVERIFY2(QFile::exists(out + "/index.html"), qPrintable(d.log()));
        QVERIFY(d.log().contains("Hidden-state norms"));
        // The window's store sees the runs the child trained, at the chosen scale.
        int at_scale = 0;
        for (const RunInfo& r : Store(store().toStdString()).runs())
            if (r.steps_done == 2 && r.config.value("train", nlohmann::json::object()).value("steps", 0) == 2) ++at_scale;
        QVERIFY2(at_scale >= 2, qPrintable(d.log()));
    }
};

QTEST_MAIN(TestGui)
#include "test_gui.moc"
