// Synthetic runs for the report's tests: a run of a scheme and depth with the
// configuration a finding reads, its series point by point, and the verdict a
// finding gives them (tests/test_report.cpp, tests/test_report_deep.cpp).
#pragma once

#include "core/errors.h"
#include "core/experiment.h"
#include "core/report/report.h"

#include <QtTest/QtTest>

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace normlab::test_report {

using nlohmann::json;
using namespace normlab::report;

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

inline RunData mk(const std::string& name, const std::string& scheme, int layers, int seed = 1, json extra = json::object()) {
    RunData r;
    r.name = name;
    r.variant = variant_of(name);
    r.config = merge_json({{"scheme", scheme},
                           {"model", {{"n_layers", layers}, {"d_model", 128}, {"normformer", {{"head_scale", scheme == "normformer"},
                                                                                             {"post_attn_norm", scheme == "normformer"},
                                                                                             {"ffn_norm", scheme == "normformer"}}}}},
                           {"optim", {{"lr", 1e-3}, {"schedule", {{"warmup", 100}}}}},
                           {"train", {{"seed", seed}, {"steps", 200}}}},
                          extra);
    r.status = RunStatus::Finished;
    r.steps_done = 200;
    r.final_loss = kNaN;
    return r;
}
inline void at0(RunData& r, const std::string& series, const std::vector<double>& per_layer) {
    for (size_t l = 0; l < per_layer.size(); ++l) r.series[{series, static_cast<int>(l)}] = {{0, per_layer[l]}};
}
inline void curve(RunData& r, const std::string& series, int layer, const std::vector<std::pair<int64_t, double>>& pts) {
    auto& v = r.series[{series, layer}];
    for (auto& [s, y] : pts) v.push_back({s, y});
}
inline Verdict verdict(int finding, const std::vector<RunData>& runs, json extra = json::object()) {
    json e = extra;
    e["finding"] = finding;
    return analyze(e, runs, "synthetic").verdict;
}
// The field a ConfigError that f throws names; "accepted" when it throws none.
template <class F> inline QString error_path(F&& f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return QString::fromStdString(e.path());
    }
    return "accepted";
}
inline QString name(Verdict v) { return QString::fromStdString(verdict_name(v)); }
#define VERDICT(expected, ...) QCOMPARE(name(verdict(__VA_ARGS__)), name(expected))

inline Distribution dist(const std::string& n, int layer, int64_t step, double median) {
    Distribution d;
    d.name = n;
    d.layer = layer;
    d.step = step;
    d.count = 10;
    d.min = median - 0.2, d.q1 = median - 0.1, d.median = median, d.q3 = median + 0.1, d.max = median + 0.2;
    d.mean = median;
    return d;
}

}  // namespace normlab::test_report
