// NormLab widgets: a Qt chart on a card with its legend (chart_legend.h).
//
// The card draws the chart's background (its theme's, light or dark) behind
// the chart's view and a ChartLegend below it (rows that wrap) or beside it
// (a column), scrolled where even that is too much: Qt Charts' own legend
// cut off or elided what did not fit in its one row ("nf se…" eight times
// under eight runs' box plots). The line charts place their legend
// themselves (placeRows / placeColumn); a card left to itself (autoRows)
// keeps rows below the plot, up to a third of its height.
#pragma once

#include <QWidget>

QT_BEGIN_NAMESPACE
class QBoxLayout;
class QChart;
class QChartView;
class QScrollArea;
QT_END_NAMESPACE

namespace normlab {

class ChartLegend;

class ChartCard : public QWidget {
    Q_OBJECT
public:
    // Takes `view` (of `chart`) as its child, hides Qt Charts' legend and lets the card's background through.
    ChartCard(QChart* chart, QChartView* view, QWidget* parent = nullptr);

    ChartLegend* legend() const { return legend_; }
    QScrollArea* legendArea() const { return area_; }
    // The legend in rows below the plot, `height` px high (scrolled where its rows need more).
    void placeRows(int height);
    // The legend in a column beside the plot, `width` px wide.
    void placeColumn(int width);
    void hideLegend();
    bool legendShown() const;
    // Left to itself: rows below, as high as they need up to a third of the card (two rows at
    // least), placed again on every resize and setEntries (refresh()).
    void setAutoRows(bool on);
    void refresh();

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    QChart* chart_;
    QBoxLayout* body_;
    ChartLegend* legend_;
    QScrollArea* area_;
    bool auto_rows_ = false;
};

}  // namespace normlab
