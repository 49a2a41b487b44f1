// The Layers tab: a per-layer probe (hidden/norm, cond/q, norm_in/sigma_mlp, …) drawn
// over the steps, a line per layer, or against depth: each run's value in every layer
// at the step a slider picks (the profiles the papers draw: BranchNorm's Fig. 8, the
// gradients by layer of Xiong et al.), where 48 layers' lines over the steps of four
// runs are a thicket.
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

namespace normlab {

namespace {

struct LayerSeriesChoice {
    const char* name;
    const char* label;
    bool log;
};
const LayerSeriesChoice kLayerChoices[] = {
    {"hidden/norm", QT_TRANSLATE_NOOP("normlab::ChartsView", "Hidden-state norm ‖x_{ℓ}‖"), false},
    {"hidden/sq_over_d", QT_TRANSLATE_NOOP("normlab::ChartsView", "Hidden-state ‖x_{ℓ}‖²/d"), false},
    {"hidden/cos_prev", QT_TRANSLATE_NOOP("normlab::ChartsView", "cos(x_{ℓ−1}, x_{ℓ})"), false},
    {"hidden/cos_tokens", QT_TRANSLATE_NOOP("normlab::ChartsView", "cos(x_{ℓ}[t], x_{ℓ}[t′]) between positions"), false},
    {"attn/max_logit", QT_TRANSLATE_NOOP("normlab::ChartsView", "Largest attention logit"), false},
    {"mlp/active", QT_TRANSLATE_NOOP("normlab::ChartsView", "Share of active MLP units"), false},
    {"norm_in/sigma_attn", QT_TRANSLATE_NOOP("normlab::ChartsView", "Post-LN: σ into the norm after attention"), false},
    {"norm_in/sigma_mlp", QT_TRANSLATE_NOOP("normlab::ChartsView", "Post-LN: σ into the norm after the MLP"), false},
    {"branch/cos_attn", QT_TRANSLATE_NOOP("normlab::ChartsView", "Post-LN: cos(residual, attention branch)"), false},
    {"branch/cos_mlp", QT_TRANSLATE_NOOP("normlab::ChartsView", "Post-LN: cos(residual, MLP branch)"), false},
    {"gain_mean/alpha_A", QT_TRANSLATE_NOOP("normlab::ChartsView", "nGPT eigen learning rate α_{A}"), false},
    {"gain_mean/alpha_M", QT_TRANSLATE_NOOP("normlab::ChartsView", "nGPT eigen learning rate α_{M}"), false},
    {"cond/q", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_{q} (median over heads)"), true},
    {"cond/k", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_{k} (median over heads)"), true},
    {"cond/v", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_{v} (median over heads)"), true},
    {"cond/o", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_{O}"), true},
    {"cond/fc1", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number FC1"), true},
    {"cond/fc2", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number FC2"), true},
};

}  // namespace

QWidget* ChartsView::buildLayersTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    layer_series_ = new QComboBox(w);
    layer_series_->setObjectName("layerSeries");
    for (auto& c : kLayerChoices) addTrItem(layer_series_, c.label, QString(c.name));
    layer_axis_ = new QComboBox(w);
    layer_axis_->setObjectName("layerAxis");
    addTrItem(layer_axis_, QT_TR_NOOP("step"), 0);
    addTrItem(layer_axis_, QT_TR_NOOP("layer"), 1);
    setTrToolTip(layer_axis_, QT_TR_NOOP("step: a line per layer over the steps.\nlayer: a line per run across the layers, "
                                         "at the step the slider picks (each run's last point at or before it)."));
    layer_step_ = new QSlider(Qt::Horizontal, w);
    layer_step_->setObjectName("layerStep");
    layer_step_->setRange(0, 0);   // at its end: follows a live run's latest step
    layer_step_label_ = new QLabel(w);
    layer_step_label_->setObjectName("layerStepLabel");
    layer_log_ = trCheckBox(QT_TR_NOOP("log y"), w);
    bar->addWidget(trLabel(QT_TR_NOOP("probe"), w));
    bar->addWidget(layer_series_, 1);
    bar->addWidget(trLabel(QT_TR_NOOP("x:"), w));
    bar->addWidget(layer_axis_);
    bar->addWidget(layer_step_, 1);
    bar->addWidget(layer_step_label_);
    bar->addWidget(layer_log_);
    v->addLayout(bar);
    layer_chart_ = new LineChart(w);
    layer_chart_->setObjectName("layerChart");
    layer_chart_->setSmoothing(0);
    panels_.push_back(layer_chart_);
    v->addWidget(layer_chart_, 1);
    layer_step_->setVisible(false);
    layer_step_label_->setVisible(false);
    connect(layer_series_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (i >= 0 && i < static_cast<int>(std::size(kLayerChoices))) layer_log_->setChecked(kLayerChoices[i].log);
        redrawLayers();
    });
    connect(layer_axis_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        const bool by_layer = layer_axis_->currentData().toInt() == 1;
        layer_step_->setVisible(by_layer);
        layer_step_label_->setVisible(by_layer);
        redrawLayers();
    });
    connect(layer_step_, &QSlider::valueChanged, this, [this] { redrawLayers(); });
    connect(layer_log_, &QCheckBox::toggled, this, [this](bool on) { layer_chart_->setLogY(on); });
    return w;
}

std::vector<int64_t> ChartsView::layerSteps(const std::string& name) const {
    std::set<int64_t> steps;
    for (auto& r : runs_)
        for (int l = 0, L = r->layers(name); l < L; ++l)
            if (auto* s = r->series(name, l))
                for (double st : s->steps) steps.insert(static_cast<int64_t>(st));
    return {steps.begin(), steps.end()};
}

std::vector<Curve> ChartsView::byLayerCurves(const std::string& name, int64_t step) const {
    std::vector<Curve> out;
    std::vector<size_t> owner;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        const int L = r.layers(name);
        std::vector<double> x, y;
        bool any = false;
        for (int l = 0; l < L; ++l) {
            double value = std::numeric_limits<double>::quiet_NaN();
            if (auto* s = r.series(name, l)) {
                // the last point at or before `step`: a run that records every 25 steps, beside one that records every 10
                const auto it = std::upper_bound(s->steps.begin(), s->steps.end(), static_cast<double>(step));
                if (it != s->steps.begin()) value = s->values[static_cast<size_t>(it - s->steps.begin()) - 1], any = true;
            }
            x.push_back(l);
            y.push_back(value);
        }
        if (!any) continue;
        Curve c{runLabel(r), runColor(r), std::move(x), std::move(y), Qt::SolidLine, 1.6, false, L <= 64};
        c.run = c.label;
        out.push_back(std::move(c));
        owner.push_back(i);
    }
    return grouped(std::move(out), owner);
}

void ChartsView::redrawLayers() {
    const std::string name = layer_series_->currentData().toString().toStdString();
    const QString title = markedText(layer_series_);
    layer_chart_->setTitle(title);
    layer_chart_->setEmptyHint(emptyHint(name, layer_series_->currentText()));
    layer_chart_->setNote(noteLacking(kLayersTab, [&](const RunData& r) { return r.layers(name) > 0; }));
    if (layer_axis_->currentData().toInt() != 1) {
        layer_chart_->setAxisTitles(tr("step"), title, shortTitle(title));
        layer_chart_->setCurves(perLayerCurves(name, runs_.size() == 1));
        return;
    }
    const std::vector<int64_t> steps = layerSteps(name);
    const int64_t step = stepOfSlider(layer_step_, layer_step_label_, steps);
    layer_chart_->setAxisTitles(tr("layer (step %1)").arg(step), title, shortTitle(title));
    layer_chart_->setCurves(steps.empty() ? std::vector<Curve>{} : byLayerCurves(name, step));
}

int64_t ChartsView::stepOfSlider(QSlider* slider, QLabel* label, const std::vector<int64_t>& steps) {
    {
        QSignalBlocker b(slider);
        const bool at_end = slider->value() == slider->maximum();
        slider->setRange(0, std::max(0, static_cast<int>(steps.size()) - 1));
        if (at_end) slider->setValue(slider->maximum());   // follow a live run
    }
    const int64_t step = steps.empty() ? 0 : steps[static_cast<size_t>(slider->value())];
    label->setText(steps.empty() ? tr("—") : QString::number(step));
    return step;
}

bool ChartsView::showLayersAt(int64_t step, QString* error) {
    const std::vector<int64_t> steps = layerSteps(layer_series_->currentData().toString().toStdString());
    int at = static_cast<int>(steps.size()) - 1;   // step < 0: the last
    if (step >= 0) at = static_cast<int>(std::upper_bound(steps.begin(), steps.end(), step) - steps.begin()) - 1;
    if (at < 0) {
        if (error)
            *error = steps.empty() ? QString("--at-step: these runs recorded no %1").arg(layer_series_->currentData().toString())
                                   : QString("--at-step %1: the first step these runs recorded %2 at is %3")
                                         .arg(step).arg(layer_series_->currentData().toString()).arg(steps.front());
        return false;
    }
    {
        QSignalBlocker b(layer_step_);
        layer_step_->setRange(0, static_cast<int>(steps.size()) - 1);
        layer_step_->setValue(at);
    }
    layer_axis_->setCurrentIndex(layer_axis_->findData(1));   // redraws
    redrawLayers();
    return true;
}

}  // namespace normlab
