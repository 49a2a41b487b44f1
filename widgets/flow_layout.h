// NormLab widgets: a row of controls that wraps onto more rows when narrow.
//
// A view's controls above its chart (the Gradients tab: weight, norm and
// three check boxes) asked for 814 px in a row, 908 in German, and a
// laptop's window gives the charts ~590: the whole view scrolled sideways
// and hid the chart's right edge. Laid out by this layout, the controls
// that do not fit go onto the next row, left-aligned, each at its size hint;
// the layout reports its height for the width it gets (heightForWidth), so
// the chart below moves down instead of under them.
#pragma once

#include <QLayout>
#include <QList>
#include <QWidget>

namespace normlab {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return static_cast<int>(items_.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Places the items in `rect` (only measures when !apply); returns the height used.
    int arrange(const QRect& rect, bool apply) const;
    QList<QLayoutItem*> items_;
};

// A page (with a vertical box layout) that holds a FlowLayout, for a scroll
// area: its height for a width is the least its items need at that width,
// the wrapped controls' height and every other item's minimum. A box
// layout's own height for width adds the items' preferred heights (a
// chart's and a heatmap's hints), so a scroll area around it scrolled
// wherever the view was lower than those: the Gradients tab always did on a
// laptop's window.
class FlowPage : public QWidget {
public:
    using QWidget::QWidget;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
};

}  // namespace normlab
