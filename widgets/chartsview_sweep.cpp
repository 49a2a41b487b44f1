// NormLab widgets: ChartsView's Sweep tab — the runs shown as parallel
// coordinates of the settings that differ among them and their outcome
// (see chartsview.h, sweep.h).
#include "widgets/chartsview.h"

#include "core/groups.h"
#include "widgets/elided_label.h"
#include "widgets/sweep.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
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
    setTrToolTip(sweep_metric_, QT_TR_NOOP("The outcome on the last axis, which colours each run's line as its colour bar shows, the lowest drawn on top. "
                                           "A run still training shows its latest; one without any (diverged, or not evaluated "
                                           "yet) is a grey dashed line."));
    // as wide as the usual choice; the longest (the training loss's) is whole in the list
    sweep_metric_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    sweep_metric_->setMinimumContentsLength(24);
    bar->addWidget(trLabel(QT_TR_NOOP("outcome"), w));
    bar->addWidget(sweep_metric_);
    sweep_implied_ = trCheckBox(QT_TR_NOOP("settings the scheme implies"), w);
    sweep_implied_->setObjectName("sweepImplied");
    setTrToolTip(sweep_implied_, QT_TR_NOOP("Also an axis for each setting that every run has as its scheme sets it "
                                            "(layout, final norm, NormFormer's switches, ...): the scheme's axis says "
                                            "them already. A setting a run changed from its scheme is always an axis."));
    bar->addWidget(sweep_implied_);
    bar->addStretch(1);
    v->addLayout(bar);
    sweep_ = new SweepChart(w);
    sweep_->setObjectName("sweepChart");
    sweep_->setContextMenuPolicy(Qt::CustomContextMenu);
    panels_.push_back(sweep_);
    v->addWidget(sweep_, 1);
    sweep_note_ = new ElidedLabel(w);
    sweep_note_->setObjectName("sweepNote");
    sweep_note_->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(sweep_note_);
    connect(sweep_metric_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawSweep(); });
    connect(sweep_implied_, &QCheckBox::toggled, this, [this] { redrawSweep(); });
    connect(sweep_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        std::unique_ptr<QMenu> menu(sweepMenu(pos));
        menu->exec(sweep_->mapToGlobal(pos));
    });
    return w;
}

const SweepSpec& ChartsView::sweepSpec() const { return sweep_->spec(); }

SweepOptions ChartsView::sweepOptions() const { return {!sweep_implied_->isChecked(), sweep_hidden_}; }

void ChartsView::setSweepOptions(const SweepOptions& o) {
    sweep_hidden_ = o.hidden;
    const QSignalBlocker block(sweep_implied_);
    sweep_implied_->setChecked(!o.fold_implied);
    redrawSweep();
}

QMenu* ChartsView::sweepMenu(const QPoint& pos) {
    auto* menu = new QMenu(sweep_);
    const int axis = sweep_->axisAt(pos);
    if (axis >= 0) {
        const QString name = sweep_->spec().axes[static_cast<size_t>(axis)].name;
        QAction* hide = menu->addAction(tr("Hide “%1”").arg(name));
        hide->setObjectName("sweepHide");
        connect(hide, &QAction::triggered, this, [this, name] {
            sweep_hidden_ << name;
            redrawSweep();
        });
    }
    const auto hidden_now = sweep_->spec().hidden.size();   // of the runs shown (a name may be of others)
    QAction* show = menu->addAction(tr("Show hidden settings (%1)").arg(hidden_now));
    show->setObjectName("sweepShowHidden");
    show->setEnabled(hidden_now > 0);
    connect(show, &QAction::triggered, this, [this] {
        sweep_hidden_.clear();
        redrawSweep();
    });
    QAction* implied = menu->addAction(sweep_implied_->text());
    implied->setObjectName("sweepImpliedAction");
    implied->setCheckable(true);
    implied->setChecked(sweep_implied_->isChecked());
    connect(implied, &QAction::toggled, sweep_implied_, &QCheckBox::setChecked);
    return menu;
}

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
    sweep_->setSpec(sweep_spec(runs, sweep_metric_->currentText(), sweepOptions()));
    const QString left_out = sweep_left_out(sweep_->spec());
    sweep_note_->setFullText(left_out.isEmpty() ? QString()
                                            : left_out + ' ' + tr("Right-click the chart to hide a setting or show them."));
    sweep_note_->setVisible(!left_out.isEmpty());
}

}  // namespace normlab
