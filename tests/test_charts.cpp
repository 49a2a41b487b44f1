// The line chart (widgets/linechart.h) on its own: every spike kept by the
// per-pixel reduction, non-finite values and log axes, the legend of several
// runs' layers, empty views' hints, the hover readout, seed groups, and a
// live run's rows read in slices. Its axes, titles and legend in little room:
// test_chart_axes.cpp; the heatmaps: test_heatmap.cpp.
#include "core/store/store.h"
#include "core/train/probes.h"
#include "widgets/chartsview.h"
#include "widgets/chart_legend.h"
#include "widgets/elided_label.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "widgets/rundata.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QLegend>
#include <QLineSeries>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest/QtTest>

#include <chrono>
#include <cmath>
#include <map>
#include <set>

using namespace normlab;

class TestCharts : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
    }

    void reductionKeepsEverySpike() {
        std::vector<double> x(200000), y(200000);
        for (size_t i = 0; i < x.size(); ++i) {
            x[i] = static_cast<double>(i);
            y[i] = 1.0 + 0.001 * std::sin(i * 0.01);
        }
        y[123457] = 50.0;   // one spike in 200,000 points
        y[7] = -3.0;
        auto red = reduce_for_pixels(x, y, 0, 199999, 800, false);
        QVERIFY(red.size() <= 4 * 801);
        double hi = -1e9, lo = 1e9;
        for (auto& [px, py] : red) hi = std::max(hi, py), lo = std::min(lo, py);
        QCOMPARE(hi, 50.0);
        QCOMPARE(lo, -3.0);
        // x stays sorted (a drawable polyline)
        for (size_t i = 1; i < red.size(); ++i) QVERIFY(red[i].first >= red[i - 1].first);
        // a zoomed window only draws its own range (plus one neighbour each side)
        auto zoom = reduce_for_pixels(x, y, 1000, 2000, 800, false);
        QVERIFY(zoom.front().first >= 999 && zoom.back().first <= 2001);
    }

    // A step-shaped series (the gains' histogram: each bin's two corners, the next bin's left corner at
    // the same x as this one's right) keeps both points at a shared x: the reduction told a column's
    // first and last point apart by x, so it kept one of two and drew a histogram of 32 bins as a
    // zig-zag through 33 points ("64 points → 33 drawn").
    void reductionKeepsAStepsCorners() {
        std::vector<double> x, y;
        const std::vector<double> counts{4, 9, 2, 7, 7, 1, 5, 3};
        for (size_t b = 0; b < counts.size(); ++b) {
            x.push_back(0.1 * b), y.push_back(counts[b]);
            x.push_back(0.1 * (b + 1)), y.push_back(counts[b]);
        }
        auto red = reduce_for_pixels(x, y, 0, 0.8, 500, false);
        QCOMPARE(red.size(), x.size());
        for (size_t i = 0; i < x.size(); ++i) QCOMPARE(red[i], std::make_pair(x[i], y[i]));
        // In one column, the first, lowest, highest and last point in the data's order, each once.
        const std::vector<double> cx{0, 0, 0, 0, 0, 0}, cy{3, 8, 8, 1, 5, 5};
        auto one = reduce_for_pixels(cx, cy, 0, 1, 10, false);
        const std::vector<std::pair<double, double>> want{{0, 3}, {0, 8}, {0, 1}, {0, 5}};
        QCOMPARE(one, want);
    }

    // The gains' histogram counts its values and bins, not its corners (a layer of 128 gains in 32 bins
    // read "64 points → 64 drawn"); two runs, each its count.
    void histogramFooterCountsValuesAndBins() {
        const QString path = dir_.filePath("hist.sqlite");
        std::vector<int64_t> ids;
        {
            Store s(path.toStdString());
            for (int width : {128, 64}) {
                const int64_t id = s.create_run("d" + std::to_string(width), "normformer", nlohmann::json{{"d", width}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                std::vector<double> v;
                for (int i = 0; i < width; ++i) v.push_back(1.0 + 0.001 * (i % 17));
                w.distribution(summarize("gain/ffn_norm", 0, 10, v, 16));
                w.flush();
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1000, 700);
        view.setRuns(std::vector<int64_t>{ids[0]}, s);
        view.show();
        QString err;
        QVERIFY2(view.showView("gains", "", "", "gain/ffn_norm", &err), qPrintable(err));
        auto* hist = view.findChild<LineChart*>("histChart");
        QTRY_VERIFY2(hist->footer().startsWith("128 values in 16 bins"), qPrintable(hist->footer()));
        view.setRuns(ids, s);
        QTRY_VERIFY2(hist->footer().startsWith("128 / 64 values in 16 bins"), qPrintable(hist->footer()));
    }

    // The caption never claims more vertices drawn than points exist (issue 24 item 15: a smoothed
    // line over 416 points read "416 points → 816 drawn").
    void captionCountsTheDataOnly() {
        LineChart c;
        c.resize(900, 400);
        std::vector<double> x, y;
        // Fewer points than the plot has pixel columns: each is drawn as it is.
        for (int i = 0; i < 200; ++i) x.push_back(i), y.push_back(5.0 - i * 0.005 + 0.1 * std::sin(i));
        Curve loss{"loss", Qt::blue, x, y};
        loss.smooth = true;   // a train loss: its smoothed line is drawn over it
        c.setCurves({loss});
        c.setSmoothing(0.6);
        QVERIFY2(c.pointsDrawn() <= 200, qPrintable(c.footer()));
        QVERIFY2(c.footer().startsWith("200 points → "), qPrintable(c.footer()));
        QVERIFY(c.pointsDrawn() > 0);
    }

    void nonFiniteAndLogAxis() {
        LineChart c;
        c.resize(600, 400);
        Curve curve{"diverging", Qt::red, {0, 1, 2, 3, 4}, {1.0, 0.0, 0.5, std::nan(""), std::numeric_limits<double>::infinity()}};
        c.setCurves({curve});
        QVERIFY(c.footer().contains("2 non-finite"));
        c.setLogY(true);   // a zero must not blank the series
        QVERIFY(c.footer().contains("≤ 0 not shown"));
        QVERIFY(c.pointsDrawn() >= 2);
        // debiased EMA: a constant stays constant from the first point
        auto e = debiased_ema({2, 2, 2, 2}, 0.9);
        for (double v : e) QVERIFY(std::abs(v - 2.0) < 1e-12);
    }

    void logXAxis() {
        // Log x on a step axis: step 0 is left out (and counted), the rest is
        // drawn with labelled ticks over the three decades; log y beside it.
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, y;
        for (int i = 0; i <= 1000; ++i) x.push_back(i), y.push_back(5.0 / std::sqrt(1.0 + i));
        c.setCurves({Curve{"loss", Qt::blue, x, y}});
        c.setLogX(true);
        c.setLogY(true);
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(c.logX());
        const QStringList xl = c.xTickLabels();
        for (const char* want : {"1", "10", "100", "1000"}) QVERIFY2(xl.contains(want), qPrintable(xl.join(" ")));
        QVERIFY2(c.footer().contains("1 points at x ≤ 0"), qPrintable(c.footer()));
        QVERIFY(c.pointsDrawn() > 10);
        QVERIFY(c.axisTitleShown(Qt::Horizontal).isEmpty() || c.axisTitleShown(Qt::Horizontal).contains("log"));
        QVERIFY(c.readoutAt(100).contains("0.497"));   // 5/√101, in data units though the axis runs in log10
        c.setLogX(false);
        QVERIFY(!c.footer().contains("x ≤ 0"));
        QVERIFY(c.xTickLabels().contains("0"));
    }

    void gradientLegendFitsWithSeveralRuns() {
        // two runs × 4 layers: 8 curves, the legend lists each run once, its marker the run's ramp from its
        // first layer's colour to its last's (as a figure's legend), and the layers they span once, in a grey
        // key that hides nothing
        const QString path = dir_.filePath("legend.sqlite");
        std::vector<int64_t> ids;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 2; ++k) {
                const int64_t id = s.create_run(k ? "NormFormer" : "Post-LN", "pre_ln", nlohmann::json{{"k", k}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int l = 0; l < 4; ++l)
                    for (int i = 0; i < 30; ++i) w.layer("grad_l1/fc2", l, i * 10, 1e-3 * (l + 1) * (k + 1));
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1000, 700);
        view.setRuns(ids, s);
        view.show();
        QString err;
        QVERIFY2(view.showView("gradients", "fc2", "l1", "", &err), qPrintable(err));
        for (int i = 0; i < 3; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        auto* chart = qobject_cast<LineChart*>(view.currentChart());
        QCOMPARE(chart->curves().size(), size_t(8));
        QStringList shown;
        for (const ChartLegend::Entry& m : chart->legend()->entries())
            if (m.listed) {
                shown << m.text;
                if (!m.clickable) {   // the key: grey, dark to light as the runs' ramps
                    QVERIFY2(m.marker == ChartLegend::Marker::Ramp && m.ramp.size() == 4, qPrintable(m.text));
                    for (const QColor& c : m.ramp) QVERIFY(c.red() == c.green() && c.green() == c.blue());
                    QVERIFY(m.ramp.front().lightness() != m.ramp.back().lightness());
                    continue;
                }
                const QString run = m.text;
                std::vector<QColor> ends;   // the run's layer 0 and layer 3 colours
                for (const Curve& c : chart->curves())
                    if (c.run == run && (c.layer == 0 || c.layer == 3)) ends.push_back(c.color);
                QVERIFY2(m.marker == ChartLegend::Marker::Ramp && ends.size() == 2, qPrintable(m.text));
                QCOMPARE(m.ramp.front(), ends[0]);
                QCOMPARE(m.ramp.back(), ends[1]);
                QVERIFY(ends[0] != ends[1]);
            }
        QCOMPARE(shown, (QStringList{"Post-LN", "NormFormer", QString::fromUtf8("layers 0–3")}));
        QCOMPARE(chart->legendAlignment(), Qt::AlignBottom);   // three entries: a row below the plot
        const int key = static_cast<int>(chart->legend()->entries().size()) - 1;
        QVERIFY(key >= 0 && !chart->legend()->entries()[static_cast<size_t>(key)].clickable);
        chart->toggleLegendEntry(key);   // a click on the key hides nothing
        QCOMPARE(chart->curvesHidden(), size_t(0));
    }

    // The loss chart draws the loss of byte frequencies alone (the runs' unigram_loss) where every run
    // shown that records it trained on the same data, and not where their data differ.
    void lossChartDrawsTheUnigramLevel() {
        const QString path = dir_.filePath("unigram.sqlite");
        {
            Store s(path.toStdString());
            for (auto [name, u] : {std::pair{"a", 3.15}, std::pair{"b", 3.15}, std::pair{"other data", 3.4}}) {
                const int64_t id = s.create_run(name, "pre_ln", nlohmann::json{{"name", name}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                s.set_info(id, {{"unigram_loss", u}});
                RunWriter w(s, id);
                for (int i = 0; i < 20; ++i) w.scalar("train/loss", i * 10, 4.0 - 0.04 * i);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(800, 500);
        view.setRuns({1, 2}, s);
        auto lines = [&] { return view.lossChart()->hlines(); };
        QCOMPARE(lines().size(), size_t(1));
        QCOMPARE(lines()[0].first, 3.15);
        QCOMPARE(lines()[0].second, QString("unigram (byte frequencies)"));
        view.setRuns({1, 3}, s);
        QVERIFY(lines().empty());
    }

    // Every kind of line on the loss chart has a dash of its own, on screen and in a figure: train,
    // validation, the loss floor and the unigram loss. The unigram line was dashed as validation is
    // on screen, and the floor and the unigram the same dash-dot in a figure.
    void lossChartsLinesEachHaveTheirOwnDash() {
        const QString path = dir_.filePath("dashes.sqlite");
        {
            Store s(path.toStdString());
            for (const char* name : {"a", "b"}) {
                const int64_t id = s.create_run(name, "pre_ln", nlohmann::json{{"name", name}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                s.set_info(id, {{"unigram_loss", 3.15}, {"loss_floor", 1.8}});
                RunWriter w(s, id);
                for (int i = 0; i < 20; ++i) w.scalar("train/loss", i * 10, 4.0 - 0.04 * i);
                for (int i = 0; i < 4; ++i) w.scalar("val/loss", i * 50, 4.1 - 0.2 * i);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 500);
        view.setRuns({1, 2}, s);
        LineChart* loss = view.lossChart();
        QCOMPARE(loss->hlines().size(), size_t(2));
        // on screen: the legend's entries that name no run (the kinds of line, the reference lines)
        std::map<QString, Qt::PenStyle> keys;
        for (const auto& e : loss->legend()->entries())
            if (e.listed && e.marker == ChartLegend::Marker::Line && e.text != "a" && e.text != "b") keys[e.text] = e.style;
        for (const char* k : {"train", "validation", "loss floor (entropy rate)", "unigram (byte frequencies)"})
            QVERIFY2(keys.count(k), k);
        std::set<Qt::PenStyle> styles;
        for (auto& [text, style] : keys) styles.insert(style);
        QCOMPARE(styles.size(), keys.size());
        // the reference lines as drawn: each with its legend entry's dash
        size_t drawn = 0;
        for (auto* series : loss->chart()->series())
            for (size_t h = 0; h < 2; ++h)
                if (series->name() == loss->hlines()[h].second) {
                    QCOMPARE(static_cast<QLineSeries*>(series)->pen().style(), reference_line_style(h));
                    ++drawn;
                }
        QCOMPARE(drawn, size_t(2));
        // in a figure
        std::set<Qt::PenStyle> printed;
        size_t n = 0;
        for (const LegendEntry& e : legend_entries(plot_spec(*loss)))
            if (e.run.isEmpty()) printed.insert(e.style), ++n;
        QCOMPARE(n, size_t(4));
        QCOMPARE(printed.size(), n);
    }

    // A live run's rows in slices, as the window reads a fast run's between its events: with
    // its time up before it starts, a call reads one series and leaves the rest to the next;
    // the visible chart is redrawn once the pass over the runs has ended, with every row a
    // whole read gives; rows written mid-pass to a series already read come in the next pass.
    void liveRowsAreReadInSlices() {
        const QString path = dir_.filePath("slices.sqlite");
        Store s(path.toStdString());
        std::vector<int64_t> ids;
        for (const char* name : {"a", "b"}) {
            ids.push_back(s.create_run(name, "pre_ln", nlohmann::json{{"name", name}}, 1));
            s.mark_running(ids.back(), "cpu", nlohmann::json::object());
        }
        auto write = [&](int from, int to) {   // 5 series a run: the loss, the lr, a per-layer series of 3
            for (int64_t id : ids) {
                RunWriter w(s, id);
                for (int i = from; i < to; ++i) {
                    w.scalar("train/loss", i, 4.0 - 1e-3 * i + id);
                    w.scalar("train/lr", i, 1e-3 * id);
                    for (int l = 0; l < 3; ++l) w.layer("grad_l2/fc1", l, i, 0.1 * l + i);
                }
            }
        };
        write(0, 50);
        const auto past = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        RunData sliced(ids[0]), whole(ids[0]);
        int calls = 1;
        for (sliced.refresh(s, past); !sliced.passDone() && calls < 100; ++calls) sliced.refresh(s, past);
        QCOMPARE(calls, 5);
        whole.refresh(s);
        for (auto key : {std::pair{"train/loss", -1}, std::pair{"train/lr", -1}, std::pair{"grad_l2/fc1", 0},
                         std::pair{"grad_l2/fc1", 2}}) {
            const SeriesData *a = sliced.series(key.first, key.second), *b = whole.series(key.first, key.second);
            QVERIFY2(a && b && a->steps == b->steps && a->values == b->values, key.first);
        }

        ChartsView view;
        view.resize(800, 500);
        view.setRuns(ids, s);
        auto points = [&](size_t curve) { return view.lossChart()->curves().at(curve).x.size(); };
        QCOMPARE(points(0), size_t(50));
        write(50, 80);
        int slices = 1;
        bool wrote = false;
        for (; !view.refreshUntil(s, past) && slices < 100; ++slices) {
            QCOMPARE(points(0), size_t(50));   // not redrawn mid-pass
            if (!wrote) write(80, 90), wrote = true;
        }
        QCOMPARE(slices, 10);   // 5 series a run, 2 runs
        // The first series of the first run was read before 80-89 were written; its others, and the
        // second run's, after.
        const RunData& first = *view.runs()[0];
        QCOMPARE(first.series("grad_l2/fc1", 0)->steps.size(), size_t(80));
        QCOMPARE(first.series("train/loss")->steps.size(), size_t(90));
        QCOMPARE(view.runs()[1]->series("grad_l2/fc1", 0)->steps.size(), size_t(90));
        QCOMPARE(points(0), size_t(90));
        QVERIFY(view.refresh(s));
        QCOMPARE(first.series("grad_l2/fc1", 0)->steps.size(), size_t(90));
        QVERIFY(!view.refresh(s));   // nothing new
    }

    // The legend names the runs shown now: another selection of as many runs (as many curves) renames it,
    // and where its entries do not fit in a row they wrap onto two from the first drawing, not only after a resize.
    void legendFollowsTheRunsShown() {
        const QString path = dir_.filePath("legend4.sqlite");
        {
            Store s(path.toStdString());
            for (const char* name : {"post_ln", "pre_ln", "normformer", "deepnorm"}) {
                const int64_t id = s.create_run(name, "pre_ln", nlohmann::json{{"name", name}}, 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int l = 0; l < 4; ++l)
                    for (int i = 0; i < 20; ++i) w.layer("hidden/norm", l, i * 10, 1.0 + l + 0.01 * i);
                for (int i = 0; i < 20; ++i) {
                    w.scalar("train/loss", i * 10, 3.0 - 0.01 * i);
                    if (i % 5 == 0) w.scalar("val/loss", i * 10, 3.1 - 0.01 * i);
                }
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(620, 600);   // about a laptop's Layers tab
        view.setRuns({1, 2}, s);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QString err;
        QVERIFY2(view.showView("layers", "", "", "hidden/norm", &err), qPrintable(err));
        auto shown = [&](LineChart* chart) {   // the legend as laid out (QTRY_: once its layout has run)
            return chart->legendShown();
        };
        const QString key = QString::fromUtf8("layers 0–3");
        QTRY_COMPARE(shown(view.layerChart()), (QStringList{"post_ln", "pre_ln", key}));
        view.setRuns({3, 4}, s);
        QTRY_COMPARE(shown(view.layerChart()), (QStringList{"normformer", "deepnorm", key}));
        view.setRuns({1, 2, 3, 4}, s);
        QTRY_COMPARE(shown(view.layerChart()).size(), 5);
        QCOMPARE(view.layerChart()->legendAlignment(), Qt::AlignBottom);   // four runs and the key: one row below, all of it
        QCOMPARE(view.layerChart()->legend()->rowsAt(view.layerChart()->legend()->width()), 1);   // two with the layers in each
        // the loss: each run once and train and validation once each (not "post_ln train", "post_ln val", ...)
        QVERIFY2(view.showView("loss", "", "", "", &err), qPrintable(err));
        QTRY_COMPARE(shown(view.lossChart()), (QStringList{"post_ln", "pre_ln", "normformer", "deepnorm", "train", "validation"}));
        for (const ChartLegend::Entry& m : view.lossChart()->legend()->entries())
            if (m.listed) QCOMPARE(m.marker, ChartLegend::Marker::Line);   // a line with its dash
        QCOMPARE(view.lossChart()->legend()->entries()[5].style, Qt::DashLine);   // validation
        view.setRuns(std::vector<int64_t>{1}, s);   // one run: its own lines by name
        QTRY_COMPARE(shown(view.lossChart()), (QStringList{"post_ln train", "post_ln val"}));
    }

    // A dotted setting's name shortened to a narrow column keeps its last part: the settings a NormFormer
    // comparison differs in stay told apart (elided in the middle, two read "normf…_norm").
    void dottedNamesKeepTheirLastPart() {
        const QFontMetrics fm(QApplication::font());
        const QStringList keys = {"normformer.ffn_norm", "normformer.head_scale", "normformer.post_attn_norm",
                                  "optim.schedule.min_lr_ratio", "layout"};
        const int width = fm.horizontalAdvance("normformer.ffn");   // narrower than any of the long ones
        QStringList shown;
        for (const QString& k : keys) {
            const QString s = elide_dotted(fm, k, width);
            QVERIFY2(fm.horizontalAdvance(s) <= width, qPrintable(s));
            shown << s;
        }
        QCOMPARE(shown[4], QString("layout"));   // what fits stays whole
        QCOMPARE(shown[0], QString("n.ffn_norm"));
        QVERIFY2(shown[3].endsWith("ratio"), qPrintable(shown[3]));
        QCOMPARE(QSet<QString>(shown.begin(), shown.end()).size(), keys.size());
    }

    // An empty view says what to do: no run shown; a probe a scheme does not
    // have; a probe switched off. The hint leaves once there is data.
    void emptyViewsSayWhatToDo() {
        const QString path = dir_.filePath("hints.sqlite");
        int64_t id = 0;
        {
            Store s(path.toStdString());
            id = s.create_run("pre_ln", "pre_ln", nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int i = 0; i < 20; ++i) w.scalar("train/loss", i, 3.0 - 0.01 * i);
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 600);
        view.show();
        view.setRuns(std::vector<int64_t>{}, s);
        for (int i = 0; i < 3; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY2(view.lossChart()->emptyHintShown().contains("select runs"), qPrintable(view.lossChart()->emptyHintShown()));
        view.setRuns(std::vector<int64_t>{id}, s);
        for (int i = 0; i < 3; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(view.lossChart()->emptyHintShown().isEmpty());   // it has losses
        QString err;
        QVERIFY2(view.showView("layers", "", "", "gain_mean/alpha_A", &err), qPrintable(err));
        auto* chart = qobject_cast<LineChart*>(view.currentChart());
        QVERIFY(chart);
        QVERIFY2(chart->emptyHintShown().contains("only in nGPT runs"), qPrintable(chart->emptyHintShown()));
        QVERIFY2(view.showView("layers", "", "", "cond/q", &err), qPrintable(err));
        QVERIFY2(chart->emptyHintShown().contains("probes.cond_every"), qPrintable(chart->emptyHintShown()));
        QVERIFY2(view.showView("scalars", "", "", "branchnorm/alpha", &err), qPrintable(err));
        chart = qobject_cast<LineChart*>(view.currentChart());
        QVERIFY2(chart->emptyHintShown().contains("only in BranchNorm runs"), qPrintable(chart->emptyHintShown()));
        // never in an export
        QVERIFY(chart->exportFigure(dir_.filePath("empty.png"), "png", 96, &err));
        QVERIFY(!chart->emptyHintShown().isEmpty());
    }

    // Hover readout: moving the mouse to x = 25 shows every curve's value
    // there (raw, and smoothed where smoothing is on); a click pins it, so it
    // stays when the mouse leaves; exports never show it.
    void hoverShowsEveryCurvesValueAndClickPins() {
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, a, b;
        for (int i = 0; i <= 50; ++i) x.push_back(i), a.push_back(100 + i), b.push_back(2 * i);
        c.setAxisTitles("step", "value");
        c.setCurves({Curve{"alpha", Qt::blue, x, a}, Curve{"beta", Qt::red, x, b, Qt::SolidLine, 1.6, false}});
        c.setSmoothing(0.5);
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QWidget* vp = c.view()->viewport();
        const QPointF scene = c.chart()->mapToScene(c.chart()->mapToPosition(QPointF(25, 60)));
        const QPoint at = c.view()->mapFromScene(scene);
        QTest::mouseMove(vp, at);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), c.view()->viewport()->mapToGlobal(QPointF(at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(vp, &move);
        const QString text = c.readoutText();
        QVERIFY2(text.startsWith("step 2") && text.contains("alpha: 125") && text.contains("beta: 50"), qPrintable(text));
        QVERIFY2(text.contains("smoothed"), qPrintable(text));                       // alpha is smoothed
        const QString near = c.readoutAt(25.2);                                   // the nearest point, named by its own step
        QVERIFY2(near.startsWith("step 25\n") && near.contains("alpha: 125"), qPrintable(near));
        QTest::mouseClick(vp, Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(c.readoutPinned());
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(vp, &leave);
        QVERIFY(!c.readoutText().isEmpty());                                      // pinned: stays
        const QString svg = dir_.filePath("readout.svg");
        QString err;
        QVERIFY2(c.exportFigure(svg, "svg", 96, &err), qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(!QString::fromUtf8(f.readAll()).contains("alpha: 125"));          // not in the figure
        QVERIFY(!c.readoutText().isEmpty());                                      // and back after it
        // New data of the same curves (a live run): the pinned readout stays, with the new values.
        std::vector<double> a2 = a;
        a2[25] = 7;
        c.setCurves({Curve{"alpha", Qt::blue, x, a2}, Curve{"beta", Qt::red, x, b, Qt::SolidLine, 1.6, false}});
        QVERIFY2(c.readoutPinned() && c.readoutText().contains("alpha: 7"), qPrintable(c.readoutText()));
        // Other curves (another selection, grouping or language): it goes, never listing runs no longer drawn.
        c.setCurves({Curve{"gamma", Qt::green, x, b}});
        QVERIFY(!c.readoutPinned());
        QVERIFY2(c.readoutText().isEmpty(), qPrintable(c.readoutText()));
    }

    // Groups: three runs that differ only by seed become one line (their mean)
    // with a band; a run with another setting keeps its own line; min–max
    // bands hold every run; "each run its own line" restores four lines.
    void runsDifferingBySeedAreOneLineWithABand() {
        const QString path = dir_.filePath("groups.sqlite");
        std::vector<int64_t> ids;
        {
            Store s(path.toStdString());
            for (int k = 0; k < 4; ++k) {
                nlohmann::json cfg = {{"model", {{"d_model", k == 3 ? 128 : 64}}}, {"train", {{"seed", k + 1}}}};
                const int64_t id = s.create_run(QString("run %1").arg(k).toStdString(), "pre_ln", cfg, k + 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                for (int i = 0; i < 50; ++i) w.scalar("train/loss", i, 3.0 + k + 0.01 * i);
                ids.push_back(id);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(900, 600);
        view.setRuns(ids, s);
        view.setSmoothing(0);
        view.setGrouping(1);
        view.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto& c = view.lossChart()->curves();
        QCOMPARE(c.size(), size_t(2));
        const Curve* g = c[0].band_lo.empty() ? &c[1] : &c[0];
        const Curve* alone = g == &c[0] ? &c[1] : &c[0];
        QVERIFY2(g->label.contains(QString::fromUtf8("×3")), qPrintable(g->label));
        QCOMPARE(g->x.size(), size_t(50));
        QVERIFY(std::abs(g->y[10] - (4.0 + 0.1)) < 1e-12);                           // mean of 3, 4, 5 (+0.1)
        QVERIFY(std::abs(g->band_hi[10] - g->y[10] - std::sqrt(2.0 / 3.0)) < 1e-12);  // population std
        QVERIFY(alone->band_lo.empty());
        QVERIFY2(alone->label.startsWith("run 3"), qPrintable(alone->label));
        view.setGrouping(2);
        for (int i = 0; i < 3; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const auto& m = view.lossChart()->curves();
        const Curve* gm = m[0].band_lo.empty() ? &m[1] : &m[0];
        QVERIFY(std::abs(gm->band_lo[10] - 3.1) < 1e-12 && std::abs(gm->band_hi[10] - 5.1) < 1e-12);
        view.setGrouping(0);
        for (int i = 0; i < 3; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QCOMPARE(view.lossChart()->curves().size(), size_t(4));
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
