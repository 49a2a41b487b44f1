// NormLab widgets: LineChart's drawing of the visible range (see
// linechart.h) — each curve reduced per pixel column and pushed with one
// replace(), its band's edges, the non-finite markers — and the footer that
// says what was drawn and what was left out.
#include "widgets/linechart.h"

#include "widgets/chart_legend.h"
#include "widgets/figure.h"

#include <QAreaSeries>
#include <QChart>
#include <QEvent>
#include <QLabel>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace normlab {

namespace {
// A band's edge for the visible range: per pixel column its highest (upper
// edge) or lowest (lower edge) value, so a band of any length costs at most a
// few points per pixel and never hides a spread; non-finite values (and
// values ≤ 0 on a log axis) are left out.
QList<QPointF> envelope(const std::vector<double>& xs, const std::vector<double>& ys, double x0, double x1, int columns,
                        bool log_y, bool upper) {
    QList<QPointF> out;
    const double w = (x1 - x0) / std::max(1, columns);
    int col = std::numeric_limits<int>::min();
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
        double y = ys[i];
        if (!std::isfinite(xs[i]) || !std::isfinite(y) || (log_y && y <= 0)) continue;
        if (log_y) y = std::log10(y);
        const int c = static_cast<int>(std::floor((xs[i] - x0) / (w > 0 ? w : 1)));
        if (c < -1 || c > columns + 1) continue;   // one point beyond each side keeps the edges joined
        if (c == col && !out.isEmpty()) {
            QPointF& p = out.back();
            p.setY(upper ? std::max(p.y(), y) : std::min(p.y(), y));
        } else {
            out.append(QPointF(xs[i], y));
            col = c;
        }
    }
    return out;
}
}  // namespace

void LineChart::redraw() {
    applyAxisTitles();
    auto* xa = static_cast<QValueAxis*>(x_axis_);
    const double x0 = xa->min(), x1 = xa->max();
    const int columns = std::max(50, static_cast<int>(chart_->plotArea().width()));
    drawn_ = 0;
    hidden_nonpositive_ = 0;
    nonfinite_count_ = 0;
    double ytop = 0;
    {
        auto* ya = static_cast<QValueAxis*>(y_axis_);   // in log10 units on a log axis
        ytop = ya->max() - 0.03 * (ya->max() - ya->min());
    }
    QList<QPointF> bad;
    for (size_t i = 0; i < curves_.size(); ++i) {
        if (!curveShown(i)) continue;   // hidden by the legend (its series too)
        const View c = viewOf(i);
        // The caption counts the data's own vertices: a smoothed line drawn over them is not more data.
        auto push = [&](QLineSeries* s, const std::vector<double>& ys, bool counted) {
            auto red = reduce_for_pixels(*c.x, ys, x0, x1, columns, log_y_);
            QList<QPointF> pts;
            pts.reserve(static_cast<qsizetype>(red.size()));
            for (auto& [px, py] : red) pts.append(QPointF(px, log_y_ ? std::log10(py) : py));
            if (counted) drawn_ += std::min(red.size(), c.x->size());
            s->replace(pts);
            return pts;
        };
        auto pts = push(raw_series_[i], *c.y, true);
        if (band_series_[i]) {
            band_series_[i]->upperSeries()->replace(envelope(*c.x, *c.hi, x0, x1, columns, log_y_, true));
            band_series_[i]->lowerSeries()->replace(envelope(*c.x, *c.lo, x0, x1, columns, log_y_, false));
        }
        if (smooth_series_[i] && c.sm) push(smooth_series_[i], *c.sm, false);
        if (marker_series_[i]) marker_series_[i]->replace(pts);
        const std::vector<double>&cx = *c.x, &cy = *c.y;
        for (size_t k = 0; k < cy.size(); ++k) {
            if (!std::isfinite(cy[k])) {
                ++nonfinite_count_;
                if (bad.size() < 1000 && cx[k] >= x0 && cx[k] <= x1) bad.append(QPointF(cx[k], ytop));
            } else if (log_y_ && cy[k] <= 0) {
                ++hidden_nonpositive_;
            }
        }
    }
    nonfinite_->replace(bad);
    legend_->setListed(nonfinite_entry_, !bad.isEmpty());
    for (size_t h = 0; h < hline_series_.size(); ++h)
    {
        const double v = hlines_[h].first, y = log_y_ ? (v > 0 ? std::log10(v) : std::nan("")) : v;
        hline_series_[h]->replace({QPointF(x0, y), QPointF(x1, y)});
    }
    showFooter();
}

// Cut to the chart's width, its tooltip holding it whole: a narrow chart (a laptop's, several runs left
// out) has no room for the line, which made the tab wider than its view.
void LineChart::showFooter() { footer_->setFullText(footer()); }

void LineChart::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange && !footer_->fullText().isEmpty()) showFooter();   // once drawn
    QWidget::changeEvent(e);
}

void LineChart::setCountCaption(std::function<QString()> caption) {
    count_caption_ = std::move(caption);
    if (!footer_->fullText().isEmpty()) showFooter();   // once drawn
}

void LineChart::setNote(const QString& note) {
    if (note == note_) return;
    note_ = note;
    if (!footer_->fullText().isEmpty()) showFooter();   // once drawn
}

size_t LineChart::pointsTotal() const {
    size_t n = 0;
    for (auto& c : curves_) n += c.x.size();
    return n;
}

QString LineChart::footer() const {
    QString s = count_caption_ ? count_caption_() : tr("%L1 points → %L2 drawn").arg(pointsTotal()).arg(drawn_);
    if (!note_.isEmpty()) s += " · " + note_;
    if (nonfinite_count_) s += tr(" · %L1 non-finite (▲)").arg(nonfinite_count_);
    if (hidden_nonpositive_) s += tr(" · %L1 values ≤ 0 not shown on the log axis").arg(hidden_nonpositive_);
    if (hidden_x_) s += tr(" · %L1 points at x ≤ 0 not shown on the log x axis").arg(hidden_x_);
    const int hidden = static_cast<int>(curvesHidden());   // a plain int: lupdate skips a cast in the call
    if (hidden) s += tr(" · %n line(s) hidden (click the legend to show)", nullptr, hidden);
    if (runs_drawn_.first < runs_drawn_.second)
        s += tr(" · the first %1 of %2 runs drawn (at most %3 lines on screen; an export draws them all)")
                 .arg(runs_drawn_.first)
                 .arg(runs_drawn_.second)
                 .arg(kMaxCurves);
    if (zoomed_) s += tr(" · zoomed (right-click to zoom out)");
    return s;
}

}  // namespace normlab
