// Run groups (core/groups.h): runs that differ only by seed share a group,
// and a group's band is the mean ± std (or min–max) at the steps all share.
#include "core/groups.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;
using nlohmann::json;

class TestGroups : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void runsDifferingOnlyBySeedShareAGroup() {
        const json a = {{"model", {{"d_model", 64}}}, {"train", {{"seed", 1}, {"steps", 100}}}};
        json b = a, c = a, d = a;
        b["train"]["seed"] = 2;
        c["model"]["d_model"] = 128;    // another model: its own group
        d["train"]["seed"] = 3;
        QCOMPARE(group_runs({a, b, c, d}), (std::vector<int>{0, 0, 1, 0}));
        // grouping by another key: the width may differ, the seed may not
        QCOMPARE(group_runs({a, b, c, d}, {"model.d_model"}), (std::vector<int>{0, 1, 0, 2}));
        QCOMPARE(group_runs({}), std::vector<int>{});
        // runs named from their seed ("pre_ln seed 1") still group: a name is a label, not a setting
        json e = a, f = a;
        e["name"] = "pre_ln seed 1";
        f["name"] = "pre_ln seed 2";
        f["train"]["seed"] = 2;
        QCOMPARE(group_runs({e, f}), (std::vector<int>{0, 0}));
        QCOMPARE(group_name({"pre_ln seed 1", "pre_ln seed 2"}), std::string("pre_ln"));
        QCOMPARE(group_name({"NormFormer, seed=3", "NormFormer, seed=4"}), std::string("NormFormer"));
        QCOMPARE(group_name({"a", "b"}), std::string("a"));
        QCOMPARE(group_name({"pre_ln"}), std::string("pre_ln"));
    }

    void bandIsMeanAndStdAtSharedSteps() {
        const std::vector<double> x1 = {0, 10, 20, 30}, y1 = {1, 2, 3, 4};
        const std::vector<double> x2 = {0, 10, 20}, y2 = {3, 4, NAN};
        const std::vector<double> x3 = {0, 10, 20, 30}, y3 = {2, 6, NAN, 9};
        Band b = band_of({&x1, &x2, &x3}, {&y1, &y2, &y3}, BandKind::Std);
        QCOMPARE(b.x, (std::vector<double>{0, 10, 20}));          // step 30 is not in every run
        QCOMPARE(b.mean[0], 2.0);
        QVERIFY(std::abs(b.hi[0] - (2.0 + std::sqrt(2.0 / 3.0))) < 1e-12);
        QVERIFY(std::abs(b.lo[0] - (2.0 - std::sqrt(2.0 / 3.0))) < 1e-12);
        QCOMPARE(b.mean[1], 4.0);
        QCOMPARE(b.mean[2], 3.0);                                  // the finite values only
        QCOMPARE(b.lo[2], 3.0);
        Band m = band_of({&x1, &x3}, {&y1, &y3}, BandKind::MinMax);
        QCOMPARE(m.x.size(), size_t(4));
        QCOMPARE(m.lo[1], 2.0);
        QCOMPARE(m.hi[1], 6.0);
        QCOMPARE(m.mean[3], 6.5);
        QVERIFY(std::isnan(m.mean[2]) == false);
        const std::vector<double> xa = {0.5, 1.5}, xb = {0.7};
        QVERIFY(band_of({&xa, &xb}, {&xa, &xb}, BandKind::Std).x.empty());   // wall time: nothing shared
    }
};

QTEST_GUILESS_MAIN(TestGroups)
#include "test_groups.moc"
