// NormLab widgets: LineChart (see linechart.h).
#include "widgets/linechart.h"

#include "core/palette.h"

#include "widgets/chart_card.h"
#include "widgets/chart_legend.h"
#include "widgets/math_text.h"
#include "widgets/figure.h"
#include "widgets/plot_figure.h"

#include "core/axis_ticks.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsScene>
#include <QFontMetrics>
#include <QFile>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QLabel>
#include <QLineSeries>
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QTextStream>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <map>
#include <set>
#include <cmath>
#include <limits>
#include <tuple>

namespace normlab {

QColor run_color(int index) { return QColor(QString::fromStdString(palette_color(index))); }

QColor run_color(const RunInfo& run) { return QColor(QString::fromStdString(run.color)); }

LineChart::LineChart(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(200);
    chart_ = new QChart();
    chart_->setMargins(QMargins(4, 4, 14, 4));   // on the right, room for half of the last x label: the view clips it
    view_ = new QChartView(chart_, this);
    // Qt's scene keeps a BSP tree of its items for finding them by place, rebuilt as they move: every
    // resize of the chart walked it over each of its (up to kMaxCurves) series. A chart asks its scene
    // for no item by place; without the index, selecting 2,000 runs took 3.4 s, most of it there.
    view_->scene()->setItemIndexMethod(QGraphicsScene::NoIndex);
    // The legend is a widget of ours below or beside the plot (chart_card.h): Qt Charts' cut off
    // what did not fit in its one row or column. The chart's background is drawn behind both.
    card_ = new ChartCard(chart_, view_, this);
    legend_ = card_->legend();
    view_->setRenderHint(QPainter::Antialiasing);
    view_->setRubberBand(QChartView::RectangleRubberBand);
    view_->setMouseTracking(true);
    view_->viewport()->installEventFilter(this);   // the hover readout (linechart_readout.cpp)
    // Titles are elided to the plot area, known once the scene is laid out.
    connect(chart_, &QChart::plotAreaChanged, this, [this] {
        applyAxisTitles();
        // the tick count follows the room the axes have (on a real change of size only:
        // new labels move the plot area a little, which must not start a cycle)
        const QSizeF a = chart_->plotArea().size();
        if (std::abs(a.width() - ticked_area_.width()) < 24 && std::abs(a.height() - ticked_area_.height()) < 24) return;
        ticked_area_ = a;
        if (x_lin_ && !log_x_) updateLinearTicks(x_lin_, x_integer_);
        if (y_lin_ && !log_y_) updateLinearTicks(y_lin_, false);
    });
    footer_ = new ElidedLabel(this);
    footer_->setObjectName("chartFooter");
    footer_->setStyleSheet("color: gray; font-size: 9pt;");
    connect(legend_, &ChartLegend::clicked, this, &LineChart::toggleLegendEntry);
    connect(legend_, &ChartLegend::doubleClicked, this, &LineChart::showOnlyLegendEntry);
    legend_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(legend_, &QWidget::customContextMenuRequested, this, &LineChart::legendMenu);
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(9, 9, 9, 0);   // the window around the chart's card, as Qt Charts drew it
    lay->setSpacing(0);
    lay->addWidget(card_, 1);
    lay->addWidget(footer_);
    redraw_timer_ = new QTimer(this);
    redraw_timer_->setSingleShot(true);
    redraw_timer_->setInterval(30);
    connect(redraw_timer_, &QTimer::timeout, this, &LineChart::redraw);
    rebuild();
}

void LineChart::setTitle(const QString& title) {
    title_ = title;
    chart_->setTitle(math_text::has_marks(title) ? math_text::html(title) : title);   // Qt Charts' titles take HTML
}

QString LineChart::title() const { return title_; }

void LineChart::setAxisTitles(const QString& x, const QString& y, const QString& y_short) {
    x_title_ = x;
    y_title_ = y;
    y_short_ = y_short;
    applyAxisTitles();
}

namespace {
// The curves of the first runs (Curve::run, else the curve's label) whose curves fit in `most`,
// at least one run's; the others go to `rest`, and `runs` gets (runs kept, runs given).
std::vector<Curve> first_runs(std::vector<Curve> curves, size_t most, std::vector<Curve>& rest, std::pair<int, int>& runs) {
    rest.clear();
    runs = {0, 0};
    if (curves.size() <= most) return curves;   // every redraw of a live run: nothing to count
    auto run_of = [](const Curve& c) { return c.run.isEmpty() ? c.label : c.run; };
    std::vector<QString> order;
    std::map<QString, size_t> count;
    for (const Curve& c : curves)
        if (count[run_of(c)]++ == 0) order.push_back(run_of(c));
    runs.second = static_cast<int>(order.size());
    std::set<QString> kept;
    size_t n = 0;
    for (const QString& r : order) {
        if (!kept.empty() && n + count[r] > most) break;
        kept.insert(r);
        n += count[r];
    }
    runs.first = static_cast<int>(kept.size());
    std::vector<Curve> out;
    out.reserve(n);
    for (Curve& c : curves)
        (kept.count(run_of(c)) ? out : rest).push_back(std::move(c));
    return out;
}
}  // namespace

void LineChart::setCurves(std::vector<Curve> curves, bool keep_zoom) {
    curves = first_runs(std::move(curves), kMaxCurves, left_out_, runs_drawn_);
    bool same_curves = curves.size() == curves_.size();   // the same runs and quantities (a live refresh), not another selection
    for (size_t i = 0; same_curves && i < curves.size(); ++i) same_curves = curves[i].label == curves_[i].label;
    curves_ = std::move(curves);
    resmooth();
    if (!keep_zoom) zoomed_ = false;
    prepareLogX();
    // Other curves (another selection, grouping or language) get their series and legend entries anew, even
    // as many as before: renaming the series alone left the legend's per-run entries naming the runs shown
    // before. A live refresh of the same curves keeps them.
    if (!same_curves) rebuild();
    placeLegend();   // by the legend's entries, which rebuild() has just made
    if (!zoomed_) fitRanges();
    redraw();
    placeEmptyHint();
    // A readout describes these curves: after a change of selection, grouping or language it goes;
    // a live refresh of the same curves updates a pinned one in place.
    if (!same_curves) {
        pinned_ = false;
        hideReadout();
    } else if (pinned_) {
        refreshPinnedReadout();
    }
}

Qt::PenStyle reference_line_style(size_t h) {
    static const Qt::PenStyle styles[] = {Qt::DashDotLine, Qt::DotLine, Qt::DashDotDotLine};
    return styles[h % std::size(styles)];
}

double smoothingSpan(const std::vector<Curve>& curves, const std::vector<Curve>& more, bool log_x) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const auto* list : {&curves, &more})
        for (const Curve& c : *list)
            for (double x : c.x)
                if (std::isfinite(x) && (!log_x || x > 0)) lo = std::min(lo, x), hi = std::max(hi, x);
    if (!(lo < hi)) return 0.0;
    return log_x ? std::log10(hi) - std::log10(lo) : hi - lo;
}

std::vector<double> smoothedCurve(const Curve& c, double smoothing, double span, bool log_x) {
    if (!(smoothing > 0) || !c.smooth) return {};
    if (!log_x) return smooth_along_x(c.x, c.y, smoothing, span);
    std::vector<double> lx(c.x.size());
    for (size_t i = 0; i < lx.size(); ++i) lx[i] = c.x[i] > 0 ? std::log10(c.x[i]) : std::nan("");   // not drawn
    return smooth_along_x(lx, c.y, smoothing, span);
}

void LineChart::resmooth() {
    smoothed_.clear();
    smoothing_span_ = normlab::smoothingSpan(curves_, left_out_, log_x_);
    if (smoothing_ > 0)
        for (const Curve& c : curves_) smoothed_.push_back(smoothedCurve(c, smoothing_, smoothing_span_, log_x_));
}

void LineChart::setHLines(std::vector<std::pair<double, QString>> lines) {
    if (lines == hlines_) return;   // called on every live refresh: rebuild only on change
    hlines_ = std::move(lines);
    rebuild();
    if (!zoomed_) fitRanges();
    redraw();
}

void LineChart::setLogY(bool on) {
    if (on == log_y_) return;
    log_y_ = on;
    rebuild();
    fitRanges();
    redraw();
}

void LineChart::setSmoothing(double s) {
    s = std::clamp(s, 0.0, 0.999);
    if (s == smoothing_) return;
    const bool toggled = (s > 0) != (smoothing_ > 0);
    smoothing_ = s;
    resmooth();
    prepareLogX();
    if (toggled) rebuild();
    redraw();
}

void LineChart::resetZoom() {
    zoomed_ = false;
    fitRanges();
    redraw();
    if (!following_) Q_EMIT zoomReset();
}

QAbstractAxis* LineChart::yAxis() const { return y_axis_; }

// Series objects and axes for the current curves and settings.
void LineChart::rebuild() {
    // attaching series lets Qt Charts move the axis ranges: not a user zoom
    const bool was_setting = setting_range_;
    setting_range_ = true;
    rebuildSeries();
    setting_range_ = was_setting;
}

void LineChart::rebuildSeries() {
    chart_->removeAllSeries();
    raw_series_.clear();
    smooth_series_.clear();
    marker_series_.clear();
    band_series_.clear();
    hline_series_.clear();
    nonfinite_ = nullptr;
    // Axes are made once and never removed: Qt Charts 6.4 leaves a removed axis drawn in the scene.
    if (!x_lin_) {
        // Linear axes are category axes too, their ticks and labels placed by
        // hand (updateLinearTicks): a QValueAxis prints every label through one
        // printf format, which wrote zero as "0e+00" beside 1e-04.
        auto* x = new QCategoryAxis();
        x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        auto* lx = new QCategoryAxis();   // log x, labelled like log y
        lx->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        auto* vy = new QCategoryAxis();
        vy->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        // Log y: the curves are drawn in log10 space on a linear axis whose
        // labels are placed by hand (axis_ticks.h): QLogValueAxis labels
        // powers of ten only, so a range under a decade had no labels at all.
        auto* ly = new QCategoryAxis();
        ly->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
        chart_->addAxis(x, Qt::AlignBottom);
        chart_->addAxis(lx, Qt::AlignBottom);
        chart_->addAxis(vy, Qt::AlignLeft);
        chart_->addAxis(ly, Qt::AlignLeft);
        x_lin_ = x;
        x_log_ = lx;
        y_lin_ = vy;
        y_log_ = ly;
        connect(x, &QValueAxis::rangeChanged, this, [this, x] {
            updateLinearTicks(x, x_integer_);
            if (!setting_range_) userZoomedX();
        });
        connect(vy, &QValueAxis::rangeChanged, this, [this, vy] { updateLinearTicks(vy, false); });
        connect(lx, &QValueAxis::rangeChanged, this, [this, lx] {
            updateLogLabels(lx);
            if (!setting_range_) userZoomedX();
        });
        connect(ly, &QValueAxis::rangeChanged, this, [this, ly] { updateLogLabels(ly); });
    }
    QAbstractAxis* x = log_x_ ? x_log_ : x_lin_;
    x_axis_ = x;
    x_lin_->setVisible(!log_x_);
    x_log_->setVisible(log_x_);
    QAbstractAxis* y = log_y_ ? y_log_ : y_lin_;
    y_axis_ = y;
    y_lin_->setVisible(!log_y_);
    y_log_->setVisible(log_y_);
    applyAxisTitles();
    for (size_t i = 0; i < curves_.size(); ++i) {
        const Curve& c = curves_[i];
        QAreaSeries* band = nullptr;
        if (!c.band_lo.empty() && c.band_lo.size() == c.x.size() && c.band_hi.size() == c.x.size()) {
            // under the line: added first, translucent, no outline, no legend entry
            auto* up = new QLineSeries();
            auto* dn = new QLineSeries();
            band = new QAreaSeries(up, dn);
            up->setParent(band);
            dn->setParent(band);
            QColor fill = c.color;
            fill.setAlphaF(0.2);
            band->setBrush(fill);
            band->setPen(Qt::NoPen);
            band->setName(c.label);
            chart_->addSeries(band);
            band->attachAxis(x);
            band->attachAxis(y);
        }
        band_series_.push_back(band);
        auto* raw = new QLineSeries();
        raw->setName(c.label);
        QColor col = c.color;
        if (smoothing_ > 0 && c.smooth) col.setAlphaF(0.25);
        QPen pen(col, c.width, c.style);
        raw->setPen(pen);
        chart_->addSeries(raw);
        raw->attachAxis(x);
        raw->attachAxis(y);
        raw_series_.push_back(raw);
        QLineSeries* sm = nullptr;
        if (smoothing_ > 0 && c.smooth) {
            sm = new QLineSeries();
            sm->setName(c.label);
            sm->setPen(QPen(c.color, c.width + 0.4, c.style));
            chart_->addSeries(sm);
            sm->attachAxis(x);
            sm->attachAxis(y);
        }
        smooth_series_.push_back(sm);
        QScatterSeries* mk = nullptr;
        if (c.markers) {
            mk = new QScatterSeries();
            mk->setMarkerSize(6);
            mk->setColor(c.color);
            mk->setBorderColor(c.color);
            chart_->addSeries(mk);
            mk->attachAxis(x);
            mk->attachAxis(y);
        }
        marker_series_.push_back(mk);
    }
    for (auto& [value, label] : hlines_) {
        auto* h = new QLineSeries();
        h->setName(label);
        h->setPen(QPen(QColor(110, 110, 110), 1.2, reference_line_style(hline_series_.size())));
        chart_->addSeries(h);
        h->attachAxis(x);
        h->attachAxis(y);
        hline_series_.push_back(h);
    }
    nonfinite_ = new QScatterSeries();
    nonfinite_->setName(tr("non-finite value"));
    nonfinite_->setMarkerShape(QScatterSeries::MarkerShapeTriangle);
    nonfinite_->setMarkerSize(11);
    nonfinite_->setColor(QColor(200, 30, 30));
    nonfinite_->setBorderColor(QColor(120, 0, 0));
    chart_->addSeries(nonfinite_);
    nonfinite_->attachAxis(x);
    nonfinite_->attachAxis(y);
    makeLegendEntries();
    applyShown();
}

void LineChart::fitRanges() {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    auto take = [&](const std::vector<double>& xs, const std::vector<double>& ys) {
        for (size_t i = 0; i < xs.size(); ++i) {
            if (!std::isfinite(xs[i])) continue;
            x0 = std::min(x0, xs[i]);
            x1 = std::max(x1, xs[i]);
            if (!std::isfinite(ys[i]) || (log_y_ && ys[i] <= 0)) continue;
            y0 = std::min(y0, ys[i]);
            y1 = std::max(y1, ys[i]);
        }
    };
    for (size_t i = 0; i < curves_.size(); ++i) {
        if (!curveShown(i)) continue;   // hidden by the legend: the axes fit what is shown
        const View v = viewOf(i);
        take(*v.x, *v.y);
        if (!v.lo->empty() && v.lo->size() == v.x->size()) take(*v.x, *v.lo), take(*v.x, *v.hi);
    }
    for (size_t h = 0; h < hlines_.size(); ++h)
        if (const double v = hlines_[h].first; hlineShown(h) && std::isfinite(v) && (!log_y_ || v > 0))
            y0 = std::min(y0, v), y1 = std::max(y1, v);
    if (std::isfinite(extent_lo_) && std::isfinite(extent_hi_) && (!log_x_ || extent_lo_ > 0)) {   // a linked chart's
        x0 = std::min(x0, log_x_ ? std::log10(extent_lo_) : extent_lo_);
        x1 = std::max(x1, log_x_ ? std::log10(extent_hi_) : extent_hi_);
    }
    if (!std::isfinite(x0)) x0 = 0, x1 = 1;
    if (!std::isfinite(y0)) y0 = log_y_ ? 0.1 : 0, y1 = log_y_ ? 10 : 1;
    if (x1 <= x0) x1 = x0 + 1;
    x_integer_ = !log_x_;
    if (log_x_ && x1 - x0 < 1e-9) x0 -= 0.5, x1 += 0.5;
    for (auto& c : curves_)
        for (double v : c.x)
            if (std::isfinite(v) && v != std::floor(v)) x_integer_ = false;
    if (log_y_) {
        if (y1 <= y0) y1 = y0 * 10;
        y0 /= 1.15;
        y1 *= 1.15;
    } else {
        const bool nonnegative = y0 >= 0;
        std::tie(y0, y1) = unflat(y0, y1);
        const double pad = 0.05 * (y1 - y0);
        y0 -= pad;
        y1 += pad;
        if (nonnegative) y0 = std::max(y0, 0.0);   // norms, losses, rates: no axis below zero
    }
    // Ranges tight to the data (x exactly, y with a 5% margin), ticks at 1-2-5
    // steps on them (updateLinearTicks), once both ranges are in place:
    // QValueAxis::applyNiceNumbers widened the range to its own tick grid,
    // drawing 120 steps on 0–200.
    setting_range_ = true;
    x_axis_->setRange(x0, x1);
    if (log_y_) y_axis_->setRange(std::log10(y0), std::log10(y1));
    else y_axis_->setRange(y0, y1);
    setting_range_ = false;
    if (log_x_) updateLogLabels(x_log_);
    else updateLinearTicks(x_lin_, x_integer_);
    if (log_y_) updateLogLabels(y_log_);
    else updateLinearTicks(y_lin_, false);
}

void LineChart::scheduleRedraw() {
    if (!redraw_timer_->isActive()) redraw_timer_->start();
}

void LineChart::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    placeLegend();
    scheduleRedraw();
    placeEmptyHint();
}

// The chart as a figure of the size it has on screen (96 px an inch), drawn
// by plot_figure.h: the legend whole, the ticks for that size, nothing of the
// window (no footer, no readout, no hint).
bool LineChart::exportFigure(const QString& path, const QString& format, int dpi, QString* error) const {
    const PlotSpec spec = plot_spec(*this);
    const QSize px = card_->size().isEmpty() ? QSize(760, 470) : card_->size();   // the plot and its legend
    return write_print(path, format, px.width() * 25.4 / 96, px.height() * 25.4 / 96, kScreenFigurePt, dpi,
                       spec.title.isEmpty() ? spec.y_title : spec.title,
                       [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_plot(p, r, spec, u); }, error);
}

bool LineChart::exportCsv(const QString& path, QString* error) const {
    if (!curves_.empty() && curvesHidden() == curves_.size()) {
        if (error) *error = tr("every curve is hidden: click a run in the legend to show it, then export");
        return false;
    }
    return write_text(path, [this](QTextStream& out) {
        out << "curve," << csvXTitle() << ',' << (y_title_.isEmpty() ? QString("y") : math_text::plain(y_title_)) << '\n';
        writeCsvRows(out, {});
    }, error);
}

QString LineChart::csvXTitle() const { return x_title_.isEmpty() ? QString("x") : math_text::plain(x_title_); }

namespace {
QString csv_quoted(QString s) { return '"' + s.replace('"', "\"\"") + '"'; }
}  // namespace

void LineChart::writeCsvRows(QTextStream& out, const QString& lead) const {
    const QString first = lead.isEmpty() ? QString() : csv_quoted(lead) + ',';
    out.setRealNumberPrecision(10);
    for (size_t k = 0; k < curves_.size(); ++k) {
        if (!curveShown(k)) continue;   // as the plot and a figure: what the legend hid stays out
        writeCsvCurve(out, first, curves_[k]);
    }
    for (const Curve& c : left_out_) writeCsvCurve(out, first, c);   // not drawn on screen, exported all the same
}

void LineChart::writeCsvCurve(QTextStream& out, const QString& first, const Curve& c) {
    const QString label = csv_quoted(c.label);
    for (size_t i = 0; i < c.x.size(); ++i)
        out << first << label << ',' << c.x[i] << ','
            << (std::isfinite(c.y[i]) ? QString::number(c.y[i], 'g', 10) : QString("nan")) << '\n';
}

}  // namespace normlab
