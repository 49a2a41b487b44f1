// The line chart's axes in any room (widgets/linechart.h): 1-2-5 ticks on
// ranges tight to the data, as many as a low or narrow chart has room for,
// zero as zero, labelled log axes at any span (also in exports), axis titles
// elided in the middle or shortened, titles' scripts ("‖x_{ℓ}‖") drawn as
// such, and a low chart's legend giving way to its labels. Split from
// test_charts.cpp.
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include "widgets/math_text.h"
#include "widgets/plot_figure.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QFontDatabase>
#include <QGraphicsTextItem>
#include <QFile>
#include <QLegend>
#include <QMouseEvent>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest/QtTest>

#include <cmath>
#include <map>

using namespace normlab;

namespace {

// The y title as Qt Charts draws it (the axis's rotated text), once the chart is shown and laid out.
QString drawnYTitle(LineChart& c) {
    for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
    QString drawn;
    for (QGraphicsItem* item : c.view()->scene()->items())
        if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && t->rotation() == 270)
            drawn = t->toPlainText();
    return drawn;
}

}  // namespace

class TestChartAxes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
    }

    void aLowChartHasFewerTicks() {
        // a histogram under box plots: 50 px of plot showed six labels as "…"
        LineChart c;
        c.resize(640, 170);
        std::vector<double> x, y;
        for (int i = 0; i < 40; ++i) x.push_back(0.95 + i * 0.0025), y.push_back(i % 7);
        c.setCurves({Curve{"h", Qt::red, x, y}});
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const double h = c.chart()->plotArea().height();
        QVERIFY2(h < 150, qPrintable(QString::number(h)));   // its legend beside the plot (kLegendBelowMinHeight)
        QVERIFY2(c.yTickLabels().size() <= std::max(2, static_cast<int>(h / 30) + 1), qPrintable(c.yTickLabels().join(" ")));
        c.resize(640, 600);
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY2(c.yTickLabels().size() >= 4, qPrintable(c.yTickLabels().join(" ")));   // room again: more ticks
    }

    // A chart lower than LineChart::kLegendMinHeight (the learning rate under the loss in a laptop's
    // window) hides its legend on screen, so that its axes keep their labels (with it, Qt Charts drew
    // every tick label as "..."); taller again, the legend is back. An export always has the legend.
    void aLowChartGivesItsLegendToThePlot() {
        LineChart c;
        std::vector<double> x, y;
        for (int i = 0; i <= 200; ++i) x.push_back(i), y.push_back(2e-3 * std::min(1.0, (i + 1) / 20.0));
        c.setCurves({Curve{"Post-LN", Qt::blue, x, y}, Curve{"NormFormer", Qt::red, x, y}});
        c.setAxisTitles("step", "learning rate", "lr");
        c.setTitle("Learning rate");
        c.setMinimumHeight(150);   // as the Loss tab's learning rate has
        c.resize(580, LineChart::kLegendMinHeight - 20);
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(c.legendShown().isEmpty());
        QVERIFY2(c.xTickLabels().size() >= 3 && c.yTickLabels().size() >= 3,
                 qPrintable(c.xTickLabels().join(" ") + " | " + c.yTickLabels().join(" ")));
        const QString svg = dir_.filePath("low-legend.svg");
        QString err;
        QVERIFY2(c.exportFigure(svg, "svg", 96, &err), qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains("NormFormer") && text.contains("Post-LN"), "the export's legend");
        c.resize(580, LineChart::kLegendMinHeight + 60);
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(!c.legendShown().isEmpty());
    }

    // A low, wide chart (the Gradients tab's lines over two heatmaps in a laptop's window, ~590×220)
    // puts its legend beside the plot: below, it took ~30 of the plot's ~110 px and the y title read
    // "gradi…(l...". Taller, the legend goes back below.
    void aLowWideChartPutsItsLegendBeside() {
        LineChart c;
        std::vector<Curve> curves;
        std::vector<double> x, y;
        for (int i = 0; i <= 200; i += 10) x.push_back(i), y.push_back(1e-5 * (1 + i));
        for (int l = 0; l < 6; ++l) curves.push_back(Curve{QString("layer %1").arg(l), QColor::fromHsv(20 * l, 200, 200), x, y});
        for (int l = 0; l < 6; ++l)
            for (double& v : curves[static_cast<size_t>(l)].y) v *= std::pow(10.0, l);
        c.setCurves(curves);
        c.setAxisTitles("step", QString::fromUtf8("mean |∂L/∂W| (L1)"), "gradient");
        c.setLogY(true);
        c.resize(590, 219);
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY(!c.legendShown().isEmpty());
        QCOMPARE(c.legendAlignment(), Qt::AlignRight);
        const QString title = c.axisTitleShown(Qt::Vertical);
        QVERIFY2(!title.contains(QString::fromUtf8("…")) && !title.contains("..."), qPrintable(title));
        QVERIFY2(c.yTickLabels().size() >= 3, qPrintable(c.yTickLabels().join(" ")));
        c.resize(590, LineChart::kLegendBelowMinHeight + 100);
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QCOMPARE(c.legendAlignment(), Qt::AlignBottom);
    }

    void xLabelsFitTheirShareInAnyFont() {
        // A taller or wider font (a fallback font, a larger size) than the 64 px a label was
        // assumed to need: Qt elided the labels wider than their share of the axis ("10…").
        // As many ticks as the widest label, drawn in the axis's font, fits.
        for (double pt : {9.0, 16.0, 22.0}) {
            LineChart c;
            c.resize(420, LineChart::kLegendBelowMinHeight + 20);   // the legend below, not beside: the width is the plot's
            std::vector<double> x, y;
            for (int i = 0; i <= 200; ++i) x.push_back(100.0 * i), y.push_back(std::sin(i * 0.1));
            c.setCurves({Curve{"lr", Qt::blue, x, y}});
            c.setPrintStyle(pt);
            c.show();
            for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
            const QStringList labels = c.xTickLabels();
            QVERIFY2(labels.size() >= 2, qPrintable(labels.join(" ")));
            const QFontMetricsF fm(c.chart()->axes(Qt::Horizontal).constFirst()->labelsFont());
            double widest = 0;
            for (const QString& l : labels) widest = std::max(widest, fm.horizontalAdvance(l));
            const double share = c.chart()->plotArea().width() / (labels.size() - 1);
            QVERIFY2(share >= widest, qPrintable(QString("%1 pt: %2 labels of up to %3 px, %4 px each: %5")
                                                     .arg(pt).arg(labels.size()).arg(widest).arg(share).arg(labels.join(" "))));
            if (pt == 9.0) QVERIFY2(labels.size() >= 4, qPrintable(labels.join(" ")));   // room: not fewer than before
        }
    }

    void linearAxesAreTightWithOneTwoFiveTicks() {
        // The issue's 120 steps drawn on 0–200 and ticks at 0.955/0.985/1.014: a
        // range tight to the data and ticks at multiples of 1, 2, 2.5 or 5 × 10^k (matplotlib's MaxNLocator steps).
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, y;
        for (int i = 0; i <= 120; ++i) {
            x.push_back(i);
            y.push_back(0.95 + 0.064 * std::sin(i * 0.1));
        }
        c.setAxisTitles("step", "gain");
        c.setCurves({Curve{"gain", Qt::blue, x, y}});
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        auto* xa = qobject_cast<QValueAxis*>(c.chart()->axes(Qt::Horizontal).first());
        QVERIFY(xa);
        QCOMPARE(xa->min(), 0.0);
        QCOMPARE(xa->max(), 120.0);
        for (const QStringList& labels : {c.xTickLabels(), c.yTickLabels()}) {
            QVERIFY2(labels.size() >= 3 && labels.size() <= 12, qPrintable(labels.join(" ")));
            const double step = labels[1].toDouble() - labels[0].toDouble();
            const double mant = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
            QVERIFY2(std::abs(mant - 1) < 1e-6 || std::abs(mant - 2) < 1e-6 || std::abs(mant - 2.5) < 1e-6 || std::abs(mant - 5) < 1e-6,
                     qPrintable(labels.join(" ")));
            for (const QString& l : labels) {
                const double k = l.toDouble() / step;
                QVERIFY2(std::abs(k - std::round(k)) < 1e-6, qPrintable(l + " in " + labels.join(" ")));
                QVERIFY2(l.size() <= 6, qPrintable(l));
            }
        }
    }

    void smallAndLargeValuesKeepZeroAsZero() {
        // A learning rate that peaks at 3·10⁻⁴: one printf format for every label of a
        // QValueAxis wrote "0e+00 1e-04 2e-04 3e-04". Zero reads as zero, the others
        // in units of one power of ten, and each label says the value of its tick.
        const auto value_of = [](const QString& l) {
            const int at = l.indexOf(QString::fromUtf8("×10"));
            if (at < 0) return l.toDouble();
            const QString digits = QString::fromUtf8("⁰¹²³⁴⁵⁶⁷⁸⁹");
            int sign = 1, n = 0;
            for (QChar ch : l.mid(at + 3)) {
                if (ch == QChar(0x207B)) sign = -1;
                else n = 10 * n + static_cast<int>(digits.indexOf(ch));
            }
            return l.left(at).toDouble() * std::pow(10.0, sign * n);
        };
        for (double peak : {3e-4, 2.5e-6, 4e7}) {
            LineChart c;
            c.resize(640, 420);
            std::vector<double> x, y;
            for (int i = 0; i <= 100; ++i) x.push_back(i), y.push_back(peak * std::min(1.0, i / 20.0));
            c.setAxisTitles("step", "lr");
            c.setCurves({Curve{"lr", Qt::blue, x, y}});
            c.show();
            for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
            const QStringList labels = c.yTickLabels();
            const QString all = QString("peak %1: %2").arg(peak).arg(labels.join(" "));
            QVERIFY2(labels.size() >= 3, qPrintable(all));
            QCOMPARE(value_of(labels.first()), 0.0);
            QVERIFY2(!labels.first().contains(QString::fromUtf8("×")), qPrintable(all));
            const double step = value_of(labels[1]);
            for (int i = 0; i < labels.size(); ++i) {
                QVERIFY2(!labels[i].contains('e'), qPrintable(all));
                QVERIFY2(std::abs(value_of(labels[i]) - i * step) < 1e-6 * step, qPrintable(all));
            }
            QVERIFY2(value_of(labels.last()) <= peak * 1.05 && value_of(labels.last()) >= peak * 0.5, qPrintable(all));
        }
    }

    void negativeAndFlatRangesAreLabelled() {
        // A range across zero in small units (a gain minus its start, a difference of losses)
        // and flat ones (every value equal: 5% of it either side): labels, zero written as zero.
        // A constant learning rate of 10⁻³ lay on the floor of a 0–0.5 axis (±0.5 around it).
        for (double lo : {-2e-5, 5.0, 1e-3, -3e-7}) {
            LineChart c;
            c.resize(640, 420);
            std::vector<double> x, y;
            for (int i = 0; i <= 50; ++i) x.push_back(i), y.push_back(lo == -2e-5 ? lo + 5e-5 * i / 50.0 : lo);
            c.setCurves({Curve{"d", Qt::blue, x, y}});
            c.show();
            for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
            const QStringList labels = c.yTickLabels();
            QVERIFY2(labels.size() >= 2, qPrintable(labels.join(" ")));
            for (const QString& l : labels) QVERIFY2(!l.contains('e') && !l.isEmpty(), qPrintable(labels.join(" ")));
            if (lo == -2e-5) QVERIFY2(labels.contains("0") && labels.first().startsWith("-"), qPrintable(labels.join(" ")));
            if (lo == 5.0) QVERIFY2(labels.contains("5") || labels.contains("5.0"), qPrintable(labels.join(" ")));
            if (lo != -2e-5) {   // flat: the value mid-axis, the axis within 10% of it
                auto* ya = qobject_cast<QValueAxis*>(c.chart()->axes(Qt::Vertical).first());
                QVERIFY(ya);
                const QString range = QString("%1: %2 to %3").arg(lo).arg(ya->min()).arg(ya->max());
                QVERIFY2(ya->min() < lo && ya->max() > lo && ya->max() - ya->min() <= 0.2 * std::abs(lo), qPrintable(range));
                QVERIFY2(std::abs((ya->min() + ya->max()) / 2 - lo) < 1e-3 * std::abs(lo), qPrintable(range));
            }
        }
    }

    void logAxesWriteEachTickInItsOwnPower() {
        // Gradients from 3×10⁻⁵ to 3×10⁻³ on a log axis read "300×10⁻⁵ 100×10⁻⁵ 30×10⁻⁵ 10×10⁻⁵ 3×10⁻⁵".
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, y;
        for (int i = 0; i <= 100; ++i) x.push_back(i), y.push_back(3e-5 * std::pow(100.0, i / 100.0));
        c.setAxisTitles("step", "gradient");
        c.setCurves({Curve{"g", Qt::blue, x, y}});
        c.setLogY(true);
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const QStringList yl = c.yTickLabels();
        QVERIFY2(yl.contains(QString::fromUtf8("10⁻⁴")) && yl.contains(QString::fromUtf8("3×10⁻³")), qPrintable(yl.join(" ")));
        for (const QString& l : yl) QVERIFY2(!l.contains(QString::fromUtf8("0×")), qPrintable(yl.join(" ")));
    }

    void longRunsAreLabelledInThousands() {
        // An 800,000-step run: "800k", as on the figures, not "800000".
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, y;
        for (int i = 0; i <= 800; ++i) x.push_back(1000.0 * i), y.push_back(3.0 - i / 800.0);
        c.setAxisTitles("step", "loss");
        c.setCurves({Curve{"loss", Qt::blue, x, y}});
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const QStringList xl = c.xTickLabels();
        QVERIFY2(xl.contains("0") && xl.contains("800k") && !xl.contains("800000"), qPrintable(xl.join(" ")));
    }

    void zoomRelabelsTheAxes() {
        // The rubber band's zoom: the hand-placed ticks follow the new range, and resetZoom
        // brings the whole range's back.
        LineChart c;
        c.resize(640, 420);
        std::vector<double> x, y;
        for (int i = 0; i <= 1000; ++i) x.push_back(i), y.push_back(3e-4 * std::exp(-i / 300.0));
        c.setCurves({Curve{"lr", Qt::blue, x, y}});
        c.show();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY2(c.xTickLabels().contains("1000"), qPrintable(c.xTickLabels().join(" ")));
        const QRectF area = c.chart()->plotArea();
        c.chart()->zoomIn(QRectF(area.left() + 0.25 * area.width(), area.top() + 0.5 * area.height(), 0.5 * area.width(),
                                 0.25 * area.height()));
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        auto* xa = qobject_cast<QValueAxis*>(c.chart()->axes(Qt::Horizontal).first());
        QVERIFY(xa && xa->min() > 200 && xa->max() < 800);
        const QStringList xl = c.xTickLabels();
        QVERIFY2(xl.size() >= 3, qPrintable(xl.join(" ")));
        for (const QString& l : xl) QVERIFY2(l.toDouble() >= xa->min() && l.toDouble() <= xa->max(), qPrintable(l + " in " + xl.join(" ")));
        QVERIFY2(c.yTickLabels().size() >= 3, qPrintable(c.yTickLabels().join(" ")));
        QVERIFY2(c.footer().contains("zoomed"), qPrintable(c.footer()));
        c.resetZoom();
        for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QVERIFY2(c.xTickLabels().contains("0") && c.xTickLabels().contains("1000"), qPrintable(c.xTickLabels().join(" ")));
    }

    void longAxisTitlesAreElidedInTheMiddle() {
        LineChart c;
        c.resize(360, 240);
        const QString y = "mean |∂L/∂W| of the second feed-forward weight, per layer (L2 norm)";
        c.setAxisTitles("step", y);
        c.setCurves({Curve{"g", Qt::blue, {0, 1, 2}, {1, 2, 3}}});
        c.show();
        for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const QString shown = c.axisTitleShown(Qt::Vertical);
        QVERIFY2(shown.contains(QChar(0x2026)) && shown.size() < y.size(), qPrintable(shown));
        QVERIFY2(shown.startsWith("mean") && shown.endsWith("norm)"), qPrintable(shown));   // both ends kept
        QVERIFY2(c.view()->toolTip().contains(y), qPrintable(c.view()->toolTip()));
        QCOMPARE(c.axisTitleShown(Qt::Horizontal), QString("step"));
        // A probe's name too long for the axis: without its parenthesis, whole ("Global gradient
        // n…(before clipping)" on a laptop's Scalars tab); the tooltip keeps the rest.
        const QString probe = "Global gradient norm (before clipping)";
        QCOMPARE(ChartsView::shortTitle(probe), QString("Global gradient norm"));
        QCOMPARE(ChartsView::shortTitle("Hidden-state norm"), QString());
        LineChart low;
        low.resize(580, 330);   // the Scalars tab's chart in a 1280×720 window
        low.setAxisTitles("step", probe, ChartsView::shortTitle(probe));
        low.setCurves({Curve{"g", Qt::blue, {0, 1, 2}, {1, 2, 3}}});
        low.show();
        for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QCOMPARE(low.axisTitleShown(Qt::Vertical), QString("Global gradient norm"));
        QVERIFY2(low.view()->toolTip().contains(probe), qPrintable(low.view()->toolTip()));
    }

    // A probe's title marks its scripts as TeX does ("‖x_{ℓ}‖"): a figure draws them
    // smaller and lowered, the window's axis as HTML, and plain text (the probe's
    // menu, CSV, tooltips) with Unicode's subscripts where it has them. They were
    // "‖x_l‖" everywhere, a paper's figure included.
    void titlesDrawTheirScriptsAsScripts() {
        namespace mt = math_text;
        QCOMPARE(mt::plain("Hidden-state norm ‖x_{ℓ}‖"), QString("Hidden-state norm ‖xₗ‖"));
        QCOMPARE(mt::plain("cos(x_{ℓ−1}, x_{ℓ})"), QString("cos(xₗ₋₁, xₗ)"));
        QCOMPARE(mt::plain("σ_{max}/σ_{min}, 10^{-3}"), QString("σₘₐₓ/σₘᵢₙ, 10⁻³"));
        QCOMPARE(mt::plain("W_{q}, α_{AB}"), QString("W_q, α_(AB)"));   // no subscript q, A or B
        for (const char* as_is : {"gain_mean/alpha_A", "a_{b", "x_{a{b}}", "ffn_norm", ""}) {
            QVERIFY2(!mt::has_marks(as_is), as_is);
            QCOMPARE(mt::plain(as_is), QString(as_is));
        }
        QCOMPARE(mt::html("W_{q} <&> 2^{k}"), QString("W<sub>q</sub> &lt;&amp;&gt; 2<sup>k</sup>"));
        const std::vector<bool> in = mt::in_script("a x_{l 1} b");
        QCOMPARE(in.size(), size_t(11));
        for (int i = 0; i < 11; ++i) QCOMPARE(bool(in[i]), i >= 3 && i <= 8);

        // The window: the axis takes the title as HTML where it fits, else elided as plain text.
        LineChart c;
        c.resize(600, 400);
        c.setAxisTitles("step", "Hidden-state norm ‖x_{ℓ}‖");
        c.setCurves({Curve{"g", Qt::blue, {0, 1, 2}, {1, 2, 3}}});
        c.show();
        for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        QCOMPARE(c.axisTitleShown(Qt::Vertical), QString("Hidden-state norm ‖x<sub>ℓ</sub>‖"));
        c.resize(600, 90);
        for (int i = 0; i < 10; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
        const QString low = c.axisTitleShown(Qt::Vertical);
        QVERIFY2(low.contains(QChar(0x2026)) && !low.contains('<') && !low.contains('{'), qPrintable(low));
        QVERIFY2(c.view()->toolTip().contains("‖xₗ‖"), qPrintable(c.view()->toolTip()));

        // A figure (SVG): the script is its own text, 0.7 times as large and below the baseline.
        c.resize(600, 400);
        c.setAxisTitles("step t_{k}", "W_{q}");
        const QString svg = dir_.filePath("scripts.svg");
        QString err;
        QVERIFY2(c.exportFigure(svg, "svg", 300, &err), qPrintable(err));
        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll()).replace('\n', ' ');
        QVERIFY2(!text.contains("_{"), qPrintable("a mark left in the figure: " + text.mid(text.indexOf("_{") - 300, 400)));
        std::map<QString, std::pair<double, double>> drawn;   // text → (y, font size)
        const QRegularExpression item(R"re(<text[^>]* y="([-\d.]+)"[^>]* font-size="([\d.]+)"[^>]*>([^<]*)</text>)re");
        for (auto m = item.globalMatch(text); m.hasNext();) {
            const auto t = m.next();
            drawn[t.captured(3).trimmed()] = {t.captured(1).toDouble(), t.captured(2).toDouble()};
        }
        QVERIFY2(drawn.count("step t") && drawn.count("k") && drawn.count("W") && drawn.count("q"), qPrintable(text.left(4000)));
        for (auto [base, script] : {std::pair<QString, QString>{"step t", "k"}, {"W", "q"}}) {
            QVERIFY2(std::abs(drawn[script].second / drawn[base].second - mt::kScriptScale) < 0.02, qPrintable(script));
            QVERIFY2(drawn[script].first > drawn[base].first, qPrintable(script + " not lowered"));
        }

        // The Layers tab's menu shows the titles as plain text; its chart gets them marked.
        ChartsView view;
        auto* series = view.findChild<QComboBox*>("layerSeries");
        QVERIFY(series);
        const int cos = series->findData("hidden/cos_prev");
        QVERIFY(cos >= 0);
        QCOMPARE(series->itemText(cos), QString("cos(xₗ₋₁, xₗ)"));
        series->setCurrentIndex(cos);
        auto* chart = view.findChild<LineChart*>("layerChart");
        QVERIFY(chart);
        QCOMPARE(chart->yTitle(), QString("cos(x_{ℓ−1}, x_{ℓ})"));
    }

    // Qt Charts gives a y title, when room is short, the height of "..." in the
    // title's font and cuts a taller one to "...": in 简体中文, whose characters
    // come from a taller fallback font, every y title over labels as narrow as
    // "4" (the loss's, the histogram's "计数") showed as a bare "⋮".
    void aChineseYTitleIsNotCutOverNarrowLabels() {
        if (QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty())
            QSKIP("no Chinese font here (scripts/setup.sh installs fonts-wqy-microhei)");
        for (const QString title : {QString("计数"), QString("损失（奈特/字节）")}) {
            LineChart c;
            c.resize(600, 200);
            c.setAxisTitles("步", title);
            c.setCurves({Curve{"g", Qt::blue, {0, 1, 2, 3}, {0, 4, 1, 2}}});
            c.show();
            const QString drawn = drawnYTitle(c);
            QCOMPARE(drawn, title);
            QCOMPARE(c.axisTitleShown(Qt::Vertical), title);
        }
    }

    // The y title drawn is the one NormLab chose (whole, elided in the middle, or the short title), never
    // one Qt Charts cut at its end: at 1280×720 the loss chart read "loss (nats/by..." where the plot area was
    // a few pixels taller than the title's advance but shorter than the text box Qt Charts measures.
    void aYTitleIsNeverCutByQtCharts() {
        const QString full = "loss (nats/byte)";
        int shortened = 0, whole = 0;
        for (int h = 200; h <= 236; ++h) {   // the lowest a chart gets (the window's loss chart at 1280×720) and up
            LineChart c;
            c.resize(600, h);
            c.setTitle("Loss");
            c.setAxisTitles("step", full, "loss");
            c.setCurves({Curve{"g", Qt::blue, {0, 1, 2, 3}, {5.5, 4, 3.5, 3.4}}});
            c.show();
            const QString drawn = drawnYTitle(c);
            const QString chosen = c.axisTitleShown(Qt::Vertical);
            QVERIFY2(drawn == chosen && !drawn.endsWith("..."),
                     qPrintable(QString("height %1: drawn \"%2\", chosen \"%3\"").arg(h).arg(drawn, chosen)));
            shortened += drawn == "loss";
            whole += drawn == full;
        }
        QVERIFY2(shortened > 0 && whole > 0, qPrintable(QString("%1 short, %2 whole").arg(shortened).arg(whole)));
    }

    void logAxesAreLabelledAtAnySpan() {
        // The issue's κ = 2 vs κ = 2000: a log axis spanning 1.5×, 10× or 10^6× has labels, also in an export.
        for (double span : {1.5, 10.0, 1e6}) {
            LineChart c;
            c.resize(640, 420);
            std::vector<double> x, y;
            for (int i = 0; i <= 50; ++i) {
                x.push_back(i);
                y.push_back(2.0 * std::pow(span, i / 50.0));
            }
            c.setAxisTitles("step", "κ");
            c.setCurves({Curve{"kappa", Qt::blue, x, y}});
            c.setLogY(true);
            c.show();
            for (int i = 0; i < 5; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
            const QStringList labels = c.yTickLabels();
            QVERIFY2(labels.size() >= 3, qPrintable(QString("span %1: %2").arg(span).arg(labels.join(" "))));
            if (span < 10) {
                bool between = false;   // a label that is not a power of ten
                for (auto& l : labels) between = between || std::abs(std::log10(l.toDouble()) - std::round(std::log10(l.toDouble()))) > 1e-6;
                QVERIFY2(between, qPrintable(labels.join(" ")));
            }
            // The export is a figure (plot_figure.h) with its own ticks for its size: 4 to 7, each in the SVG.
            const QString svg = dir_.filePath(QString("log%1.svg").arg(span));
            QString err;
            QVERIFY2(c.exportFigure(svg, "svg", 96, &err), qPrintable(err));
            QFile f(svg);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString text = QString::fromUtf8(f.readAll());
            const PrintTicks yt = plot_ticks(plot_spec(c), c.view()->width() * 25.4 / 96, c.view()->height() * 25.4 / 96, kScreenFigurePt).second;
            QVERIFY2(yt.labels.size() >= 4 && yt.labels.size() <= 7, qPrintable(QString("span %1: %2 y ticks").arg(span).arg(yt.labels.size())));
            for (auto& s : yt.labels) {
                const QString l = QString::fromStdString(s);
                QVERIFY2(text.contains(">" + l + "<"), qPrintable(QString("span %1: no label %2 in the SVG: %3").arg(span).arg(l).arg(text.mid(text.indexOf("<text"), 600))));
            }
        }
    }
};

QTEST_MAIN(TestChartAxes)
#include "test_chart_axes.moc"
