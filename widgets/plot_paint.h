// NormLab widgets: the pieces figures are laid out and drawn with (internal
// to plot_*.cpp; see plot_figure.h) — page units, text that wraps instead of
// eliding, an axis frame sized around its measured labels, and the legend.
#pragma once

#include "core/print_ticks.h"
#include "widgets/plot_figure.h"

#include <QFont>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QRectF>
#include <QStringList>

#include <functional>
#include <memory>

namespace normlab::plot {

// A painter and its page units: mm() converts millimetres to device pixels,
// font() gives a font of `font_pt` × scale points on that device.
class Ink {
public:
    Ink(QPainter& p, const PrintUnits& u) : p_(p), u_(u) {}
    QPainter& p() const { return p_; }
    double mm(double v) const { return v * u_.px_per_mm; }
    double to_mm(double px) const { return px / u_.px_per_mm; }
    QFont font(double scale = 1.0, bool bold = false) const;
    QFontMetricsF metrics(const QFont& f) const { return QFontMetricsF(f, p_.device()); }
    const PrintUnits& units() const { return u_; }

private:
    QPainter& p_;
    PrintUnits u_;
};

// A painter on a small 300 dpi image, for measuring a figure before its page
// exists (its height, its texts).
struct Measure {
    explicit Measure(double font_pt);
    QImage image;
    QPainter painter;
    std::unique_ptr<Ink> ink;
};

// `text` broken at spaces (and at '/', '·', '-', '_', '.' where a word is too long) into
// lines no wider than `width`; a word wider than that alone on its line.
QStringList wrap(const QFontMetricsF& fm, const QString& text, double width);

// One axis: its limits (data units), scale and ticks.
struct Axis {
    double lo = 0, hi = 1;
    bool log = false;
    bool integer = false;
    bool categories = false;   // ticks given by the caller (layers), never chosen here
    PrintTicks ticks;
    double frac(double v) const;   // 0 at lo, 1 at hi
};

// Where a chart's parts go in `r`: the plot rectangle and what surrounds it.
struct Frame {
    QRectF plot;
    Axis x, y;
    QStringList title, x_title, y_title;   // wrapped lines
    QRectF title_box, legend_box;
    double right_extra = 0;                // room right of the plot (a colour bar)
    bool x_labels = true;                  // the x ticks' labels, factor and title drawn under the plot
    double y_title_x = 0;                  // the left edge of the (rotated) y title
};
// How a frame fits with others stacked on one x axis (stack_plots): without
// the x axis's labels and title (a plot above another), its plot's left and
// right edges at least `min_left` and `min_right` px in from r's, so that
// the stack's plots stand in line; the y title then at r's left edge, in line too.
struct FrameFit {
    bool x_labels = true;
    double min_left = 0, min_right = 0;
};
// Measures titles, tick labels and `legend_height` (px, drawn under the x
// title) and gives the plot the rest; chooses the ticks for that size.
Frame layout_frame(const Ink& ink, const QRectF& r, const QString& title, const QString& x_title, const QString& y_title,
                   Axis x, Axis y, double legend_height, double right_extra = 0, const FrameFit& fit = {});
// A light grid at the ticks (under the data), then the box, ticks, labels,
// common factors and titles (over it).
void draw_grid(const Ink& ink, const Frame& f);
void draw_axes(const Ink& ink, const Frame& f);
// Maps data to device pixels inside f.plot.
QPointF to_px(const Frame& f, double x, double y);

// The legend in rows under the plot: as many columns as fit `width`, a text
// that does not fit alone wrapped, never elided.
struct LegendLayout {
    std::vector<QRectF> cells;    // relative to the legend's top left
    std::vector<QStringList> lines;
    double width = 0, height = 0;
};
LegendLayout layout_legend(const Ink& ink, const std::vector<LegendEntry>& entries, double width);
void draw_legend(const Ink& ink, const std::vector<LegendEntry>& entries, const LegendLayout& l, QPointF at);
// The legend centred in `r`'s width, in the room layout_frame left under the plot.
void draw_legend_below(const Ink& ink, const std::vector<LegendEntry>& entries, const LegendLayout& l, const QRectF& r,
                       const Frame& f);

// A pen `width_mm` wide on this device.
QPen pen(const Ink& ink, const QColor& c, double width_mm, Qt::PenStyle style = Qt::SolidLine);

// The data range of values (finite; > 0 on a log axis), padded by `pad` of
// the span (in log space on a log axis); a flat range gets a small band.
std::pair<double, double> padded(double lo, double hi, bool log, double pad);

}  // namespace normlab::plot
