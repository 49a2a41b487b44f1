// NormLab widgets: line-chart figures for print (see plot_figure.h).
#include "widgets/plot_figure.h"

#include "core/series.h"
#include "widgets/figure.h"
#include "widgets/plot_paint.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace normlab {

using plot::Axis;
using plot::Frame;
using plot::Ink;

PlotSpec plot_spec(const LineChart& chart) {
    PlotSpec s;
    s.title = chart.title();
    s.x_title = chart.xTitle();
    s.y_title = chart.yTitle();
    s.log_x = chart.logX();
    s.log_y = chart.logY();
    s.smoothing = chart.smoothing();
    s.smoothing_span = chart.smoothingSpan();
    s.smoothing_span_log_x = chart.logX();
    // as it looks: without what its legend hides
    for (size_t i = 0; i < chart.curves().size(); ++i)
        if (chart.curveShown(i)) s.curves.push_back(chart.curves()[i]);
    for (const Curve& c : chart.curvesLeftOut()) s.curves.push_back(c);   // too many for the screen, not for a figure
    for (Curve& c : s.curves)   // a page is white, whatever the window's theme
        if (c.print_color.isValid()) c.color = c.print_color;
    for (size_t h = 0; h < chart.hlines().size(); ++h)
        if (chart.hlineShown(h)) s.hlines.push_back(chart.hlines()[h]);
    return s;
}

namespace {

// A curve in the figure's x space: points at x ≤ 0 dropped on a log x axis.
struct Prepared {
    std::vector<double> x, y, sm, lo, hi;   // x in log10 units on a log x axis (the reducer bins it evenly)
};

struct PlotLayout {
    std::vector<Prepared> data;
    std::vector<LegendEntry> entries;
    plot::LegendLayout legend;
    Frame frame;
    size_t nonfinite = 0;
};

double to_axis(double x, bool log) { return log ? std::log10(x) : x; }

// How a plot is laid out in a stack (draw_stack); by default, as alone.
struct PlotFit {
    plot::FrameFit frame;
    std::optional<std::pair<double, double>> x_range;    // the x axis's limits (data units) instead of its data's
    std::optional<std::vector<LegendEntry>> entries;     // the legend instead of its own (empty: none)
};

PlotLayout layout_plot(const Ink& ink, const QRectF& r, const PlotSpec& s, const PlotFit& fit = {}) {
    PlotLayout L;
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    bool integer = true;
    auto take_y = [&](double v) {
        if (std::isfinite(v) && (!s.log_y || v > 0)) ylo = std::min(ylo, v), yhi = std::max(yhi, v);
    };
    const double span = s.smoothing_span > 0 && s.smoothing_span_log_x == s.log_x ? s.smoothing_span
                                                                                  : smoothingSpan(s.curves, {}, s.log_x);
    for (const Curve& c : s.curves) {
        Prepared d;
        const bool smooth = s.smoothing > 0 && c.smooth;
        const std::vector<double> sm = smoothedCurve(c, s.smoothing, span, s.log_x);
        for (size_t i = 0; i < c.x.size() && i < c.y.size(); ++i) {
            if (!std::isfinite(c.x[i]) || (s.log_x && c.x[i] <= 0)) continue;
            if (!std::isfinite(c.y[i])) ++L.nonfinite;
            d.x.push_back(to_axis(c.x[i], s.log_x));
            d.y.push_back(c.y[i]);
            if (smooth) d.sm.push_back(sm[i]);
            if (i < c.band_lo.size() && i < c.band_hi.size()) {
                d.lo.push_back(c.band_lo[i]);
                d.hi.push_back(c.band_hi[i]);
                take_y(c.band_lo[i]);
                take_y(c.band_hi[i]);
            }
            xlo = std::min(xlo, c.x[i]);
            xhi = std::max(xhi, c.x[i]);
            integer = integer && c.x[i] == std::floor(c.x[i]);
            take_y(c.y[i]);
        }
        L.data.push_back(std::move(d));
    }
    for (auto& [v, label] : s.hlines) take_y(v);
    Axis x, y;
    x.log = s.log_x;
    y.log = s.log_y;
    x.integer = integer && std::isfinite(xlo);
    if (fit.x_range) std::tie(xlo, xhi) = *fit.x_range;
    if (!(xlo <= xhi)) xlo = s.log_x ? 1 : 0, xhi = s.log_x ? 10 : 1;
    if (xhi == xlo) std::tie(xlo, xhi) = plot::padded(xlo, xhi, s.log_x, 0.05);
    x.lo = xlo, x.hi = xhi;
    std::tie(y.lo, y.hi) = plot::padded(ylo, yhi, s.log_y, 0.04);
    L.entries = legend_entries(s);
    if (L.nonfinite) {
        LegendEntry e;
        e.text = QCoreApplication::translate("normlab::Figure", "▲ non-finite (%1)").arg(L.nonfinite);
        e.color = QColor(200, 30, 30);
        e.style = Qt::NoPen;
        L.entries.push_back(e);
    }
    if (fit.entries) L.entries = *fit.entries;
    const double pad = ink.mm(0.8);
    L.legend = plot::layout_legend(ink, L.entries, r.width() - 2 * pad);
    L.frame = plot::layout_frame(ink, r, s.title, s.x_title, s.y_title, x, y, L.legend.height, 0, fit.frame);
    return L;
}

QPolygonF polyline(const Frame& f, const std::vector<std::pair<double, double>>& pts, bool log_x) {
    QPolygonF out;
    out.reserve(static_cast<int>(pts.size()));
    for (auto& [x, y] : pts) out << plot::to_px(f, log_x ? std::pow(10.0, x) : x, y);
    return out;
}

// Per pixel column the lowest `lo` and highest `hi`: a band's outline that keeps every extreme.
QPolygonF band_outline(const Frame& f, const Prepared& d, double x0, double x1, int columns, bool log_x, bool log_y) {
    std::vector<std::pair<double, double>> top, bottom;
    long col = std::numeric_limits<long>::min();
    for (size_t i = 0; i < d.x.size() && i < d.lo.size(); ++i) {
        if (!std::isfinite(d.lo[i]) || !std::isfinite(d.hi[i]) || (log_y && d.lo[i] <= 0)) continue;
        const long c = static_cast<long>(std::floor((d.x[i] - x0) / (x1 - x0) * columns));
        if (c != col || top.empty()) {
            top.emplace_back(d.x[i], d.hi[i]);
            bottom.emplace_back(d.x[i], d.lo[i]);
            col = c;
        } else {
            top.back().second = std::max(top.back().second, d.hi[i]);
            bottom.back().second = std::min(bottom.back().second, d.lo[i]);
        }
    }
    QPolygonF poly = polyline(f, top, log_x);
    std::reverse(bottom.begin(), bottom.end());
    poly << polyline(f, bottom, log_x);
    return poly;
}

void draw_laid_out(const Ink& ink, const QRectF& r, const PlotSpec& s, const PlotLayout& L) {
    QPainter& p = ink.p();
    const Frame& f = L.frame;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    plot::draw_grid(ink, f);
    p.save();
    p.setClipRect(f.plot.adjusted(-ink.mm(0.2), -ink.mm(0.2), ink.mm(0.2), ink.mm(0.2)));
    const double x0 = to_axis(f.x.lo, s.log_x), x1 = to_axis(f.x.hi, s.log_x);
    const int columns = std::max(50, static_cast<int>(f.plot.width()));
    for (size_t i = 0; i < s.curves.size(); ++i) {
        if (L.data[i].lo.empty()) continue;
        QColor fill = s.curves[i].color;
        fill.setAlphaF(0.2);
        p.setPen(Qt::NoPen);
        p.setBrush(fill);
        p.drawPolygon(band_outline(f, L.data[i], x0, x1, columns, s.log_x, s.log_y));
    }
    p.setBrush(Qt::NoBrush);
    for (size_t i = 0; i < s.curves.size(); ++i) {
        const Curve& c = s.curves[i];
        const Prepared& d = L.data[i];
        const double w = std::clamp(c.width * 0.22, 0.2, 0.6);   // a window's 1.6 px: 0.35 mm on paper
        QColor raw = c.color;
        if (!d.sm.empty()) raw.setAlphaF(0.3);
        p.setPen(plot::pen(ink, raw, d.sm.empty() ? w : 0.6 * w, c.style));
        const QPolygonF line = polyline(f, reduce_for_pixels(d.x, d.y, x0, x1, columns, s.log_y), s.log_x);
        p.drawPolyline(line);
        if (!d.sm.empty()) {
            p.setPen(plot::pen(ink, c.color, w, c.style));
            p.drawPolyline(polyline(f, reduce_for_pixels(d.x, d.sm, x0, x1, columns, s.log_y), s.log_x));
        }
        if (c.markers) {
            p.setPen(Qt::NoPen);
            p.setBrush(c.color);
            for (const QPointF& pt : line) p.drawEllipse(pt, ink.mm(0.45), ink.mm(0.45));
            p.setBrush(Qt::NoBrush);
        }
    }
    for (size_t h = 0; h < s.hlines.size(); ++h) {
        const double v = s.hlines[h].first;
        if (s.log_y && v <= 0) continue;
        p.setPen(plot::pen(ink, QColor(110, 110, 110), 0.3, reference_line_style(h)));
        const double y = plot::to_px(f, f.x.lo, v).y();
        p.drawLine(QPointF(f.plot.left(), y), QPointF(f.plot.right(), y));
    }
    if (L.nonfinite) {   // where a curve left the numbers: a red triangle at the top edge
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(200, 30, 30));
        for (size_t i = 0; i < s.curves.size(); ++i)
            for (size_t k = 0; k < L.data[i].y.size(); ++k)
                if (!std::isfinite(L.data[i].y[k])) {
                    const double x = plot::to_px(f, s.log_x ? std::pow(10.0, L.data[i].x[k]) : L.data[i].x[k], f.y.hi).x();
                    const double t = f.plot.top() + ink.mm(0.3), h = ink.mm(1.2);
                    p.drawPolygon(QPolygonF{QPointF(x, t + h), QPointF(x - h / 2, t), QPointF(x + h / 2, t)});
                    break;   // the first, per curve
                }
    }
    p.restore();
    plot::draw_axes(ink, f);
    plot::draw_legend_below(ink, L.entries, L.legend, r, f);
    p.restore();
}

}  // namespace

void draw_plot(QPainter& p, const QRectF& r, const PlotSpec& s, const PrintUnits& u) {
    Ink ink(p, u);
    draw_laid_out(ink, r, s, layout_plot(ink, r, s));
}

namespace {

// The stack's plots laid out in `rects` (one each, top to bottom): the first pass as alone gives the x
// range they share and the legend the lowest shows for all (each entry once); then the plots' edges are
// brought in line, again until no edge moves (the lowest's last x label may need room on the right).
std::vector<PlotLayout> layout_stack(const Ink& ink, const std::vector<QRectF>& rects, const std::vector<PlotSpec>& plots) {
    const size_t n = plots.size();
    std::vector<PlotFit> fits(n);
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::vector<LegendEntry> entries;
    auto same = [](const LegendEntry& a, const LegendEntry& b) {
        return a.text == b.text && a.color == b.color && a.style == b.style && a.band == b.band && a.ramp == b.ramp && a.key == b.key;
    };
    for (size_t i = 0; i < n; ++i) {
        const PlotLayout L = layout_plot(ink, rects[i], plots[i]);
        if (!plots[i].curves.empty()) lo = std::min(lo, L.frame.x.lo), hi = std::max(hi, L.frame.x.hi);
        for (auto& e : L.entries)
            if (std::none_of(entries.begin(), entries.end(), [&](const LegendEntry& o) { return same(e, o); })) entries.push_back(e);
    }
    for (size_t i = 0; i < n; ++i) {
        if (lo <= hi) fits[i].x_range = std::make_pair(lo, hi);
        fits[i].entries = i + 1 == n ? entries : std::vector<LegendEntry>{};
        fits[i].frame.x_labels = i + 1 == n;
    }
    std::vector<PlotLayout> out;
    for (int pass = 0; pass < 4; ++pass) {
        out.clear();
        double left = 0, right = 0;
        for (size_t i = 0; i < n; ++i) {
            out.push_back(layout_plot(ink, rects[i], plots[i], fits[i]));
            left = std::max(left, out.back().frame.plot.left() - rects[i].left());
            right = std::max(right, rects[i].right() - out.back().frame.plot.right());
        }
        bool moved = false;
        for (size_t i = 0; i < n; ++i)
            moved = moved || std::abs(out[i].frame.plot.left() - rects[i].left() - left) > 0.5 ||
                    std::abs(rects[i].right() - out[i].frame.plot.right() - right) > 0.5;
        if (!moved) break;
        for (auto& f : fits) f.frame.min_left = left, f.frame.min_right = right;
    }
    return out;
}

// Each plot's height (page px) in a stack `width` px wide, its plot area `aspect` × its share (of the
// first's) as high as wide.
std::vector<double> stack_heights(const Ink& ink, const StackSpec& s, double width, double aspect) {
    const double H = ink.mm(1000);
    std::vector<QRectF> tall(s.plots.size(), QRectF(0, 0, width, H));
    const std::vector<PlotLayout> L = layout_stack(ink, tall, s.plots);
    std::vector<double> out;
    for (size_t i = 0; i < L.size(); ++i)
        out.push_back(H - L[i].frame.plot.height() + aspect * s.shares[i] / s.shares.front() * L[i].frame.plot.width());
    return out;
}

// `r` shared among the plots as they need it at the default aspect, top to bottom.
std::vector<QRectF> stack_rects(const Ink& ink, const QRectF& r, const StackSpec& s) {
    const std::vector<double> need = stack_heights(ink, s, r.width(), default_aspect(ink.to_mm(r.width())));
    double total = 0;
    for (double h : need) total += h;
    std::vector<QRectF> rects;
    double y = r.top();
    for (double h : need) {
        rects.emplace_back(r.left(), y, r.width(), r.height() * h / total);
        y += rects.back().height();
    }
    return rects;
}

}  // namespace

void draw_stack(QPainter& p, const QRectF& r, const StackSpec& s, const PrintUnits& u) {
    if (s.plots.empty()) return;
    Ink ink(p, u);
    const std::vector<QRectF> rects = stack_rects(ink, r, s);
    const std::vector<PlotLayout> L = layout_stack(ink, rects, s.plots);
    for (size_t i = 0; i < L.size(); ++i) draw_laid_out(ink, rects[i], s.plots[i], L[i]);
}

double stack_height_mm(const StackSpec& s, double width_mm, double font_pt, double aspect) {
    plot::Measure m(font_pt);
    double total = 0;
    for (double h : stack_heights(*m.ink, s, m.ink->mm(width_mm), aspect)) total += h;
    return std::ceil(m.ink->to_mm(total));
}

std::vector<StackedPlot> stack_layout(const StackSpec& s, double width_mm, double height_mm, double font_pt) {
    plot::Measure m(font_pt);
    const Ink& ink = *m.ink;
    const std::vector<QRectF> rects = stack_rects(ink, QRectF(0, 0, ink.mm(width_mm), ink.mm(height_mm)), s);
    std::vector<StackedPlot> out;
    for (auto& L : layout_stack(ink, rects, s.plots)) {
        const QRectF& a = L.frame.plot;
        StackedPlot sp{QRectF(ink.to_mm(a.left()), ink.to_mm(a.top()), ink.to_mm(a.width()), ink.to_mm(a.height())),
                       L.frame.x.lo, L.frame.x.hi, L.frame.x_labels, {}};
        for (auto& e : L.entries) sp.legend << e.text;
        out.push_back(sp);
    }
    return out;
}

double default_aspect(double width_mm) { return std::clamp(0.5 - (width_mm - 89) / 94 * 0.14, 0.36, 0.5); }

double plot_height_mm(const PlotSpec& s, double width_mm, double font_pt, double aspect) {
    plot::Measure m(font_pt);
    const double H = 1000;
    const PlotLayout L = layout_plot(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(H)), s);
    const double rest = H - m.ink->to_mm(L.frame.plot.height());
    return std::ceil(rest + aspect * m.ink->to_mm(L.frame.plot.width()));
}

bool write_print(const QString& path, const QString& format, double width_mm, double height_mm, double font_pt, int dpi, const QString& title,
                 const std::function<void(QPainter&, const QRectF&, const PrintUnits&)>& draw, QString* error) {
    const QSize px(static_cast<int>(std::lround(width_mm / 25.4 * 96)), static_cast<int>(std::lround(height_mm / 25.4 * 96)));
    const double page_mm = px.width() * 25.4 / 96;   // the page as written (whole 96 dpi pixels)
    return write_figure(path, format.isEmpty() ? QFileInfo(path).suffix().toLower() : format, dpi, px, title,
                        [&](QPainter& p, const QRectF& target) {
                            p.fillRect(target, Qt::white);
                            draw(p, target, PrintUnits{target.width() / page_mm, font_pt});
                        },
                        error);
}

std::pair<PrintTicks, PrintTicks> plot_ticks(const PlotSpec& s, double width_mm, double height_mm, double font_pt) {
    plot::Measure m(font_pt);
    const PlotLayout L = layout_plot(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(height_mm)), s);
    return {L.frame.x.ticks, L.frame.y.ticks};
}

std::vector<QRectF> plot_legend_cells(const PlotSpec& s, double width_mm, double height_mm, double font_pt) {
    plot::Measure m(font_pt);
    const PlotLayout L = layout_plot(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(height_mm)), s);
    std::vector<QRectF> out;
    for (const QRectF& c : L.legend.cells)
        out.emplace_back(m.ink->to_mm(c.left()), m.ink->to_mm(c.top()), m.ink->to_mm(c.width()), m.ink->to_mm(c.height()));
    return out;
}

QStringList plot_texts(const PlotSpec& s, double width_mm, double height_mm, double font_pt) {
    plot::Measure m(font_pt);
    const PlotLayout L = layout_plot(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(height_mm)), s);
    QStringList out = L.frame.title;
    for (auto& l : L.frame.y.ticks.labels) out << QString::fromStdString(l);
    if (!L.frame.y.ticks.factor.empty()) out << QString::fromStdString(L.frame.y.ticks.factor);
    for (auto& l : L.frame.x.ticks.labels) out << QString::fromStdString(l);
    if (!L.frame.x.ticks.factor.empty()) out << QString::fromStdString(L.frame.x.ticks.factor);
    out << L.frame.x_title << L.frame.y_title;
    for (auto& lines : L.legend.lines) out << lines;
    return out;
}

}  // namespace normlab
