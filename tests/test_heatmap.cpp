// The Gradients tab's heatmap (widgets/heatmap.h) on its own: step ticks at
// 1-2-5, the readout under the mouse, titles in little room, and its cells in a
// PDF the colours of its colour bar; in print, the Gradients panel's heatmaps as
// small multiples and their colour bars' ticks. Side by side in the window:
// test_window.cpp.
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "tests/figure_util.h"

#include <QApplication>
#include <QImage>
#include <QMouseEvent>
#include <QProcess>
#include <QTabWidget>
#include <QScrollBar>
#include <QScrollArea>
#include <QTemporaryDir>
#include <QToolTip>
#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;

using test::pdf_text;

class TestHeatmap : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;
    std::vector<int64_t> ids_;

    // The gradients panel of the first `n` runs at 89 mm, 300 DPI, as Export panel draws it (null where it
    // could not be drawn).
    QImage gradientsPanel(int n) {
        Store s(store_.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1100, 750);
        view.setRuns(std::vector<int64_t>(ids_.begin(), ids_.begin() + n), s);
        view.show();
        QString err;
        if (!view.showView("gradients", "fc2", "l1", "", &err)) return {};
        for (int i = 0; i < 3; ++i) QApplication::processEvents();
        const QString png = dir_.filePath(QString("panel-%1.png").arg(n));
        return view.exportFigure(png, "png", 300, true, 89, 0, 8, &err) ? QImage(png) : QImage();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
        // four runs' per-layer gradients over five decades, 300 steps
        store_ = dir_.filePath("heat.sqlite");
        Store s(store_.toStdString());
        for (int k = 0; k < 4; ++k) {
            const int64_t id = s.create_run("run " + std::to_string(k + 1), "pre_ln", nlohmann::json{{"k", k}}, 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int i = 0; i <= 300; i += 10)
                for (int l = 0; l < 6; ++l) w.layer("grad_l1/fc2", l, i, 1e-8 * std::pow(10.0, l) * (1 + 0.2 * k) * (1 + std::exp(-i / 40.0)));
            w.flush();
            s.finish_run(id, RunStatus::Finished, 300, "", 2.4);
            ids_.push_back(id);
        }
    }

    void heatmapStepTicksAreOneTwoFive() {
        // the 0, 35, 75, 115: probes every 5 steps up to 195
        Heatmap h;
        std::vector<double> steps;
        for (int s = 0; s <= 195; s += 5) steps.push_back(s);
        h.setData(steps, {std::vector<double>(steps.size(), 1.0), std::vector<double>(steps.size(), 2.0)});
        QCOMPARE(h.xTickLabels(), (QStringList{"0", "50", "100", "150"}));
        h.setData({0, 10, 20}, {{1, 2, 3}});
        QCOMPARE(h.xTickLabels(), (QStringList{"0", "5", "10", "15", "20"}));
    }

    // Hovering a heatmap names the cell under the mouse (step, layer, value) and outlines it; off the
    // cells it names nothing but the title, which a narrow heatmap elides.
    void heatmapReadoutNamesTheCellUnderTheMouse() {
        Heatmap h;
        h.setTitle("Pre-LN: mean |∂L/∂W| (L1) — fc2");
        // 3 layers × 4 steps (probes every 10 steps); layer 1 at step 20 missing
        h.setData({0, 10, 20, 30}, {{1, 2, 3, 4}, {10, 20, std::nan(""), 40}, {100, 200, 300, 400}});
        h.resize(56 + 400 + 86, 26 + 300 + 40);   // a plot of 400 × 300 px: cells of 100 × 100
        h.show();
        QVERIFY(QTest::qWaitForWindowExposed(&h));
        // the plot starts at (56, 26); layer 0 at the bottom
        QCOMPARE(h.cellAt(QPoint(56 + 50, 26 + 250)), std::make_pair(0, 0));
        QCOMPARE(h.cellAt(QPoint(56 + 350, 26 + 50)), std::make_pair(3, 2));
        QCOMPARE(h.cellAt(QPoint(56 + 250, 26 + 150)), std::make_pair(2, 1));
        QCOMPARE(h.cellAt(QPoint(56 + 399, 26 + 299)), std::make_pair(3, 0));   // the last pixel is a cell's
        QCOMPARE(h.cellAt(QPoint(20, 100)), std::make_pair(-1, -1));            // on the layer labels
        QCOMPARE(h.cellAt(QPoint(56 + 450, 100)), std::make_pair(-1, -1));      // on the colour bar
        QCOMPARE(h.cellText(3, 2), QString("step 30 · layer 2: 400"));
        QCOMPARE(h.cellText(1, 1), QString("step 10 · layer 1: 20"));
        QCOMPARE(h.cellText(2, 1), QString("step 20 · layer 1: no value"));
        QVERIFY(h.cellText(4, 0).isEmpty());
        const QImage before = h.grab().toImage();
        // the tooltip as the mouse rests on a cell
        QMouseEvent move(QEvent::MouseMove, QPointF(56 + 150, 26 + 50), h.mapToGlobal(QPointF(56 + 150, 26 + 50)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(&h, &move);
        QHelpEvent help(QEvent::ToolTip, QPoint(56 + 150, 26 + 50), h.mapToGlobal(QPoint(56 + 150, 26 + 50)));
        QApplication::sendEvent(&h, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), QString("Pre-LN: mean |∂L/∂W| (L1) — fc2\nstep 10 · layer 2: 200"));
        // the hovered cell is outlined on screen, just outside it; its inside is unchanged
        const QImage after = h.grab().toImage();
        QCOMPARE(after.pixelColor(56 + 150, 26 + 50), before.pixelColor(56 + 150, 26 + 50));
        for (const QPoint edge : {QPoint(56 + 99, 26 + 50), QPoint(56 + 150, 26 + 100)})
            QVERIFY2(after.pixelColor(edge) != before.pixelColor(edge),
                     qPrintable(QString("%1,%2: %3").arg(edge.x()).arg(edge.y()).arg(after.pixelColor(edge).name())));
        // the mouse gone, the outline goes
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&h, &leave);
        QCOMPARE(h.grab().toImage(), before);
        QToolTip::hideText();
    }

    // A long title, elided in a narrow heatmap, ends before the colour bar's common factor (×10⁻⁵) drawn
    // above the bar in the title's row: the two never print over each other (four runs side by side).
    void heatmapTitleLeavesTheColourBarsFactorAlone() {
        auto draw = [](const QString& title) {
            Heatmap h;
            h.setTitle(title);
            h.setData({0, 10, 20}, {{1e-5, 2e-5, 3e-5}, {4e-5, 5e-5, 6e-5}});
            h.resize(280, 160);
            return h.grab().toImage();
        };
        const QImage bare = draw(""), titled = draw("normformer: mean |∂L/∂W| (L1) — fc2 of a long run name");
        QVERIFY(bare != titled);   // the title is drawn
        const int bar_left = 280 - 86 + 14;
        for (int y = 0; y < 26; ++y)
            for (int x = bar_left - 2; x < 280; ++x)
                QVERIFY2(bare.pixel(x, y) == titled.pixel(x, y), qPrintable(QString("the title reaches %1,%2").arg(x).arg(y)));
    }

    // Eight runs' heatmaps side by side: a run's name that does not fit is drawn smaller (9 pt, then not bold), then elided in
    // its middle, so that two seeds of one scheme keep the ends that tell them apart (the right end was cut:
    // "Pre-LN se…" twice). Wide enough, the whole title again.
    void narrowHeatmapTitlesTellSeedsApart() {
        const QString what = QString::fromUtf8(": mean |∂L/∂W| (L1) — fc2");
        for (const char* scheme : {"Pre-LN", "NormFormer", "DeepNorm-with-a-long-name"})
            for (int width : {110, 130, 160}) {
                QStringList shown;
                for (int seed : {1, 2}) {
                    const QString name = QString("%1 seed=%2").arg(scheme).arg(seed);
                    Heatmap h;
                    h.setFrame(false, false);
                    h.setTitle(name + what, name);
                    h.setData({0, 10, 20}, {{1, 2, 3}});
                    h.resize(width, 140);
                    const QString t = h.titleShown();
                    QVERIFY2(t.endsWith(QString("=%1").arg(seed)), qPrintable(QString("%1 px: %2").arg(width).arg(t)));
                    QFont f = h.labelFont();
                    f.setPointSizeF(9);
                    QVERIFY2(QFontMetrics(f).horizontalAdvance(t) <= width - 8, qPrintable(QString("%1 px: %2 does not fit").arg(width).arg(t)));
                    shown << t;
                }
                QVERIFY2(shown[0] != shown[1], qPrintable(shown.join(" | ")));
            }
        Heatmap wide;
        wide.setTitle("Pre-LN seed=1" + what, "Pre-LN seed=1");
        wide.resize(640, 200);
        QCOMPARE(wide.titleShown(), "Pre-LN seed=1" + what);
    }

    // The washed-out PDF heatmap: a heatmap as an export draws it (plot_figure.h), rasterized with
    // pdftoppm; each cell's colour must be its value's colour on the bar (as in the PNG).
    void heatmapPdfCellsMatchTheirColourBar() {
        HeatSpec h;
        h.title = "cells";
        h.log = false;
        h.rows.resize(4);
        for (int s = 0; s < 60; ++s) {
            h.steps.push_back(s * 10);
            for (int l = 0; l < 4; ++l) h.rows[l].push_back(l / 3.0);
        }
        h.lo = 0, h.hi = 1;
        const QString pdf = dir_.filePath("heat.pdf");
        QString err;
        QVERIFY2(write_print(pdf, "pdf", 170, 80, 8, 300, "heat",
                             [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_heatmap(p, r, h, u); }, &err),
                 qPrintable(err));
        QProcess pr;
        pr.start("pdftoppm", {"-r", "96", "-png", "-singlefile", pdf, dir_.filePath("heat")});
        QVERIFY2(pr.waitForFinished(60000) && pr.exitCode() == 0, "pdftoppm (poppler-utils, scripts/setup.sh) failed");
        QImage img(dir_.filePath("heat.png"));
        QVERIFY(!img.isNull());
        // the cells: the coloured stretch through the page's middle at 40 % of its width, down and across
        auto cell = [&](int x, int y) { return img.pixelColor(x, y).hsvSaturation() > 80; };
        auto stretch = [&](bool down, int at, int mid, int n) {
            auto on = [&](int k) { return down ? cell(at, k) : cell(k, at); };
            int lo = mid, hi = mid;
            while (lo > 0 && on(lo - 1)) --lo;
            while (hi + 1 < n && on(hi + 1)) ++hi;
            return std::make_pair(lo, hi);
        };
        const int x0 = img.width() * 2 / 5;
        QVERIFY2(cell(x0, img.height() / 2), qPrintable("the page's middle is " + img.pixelColor(x0, img.height() / 2).name() +
                                                         ", washed out: no cell's colour"));
        const auto [top, bottom] = stretch(true, x0, img.height() / 2, img.height());
        const auto [left, right] = stretch(false, (top + bottom) / 2, x0, img.width());
        QVERIFY2(bottom - top > img.height() / 2 && right - left > img.width() / 2,
                 qPrintable(QString("cells %1,%2 to %3,%4 of %5 × %6").arg(left).arg(top).arg(right).arg(bottom)
                                .arg(img.width()).arg(img.height())));
        const QRect plot(QPoint(left, top), QPoint(right, bottom));
        for (int l = 0; l < 4; ++l) {
            const QColor want = viridis(l / 3.0);
            for (double fx : {0.1, 0.5, 0.9}) {
                const QColor got = img.pixelColor(int(plot.left() + fx * plot.width()),
                                                  int(plot.bottom() - (l + 0.5) * plot.height() / 4.0));
                const int d = std::max({std::abs(got.red() - want.red()), std::abs(got.green() - want.green()),
                                        std::abs(got.blue() - want.blue())});
                QVERIFY2(d <= 12, qPrintable(QString("layer %1 at %2: %3, the bar says %4").arg(l).arg(fx)
                                                 .arg(got.name(), want.name())));
            }
        }
    }

    // A four-run gradients panel in a single column: the heatmaps, two a row, each get a plot high enough for
    // its colour bar's labels (four lines of text), not the sliver of 3 mm whose labels printed over each other.
    void fourHeatmapsInAColumnHaveRoom() {
        const QImage img = gradientsPanel(4);
        QVERIFY(!img.isNull());
        const double px_per_mm = img.width() / 89.0;
        // down a column through the left heatmaps' cells: the runs of coloured (viridis) pixels
        const int x = static_cast<int>(0.22 * img.width());
        std::vector<int> runs;
        int len = 0;
        for (int y = 0; y < img.height(); ++y) {
            const bool cell = img.pixelColor(x, y).hsvSaturation() > 80;
            if (cell) ++len;
            if ((!cell || y + 1 == img.height()) && len > 0) runs.push_back(len), len = 0;
        }
        std::sort(runs.rbegin(), runs.rend());
        const double line_mm = 8 * 25.4 / 72 * 1.25;
        QVERIFY2(runs.size() >= 2 && runs[1] >= 3.5 * line_mm * px_per_mm,
                 qPrintable(QString("the two tallest coloured runs: %1 and %2 px; want %3")
                                .arg(runs.empty() ? 0 : runs[0]).arg(runs.size() > 1 ? runs[1] : 0).arg(3.5 * line_mm * px_per_mm)));
        // small multiples, as in the window: across the first row of heatmaps, two stretches of cells as wide
        // as each other and one colour bar, the row's last (each drew its own bar, and its cells were narrower)
        int top = -1;
        for (int y = 0, down = 0; y < img.height() && top < 0; ++y) {
            down = img.pixelColor(x, y).hsvSaturation() > 80 ? down + 1 : 0;
            if (down >= 3 * line_mm * px_per_mm) top = y;
        }
        QVERIFY(top > 0);
        std::vector<int> across;
        len = 0;
        for (int xx = 0; xx < img.width(); ++xx) {
            const bool cell = img.pixelColor(xx, top).hsvSaturation() > 80;
            if (cell) ++len;
            if ((!cell || xx + 1 == img.width()) && len > 2) across.push_back(len);
            if (!cell) len = 0;
        }
        QVERIFY2(across.size() == 3 && std::abs(across[0] - across[1]) <= 2 && across[2] < across[0] / 4,
                 qPrintable(QString("coloured stretches across the row: %1").arg([&] {
                     QStringList l;
                     for (int a : across) l << QString::number(a);
                     return l.join(", ");
                 }())));
    }

    // Many runs' heatmaps in a laptop's Gradients tab: as many rows as they need, scrolled downwards, and
    // never sideways — the columns fit beside the vertical scroll bar their rows bring (16 runs scrolled
    // both ways, the fourth column cut at the view's edge), and the line chart's footer, long where runs
    // are left out ("the first 41 of 60 runs drawn (at most 500 lines ..."), is cut to the chart's width
    // (it made the page 748 px wide in a view of 587).
    void manyHeatmapsScrollOnlyDownwards() {
        const QString path = dir_.filePath("many-heat.sqlite");
        std::vector<int64_t> ids;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 60; ++k) {
                const int64_t id = s.create_run("run " + std::to_string(k + 1), "pre_ln", nlohmann::json{{"k", k}}, 1);
                RunWriter w(s, id);
                for (int i = 0; i <= 300; i += 10)
                    for (int l = 0; l < 12; ++l) w.layer("grad_l1/fc2", l, i, 1e-6 * (1 + l) * (1 + 0.1 * k));
                w.flush();
                s.finish_run(id, RunStatus::Finished, 300, "", 2.4);
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        for (const int width : {560, 600, 640, 700, 800, 1000}) {
            ChartsView view;
            view.resize(width, 420);
            view.setRuns(ids, s);
            view.show();
            view.tabs()->setCurrentIndex(1);
            for (int i = 0; i < 5; ++i) QApplication::processEvents();
            auto* area = qobject_cast<QScrollArea*>(view.tabs()->widget(1));
            QVERIFY(area);
            const QString where = QString("%1 px: page %2 px wide in a view of %3")
                                      .arg(width).arg(area->widget()->width()).arg(area->viewport()->width());
            QVERIFY2(area->verticalScrollBar()->isVisible(), qPrintable(where + " does not scroll down"));
            QVERIFY2(!area->horizontalScrollBar()->isVisible(), qPrintable(where + " scrolls sideways"));
            auto* chart = view.findChild<LineChart*>("gradChart");
            QVERIFY2(chart && chart->footer().contains("of 60 runs drawn"), qPrintable(chart ? chart->footer() : QString()));
        }
    }

    // Three runs, two a row: the last row's one heatmap has cells as wide as the first row's (it drew the layer
    // axis and the colour bar in half the width, its cells narrower).
    void aShortRowHasCellsAsWide() {
        const QImage img = gradientsPanel(3);
        QVERIFY(!img.isNull());
        auto cell = [&](int x, int y) { return img.pixelColor(x, y).hsvSaturation() > 80; };
        // down the left heatmaps: the middle of each tall coloured stretch (the lines above are thin)
        const int x = static_cast<int>(0.22 * img.width()), tall = img.height() / 40;
        std::vector<int> middles;
        for (int y = 0, down = 0; y < img.height(); ++y) {
            down = cell(x, y) ? down + 1 : 0;
            if (down == tall) middles.push_back(y);
        }
        QCOMPARE(middles.size(), size_t(2));
        std::vector<int> widths;   // the first stretch of cells across each row
        for (int y : middles) {
            int from = x, to = x;
            while (from > 0 && cell(from - 1, y)) --from;
            while (to + 1 < img.width() && cell(to + 1, y)) ++to;
            widths.push_back(to - from + 1);
        }
        QVERIFY2(std::abs(widths[0] - widths[1]) <= 2, qPrintable(QString("cells %1 and %2 px wide").arg(widths[0]).arg(widths[1])));
    }

    // Small multiples on one step axis: a run stopped at step 150 of the others' 300 fills half its plot (it
    // filled all of it, its steps stretched to look like the others').
    void smallMultiplesShareTheirSteps() {
        std::vector<HeatSpec> row(2);
        for (int k = 0; k < 2; ++k) {
            row[k].title = k ? "stopped" : "whole";
            for (int i = 0; i <= (k ? 150 : 300); i += 10) row[k].steps.push_back(i);
            row[k].rows.assign(4, std::vector<double>(row[k].steps.size(), 1e-4));
            row[k].lo = 1e-5, row[k].hi = 1e-3;
        }
        share_steps(row);
        frame_small_multiples(row, true);
        const QString png = dir_.filePath("shared-steps.png");
        QString err;
        QVERIFY2(write_print(png, {}, 89, 40, 8, 300, "steps",
                             [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_heatmap_row(p, r, row, u, 2); }, &err),
                 qPrintable(err));
        const QImage img(png);
        QVERIFY(!img.isNull());
        std::vector<int> across;   // the coloured stretches across the row's middle, the colour bar's last
        for (int x = 0, len = 0; x < img.width(); ++x) {
            const bool cell = img.pixelColor(x, img.height() / 2).hsvSaturation() > 80;
            if (cell) ++len;
            if ((!cell || x + 1 == img.width()) && len > 2) across.push_back(len);
            if (!cell) len = 0;
        }
        QVERIFY2(across.size() == 3, qPrintable(QString::number(across.size())));
        // 16 of 31 cells' width
        const double want = across[0] * 16.0 / 31.0;
        QVERIFY2(std::abs(across[1] - want) <= 3, qPrintable(QString("%1 px of %2; want %3").arg(across[1]).arg(across[0]).arg(want)));
    }

    // The heatmaps' colour bars are labelled at 3 or more ticks, not only at their ends (item 15).
    void colourBarsHaveTicks() {
        HeatSpec h;
        h.title = "grad";
        h.steps = {0, 10, 20, 30};
        h.rows = {{1e-6, 1e-5, 1e-4, 1e-3}, {2e-6, 2e-5, 2e-4, 2e-3}};
        h.lo = 1e-6, h.hi = 2e-3;
        const QString pdf = dir_.filePath("heat.pdf");
        QString err;
        QVERIFY2(write_print(pdf, {}, 89, 40, 8, 300, "heat", [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_heatmap(p, r, h, u); }, &err),
                 qPrintable(err));
        const QString text = pdf_text(pdf);
        for (const char* l : {"10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³"}) QVERIFY2(text.contains(QString::fromUtf8(l)), qPrintable(QString(l) + " in " + text));
        // and on screen (it said only "0.001" and "1e-06" at the bar's ends)
        Heatmap w;
        w.resize(640, 300);
        w.setData(h.steps, h.rows);
        QCOMPARE(w.colourBarLabels(), (QStringList{"10⁻⁶", "10⁻⁵", "10⁻⁴", "10⁻³"}));
        w.setLogScale(false);
        QVERIFY2(w.colourBarLabels().size() >= 3, qPrintable(w.colourBarLabels().join(" ")));
    }
};

QTEST_MAIN(TestHeatmap)
#include "test_heatmap.moc"
