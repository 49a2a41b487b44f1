// The Sweep view (widgets/sweep.h): which settings become axes, where each run
// sits on them, the line under the mouse named, the CSV, the window's tab and
// `normlab figure --view sweep` read back from the PDF.
#include "core/config.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/elided_label.h"
#include "widgets/plot_figure.h"
#include "widgets/sweep.h"
#include "tests/figure_util.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QCheckBox>
#include <QHelpEvent>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QProcess>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;
using namespace normlab::test;
using nlohmann::json;

namespace {

json config(double lr, const char* layout, int seed) {
    return {{"name", "ignored"}, {"scheme", "pre_ln"}, {"model", {{"layout", layout}, {"d_model", 64}}},
            {"optim", {{"lr", lr}}}, {"train", {{"seed", seed}}}};
}

// A run's stored config, as the trainer stores it: every field, the scheme's preset applied.
json stored(const char* scheme, json changes = json::object()) {
    changes["scheme"] = scheme;
    return to_json(run_config_from_json(changes));
}

QStringList axis_names(const SweepSpec& s) {
    QStringList names;
    for (auto& a : s.axes) names << a.name;
    return names;
}

}  // namespace

class TestSweep : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Four runs of a learning-rate sweep over two layouts and seeds, one diverged; two identical runs.
    QString makeStore() {
        const QString path = dir_.filePath("sweep.sqlite");
        if (QFile::exists(path)) return path;
        Store s(path.toStdString());
        const double lrs[] = {1e-4, 3e-4, 1e-3, 3e-3};
        const char* layouts[] = {"pre", "pre", "post", "post"};
        for (int k = 0; k < 4; ++k) {
            const int64_t id = s.create_run("lr " + std::to_string(k), "pre_ln", config(lrs[k], layouts[k], 1 + k % 2), 1);
            s.mark_running(id, "cpu", json::object());
            {
                RunWriter w(s, id);
                for (int i = 0; i <= 100; i += 10) {
                    w.scalar("train/loss", i, 3.0 - 0.001 * i * (k + 1));
                    w.scalar("val/loss", i, 3.1 - 0.001 * i * (k + 1));
                }
            }
            if (k == 3) s.finish_run(id, RunStatus::Diverged, 100, "loss became NaN", std::nan(""));
            else s.finish_run(id, RunStatus::Finished, 100, "", 3.1 - 0.1 * (k + 1));
        }
        for (int k = 0; k < 2; ++k) s.create_run("same " + std::to_string(k), "pre_ln", config(1e-3, "pre", 1), 1);
        // run 7: run 3's settings but for the seed
        const int64_t id = s.create_run("lr 2 seed=2", "pre_ln", config(1e-3, "post", 2), 1);
        s.mark_running(id, "cpu", json::object());
        {
            RunWriter w(s, id);
            w.scalar("val/loss", 100, 2.5);
        }
        s.finish_run(id, RunStatus::Finished, 100, "", 2.5);
        return path;
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // Only the settings that differ are axes (the name never), numbers at their values, other settings as
    // categories, then the outcome; a run without one has no place on the outcome's axis.
    void theSettingsThatDifferAreTheAxes() {
        const std::vector<SweepRun> runs = {{"a", config(1e-3, "pre", 1), 2.5},
                                            {"b", config(2e-3, "pre", 2), 2.4},
                                            {"c", config(3e-3, "post", 1), 2.9},
                                            {"d", config(1e-3, "post", 2), std::nan("")}};
        const SweepSpec s = sweep_spec(runs, "final validation loss");
        QStringList names;
        for (auto& a : s.axes) names << a.name;
        QCOMPARE(names, (QStringList{"layout", "optim.lr", "train.seed", "final validation loss"}));
        QVERIFY(!s.axes[0].numeric);
        QCOMPARE(s.axes[0].categories, (QStringList{"post", "pre"}));
        QVERIFY(s.axes[1].numeric && !s.axes[1].log);   // 1e-3..3e-3: not a decade
        QCOMPARE(s.axes[1].ticks, (std::vector<double>{1e-3, 2e-3, 3e-3}));
        QCOMPARE(s.lines.size(), size_t(4));
        // categories in the middle of their shares of the axis, never on its ends; numbers at their values
        QCOMPARE(s.lines[1].pos, (std::vector<double>{0.75, 0.5, 1.0}));
        QCOMPARE(s.lines[2].pos, (std::vector<double>{0.25, 1.0, 0.0}));
        QCOMPARE(s.lines[1].values, (QStringList{"pre", "0.002", "2"}));
        QCOMPARE(s.lines[1].metric_pos, 0.0);   // the best at the bottom
        QCOMPARE(s.lines[2].metric_pos, 1.0);
        QVERIFY(std::abs(s.lines[0].metric_pos - 0.2) < 1e-12);
        QVERIFY(std::isnan(s.lines[3].metric_pos));
        // the outcome's axis is labelled at its ends too, the best and the worst to a digit more than its ticks
        const SweepSpec e = sweep_spec({{"a", config(1e-3, "pre", 1), 2.4137}, {"b", config(2e-3, "pre", 1), 2.5},
                                        {"c", config(3e-3, "pre", 1), 2.9071}}, "x");
        const auto& out = e.axes.back();
        QVERIFY(out.ends);
        QVERIFY2(std::abs(out.ticks.front() - 2.41) < 1e-9 && std::abs(out.ticks.back() - 2.91) < 1e-9,
                 qPrintable(QString("%1 .. %2").arg(out.ticks.front()).arg(out.ticks.back())));
        QVERIFY(std::is_sorted(out.ticks.begin(), out.ticks.end()));
        // a decade or more: a log axis, the runs at their logarithms
        const SweepSpec l = sweep_spec({{"a", config(1e-4, "pre", 1), 1}, {"b", config(1e-3, "pre", 1), 2},
                                        {"c", config(1e-2, "pre", 1), 3}}, "x");
        QVERIFY(l.axes[0].numeric && l.axes[0].log);
        QVERIFY(std::abs(l.lines[1].pos[0] - 0.5) < 1e-12);
        // nothing to compare: no axes, and a hint why
        QVERIFY(sweep_spec({{"a", config(1e-3, "pre", 1), 1}}, "x").axes.empty());
        const SweepSpec same = sweep_spec({{"a", config(1e-3, "pre", 1), 1}, {"b", config(1e-3, "pre", 1), 2}}, "x");
        QVERIFY(same.axes.empty() && same.lines.empty());
        QVERIFY2(same.empty_hint.contains("same"), qPrintable(same.empty_hint));
    }

    // Settings every run has as its scheme sets them are left out (the scheme's axis says them); one a run
    // changed from its scheme stays, as do settings that only happen to follow the scheme; hidden ones go.
    void settingsTheSchemeImpliesAreLeftOut() {
        const std::vector<SweepRun> runs = {{"Post-LN", stored("post_ln"), 3.0},
                                            {"Pre-LN", stored("pre_ln"), 2.9},
                                            {"Pre-LN +ResScale", stored("pre_ln", {{"model", {{"normformer", {{"res_scale", true}}}}}}), 2.8},
                                            {"NormFormer", stored("normformer"), 2.7},
                                            {"nGPT", stored("ngpt"), 2.6}};
        const SweepSpec s = sweep_spec(runs, "loss");
        QVERIFY2(axis_names(s) == (QStringList{"normformer.res_scale", "scheme", "loss"}), qPrintable(axis_names(s).join(", ")));
        for (const char* implied : {"layout", "final_norm", "normformer.ffn_norm", "positions", "activation", "optim.weight_decay"})
            QVERIFY2(s.implied.contains(implied), qPrintable(s.implied.join(", ")));
        QVERIFY(s.hidden.isEmpty());
        const QString note = sweep_left_out(s);
        QVERIFY2(note.contains(QString("%1 setting(s) the scheme implies").arg(s.implied.size())) && note.contains("layout"), qPrintable(note));
        // all of them, unfolded
        const SweepSpec all = sweep_spec(runs, "loss", {false, {}});
        QVERIFY(all.implied.isEmpty());
        QCOMPARE(all.axes.size(), s.axes.size() + static_cast<size_t>(s.implied.size()));
        QVERIFY(sweep_left_out(all).isEmpty());
        // a learning rate that differs with the scheme is no scheme's: an axis
        const std::vector<SweepRun> two = {{"a", stored("post_ln", {{"optim", {{"lr", 1e-3}}}}), 3},
                                           {"b", stored("pre_ln", {{"optim", {{"lr", 3e-4}}}}), 2}};
        QCOMPARE(axis_names(sweep_spec(two, "loss")), (QStringList{"optim.lr", "scheme", "loss"}));
        // hidden by name: left out and said so; all hidden: nothing to draw, and why
        const SweepSpec h = sweep_spec(two, "loss", {true, {"optim.lr"}});
        QCOMPARE(axis_names(h), (QStringList{"scheme", "loss"}));
        QCOMPARE(h.hidden, QStringList{"optim.lr"});
        QVERIFY2(sweep_left_out(h).contains("1 hidden (optim.lr)"), qPrintable(sweep_left_out(h)));
        const SweepSpec none = sweep_spec(runs, "loss", {true, {"scheme", "normformer.res_scale"}});
        QVERIFY(none.axes.empty());
        QVERIFY2(none.empty_hint.contains("hidden"), qPrintable(none.empty_hint));
    }

    // The tab: a note says what is left out; the check box shows the implied settings; the right-click
    // menu hides the setting under the mouse and shows the hidden ones again.
    void theTabHidesAndShowsSettings() {
        const QString path = dir_.filePath("schemes.sqlite");
        {
            Store s(path.toStdString());
            const std::pair<const char*, json> runs[] = {{"post_ln", stored("post_ln")},
                                                         {"pre_ln", stored("pre_ln")},
                                                         {"normformer", stored("normformer", {{"optim", {{"lr", 3e-3}}}})}};
            for (auto& [scheme, cfg] : runs) {
                const int64_t id = s.create_run(scheme, scheme, cfg, 1);
                s.mark_running(id, "cpu", json::object());
                {
                    RunWriter w(s, id);
                    w.scalar("val/loss", 10, 3.0 - 0.1 * static_cast<double>(id));
                }
                s.finish_run(id, RunStatus::Finished, 10, "", 3.0 - 0.1 * static_cast<double>(id));
            }
        }
        Store store(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 600);
        view.setRuns({1, 2, 3}, store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QString err;
        QVERIFY2(view.showView("sweep", "", "", "", &err), qPrintable(err));
        QCOMPARE(axis_names(view.sweepSpec()), (QStringList{"optim.lr", "scheme", "final validation loss"}));
        auto* note = view.findChild<ElidedLabel*>("sweepNote");
        auto* implied = view.findChild<QCheckBox*>("sweepImplied");
        auto* chart = view.findChild<SweepChart*>("sweepChart");
        QVERIFY(note && implied && chart);
        QVERIFY(note->isVisible());
        QVERIFY2(note->fullText().contains("the scheme implies") && note->fullText().contains("layout"), qPrintable(note->fullText()));
        implied->setChecked(true);
        QVERIFY(axis_names(view.sweepSpec()).contains("layout"));
        QVERIFY(!note->isVisible());
        implied->setChecked(false);
        // right-click on the learning rate's axis: hide it
        chart->repaint();
        QApplication::processEvents();
        SweepGeometry g;
        {
            QImage scratch(chart->size(), QImage::Format_ARGB32);
            QPainter p(&scratch);
            g = draw_sweep(p, QRectF(chart->rect()).adjusted(10, 8, -10, -8), chart->spec(), {chart->logicalDpiX() / 25.4, kScreenFigurePt});
        }
        const QPoint on_lr(static_cast<int>(g.x[0]) + 3, chart->height() / 2);
        QCOMPARE(chart->axisAt(on_lr), 0);
        QCOMPARE(chart->axisAt(QPointF(g.x.back(), chart->height() / 2)), -1);   // the outcome's cannot be hidden
        std::unique_ptr<QMenu> menu(view.sweepMenu(on_lr));
        auto* hide = menu->findChild<QAction*>("sweepHide");
        auto* show = menu->findChild<QAction*>("sweepShowHidden");
        QVERIFY(hide && show);
        QVERIFY2(hide->text().contains("optim.lr"), qPrintable(hide->text()));
        QVERIFY(!show->isEnabled());
        hide->trigger();
        QCOMPARE(axis_names(view.sweepSpec()), (QStringList{"scheme", "final validation loss"}));
        QVERIFY2(note->fullText().contains("1 hidden (optim.lr)"), qPrintable(note->fullText()));
        QCOMPARE(view.sweepOptions().hidden, QStringList{"optim.lr"});
        menu.reset(view.sweepMenu(QPoint(2, 2)));
        QVERIFY(!menu->findChild<QAction*>("sweepHide"));
        show = menu->findChild<QAction*>("sweepShowHidden");
        QVERIFY(show && show->isEnabled());
        menu->findChild<QAction*>("sweepImpliedAction")->trigger();   // the menu's twin of the check box
        QVERIFY(implied->isChecked());
        show->trigger();
        QVERIFY(axis_names(view.sweepSpec()).contains("optim.lr") && axis_names(view.sweepSpec()).contains("layout"));
    }

    // The window's Sweep tab: the outcome chosen, a diverged run without one, the line under the mouse
    // highlighted and named, the CSV one row a run.
    void theTabNamesTheLineUnderTheMouse() {
        Store store(makeStore().toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 600);
        view.setRuns({1, 2, 3, 4}, store);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QString err;
        QVERIFY2(view.showView("sweep", "", "", "", &err), qPrintable(err));
        QCOMPARE(view.tabs()->tabText(view.tabs()->currentIndex()), QString("Sweep"));
        auto* chart = view.findChild<SweepChart*>("sweepChart");
        QVERIFY(chart);
        const SweepSpec& s = chart->spec();
        QStringList names;
        for (auto& a : s.axes) names << a.name;
        QCOMPARE(names, (QStringList{"layout", "optim.lr", "train.seed", "final validation loss"}));
        QVERIFY(s.axes[1].log);
        QVERIFY(std::abs(s.lines[0].metric - (3.1 - 0.1)) < 1e-9);   // the last validation loss
        QVERIFY(std::isnan(s.lines[3].metric));                      // diverged: no outcome
        // the training loss instead
        auto* metric = view.findChild<QComboBox*>("sweepMetric");
        QVERIFY(metric);
        metric->setCurrentIndex(metric->findData("final_train"));
        QVERIFY(std::abs(chart->spec().lines[2].metric - (3.0 - 0.003 * 50)) < 1e-9);   // the mean of its 11 points (under 20)
        metric->setCurrentIndex(metric->findData("final_val"));
        // hover: halfway between the first two axes on run 2's line
        chart->repaint();
        QApplication::processEvents();
        const QImage before = chart->grab().toImage();
        SweepGeometry g;
        {
            QImage scratch(chart->size(), QImage::Format_ARGB32);
            scratch.setDevicePixelRatio(1);
            QPainter p(&scratch);
            g = draw_sweep(p, QRectF(chart->rect()).adjusted(10, 8, -10, -8), chart->spec(), {chart->logicalDpiX() / 25.4, kScreenFigurePt});
        }
        const QPointF mid = (g.at(chart->spec(), 1, 0) + g.at(chart->spec(), 1, 1)) / 2;
        QCOMPARE(chart->lineAt(mid), 1);
        QCOMPARE(chart->lineAt(QPointF(mid.x(), chart->height() + 50)), -1);
        QMouseEvent move(QEvent::MouseMove, mid, chart->mapToGlobal(mid), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(chart, &move);
        QCOMPARE(chart->highlighted(), 1);
        QVERIFY(chart->grab().toImage() != before);   // drawn over the others
        QHelpEvent help(QEvent::ToolTip, mid.toPoint(), chart->mapToGlobal(mid.toPoint()));
        QApplication::sendEvent(chart, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        const QString tip = QToolTip::text();
        for (const char* want : {"lr 1", "layout = pre", "optim.lr = 0.0003", "train.seed = 2", "final validation loss: 2.9"})
            QVERIFY2(tip.contains(want), qPrintable(QString("%1 not in %2").arg(want, tip)));
        QToolTip::hideText();
        // a click pins it: it stays highlighted once the mouse has gone; a click off the lines lets it go
        QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, mid.toPoint());
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(chart, &leave);
        QCOMPARE(chart->pinned(), 1);
        QCOMPARE(chart->highlighted(), 1);
        QTest::mouseClick(chart, Qt::LeftButton, Qt::NoModifier, QPoint(2, chart->height() - 2));
        QCOMPARE(chart->highlighted(), -1);
        QCOMPARE(chart->grab().toImage(), before);
        QCOMPARE(chart->lineText(3).section('\n', -1), QString("final validation loss: none yet"));
        // CSV: a row a run, the diverged one's outcome empty
        const QString csv = dir_.filePath("sweep.csv");
        QVERIFY2(view.exportCurrent(csv, "csv", 96, false, &err), qPrintable(err));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList rows = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[0], QString("run,layout,optim.lr,train.seed,final validation loss"));
        QCOMPARE(rows[2], QString("lr 1,pre,0.0003,2,2.9"));
        QCOMPARE(rows[4], QString("lr 3,post,0.003,2,"));
    }

    // Group runs by seed: runs that differ only by seed are one line at their outcomes' mean, no seed axis.
    void seedsGroupIntoOneLine() {
        Store store(makeStore().toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.setRuns({1, 2, 3, 7}, store);
        QString err;
        QVERIFY2(view.showView("sweep", "", "", "", &err), qPrintable(err));
        QCOMPARE(view.sweepSpec().lines.size(), size_t(4));
        QCOMPARE(view.sweepSpec().axes[2].name, QString("train.seed"));
        view.setGrouping(1);
        const SweepSpec& s = view.sweepSpec();
        QStringList names, runs;
        for (auto& a : s.axes) names << a.name;
        for (auto& l : s.lines) runs << l.run;
        QCOMPARE(names, (QStringList{"layout", "optim.lr", "final validation loss"}));
        QCOMPARE(runs, (QStringList{"lr 0", "lr 1", "lr 2 (×2)"}));
        QVERIFY(std::abs(s.lines[2].metric - (2.8 + 2.5) / 2) < 1e-9);
        view.setGrouping(0);
        QCOMPARE(view.sweepSpec().lines.size(), size_t(4));
    }

    // At a column's width the outcome's end labels (the best and the worst) stand apart from its ticks: a tick
    // less than a line and a half from an end is left out ("3.35" sat on "3.30"), the others stay.
    void outcomeEndsStandApartFromItsTicks() {
        const SweepSpec spec = sweep_spec({{"a", config(1e-3, "pre", 1), 2.7209}, {"b", config(2e-3, "post", 1), 3.0},
                                           {"c", config(3e-3, "pre", 2), 3.3462}}, "final validation loss");
        const QString pdf = dir_.filePath("ends.pdf");
        QString err;
        const double h = sweep_height_mm(spec, 89, 8, default_aspect(89));
        QVERIFY2(write_print(pdf, "pdf", 89, h, 8, 300, "sweep",
                             [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_sweep(p, r, spec, u); }, &err),
                 qPrintable(err));
        const QString text = pdf_text(pdf);
        for (const char* want : {"2.72", "3.35", "2.80", "3.00", "3.20"})
            QVERIFY2(text.contains(want), qPrintable(QString("%1 not in %2").arg(want, text)));
        QVERIFY2(!text.contains("3.30"), qPrintable("3.30 beside 3.35: " + text));
    }

    // normlab figure --view sweep: the axes' names and the runs' values in the PDF; runs that do not
    // differ are refused before anything is written.
    void theFigureCommandDrawsASweep() {
        const QString store = makeStore(), pdf = dir_.filePath("sweep.pdf"), bad = dir_.filePath("same.pdf");
        QString out, err;
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "3", "4", "--view", "sweep", "--out", pdf, "--store", store}, &out, &err), 0);
        const QString text = pdf_text(pdf);
        // the learning rates on a log axis each in its own power (10⁻⁴, 3×10⁻⁴, 10⁻³, 3×10⁻³; they read
        // "1 3 10 30" in units of 10⁻⁴), the outcome's ticks beside its bar
        for (const char* want : {"layout", "optim.lr", "3×10⁻³", "train.seed", "final validation loss", "pre", "post", "2.90"})
            QVERIFY2(text.contains(QString::fromUtf8(want)), qPrintable(QString("%1 not in %2").arg(want, text)));
        QVERIFY2(!text.contains(QString::fromUtf8("(×10")), qPrintable(text));
        QCOMPARE(run(NORMLAB_APP, {"figure", "5", "6", "--view", "sweep", "--out", bad, "--store", store}, &out, &err), 2);
        QVERIFY2(err.contains("--view sweep") && err.contains("same"), qPrintable(err));
        QVERIFY(!QFile::exists(bad));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "--view", "sweep", "--probe", "worst", "--out", bad, "--store", store}, &out, &err), 2);
        QVERIFY2(err.contains("final_val, best_val, final_train"), qPrintable(err));
        // --hide leaves an axis out; a name that is no differing setting is refused, naming those there are
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "3", "4", "--view", "sweep", "--hide", "train.seed,layout", "--out", pdf, "--store", store}, &out, &err), 0);
        const QString hidden = pdf_text(pdf);
        QVERIFY2(hidden.contains("optim.lr") && !hidden.contains("train.seed") && !hidden.contains("layout"), qPrintable(hidden));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "--view", "sweep", "--hide", "optim.lr,lr", "--out", bad, "--store", store}, &out, &err), 2);
        QVERIFY2(err.contains("--hide lr:") && err.contains("they differ in optim.lr, train.seed"), qPrintable(err));
        QVERIFY(!QFile::exists(bad));
        QCOMPARE(run(NORMLAB_APP, {"figure", "1", "2", "--hide", "layout", "--out", bad, "--store", store}, &out, &err), 2);
        QVERIFY2(err.contains("--view sweep"), qPrintable(err));
        QVERIFY(!QFile::exists(bad));
    }
};

QTEST_MAIN(TestSweep)
#include "test_sweep.moc"
