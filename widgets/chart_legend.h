// NormLab widgets: a line chart's legend on screen that never loses an entry.
//
// Qt Charts' legend lays its entries out in one row or one column and cuts
// off what does not fit: eight runs' loss chart (eight runs, train,
// validation, the loss floor) listed seven of its eleven entries in a
// laptop's window, with no way to see the rest. This one wraps its entries
// into as many rows as they need below the plot, or lists them in a column
// beside it (its owner scrolls it where even that is too much), each text
// elided only where a column is narrower than it, whole in its tooltip.
//
// A click on an entry hides or shows what it names (a run, all validation
// lines, the loss floor); a double-click shows only it among its kind (the
// runs, or the kinds of line), and again shows them all — as TensorBoard,
// W&B and PlotJuggler users expect of a legend. From the keyboard: Tab to
// the legend, the arrow keys to an entry, Space as a click, Enter as a
// double-click.
#pragma once

#include <QColor>
#include <QRect>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <vector>

namespace normlab {

class ChartLegend : public QWidget {
    Q_OBJECT
public:
    enum class Marker { Line, Ramp, Triangle, Box };
    struct Entry {
        QString text;
        Marker marker = Marker::Line;
        QColor color;
        Qt::PenStyle style = Qt::SolidLine;
        std::vector<QColor> ramp;   // Marker::Ramp: a gradient through these colours
        QColor fill;                // Marker::Box: its fill (`color` its outline), as a box plot's box
        int group = 0;              // a double-click shows only this entry among those of its group
        bool clickable = true;      // hides and shows what it names
        bool hidden = false;        // what it names is hidden: drawn faded
        bool listed = true;         // shown at all (the non-finite marker only with such a value)
    };

    explicit ChartLegend(QWidget* parent = nullptr);

    void setEntries(std::vector<Entry> entries);
    const std::vector<Entry>& entries() const { return entries_; }
    void setListed(int index, bool listed);
    void setHiddenEntry(int index, bool hidden);
    QStringList textsListed() const;   // the entries as listed, in order
    int listedCount() const;

    // Rows below the plot (wrapping), or one entry a line in a column beside it.
    void setColumn(bool column);
    bool column() const { return column_; }
    int rowsAt(int width) const;        // rows the entries take below a plot this wide
    int lineHeight() const;
    int widestEntry() const;            // an entry's width with its whole text
    QRect entryRect(int index) const;   // where entry `index` is drawn now (empty: not listed)
    int entryAt(const QPoint& pos) const;   // -1: none
    int currentEntry() const { return current_; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void clicked(int index);
    void doubleClicked(int index);

protected:
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void focusInEvent(QFocusEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;
    bool event(QEvent* e) override;

private:
    std::vector<QRect> layoutAt(int width) const;   // per entry; empty rect: not listed
    int entryWidth(const Entry& e) const;
    std::vector<Entry> entries_;
    bool column_ = false;
    int pressed_ = -1;
    int current_ = -1;   // the entry the keyboard is on (drawn with a focus frame while focused)
    int step(int from, int by) const;   // the next clickable entry listed after `from`, by ±1; -1: none
};

}  // namespace normlab
