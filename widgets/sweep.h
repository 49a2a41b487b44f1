// NormLab widgets: a sweep's runs as parallel coordinates.
//
// One vertical axis per setting that differs among the runs shown (peak
// learning rate, scheme, depth, seed, ...) and a last axis for the outcome
// (the final validation loss by default); each run is a line through its
// values, coloured by its outcome, best (lowest) darkest (brightest in a dark
// window) and drawn on top.
// What W&B's parallel-coordinates panel shows for a sweep (W&B #598), for
// NormLab's runs: which setting moved the loss, at a glance, before any
// per-step chart. Numeric settings sit at their values (on a log axis where
// they span a decade or more, as learning rates do) and are labelled at the
// values the runs took; other settings (layout, activation, on/off) are
// categories, each in the middle of its share of the axis (none on its ends,
// where two runs' lines would run along the plot's edges). A run still training sits at its latest outcome; one without
// any (diverged, or not evaluated yet) is a grey dashed line that stops at
// the last setting.
//
// draw_sweep is the drawing for the window and for figures (plot_figure.h's
// page units), so an export and `normlab figure --view sweep` are the same
// drawing as the tab.
#pragma once

#include "widgets/plot_figure.h"

#include <nlohmann/json.hpp>

#include <QColor>
#include <QPalette>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

namespace normlab {

// Which of the settings that differ the sweep leaves out.
struct SweepOptions {
    // Settings each run has at the value its scheme gives it (layout, final_norm, NormFormer's switches,
    // nGPT's activation, ... when schemes are compared): the scheme's axis says them already. A setting
    // any run changed from its scheme's keeps its axis.
    bool fold_implied = true;
    QStringList hidden;   // settings left out by name, as their axes are named ("optim.lr", "layout")
};

// A run as the sweep needs it: its label, settings and outcome (NaN: none yet).
struct SweepRun {
    QString label;
    nlohmann::json config;
    double metric;
};

struct SweepSpec {
    QString title, metric_title;
    QString empty_hint;   // drawn instead when there is nothing to compare
    struct Axis {
        QString name;
        bool numeric = true, log = false;
        double lo = 0, hi = 1;          // numeric: the range of the values (log10 of them on a log axis)
        std::vector<double> ticks;      // numeric: the values the runs took (data units), or a choice of them
        QStringList categories;         // otherwise: in order, bottom to top
        bool ends = false;              // the outcome's: the first and last ticks are its lowest and highest value
    };
    std::vector<Axis> axes;   // the settings that differ, then the outcome
    struct Line {
        QString run;
        QStringList values;          // as stored, one per setting axis
        std::vector<double> pos;     // 0 (bottom) .. 1 (top) on each setting axis
        double metric;               // NaN: none yet
        double metric_pos;           // 0 .. 1 on the outcome axis (NaN: none)
    };
    std::vector<Line> lines;
    QStringList implied, hidden;   // settings that differ but are left out (SweepOptions), in axis order
};

// The settings that differ among `runs` (the config flattened to dotted keys, its "name" left out), each an
// axis, but for those `o` leaves out; then `metric_title`'s axis. Fewer than two runs, or none differing (or
// shown): no axes, and `empty_hint` says why.
SweepSpec sweep_spec(const std::vector<SweepRun>& runs, const QString& metric_title, const SweepOptions& o = {});
// "Not shown: ..." naming the settings `s` leaves out and why; "" when none.
QString sweep_left_out(const SweepSpec& s);

// Where the parts went: the axes' x and the plot's top and bottom (device pixels).
struct SweepGeometry {
    std::vector<double> x;
    double top = 0, bottom = 0;
    QPointF at(const SweepSpec& s, size_t line, size_t axis) const;   // NaN y where the line has no value there
};
// The colours a sweep is drawn in: a figure's (dark ink on white; the default), or a dark window's (light
// ink on its ground, the outcome's colours from bright, the best, to dim, so that the best line stands out
// there as the darkest does on white and none sinks into the ground).
struct SweepInk {
    QColor ground = Qt::white;
    QColor fg = QColor(30, 30, 30);
    bool dark = false;
    static SweepInk screen(const QPalette& palette);   // a light palette: the figure's
};
// Draws `s` into `r` (its ground already painted); `highlight` (a line's index, -1: none) on top, the others faded.
SweepGeometry draw_sweep(QPainter& p, const QRectF& r, const SweepSpec& s, const PrintUnits& u, int highlight = -1,
                         const SweepInk& look = {});
// The outcome's colour at `pos` (0: the best, at the bottom of its axis; 1: the worst).
QColor sweep_outcome_color(double pos, bool dark);
// The height (mm) a sweep needs at `width_mm` for its axes to be `aspect` × the width high.
double sweep_height_mm(const SweepSpec& s, double width_mm, double font_pt, double aspect);

// The Sweep tab's chart: draw_sweep at the screen's size, the line under the
// mouse highlighted and named in a tooltip (the run, its settings, its outcome);
// a click pins a line's highlight (a click off the lines lets it go), as a line
// chart's readout is pinned.
class SweepChart : public QWidget {
    Q_OBJECT
public:
    explicit SweepChart(QWidget* parent = nullptr);
    void setSpec(SweepSpec s);
    const SweepSpec& spec() const { return spec_; }
    // The line nearest `pos` within a few pixels, -1 if none (as last drawn).
    int lineAt(const QPointF& pos) const;
    // The setting whose axis is nearest `pos` (within half the room between axes), -1 if none; the outcome's is none.
    int axisAt(const QPointF& pos) const;
    QString lineText(int line) const;
    int highlighted() const { return hover_ >= 0 ? hover_ : pinned_; }
    int pinned() const { return pinned_; }
    // run, each setting, the outcome: one row a run.
    bool exportCsv(const QString& path, QString* error) const;
    QSize sizeHint() const override { return {640, 420}; }
    QSize minimumSizeHint() const override { return {300, 200}; }

protected:
    void paintEvent(QPaintEvent*) override;
    bool event(QEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void leaveEvent(QEvent* e) override;

private:
    SweepSpec spec_;
    SweepGeometry geometry_;
    int hover_ = -1;
    int pinned_ = -1;
};

}  // namespace normlab
