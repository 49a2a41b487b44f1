// NormLab widgets: which chart a view shows, choosing a view by name
// (normlab figure), and exporting the current chart or panel (see chartsview.h).
#include "widgets/chartsview.h"
#include "widgets/chart_card.h"
#include "widgets/blockview.h"

#include "widgets/figure.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/math_text.h"
#include "widgets/plot_figure.h"
#include "widgets/sweep.h"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QPainter>
#include <QTabWidget>

namespace normlab {

QWidget* ChartsView::currentChart() const {
    switch (tabs_->currentIndex()) {
        case kLossTab: return loss_;
        case kGradTab: return grad_lines_;
        case kGainsTab: return box_card_;   // the box plots and their legend
        case kLayersTab: return layer_chart_;
        case kScalarsTab: return scalar_chart_;
        case kSweepTab: return sweep_;
        case kBlockTab: return block_;
    }
    return nullptr;
}

// The tab's charts together, without its controls.
QWidget* ChartsView::currentPanel() const {
    const int i = tabs_->currentIndex();
    return i >= 0 && i < static_cast<int>(panels_.size()) ? panels_[static_cast<size_t>(i)] : tabs_->currentWidget();
}

std::vector<ChartsView::PaneRow> ChartsView::figureRows(bool whole_panel, double width_mm, double font_pt) const {
    auto line = [](const LineChart* c, double share) {
        auto spec = std::make_shared<PlotSpec>(plot_spec(*c));
        return PaneRow{share, {[spec](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_plot(p, r, *spec, u); }},
                       [spec](double w, double pt, double aspect) { return plot_height_mm(*spec, w, pt, aspect); }};
    };
    auto boxes = [this](double share) {
        auto spec = std::make_shared<BoxSpec>(box_spec_);
        return PaneRow{share, {[spec](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_boxes(p, r, *spec, u); }},
                       [spec](double w, double pt, double aspect) { return boxes_height_mm(*spec, w, pt, aspect); }};
    };
    const int tab = tabs_->currentIndex();
    if (tab == kSweepTab) {   // one chart, alone on its tab
        auto spec = std::make_shared<SweepSpec>(sweep_->spec());
        return {PaneRow{1, {[spec](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_sweep(p, r, *spec, u); }},
                        [spec](double w, double pt, double aspect) { return sweep_height_mm(*spec, w, pt, aspect); }}};
    }
    if (tab == kBlockTab) {   // the blocks side by side, in rows, their text at the font or a little under it
        std::vector<PaneRow> rows;
        BlockRows packed = block_rows(block_->panels(), width_mm, font_pt);
        const double k = font_pt > 0 ? packed.font_pt / font_pt : 1;
        for (auto& row : packed.rows) {
            auto panels = std::make_shared<std::vector<BlockPanel>>(std::move(row));
            rows.push_back(PaneRow{1, {[panels, k](QPainter& p, const QRectF& r, const PrintUnits& u) {
                                           draw_blocks_print(p, r, *panels, PrintUnits{u.px_per_mm, u.font_pt * k});
                                       }},
                                   [panels, k](double w, double pt, double) { return blocks_height_mm(*panels, w, pt * k); }});
        }
        return rows;
    }
    if (!whole_panel) {
        if (tab == kGainsTab) return {boxes(1)};
        if (auto* c = qobject_cast<LineChart*>(currentChart())) return {line(c, 1)};
        return {};
    }
    switch (tab) {
        case kLossTab: {   // the learning rate under the loss, on its step axis
            auto spec = std::make_shared<StackSpec>(StackSpec{{plot_spec(*loss_), plot_spec(*lr_)}, {0.65, 0.35}});
            return {PaneRow{1, {[spec](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_stack(p, r, *spec, u); }},
                            [spec](double w, double pt, double aspect) { return stack_height_mm(*spec, w, pt, aspect); }}};
        }
        case kGradTab: {
            std::vector<PaneRow> rows{line(grad_lines_, 0.5)};
            // the heatmaps under the lines as small multiples: a row of two in a column's width, four in a
            // page's; each titled by its run (the lines' title says the rest); on one scale one colour bar a
            // row, and one layer axis where the runs have as many layers
            // not those of runs with nothing of it to draw (a panel of nothing): `normlab figure` names them
            std::vector<HeatSpec> all;   // on one step axis, as the lines above
            for (auto* h : heat_shown_) {
                if (h->rows().empty()) continue;
                all.push_back(heat_spec(*h));
                if (!h->shortTitle().isEmpty()) all.back().title = h->shortTitle();
            }
            const size_t n = all.size();
            const size_t per_row = std::clamp<size_t>(static_cast<size_t>(width_mm / 42), 1, std::max<size_t>(1, n));
            const size_t n_rows = (n + per_row - 1) / per_row;
            share_steps(all);
            for (size_t k = 0; k < n; k += per_row) {
                auto specs = std::make_shared<std::vector<HeatSpec>>(all.begin() + static_cast<std::ptrdiff_t>(k),
                                                                     all.begin() + static_cast<std::ptrdiff_t>(std::min(n, k + per_row)));
                frame_small_multiples(*specs, heat_shared_->isChecked());
                // a short last row with cells as wide as a full row's
                rows.push_back(PaneRow{0.5 / static_cast<double>(std::max<size_t>(1, n_rows)),
                                       {[specs, per_row](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_heatmap_row(p, r, *specs, u, per_row); }},
                                       // its plots a third as high as wide
                                       [specs, per_row](double w, double pt, double) { return heatmap_row_height_mm(*specs, w, pt, 0.3, per_row); }});
            }
            return rows;
        }
        case 2: return {boxes(0.6), line(hist_, 0.4)};
        case 3: return {line(layer_chart_, 1)};
        case 4: return {line(scalar_chart_, 1)};
    }
    return {};
}

double ChartsView::figureTextPt(double width_mm, double font_pt) const {
    if (tabs_->currentIndex() != kBlockTab) return font_pt;
    return block_rows(block_->panels(), width_mm, font_pt).smallest_pt;
}

bool ChartsView::exportFigure(const QString& path, const QString& format, int dpi, bool whole_panel, double width_mm,
                              double height_mm, double font_pt, QString* error) {
    const std::vector<PaneRow> rows = figureRows(whole_panel, width_mm, font_pt);
    if (rows.empty()) {
        if (error) *error = tr("this view has no chart to export");
        return false;
    }
    // each row's share of the page: of the height given, or what it needs with a plot as high as its share
    // says (the first row's plot default_aspect × as high as wide)
    std::vector<double> heights;
    for (auto& row : rows)
        heights.push_back(height_mm > 0 ? row.share * height_mm
                                        : row.height_mm(width_mm / row.cells.size(), font_pt,
                                                       default_aspect(width_mm) * row.share / rows.front().share));
    double total = 0;
    for (double h : heights) total += h;
    return write_print(path, format, width_mm, total, font_pt, dpi, tabs_->tabText(tabs_->currentIndex()),
                       [&](QPainter& p, const QRectF& r, const PrintUnits& u) {
                           double y = r.top();
                           for (size_t i = 0; i < rows.size(); ++i) {
                               const double h = r.height() * heights[i] / total, w = r.width() / rows[i].cells.size();
                               for (size_t k = 0; k < rows[i].cells.size(); ++k) rows[i].cells[k](p, QRectF(r.left() + k * w, y, w, h), u);
                               y += h;
                           }
                       },
                       error);
}

bool ChartsView::exportCurrent(const QString& path, const QString& format, int dpi, bool whole_panel, QString* error) {
    QWidget* target = whole_panel ? currentPanel() : currentChart();
    if (!target) {
        if (error) *error = tr("this view has no chart to export");
        return false;
    }
    const QString f = format.toLower();
    if (f == "csv") {
        if (whole_panel && tabs_->currentIndex() == kLossTab) {   // the loss and the learning rate: a column names the chart
            std::vector<const LineChart*> charts;
            for (const LineChart* c : {loss_, lr_})
                if (c->curves().empty() || c->curvesHidden() < c->curves().size()) charts.push_back(c);
            if (charts.empty()) {
                if (error) *error = LineChart::tr("every curve is hidden: click a run in the legend to show it, then export");
                return false;
            }
            return write_text(path, [&](QTextStream& out) {
                out << "chart,curve," << loss_->csvXTitle() << ",value\n";
                for (const LineChart* c : charts) c->writeCsvRows(out, math_text::plain(c->title().isEmpty() ? c->yTitle() : c->title()));
            }, error);
        }
        if (auto* lc = qobject_cast<LineChart*>(currentChart())) return lc->exportCsv(path, error);
        if (currentChart() == sweep_) return sweep_->exportCsv(path, error);
        if (currentChart() == block_) {
            if (block_->panels().empty()) {
                if (error) *error = tr("this view has no chart to export");
                return false;
            }
            return write_text(path, [this](QTextStream& out) { write_blocks_csv(out, block_->panels()); }, error);
        }
        // box plots: the five-number summaries of every run shown and layer at every step
        const std::string name = gain_name_->currentData().toString().toStdString();
        std::vector<const RunData*> shown;
        for (auto& r : runs_)
            if (!box_hidden_.contains(runLabel(*r))) shown.push_back(r.get());
        if (shown.empty() && !runs_.empty()) {
            if (error) *error = tr("every run is hidden: click one in the legend to show it, then export");
            return false;
        }
        // The panel adds the histogram: a `chart` column, and each bin shown as its edges and count.
        const bool panel = whole_panel && tabs_->currentIndex() == kGainsTab;
        return write_text(path, [&](QTextStream& out) {
            out << (panel ? "chart," : "") << "run_id,name,layer,step,count,min,q1,median,q3,max,mean,std"
                << (panel ? ",bin_lo,bin_hi\n" : "\n");
            for (auto* r : shown)
                for (auto& d : r->distributions(name))
                    out << (panel ? "boxes," : "") << r->id() << ',' << QString::fromStdString(d.name) << ',' << d.layer << ','
                        << d.step << ',' << d.count << ',' << d.min << ',' << d.q1 << ',' << d.median << ',' << d.q3 << ','
                        << d.max << ',' << d.mean << ',' << d.std << (panel ? ",,\n" : "\n");
            if (panel) {
                out.setRealNumberPrecision(10);
                for (const HistBins& h : hist_bins_)
                    for (size_t b = 0; b < h.counts.size(); ++b)
                        out << "histogram," << h.run << ',' << h.name << ',' << h.layer << ',' << h.step << ','
                            << h.counts[b] << ",,,,,,,," << h.lo + b * h.width << ',' << h.lo + (b + 1) * h.width << '\n';
            }
        }, error);
    }
    // the size it has on screen, at 96 px an inch
    const QSize px = target->size().isEmpty() ? QSize(760, 470) : target->size();
    return exportFigure(path, format, dpi, whole_panel, px.width() * 25.4 / 96, px.height() * 25.4 / 96, kScreenFigurePt, error);
}

bool ChartsView::showView(const QString& view, const QString& weight, const QString& norm, const QString& probe,
                          QString* error) {
    const QStringList views = {"loss", "gradients", "gains", "layers", "scalars", "sweep", "block"};
    const int tab = views.indexOf(view);
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (tab < 0) return fail(QString("--view %1 is not one of %2").arg(view, views.join(", ")));
    auto pick = [&](QComboBox* combo, const QString& option, const QString& value, const QString& prefix = {}) {
        if (value.isEmpty()) return true;
        const int i = combo->findData(prefix + value);
        if (i >= 0) {
            combo->setCurrentIndex(i);
            return true;
        }
        QStringList have;
        for (int k = 0; k < combo->count(); ++k) {   // as the option takes them: "fc2", "gain/norm1"
            QString name = combo->itemData(k).toString().mid(prefix.size());
            if (!prefix.isEmpty() && name.startsWith('/')) name.remove(0, 1);
            if (name.endsWith('/')) name.chop(1);   // a norm's prefix, "l1/": as --norm takes it, "l1"
            have << name;
        }
        const QString given = value.endsWith('/') ? value.chopped(1) : value;
        if (error) *error = QString("%1 %2 is not one of: %3").arg(option, given, have.join(", "));
        return false;
    };
    if (!probe.isEmpty() && tab != kLayersTab && tab != kScalarsTab && tab != kGainsTab && tab != kSweepTab)
        return fail(QString("--probe is for --view layers, scalars, gains or sweep"));
    if ((!weight.isEmpty() || !norm.isEmpty()) && tab != kGradTab) return fail(QString("--weight and --norm are for --view gradients"));
    if (tab == kGradTab && !(pick(grad_weight_, "--weight", weight) && pick(grad_norm_, "--norm", norm.isEmpty() ? QString() : norm + "/", "grad_")))
        return false;
    if (tab == kLayersTab && !pick(layer_series_, "--probe", probe)) return false;
    if (tab == kScalarsTab && !pick(scalar_series_, "--probe", probe)) return false;
    if (tab == kSweepTab && !pick(sweep_metric_, "--probe", probe)) return false;
    tabs_->setCurrentIndex(tab);
    stale_[static_cast<size_t>(tab)] = true;
    redrawTab(tab);
    if (tab == kGainsTab && !probe.isEmpty()) {   // the gains' names come from the runs, known once drawn
        if (!pick(gain_name_, "--probe", probe)) return false;
        gain_choice_ = gain_name_->currentData().toString();
        stale_[static_cast<size_t>(tab)] = true;
        redrawTab(tab);
    }
    return true;
}

}  // namespace normlab
