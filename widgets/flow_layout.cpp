#include "widgets/flow_layout.h"

#include <QBoxLayout>
#include <QWidget>

#include <algorithm>

namespace normlab {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent) { setSpacing(spacing); }

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::itemAt(int index) const { return index >= 0 && index < items_.size() ? items_.at(index) : nullptr; }

QLayoutItem* FlowLayout::takeAt(int index) { return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr; }

int FlowLayout::heightForWidth(int width) const { return arrange(QRect(0, 0, width, 0), false); }

// As narrow as its widest control (then one a row), as high as one row.
QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

// Every control in one row.
QSize FlowLayout::sizeHint() const {
    int w = 0, h = 0, n = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        w += item->sizeHint().width() + (n++ ? spacing() : 0);
        h = std::max(h, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return QSize(w + m.left() + m.right(), h + m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    int x = area.x(), y = area.y(), row_height = 0;
    // Each row's items, centred vertically on the row once its height is known.
    QList<QPair<QLayoutItem*, QRect>> row;
    auto place_row = [&] {
        if (apply)
            for (auto& [item, r] : row) item->setGeometry(QRect(r.x(), r.y() + (row_height - r.height()) / 2, r.width(), r.height()));
        row.clear();
    };
    for (QLayoutItem* item : items_) {
        if (item->isEmpty()) continue;
        const QSize hint = item->sizeHint().boundedTo(QSize(area.width(), QWIDGETSIZE_MAX)).expandedTo(item->minimumSize());
        if (x > area.x() && x + hint.width() > area.right() + 1) {   // does not fit beside the last: a new row
            place_row();
            x = area.x();
            y += row_height + spacing();
            row_height = 0;
        }
        row.append({item, QRect(QPoint(x, y), hint)});
        x += hint.width() + spacing();
        row_height = std::max(row_height, hint.height());
    }
    place_row();
    const QMargins m = contentsMargins();
    return y + row_height - rect.y() + m.bottom();
}

int FlowPage::heightForWidth(int width) const {
    auto* box = qobject_cast<QBoxLayout*>(layout());
    if (!box || box->direction() != QBoxLayout::TopToBottom) return QWidget::heightForWidth(width);
    const QMargins m = box->contentsMargins();
    const int inner = width - m.left() - m.right();
    int h = m.top() + m.bottom(), shown = 0;
    for (int i = 0; i < box->count(); ++i) {
        QLayoutItem* item = box->itemAt(i);
        if (item->isEmpty()) continue;
        h += item->hasHeightForWidth() ? item->heightForWidth(inner) : item->minimumSize().height();
        ++shown;
    }
    return h + std::max(0, shown - 1) * std::max(0, box->spacing());
}

}  // namespace normlab
