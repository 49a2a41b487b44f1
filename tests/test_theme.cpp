// The window's colours (app/gui/mainwindow_theme.cpp): View → Theme and
// `normlab --theme` switch the whole window to a dark or light palette and back
// to the system's; in a dark window every per-layer line, the Sweep and the
// hover readout stand off their dark ground, and what is exported stays a
// figure for a white page.
#include "app/gui/mainwindow.h"
#include "core/palette.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "widgets/sweep.h"
#include "tests/designer_util.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QMenu>
#include <QMenuBar>
#include <QMouseEvent>
#include <QProcess>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;

namespace {

// WCAG 2's contrast ratio of two colours (1: none .. 21: black on white).
double luminance(const QColor& c) {
    auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}
double contrast(const QColor& a, const QColor& b) {
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// The lightest colour Qt Charts' dark theme paints behind a plot (its background is a gradient): the
// ground a line has least contrast with.
QColor dark_ground() {
    QChart chart;
    chart.setTheme(QChart::ChartThemeDark);
    const QBrush b = chart.backgroundBrush();
    QColor lightest = b.color();
    if (const QGradient* g = b.gradient())
        for (const auto& stop : g->stops())
            if (luminance(stop.second) > luminance(lightest) || lightest.alpha() == 0) lightest = stop.second;
    return lightest;
}

}  // namespace

class TestTheme : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
        QSettings().remove("theme");
        // two runs with per-layer gradients over eight layers, their outcomes apart
        store_ = dir_.filePath("theme.sqlite");
        Store s(store_.toStdString());
        for (int k = 0; k < 2; ++k) {
            const int64_t id = s.create_run(k == 0 ? "Post-LN" : "Pre-LN", k == 0 ? "post_ln" : "pre_ln",
                                            nlohmann::json{{"scheme", k == 0 ? "post_ln" : "pre_ln"}, {"optim", {{"lr", 1e-3 * (k + 1)}}}}, 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            {
                RunWriter w(s, id);
                for (int i = 0; i <= 100; i += 10) {
                    for (int l = 0; l < 8; ++l) w.layer("grad_l1/fc2", l, i, 1e-7 * std::pow(3.0, l) * (1 + k));
                    w.scalar("train/loss", i, 3.0 - 0.01 * i + 0.2 * k);
                    w.scalar("val/loss", i, 3.1 - 0.01 * i + 0.2 * k);
                }
            }
            s.finish_run(id, RunStatus::Finished, 100, "", 2.1 + 0.2 * k);
        }
    }

    // Every layer of every run colour stands off the ground it is drawn on: the light ramp (dark to light)
    // on white, the dark one (bright to dim) on the dark theme's lightest ground, where the light ramp's
    // first layers sank (1.1:1). On either ground the first layer — whose gradients vanish under Post-LN —
    // stands out most.
    void layerRampsStayVisibleOnEitherGround() {
        const QColor ground = dark_ground();
        QVERIFY2(ground.lightness() < 80, qPrintable(ground.name()));
        double least_dark = 99, least_light = 99;
        for (int i = 0; i < 10; ++i) {
            const QColor run(QString::fromStdString(palette_color(i)));
            for (int layers : {4, 12, 48})
                for (bool by_layer : {false, true}) {
                    double first_dark = 0, last_dark = 0, first_light = 0, last_light = 0;
                    for (int l = 0; l < layers; ++l) {
                        const double d = contrast(ChartsView::layerColor(run, l, layers, by_layer, true), ground);
                        const double w = contrast(ChartsView::layerColor(run, l, layers, by_layer, false), Qt::white);
                        least_dark = std::min(least_dark, d);
                        least_light = std::min(least_light, w);
                        if (l == 0) first_dark = d, first_light = w;
                        if (l == layers - 1) last_dark = d, last_light = w;
                    }
                    QVERIFY2(first_dark > last_dark && first_light > last_light,
                             qPrintable(QString("%1, %2 layers: first %3/%4, last %5/%6").arg(run.name()).arg(layers)
                                            .arg(first_dark).arg(first_light).arg(last_dark).arg(last_light)));
                }
        }
        QVERIFY2(least_dark >= 2.0, qPrintable(QString::number(least_dark)));
        QVERIFY2(least_light >= 1.25, qPrintable(QString::number(least_light)));
        // the ramps still tell the layers apart: the first and last layers' luminances at least 2.5:1 apart
        for (int i = 0; i < 10; ++i) {
            const QColor run(QString::fromStdString(palette_color(i)));
            const double span = contrast(ChartsView::layerColor(run, 0, 8, false, true), ChartsView::layerColor(run, 7, 8, false, true));
            QVERIFY2(span >= 2.5, qPrintable(QString("%1: %2").arg(run.name()).arg(span)));
        }
    }

    // View → Theme → Dark: the palette, Qt Charts' theme, the layer ramps, the Sweep's ground and its best
    // line, the readout; an export stays light. Follow the system gives back the palette the window started
    // with; the choice is remembered.
    void darkThemeReachesEveryChartAndNoFigure() {
        const QPalette system = QApplication::palette();
        MainWindow w(store_);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showRuns({1, 2});
        auto* dark = w.findChild<QAction*>("theme-dark");
        QVERIFY(dark);
        QVERIFY(w.findChild<QAction*>("theme-system")->isChecked());
        dark->trigger();
        QCOMPARE(QSettings().value("theme").toString(), QString("dark"));
        QCOMPARE(w.theme(), QString("dark"));
        QVERIFY(dark->isChecked());
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        ChartsView* charts = w.charts();
        QVERIFY(charts->dark());
        QCOMPARE(charts->lossChart()->chart()->theme(), QChart::ChartThemeDark);
        // every chart on the window's flat ground, as the heatmaps are, not Qt Charts' gradient
        const QColor base = QApplication::palette().color(QPalette::Base);
        QVERIFY(base.lightness() < 80);
        for (auto* view : charts->findChildren<QChartView*>()) {
            const QBrush b = view->chart()->backgroundBrush();
            QVERIFY2(!b.gradient() && b.color() == base, qPrintable(b.color().name()));
        }
        QVERIFY(contrast(ChartsView::layerColor(QColor("#4e79a7"), 0, 8, false, true), base) >=
                contrast(ChartsView::layerColor(QColor("#4e79a7"), 0, 8, false, true), dark_ground()));
        // the gradients' lines: the run's first layer brightest on screen, darkest in a figure
        charts->tabs()->setCurrentIndex(1);
        QApplication::processEvents();
        const auto& curves = charts->gradChart()->curves();
        QCOMPARE(curves.size(), size_t(16));
        QVERIFY(curves.front().layer == 0 && curves[7].layer == 7);
        QVERIFY2(curves.front().color.lightness() > curves[7].color.lightness(),
                 qPrintable(curves.front().color.name() + " " + curves[7].color.name()));
        const PlotSpec spec = plot_spec(*charts->gradChart());
        QCOMPARE(spec.curves.front().color, ChartsView::layerColor(charts->runColor(*charts->runs().front()), 0, 8, false, false));
        QVERIFY(spec.curves.front().color.lightness() < spec.curves[7].color.lightness());
        // an exported panel is a figure for a white page
        QString err;
        const QString png = dir_.filePath("dark-export.png");
        QVERIFY2(charts->exportFigure(png, "png", 150, true, 89, 0, 8, &err), qPrintable(err));
        const QImage fig(png);
        QVERIFY(!fig.isNull());
        QCOMPARE(fig.pixelColor(2, 2), QColor(Qt::white));
        // the Sweep: its ground is the window's, its best (lowest) line the bright end of its colours
        charts->tabs()->setCurrentIndex(5);
        QApplication::processEvents();
        auto* sweep = w.findChild<SweepChart*>();
        QVERIFY(sweep);
        QCOMPARE(sweep->spec().lines.size(), size_t(2));
        const QImage shot = sweep->grab().toImage();
        QVERIFY2(shot.pixelColor(3, 3).lightness() < 80, qPrintable(shot.pixelColor(3, 3).name()));
        const QColor best = sweep_outcome_color(0, true), worst = sweep_outcome_color(1, true);
        QVERIFY(contrast(best, shot.pixelColor(3, 3)) >= 7 && contrast(worst, shot.pixelColor(3, 3)) >= 2);
        int best_pixels = 0;
        for (int y = 0; y < shot.height(); ++y)
            for (int x = 0; x < shot.width(); ++x)
                if (shot.pixelColor(x, y) == best) ++best_pixels;
        QVERIFY2(best_pixels > 50, qPrintable(QString::number(best_pixels)));
        // back to the system's colours
        w.findChild<QAction*>("theme-system")->trigger();
        QCOMPARE(QApplication::palette(), system);
        QVERIFY(!charts->dark());
        QCOMPARE(QSettings().value("theme").toString(), QString("system"));
        QApplication::processEvents();
        const QColor ground = sweep->grab().toImage().pixelColor(3, 3);
        QVERIFY2(ground == QColor(Qt::white), qPrintable(ground.name()));
        QVERIFY(!w.switchTheme("purple"));
        QCOMPARE(w.theme(), QString("system"));
        // a language switch builds the menus again: the theme's new actions follow a switch, the old are gone
        QVERIFY(w.switchLanguage("de"));
        QApplication::processEvents();
        QApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        QCOMPARE(w.findChildren<QAction*>("theme-dark").size(), 1);
        QVERIFY(w.switchTheme("dark"));
        QVERIFY(w.findChild<QAction*>("theme-dark")->isChecked());
        QCOMPARE(w.findChild<QAction*>("theme-dark")->text(), QString("&Dunkel"));
        QVERIFY(w.switchTheme("system"));
        QVERIFY(w.switchLanguage("en"));
    }

    // Settings that differ writes each run's values in its colour, made readable as text on the panel in
    // either theme (4.5:1): red #e15759 was 3.7:1 on white, blue #4e79a7 3.1:1 on a dark panel.
    void settingsThatDifferReadOnEitherGround() {
        MainWindow w(store_);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.selectRuns({1, 2});
        QApplication::processEvents();
        auto* diff = w.findChild<QTableWidget*>("differences");
        QVERIFY(diff);
        for (const char* theme : {"light", "dark"}) {
            QVERIFY(w.switchTheme(theme));
            QApplication::processEvents();
            const QColor base = diff->palette().color(QPalette::Base);
            QVERIFY2(diff->rowCount() >= 1 && diff->columnCount() == 2, qPrintable(QString::number(diff->rowCount())));
            for (int r = 0; r < diff->rowCount(); ++r)
                for (int c = 0; c < diff->columnCount(); ++c) {
                    const QColor fg = diff->item(r, c)->foreground().color();
                    QVERIFY2(contrast(fg, base) >= 4.5, qPrintable(QString("%1: %2 on %3: %4").arg(theme, fg.name(), base.name())
                                                                       .arg(contrast(fg, base))));
                }
            // still each run's own hue: the first run's values bluer than red, the second's redder than blue
            const QColor first = diff->item(0, 0)->foreground().color(), second = diff->item(0, 1)->foreground().color();
            QVERIFY(first.blue() > first.red() && second.red() > second.blue());
        }
        QVERIFY(w.switchTheme("system"));
    }

    // The readout box follows the chart's theme: a dark box in a dark window (it was white there), a white
    // one in a light window.
    void readoutFollowsTheTheme() {
        MainWindow w(store_);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showRuns({1, 2});
        LineChart* loss = w.charts()->lossChart();
        auto readout_ground = [&]() {
            QApplication::processEvents();
            QWidget* vp = loss->view()->viewport();
            const QRectF area = loss->chart()->plotArea();
            const QPointF in_chart(area.left() + area.width() * 0.3, area.center().y());
            const QPoint at = loss->view()->mapFromScene(loss->chart()->mapToScene(in_chart));
            QMouseEvent move(QEvent::MouseMove, QPointF(at), vp->mapToGlobal(QPointF(at)), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
            QApplication::sendEvent(vp, &move);
            if (loss->readoutText().isEmpty()) return QColor();
            // just inside the box's top-left corner (it stands 12 px right of the line, 6 px below the plot's top)
            const QPoint corner = loss->view()->mapFromScene(loss->chart()->mapToScene(QPointF(in_chart.x() + 15, area.top() + 9)));
            return vp->grab().toImage().pixelColor(corner);
        };
        QVERIFY(w.switchTheme("dark"));
        const QColor dark = readout_ground();
        QVERIFY2(dark.isValid() && dark.lightness() < 60, qPrintable(dark.name()));
        QVERIFY(w.switchTheme("light"));
        const QColor light = readout_ground();
        QVERIFY2(light.isValid() && light.lightness() > 230, qPrintable(light.name()));
        QVERIFY(w.switchTheme("system"));
    }

    // `normlab --theme` takes system, light or dark; anything else is refused before a store is made.
    void aThemeNotKnownIsRefused() {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        p.setProcessEnvironment(env);
        const QString store = dir_.filePath("never.sqlite");
        p.start(NORMLAB_APP, {"--theme", "purple", "--store", store});
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY2(p.readAllStandardError().contains("--theme purple: give system, light or dark"), "message");
        QVERIFY(!QFile::exists(store));
    }
};

QTEST_MAIN(TestTheme)
#include "test_theme.moc"
