// NormLab widgets: ChartLegend (see chart_legend.h).
#include "widgets/chart_legend.h"

#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <map>

namespace normlab {

namespace {
constexpr int kPad = 3;      // around the entries
constexpr int kMarker = 22;  // a marker's width
constexpr int kGap = 5;      // marker to text
constexpr int kSpacing = 14; // entry to entry in a row
}  // namespace

ChartLegend::ChartLegend(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::TabFocus);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);   // what QScrollArea asks before it scrolls a resizable widget
    setSizePolicy(policy);
}

void ChartLegend::setEntries(std::vector<Entry> entries) {
    entries_ = std::move(entries);
    pressed_ = -1;
    if (current_ >= static_cast<int>(entries_.size())) current_ = -1;
    updateGeometry();
    update();
}

void ChartLegend::setListed(int index, bool listed) {
    if (index < 0 || index >= static_cast<int>(entries_.size()) || entries_[index].listed == listed) return;
    entries_[index].listed = listed;
    updateGeometry();
    update();
}

void ChartLegend::setHiddenEntry(int index, bool hidden) {
    if (index < 0 || index >= static_cast<int>(entries_.size()) || entries_[index].hidden == hidden) return;
    entries_[index].hidden = hidden;
    update();
}

int ChartLegend::listedCount() const {
    return static_cast<int>(std::count_if(entries_.begin(), entries_.end(), [](const Entry& e) { return e.listed; }));
}

QStringList ChartLegend::textsListed() const {
    QStringList out;
    for (const Entry& e : entries_)
        if (e.listed) out << e.text;
    return out;
}

void ChartLegend::setColumn(bool column) {
    if (column == column_) return;
    column_ = column;
    updateGeometry();
    update();
}

int ChartLegend::lineHeight() const { return QFontMetrics(font()).height() + 2; }

int ChartLegend::entryWidth(const Entry& e) const {
    return kMarker + kGap + QFontMetrics(font()).horizontalAdvance(e.text) + 2;
}

int ChartLegend::widestEntry() const {
    int w = 0;
    for (const Entry& e : entries_)
        if (e.listed) w = std::max(w, entryWidth(e));
    return w;
}

std::vector<QRect> ChartLegend::layoutAt(int width) const {
    std::vector<QRect> out(entries_.size());
    const int h = lineHeight();
    int x = kPad, y = kPad;
    if (column_) {   // a column beside the plot stands in the middle of its height, as Qt Charts' did
        const int listed = listedCount();
        y = std::max(kPad, (height() - listed * h) / 2);
    }
    for (size_t i = 0; i < entries_.size(); ++i) {
        if (!entries_[i].listed) continue;
        if (column_) {
            out[i] = QRect(kPad, y, std::max(kMarker + kGap + 8, width - 2 * kPad), h);
            y += h;
            continue;
        }
        const int w = std::min(entryWidth(entries_[i]), width - 2 * kPad);
        if (x > kPad && x + w > width - kPad) x = kPad, y += h;   // wrap onto the next row
        out[i] = QRect(x, y, w, h);
        x += w + kSpacing;
    }
    if (!column_) {   // each row in the middle of the width, under the plot as Qt Charts' legend stood
        std::map<int, int> right;   // a row's y → its last entry's right edge
        for (const QRect& r : out)
            if (!r.isEmpty()) right[r.y()] = std::max(right[r.y()], r.right());
        for (QRect& r : out)
            if (!r.isEmpty()) r.translate(std::max(0, (width - kPad - right[r.y()]) / 2), 0);
    }
    return out;
}

int ChartLegend::rowsAt(int width) const {
    int rows = 0, last_y = -1;
    for (const QRect& r : layoutAt(width))
        if (!r.isEmpty() && r.y() != last_y) ++rows, last_y = r.y();
    return rows;
}

int ChartLegend::heightForWidth(int width) const {
    const int rows = column_ ? listedCount() : rowsAt(width);
    return rows ? rows * lineHeight() + 2 * kPad : 0;
}

QSize ChartLegend::sizeHint() const {
    if (column_) return QSize(widestEntry() + 2 * kPad, heightForWidth(widestEntry() + 2 * kPad));
    int row = 0;
    for (const Entry& e : entries_)
        if (e.listed) row += entryWidth(e) + kSpacing;
    return QSize(row + 2 * kPad, lineHeight() + 2 * kPad);
}

QSize ChartLegend::minimumSizeHint() const { return QSize(kMarker + kGap + 40, lineHeight() + 2 * kPad); }

QRect ChartLegend::entryRect(int index) const {
    if (index < 0 || index >= static_cast<int>(entries_.size())) return {};
    return layoutAt(width())[static_cast<size_t>(index)];
}

int ChartLegend::entryAt(const QPoint& pos) const {
    const std::vector<QRect> rects = layoutAt(width());
    for (size_t i = 0; i < rects.size(); ++i)
        if (!rects[i].isEmpty() && rects[i].contains(pos)) return static_cast<int>(i);
    return -1;
}

void ChartLegend::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm(font());
    const std::vector<QRect> rects = layoutAt(width());
    for (size_t i = 0; i < entries_.size(); ++i) {
        const Entry& e = entries_[i];
        const QRect r = rects[i];
        if (r.isEmpty()) continue;
        p.setOpacity(e.hidden ? 0.35 : 1.0);
        const QRectF m(r.x() + 1, r.y(), kMarker - 2, r.height());
        const double cy = m.center().y();
        switch (e.marker) {
        case Marker::Line:
            p.setPen(QPen(e.color, 2.2, e.style, Qt::FlatCap));
            p.drawLine(QPointF(m.left(), cy), QPointF(m.right(), cy));
            break;
        case Marker::Ramp: {
            QLinearGradient g(m.left(), 0, m.right(), 0);
            for (size_t k = 0; k < e.ramp.size(); ++k)
                g.setColorAt(e.ramp.size() > 1 ? double(k) / double(e.ramp.size() - 1) : 0.0, e.ramp[k]);
            p.setPen(Qt::NoPen);
            p.setBrush(g);
            p.drawRect(QRectF(m.left(), cy - 3, m.width(), 6));
            break;
        }
        case Marker::Box:
            p.setPen(QPen(e.color, 1.2));
            p.setBrush(e.fill);
            p.drawRect(QRectF(m.center().x() - 6, cy - 5, 12, 10));
            break;
        case Marker::Triangle: {
            QPainterPath t;
            const double s = std::min(m.height(), m.width()) * 0.55;
            t.moveTo(m.center().x(), cy - s / 2);
            t.lineTo(m.center().x() + s / 2, cy + s / 2);
            t.lineTo(m.center().x() - s / 2, cy + s / 2);
            t.closeSubpath();
            p.setPen(QPen(e.color.darker(160), 1));
            p.setBrush(e.color);
            p.drawPath(t);
            break;
        }
        }
        p.setPen(palette().color(QPalette::WindowText));
        const QRect text(r.x() + kMarker + kGap, r.y(), r.width() - kMarker - kGap, r.height());
        QFont f = font();
        f.setStrikeOut(e.hidden);
        p.setFont(f);
        p.drawText(text, Qt::AlignVCenter | Qt::AlignLeft, fm.elidedText(e.text, Qt::ElideRight, text.width()));
        if (hasFocus() && static_cast<int>(i) == current_) {
            p.setOpacity(1.0);
            p.setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DotLine));
            p.setBrush(Qt::NoBrush);
            p.drawRect(QRectF(r).adjusted(-1.5, 0.5, 1.5, -0.5));
        }
    }
}

void ChartLegend::mousePressEvent(QMouseEvent* e) {
    pressed_ = e->button() == Qt::LeftButton ? entryAt(e->position().toPoint()) : -1;
    QWidget::mousePressEvent(e);
}

void ChartLegend::mouseReleaseEvent(QMouseEvent* e) {
    const int at = entryAt(e->position().toPoint());
    if (e->button() == Qt::LeftButton && at >= 0 && at == pressed_ && entries_[static_cast<size_t>(at)].clickable)
        Q_EMIT clicked(at);
    pressed_ = -1;
    QWidget::mouseReleaseEvent(e);
}

void ChartLegend::mouseDoubleClickEvent(QMouseEvent* e) {
    const int at = entryAt(e->position().toPoint());
    if (e->button() == Qt::LeftButton && at >= 0 && entries_[static_cast<size_t>(at)].clickable) {
        pressed_ = -1;   // the release that follows is not another click
        Q_EMIT doubleClicked(at);
        return;
    }
    QWidget::mouseDoubleClickEvent(e);
}

int ChartLegend::step(int from, int by) const {
    const int n = static_cast<int>(entries_.size());
    for (int i = from + by, k = 0; k < n; i += by, ++k) {
        if (i < 0 || i >= n) break;
        if (entries_[static_cast<size_t>(i)].listed && entries_[static_cast<size_t>(i)].clickable) return i;
    }
    return -1;
}

void ChartLegend::keyPressEvent(QKeyEvent* e) {
    switch (e->key()) {
        case Qt::Key_Left:
        case Qt::Key_Up:
            if (const int k = step(current_ < 0 ? static_cast<int>(entries_.size()) : current_, -1); k >= 0) current_ = k;
            break;
        case Qt::Key_Right:
        case Qt::Key_Down:
            if (const int k = step(current_, +1); k >= 0) current_ = k;
            break;
        case Qt::Key_Space:
            if (current_ >= 0) Q_EMIT clicked(current_);
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (current_ >= 0) Q_EMIT doubleClicked(current_);
            break;
        default:
            QWidget::keyPressEvent(e);
            return;
    }
    update();
}

void ChartLegend::focusInEvent(QFocusEvent* e) {
    if (current_ < 0 || current_ >= static_cast<int>(entries_.size()) || !entries_[static_cast<size_t>(current_)].listed)
        current_ = step(-1, +1);   // the first entry that can be clicked
    update();
    QWidget::focusInEvent(e);
}

void ChartLegend::focusOutEvent(QFocusEvent* e) {
    update();
    QWidget::focusOutEvent(e);
}

void ChartLegend::mouseMoveEvent(QMouseEvent* e) {
    const int at = entryAt(e->position().toPoint());
    setCursor(at >= 0 && entries_[static_cast<size_t>(at)].clickable ? Qt::PointingHandCursor : Qt::ArrowCursor);
    QWidget::mouseMoveEvent(e);
}

bool ChartLegend::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int at = entryAt(help->pos());
        if (at < 0) {
            QToolTip::hideText();
            e->ignore();
            return true;
        }
        const Entry& en = entries_[static_cast<size_t>(at)];
        QString tip = en.text;
        if (en.clickable)
            tip += "\n" + (en.hidden ? tr("Hidden. Click to show it; double-click to show only it.")
                                     : tr("Click to hide it; double-click to show only it; right-click for more."));
        QToolTip::showText(help->globalPos(), tip, this, entryRect(at));
        return true;
    }
    return QWidget::event(e);
}

}  // namespace normlab
