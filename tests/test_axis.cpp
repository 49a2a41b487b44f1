// Axis ticks (core/axis_ticks.h), shared by the charts, the report figures and
// normlab-cli plot: 1-2-5 linear steps, and labelled log axes at any range —
// under a decade, over a few decades, over many.
#include "core/axis_ticks.h"
#include "core/print_ticks.h"

#include <QtTest/QtTest>

#include <cmath>
#include <random>
#include <set>

using namespace normlab;

namespace {
bool power_of_ten(double v) { return std::abs(std::log10(v) - std::round(std::log10(v))) < 1e-9; }

// An integer from superscript digits ("⁻¹²" is -12); false when `s` is not one.
bool read_superscript(const QString& s, int* n) {
    static const QString digits = QString::fromUtf8("⁰¹²³⁴⁵⁶⁷⁸⁹");
    const bool minus = s.startsWith(QChar(0x207B));
    if (s.size() == int(minus)) return false;
    int v = 0;
    for (int i = minus; i < s.size(); ++i) {
        const int d = digits.indexOf(s[i]);
        if (d < 0) return false;
        v = 10 * v + d;
    }
    *n = minus ? -v : v;
    return true;
}

// A label in scientific notation ("10⁻⁴", "3×10⁻⁴", "2.5×10⁻⁶") read back; NaN when it is not one.
double read_scientific(const QString& l) {
    const int at = l.indexOf("10");
    const QString mantissa = l.left(at), power = at < 0 ? QString() : l.mid(at + 2);
    int e = 0;
    if (at < 0 || !read_superscript(power, &e)) return std::nan("");
    if (mantissa.isEmpty()) return std::pow(10.0, e);
    if (!mantissa.endsWith(QChar(0x00D7))) return std::nan("");
    bool ok = false;
    const double m = mantissa.chopped(1).toDouble(&ok);
    return ok && m >= 1 && m < 10 ? m * std::pow(10.0, e) : std::nan("");
}
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

    // Flat data get 5% of their value either side (±1 about zero); any spread is kept as it is.
    void flatRangesAreWidenedByTheirSize() {
        using R = std::pair<double, double>;
        QCOMPARE(unflat(1e-3, 1e-3), R(0.95e-3, 1.05e-3));
        QCOMPARE(unflat(-40, -40), R(-42, -38));
        QCOMPARE(unflat(0, 0), R(-1, 1));
        QCOMPARE(unflat(1e-3, 1e-3 * (1 + 1e-15)).first, 0.95e-3);   // rounding noise is flat
        QCOMPARE(unflat(1e-3, 1.001e-3), R(1e-3, 1.001e-3));
        QCOMPARE(unflat(-2, 7), R(-2, 7));
        // the ticks of a flat learning rate: inside the range, around the value
        const auto [lo, hi] = unflat(1e-3, 1e-3);
        const std::vector<double> t = nice_ticks(lo, hi);
        QVERIFY(t.size() >= 3 && t.front() >= lo && t.back() <= hi);
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
            const auto labels = label_ticks(t, true).labels;
            QCOMPARE(std::set<std::string>(labels.begin(), labels.end()).size(), labels.size());   // all distinct
        }
        // κ = 2 and κ = 2000 are told apart: labels between the powers of ten.
        const auto few = log_ticks(2, 2000, 6);
        QVERIFY(std::count_if(few.begin(), few.end(), [](double v) { return !power_of_ten(v); }) >= 2);
        // Many decades: powers of ten only.
        for (double v : log_ticks(1e-8, 1e-2, 6)) QVERIFY(power_of_ten(v));
        // Under a decade: 1-2-5 linear steps, readable labels.
        const auto sub = label_ticks(log_ticks(2, 3, 6), true).labels;
        QVERIFY(sub.size() >= 4);
        QVERIFY(std::find(sub.begin(), sub.end(), "2.4") != sub.end());
    }

    // Ticks for print (core/print_ticks.h, issue 24 item 1): over 100,000 random
    // ranges, linear and log, from 1e-8 to 1e8 and spans from 1.05× to 10^12×,
    // 4 to 7 ticks inside the range, distinct labels in one notation (never
    // 0.0001 beside 1e-05), a common factor only with plain numbers.
    void printTicksAreFourToSevenInOneNotation() {
        std::mt19937 g(7);
        std::uniform_real_distribution<double> mag(-8, 8), width(-2.5, 6), decades(0.02, 12);
        for (int i = 0; i < 100000; ++i) {
            const bool log = i % 2;
            const double a = std::pow(10.0, mag(g));
            const double lo = log ? a : (i % 4 == 0 ? -a : a);
            const double hi = log ? a * std::pow(10.0, decades(g)) : lo + a * std::pow(10.0, width(g));
            const PrintTicks t = print_ticks(lo, hi, log);
            const QString what = QString("[%1, %2]%3").arg(lo, 0, 'g', 6).arg(hi, 0, 'g', 6).arg(log ? " log" : "");
            QVERIFY2(t.values.size() >= 4 && t.values.size() <= 7, qPrintable(what + QString(": %1 ticks").arg(t.values.size())));
            QCOMPARE(t.labels.size(), t.values.size());
            std::set<std::string> seen(t.labels.begin(), t.labels.end());
            QVERIFY2(seen.size() == t.labels.size(), qPrintable(what + ": labels repeat"));
            int super = 0;
            for (size_t k = 0; k < t.values.size(); ++k) {
                QVERIFY(t.values[k] >= lo - 1e-9 * std::abs(hi - lo) && t.values[k] <= hi + 1e-9 * std::abs(hi - lo));
                const QString l = QString::fromStdString(t.labels[k]);
                QVERIFY2(!l.contains('e') && !l.contains("…"), qPrintable(what + ": " + l));
                const double sci = read_scientific(l);
                if (!std::isnan(sci)) {
                    // in its own power of ten ("3×10⁻⁴", "10⁻³"): the value
                    ++super;
                    QVERIFY2(std::abs(sci - t.values[k]) <= 1e-9 * t.values[k], qPrintable(what + ": " + l));
                } else {
                    // a plain number: the value, or the value in units of the common factor
                    bool ok = false;
                    const double v = l.toDouble(&ok);
                    QVERIFY2(ok, qPrintable(what + ": " + l));
                    double unit = 1;
                    if (!t.factor.empty()) unit = std::pow(10.0, QString::fromStdString(t.factor).mid(3).replace(QString::fromUtf8("⁻"), "-")
                                                                     .replace(QString::fromUtf8("⁰"), "0").replace(QString::fromUtf8("¹"), "1")
                                                                     .replace(QString::fromUtf8("²"), "2").replace(QString::fromUtf8("³"), "3")
                                                                     .replace(QString::fromUtf8("⁴"), "4").replace(QString::fromUtf8("⁵"), "5")
                                                                     .replace(QString::fromUtf8("⁶"), "6").replace(QString::fromUtf8("⁷"), "7")
                                                                     .replace(QString::fromUtf8("⁸"), "8").replace(QString::fromUtf8("⁹"), "9").toInt());
                    QVERIFY2(std::abs(v * unit - t.values[k]) <= 1e-6 * std::max(std::abs(t.values[k]), std::abs(hi - lo)),
                             qPrintable(what + ": " + l + " " + QString::fromStdString(t.factor) + " for " + QString::number(t.values[k], 'g', 10)));
                }
            }
            QVERIFY2(super == 0 || super == static_cast<int>(t.labels.size()), qPrintable(what + ": mixed notations"));
            QVERIFY2(super == 0 || t.factor.empty(), qPrintable(what));
            // a log axis over a decade or more: never a factor its ticks are hundreds of ("300 100 30 ×10⁻⁵")
            if (log && t.values.back() >= 10 * t.values.front()) QVERIFY2(t.factor.empty(), qPrintable(what + ": " + QString::fromStdString(t.factor)));
        }
        // The loss axis (two ticks, "5.68229" and "2.33322", before): 2.5 … 5.5 by 0.5 with one decimal each.
        const PrintTicks loss = print_ticks(2.2, 5.85, false);
        QCOMPARE(loss.labels.front(), std::string("2.5"));
        QCOMPARE(loss.labels.back(), std::string("5.5"));
        // Many decades: powers of ten written 10ⁿ, never 1e-06.
        const PrintTicks many = print_ticks(1e-8, 1e-2, true);
        QCOMPARE(many.labels.front(), std::string("10⁻⁸"));
        // A learning rate: one notation, a common factor for tiny values.
        const PrintTicks lr = print_ticks(0, 3e-5, false);
        QCOMPARE(lr.factor, std::string("×10⁻⁵"));
        // Gradients over two decades on a log axis: each tick in its own power, as the window writes them
        // (a figure read "3 10 30 100 300" under "×10⁻⁵").
        const PrintTicks grads = print_ticks(3e-5, 3e-3, true);
        QCOMPARE(grads.labels, (std::vector<std::string>{"3×10⁻⁵", "10⁻⁴", "3×10⁻⁴", "10⁻³", "3×10⁻³"}));
        QVERIFY(grads.factor.empty());
        // Within a decade, one factor keeps the decimals alike.
        const PrintTicks near = print_ticks(2.2e-4, 3.1e-4, true);
        QCOMPARE(near.factor, std::string("×10⁻⁴"));
    }

    void scientificWritesEachValueInItsOwnPower() {
        QCOMPARE(scientific(3e-4), std::string("3×10⁻⁴"));
        QCOMPARE(scientific(1e-4), std::string("10⁻⁴"));
        QCOMPARE(scientific(2.5e-6), std::string("2.5×10⁻⁶"));
        QCOMPARE(scientific(1e5), std::string("10⁵"));
        QCOMPARE(scientific(9.9999999999e-4), std::string("10⁻³"));
        QCOMPARE(scientific(0), std::string("0"));
    }

    // Steps and tokens from 10,000 on, in k, M or B as TensorBoard and W&B write them:
    // an 800,000-step run's axis read "0 200000 400000 600000 800000".
    void countsAreWrittenInThousandsAndMillions() {
        auto labels = [](double lo, double hi) { return print_ticks(lo, hi, false, 5, 4, 7, true).labels; };
        QCOMPARE(labels(0, 800000), (std::vector<std::string>{"0", "200k", "400k", "600k", "800k"}));
        QCOMPARE(labels(0, 3e6), (std::vector<std::string>{"0", "1M", "2M", "3M"}));
        QCOMPARE(labels(0, 1.5e6).back(), std::string("1.5M"));
        QCOMPARE(labels(0, 5000).back(), std::string("5000"));   // under 10,000: every digit, as before
        QCOMPARE(print_ticks(0, 800000, false).labels.back(), std::string("800000"));   // not a count: as before
        // No unit writes these with one decimal: every digit, never a factor (a heatmap draws none).
        const PrintTicks zoomed = label_ticks({1000002, 1000004, 1000006}, false, true);
        QCOMPARE(zoomed.labels, (std::vector<std::string>{"1000002", "1000004", "1000006"}));
        QVERIFY(zoomed.factor.empty());
        // Any range of whole numbers past 10,000: one unit on the axis, each label its value, short.
        std::mt19937 g(11);
        std::uniform_real_distribution<double> mag(4, 11), frac(0.02, 1.0);
        for (int i = 0; i < 20000; ++i) {
            const double hi = std::round(std::pow(10.0, mag(g))), lo = i % 3 ? 0 : std::round(hi * (1 - frac(g)));
            const PrintTicks t = print_ticks(lo, hi, false, 5, 4, 7, true);
            const QString what = QString("[%1, %2]").arg(lo, 0, 'f', 0).arg(hi, 0, 'f', 0);
            QVERIFY(t.factor.empty());
            QString unit;
            for (size_t k = 0; k < t.values.size(); ++k) {
                QString l = QString::fromStdString(t.labels[k]);
                if (l == "0") {
                    QCOMPARE(t.values[k], 0.0);
                    continue;
                }
                double scale = 1;
                QString u;
                if (l.endsWith('k') || l.endsWith('M') || l.endsWith('B')) {
                    u = l.right(1);
                    scale = u == "k" ? 1e3 : u == "M" ? 1e6 : 1e9;
                    l.chop(1);
                }
                QVERIFY2(unit.isNull() || unit == u, qPrintable(what + ": mixed units"));
                unit = u;
                bool ok = false;
                const double v = l.toDouble(&ok) * scale;
                QVERIFY2(ok && std::abs(v - t.values[k]) <= 1e-9 * std::max(1.0, t.values[k]),
                         qPrintable(what + ": " + QString::fromStdString(t.labels[k])));
                // never wider than every digit (123457.5k beside 123457500 says nothing shorter)
                QVERIFY2(t.labels[k].size() <= QString::number(t.values[k], 'f', 0).size(), qPrintable(what + ": " + QString::fromStdString(t.labels[k])));
                if (lo == 0) QVERIFY2(t.labels[k].size() <= 5, qPrintable(what + ": " + QString::fromStdString(t.labels[k])));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestAxis)
#include "test_axis.moc"
