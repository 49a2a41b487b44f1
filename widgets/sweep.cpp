// NormLab widgets: SweepChart, the Sweep tab's chart (see sweep.h).
#include "widgets/sweep.h"

#include "widgets/figure.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTextStream>
#include <QToolTip>

#include <cmath>

namespace normlab {

namespace {

// The distance from `q` to the segment a–b.
double to_segment(const QPointF& q, const QPointF& a, const QPointF& b) {
    const QPointF d = b - a;
    const double len2 = QPointF::dotProduct(d, d);
    const double t = len2 > 0 ? std::clamp(QPointF::dotProduct(q - a, d) / len2, 0.0, 1.0) : 0.0;
    const QPointF e = q - (a + t * d);
    return std::hypot(e.x(), e.y());
}

}  // namespace

SweepChart::SweepChart(QWidget* parent) : QWidget(parent) { setMouseTracking(true); }

void SweepChart::setSpec(SweepSpec s) {
    spec_ = std::move(s);
    if (hover_ >= static_cast<int>(spec_.lines.size())) hover_ = -1;
    if (pinned_ >= static_cast<int>(spec_.lines.size())) pinned_ = -1;
    update();
}

void SweepChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    // a figure's page, as the line charts' plot areas; in a dark window, its ground
    const SweepInk look = SweepInk::screen(palette());
    p.fillRect(rect(), look.ground);
    const PrintUnits u{logicalDpiX() / 25.4, kScreenFigurePt};
    geometry_ = draw_sweep(p, QRectF(rect()).adjusted(10, 8, -10, -8), spec_, u, highlighted(), look);
}

int SweepChart::lineAt(const QPointF& pos) const {
    if (geometry_.x.size() != spec_.axes.size()) return -1;
    int best = -1;
    double best_d = 6;   // px
    for (size_t i = 0; i < spec_.lines.size(); ++i) {
        QPointF prev(std::nan(""), std::nan(""));
        for (size_t k = 0; k < spec_.axes.size(); ++k) {
            const QPointF q = geometry_.at(spec_, i, k);
            if (!std::isfinite(q.y())) continue;
            const double d = std::isfinite(prev.y()) ? to_segment(pos, prev, q) : std::hypot(pos.x() - q.x(), pos.y() - q.y());
            if (d < best_d) best_d = d, best = static_cast<int>(i);
            prev = q;
        }
    }
    return best;
}

int SweepChart::axisAt(const QPointF& pos) const {
    const auto& x = geometry_.x;
    if (x.size() != spec_.axes.size() || x.size() < 2 || !rect().contains(pos.toPoint())) return -1;
    const double half = (x[1] - x[0]) / 2;
    for (size_t k = 0; k + 1 < x.size(); ++k)
        if (std::abs(pos.x() - x[k]) <= half) return static_cast<int>(k);
    return -1;
}

QString SweepChart::lineText(int line) const {
    if (line < 0 || line >= static_cast<int>(spec_.lines.size())) return {};
    const auto& l = spec_.lines[static_cast<size_t>(line)];
    QStringList out{l.run};
    for (size_t k = 0; k + 1 < spec_.axes.size(); ++k) out << QString("%1 = %2").arg(spec_.axes[k].name, l.values[static_cast<int>(k)]);
    out << QString("%1: %2").arg(spec_.metric_title, std::isfinite(l.metric) ? QString::number(l.metric, 'g', 5) : tr("none yet"));
    return out.join('\n');
}

bool SweepChart::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const int line = lineAt(he->pos());
        if (line >= 0) QToolTip::showText(he->globalPos(), lineText(line), this);
        else QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void SweepChart::mouseMoveEvent(QMouseEvent* e) {
    const int line = lineAt(e->position());
    if (line != hover_) {
        hover_ = line;
        update();
        if (QToolTip::isVisible() && line >= 0) QToolTip::showText(e->globalPosition().toPoint(), lineText(line), this);
    }
    QWidget::mouseMoveEvent(e);
}

void SweepChart::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        const int line = lineAt(e->position());
        pinned_ = line == pinned_ ? -1 : line;   // the pinned line again, or off the lines: unpinned
        update();
    }
    QWidget::mousePressEvent(e);
}

void SweepChart::leaveEvent(QEvent* e) {
    hover_ = -1;
    update();
    QWidget::leaveEvent(e);
}

bool SweepChart::exportCsv(const QString& path, QString* error) const {
    return write_text(path, [&](QTextStream& out) {
        out << "run";
        for (auto& a : spec_.axes) out << ',' << csv_field(a.name);
        out << '\n';
        for (auto& l : spec_.lines) {
            out << csv_field(l.run);
            for (auto& v : l.values) out << ',' << csv_field(v);
            out << ',' << (std::isfinite(l.metric) ? QString::number(l.metric, 'g', 10) : QString()) << '\n';
        }
    }, error);
}

}  // namespace normlab
