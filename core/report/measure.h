// NormLab core: what a finding unit is made of (report-internal).
//
// A finding is one FindingSpec — number, title, source, the paper's claim and
// its analysis — defined in the file of its paper (findings_*.cpp) and listed
// once in the registry (findings.cpp). The analysis picks the runs the finding
// compares (by scheme and configuration, never by display name alone),
// reduces each to the paper's quantity, averages over seeds keeping the
// spread, and decides the verdict from thresholds written in its comment and
// in Finding::measure. A verdict is "reproduced" when every part of the claim
// holds, "partly" when some parts hold, "not reproduced" when none does, and
// "inconclusive" when the effect is smaller than the spread between seeds.
// The helpers below are shared by the analyses.
#pragma once

#include "core/report/report.h"
#include "core/report/stats.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace normlab::report {

struct FindingSpec {
    int number;                       // its place in the report, 1..
    const char* title;                // short: "Last-layer FC2 gradient vs depth at initialization"
    const char* source;               // "Xiong et al. 2020, Fig. 3"
    const char* claim;                // the paper's claim, one or two sentences
    // Fills measure, verdict, result, numbers, tables and figures; throws
    // ConfigError (via need) when the runs cannot answer it.
    Finding (*analyze)(const nlohmann::json& entry, const std::vector<RunData>& runs);
};

// Every finding, in report order (findings.cpp).
const std::vector<const FindingSpec*>& registry();
const FindingSpec* find_spec(int number);   // null when unknown

namespace detail {

inline const char* const kPost = "post_ln";
inline const char* const kPre = "pre_ln";

// ---- series of one run
double value_at(const std::vector<Point>& p, int64_t step);   // NaN when the step was not recorded
double last_finite(const std::vector<Point>& p);
double mean_between(const std::vector<Point>& p, int64_t from, int64_t to);
// Point-wise mean over runs; x is the step. every_run: of the steps every run
// recorded; otherwise of the steps any run recorded, each over the runs that
// recorded it (a curve that goes on past a seed that diverged).
std::pair<std::vector<double>, std::vector<double>> mean_curve(const std::vector<const RunData*>& runs,
                                                               const std::string& name, int layer = -1,
                                                               bool every_run = true);
// Final validation loss; +∞ for a run that diverged (it is worse than any number).
double final_val(const RunData& r);
// Final validation losses of runs (diverged: +∞).
std::vector<double> losses(const std::vector<const RunData*>& rs);

// ---- picking runs
std::vector<const RunData*> select(const std::vector<RunData>& runs, const std::function<bool(const RunData&)>& pred);
std::vector<const RunData*> of_scheme(const std::vector<RunData>& runs, const std::string& scheme);
bool is_full_normformer(const RunData& r);   // all three NormFormer operations on
// Throws ConfigError(what) unless ok: the runs cannot answer the finding.
void need(bool ok, const std::string& what);
// Per-layer means over seeds of fn(run, layer).
std::vector<double> per_layer(const std::vector<const RunData*>& rs, int layers,
                              const std::function<double(const RunData&, int)>& fn);

// ---- configurations
// A run's configuration as runs are compared (CompletedRuns, a shared finding's set-ups): parsed with
// today's defaults, without what only says how it was executed (name, device, threads, CUDA graph,
// checkpoint intervals); null when it no longer parses.
nlohmann::json comparable_config(nlohmann::json config);

// ---- the text of a finding
// "d_model 128, layers 6, ..." with every value the runs use, the data and the training time.
std::string describe_setup(const std::vector<RunData>& runs);
Verdict count_verdict(int held, int parts);   // all: reproduced, none: not, else partly
std::string yes(bool b);                      // "holds" / "does not hold"
std::string layer_label(int l);               // 1-based

// ---- figures
// A figure with its id, title and axes; lines are added by the caller.
Figure make_figure(const std::string& id, const std::string& title, const std::string& x_label,
                   const std::string& y_label, bool log_y = false);
// One line per (label, per-layer values), x = layer 1..L, markers on.
Figure per_layer_figure(const std::string& id, const std::string& title, const std::string& y_label, bool log_y,
                        const std::vector<std::pair<std::string, std::vector<double>>>& lines);
// Appends a non-finite point where the first of `runs` diverged: the app's
// charts mark it with a red triangle instead of letting the curve just stop.
void mark_divergence(Line& l, const std::vector<const RunData*>& runs);

}  // namespace detail
}  // namespace normlab::report
