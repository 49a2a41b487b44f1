// NormLab widgets: a line chart that stays fast and honest with long series.
//
// Keeps every point of every curve and draws, for the visible x range, a
// per-pixel-column first/min/max/last reduction pushed with one replace()
// per series (Qt Charts' append() is O(n) per point): no random sampling and
// no hidden spike; the footer says "N points → M drawn". Smoothing is a
// debiased EMA over the full data, drawn over the faint raw curve. Non-finite
// values (a diverged loss) are marked with a red triangle at the top edge
// instead of silently disappearing; on a log axis, values ≤ 0 are left out
// and counted in the footer instead of blanking the series; log axes are
// labelled at any range (core/axis_ticks.h), not only at powers of ten.
// Zoom with the mouse (rubber band), reset with a right click or resetZoom().
#pragma once

#include "core/series.h"
#include "core/store/store.h"
#include "widgets/elided_label.h"

#include <QColor>
#include <QMargins>
#include <QRect>
#include <QSizeF>
#include <QString>
#include <QWidget>

#include <functional>
#include <limits>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QChartView;
class QLabel;
class QAbstractAxis;
class QCategoryAxis;
class QAreaSeries;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsSimpleTextItem;
class QLineSeries;
class QScatterSeries;
class QTextStream;
class QTimer;
class QValueAxis;
QT_END_NAMESPACE

namespace normlab {

class ChartCard;
class ChartLegend;

// Sets an axis's title (plain text or HTML) and its font: where the title is
// Chinese (or Japanese or Korean), the font Qt falls back to for it comes
// first. Qt Charts gives a y title, when room is short, the height of "..." in
// its font, and cuts a title whose line is taller to "...": in 简体中文 every y
// title over labels as narrow as "4" showed as a bare "⋮", its characters
// drawn by a taller font than the Latin one the "..." was measured in.
void setAxisTitle(QAbstractAxis* axis, const QString& title);

struct Curve;
// The x extent a chart smooths along (smooth_along_x's span): of every curve given, in log10 x when
// log_x (points at x ≤ 0 left out); 0 when there is none.
double smoothingSpan(const std::vector<Curve>& curves, const std::vector<Curve>& more, bool log_x);
// A curve's y smoothed along its x (log10 x when log_x) over `span`; empty when it is not to be smoothed.
std::vector<double> smoothedCurve(const Curve& c, double smoothing, double span, bool log_x);

struct Curve {
    QString label;
    QColor color;
    std::vector<double> x, y;        // full resolution; y may hold NaN/Inf
    Qt::PenStyle style = Qt::SolidLine;
    double width = 1.6;
    bool smooth = true;              // the EMA applies to this curve
    bool markers = false;            // short series: a dot per point
    std::vector<double> band_lo = {}, band_hi = {};   // a shaded band around the line (a group's spread), aligned with x
    bool legend = true;              // an entry in the legend (the readout names every curve)
    // What a figure's legend groups by (plot_figure.h): the run or group the
    // curve belongs to ("" : its label), which kind of line of it ("train",
    // "validation"; drawn with its own dash) and its layer (-1: none).
    QString run = {};
    QString part = {};
    int layer = -1;
    // A figure's colour where the screen's differs: a dark theme draws a per-layer ramp bright to dim, where a
    // figure's page (white) takes it dark to light. Invalid: `color` on both.
    QColor print_color = {};
};

// The dash of a chart's reference line h (a loss floor, the unigram loss), on screen and in figures:
// none that a kind of curve takes (train solid, validation dashed), and no two of them alike — the
// loss floor and the unigram loss were the same grey dash-dot, told apart by the legend's order alone.
Qt::PenStyle reference_line_style(size_t h);

// Labels a linear value axis standing upright (a category axis with its labels on the values, its range
// set) as a line chart's y axis: as many ticks as `room` pixels of it hold, in one notation
// (core/print_ticks.h). Unchanged labels are left alone. For charts of Qt's own: the gains' box plots.
void label_value_axis(QCategoryAxis* ax, double room, bool integer = false);

class LineChart : public QWidget {
    Q_OBJECT
public:
    explicit LineChart(QWidget* parent = nullptr);

    void setTitle(const QString& title);
    // y_short: the y title where the full one does not fit (a low chart: "lr"
    // for "learning rate"), else the full one elided in the middle.
    void setAxisTitles(const QString& x, const QString& y, const QString& y_short = QString());
    // Replaces the curves; keeps the zoom when keep_zoom and the user zoomed.
    // At most kMaxCurves are drawn: whole runs (Curve::run), the first ones,
    // while their curves fit; the footer says how many of how many runs.
    void setCurves(std::vector<Curve> curves, bool keep_zoom = true);
    // Qt Charts takes each series out of a chart in time proportional to the
    // chart's series (its legend's markers measured again, a signal of each
    // axis searched): 7,200 per-layer lines (150 runs of 48 layers) took 36 s
    // to go. Past this many a chart is no longer read either.
    static constexpr size_t kMaxCurves = 500;
    std::pair<int, int> runsDrawn() const { return runs_drawn_; }   // (drawn, given); equal when none left out, (0, 0) when under the cap
    // The curves of the runs past those: not on screen, but in every export (figure, CSV), which
    // NormLab draws itself.
    const std::vector<Curve>& curvesLeftOut() const { return left_out_; }
    void setHLines(std::vector<std::pair<double, QString>> lines);   // reference lines (reference_line_style)
    // What to do when there is nothing to draw, shown in the middle of the
    // empty plot (never in an export); "" for none.
    void setEmptyHint(const QString& hint);
    QString emptyHintShown() const;   // the hint as shown now; empty when hidden
    void setLogY(bool on);
    bool logY() const { return log_y_; }
    // Log x: points at x ≤ 0 (step 0) are left out and counted in the footer.
    void setLogX(bool on);
    bool logX() const { return log_x_; }
    // Smoothing along x (smooth_along_x in core/series.h): 0 (off) .. 0.999, over every curve's
    // x extent, in log10 x on a log x axis; a figure of the chart smooths over the same span.
    void setSmoothing(double s);
    double smoothing() const { return smoothing_; }
    double smoothingSpan() const { return smoothing_span_; }
    void resetZoom();
    // Charts over one x axis (the loss and, under it, its learning rate; linechart_link.cpp): a zoom of
    // either's x (the rubber band, a right-click out, resetZoom) the other's too, and the plot areas' left
    // and right edges in line on screen, whatever their tick labels and legends take, so that a step stands
    // at one place in both.
    static void linkX(LineChart* a, LineChart* b);
    // The x range fitted when not zoomed covers at least [lo, hi] (data units; NaN: its curves' alone):
    // linked charts fit one range, their curves' together.
    void setXExtent(double lo, double hi);
    std::pair<double, double> xRange() const;   // the x axis's range now, in data units (not log10)
    QRect plotAreaOnScreen() const;              // the plot area in global coordinates
    QString title() const;
    QString xTitle() const { return x_title_; }
    QString yTitle() const { return y_title_; }
    const std::vector<std::pair<double, QString>>& hlines() const { return hlines_; }
    // A figure for print (normlab figure): no footer (it is UI text), every
    // font at `font_pt` points (the title 10% larger), thin margins.
    void setPrintStyle(double font_pt);

    const std::vector<Curve>& curves() const { return curves_; }
    size_t pointsTotal() const;
    size_t pointsDrawn() const { return drawn_; }
    QString footer() const;
    // What the footer counts in place of "N points → M drawn", where a curve's
    // vertices are not the data (a histogram's corners: "128 values in 32
    // bins"); asked again on each redraw and in a new language. Empty: the
    // points. The notes (hidden lines, zoom) follow either.
    void setCountCaption(std::function<QString()> caption);
    // A note after the count ("nothing recorded by 1 of 4 runs: Post-LN"); empty for none.
    void setNote(const QString& note);
    QChart* chart() const { return chart_; }
    QChartView* view() const { return view_; }

    // Writes the chart as it looks, with title, axis titles and legend.
    // format: "png" (at `dpi`), "svg" or "pdf". Returns false with `error` set.
    bool exportFigure(const QString& path, const QString& format, int dpi, QString* error) const;
    // Every point of every curve shown (never the reduced view; not what the legend hid), long format;
    // false with `error` when the legend hid them all.
    bool exportCsv(const QString& path, QString* error) const;
    // The same rows into `out`, each led by the field `lead` where it is not empty (a panel's chart).
    void writeCsvRows(QTextStream& out, const QString& lead) const;
    QString csvXTitle() const;   // the x column's name: the x axis's title, or "x"

    // The axes' tick labels as drawn: 1-2-5 steps on linear axes, and on a log
    // axis labels at any range (axis_ticks.h).
    QStringList yTickLabels() const;
    QStringList xTickLabels() const;
    // An axis title as drawn: elided in the middle when it does not fit, the
    // full text then in the chart's tooltip.
    QString axisTitleShown(Qt::Orientation o) const;

    // Hover readout: a vertical line at the x under the mouse and every
    // curve's value there (its nearest point; the smoothed value beside the
    // raw one when smoothing is on). A click pins it, another click frees it.
    QString readoutAt(double x) const;
    QString readoutText() const;   // as shown now; empty when hidden
    bool readoutPinned() const { return pinned_; }
    // A chart lower than this hides its legend on screen (the plot needs the
    // room: Qt Charts elided every tick label); an export always draws it.
    static constexpr int kLegendMinHeight = 190;
    // Lower than this, the legend goes beside the plot, not below it, where
    // it leaves the plot half the width or more.
    static constexpr int kLegendBelowMinHeight = 260;

    // The legend on screen (chart_legend.h): its entries wrap into rows below
    // the plot, or stand in a column beside it, scrolled where even that is
    // too much; none is ever cut off. A click on an entry hides or shows what
    // it names, a double-click shows only it among its kind. Hidden curves
    // leave the plot, its ranges, the readout and an export; the footer
    // counts them. Which entries are hidden is kept by name while the same
    // names are shown (a live refresh, another tab and back).
    ChartLegend* legend() const { return legend_; }
    QStringList legendShown() const;                 // the entries listed, as on screen; empty when the legend is hidden
    Qt::Alignment legendAlignment() const;           // AlignBottom (rows below) or AlignRight (a column beside)
    void toggleLegendEntry(int index);               // as a click on it
    void showOnlyLegendEntry(int index);             // as a double-click on it
    void showAllLegendEntries();                     // the legend's menu: every line shown again
    bool curveShown(size_t i) const { return i >= curve_shown_.size() || curve_shown_[i]; }
    bool hlineShown(size_t i) const { return i >= hline_shown_.size() || hline_shown_[i]; }
    size_t curvesHidden() const;

Q_SIGNALS:
    void xZoomed(double lo, double hi);   // the user zoomed the x axis to [lo, hi] (data units)
    void zoomReset();

protected:
    void resizeEvent(QResizeEvent* e) override;
    void changeEvent(QEvent* e) override;   // the footer in a new language, also on a tab not shown
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // linechart_legend.cpp
    void placeLegend();      // rows below the plot where they leave it the room, else a column beside it
    // Several runs' per-layer curves: one entry per run, its colour ramp as the marker (as a
    // figure's legend); runs drawn as train and validation: each run once and each kind once;
    // else each curve by its name. Then the reference lines and the non-finite marker.
    void makeLegendEntries();
    void applyShown();       // hidden entries' curves and lines off the plot
    void shownChanged();     // applyShown, then the ranges, the drawing and a pinned readout
    bool keyHidden(const QString& key) const;
    void legendMenu(const QPoint& pos);   // right-click on the legend
    ChartLegend* legend_ = nullptr;
    ChartCard* card_ = nullptr;      // the plot and its legend on the chart's background
    std::vector<QString> entry_keys_;              // per legend entry: what hiding it is kept by
    std::vector<std::vector<size_t>> entry_curves_;   // per legend entry: the curves it names
    std::vector<int> entry_hline_;                 // per legend entry: its reference line, or -1
    int nonfinite_entry_ = -1;
    std::vector<QString> hidden_keys_;
    std::vector<char> curve_shown_, hline_shown_;
    void rebuild();          // series objects and axes
    void rebuildSeries();
    void redraw();           // reduction of the visible range
    void scheduleRedraw();
    void fitRanges();
    QAbstractAxis* yAxis() const;

    QChart* chart_;
    QChartView* view_;
    ElidedLabel* footer_;   // cut to the chart's width (whole in its tooltip): a long one widened the tab, which scrolled sideways
    std::function<QString()> count_caption_;
    QString note_;   // setNote
    QTimer* redraw_timer_;
    std::vector<Curve> curves_;
    std::vector<std::vector<double>> smoothed_;
    std::vector<QLineSeries*> raw_series_, smooth_series_;
    std::vector<QScatterSeries*> marker_series_;
    std::vector<QAreaSeries*> band_series_;        // per curve, null without a band
    QScatterSeries* nonfinite_ = nullptr;
    std::vector<QLineSeries*> hline_series_;
    std::vector<std::pair<double, QString>> hlines_;
    QAbstractAxis* x_axis_ = nullptr;               // x_lin_ or x_log_, whichever is in use
    QAbstractAxis* x_lin_ = nullptr;
    QAbstractAxis* x_log_ = nullptr;
    bool log_x_ = false;
    // Log x: each curve's points at x > 0 with log10(x), in axis space (x is sorted, so a suffix).
    struct LogXView {
        std::vector<double> x, y, sm, lo, hi;
    };
    std::vector<LogXView> logx_;
    size_t hidden_x_ = 0;
    void prepareLogX();
    struct View {
        const std::vector<double>* x;
        const std::vector<double>* y;
        const std::vector<double>* sm;   // null: not smoothed
        const std::vector<double>* lo;
        const std::vector<double>* hi;
    };
    View viewOf(size_t i) const;   // curve i in axis space
    QAbstractAxis* y_axis_ = nullptr;               // y_lin_ or y_log_, whichever is in use
    QAbstractAxis* y_lin_ = nullptr;
    QAbstractAxis* y_log_ = nullptr;
    bool log_y_ = false;
    void updateLogLabels(QAbstractAxis* axis);
    bool x_integer_ = false;   // every x is a whole number (steps, layers): no ticks between them
    void updateLinearTicks(QAbstractAxis* axis, bool integer);
    void applyAxisTitles();
    bool applying_titles_ = false;
    // linechart_readout.cpp
    void showReadout(const QPoint& viewport_pos);
    void hideReadout();
    void refreshPinnedReadout();   // new data under a pinned readout: its values again
    double snapX(double x) const;  // the x of the data point nearest to x (a step, never 13.5434)
    double readout_x_ = 0;
    QGraphicsLineItem* cross_ = nullptr;
    QGraphicsRectItem* readout_box_ = nullptr;
    QGraphicsSimpleTextItem* readout_text_ = nullptr;
    bool pinned_ = false;
    QPoint press_pos_;
    double smoothing_ = 0.0;
    double smoothing_span_ = 0.0;
    void resmooth();   // smoothed_ and smoothing_span_ for the curves, smoothing and x scale
    bool zoomed_ = false;
    bool setting_range_ = false;
    // linechart_link.cpp
    void followX(double lo, double hi);   // a linked chart's zoom: the x range without a signal
    void userZoomedX();                    // the x axis's range changed by the user: zoomed, the link told
    bool following_ = false;
    double extent_lo_ = std::numeric_limits<double>::quiet_NaN(), extent_hi_ = std::numeric_limits<double>::quiet_NaN();
    QMargins margins_extra_;               // added to the chart's margins to bring the plot in line with a linked one
    size_t drawn_ = 0, hidden_nonpositive_ = 0, nonfinite_count_ = 0;
    std::pair<int, int> runs_drawn_{0, 0};
    std::vector<Curve> left_out_;
    static void writeCsvCurve(QTextStream& out, const QString& first, const Curve& c);
    void showFooter();   // footer() in the footer line and its tooltip
    QString title_, x_title_, y_title_, y_short_;   // as set: with their scripts marked (math_text.h)
    QLabel* empty_hint_ = nullptr;
    QSizeF ticked_area_;   // the plot area the linear ticks were last counted for
    void placeEmptyHint();
};

// One color per run, the same everywhere (Tableau 10).
// Palette entry `index` (core/palette.h): for lines that are not runs, e.g. a
// report figure's groups.
QColor run_color(int index);
// The run's own colour, stored with it: the same in every view and selection.
QColor run_color(const RunInfo& run);

}  // namespace normlab
