// NormLab core: measuring the papers' findings on stored runs.
//
// An experiment file's "report" array names the findings its runs test
// (`{"finding": 5, "early_steps": 100}`); `analyze` turns those runs into a
// Finding: the paper's claim, the numbers measured, an honest verdict with
// its reason, a table and figures described as data (curves, axes), which
// the app draws with its own chart widgets (app/gui/report.cpp) and this
// file writes into Markdown and HTML. No LibTorch, no Qt: the verdict logic
// is tested on small synthetic runs (tests/test_report.cpp).
//
// The ten findings, their measures and thresholds: docs/REPRODUCTION.md
// ("How the verdicts are decided") and the findings_*.cpp files, one per paper,
// each finding an analysis with its thresholds and a FindingSpec (measure.h).
#pragma once

#include "core/store/store.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace normlab::report {

// One stored run as the analyses see it: the configuration and every point
// of every series (loaded once; runs here are small).
struct RunData {
    int64_t id = 0;
    std::string name;                 // "Post-LN n_layers=6 seed=1"
    std::string variant;              // the name without its sweep suffix: "Post-LN"
    nlohmann::json config;            // full RunConfig JSON
    RunStatus status = RunStatus::Finished;
    int64_t status_step = -1;
    int64_t steps_done = 0;
    double final_loss = 0;            // validation loss at the end (NaN if none)
    nlohmann::json info;
    std::map<std::pair<std::string, int>, std::vector<Point>> series;
    std::vector<Distribution> distributions;

    const std::vector<Point>& get(const std::string& name, int layer = -1) const;  // empty when absent
    std::string scheme() const;
    int layers() const;
    int64_t seed() const;
    double cfg_number(const std::string& dotted, double fallback = 0) const;  // "optim.lr"
    bool cfg_bool(const std::string& dotted) const;
};

// Reads a run with all its series and distributions.
RunData load_run(Store& store, const RunInfo& info);
// The run name without trailing " key=value" sweep labels.
std::string variant_of(const std::string& run_name);

// The finished (or, for stability tests, diverged) runs of a store, indexed
// by their configuration up to what only says how a run was executed (its
// name, device, threads, CUDA graph and checkpoint intervals), so a report
// reuses runs trained earlier (also on another machine) instead of training
// them again. Stored configurations are read through the current parser, so
// runs of an older NormLab match with today's defaults filled in. Built once
// per report: one read of the store, one parse per stored run.
//
// With `stopped_too`, a run that stopped before its last step with some of
// its data (cancelled, or interrupted: a GPU lease's time limit, a killed
// job) matches too where no finished run does: `normlab report
// --accept-stopped`, for runs that cannot be continued where they were
// trained. align_runs then compares its experiment's runs over the steps all
// of them reached.
class CompletedRuns {
public:
    explicit CompletedRuns(Store& store, bool stopped_too = false);
    int64_t find(const nlohmann::json& config) const;   // the latest match; 0 when none
    void add(int64_t run, const nlohmann::json& config);  // a run finished since the index was built

private:
    std::map<std::string, int64_t> by_key_, stopped_;
};
// One lookup (builds the index for it).
int64_t find_completed_run(Store& store, const nlohmann::json& config);

// Whether a run stopped before its configured last step and did not diverge
// (cancelled or interrupted, with at least one step).
bool stopped_early(const RunData& r);
// Where one of `runs` stopped early: every run is cut to the last step all of
// them reached (S, the fewest steps among the stopped ones and the others'
// configured steps; a run that diverged by S keeps its divergence, one that
// diverged or finished after S is a run stopped at S), so that final losses
// and curves compare at equal steps. Before that, a run stopped short of 90 %
// of its steps is left out where another seed of the same run (its name but
// "seed=N") got at least 90 % of the way, so that one short seed does not cut
// the whole finding to its steps. Returns what was done, for the report's
// "Runs:" line ("left out, …: R (stopped at step s of n); compared over the
// first S of N steps: …"), or "" when every run is whole (nothing changed).
std::string align_runs(std::vector<RunData>& runs);

enum class Verdict { Reproduced, Partly, NotReproduced, Inconclusive };
std::string verdict_name(Verdict v);   // "reproduced", "partly reproduced", ...

struct Line {
    std::string label;
    std::vector<double> x, y;
    int color = 0;                    // index into the app's run colours
    int dash = 0;                     // 0 solid, 1 dashes, 2 dots, 3 dash-dot, 4 dash-dot-dot
    bool markers = false;
};

struct Figure {
    std::string id;                   // file stem: "f01-fc2-vs-depth"
    std::string title, x_label, y_label;
    bool log_y = false;
    std::vector<Line> lines;
    std::vector<std::pair<double, std::string>> hlines;
    std::string caption;
};

struct Table {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

struct Finding {
    int number = 0;
    std::string title;                // short: "Last-layer FC2 gradient vs depth at init"
    std::string source;               // "Xiong et al. 2020, Fig. 3"
    std::string claim;                // the paper's claim
    std::string measure;              // how it is measured here
    std::string setup;                // sizes, steps, seeds of the runs used
    std::string experiment;           // the experiment's name ("a, b": several, experiments)
    std::vector<std::string> experiments;   // where several measured it together, their names
    Verdict verdict = Verdict::Inconclusive;
    std::string result;               // the measured outcome with its numbers, one paragraph
    std::vector<std::pair<std::string, double>> numbers;   // the key numbers, machine-readable
    Table table;
    std::vector<Table> more_tables;   // e.g. the learning rates tried
    std::vector<Figure> figures;
};

// A finding that several experiments of one report name is measured once, on the runs of all of them
// (core/report/shared_finding.cpp): experiments/reproduction/normformer.json's ablations at 2e-3 and
// normformer_lr.json's rates are one finding 6, each model at its best rate and the ablations beside it,
// not two sections with one number. Whatever none of them varies must then be the same in each (the
// model's size, the steps, the data, the probes): the runs of different set-ups are not comparable.
struct FindingSource {
    std::string file;                       // the experiment file, for the message
    size_t entry = 0;                       // its index in the file's "report"
    nlohmann::json options;                 // the entry ({"finding": 6, ...})
    std::vector<nlohmann::json> configs;    // its runs' resolved configurations
};
// Throws ConfigError (path "report[i]" of the source that disagrees) where the entries' options differ
// or a setting that no source varies differs between them, naming the setting, both values and files.
void check_shared_finding(int number, const std::vector<FindingSource>& sources);
// The runs of several experiments, a run they share (the same stored run) once, in order.
std::vector<RunData> union_of_runs(const std::vector<const std::vector<RunData>*>& sets);

// The findings are numbered 1..finding_count() (core/report/findings.cpp).
int finding_count();
bool known_finding(int number);
std::string finding_title(int number);

// Measures finding entry["finding"] on `runs` (the runs of one experiment).
// Throws ConfigError (path "report[...]" set by the caller) when the runs
// cannot answer it, e.g. a scheme the finding compares is missing.
Finding analyze(const nlohmann::json& entry, const std::vector<RunData>& runs, const std::string& experiment);

struct ReportMeta {
    std::string title = "NormLab reproduction report";
    std::string command;              // how it was generated
    std::string date;
    std::string machine;              // CPU / GPU description, threads
    std::string versions;             // NormLab, LibTorch, ...
    std::string scale;                // "" = the CPU presets
    std::string notes;                // free Markdown inserted after the summary
};

// Figures are referenced as `figure_dir/ID.png` and `figure_dir/ID.svg`
// (figure_dir relative to the document).
std::string to_markdown(const std::vector<Finding>& findings, const ReportMeta& meta, const std::string& figure_dir);
std::string to_html(const std::vector<Finding>& findings, const ReportMeta& meta, const std::string& figure_dir);
nlohmann::json to_json(const std::vector<Finding>& findings, const ReportMeta& meta);

}  // namespace normlab::report
