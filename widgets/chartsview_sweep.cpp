// NormLab widgets: ChartsView's Sweep tab — the runs shown as parallel
// coordinates of the settings that differ among them and their outcome
// (see chartsview.h, sweep.h).
#include "widgets/chartsview.h"

#include "core/groups.h"
#include "widgets/sweep.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace normlab {

namespace {

// A run's outcome: `what` of its validation loss (the last or the lowest) or its training loss (the mean of
// its last 20 points, as the last alone is one batch's); NaN where it has none, or diverged (its last
// finite value would rank a run that blew up among the good ones).
double outcome(const RunData& r, const QString& what) {
    if (r.info().status == RunStatus::Diverged) return std::nan("");
    const SeriesData* s = r.series(what == "final_train" ? "train/loss" : "val/loss");
    if (!s) return std::nan("");
    std::vector<double> v;
    for (double x : s->values)
        if (std::isfinite(x)) v.push_back(x);
    if (v.empty()) return std::nan("");
    if (what == "best_val") return *std::min_element(v.begin(), v.end());
    if (what == "final_train") {
        const size_t k = std::min<size_t>(20, v.size());
        double sum = 0;
        for (size_t i = v.size() - k; i < v.size(); ++i) sum += v[i];
        return sum / static_cast<double>(k);
    }
    return v.back();
}

}  // namespace

QWidget* ChartsView::buildSweepTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    sweep_metric_ = new QComboBox(w);
    sweep_metric_->setObjectName("sweepMetric");
    addTrItem(sweep_metric_, QT_TR_NOOP("final validation loss"), QString("final_val"));
    addTrItem(sweep_metric_, QT_TR_NOOP("best validation loss"), QString("best_val"));
    addTrItem(sweep_metric_, QT_TR_NOOP("final training loss (mean of the last 20 points)"), QString("final_train"));
    setTrToolTip(sweep_metric_, QT_TR_NOOP("The outcome on the last axis, which colours each run's line: the lowest darkest. "
                                           "A run still training shows its latest; one without any (diverged, or not evaluated "
                                           "yet) is a grey dashed line."));
    bar->addWidget(trLabel(QT_TR_NOOP("outcome"), w));
    bar->addWidget(sweep_metric_);
    bar->addStretch(1);
    v->addLayout(bar);
    sweep_ = new SweepChart(w);
    sweep_->setObjectName("sweepChart");
    panels_.push_back(sweep_);
    v->addWidget(sweep_, 1);
    connect(sweep_metric_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawSweep(); });
    return w;
}

const SweepSpec& ChartsView::sweepSpec() const { return sweep_->spec(); }

void ChartsView::redrawSweep() {
    const QString what = sweep_metric_->currentData().toString();
    std::vector<SweepRun> runs;
    for (auto& r : runs_) runs.push_back({runLabel(*r), r->info().config, outcome(*r, what)});
    // "Group runs" by seed: the runs that differ only by seed are one line, at the mean of their outcomes
    // (those that have one), and the seed is no axis
    if (group_->currentData().toInt() != 0 && runs_.size() > 1) {
        std::vector<nlohmann::json> configs;
        for (auto& r : runs_) configs.push_back(r->info().config);
        const std::vector<int> group = group_runs(configs);
        std::vector<SweepRun> merged;
        std::vector<bool> used(runs.size(), false);
        for (size_t k = 0; k < runs.size(); ++k) {
            if (used[k]) continue;
            std::vector<std::string> names;
            double sum = 0;
            int n = 0;
            for (size_t j = k; j < runs.size(); ++j)
                if (!used[j] && group[j] == group[k]) {
                    used[j] = true;
                    names.push_back(runs_[j]->info().name);
                    if (std::isfinite(runs[j].metric)) sum += runs[j].metric, ++n;
                }
            SweepRun g = runs[k];
            if (names.size() > 1) {
                g.label = tr("%1 (×%2)").arg(QString::fromStdString(group_name(names))).arg(names.size());
                g.metric = n > 0 ? sum / n : std::nan("");
            }
            if (g.config.contains("train") && g.config["train"].is_object()) g.config["train"].erase("seed");
            merged.push_back(std::move(g));
        }
        runs = std::move(merged);
    }
    sweep_->setSpec(sweep_spec(runs, sweep_metric_->currentText()));
}

}  // namespace normlab
