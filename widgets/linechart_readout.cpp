// NormLab widgets: LineChart's hover readout (see linechart.h) — a vertical
// line at the mouse's x and every curve's value there, raw and smoothed; a
// click pins it. Drawn in the chart's scene above the series; hidden in exports.
#include "widgets/linechart.h"

#include "widgets/math_text.h"

#include <QBrush>
#include <QChart>
#include <QChartView>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QMouseEvent>
#include <QPen>

#include <algorithm>
#include <cmath>
#include <limits>

namespace normlab {

namespace {
// Index of the point of xs (ascending) nearest to x; xs non-empty.
size_t nearest(const std::vector<double>& xs, double x) {
    const auto it = std::lower_bound(xs.begin(), xs.end(), x);
    if (it == xs.begin()) return 0;
    if (it == xs.end()) return xs.size() - 1;
    const size_t i = static_cast<size_t>(it - xs.begin());
    return (x - xs[i - 1] <= xs[i] - x) ? i - 1 : i;
}

QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 5) : QString::fromUtf8("▲ ") + QString::number(v); }
}  // namespace

double LineChart::snapX(double x) const {
    double best = x, dist = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < curves_.size(); ++i) {
        const Curve& c = curves_[i];
        if (c.x.empty() || !curveShown(i)) continue;
        const double v = c.x[nearest(c.x, x)];
        const double d = log_x_ && v > 0 && x > 0 ? std::abs(std::log10(v / x)) : std::abs(v - x);
        if (d < dist) dist = d, best = v;
    }
    return best;
}

QString LineChart::readoutAt(double x) const {
    x = snapX(x);   // the readout names a point of the data: "step 14", not where the mouse is ("step 13.5434")
    QStringList lines;
    lines << QString("%1 %2").arg(x_title_.isEmpty() ? QString("x") : math_text::plain(x_title_), QString::number(x, 'g', 6));
    int shown = 0;
    for (size_t i = 0; i < curves_.size(); ++i) {
        const Curve& c = curves_[i];
        if (c.x.empty() || !curveShown(i)) continue;
        if (++shown > 12) continue;
        const size_t k = nearest(c.x, x);
        QString line = QString("%1: %2").arg(c.label, number(c.y[k]));
        if (smoothing_ > 0 && c.smooth && i < smoothed_.size() && k < smoothed_[i].size())
            line += tr(" (smoothed %1)").arg(number(smoothed_[i][k]));
        if (!c.band_lo.empty() && k < c.band_lo.size())
            line += QString(" [%1, %2]").arg(number(c.band_lo[k]), number(c.band_hi[k]));
        if (std::abs(c.x[k] - x) > 0) line += QString("  @ %1").arg(QString::number(c.x[k], 'g', 6));
        lines << line;
    }
    if (shown > 12) lines << tr("… and %1 more").arg(shown - 12);
    return lines.join('\n');
}

QString LineChart::readoutText() const {
    return readout_box_ && readout_box_->isVisible() ? readout_text_->text() : QString();
}

void LineChart::hideReadout() {
    if (!cross_) return;
    cross_->hide();
    readout_box_->hide();
}

void LineChart::showReadout(const QPoint& viewport_pos) {
    const QPointF in_chart = chart_->mapFromScene(view_->mapToScene(viewport_pos));
    const QRectF area = chart_->plotArea();
    if (curves_.empty() || raw_series_.empty() || !area.contains(in_chart)) {
        hideReadout();
        return;
    }
    if (!cross_) {
        cross_ = new QGraphicsLineItem();
        cross_->setZValue(20);
        readout_box_ = new QGraphicsRectItem();
        readout_box_->setZValue(21);
        readout_text_ = new QGraphicsSimpleTextItem(readout_box_);
        QFont f = readout_text_->font();
        f.setPointSizeF(8.5);
        readout_text_->setFont(f);
        chart_->scene()->addItem(cross_);
        chart_->scene()->addItem(readout_box_);
    }
    // in the chart's theme: dark text on a white box, or light text on a dark one (set here, as the theme
    // may have changed since the box was made)
    const bool dark = chart_->theme() == QChart::ChartThemeDark;
    cross_->setPen(QPen(dark ? QColor(200, 200, 200, 170) : QColor(90, 90, 90, 170), 1, Qt::DashLine));
    readout_box_->setBrush(dark ? QColor(30, 31, 38, 235) : QColor(255, 255, 255, 232));
    readout_box_->setPen(QPen(dark ? QColor(110, 110, 120) : QColor(160, 160, 160)));
    readout_text_->setBrush(dark ? QColor(235, 235, 235) : QColor(0, 0, 0));
    double x = chart_->mapToValue(in_chart, raw_series_.front()).x();
    if (log_x_) x = std::pow(10.0, x);   // the axis runs in log10(x)
    cross_->setLine(QLineF(chart_->mapToScene(QPointF(in_chart.x(), area.top())),
                           chart_->mapToScene(QPointF(in_chart.x(), area.bottom()))));
    readout_x_ = x;
    readout_text_->setText(readoutAt(x));
    const QRectF text = readout_text_->boundingRect();
    readout_text_->setPos(5, 4);
    readout_box_->setRect(0, 0, text.width() + 10, text.height() + 8);
    // beside the line, inside the plot area: right of it, or left where there is no room
    QPointF at(in_chart.x() + 12, area.top() + 6);
    if (at.x() + text.width() + 10 > area.right()) at.setX(in_chart.x() - 12 - text.width() - 10);
    readout_box_->setPos(chart_->mapToScene(at));
    cross_->show();
    readout_box_->show();
}

void LineChart::refreshPinnedReadout() {
    if (!readout_text_ || !readout_box_->isVisible()) return;
    readout_text_->setText(readoutAt(readout_x_));
    const QRectF text = readout_text_->boundingRect();
    readout_box_->setRect(0, 0, text.width() + 10, text.height() + 8);
}

bool LineChart::eventFilter(QObject* watched, QEvent* event) {
    if (watched == view_->viewport()) {
        switch (event->type()) {
            case QEvent::MouseMove:
                if (!pinned_) showReadout(static_cast<QMouseEvent*>(event)->position().toPoint());
                break;
            case QEvent::MouseButtonPress:
                press_pos_ = static_cast<QMouseEvent*>(event)->position().toPoint();
                break;
            case QEvent::MouseButtonRelease: {
                auto* m = static_cast<QMouseEvent*>(event);
                // a click, not the end of a rubber-band zoom: pin or free the readout
                if (m->button() == Qt::LeftButton && (m->position().toPoint() - press_pos_).manhattanLength() < 4) {
                    pinned_ = !pinned_;
                    showReadout(m->position().toPoint());
                }
                break;
            }
            case QEvent::Leave:
                if (!pinned_) hideReadout();
                break;
            default:
                break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace normlab
