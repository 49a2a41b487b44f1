// Axis ticks (core/axis_ticks.h), shared by the charts, the report figures and
// normlab-cli plot: 1-2-5 linear steps, and labelled log axes at any range —
// under a decade, over a few decades, over many.
#include "core/axis_ticks.h"

#include <QtTest/QtTest>

#include <cmath>
#include <set>

using namespace normlab;

namespace {
bool power_of_ten(double v) { return std::abs(std::log10(v) - std::round(std::log10(v))) < 1e-9; }
}  // namespace

class TestAxis : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linearTicksAreOneTwoFive() {
        const auto t = nice_ticks(0, 120, 6);
        QCOMPARE(t.front(), 0.0);
        QCOMPARE(t.back(), 120.0);
        QCOMPARE(t[1] - t[0], 20.0);
        const auto u = nice_ticks(0.9551, 1.0142, 5);   // the 0.955/0.985/1.014 axis
        for (double v : u) {
            const double scaled = v * 100;
            QVERIFY2(std::abs(scaled - std::round(scaled)) < 1e-6, qPrintable(QString::number(v, 'g', 17)));
        }
        QCOMPARE(nice_ticks(0, 7, 6, true)[1], 2.0);
    }

    void logTicksAreLabelledAtAnySpan() {
        struct Case {
            double lo, hi;
        };
        for (Case c : {Case{2, 3}, Case{2, 2000}, Case{1, 10}, Case{0.955, 1.014}, Case{1e-8, 1e-2}, Case{3e-9, 2e-3},
                       Case{1, 1.5}, Case{7, 70}}) {
            const auto t = log_ticks(c.lo, c.hi, 6);
            QVERIFY2(t.size() >= 2, qPrintable(QString("%1..%2: %3 ticks").arg(c.lo).arg(c.hi).arg(t.size())));
            QVERIFY(t.size() <= 13);
            for (double v : t) QVERIFY(v >= c.lo * (1 - 1e-9) && v <= c.hi * (1 + 1e-9));
            const auto labels = tick_labels(t);
            QCOMPARE(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());   // all distinct
        }
        // κ = 2 and κ = 2000 are told apart: labels between the powers of ten.
        const auto few = log_ticks(2, 2000, 6);
        QVERIFY(std::count_if(few.begin(), few.end(), [](double v) { return !power_of_ten(v); }) >= 2);
        // Many decades: powers of ten only.
        for (double v : log_ticks(1e-8, 1e-2, 6)) QVERIFY(power_of_ten(v));
        // Under a decade: 1-2-5 linear steps, readable labels.
        const auto sub = tick_labels(log_ticks(2, 3, 6));
        QVERIFY(sub.size() >= 4);
        QVERIFY(std::find(sub.begin(), sub.end(), "2.4") != sub.end());
    }
};

QTEST_GUILESS_MAIN(TestAxis)
#include "test_axis.moc"
