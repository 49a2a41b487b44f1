// NormLab widgets: LineChart's legend on screen (see linechart.h and
// chart_legend.h) — its entries, where it stands on the chart's card
// (chart_card.h), and the curves a click on it hides.
#include "widgets/linechart.h"

#include "widgets/chart_card.h"
#include "widgets/chart_legend.h"
#include "widgets/plot_figure.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QMenu>
#include <QScatterSeries>
#include <QStyle>

#include <algorithm>

namespace normlab {

// Several runs' per-layer lines: each run once, its marker the run's ramp from its first layer's colour to
// its last's, and the layers it spans ("NormFormer · layers 0–3", or once in a grey key where they all span
// the same); runs each drawn as several kinds of line (train
// solid, validation dashed): each run once in its colour and each kind once with its dash, as a
// figure's legend has them (legend_entries). Otherwise each curve by its name. Then the reference
// lines, dashed as drawn, and the non-finite marker (listed while such a value is shown).
void LineChart::makeLegendEntries() {
    entry_keys_.clear();
    entry_curves_.clear();
    entry_hline_.clear();
    std::vector<ChartLegend::Entry> out;
    auto run_of = [](const Curve& c) { return c.run.isEmpty() ? c.label : c.run; };
    QStringList runs, parts;
    bool layered = false;
    for (const Curve& c : curves_) {
        layered = layered || c.layer >= 0;
        if (!runs.contains(run_of(c))) runs << run_of(c);
        if (!c.part.isEmpty() && !parts.contains(c.part)) parts << c.part;
    }
    auto add = [&](ChartLegend::Entry e, const QString& key, std::vector<size_t> named, int hline) {
        out.push_back(std::move(e));
        entry_keys_.push_back(key);
        entry_curves_.push_back(std::move(named));
        entry_hline_.push_back(hline);
    };
    if (runs.size() >= 2 && (layered || parts.size() >= 2)) {
        for (const LegendEntry& e : legend_entries(curves_, {})) {
            if (layered && e.ramp.empty()) continue;
            ChartLegend::Entry en;
            en.text = e.text;
            en.color = e.color;
            en.style = e.style;
            if (layered) en.marker = ChartLegend::Marker::Ramp, en.ramp = e.ramp;
            if (e.key) {   // the layers every run's ramp goes through: it hides nothing
                en.clickable = false;
                en.group = 3;
                add(en, {}, {}, -1);
                continue;
            }
            en.group = e.part.isEmpty() ? 0 : 1;
            std::vector<size_t> named;
            for (size_t i = 0; i < curves_.size(); ++i)
                if (e.part.isEmpty() ? run_of(curves_[i]) == e.run : curves_[i].part == e.part) named.push_back(i);
            add(en, e.part.isEmpty() ? "run:" + e.run : "part:" + e.part, std::move(named), -1);
        }
    } else {
        for (size_t i = 0; i < curves_.size(); ++i) {
            const Curve& c = curves_[i];
            if (!c.legend) continue;
            ChartLegend::Entry en;
            en.text = c.label;
            en.color = c.color;
            en.style = c.style;
            add(en, "curve:" + c.label, {i}, -1);
        }
    }
    for (size_t h = 0; h < hlines_.size(); ++h) {
        ChartLegend::Entry en;
        en.text = hlines_[h].second;
        en.color = QColor(110, 110, 110);
        en.style = reference_line_style(h);
        en.group = 2;
        add(en, "line:" + hlines_[h].second, {}, static_cast<int>(h));
    }
    ChartLegend::Entry bad;
    bad.text = tr("non-finite value");
    bad.marker = ChartLegend::Marker::Triangle;
    bad.color = QColor(200, 30, 30);
    bad.clickable = false;
    bad.listed = false;
    nonfinite_entry_ = static_cast<int>(out.size());
    add(bad, QString(), {}, -1);
    legend_->setEntries(std::move(out));
}

void LineChart::applyShown() {
    curve_shown_.assign(curves_.size(), 1);
    hline_shown_.assign(hlines_.size(), 1);
    for (size_t e = 0; e < entry_keys_.size(); ++e) {
        const bool hidden = !entry_keys_[e].isEmpty() && keyHidden(entry_keys_[e]);
        legend_->setHiddenEntry(static_cast<int>(e), hidden);
        if (!hidden) continue;
        for (size_t i : entry_curves_[e]) curve_shown_[i] = 0;
        if (entry_hline_[e] >= 0) hline_shown_[static_cast<size_t>(entry_hline_[e])] = 0;
    }
    for (size_t i = 0; i < curves_.size() && i < raw_series_.size(); ++i) {
        const bool on = curve_shown_[i];
        raw_series_[i]->setVisible(on);
        if (smooth_series_[i]) smooth_series_[i]->setVisible(on);
        if (marker_series_[i]) marker_series_[i]->setVisible(on);
        if (band_series_[i]) band_series_[i]->setVisible(on);
    }
    for (size_t h = 0; h < hline_series_.size(); ++h) hline_series_[h]->setVisible(hline_shown_[h]);
}

bool LineChart::keyHidden(const QString& key) const {
    return std::find(hidden_keys_.begin(), hidden_keys_.end(), key) != hidden_keys_.end();
}

// What the legend hides changed: the plot, its ranges (unless zoomed) and a pinned readout follow.
void LineChart::shownChanged() {
    applyShown();
    if (!zoomed_) fitRanges();
    redraw();
    if (pinned_) refreshPinnedReadout();
}

void LineChart::toggleLegendEntry(int index) {
    if (index < 0 || index >= static_cast<int>(entry_keys_.size()) || entry_keys_[index].isEmpty()) return;
    const QString& key = entry_keys_[static_cast<size_t>(index)];
    if (keyHidden(key)) hidden_keys_.erase(std::find(hidden_keys_.begin(), hidden_keys_.end(), key));
    else hidden_keys_.push_back(key);
    shownChanged();
}

// Only this entry among those of its kind (the runs, the kinds of line, the reference lines); when
// all the others are hidden already, all of them again.
void LineChart::showOnlyLegendEntry(int index) {
    const auto& entries = legend_->entries();
    if (index < 0 || index >= static_cast<int>(entries.size()) || entry_keys_[index].isEmpty()) return;
    const int group = entries[static_cast<size_t>(index)].group;
    bool others_hidden = true;
    for (size_t e = 0; e < entries.size(); ++e)
        if (static_cast<int>(e) != index && entries[e].group == group && !entry_keys_[e].isEmpty())
            others_hidden = others_hidden && keyHidden(entry_keys_[e]);
    for (size_t e = 0; e < entries.size(); ++e) {
        if (entries[e].group != group || entry_keys_[e].isEmpty()) continue;
        const QString& key = entry_keys_[e];
        const bool hide = !others_hidden && static_cast<int>(e) != index;
        hidden_keys_.erase(std::remove(hidden_keys_.begin(), hidden_keys_.end(), key), hidden_keys_.end());
        if (hide) hidden_keys_.push_back(key);
    }
    shownChanged();
}

void LineChart::showAllLegendEntries() {
    if (hidden_keys_.empty()) return;
    hidden_keys_.clear();
    shownChanged();
}

// Right-click on the legend: what a click and a double-click do, said in words, and every line back.
void LineChart::legendMenu(const QPoint& pos) {
    const int at = legend_->entryAt(pos);
    QMenu menu(this);
    if (at >= 0 && !entry_keys_[static_cast<size_t>(at)].isEmpty()) {
        const ChartLegend::Entry& e = legend_->entries()[static_cast<size_t>(at)];
        QAction* toggle = menu.addAction(e.hidden ? tr("Show “%1”").arg(e.text) : tr("Hide “%1”").arg(e.text));
        connect(toggle, &QAction::triggered, this, [this, at] { toggleLegendEntry(at); });
        QAction* only = menu.addAction(tr("Show only “%1”").arg(e.text));
        connect(only, &QAction::triggered, this, [this, at] {
            showAllLegendEntries();
            showOnlyLegendEntry(at);
        });
    }
    QAction* all = menu.addAction(tr("Show all lines"));
    all->setEnabled(!hidden_keys_.empty());
    connect(all, &QAction::triggered, this, &LineChart::showAllLegendEntries);
    menu.exec(legend_->mapToGlobal(pos));
}

size_t LineChart::curvesHidden() const {
    size_t n = 0;
    for (size_t i = 0; i < curves_.size(); ++i) n += !curveShown(i);
    return n;
}

QStringList LineChart::legendShown() const { return card_->legendShown() ? legend_->textsListed() : QStringList(); }

Qt::Alignment LineChart::legendAlignment() const { return legend_->column() ? Qt::AlignRight : Qt::AlignBottom; }

// Rows below the plot where they take at most two rows or under a third of the chart's height;
// else a column beside it, as wide as its widest entry up to 40% of the chart (longer names elided,
// whole in their tooltips), scrolled where its entries are more than the chart is high. A low chart
// (a laptop's Gradients tab over its heatmaps) keeps its height for the plot (two rows below made
// its y title "gradi…(log)"): beside it, unless one row holds every entry and a column would take
// half the width. Lower than kLegendMinHeight (the learning rate under the loss on a laptop) the legend gives
// its room to the plot (with it, Qt Charts elided every tick label); the readout still names each
// curve and an export draws the legend.
void LineChart::placeLegend() {
    if (legend_->listedCount() == 0 || height() < kLegendMinHeight) {
        card_->hideLegend();
        return;
    }
    const int w = std::max(120, width() - 22), h = height();
    const int widest = legend_->widestEntry() + 8;
    legend_->setColumn(false);
    const int rows = legend_->rowsAt(w);
    const bool below = h < kLegendBelowMinHeight ? rows == 1 && widest + 24 >= w / 2   // low: only a row a column would not beat
                                                 : rows <= 2 || legend_->heightForWidth(w) <= h / 3;
    legend_->setColumn(!below);   // before the column's height is asked
    if (below) {
        card_->placeRows(legend_->heightForWidth(w));
    } else {
        const bool scrolls = legend_->heightForWidth(w) > h - 40;   // a column's height is its entries'
        const int bar = scrolls ? style()->pixelMetric(QStyle::PM_ScrollBarExtent) : 0;
        card_->placeColumn(std::min(widest + bar, static_cast<int>(0.4 * w)));
    }
}

}  // namespace normlab
