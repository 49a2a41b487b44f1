// NormLab widgets: charts over one x axis (see LineChart::linkX in linechart.h) — the loss and its learning
// rate zoom together and stand with their plot areas in line, as a figure's stack draws them (plot_figure.h).
#include "widgets/linechart.h"

#include <QAbstractAxis>
#include <QChart>
#include <QChartView>
#include <QPointer>
#include <QTimer>
#include <QValueAxis>

#include <cmath>
#include <memory>

namespace normlab {

void LineChart::userZoomedX() {
    zoomed_ = true;
    scheduleRedraw();
    if (following_) return;
    const auto [lo, hi] = xRange();
    Q_EMIT xZoomed(lo, hi);
}

void LineChart::followX(double lo, double hi) {
    if (log_x_ && !(lo > 0 && hi > 0)) return;
    const double a = log_x_ ? std::log10(lo) : lo, b = log_x_ ? std::log10(hi) : hi;
    if (!(a < b)) return;
    following_ = true;
    zoomed_ = true;
    x_axis_->setRange(a, b);
    following_ = false;
    scheduleRedraw();
}

void LineChart::setXExtent(double lo, double hi) {
    extent_lo_ = lo;
    extent_hi_ = hi;
}

std::pair<double, double> LineChart::xRange() const {
    auto* ax = static_cast<QValueAxis*>(x_axis_);
    if (!ax) return {0, 1};
    return log_x_ ? std::make_pair(std::pow(10.0, ax->min()), std::pow(10.0, ax->max())) : std::make_pair(ax->min(), ax->max());
}

QRect LineChart::plotAreaOnScreen() const {
    const QRect in_view = view_->mapFromScene(chart_->mapToScene(chart_->plotArea())).boundingRect();
    return QRect(view_->viewport()->mapToGlobal(in_view.topLeft()), in_view.size());
}

void LineChart::linkX(LineChart* a, LineChart* b) {
    connect(a, &LineChart::xZoomed, b, &LineChart::followX);
    connect(b, &LineChart::xZoomed, a, &LineChart::followX);
    for (auto [from, to] : {std::make_pair(a, b), std::make_pair(b, a)})
        connect(from, &LineChart::zoomReset, to, [to] {
            to->following_ = true;
            to->resetZoom();
            to->following_ = false;
        });
    // The plot areas in line: each chart's margins grow by what the other's labels, legend beside it or
    // right-hand room take more, once both are laid out (a queued pass after any change of either's plot
    // area; a change under a pixel is none, so that it settles).
    auto pending = std::make_shared<bool>(false);
    QPointer<LineChart> pa(a), pb(b);
    auto align = [pa, pb, pending] {
        *pending = false;
        if (!pa || !pb || !pa->isVisible() || !pb->isVisible()) return;
        LineChart* c[2] = {pa.data(), pb.data()};
        int natural_left[2], natural_right[2];
        for (int i = 0; i < 2; ++i) {
            const QRect r = c[i]->plotAreaOnScreen();
            if (r.width() < 20) return;   // not laid out yet
            natural_left[i] = r.left() - c[i]->margins_extra_.left();
            natural_right[i] = r.right() + c[i]->margins_extra_.right();
        }
        const int left = std::max(natural_left[0], natural_left[1]), right = std::min(natural_right[0], natural_right[1]);
        for (int i = 0; i < 2; ++i) {
            const QMargins extra(left - natural_left[i], 0, natural_right[i] - right, 0);
            if (std::abs(extra.left() - c[i]->margins_extra_.left()) < 1 && std::abs(extra.right() - c[i]->margins_extra_.right()) < 1)
                continue;
            const QMargins base = c[i]->chart_->margins() - c[i]->margins_extra_;   // linechart.cpp's constructor's
            c[i]->margins_extra_ = extra;
            c[i]->chart_->setMargins(base + extra);
        }
    };
    for (LineChart* c : {a, b})
        connect(c->chart_, &QChart::plotAreaChanged, c, [align, pending, c] {
            if (*pending) return;
            *pending = true;
            QTimer::singleShot(0, c, align);
        });
}

}  // namespace normlab
