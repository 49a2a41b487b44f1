// NormLab widgets: a layer × step heatmap with a color scale (log option).
//
// Painted from a QImage (one pixel per cell, scaled without smoothing), with
// axes, a color bar and a title; non-finite cells are gray. Qt Charts has no
// heatmap, and forcing one into it would be slow (CHARTS.md).
#pragma once

#include "core/print_ticks.h"

#include <QFont>
#include <QFontMetrics>
#include <QImage>
#include <QString>
#include <QWidget>

#include <limits>
#include <utility>
#include <vector>

namespace normlab {

class Heatmap : public QWidget {
    Q_OBJECT
public:
    explicit Heatmap(QWidget* parent = nullptr);

    // rows[l] = values of layer l at `steps` (NaN where missing).
    void setData(std::vector<double> steps, std::vector<std::vector<double>> rows);
    // `short_title` is drawn where `t` does not fit (the run's name, where the chart above says the rest);
    // the tooltip has `t` whole.
    void setTitle(const QString& t, const QString& short_title = {});
    const QString& title() const { return title_; }
    const QString& shortTitle() const { return short_title_; }
    QString titleShown() const;   // as drawn at this width: the title, the short one, or that elided in its middle
    const std::vector<double>& steps() const { return steps_; }
    const std::vector<std::vector<double>>& rows() const { return rows_; }
    void setLogScale(bool on);
    bool logScale() const { return log_; }
    const QImage& image() const { return image_; }
    double minValue() const { return lo_; }       // of the colour scale in use
    double maxValue() const { return hi_; }
    // The colour scale: [lo, hi] for every heatmap of a comparison (values
    // beyond it take the end colours), or NaN, NaN for this one's own data.
    void setRange(double lo, double hi);
    double dataMin() const { return data_lo_; }   // this heatmap's own data (positive only on a log scale)
    double dataMax() const { return data_hi_; }
    QSize sizeHint() const override { return {640, 320}; }
    // Side by side on one colour scale (HeatmapGrid), a heatmap may leave out its layer axis (the
    // row's first has it) and its colour bar (the row's last has it), so that the cells get the room.
    // A figure (plot_figure.h) draws each heatmap whole from its HeatSpec.
    void setFrame(bool layer_axis, bool colour_bar);
    bool hasLayerAxis() const { return layer_axis_; }
    bool hasColourBar() const { return colour_bar_; }
    // The width the labels and the colour bar take beside the cells, framed so; the cells want at least kMinCells.
    static int frameWidth(bool layer_axis, bool colour_bar);
    static constexpr int kMinCells = 80;
    QRect cellArea() const { return plotRect(rect()); }   // the cells as drawn on screen
    QFont labelFont() const;   // the axes' and colour bar's labels
    // The step axis's labels, at 1-2-5 steps (as drawn), and where their text stands on screen.
    QStringList xTickLabels() const;
    std::vector<QRectF> xTickLabelRects() const;
    // The colour bar's labels as drawn: at 3 to 6 ticks, not only its ends.
    QStringList colourBarLabels() const;
    // The cell under a point of the widget as drawn: (step index, layer), or (-1, -1) off the cells.
    std::pair<int, int> cellAt(const QPoint& pos) const;
    // What the hover readout says of a cell: "step 120 · layer 2: 3.1416e-05" (no data: "no value").
    QString cellText(int step_index, int layer) const;

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;   // the readout: a tooltip naming the cell under the mouse
    void mouseMoveEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    void render(QPainter& p, const QRect& r) const;   // as framed (setFrame)
    QRect plotRect(const QRect& r) const;
    QRect titleBox(const QRect& r) const;
    QString titleFor(int width, QFont* font) const;   // what titleShown says, and its font
    QString tipAt(int step_index, int layer) const;   // the tooltip: the title, and the cell's text on a cell
    std::pair<int, int> hover_ = {-1, -1};   // the cell outlined on screen
    PrintTicks colourBarTicks() const;
    // (x under `plot`, label): as many as fit its width in these metrics
    std::vector<std::pair<double, QString>> xTicks(const QRect& plot, const QFontMetrics& fm) const;
    std::vector<std::pair<double, QString>> xTicksAbout(int target) const;   // (fractional cell index, label)
    void rebuildImage();
    std::vector<double> steps_;
    std::vector<std::vector<double>> rows_;
    QImage image_;
    QString title_, short_title_;
    bool log_ = true;
    bool layer_axis_ = true, colour_bar_ = true;
    double lo_ = 0, hi_ = 1;
    double data_lo_ = 0, data_hi_ = 1;
    double fixed_lo_ = std::numeric_limits<double>::quiet_NaN(), fixed_hi_ = std::numeric_limits<double>::quiet_NaN();
};

// Viridis, t in [0, 1].
QColor viridis(double t);

}  // namespace normlab
