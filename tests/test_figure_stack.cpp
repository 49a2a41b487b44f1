// A panel's charts stacked on one step axis (the loss over its learning rate), as matplotlib's sharex lays
// them out: one x range, the plot areas' edges in line whatever their tick labels, the step axis labelled
// once under the lowest, and one legend naming each run once. Before, the Loss panel printed its runs'
// legend twice, "step" twice, and the two plots' left edges 7 mm apart (the learning rate's "0.004" is
// wider than the loss's "2"), each over its own step range. On screen the two charts zoom together and
// stand with their plot areas in line, whatever the loss's legend beside it takes.
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/plot_figure.h"
#include "tests/figure_util.h"

#include <QApplication>
#include <QChart>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <set>

#include <cmath>

using namespace normlab;
using namespace normlab::test;

namespace {

const char* kRuns[] = {"Post-LN seed=1", "Pre-LN seed=1", "NormFormer seed=1", "nGPT seed=1"};
const QColor kColours[] = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44), QColor(255, 127, 14)};

// The loss (train and validation, 0–300) over the learning rate (recorded to step 290, values to 4e-3).
StackSpec loss_over_lr() {
    PlotSpec loss, lr;
    loss.title = "Loss", loss.x_title = "step", loss.y_title = "loss (nats/byte)";
    lr.title = "Learning rate", lr.x_title = "step", lr.y_title = "learning rate";
    for (int k = 0; k < 4; ++k) {
        Curve train{QString(kRuns[k]) + " train", kColours[k], {}, {}}, val{QString(kRuns[k]) + " val", kColours[k], {}, {}, Qt::DashLine};
        Curve rate{kRuns[k], kColours[k], {}, {}};
        for (int i = 0; i <= 300; ++i) {
            train.x.push_back(i), train.y.push_back(2 + 3 * std::exp(-i / 40.0) + 0.1 * k);
            if (i % 50 == 0) val.x.push_back(i), val.y.push_back(2.05 + 3 * std::exp(-i / 40.0) + 0.1 * k);
            if (i <= 290) rate.x.push_back(i), rate.y.push_back(1e-3 * (k + 1) * std::min(1.0, i / 30.0));
        }
        train.run = val.run = rate.run = kRuns[k];
        train.part = "train", val.part = "validation";
        loss.curves.push_back(train), loss.curves.push_back(val), lr.curves.push_back(rate);
    }
    return StackSpec{{loss, lr}, {0.65, 0.35}};
}

}  // namespace

class TestFigureStack : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;
    std::vector<int64_t> ids_;

    // The store's four runs on the Loss tab of a view `size` large.
    void showLoss(ChartsView& view, Store& s, QSize size) {
        view.resize(size);
        view.setRuns(ids_, s);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QString err;
        QVERIFY(view.showView("loss", "", "", "", &err));
        for (int i = 0; i < 3; ++i) QApplication::processEvents();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
        store_ = dir_.filePath("stack.sqlite");
        Store s(store_.toStdString());
        for (int k = 0; k < 4; ++k) {
            const int64_t id = s.create_run(kRuns[k], "pre_ln", nlohmann::json{{"k", k}}, 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int i = 0; i <= 200; ++i) {
                w.scalar("train/loss", i, 2 + 3 * std::exp(-i / 30.0) + 0.1 * k);
                if (i < 200) w.scalar("train/lr", i, 1e-3 * (k + 1) * std::min(1.0, i / 20.0));   // a step short, as training records it
                if (i % 50 == 0) w.scalar("val/loss", i, 2.1 + 3 * std::exp(-i / 30.0) + 0.1 * k);
            }
            w.flush();
            s.finish_run(id, RunStatus::Finished, 200, "", 2.1);
            ids_.push_back(id);
        }
    }

    // At a single and a double column: the plots' left and right edges in line, one x range (the loss's
    // 300 steps, not the learning rate's 290), the upper plot's step axis unlabelled and without a legend,
    // the lower's legend naming every run, "train" and "validation" once each; the plots one above the other.
    void aStackSharesItsStepAxis() {
        const StackSpec s = loss_over_lr();
        for (double width : {89.0, 183.0}) {
            const double height = stack_height_mm(s, width, 8, default_aspect(width));
            const std::vector<StackedPlot> L = stack_layout(s, width, height, 8);
            QCOMPARE(L.size(), size_t(2));
            const QString at = QString("at %1 mm: ").arg(width);
            QVERIFY2(std::abs(L[0].area_mm.left() - L[1].area_mm.left()) < 0.05 && std::abs(L[0].area_mm.right() - L[1].area_mm.right()) < 0.05,
                     qPrintable(at + QString("plots from %1 to %2 mm and from %3 to %4 mm").arg(L[0].area_mm.left()).arg(L[0].area_mm.right())
                                         .arg(L[1].area_mm.left()).arg(L[1].area_mm.right())));
            QVERIFY2(L[0].area_mm.left() > 8, qPrintable(at + "room for the learning rate's labels"));
            for (auto& p : L) QVERIFY2(p.x_lo == 0 && p.x_hi == 300, qPrintable(at + QString("x from %1 to %2").arg(p.x_lo).arg(p.x_hi)));
            QVERIFY(!L[0].x_labels && L[1].x_labels);
            QVERIFY2(L[0].legend.isEmpty(), qPrintable(L[0].legend.join(", ")));
            for (const QString t : {kRuns[0], kRuns[1], kRuns[2], kRuns[3], "train", "validation"})
                QVERIFY2(L[1].legend.count(t) == 1, qPrintable(at + t + " in " + L[1].legend.join(", ")));
            QCOMPARE(L[1].legend.size(), 6);
            QVERIFY(L[0].area_mm.bottom() < L[1].area_mm.top());
            // the learning rate's plot about 0.35/0.65 as high as the loss's
            const double ratio = L[1].area_mm.height() / L[0].area_mm.height();
            QVERIFY2(ratio > 0.45 && ratio < 0.65, qPrintable(at + QString("heights %1 and %2 mm").arg(L[0].area_mm.height()).arg(L[1].area_mm.height())));
        }
        // a height given: the plots share it, still in line
        const std::vector<StackedPlot> L = stack_layout(s, 89, 120, 8);
        QVERIFY(std::abs(L[0].area_mm.left() - L[1].area_mm.left()) < 0.05 && L[1].area_mm.bottom() < 120);
    }

    // The window's Loss panel, exported: "step" once, each run's name once, both charts' y titles.
    void theLossPanelNamesItsStepsAndRunsOnce() {
        Store s(store_.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        showLoss(view, s, QSize(1100, 750));
        QString err;
        const QString pdf = dir_.filePath("loss-panel.pdf");
        QVERIFY2(view.exportFigure(pdf, "pdf", 300, true, 89, 0, 8, &err), qPrintable(err));
        const QString text = pdf_text(pdf);
        QVERIFY2(text.count("step") == 1, qPrintable(text));
        for (const char* run : kRuns) QVERIFY2(text.count(run) == 1, qPrintable(QString(run) + " in " + text));
        for (const char* t : {"loss (nats/byte)", "learning rate", "validation"}) QVERIFY2(squeeze(text).contains(squeeze(t)), qPrintable(text));
    }

    // In the window, at a laptop's size with the loss's legend beside its plot: the loss and the learning
    // rate over one step range (0–200, though the learning rate's last record is step 199), their plot
    // areas' left and right edges within a pixel; a zoom of either's steps zooms the other's, and a reset
    // resets both.
    // At a column's 89 mm, four runs with train and validation and two reference lines: the runs in
    // rows of their own, the keys under them, four rows in all. Before, "train" stood at the end of
    // the runs' row and "validation" under the first run (a grid of every entry), or, as here, each
    // of the eight entries on a line of its own.
    void aColumnsLegendKeepsItsRunsApartFromItsKeys() {
        PlotSpec loss = loss_over_lr().plots[0];
        loss.hlines = {{1.8, "loss floor (entropy rate)"}, {2.7, "unigram (byte frequencies)"}};
        const std::vector<LegendEntry> entries = legend_entries(loss);
        QCOMPARE(entries.size(), size_t(8));
        const std::vector<QRectF> cells = plot_legend_cells(loss, 89, 60, 8);
        QCOMPARE(cells.size(), entries.size());
        std::set<double> run_rows, key_rows, rows;
        for (size_t i = 0; i < cells.size(); ++i) {
            QVERIFY2(cells[i].left() >= 0 && cells[i].right() <= 89, qPrintable(entries[i].text));
            (entries[i].run.isEmpty() ? key_rows : run_rows).insert(cells[i].top());
            rows.insert(cells[i].top());
        }
        for (double y : key_rows) QVERIFY2(!run_rows.count(y), "a key in a row of runs");
        QVERIFY2(*run_rows.rbegin() < *key_rows.begin(), "the keys stand under the runs");
        QVERIFY2(rows.size() <= 4, qPrintable(QString("%1 rows").arg(rows.size())));   // 2 of runs, 2 of keys
        // Where all fit in one row, one row.
        PlotSpec two = loss;
        two.curves.resize(2);
        two.hlines.clear();
        std::set<double> one;
        for (const QRectF& c : plot_legend_cells(two, 89, 60, 8)) one.insert(c.top());
        QCOMPARE(one.size(), size_t(1));
    }

    void onScreenTheyZoomTogetherAndStandInLine() {
        Store s(store_.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        showLoss(view, s, QSize(960, 520));
        auto* loss = view.findChild<LineChart*>("lossChart");
        auto* lr = view.findChild<LineChart*>("lrChart");
        QVERIFY(loss && lr);
        auto in_line = [&] {
            const QRect a = loss->plotAreaOnScreen(), b = lr->plotAreaOnScreen();
            return std::abs(a.left() - b.left()) <= 1 && std::abs(a.right() - b.right()) <= 1;
        };
        auto describe = [&] {
            const QRect a = loss->plotAreaOnScreen(), b = lr->plotAreaOnScreen();
            return QString("loss's plot %1–%2 px, the learning rate's %3–%4 px; legend %5")
                .arg(a.left()).arg(a.right()).arg(b.left()).arg(b.right())
                .arg(loss->legendAlignment() == Qt::AlignRight ? "beside" : "below");
        };
        QTRY_VERIFY2(in_line(), qPrintable(describe()));
        QCOMPARE(loss->xRange(), std::make_pair(0.0, 200.0));
        QCOMPARE(lr->xRange(), std::make_pair(0.0, 200.0));
        // wider: still in line
        view.resize(1200, 560);
        QTRY_VERIFY2(in_line(), qPrintable(describe()));
        // a rubber band over steps ~50–100 of the loss: the learning rate shows the same steps
        const QRectF area = loss->chart()->plotArea();
        loss->chart()->zoomIn(QRectF(area.left() + area.width() / 4, area.top(), area.width() / 4, area.height() / 2));
        const auto zoomed = loss->xRange();
        QVERIFY2(zoomed.first > 40 && zoomed.second < 110, qPrintable(QString("%1–%2").arg(zoomed.first).arg(zoomed.second)));
        QCOMPARE(lr->xRange(), zoomed);
        QVERIFY(lr->footer().contains("zoomed"));
        lr->resetZoom();
        QCOMPARE(loss->xRange(), std::make_pair(0.0, 200.0));
        QCOMPARE(lr->xRange(), std::make_pair(0.0, 200.0));
        // a window that opened on another tab: in line once the Loss tab is shown
        ChartsView other;
        other.resize(900, 540);
        other.setRuns(ids_, s);
        QString err;
        QVERIFY(other.showView("gradients", "", "", "", &err));
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        QVERIFY(other.showView("loss", "", "", "", &err));
        loss = other.findChild<LineChart*>("lossChart");
        lr = other.findChild<LineChart*>("lrChart");
        QTRY_VERIFY2(in_line(), qPrintable(describe()));
    }
};

QTEST_MAIN(TestFigureStack)
#include "test_figure_stack.moc"
