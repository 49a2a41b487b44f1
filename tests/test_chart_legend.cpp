// The line chart's legend on screen (widgets/chart_legend.h): every entry
// can be seen however many runs are shown (Qt Charts' legend cut off what did
// not fit in its one row or column: eight runs' loss chart listed seven of
// its eleven entries in a laptop's window), and a click on an entry hides
// what it names from the plot, its ranges, the readout and an export.
#include "core/print_ticks.h"
#include "core/store/store.h"
#include "core/train/probes.h"
#include "widgets/chart_card.h"
#include "widgets/chart_legend.h"
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"

#include <QApplication>
#include <QCategoryAxis>
#include <QChartView>
#include <QChart>
#include <QFile>
#include <QLabel>
#include <QLegend>
#include <QMenu>
#include <QTimer>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest/QtTest>

#include <cmath>
#include <set>
#include <utility>

using namespace normlab;

namespace {
// `runs` runs, each a training line and a dashed validation line, as the Loss tab draws them.
std::vector<Curve> runs_of(int runs, double big_run = -1) {
    std::vector<Curve> out;
    std::vector<double> x;
    for (int i = 0; i <= 100; ++i) x.push_back(i);
    for (int r = 0; r < runs; ++r) {
        const QString name = QString("normformer seed=%1").arg(r + 1);
        std::vector<double> train, val;
        for (double s : x) {
            const double scale = r == big_run ? 40.0 : 1.0;
            train.push_back(scale * (3.0 + r * 0.05 - 0.01 * s));
            val.push_back(scale * (3.1 + r * 0.05 - 0.01 * s));
        }
        Curve t{name + " train", QColor::fromHsv(40 * r, 200, 200), x, train};
        t.run = name, t.part = "train";
        Curve v{name + " val", t.color, x, val, Qt::DashLine};
        v.run = name, v.part = "validation";
        out.push_back(t);
        out.push_back(v);
    }
    return out;
}

QScrollArea* area_of(LineChart& c) { return c.findChild<QScrollArea*>("chartLegendArea"); }

QString read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

void settle() {
    for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
}
}  // namespace

class TestChartLegend : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
    }

    // Eight runs' loss (8 runs, train, validation, the loss floor): in a laptop's loss chart
    // (565×205) a column beside the plot, scrolled to its last entry where it needs; in a large one, rows
    // below the plot with every entry in view. Never Qt Charts' own legend.
    void everyEntryCanBeSeen() {
        LineChart c;
        c.setCurves(runs_of(8));
        c.setHLines({{1.8, "loss floor"}});
        c.resize(565, 205);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        settle();
        QVERIFY(!c.chart()->legend()->isVisible());
        QStringList want;
        for (int r = 0; r < 8; ++r) want << QString("normformer seed=%1").arg(r + 1);
        want << "train" << "validation" << "loss floor";
        QTRY_COMPARE(c.legendShown(), want);
        QCOMPARE(c.legendAlignment(), Qt::AlignRight);
        QScrollArea* area = area_of(c);
        ChartLegend* legend = c.legend();
        const QRect last = legend->entryRect(static_cast<int>(want.size()) - 1);
        QVERIFY(!last.isEmpty());
        QVERIFY2(legend->rect().contains(last), "the last entry is on the legend, not cut off");
        if (last.bottom() >= area->viewport()->height()) {   // below the fold: the column scrolls to it
            QVERIFY(area->verticalScrollBar()->isVisible());
            area->ensureVisible(last.center().x(), last.center().y());
            settle();
        }
        const QRect seen(legend->mapTo(area->viewport(), last.topLeft()), last.size());
        QVERIFY2(area->viewport()->rect().contains(seen), "the last entry can be brought into view");
        QVERIFY2(area->width() < c.width() / 2, "the plot keeps most of the width");

        c.resize(1000, 600);
        settle();
        QTRY_COMPARE(c.legendAlignment(), Qt::AlignBottom);
        QCOMPARE(c.legendShown(), want);
        QVERIFY2(legend->rowsAt(legend->width()) >= 2, "eleven entries wrap onto a second row");
        for (int i = 0; i < want.size(); ++i) {
            const QRect r = legend->entryRect(i);
            QVERIFY2(area->viewport()->rect().contains(QRect(legend->mapTo(area->viewport(), r.topLeft()), r.size())),
                     qPrintable(want[i] + " is not in view"));
        }
        QVERIFY(!area->verticalScrollBar()->isVisible());
    }

    // A click on a run's entry takes its lines off the plot, out of the y range, the readout and an
    // export, and the footer counts them; the next click brings them back. A live refresh (the same
    // curves with more points) keeps them hidden. "validation" hides every validation line; a
    // double-click shows only that run among the runs, a second shows them all again.
    void aClickHidesWhatTheEntryNames() {
        LineChart c;
        c.setCurves(runs_of(3, 2));   // the third run's loss is 40× the others'
        c.setHLines({{1.8, "loss floor"}});
        c.setAxisTitles("step", "loss");
        c.resize(900, 560);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        settle();
        const QStringList shown = c.legendShown();
        QCOMPARE(shown.size(), 6);   // 3 runs, train, validation, the floor
        auto y_max = [&] { return static_cast<QValueAxis*>(c.chart()->axes(Qt::Vertical).constFirst())->max(); };
        auto click = [&](int entry) {
            QTest::mouseClick(c.legend(), Qt::LeftButton, {}, c.legend()->entryRect(entry).center());
            settle();
        };
        QVERIFY2(y_max() > 100, qPrintable(QString::number(y_max())));
        QVERIFY(c.readoutAt(50).contains("normformer seed=3"));

        click(2);   // normformer seed=3
        QVERIFY(c.legend()->entries()[2].hidden);
        QVERIFY(!c.curveShown(4) && !c.curveShown(5) && c.curveShown(0) && c.curveShown(3));
        QVERIFY2(y_max() < 5, qPrintable(QString::number(y_max())));   // the axis fits what is shown
        QVERIFY(!c.readoutAt(50).contains("normformer seed=3"));
        QVERIFY2(c.footer().contains("2 line(s) hidden"), qPrintable(c.footer()));
        const QString svg = dir_.filePath("hidden.svg");
        QString err;
        QVERIFY2(c.exportFigure(svg, "svg", 96, &err), qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains("seed=2") && !text.contains("seed=3"));
        const QString csv = dir_.filePath("hidden.csv");   // the data as the legend leaves it (every curve was written)
        QVERIFY2(c.exportCsv(csv, &err), qPrintable(err));
        const QString rows = read_all(csv);
        QVERIFY(rows.contains("\"normformer seed=2") && !rows.contains("seed=3"));

        std::vector<Curve> more = runs_of(3, 2);   // a live refresh: the same curves, the same names
        c.setCurves(more);
        settle();
        QVERIFY(!c.curveShown(4) && c.legend()->entries()[2].hidden);
        QVERIFY(y_max() < 5);

        click(2);
        QVERIFY(c.curveShown(4) && c.curveShown(5) && !c.legend()->entries()[2].hidden);
        QVERIFY(y_max() > 100);
        QVERIFY(!c.footer().contains("hidden"));

        click(4);   // validation: every run's dashed line
        for (size_t i = 0; i < 6; ++i) QCOMPARE(c.curveShown(i), i % 2 == 0);
        click(3);   // and train: no curve left to export, which says how to show one (it wrote a header alone)
        QVERIFY(!c.exportCsv(dir_.filePath("none.csv"), &err) && err.contains("legend"));
        QVERIFY(!QFile::exists(dir_.filePath("none.csv")));
        click(3);
        click(4);
        click(5);   // the loss floor
        QVERIFY(!c.hlineShown(0));
        click(5);
        QVERIFY(c.hlineShown(0));

        QTest::mouseDClick(c.legend(), Qt::LeftButton, {}, c.legend()->entryRect(0).center());
        settle();
        for (size_t i = 0; i < 6; ++i) QCOMPARE(c.curveShown(i), i < 2);   // only the first run
        QVERIFY(c.hlineShown(0));   // another kind of entry: untouched
        QVERIFY(!c.legend()->entries()[3].hidden && !c.legend()->entries()[4].hidden);
        QTest::mouseDClick(c.legend(), Qt::LeftButton, {}, c.legend()->entryRect(0).center());
        settle();
        for (size_t i = 0; i < 6; ++i) QVERIFY(c.curveShown(i));

        // the legend's menu (right-click): hide, show only, and show all again, in words
        auto menu = [&](int entry, const QString& action) {
            QStringList seen;
            QTimer::singleShot(50, [&] {
                auto* m = qobject_cast<QMenu*>(QApplication::activePopupWidget());
                if (!m) return;
                for (QAction* a : m->actions()) {
                    seen << a->text() + (a->isEnabled() ? "" : " (off)");
                    if (a->text() == action) a->trigger();
                }
                m->close();
            });
            Q_EMIT c.legend()->customContextMenuRequested(c.legend()->entryRect(entry).center());
            settle();
            return seen;
        };
        const QStringList items = menu(1, QString::fromUtf8("Show only “normformer seed=2”"));
        QCOMPARE(items, (QStringList{QString::fromUtf8("Hide “normformer seed=2”"), QString::fromUtf8("Show only “normformer seed=2”"),
                                     "Show all lines (off)"}));
        for (size_t i = 0; i < 6; ++i) QCOMPARE(c.curveShown(i), i == 2 || i == 3);
        menu(1, "Show all lines");
        QCOMPARE(c.curvesHidden(), size_t(0));

        // from the keyboard: focus on the first entry, arrows to the next, Space hides, Enter isolates
        c.legend()->setFocus(Qt::TabFocusReason);
        QTRY_VERIFY(c.legend()->hasFocus());
        QCOMPARE(c.legend()->currentEntry(), 0);
        QTest::keyClick(c.legend(), Qt::Key_Right);
        QCOMPARE(c.legend()->currentEntry(), 1);
        QTest::keyClick(c.legend(), Qt::Key_Space);
        QVERIFY(!c.curveShown(2) && c.curveShown(0));
        QTest::keyClick(c.legend(), Qt::Key_Space);
        QTest::keyClick(c.legend(), Qt::Key_Left);
        QTest::keyClick(c.legend(), Qt::Key_Left);   // the first stays the first
        QCOMPARE(c.legend()->currentEntry(), 0);
        QTest::keyClick(c.legend(), Qt::Key_Return);
        for (size_t i = 0; i < 6; ++i) QCOMPARE(c.curveShown(i), i < 2);
        QTest::keyClick(c.legend(), Qt::Key_Return);
        QCOMPARE(c.curvesHidden(), size_t(0));
    }

    // Other runs selected: entries by other names, none hidden. The same run shown again after
    // another one: still hidden (kept by name, as long as the chart lives).
    void hidingFollowsTheName() {
        LineChart c;
        c.resize(900, 560);
        c.show();
        std::vector<Curve> two = runs_of(2);
        c.setCurves(two);
        settle();
        c.toggleLegendEntry(1);   // normformer seed=2
        QVERIFY(!c.curveShown(2));
        std::vector<Curve> one(two.begin(), two.begin() + 2);
        c.setCurves(one);
        settle();
        QCOMPARE(c.curvesHidden(), size_t(0));
        c.setCurves(two);
        settle();
        QVERIFY(!c.curveShown(2) && !c.curveShown(3));
    }

    // The legend stands on the chart's background, light or dark with the chart's theme (the window
    // follows a dark system palette), its text in the theme's colour.
    void followsTheChartsTheme() {
        LineChart c;
        c.setCurves(runs_of(2));
        c.resize(700, 420);
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        for (auto theme : {QChart::ChartThemeDark, QChart::ChartThemeLight}) {
            c.chart()->setTheme(theme);
            c.update();
            settle();
            const QImage shot = c.grab().toImage();
            QWidget* area = c.findChild<QScrollArea*>("chartLegendArea");
            const QPoint corner = area->mapTo(&c, QPoint(area->width() - 3, area->height() - 3));   // no entry there
            const bool dark = theme == QChart::ChartThemeDark;
            QCOMPARE(QColor(shot.pixel(corner)).lightness() < 128, dark);
            QCOMPARE(c.legend()->palette().color(QPalette::WindowText), c.chart()->legend()->labelColor());
            QCOMPARE(c.legend()->palette().color(QPalette::WindowText).lightness() > 128, dark);
        }
    }

    // The Gains tab's box plots (a chart of Qt's own): eight runs' legend named each "nf se…" in a
    // laptop's window; on the card, in rows that wrap, each whole.
    void theBoxPlotsNameEveryRun() {
        const QString path = dir_.filePath("boxes.sqlite");
        std::vector<int64_t> ids;
        QStringList names;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 8; ++k) {
                const QString name = QString("%1 seed=%2").arg(k < 4 ? "nf" : "nf-lr2e-3").arg(k % 4 + 1);
                names << name;
                const int64_t id = s.create_run(name.toStdString(), "normformer", nlohmann::json{{"k", k}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int l = 0; l < 4; ++l) {
                    std::vector<double> v;
                    for (int j = 0; j < 64; ++j) v.push_back(1.0 + 0.02 * std::sin(j + l + k));
                    w.distribution(summarize("gain/ffn_norm", l, 100, v, 16));
                }
                w.flush();
                s.finish_run(id, RunStatus::Finished, 100, "", 2.4);
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(590, 440);   // a laptop's Gains tab
        view.setRuns(ids, s);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.tabs()->setCurrentIndex(2);
        settle();
        auto* box = view.findChild<QChartView*>("boxChart");
        QVERIFY(box && box->isVisible());
        QVERIFY(!box->chart()->legend()->isVisible());
        auto* card = qobject_cast<ChartCard*>(view.currentChart());
        QVERIFY(card && card->legendShown());
        ChartLegend* legend = card->legend();
        QTRY_COMPARE(legend->textsListed(), names);
        const QFontMetrics fm(legend->font());
        QScrollArea* area = card->legendArea();
        for (int i = 0; i < names.size(); ++i) {
            const QRect r = legend->entryRect(i);
            QVERIFY2(r.width() >= fm.horizontalAdvance(names[i]), qPrintable(names[i] + " is cut"));
            QVERIFY2(area->viewport()->rect().contains(QRect(legend->mapTo(area->viewport(), r.topLeft()), r.size())),
                     qPrintable(names[i] + " is not in view"));
        }
        QVERIFY(legend->rowsAt(legend->width()) >= 2);
        QCOMPARE(legend->entries()[0].marker, ChartLegend::Marker::Box);
        // a click hides a run's boxes, from the plot and an export (they were not clickable), and its
        // histogram; a second brings them back; a double-click shows only that run, another all of them
        auto boxes = [&] {
            QStringList runs;
            for (auto* series : box->chart()->series()) runs << series->name();
            for (auto& b : view.boxSpec().boxes)
                if (!runs.contains(b.run)) return QStringList{"an export draws " + b.run};
            QStringList histograms;
            for (auto& c : view.findChild<LineChart*>("histChart")->curves()) histograms << c.label;
            return histograms == runs ? runs : QStringList{"histograms of " + histograms.join(", ")};
        };
        QCOMPARE(boxes(), names);
        // the values' axis labelled as a line chart's (core/print_ticks.h): in one notation, where Qt's
        // value axis wrote "0.99 1 1.01"; as many labels as the plot's height holds
        auto* values = qobject_cast<QCategoryAxis*>(box->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(values);
        const QStringList labels = values->categoriesLabels();
        std::vector<double> at;
        for (const QString& l : labels) at.push_back(values->endValue(l));
        QStringList one_notation;
        for (const std::string& l : label_ticks(at, false).labels) one_notation << QString::fromStdString(l);
        QCOMPARE(labels, one_notation);
        double lo = 1e300, hi = -1e300;   // tight to the boxes, 5 % to spare
        for (auto& b : view.boxSpec().boxes) lo = std::min(lo, b.min), hi = std::max(hi, b.max);
        QVERIFY2(std::abs(values->min() - (lo - 0.05 * (hi - lo))) < 1e-9 && std::abs(values->max() - (hi + 0.05 * (hi - lo))) < 1e-9,
                 qPrintable(QString("%1–%2 for boxes over %3–%4").arg(values->min()).arg(values->max()).arg(lo).arg(hi)));
        QVERIFY2(labels.size() >= 3 && labels.size() * 28 <= box->chart()->plotArea().height() + 28,
                 qPrintable(QString("%1 in %2 px").arg(labels.join(' ')).arg(box->chart()->plotArea().height())));
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->entryRect(2).center());
        settle();
        QStringList without = names;
        without.removeAt(2);
        QCOMPARE(boxes(), without);
        QVERIFY(legend->entries()[2].hidden && legend->textsListed() == names);
        // its CSV leaves the run out too (it wrote all eight)
        auto csv_runs = [&](QString* err) {
            const QString csv = dir_.filePath("boxes.csv");
            QFile::remove(csv);
            QSet<qint64> seen;
            if (!view.exportCurrent(csv, "csv", 96, false, err)) return seen;
            const QStringList lines = read_all(csv).split('\n', Qt::SkipEmptyParts);
            for (int i = 1; i < lines.size(); ++i) seen.insert(lines[i].section(',', 0, 0).toLongLong());
            return seen;
        };
        QString err;
        QSet<qint64> expected;
        for (size_t k = 0; k < ids.size(); ++k)
            if (k != 2) expected.insert(ids[k]);
        QCOMPARE(csv_runs(&err), expected);
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->entryRect(2).center());
        settle();
        QCOMPARE(boxes(), names);
        QTest::mouseDClick(legend, Qt::LeftButton, {}, legend->entryRect(5).center());
        settle();
        QCOMPARE(boxes(), QStringList{names[5]});
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->entryRect(5).center());   // none shown: no CSV, and why
        settle();
        QVERIFY(boxes().isEmpty());
        QVERIFY(csv_runs(&err).isEmpty() && err.contains("legend") && !QFile::exists(dir_.filePath("boxes.csv")));
        QTest::mouseClick(legend, Qt::LeftButton, {}, legend->entryRect(5).center());
        settle();
        QTest::mouseDClick(legend, Qt::LeftButton, {}, legend->entryRect(5).center());
        settle();
        QCOMPARE(boxes(), names);
    }

    // The Gains panel's CSV holds both its charts: every box's summary, and the histogram as it
    // is drawn — each bin's edges and count (the curve's two corners a bin are not data); a run
    // the legend hides is in neither.
    void theGainsPanelsCsvHasTheHistogramsBins() {
        const QString path = dir_.filePath("panel.sqlite");
        std::vector<int64_t> ids;
        std::vector<Distribution> layer1;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 2; ++k) {
                const int64_t id = s.create_run("r" + std::to_string(k), "normformer", nlohmann::json{{"k", k}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int l = 0; l < 2; ++l) {
                    std::vector<double> v;
                    for (int j = 0; j < 40 + 10 * k; ++j) v.push_back(1.0 + 0.01 * (j % 7) + 0.1 * k);
                    w.distribution(summarize("gain/ffn_norm", l, 50, v, 8));
                    if (l == 1) layer1.push_back(summarize("gain/ffn_norm", l, 50, v, 8));
                }
                w.flush();
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 700);
        view.setRuns(ids, s);
        view.show();
        QString err;
        QVERIFY2(view.showView("gains", "", "", "gain/ffn_norm", &err), qPrintable(err));
        view.findChild<QSpinBox*>("gainLayer")->setValue(1);
        settle();
        const QString csv = dir_.filePath("panel.csv");
        QVERIFY2(view.exportCurrent(csv, "csv", 96, true, &err), qPrintable(err));
        QStringList lines = read_all(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.value(0), QString("chart,run_id,name,layer,step,count,min,q1,median,q3,max,mean,std,bin_lo,bin_hi"));
        QStringList hist;
        int boxes = 0;
        for (const QString& l : lines.mid(1)) {
            QCOMPARE(l.count(','), 14);
            if (l.startsWith("boxes,")) ++boxes;
            else if (l.startsWith("histogram,")) hist << l;
        }
        QCOMPARE(boxes, 4);
        QCOMPARE(hist.size(), 16);
        for (int k = 0; k < 2; ++k) {
            const Distribution& d = layer1[static_cast<size_t>(k)];
            double total = 0;
            for (int b = 0; b < 8; ++b) {
                const QStringList f = hist[8 * k + b].split(',');
                QCOMPARE(f[1].toLongLong(), ids[static_cast<size_t>(k)]);
                QCOMPARE(f[3], QString("1"));
                QCOMPARE(f[5].toDouble(), double(d.hist[static_cast<size_t>(b)]));
                const double w = (d.hist_hi - d.hist_lo) / 8;
                QVERIFY(std::abs(f[13].toDouble() - (d.hist_lo + b * w)) < 1e-9);
                QVERIFY(std::abs(f[14].toDouble() - (d.hist_lo + (b + 1) * w)) < 1e-9);
                total += f[5].toDouble();
            }
            QCOMPARE(total, double(d.count));
        }
        // the second run hidden from the legend: neither its boxes nor its bins
        auto* card = qobject_cast<ChartCard*>(view.currentChart());
        QTest::mouseClick(card->legend(), Qt::LeftButton, {}, card->legend()->entryRect(1).center());
        settle();
        QVERIFY2(view.exportCurrent(csv, "csv", 96, true, &err), qPrintable(err));
        lines = read_all(csv).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1 + 2 + 8);
        for (const QString& l : lines.mid(1)) QCOMPARE(l.section(',', 1, 1).toLongLong(), ids[0]);
        // the chart alone (its box plots) keeps its columns
        QVERIFY2(view.exportCurrent(csv, "csv", 96, false, &err), qPrintable(err));
        QVERIFY(read_all(csv).startsWith("run_id,name,layer,step,count,"));
    }

    // Many runs of many layers: whole runs are drawn, the first ones while their lines fit in
    // kMaxCurves, and the footer says how many. 7,200 lines took Qt Charts 36 s to take out again.
    void aChartDrawsTheFirstRunsItHasRoomFor() {
        LineChart c;
        c.resize(600, 400);
        std::vector<Curve> curves;
        for (int layer = 0; layer < 30; ++layer)   // layer-major, as the gradients' curves come
            for (int run = 0; run < 20; ++run) {
                Curve cv{QString("run %1 layer %2").arg(run).arg(layer), Qt::blue, {0, 1, 2}, {1.0, 2.0, 3.0 + layer}};
                cv.run = QString("run %1").arg(run);
                cv.layer = layer;
                curves.push_back(cv);
            }
        c.setCurves(curves);
        const size_t fit = LineChart::kMaxCurves / 30;   // whole runs of 30 lines
        QCOMPARE(c.curves().size(), fit * 30);
        std::set<QString> runs;
        for (const Curve& cv : c.curves()) runs.insert(cv.run);
        QCOMPARE(runs.size(), fit);
        for (size_t r = 0; r < fit; ++r) QVERIFY(runs.count(QString("run %1").arg(r)));
        QCOMPARE(c.runsDrawn(), std::make_pair(static_cast<int>(fit), 20));
        QVERIFY2(c.footer().contains(QString("the first %1 of 20 runs drawn").arg(fit)), qPrintable(c.footer()));
        QCOMPARE(c.findChild<QLabel*>("chartFooter")->toolTip(), c.footer());   // whole, where the line is cut short
        QCOMPARE(plot_spec(c).curves.size(), curves.size());   // a figure draws every run
        QTemporaryDir dir;
        QVERIFY(c.exportCsv(dir.filePath("all.csv"), nullptr));
        QFile csv(dir.filePath("all.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        QCOMPARE(csv.readAll().count('\n'), 1 + 3 * static_cast<int>(curves.size()));   // and so does its CSV
        // One run with more lines than that is drawn whole; as many runs as fit say nothing.
        curves.resize(0);
        for (int layer = 0; layer < 600; ++layer) curves.push_back(Curve{QString("layer %1").arg(layer), Qt::red, {0, 1}, {1.0, 2.0}, Qt::SolidLine, 1.6, true, false, {}, {}, true, "one"});
        c.setCurves(curves);
        QCOMPARE(c.curves().size(), size_t(600));
        QCOMPARE(c.runsDrawn(), std::make_pair(1, 1));
        QVERIFY2(!c.footer().contains("runs drawn"), qPrintable(c.footer()));
    }
};

QTEST_MAIN(TestChartLegend)
#include "test_chart_legend.moc"
