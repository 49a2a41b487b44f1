// Smoothing along x (core/series.h smooth_along_x): a run's smoothed loss
// depends on the distance along the axis, not on how many points it has. An
// EMA per point left a run of thousands of steps a band of noise in the window
// and in every figure, and smoothed a run probed every step ten times less
// than one probed every ten. The same span reaches the figure drawn from the
// window's chart, and `normlab figure --smoothing` sets it.
#include "core/series.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "tests/figure_util.h"

#include <QApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;
using namespace normlab::test;

namespace {

constexpr int kSteps = 20000;

// A slowly falling loss.
double truth(double x) { return 2.0 + 3.0 * std::exp(-x / 20000.0); }

// The loss at every `every`-th step of 0..kSteps with a zigzag of ±0.3 on it (noise whose local mean is 0,
// with no random numbers: the bounds below hold exactly, not on average).
void sampled(int every, std::vector<double>& x, std::vector<double>& y) {
    x.clear(), y.clear();
    for (int s = 0, k = 0; s <= kSteps; s += every, ++k) x.push_back(s), y.push_back(truth(s) + (k % 2 ? 0.3 : -0.3));
}

// The largest step-to-step wobble left in a smoothed line beyond the truth's own change, from step `from`.
double wobble(const std::vector<double>& x, const std::vector<double>& sm, double from) {
    double most = 0;
    for (size_t i = 1; i < x.size(); ++i)
        if (x[i] >= from) most = std::max(most, std::abs((sm[i] - sm[i - 1]) - (truth(x[i]) - truth(x[i - 1]))));
    return most;
}

// The largest gap between two smoothed lines at the x they share (the sparse one's), from step `from`.
double gap(const std::vector<double>& dx, const std::vector<double>& dense, const std::vector<double>& sx,
           const std::vector<double>& sparse, double from) {
    double most = 0;
    size_t j = 0;
    for (size_t i = 0; i < sx.size(); ++i) {
        while (j < dx.size() && dx[j] < sx[i]) ++j;
        if (j < dx.size() && dx[j] == sx[i] && sx[i] >= from) most = std::max(most, std::abs(dense[j] - sparse[i]));
    }
    return most;
}

}  // namespace

class TestSmoothing : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    // One probe a step and one every ten steps, of one loss: smoothed along x they lie within 0.03 of each
    // other and the first wobbles less than 0.01 a point; an EMA per point leaves each ±0.075, 0.15 apart.
    void aRunIsSmoothedAlikeWhateverItsPoints() {
        std::vector<double> dx, dy, sx, sy;
        sampled(1, dx, dy);
        sampled(10, sx, sy);
        const double span = kSteps, s = 0.6;
        const auto dense = smooth_along_x(dx, dy, s, span), sparse = smooth_along_x(sx, sy, s, span);
        QVERIFY2(wobble(dx, dense, 1000) < 0.01, qPrintable(QString::number(wobble(dx, dense, 1000))));
        QVERIFY2(wobble(sx, sparse, 1000) < 0.05, qPrintable(QString::number(wobble(sx, sparse, 1000))));
        QVERIFY2(gap(dx, dense, sx, sparse, 1000) < 0.03, qPrintable(QString::number(gap(dx, dense, sx, sparse, 1000))));
        // what the charts did before: the per-point EMA
        const auto old_dense = debiased_ema(dy, s), old_sparse = debiased_ema(sy, s);
        QVERIFY(wobble(dx, old_dense, 1000) > 0.1);
        QVERIFY(gap(dx, old_dense, sx, old_sparse, 1000) > 0.1);
        // and the smoothed line follows the loss: it lags by about 1/e of its weight's span, not more
        const double tau = span / (kSmoothingScale * -std::log(s));   // 131 steps
        for (size_t i = 1000; i < dx.size(); i += 997)
            QVERIFY2(std::abs(dense[i] - truth(dx[i] - tau)) < 0.01, qPrintable(QString::number(dx[i])));
    }

    // Debiased from the first point; values that are not finite pass through and are skipped; x going
    // back is no distance; without a span it is the EMA per point; 0 is the raw line.
    void edges() {
        for (double v : smooth_along_x({0, 5, 6, 100}, {2, 2, 2, 2}, 0.9, 100)) QCOMPARE(v, 2.0);
        const auto out = smooth_along_x({0, 1, 2, 3}, {1, std::nan(""), INFINITY, 1}, 0.9, 10);
        QCOMPARE(out[0], 1.0);
        QVERIFY(std::isnan(out[1]));
        QVERIFY(std::isinf(out[2]));
        QCOMPARE(out[3], 1.0);
        const auto back = smooth_along_x({0, 10, 5}, {1, 3, 5}, 0.5, 10);   // 5 after 10: added with no decay
        const double d = std::pow(0.5, kSmoothingScale);                     // over the whole span of 10
        QVERIFY(std::abs(back[2] - (1 * d + 3 + 5) / (d + 2)) < 1e-12);
        // 300 even points (the default experiment's probes) are smoothed as the EMA per point smoothed them
        std::vector<double> x300, y300;
        for (int i = 0; i < 300; ++i) x300.push_back(i), y300.push_back(i % 7);
        const auto along = smooth_along_x(x300, y300, 0.6, 300), per_point = debiased_ema(y300, 0.6);
        for (int i = 0; i < 300; ++i) QVERIFY(std::abs(along[i] - per_point[i]) < 1e-9);
        const std::vector<double> y{1, 4, 2, 8};
        QCOMPARE(smooth_along_x({0, 1, 2, 3}, y, 0.7, 0), debiased_ema(y, 0.7));
        QCOMPARE(smooth_along_x({0, 1, 2, 3}, y, 0.0, 3), y);
    }

    // The window's chart smooths along the x extent of every run it holds, in log10 x on a log x axis,
    // and the figure drawn from it takes that span (PlotSpec): the window and its figure the same line.
    void theWindowAndItsFigureSmoothOverTheRuns() {
        const QString path = dir_.filePath("runs.sqlite");
        {
            Store s(path.toStdString());
            for (int every : {1, 10}) {
                const int64_t id = s.create_run(every == 1 ? "every step" : "every tenth step", "pre_ln", nlohmann::json::object(), 1);
                s.mark_running(id, "cpu", nlohmann::json::object());
                RunWriter w(s, id);
                std::vector<double> x, y;
                sampled(every, x, y);
                for (size_t i = 0; i < x.size(); ++i) w.scalar("train/loss", static_cast<int64_t>(x[i]), y[i]);
                w.flush();
                s.finish_run(id, RunStatus::Finished, kSteps, "", 2.4);
            }
        }
        Store s(path.toStdString(), Store::Mode::ReadOnly);
        ChartsView view;
        view.resize(1100, 750);
        view.setRuns({1, 2}, s);
        view.show();
        QApplication::processEvents();
        auto* chart = qobject_cast<LineChart*>(view.currentChart());
        QVERIFY(chart);
        QCOMPARE(chart->smoothing(), 0.6);
        QCOMPARE(chart->smoothingSpan(), double(kSteps));
        PlotSpec spec = plot_spec(*chart);
        QCOMPARE(spec.smoothing_span, double(kSteps));
        std::vector<const Curve*> train;
        for (const Curve& c : spec.curves)
            if (c.smooth) train.push_back(&c);
        QCOMPARE(train.size(), size_t(2));
        const auto a = smoothedCurve(*train[0], spec.smoothing, spec.smoothing_span, false);
        const auto b = smoothedCurve(*train[1], spec.smoothing, spec.smoothing_span, false);
        QVERIFY2(gap(train[0]->x, a, train[1]->x, b, 1000) < 0.03, qPrintable(QString::number(gap(train[0]->x, a, train[1]->x, b, 1000))));
        // a log x axis: the decades from step 1 (step 0 is not on it)
        chart->setLogX(true);
        QVERIFY(std::abs(chart->smoothingSpan() - std::log10(double(kSteps))) < 1e-12);
        spec = plot_spec(*chart);
        QVERIFY(spec.smoothing_span_log_x);
        // the span for the curves alone, when the figure's x scale is not the chart's
        QCOMPARE(smoothingSpan(spec.curves, {}, false), double(kSteps));
    }

    // normlab figure --smoothing: the loss view's, 0 to 0.99; elsewhere, or out of range, refused with
    // the reason and nothing written; 0 draws the raw line, the default is the window's 0.6.
    void theFigureCommandTakesASmoothing() {
        const QString store = dir_.filePath("runs.sqlite");
        QVERIFY(QFile::exists(store));   // theWindowAndItsFigureSmoothOverTheRuns wrote it
        auto svg = [&](const QStringList& more, QString* err) {
            const QString out = dir_.filePath(QString("f%1.svg").arg(more.join("_")).remove(' '));
            QString o;
            const int rc = run(NORMLAB_APP, QStringList{"figure", "1", "2", "--out", out, "--store", store} + more, &o, err);
            QFile f(out);
            return std::make_pair(rc, f.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(f.readAll(), QCryptographicHash::Md5) : QByteArray());
        };
        QString err;
        const auto def = svg({}, &err), same = svg({"--smoothing", "0.6"}, &err), raw = svg({"--smoothing", "0"}, &err),
                   heavy = svg({"--smoothing", "0.99"}, &err);
        QCOMPARE(def.first, 0);
        QCOMPARE(same.first, 0);
        QCOMPARE(raw.first, 0);
        QCOMPARE(heavy.first, 0);
        QCOMPARE(def.second, same.second);
        QVERIFY(raw.second != def.second && heavy.second != def.second);
        const auto high = svg({"--smoothing", "1"}, &err);
        QCOMPARE(high.first, 2);
        QVERIFY2(err.contains("--smoothing needs a number from 0 to 0.99, got \"1\""), qPrintable(err));
        QVERIFY(high.second.isEmpty());
        const auto grads = svg({"--smoothing", "0.9", "--view", "gradients"}, &err);
        QCOMPARE(grads.first, 2);
        QVERIFY2(err.contains("--smoothing smooths the training loss, which only --view loss draws"), qPrintable(err));
        QVERIFY(grads.second.isEmpty());
    }
};

QTEST_MAIN(TestSmoothing)
#include "test_smoothing.moc"
