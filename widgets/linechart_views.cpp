// NormLab widgets: LineChart's log-x view of its curves (log10 of x, the
// points at x <= 0 left out and counted) and the hint an empty chart shows
// (see linechart.h).
#include "widgets/linechart.h"

#include <QChartView>
#include <QLabel>

#include <algorithm>
#include <cmath>

namespace normlab {

void LineChart::setLogX(bool on) {
    if (on == log_x_) return;
    log_x_ = on;
    zoomed_ = false;
    resmooth();   // along log10 x: the first decades are not smeared by a span counted in steps
    prepareLogX();
    rebuild();
    fitRanges();
    redraw();
}

void LineChart::prepareLogX() {
    logx_.clear();
    hidden_x_ = 0;
    if (!log_x_) return;
    for (size_t i = 0; i < curves_.size(); ++i) {
        const Curve& c = curves_[i];
        const std::vector<double>* sm = i < smoothed_.size() && !smoothed_[i].empty() ? &smoothed_[i] : nullptr;
        LogXView v;
        size_t k = 0;
        while (k < c.x.size() && !(c.x[k] > 0)) ++k;   // sorted: the points at x ≤ 0 come first
        hidden_x_ += k;
        const bool band = c.band_lo.size() == c.x.size() && c.band_hi.size() == c.x.size();
        for (size_t j = k; j < c.x.size(); ++j) {
            v.x.push_back(std::log10(c.x[j]));
            v.y.push_back(c.y[j]);
            if (sm) v.sm.push_back((*sm)[j]);
            if (band) v.lo.push_back(c.band_lo[j]), v.hi.push_back(c.band_hi[j]);
        }
        logx_.push_back(std::move(v));
    }
}

LineChart::View LineChart::viewOf(size_t i) const {
    const Curve& c = curves_[i];
    if (log_x_ && i < logx_.size()) {
        const LogXView& v = logx_[i];
        return {&v.x, &v.y, v.sm.empty() ? nullptr : &v.sm, &v.lo, &v.hi};
    }
    const std::vector<double>* sm = i < smoothed_.size() && !smoothed_[i].empty() ? &smoothed_[i] : nullptr;
    return {&c.x, &c.y, sm, &c.band_lo, &c.band_hi};
}

void LineChart::setEmptyHint(const QString& hint) {
    if (!empty_hint_) {
        empty_hint_ = new QLabel(view_);
        empty_hint_->setObjectName("emptyHint");
        empty_hint_->setWordWrap(true);
        empty_hint_->setAlignment(Qt::AlignCenter);
        empty_hint_->setStyleSheet("color: gray; background: transparent;");
        empty_hint_->setAttribute(Qt::WA_TransparentForMouseEvents);
    }
    empty_hint_->setText(hint);
    placeEmptyHint();
}

QString LineChart::emptyHintShown() const {
    return empty_hint_ && !empty_hint_->isHidden() ? empty_hint_->text() : QString();
}

// Shown while no curve has a point to draw, across the middle of the plot area.
void LineChart::placeEmptyHint() {
    if (!empty_hint_) return;
    bool any = false;
    for (auto& c : curves_)
        for (double v : c.y)
            if (std::isfinite(v)) {
                any = true;
                break;
            }
    empty_hint_->setHidden(any || empty_hint_->text().isEmpty());
    if (empty_hint_->isHidden()) return;
    const int w = std::max(120, view_->width() * 2 / 3);
    empty_hint_->setFixedWidth(w);
    empty_hint_->adjustSize();
    empty_hint_->move((view_->width() - w) / 2, (view_->height() - empty_hint_->height()) / 2);
}

}  // namespace normlab
