// NormLab widgets: the Gradients view of ChartsView: per-layer gradient
// norms of one weight for every selected run, and a layer × step heatmap per run.
#include "widgets/chartsview.h"

#include "widgets/figure.h"
#include "widgets/flow_layout.h"
#include "widgets/heatmap.h"
#include "widgets/heatmap_grid.h"
#include "widgets/linechart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStyle>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <cmath>

namespace normlab {

QWidget* ChartsView::buildGradTab() {
    auto* w = new FlowPage(this);   // scrolls only where the view is lower than what it needs at least
    grad_page_ = w;
    auto* v = new QVBoxLayout(w);
    auto* bar = new FlowLayout();   // wraps where the window is narrow (a laptop's, in German)
    grad_bar_ = bar;
    grad_weight_ = new QComboBox(w);
    grad_weight_->setObjectName("gradWeight");
    for (const char* n : {"fc2", "fc1", "q", "k", "v", "o", "norm1", "norm2", "ffn_norm", "post_attn_norm", "head_scale"})
        grad_weight_->addItem(n, QString(n));
    grad_norm_ = new QComboBox(w);
    grad_norm_->setObjectName("gradNorm");
    addTrItem(grad_norm_, QT_TR_NOOP("mean |∂L/∂W| (L1)"), "grad_l1/");
    addTrItem(grad_norm_, QT_TR_NOOP("‖∂L/∂W‖_F (L2)"), "grad_l2/");
    addTrItem(grad_norm_, QT_TR_NOOP("expected gradient ‖E[∂L/∂W]‖ at init"), "grad_expected_l2/");
    heat_log_ = trCheckBox(QT_TR_NOOP("log color scale"), w);
    heat_log_->setChecked(true);
    heat_shared_ = trCheckBox(QT_TR_NOOP("one scale for all runs"), w);
    heat_shared_->setObjectName("heatShared");
    heat_shared_->setChecked(true);
    setTrToolTip(heat_shared_, QT_TR_NOOP("Compared runs share one colour scale, so a colour means the same value in each; off: each run its own"));
    // a label and its field stay together on one row
    auto labelled = [w](QWidget* label, QWidget* field) {
        auto* box = new QWidget(w);
        auto* h = new QHBoxLayout(box);
        h->setContentsMargins(0, 0, 0, 0);
        h->addWidget(label);
        h->addWidget(field);
        return box;
    };
    bar->addWidget(labelled(trLabel(QT_TR_NOOP("weight"), w), grad_weight_));
    bar->addWidget(labelled(trLabel(QT_TR_NOOP("norm"), w), grad_norm_));
    bar->addWidget(heat_log_);
    bar->addWidget(heat_shared_);
    grad_logx_ = trCheckBox(QT_TR_NOOP("log x"), w);
    grad_logx_->setObjectName("gradLogX");
    bar->addWidget(grad_logx_);
    v->addLayout(bar);
    auto* split = new QSplitter(Qt::Vertical, w);
    grad_split_ = split;
    panels_.push_back(split);
    grad_lines_ = new LineChart(split);
    grad_lines_->setObjectName("gradChart");
    grad_lines_->setLogY(true);
    grad_lines_->setSmoothing(0);
    connect(grad_logx_, &QCheckBox::toggled, grad_lines_, &LineChart::setLogX);
    heat_grid_ = new HeatmapGrid(split);
    heat_grid_->setObjectName("heatGrid");
    split->addWidget(grad_lines_);
    split->addWidget(heat_grid_);
    split->setStretchFactor(0, 2);   // the line chart first: the heatmaps give way
    split->setStretchFactor(1, 1);
    split->setSizes({600, 300});
    v->addWidget(split, 1);
    connect(grad_weight_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawGradients(); });
    connect(grad_norm_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { redrawGradients(); });
    connect(heat_log_, &QCheckBox::toggled, this, [this](bool on) {
        for (auto* h : heatmaps_) h->setLogScale(on);
        redrawGradients();   // the shared scale depends on it
    });
    connect(heat_shared_, &QCheckBox::toggled, this, [this] { redrawGradients(); });   // and the colour bars with it
    return w;
}

std::vector<Curve> ChartsView::perLayerCurves(const std::string& name, bool by_layer_color) const {
    std::vector<Curve> out;
    std::vector<size_t> owner;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        const int L = r.layers(name);
        for (int l = 0; l < L; ++l)
            if (auto* s = r.series(name, l)) {
                // "layer 1", never "L1": a gradient's "L1 norm" must not read as a layer
                QString label = runs_.size() > 1 ? QString("%1 · %2").arg(runLabel(r), tr("layer %1").arg(l)) : tr("layer %1").arg(l);
                out.push_back({label, layerColor(runColor(r), l, L, by_layer_color, dark_), s->steps, s->values, Qt::SolidLine, 1.5,
                               false, s->steps.size() < 40});
                if (dark_) out.back().print_color = layerColor(runColor(r), l, L, by_layer_color);
                // Several runs: the legend lists each run once with its ramp (LineChart, by run and
                // layer); the readout names every layer.
                out.back().run = runLabel(r);
                out.back().layer = l;
                owner.push_back(i);
            }
    }
    return grouped(std::move(out), owner);
}

void ChartsView::redrawGradients() {
    const std::string name = grad_norm_->currentData().toString().toStdString() + grad_weight_->currentData().toString().toStdString();
    grad_lines_->setTitle(QString("%1 — %2").arg(grad_norm_->currentText(), grad_weight_->currentText()));
    grad_lines_->setAxisTitles(tr("step"), grad_norm_->currentText(), tr("gradient"));
    // Per run, once a redraw: whether it has this weight's gradients, and whether its model lacks the
    // weight (it records this norm of other weights' gradients, not this one's).
    const std::string norm = grad_norm_->currentData().toString().toStdString();
    std::vector<char> has(runs_.size()), lacks(runs_.size());
    for (size_t i = 0; i < runs_.size(); ++i) {
        has[i] = runs_[i]->layers(name) > 0;
        for (int k = 0; !has[i] && !lacks[i] && k < grad_weight_->count(); ++k)
            lacks[i] = runs_[i]->layers(norm + grad_weight_->itemData(k).toString().toStdString()) > 0;
    }
    // no run has it, while some record other weights': their models have none ("yet" would mislead)
    const bool no_such_weight = std::count(has.begin(), has.end(), 1) == 0 && std::count(lacks.begin(), lacks.end(), 1) > 0;
    grad_lines_->setEmptyHint(no_such_weight ? weightHint(grad_weight_->currentData().toString())
                                             : emptyHint(name, grad_norm_->currentText()));
    grad_lines_->setNote(noteLacking(kGradTab, [&](const RunData& r) { return r.layers(name) > 0; }));
    grad_lines_->setCurves(perLayerCurves(name, runs_.size() == 1));
    // one heatmap per run
    while (heatmaps_.size() > runs_.size()) {
        delete heatmaps_.back();
        heatmaps_.pop_back();
    }
    while (heatmaps_.size() < runs_.size()) {
        auto* h = new Heatmap(heat_grid_);
        h->setObjectName(QString("heatmap%1").arg(heatmaps_.size()));
        h->setLogScale(heat_log_->isChecked());
        heatmaps_.push_back(h);
    }
    heat_shown_.clear();
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunData& r = *runs_[i];
        const int L = r.layers(name);
        if (!lacks[i]) heat_shown_.push_back(heatmaps_[i]);
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
        // the run, then what the line chart's title says (not the store's series name)
        heatmaps_[i]->setTitle(QString("%1: %2").arg(runLabel(r), grad_lines_->title()), runLabel(r));
        heatmaps_[i]->setToolTip(heatmaps_[i]->title());
        heatmaps_[i]->setData(std::move(steps), std::move(rows));
    }
    // One colour scale for all runs by default, so a colour means the same value in each.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (auto* h : heat_shown_) lo = std::min(lo, h->dataMin()), hi = std::max(hi, h->dataMax());
    const bool shared = heat_shared_->isChecked() && heat_shown_.size() > 1 && lo <= hi;
    for (auto* h : heatmaps_)
        h->setRange(shared ? lo : std::nan(""), shared ? hi : std::nan(""));
    placeHeatmaps();   // after the data: one colour bar for a shared scale, one layer axis for as many layers
}

void ChartsView::placeHeatmaps() {
    const int n = static_cast<int>(heat_shown_.size());
    auto* area = qobject_cast<QScrollArea*>(tabs_->widget(kGradTab));
    if (!area) return;
    if (n == 0) {   // no run, or none with this weight: the grid lets go of the heatmaps (deleted or hidden)
        heat_grid_->place({}, 1, false, false);
        return;
    }
    // (a live redraw of the same heatmaps in the same room keeps them where they are)
    // One colour bar a row where the runs share the scale, one layer axis where they have as many layers.
    const bool shared = heat_shared_->isChecked() && n > 1;
    const bool same_layers = std::all_of(heat_shown_.begin(), heat_shown_.end(),
                                         [&](const Heatmap* h) { return h->rows().size() == heat_shown_.front()->rows().size(); });
    // What the page needs in height with `rows` rows of heatmaps, at the area's width (the
    // controls wrap); the area's own size, not its viewport's, so a scroll bar's coming or going
    // does not change the choice.
    const QMargins m = grad_page_->layout()->contentsMargins();
    const int width = area->width();
    const int fixed = grad_page_->heightForWidth(width) - grad_split_->minimumSizeHint().height() +
                      grad_lines_->minimumHeight() + grad_split_->handleWidth();
    const int min_height = heat_shown_.front()->minimumHeight();
    auto need = [&](int columns) {
        const int rows = (n + columns - 1) / columns;
        return fixed + rows * min_height + (rows - 1) * HeatmapGrid::kSpacing;
    };
    auto choose = [&](int inner) {
        int widest = 1;
        while (widest < n && HeatmapGrid::minimumRowWidth(widest + 1, shared, same_layers) <= inner) ++widest;
        int columns = std::min(n > 2 ? 2 : 1, widest);
        while (columns < widest && need(columns) > area->height()) ++columns;
        // no more columns than its rows need (four runs in three columns are two rows, as in two)
        const int rows = (n + columns - 1) / columns;
        return (n + rows - 1) / rows;
    };
    int columns = choose(width - m.left() - m.right());
    // Rows that scroll bring a vertical scroll bar, which takes its width from the row's: the columns
    // fit beside it (16 runs scrolled sideways too, the last column and the legend cut at the edge).
    if (need(columns) > area->height())
        columns = choose(width - m.left() - m.right() - area->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, area) -
                         2 * area->frameWidth());
    if (heat_grid_->placedAs(heat_shown_, columns, shared, same_layers)) return;
    heat_grid_->place(heat_shown_, columns, shared, same_layers);
}

bool ChartsView::eventFilter(QObject* watched, QEvent* e) {
    if (e->type() == QEvent::Resize && watched == tabs_->widget(kGradTab)) placeHeatmaps();
    return QWidget::eventFilter(watched, e);
}

}  // namespace normlab
