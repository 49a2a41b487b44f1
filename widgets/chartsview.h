// NormLab widgets: every chart of the selected runs, live or saved.
//
// Tabs: Loss (train with debiased EMA over the faint raw curve, validation,
// the loss floor of synthetic sources, learning rate; x by step, tokens or
// wall time), Gradients (per-layer lines for a chosen weight and norm, and a
// layer × step heatmap per run), Gains (per-layer box plots of a learned gain
// at a step chosen with a slider, and its histogram), Layers (any per-layer
// probe: hidden-state norms, eigen learning rates, condition numbers on a
// log axis, attention logits, sparsity, similarity), Scalars (gradient norm,
// α_t, tokens/s...), Sweep (the runs as parallel coordinates: an axis per
// setting that differs among them and one for their outcome, sweep.h).
// Several runs overlay with one color per run everywhere.
// Reads through RunData only: the same code for live and saved runs; refresh()
// reads new rows and redraws what changed (the owner calls it on a timer).
#pragma once

#include "core/config.h"
#include "core/store/store.h"
#include "widgets/plot_figure.h"
#include "widgets/rundata.h"

#include <QWidget>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

QT_BEGIN_NAMESPACE
class QBoxPlotSeries;
class QCheckBox;
class QComboBox;
class QLabel;
class QMenu;
class QSlider;
class QSpinBox;
class QSplitter;
class QTabWidget;
class QChart;
class QChartView;
class QVBoxLayout;
QT_END_NAMESPACE

namespace normlab {

class ChartCard;
class LineChart;
class Heatmap;
class HeatmapGrid;
class FlowLayout;
class SweepChart;
class ElidedLabel;
class BlockView;

class ChartsView : public QWidget {
    Q_OBJECT
public:
    explicit ChartsView(QWidget* parent = nullptr);

    // The runs to show, in color order.
    void setRuns(const std::vector<int64_t>& run_ids, Store& store);
    // Runs of several stores: (store, id), a null store meaning `store`, the window's own.
    void setRuns(const std::vector<std::pair<Store*, int64_t>>& runs, Store& store);
    // Runs shown from now on read only the series (and distributions) that `view` (as showView
    // takes it) draws with `probe`, through RunData::setWanted: a figure of one view of long runs
    // reads what it draws, not every probe. A loss figure of two runs of 4.2 M points each read them
    // all: 2.2 s and 444 MB, where it now takes 1.2 s and 271 MB (0.6 s and 194 MB of that for any figure).
    void readOnlyWhatIsDrawn(const QString& view, const QString& probe);
    const std::vector<std::unique_ptr<RunData>>& runs() const { return runs_; }
    // Reads new rows of the runs shown; redraws when something changed. Returns whether it did.
    bool refresh(Store& store);
    // The same in slices (RunData::refresh): reads until `until` (a series at least), then
    // returns false, the rest left for the next call; true once a pass over the runs has
    // ended (and the visible tab was redrawn where anything changed). The window calls it
    // again between its events until it has.
    bool refreshUntil(Store& store, std::chrono::steady_clock::time_point until);

    void setLogY(bool on);
    bool logY() const;
    void setSmoothing(double s);
    double smoothing() const;
    // 0: every run its own line; 1: runs that differ only by seed as their
    // mean ± std; 2: as their mean with a min–max band.
    void setGrouping(int mode);

    QTabWidget* tabs() const { return tabs_; }
    LineChart* lossChart() const { return loss_; }
    LineChart* gradChart() const { return grad_lines_; }
    LineChart* layerChart() const { return layer_chart_; }
    QWidget* currentChart() const;                 // the chart export acts on
    QWidget* currentPanel() const;                 // all charts of the tab, as one figure

    // Where a run's colour comes from: its stored colour unless set (the
    // window: the run table's, distinct across the stores it shows).
    void setColorSource(std::function<QColor(const RunData&)> color_of);
    QColor runColor(const RunData& r) const;

    // The charts' theme (Qt Charts' light or dark; the window follows its palette). Dark draws every
    // per-layer ramp bright (first layer) to dim, so that no layer sinks into the dark plot; figures and
    // exports keep the light drawing (Curve::print_color). Redraws.
    void setDark(bool dark);
    bool dark() const { return dark_; }
    // A per-layer curve's colour: the run's hue from dark (first layer) to bright on a light ground, from
    // bright to dim on a dark one; or viridis by layer alone (the first layer at its end that stands out).
    static QColor layerColor(const QColor& run, int layer, int layers, bool by_layer, bool dark = false);

    // The gains view's box plots as a figure draws them (plot_figure.h).
    const BoxSpec& boxSpec() const { return box_spec_; }
    // The sweep view's parallel coordinates as drawn (sweep.h).
    const struct SweepSpec& sweepSpec() const;
    // Which settings the sweep leaves out: those the scheme implies (unless "settings the scheme implies" is
    // ticked) and those hidden by name.
    void setSweepOptions(const struct SweepOptions& o);
    struct SweepOptions sweepOptions() const;
    // The sweep chart's right-click menu at `pos` (its coordinates): hide the setting whose axis is there,
    // show the hidden ones again, show or fold the settings the scheme implies. The caller owns it.
    QMenu* sweepMenu(const QPoint& pos);

    // Exports a chart or panel: png (dpi), svg, pdf, or csv (every point of the
    // curves shown; the Loss panel's: the loss and the learning rate, a column
    // naming the chart). A figure at the size it has on screen, drawn as normlab
    // figure draws (plot_figure.h): nothing of the window in it.
    bool exportCurrent(const QString& path, const QString& format, int dpi, bool whole_panel, QString* error);
    // The current chart (whole_panel: all charts of the tab, stacked) as a
    // figure `width_mm` wide, `height_mm` high (0: as it needs) with fonts at `font_pt`.
    // The smallest text on paper of exportFigure(width_mm, font_pt): font_pt, but for the Block tab's
    // blocks, which may be drawn a little under it to save a row (block_rows).
    double figureTextPt(double width_mm, double font_pt) const;
    bool exportFigure(const QString& path, const QString& format, int dpi, bool whole_panel, double width_mm,
                      double height_mm, double font_pt, QString* error);

    // For scripts (normlab figure): shows `view` — loss, gradients, gains,
    // layers, scalars or sweep — with the weight (gradients: fc2, q, …), norm (l1,
    // l2, expected) or probe (layers, scalars: a series name such as
    // hidden/norm or train/grad_norm; sweep: its outcome, final_val,
    // best_val or final_train) given; empty means the view's default.
    // False with `error` naming the option and what exists (a chart of nothing that exists in these runs is
    // shown: nothingDrawn() says so).
    bool showView(const QString& view, const QString& weight, const QString& norm, const QString& probe, QString* error);
    // The runs shown of which the current tab draws nothing, by their labels: they record none of the
    // series it shows (NormFormer's FFN-LN gains, nGPT's eigen learning rates beside Pre-LN's), or nothing
    // yet. Empty where every run shown has it; all of them where none does (the chart's empty hint says why).
    QStringList runsLacking() const;
    // Where the current tab draws nothing of any run shown, for that reason: why, as its empty hint says it
    // ("None of the shown runs has recorded …\nIt exists only in nGPT runs."); else "".
    QString nothingDrawn() const;
    // The Layers tab against depth (chartsview_layers.cpp): each run's value of its probe in every layer
    // at the last step recorded at or before `step` (< 0: the last recorded). False, with `error`
    // saying why, where no run recorded the probe by then.
    bool showLayersAt(int64_t step, QString* error);

    // A probe's name without its parenthesis ("" where it has none): the y
    // title where the whole does not fit, as on a laptop's Scalars tab.
    static QString shortTitle(const QString& name);

    // The Block tab (chartsview_block.cpp, blockview.h): the form's block — `cfg` as the experiment form
    // describes it, the parts `offered` accepts (toggles the form can switch now) drawn dashed where
    // off — before each selected run's. A click on one of the form's parts asks blockToggleRequested.
    void setFormConfig(const RunConfig& cfg, std::function<bool(const QString&)> offered);
    BlockView* blockView() const { return block_; }
    static constexpr int kLossTab = 0, kGradTab = 1, kGainsTab = 2, kLayersTab = 3, kScalarsTab = 4, kSweepTab = 5,
                         kBlockTab = 6;
    static constexpr size_t kMaxBlockPanels = 6;   // runs' blocks side by side; runs drawn alike share one

protected:
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;

Q_SIGNALS:
    // A run's store could not be read: the run is drawn as it was last read.
    void storeUnreadable(const QString& message);
    // A click on a part of the form's block: switch the form's toggle `setting` (a JSON path).
    void blockToggleRequested(const QString& setting);

private:
    void redrawAll();
    void redrawTab(int index);
    void redrawLoss();
    void redrawGradients();
    void redrawGains();
    void redrawLayers();
    void redrawScalars();
    void redrawSweep();
    void redrawBlock();
    QWidget* buildLossTab();
    QWidget* buildGradTab();
    QWidget* buildGainsTab();
    QWidget* buildLayersTab();
    QWidget* buildScalarsTab();
    QWidget* buildSweepTab();
    QWidget* buildBlockTab();
    std::vector<struct Curve> perLayerCurves(const std::string& name, bool by_layer_color) const;
    // A step slider (Gains, Layers) over `steps` (ascending; the slider an index into them) and its label:
    // kept at its end, where it follows a live run's new steps, else at its index. The step it shows.
    int64_t stepOfSlider(QSlider* slider, QLabel* label, const std::vector<int64_t>& steps);
    // Every step at which a run shown recorded `name` in some layer, ascending.
    std::vector<int64_t> layerSteps(const std::string& name) const;
    // A curve per run (a group's where runs are grouped): x the layer, y its value at `step`.
    std::vector<struct Curve> byLayerCurves(const std::string& name, int64_t step) const;
    RunData::XUnit xUnit() const;
    QString xTitle() const;
    // A run in legends and titles: its name, and "name (#id)" only where
    // another run shown has the same name.
    QString runLabel(const RunData& r) const;
    // What an empty chart of `series` (a store name such as "cond/q") should say (chartsview_hints.cpp).
    QString emptyHint(const std::string& series, const QString& label) const;
    // What the Gradients tab's empty chart says where the runs record other weights' gradients but
    // none of `weight`'s: their models have no such weight (nGPT's norm1), and which ones do.
    QString weightHint(const QString& weight) const;
    // The runs shown for which `has` is false, kept as tab `tab`'s runsLacking(), and the chart footer's
    // note naming them ("nothing recorded by 1 of 4 runs: Post-LN"; "" where every run or none has it).
    QString noteLacking(int tab, const std::function<bool(const RunData&)>& has);
    // Groups (the "Group runs" choice): the curves of runs that differ only by
    // seed, one per quantity (same label after the run's), become one curve —
    // their mean — with a band (± std or min–max). owner[k]: the run index of
    // curves[k]. Runs alone in their group keep their curves.
    std::vector<struct Curve> grouped(std::vector<struct Curve> curves, const std::vector<size_t>& owner) const;
    // Translated text that follows a language switch (see retranslate()).
    QLabel* trLabel(const char* source, QWidget* parent);
    QCheckBox* trCheckBox(const char* source, QWidget* parent);
    // An item whose text is tr(source), its scripts (math_text.h) as Unicode's letters.
    void addTrItem(QComboBox* combo, const char* source, const QVariant& data = {});
    // The current item's tr(source) with its scripts marked, for a chart's titles.
    QString markedText(const QComboBox* combo) const;
    void setTrToolTip(QWidget* w, const char* source);
    void retranslate();
    // The current tab's charts as rows of drawings, each with its share of the figure's height.
    struct PaneRow {
        double share;
        std::vector<std::function<void(QPainter&, const QRectF&, const PrintUnits&)>> cells;
        // what one cell needs at that width for a plot `aspect` × as high as wide
        std::function<double(double width_mm, double font_pt, double aspect)> height_mm;
    };
    // heatmaps: two a row in a column, four in a page; blocks: as many a row as fit at font_pt
    std::vector<PaneRow> figureRows(bool whole_panel, double width_mm, double font_pt) const;

    QTabWidget* tabs_;
    QComboBox* group_;                             // none, by seed ± std, by seed min–max
    std::vector<QWidget*> panels_;                 // per tab: its charts without the controls
    std::vector<bool> stale_;                      // per tab: data changed since it was last drawn
    std::vector<QStringList> lacking_;             // per tab: runsLacking() when it was last drawn
    std::vector<std::unique_ptr<RunData>> runs_;
    // True when the pass ended; then `changed`: whether anything was read in it.
    bool readRuns(Store& store, std::optional<std::chrono::steady_clock::time_point> until, bool& changed);
    // RunData::refresh, a store that cannot be read (deleted, replaced) reported (storeUnreadable)
    // and its run left as last read.
    bool readRun(RunData& r, Store& store, std::optional<std::chrono::steady_clock::time_point> until = std::nullopt);
    size_t pass_run_ = 0;                          // the run a sliced pass goes on with
    bool dark_ = false;                            // setDark
    bool pass_changed_ = false;                    // anything read so far in this pass
    // The stores' generations when the pass in progress and the last whole pass began: a pass
    // starts only when one has changed (a store of 2,000 runs selected read every run's row each tick).
    std::vector<Store::Generation> pass_generations_, read_generations_;
    std::vector<Store::Generation> generations(Store& store) const;
    // loss tab
    LineChart* loss_;
    LineChart* lr_;
    QComboBox* xunit_;
    QCheckBox* log_;
    QCheckBox* loss_logx_;
    QCheckBox* grad_logx_;
    QCheckBox* scalar_logx_;
    QSlider* smooth_;
    QLabel* smooth_label_;
    // gradients tab
    LineChart* grad_lines_;
    QComboBox* grad_weight_;
    QComboBox* grad_norm_;
    QCheckBox* heat_log_;
    QCheckBox* heat_shared_;
    HeatmapGrid* heat_grid_;   // the heatmaps, one or more a row
    std::vector<Heatmap*> heatmaps_;   // one a run, in the runs' order
    // Those placed: a run whose model has no such weight (it records other weights' gradients, not
    // this one's: nGPT's norm1) is left out, the line chart's footer naming it; a run yet to record
    // any keeps its heatmap, which says so.
    std::vector<Heatmap*> heat_shown_;
    QWidget* grad_page_;
    FlowLayout* grad_bar_;
    QSplitter* grad_split_;
    // The heatmaps in as few columns as let the page fit the tab without
    // scrolling (one a row for one or two runs, two beyond, where there is
    // room): two runs side by side on a laptop's window, stacked on a large
    // one, four in one row of a laptop's window where they share a colour scale.
    void placeHeatmaps();
    // gains tab
    QComboBox* gain_name_;
    QString gain_choice_;                          // what the user picked, kept across refreshes
    QSlider* gain_step_;
    QLabel* gain_step_label_;
    QSpinBox* gain_layer_;
    QChart* box_chart_;
    QChartView* box_view_;
    ChartCard* box_card_;   // the box plots with a legend that wraps (Qt's elided eight runs to "nf se…")
    BoxSpec box_spec_;   // what box_chart_ shows, for figures
    QStringList box_hidden_;   // runs (by label) whose boxes and histogram a click on the legend hid
    QString boxYTitle(const QString& name) const;   // the name where the plot is high enough, else "gain" or none
    std::function<QColor(const RunData&)> color_of_;
    std::function<bool(const std::string&)> wanted_;   // readOnlyWhatIsDrawn
    bool wanted_distributions_ = true;
    LineChart* hist_;
    // What the histogram shows, bin by bin, for the panel's CSV (its curve holds each bin's two corners).
    struct HistBins {
        qint64 run;
        QString name;
        int layer;
        int64_t step;
        double lo, width;
        std::vector<float> counts;
    };
    std::vector<HistBins> hist_bins_;
    // layers tab
    LineChart* layer_chart_;
    QComboBox* layer_series_;
    QComboBox* layer_axis_;        // x: the step (a line per layer) or the layer (a line per run)
    QSlider* layer_step_;          // against depth: the step drawn, an index into layerSteps
    QLabel* layer_step_label_;
    QCheckBox* layer_log_;
    // scalars tab
    LineChart* scalar_chart_;
    QComboBox* scalar_series_;
    QCheckBox* scalar_log_;
    // sweep tab
    SweepChart* sweep_;
    QComboBox* sweep_metric_;   // the outcome: final or best validation loss, final training loss
    QCheckBox* sweep_implied_;  // show the settings the scheme implies as axes
    QStringList sweep_hidden_;  // settings hidden from the sweep by name
    ElidedLabel* sweep_note_;   // what is not shown, and how to show it
    // block tab
    BlockView* block_;
    QCheckBox* block_form_;       // the form's block drawn first
    ElidedLabel* block_note_;     // the colours' key, and what is not shown
    std::optional<RunConfig> form_cfg_;
    std::function<bool(const QString&)> form_offered_;
    QString block_key_;           // what the blocks were last drawn from (redrawBlock)
};

}  // namespace normlab
