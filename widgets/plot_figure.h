// NormLab widgets: figures for print, laid out by NormLab itself.
//
// Qt Charts lays a chart out for a window: its legend takes the plot's width
// and elides names ("Post-LN seed…"), its tick counts ignore the physical
// size (two ticks on a single-column loss axis), and its labels collapse to
// "…". A figure is drawn here instead, straight onto a QPainter, in the spirit
// of matplotlib's constrained layout: the tick labels, axis titles and the
// legend are measured first, the plot takes what is left, and nothing is ever
// elided — a legend wraps into rows and columns below the plot, a long title
// wraps onto a second line. Ticks: core/print_ticks.h (4–7 per axis, one
// notation). Every length is in millimetres of the page, every font in points,
// whatever the device (PDF, SVG, PNG at any dpi).
//
// `normlab figure`, the window's chart and panel exports and the report's
// figures all draw through here, so a panel export is the same drawing as
// `normlab figure`, with nothing of the window in it.
#pragma once

#include "core/print_ticks.h"
#include "widgets/linechart.h"

#include <QColor>
#include <QPainter>
#include <QRectF>
#include <QString>

#include <functional>
#include <limits>
#include <vector>

namespace normlab {

class Heatmap;

// A line chart's content, independent of any widget.
struct PlotSpec {
    QString title, x_title, y_title;
    bool log_x = false, log_y = false;
    double smoothing = 0;   // smoothing along x of curves with smooth set, drawn over their faint raw line
    // The x extent smoothed along, as the chart on screen has it (over every run it holds, shown or not),
    // and whether in log10 x; one for the other scale, or 0, takes the curves' own.
    double smoothing_span = 0;
    bool smoothing_span_log_x = false;
    std::vector<Curve> curves;
    std::vector<std::pair<double, QString>> hlines;   // reference lines (reference_line_style), named in the legend
};
PlotSpec plot_spec(const LineChart& chart);

// Box plots per layer (the gains view): one group per layer, a box per run.
struct BoxSpec {
    QString title, x_title, y_title;
    struct Box {
        QString run;
        QColor color;
        int layer;   // -1: global
        double min, q1, median, q3, max;
    };
    std::vector<Box> boxes;
};

// A heatmap's content (a layer × step matrix and its colour scale).
struct HeatSpec {
    QString title, value_title;
    std::vector<double> steps;
    std::vector<std::vector<double>> rows;   // rows[layer][step index]
    bool log = true;
    double lo = 0, hi = 1;                   // the colour scale
    // Beside its cells: the layer axis and the colour bar (a row's small multiples leave them to its first
    // and its last: frame_small_multiples).
    bool layer_axis = true, colour_bar = true;
    // The step axis from `step_lo` to `step_hi` where both are set (small multiples on one step scale: a run
    // that stopped early ends short of the others), else its own steps'.
    double step_lo = std::numeric_limits<double>::quiet_NaN(), step_hi = std::numeric_limits<double>::quiet_NaN();
};
HeatSpec heat_spec(const Heatmap& h);
// A row of heatmaps as small multiples: on one colour scale only the last draws the colour bar, and where
// all have as many layers only the first the layer axis.
void frame_small_multiples(std::vector<HeatSpec>& row, bool shared_scale);
// Small multiples (a grid of rows) on one step axis: each from the first step of any to the last of any.
void share_steps(std::vector<HeatSpec>& all);

// One entry of a figure's legend: a line (with its dash), a band, a colour
// ramp (per-layer lines: "layers 0–7"), or a marker.
struct LegendEntry {
    QString text;
    QColor color;
    Qt::PenStyle style = Qt::SolidLine;
    bool band = false;
    std::vector<QColor> ramp;   // non-empty: a gradient through these colours
    // What it names: a run's lines (`run`), a kind of line of every run (`part`), or a reference line.
    QString run = {}, part = {};
    int hline = -1;
    bool key = false;   // names no line: what the runs' colour ramps go through (their layers), in grey
};
// What a line chart's legend lists: each run (or group) once in its colour;
// when runs draw several kinds of line (train solid, validation dashed), one
// grey entry per kind with its dash; per-layer lines as a ramp per run; the
// reference lines. Never the same name twice.
std::vector<LegendEntry> legend_entries(const PlotSpec& s);
// The same for curves and reference lines as they are (a window's chart: no copy of their points).
std::vector<LegendEntry> legend_entries(const std::vector<Curve>& curves, const std::vector<std::pair<double, QString>>& hlines);

// The font size of a figure exported at its size on screen.
constexpr double kScreenFigurePt = 9;

// Page units: `px_per_mm` device pixels per millimetre, fonts at `font_pt`.
struct PrintUnits {
    double px_per_mm = 96 / 25.4;
    double font_pt = 8;
};

// Draws into `r` (device pixels).
void draw_plot(QPainter& p, const QRectF& r, const PlotSpec& s, const PrintUnits& u);
void draw_boxes(QPainter& p, const QRectF& r, const BoxSpec& s, const PrintUnits& u);
void draw_heatmap(QPainter& p, const QRectF& r, const HeatSpec& s, const PrintUnits& u);
// Side by side in `r`, their cells as wide and their plots in line, whatever each draws beside them; a row
// of fewer than `columns` (a grid's last) from the left, its cells as wide as a full row's.
void draw_heatmap_row(QPainter& p, const QRectF& r, const std::vector<HeatSpec>& row, const PrintUnits& u, size_t columns);

// Plots stacked on one x axis, as matplotlib's sharex (a panel's loss over its learning rate): one x range,
// the plot areas' left and right edges in line (and the y titles), the x axis's labels and title under the
// lowest only, and one legend under it that names every line of every plot once. Each plot's area is
// `shares[i]` / `shares[0]` as high as the first's.
struct StackSpec {
    std::vector<PlotSpec> plots;
    std::vector<double> shares;
};
void draw_stack(QPainter& p, const QRectF& r, const StackSpec& s, const PrintUnits& u);
double stack_height_mm(const StackSpec& s, double width_mm, double font_pt, double aspect);
// How draw_stack lays each plot out in a figure of that size, for tests: its plot area (mm from the
// figure's top left), its x axis's limits, whether it labels that axis, and its legend's texts.
struct StackedPlot {
    QRectF area_mm;
    double x_lo = 0, x_hi = 0;
    bool x_labels = true;
    QStringList legend;
};
std::vector<StackedPlot> stack_layout(const StackSpec& s, double width_mm, double height_mm, double font_pt);

// A plot area's height / width when a figure's height is not given: 0.5 at a
// single column (89 mm), lower as figures widen (0.36 at a double column).
double default_aspect(double width_mm);
// The height (mm) a plot needs at `width_mm` so that its plot area is about
// `aspect` × its width high after the legend, ticks and titles are placed.
double plot_height_mm(const PlotSpec& s, double width_mm, double font_pt, double aspect);
double boxes_height_mm(const BoxSpec& s, double width_mm, double font_pt, double aspect);
double heatmap_row_height_mm(const std::vector<HeatSpec>& row, double width_mm, double font_pt, double aspect, size_t columns);

// Writes a figure `width_mm` × `height_mm` (format pdf, svg or png at `dpi`;
// "": by the file's suffix) that `draw` paints in page units with fonts at `font_pt`.
bool write_print(const QString& path, const QString& format, double width_mm, double height_mm, double font_pt, int dpi, const QString& title,
                 const std::function<void(QPainter&, const QRectF&, const PrintUnits&)>& draw, QString* error);

// Texts a figure shows (tick labels, titles, legend entries, in drawing
// order), for tests and for the pdftotext checks: what draw_plot would write
// into a rectangle of that size.
QStringList plot_texts(const PlotSpec& s, double width_mm, double height_mm, double font_pt);
// Where draw_plot puts each legend entry at that size (mm, from the legend's top left), in
// legend_entries' order.
std::vector<QRectF> plot_legend_cells(const PlotSpec& s, double width_mm, double height_mm, double font_pt);
// The ticks draw_plot chooses for each axis at that size.
std::pair<PrintTicks, PrintTicks> plot_ticks(const PlotSpec& s, double width_mm, double height_mm, double font_pt);

}  // namespace normlab
