// NormLab widgets: ChartsView (see chartsview.h).
#include "widgets/chartsview.h"

#include "widgets/figure.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"

#include <QBarCategoryAxis>
#include <QBoxPlotSeries>
#include <QBoxSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTextStream>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <set>

namespace normlab {

namespace {

QString run_label(const RunData& r) {
    return QString("%1 (#%2)").arg(QString::fromStdString(r.info().name)).arg(r.id());
}

QColor layer_color(int run_index, int layer, int layers, bool by_layer) {
    const double t = layers > 1 ? double(layer) / (layers - 1) : 0.0;
    if (by_layer) return viridis(0.9 * t);
    // One hue per run, from dark (first layer) to bright (last); never so light
    // that a curve disappears into the white background.
    const QColor base = run_color(run_index).toHsv();
    const int sat = static_cast<int>(base.hsvSaturation() * (1.0 - 0.3 * t) + 40 * t);
    return QColor::fromHsv(base.hsvHue(), std::min(255, sat), static_cast<int>(255 * (0.38 + 0.57 * t)));
}

// A widget as it looks, to PNG (dpi), SVG or PDF.
bool export_widget(QWidget* w, const QString& path, const QString& format, int dpi, QString* error) {
    const QSize size = w->size();
    return write_figure(path, format, dpi, size, QObject::tr("NormLab figure"),
                        [&](QPainter& p, const QRectF& target) {
                            p.scale(target.width() / size.width(), target.height() / size.height());
                            w->render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
                        },
                        error);
}

struct LayerSeriesChoice {
    const char* name;
    const char* label;
    bool log;
};
const LayerSeriesChoice kLayerChoices[] = {
    {"hidden/norm", QT_TRANSLATE_NOOP("normlab::ChartsView", "Hidden-state norm ‖x_l‖"), false},
    {"hidden/sq_over_d", QT_TRANSLATE_NOOP("normlab::ChartsView", "Hidden-state ‖x_l‖²/d"), false},
    {"hidden/cos_prev", QT_TRANSLATE_NOOP("normlab::ChartsView", "cos(x_{l−1}, x_l)"), false},
    {"attn/max_logit", QT_TRANSLATE_NOOP("normlab::ChartsView", "Largest attention logit"), false},
    {"mlp/active", QT_TRANSLATE_NOOP("normlab::ChartsView", "Share of active MLP units"), false},
    {"gain_mean/alpha_A", QT_TRANSLATE_NOOP("normlab::ChartsView", "nGPT eigen learning rate α_A"), false},
    {"gain_mean/alpha_M", QT_TRANSLATE_NOOP("normlab::ChartsView", "nGPT eigen learning rate α_M"), false},
    {"cond/q", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_q (median over heads)"), true},
    {"cond/k", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_k (median over heads)"), true},
    {"cond/v", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_v (median over heads)"), true},
    {"cond/o", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number W_O"), true},
    {"cond/fc1", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number FC1"), true},
    {"cond/fc2", QT_TRANSLATE_NOOP("normlab::ChartsView", "Condition number FC2"), true},
};

}  // namespace

ChartsView::ChartsView(QWidget* parent) : QWidget(parent) {
    tabs_ = new QTabWidget(this);
    tabs_->setObjectName("chartTabs");
    tabs_->addTab(buildLossTab(), tr("Loss"));
    tabs_->addTab(buildGradTab(), tr("Gradients"));
    tabs_->addTab(buildGainsTab(), tr("Gains"));
    tabs_->addTab(buildLayersTab(), tr("Layers"));
    tabs_->addTab(buildScalarsTab(), tr("Scalars"));
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    lay->addWidget(tabs_);
    stale_.assign(static_cast<size_t>(tabs_->count()), true);
    connect(tabs_, &QTabWidget::currentChanged, this, &ChartsView::redrawTab);
}

QWidget* ChartsView::buildLossTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    xunit_ = new QComboBox(w);
    xunit_->setObjectName("xUnit");
    xunit_->addItem(tr("step"));
    xunit_->addItem(tr("tokens"));
    xunit_->addItem(tr("wall time (s)"));
    log_ = new QCheckBox(tr("log y"), w);
    log_->setObjectName("logY");
    log_->setToolTip(tr("Logarithmic loss axis (Ctrl+L)"));
    smooth_ = new QSlider(Qt::Horizontal, w);
    smooth_->setObjectName("smoothing");
    smooth_->setRange(0, 99);
    smooth_->setValue(60);
    smooth_->setToolTip(tr("Debiased exponential moving average over the full data; the raw curve stays faint beneath"));
    smooth_label_ = new QLabel(w);
    bar->addWidget(new QLabel(tr("x:"), w));
    bar->addWidget(xunit_);
    bar->addSpacing(12);
    bar->addWidget(log_);
    bar->addSpacing(12);
    bar->addWidget(new QLabel(tr("smoothing"), w));
    bar->addWidget(smooth_, 1);
    bar->addWidget(smooth_label_);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    panels_.push_back(split);
    loss_ = new LineChart(split);
    loss_->setObjectName("lossChart");
    loss_->setTitle(tr("Loss"));
    lr_ = new LineChart(split);
    lr_->setObjectName("lrChart");
    lr_->setTitle(tr("Learning rate"));
    split->addWidget(loss_);
    split->addWidget(lr_);
    split->setSizes({600, 260});
    v->addWidget(split, 1);
    connect(xunit_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        redrawLoss();
        stale_[4] = true;   // the scalars tab shares the x unit
    });
    connect(log_, &QCheckBox::toggled, this, [this](bool on) { loss_->setLogY(on); });
    connect(smooth_, &QSlider::valueChanged, this, [this](int s) {
        loss_->setSmoothing(s / 100.0);
        smooth_label_->setText(QString::number(s / 100.0, 'f', 2));
    });
    loss_->setSmoothing(0.6);
    smooth_label_->setText("0.60");
    return w;
}

QWidget* ChartsView::buildGradTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    grad_weight_ = new QComboBox(w);
    grad_weight_->setObjectName("gradWeight");
    for (const char* n : {"fc2", "fc1", "q", "k", "v", "o", "norm1", "norm2", "ffn_norm", "post_attn_norm", "head_scale"})
        grad_weight_->addItem(n, QString(n));
    grad_norm_ = new QComboBox(w);
    grad_norm_->setObjectName("gradNorm");
    grad_norm_->addItem(tr("mean |∂L/∂W| (L1)"), "grad_l1/");
    grad_norm_->addItem(tr("‖∂L/∂W‖_F (L2)"), "grad_l2/");
    grad_norm_->addItem(tr("expected gradient ‖E[∂L/∂W]‖ at init"), "grad_expected_l2/");
    heat_log_ = new QCheckBox(tr("log color scale"), w);
    heat_log_->setChecked(true);
    bar->addWidget(new QLabel(tr("weight"), w));
    bar->addWidget(grad_weight_);
    bar->addWidget(new QLabel(tr("norm"), w));
    bar->addWidget(grad_norm_);
    bar->addWidget(heat_log_);
    bar->addStretch(1);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    panels_.push_back(split);
    grad_lines_ = new LineChart(split);
    grad_lines_->setObjectName("gradChart");
    grad_lines_->setLogY(true);
    grad_lines_->setSmoothing(0);
    auto* heat_area = new QWidget(split);
    heat_box_ = new QVBoxLayout(heat_area);
    heat_box_->setContentsMargins(0, 0, 0, 0);
    split->addWidget(grad_lines_);
    split->addWidget(heat_area);
    split->setSizes({450, 450});
    v->addWidget(split, 1);
    connect(grad_weight_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawGradients(); });
    connect(grad_norm_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawGradients(); });
    connect(heat_log_, &QCheckBox::toggled, this, [this](bool on) {
        for (auto* h : heatmaps_) h->setLogScale(on);
    });
    return w;
}

QWidget* ChartsView::buildGainsTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    gain_name_ = new QComboBox(w);
    gain_name_->setObjectName("gainName");
    gain_step_ = new QSlider(Qt::Horizontal, w);
    gain_step_->setObjectName("gainStep");
    gain_step_label_ = new QLabel(w);
    gain_layer_ = new QSpinBox(w);
    gain_layer_->setRange(0, 0);
    bar->addWidget(new QLabel(tr("gain"), w));
    bar->addWidget(gain_name_);
    bar->addWidget(new QLabel(tr("step"), w));
    bar->addWidget(gain_step_, 1);
    bar->addWidget(gain_step_label_);
    bar->addWidget(new QLabel(tr("histogram of layer"), w));
    bar->addWidget(gain_layer_);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    panels_.push_back(split);
    box_chart_ = new QChart();
    box_chart_->legend()->setAlignment(Qt::AlignBottom);
    box_view_ = new QChartView(box_chart_, split);
    box_view_->setObjectName("boxChart");
    box_view_->setRenderHint(QPainter::Antialiasing);
    hist_ = new LineChart(split);
    hist_->setObjectName("histChart");
    hist_->setSmoothing(0);
    split->addWidget(box_view_);
    split->addWidget(hist_);
    split->setSizes({500, 300});
    v->addWidget(split, 1);
    connect(gain_name_, qOverload<int>(&QComboBox::activated), this, [this] {
        gain_choice_ = gain_name_->currentData().toString();
        redrawGains();
    });
    connect(gain_step_, &QSlider::valueChanged, this, [this] { redrawGains(); });
    connect(gain_layer_, qOverload<int>(&QSpinBox::valueChanged), this, [this] { redrawGains(); });
    return w;
}

QWidget* ChartsView::buildLayersTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    layer_series_ = new QComboBox(w);
    layer_series_->setObjectName("layerSeries");
    for (auto& c : kLayerChoices) layer_series_->addItem(tr(c.label), QString(c.name));
    layer_log_ = new QCheckBox(tr("log y"), w);
    bar->addWidget(new QLabel(tr("probe"), w));
    bar->addWidget(layer_series_, 1);
    bar->addWidget(layer_log_);
    v->addLayout(bar);
    layer_chart_ = new LineChart(w);
    layer_chart_->setObjectName("layerChart");
    layer_chart_->setSmoothing(0);
    panels_.push_back(layer_chart_);
    v->addWidget(layer_chart_, 1);
    connect(layer_series_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (i >= 0 && i < static_cast<int>(std::size(kLayerChoices))) layer_log_->setChecked(kLayerChoices[i].log);
        redrawLayers();
    });
    connect(layer_log_, &QCheckBox::toggled, this, [this](bool on) { layer_chart_->setLogY(on); });
    return w;
}

QWidget* ChartsView::buildScalarsTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    scalar_series_ = new QComboBox(w);
    scalar_series_->setObjectName("scalarSeries");
    const std::pair<const char*, const char*> items[] = {
        {"train/grad_norm", QT_TRANSLATE_NOOP("normlab::ChartsView", "Global gradient norm (before clipping)")},
        {"train/tokens_per_s", QT_TRANSLATE_NOOP("normlab::ChartsView", "Tokens per second")},
        {"branchnorm/alpha", QT_TRANSLATE_NOOP("normlab::ChartsView", "BranchNorm α_t")},
        {"deepnorm/alpha", QT_TRANSLATE_NOOP("normlab::ChartsView", "DeepNorm α")},
        {"train/lr", QT_TRANSLATE_NOOP("normlab::ChartsView", "Learning rate")}};
    for (auto& [name, label] : items) scalar_series_->addItem(tr(label), QString(name));
    bar->addWidget(new QLabel(tr("series"), w));
    bar->addWidget(scalar_series_, 1);
    v->addLayout(bar);
    scalar_chart_ = new LineChart(w);
    scalar_chart_->setObjectName("scalarChart");
    scalar_chart_->setSmoothing(0);
    panels_.push_back(scalar_chart_);
    v->addWidget(scalar_chart_, 1);
    connect(scalar_series_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawScalars(); });
    return w;
}

void ChartsView::setRuns(const std::vector<int64_t>& ids, Store& store) {
    std::vector<std::unique_ptr<RunData>> next;
    for (int64_t id : ids) {
        auto it = std::find_if(runs_.begin(), runs_.end(), [&](auto& r) { return r && r->id() == id; });
        if (it != runs_.end()) next.push_back(std::move(*it));
        else next.push_back(std::make_unique<RunData>(id));
    }
    runs_ = std::move(next);
    for (auto& r : runs_) r->refresh(store);
    redrawAll();
}

bool ChartsView::refresh(Store& store) {
    bool changed = false;
    for (auto& r : runs_)
        if (r->live() || r->info().id == 0) changed |= r->refresh(store);
    if (changed) redrawAll();
    return changed;
}

// Only the visible tab is redrawn; the others are marked stale and redrawn when shown.
void ChartsView::redrawAll() {
    std::fill(stale_.begin(), stale_.end(), true);
    redrawTab(tabs_->currentIndex());
}

void ChartsView::redrawTab(int i) {
    if (i < 0 || i >= static_cast<int>(stale_.size()) || !stale_[static_cast<size_t>(i)]) return;
    stale_[static_cast<size_t>(i)] = false;
    switch (i) {
        case 0: redrawLoss(); break;
        case 1: redrawGradients(); break;
        case 2: redrawGains(); break;
        case 3: redrawLayers(); break;
        default: redrawScalars(); break;
    }
}

RunData::XUnit ChartsView::xUnit() const {
    switch (xunit_->currentIndex()) {
        case 1: return RunData::XUnit::Tokens;
        case 2: return RunData::XUnit::WallSeconds;
        default: return RunData::XUnit::Step;
    }
}

QString ChartsView::xTitle() const { return xunit_->currentText(); }

void ChartsView::redrawLoss() {
    std::vector<Curve> loss, lr;
    std::vector<std::pair<double, QString>> floors;
    const auto unit = xUnit();
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        auto xs = [&](const SeriesData& s) {
            std::vector<double> x(s.steps.size());
            for (size_t k = 0; k < x.size(); ++k) x[k] = r.x_of(static_cast<int64_t>(s.steps[k]), unit);
            return x;
        };
        if (auto* s = r.series("train/loss")) loss.push_back({run_label(r) + tr(" train"), run_color(int(i)), xs(*s), s->values});
        if (auto* s = r.series("val/loss")) {
            Curve c{run_label(r) + tr(" val"), run_color(int(i)), xs(*s), s->values, Qt::DashLine, 1.6, false, true};
            loss.push_back(c);
        }
        if (auto* s = r.series("train/lr")) lr.push_back({run_label(r), run_color(int(i)), xs(*s), s->values, Qt::SolidLine, 1.6, false});
        if (auto f = r.loss_floor(); f && floors.empty()) floors.push_back({*f, tr("loss floor (entropy rate)")});
    }
    loss_->setAxisTitles(xTitle(), tr("loss (nats/byte)"));
    lr_->setAxisTitles(xTitle(), tr("learning rate"));
    loss_->setHLines(floors);
    loss_->setCurves(std::move(loss));
    lr_->setCurves(std::move(lr));
}

std::vector<Curve> ChartsView::perLayerCurves(const std::string& name, bool by_layer_color) const {
    std::vector<Curve> out;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        const int L = r.layers(name);
        for (int l = 0; l < L; ++l)
            if (auto* s = r.series(name, l)) {
                QString label = runs_.size() > 1 ? QString("%1 · L%2").arg(run_label(r)).arg(l) : tr("layer %1").arg(l);
                out.push_back({label, layer_color(int(i), l, L, by_layer_color), s->steps, s->values, Qt::SolidLine, 1.5, false,
                               s->steps.size() < 40});
            }
    }
    return out;
}

void ChartsView::redrawGradients() {
    const std::string name = grad_norm_->currentData().toString().toStdString() + grad_weight_->currentData().toString().toStdString();
    grad_lines_->setTitle(QString("%1 — %2").arg(grad_norm_->currentText(), grad_weight_->currentText()));
    grad_lines_->setAxisTitles(tr("step"), grad_norm_->currentText());
    grad_lines_->setCurves(perLayerCurves(name, runs_.size() == 1));
    // one heatmap per run
    while (heatmaps_.size() > runs_.size()) {
        delete heatmaps_.back();
        heatmaps_.pop_back();
    }
    while (heatmaps_.size() < runs_.size()) {
        auto* h = new Heatmap(this);
        h->setObjectName(QString("heatmap%1").arg(heatmaps_.size()));
        h->setLogScale(heat_log_->isChecked());
        heat_box_->addWidget(h, 1);
        heatmaps_.push_back(h);
    }
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        const int L = r.layers(name);
        std::vector<double> steps;
        std::vector<std::vector<double>> rows(static_cast<size_t>(L));
        if (auto* s0 = r.series(name, 0)) steps = s0->steps;
        for (int l = 0; l < L; ++l) {
            auto& row = rows[static_cast<size_t>(l)];
            row.assign(steps.size(), std::nan(""));
            if (auto* s = r.series(name, l))
                for (size_t k = 0; k < s->steps.size(); ++k) {
                    auto it = std::lower_bound(steps.begin(), steps.end(), s->steps[k]);
                    if (it != steps.end() && *it == s->steps[k]) row[static_cast<size_t>(it - steps.begin())] = s->values[k];
                }
        }
        heatmaps_[i]->setTitle(QString("%1: %2").arg(run_label(r), QString::fromStdString(name)));
        heatmaps_[i]->setData(std::move(steps), std::move(rows));
    }
}

void ChartsView::redrawGains() {
    // names and steps offered
    std::set<std::string> names;
    for (auto& r : runs_)
        for (auto& n : r->distribution_names()) names.insert(n);
    {
        QSignalBlocker b(gain_name_);
        gain_name_->clear();
        for (auto& n : names) gain_name_->addItem(QString::fromStdString(n), QString::fromStdString(n));
        // the user's choice, else a LayerNorm gain (NormFormer Fig. 4 looks at the FFN-LN gains)
        int at = gain_name_->findData(gain_choice_);
        for (const char* pref : {"gain/ffn_norm", "gain/alpha_A", "gain/norm2", "gain/norm1"})
            if (at < 0) at = gain_name_->findData(QString(pref));
        gain_name_->setCurrentIndex(at >= 0 ? at : 0);
    }
    const std::string name = gain_name_->currentData().toString().toStdString();
    std::set<int64_t> step_set;   // every run's steps for this gain
    for (auto& r : runs_)
        for (int64_t st : r->distribution_steps(name)) step_set.insert(st);
    const std::vector<int64_t> steps(step_set.begin(), step_set.end());
    {
        QSignalBlocker b(gain_step_);
        const bool at_end = gain_step_->value() == gain_step_->maximum();
        gain_step_->setRange(0, std::max(0, static_cast<int>(steps.size()) - 1));
        if (at_end) gain_step_->setValue(gain_step_->maximum());   // follow a live run
    }
    const int64_t step = steps.empty() ? 0 : steps[static_cast<size_t>(gain_step_->value())];
    gain_step_label_->setText(steps.empty() ? tr("—") : QString::number(step));

    box_chart_->removeAllSeries();
    for (auto* a : box_chart_->axes()) {
        box_chart_->removeAxis(a);
        delete a;
    }
    box_chart_->setTitle(tr("%1 per layer at step %2").arg(QString::fromStdString(name)).arg(step));
    int max_layers = 0;
    double lo = 1e300, hi = -1e300;
    std::vector<Curve> hist;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        // the latest distribution at or before the chosen step, per layer
        std::map<int, const Distribution*> at;
        for (auto& d : r.distributions(name))
            if (d.step <= step) at[d.layer] = &d;
        if (at.empty()) continue;
        auto* series = new QBoxPlotSeries();
        series->setName(run_label(r));
        series->setBrush(run_color(int(i)).lighter(140));
        series->setPen(QPen(run_color(int(i)).darker(120), 1.2));
        for (auto& [layer, d] : at) {
            auto* set = new QBoxSet(d->min, d->q1, d->median, d->q3, d->max, layer < 0 ? tr("global") : QString("L%1").arg(layer));
            series->append(set);
            lo = std::min(lo, d->min);
            hi = std::max(hi, d->max);
            max_layers = std::max(max_layers, layer + 1);
            if (layer == gain_layer_->value() || (layer < 0 && at.size() == 1)) {
                Curve c{run_label(r), run_color(int(i)), {}, {}, Qt::SolidLine, 1.8, false};
                const double w = (d->hist_hi - d->hist_lo) / std::max<size_t>(1, d->hist.size());
                for (size_t b = 0; b < d->hist.size(); ++b) {   // step-shaped histogram
                    c.x.push_back(d->hist_lo + b * w);
                    c.y.push_back(d->hist[b]);
                    c.x.push_back(d->hist_lo + (b + 1) * w);
                    c.y.push_back(d->hist[b]);
                }
                hist.push_back(std::move(c));
            }
        }
        box_chart_->addSeries(series);
    }
    if (!box_chart_->series().isEmpty()) {
        box_chart_->createDefaultAxes();
        if (hi > lo)
            for (auto* a : box_chart_->axes(Qt::Vertical)) a->setRange(lo - 0.05 * (hi - lo), hi + 0.05 * (hi - lo));
    }
    {
        QSignalBlocker b(gain_layer_);
        gain_layer_->setRange(0, std::max(0, max_layers - 1));
    }
    hist_->setTitle(tr("Histogram of %1, layer %2, step %3").arg(QString::fromStdString(name)).arg(gain_layer_->value()).arg(step));
    hist_->setAxisTitles(tr("value"), tr("count"));
    hist_->setCurves(std::move(hist), false);
}

void ChartsView::redrawLayers() {
    const int i = layer_series_->currentIndex();
    const std::string name = layer_series_->currentData().toString().toStdString();
    layer_chart_->setTitle(layer_series_->currentText());
    layer_chart_->setAxisTitles(tr("step"), layer_series_->currentText());
    Q_UNUSED(i);
    layer_chart_->setCurves(perLayerCurves(name, runs_.size() == 1));
}

void ChartsView::redrawScalars() {
    const std::string name = scalar_series_->currentData().toString().toStdString();
    std::vector<Curve> curves;
    for (size_t i = 0; i < runs_.size(); ++i)
        if (auto* s = runs_[i]->series(name)) {
            std::vector<double> x(s->steps.size());
            for (size_t k = 0; k < x.size(); ++k) x[k] = runs_[i]->x_of(static_cast<int64_t>(s->steps[k]), xUnit());
            curves.push_back({run_label(*runs_[i]), run_color(int(i)), std::move(x), s->values, Qt::SolidLine, 1.6, false});
        }
    scalar_chart_->setTitle(scalar_series_->currentText());
    scalar_chart_->setAxisTitles(xTitle(), scalar_series_->currentText());
    scalar_chart_->setCurves(std::move(curves));
}

void ChartsView::setLogY(bool on) { log_->setChecked(on); }
bool ChartsView::logY() const { return log_->isChecked(); }
void ChartsView::setSmoothing(double s) { smooth_->setValue(static_cast<int>(std::round(s * 100))); }
double ChartsView::smoothing() const { return smooth_->value() / 100.0; }

QWidget* ChartsView::currentChart() const {
    switch (tabs_->currentIndex()) {
        case 0: return loss_;
        case 1: return grad_lines_;
        case 2: return box_view_;
        case 3: return layer_chart_;
        default: return scalar_chart_;
    }
}

// The tab's charts together, without its controls.
QWidget* ChartsView::currentPanel() const {
    const int i = tabs_->currentIndex();
    return i >= 0 && i < static_cast<int>(panels_.size()) ? panels_[static_cast<size_t>(i)] : tabs_->currentWidget();
}

bool ChartsView::exportCurrent(const QString& path, const QString& format, int dpi, bool whole_panel, QString* error) {
    QWidget* target = whole_panel ? currentPanel() : currentChart();
    const QString f = format.toLower();
    if (f == "csv") {
        if (auto* lc = qobject_cast<LineChart*>(currentChart())) return lc->exportCsv(path, error);
        // box plots: the five-number summaries of every run and layer at every step
        const std::string name = gain_name_->currentData().toString().toStdString();
        return write_text(path, [&](QTextStream& out) {
            out << "run_id,name,layer,step,count,min,q1,median,q3,max,mean,std\n";
            for (auto& r : runs_)
                for (auto& d : r->distributions(name))
                    out << r->id() << ',' << QString::fromStdString(d.name) << ',' << d.layer << ',' << d.step << ','
                        << d.count << ',' << d.min << ',' << d.q1 << ',' << d.median << ',' << d.q3 << ',' << d.max << ','
                        << d.mean << ',' << d.std << '\n';
        }, error);
    }
    if (!whole_panel)
        if (auto* lc = qobject_cast<LineChart*>(target)) return lc->exportFigure(path, format, dpi, error);
    return export_widget(target, path, format, dpi, error);
}

}  // namespace normlab
