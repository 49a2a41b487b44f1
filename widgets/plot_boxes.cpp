// NormLab widgets: box-plot and heatmap figures for print (see plot_figure.h).
#include "widgets/plot_figure.h"

#include "widgets/heatmap.h"
#include "widgets/plot_paint.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace normlab {

using plot::Axis;
using plot::Frame;
using plot::Ink;

namespace {

struct BoxLayout {
    std::vector<int> layers;       // the groups, in order
    std::vector<QString> runs;     // the boxes within a group, in order
    std::vector<LegendEntry> entries;
    plot::LegendLayout legend;
    Frame frame;
};

BoxLayout layout_boxes(const Ink& ink, const QRectF& r, const BoxSpec& s) {
    BoxLayout L;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (auto& b : s.boxes) {
        if (std::find(L.layers.begin(), L.layers.end(), b.layer) == L.layers.end()) L.layers.push_back(b.layer);
        if (std::find(L.runs.begin(), L.runs.end(), b.run) == L.runs.end()) {
            L.runs.push_back(b.run);
            LegendEntry e;
            e.text = b.run;
            e.color = b.color;
            e.band = true;
            L.entries.push_back(e);
        }
        if (std::isfinite(b.min)) lo = std::min(lo, b.min);
        if (std::isfinite(b.max)) hi = std::max(hi, b.max);
    }
    std::sort(L.layers.begin(), L.layers.end());
    Axis x, y;
    x.categories = true;
    x.lo = -0.5;
    x.hi = std::max<double>(0.5, static_cast<double>(L.layers.size()) - 0.5);
    // every layer labelled while they fit one per 4 mm, else every n-th
    const size_t every = std::max<size_t>(1, static_cast<size_t>(std::ceil(L.layers.size() * 4.0 / std::max(20.0, ink.to_mm(r.width()) - 20))));
    std::vector<double> at;
    for (size_t i = 0; i < L.layers.size(); i += every) at.push_back(static_cast<double>(i));
    x.ticks = label_ticks(at, false);
    for (size_t k = 0; k < at.size(); ++k) {
        const int layer = L.layers[static_cast<size_t>(at[k])];
        x.ticks.labels[k] = layer < 0 ? QCoreApplication::translate("normlab::Figure", "all").toStdString() : std::to_string(layer);
    }
    std::tie(y.lo, y.hi) = plot::padded(lo, hi, false, 0.05);
    L.legend = plot::layout_legend(ink, L.entries, r.width() - ink.mm(1.6));
    L.frame = plot::layout_frame(ink, r, s.title, s.x_title, s.y_title, x, y, L.legend.height);
    return L;
}

}  // namespace

void draw_boxes(QPainter& p, const QRectF& r, const BoxSpec& s, const PrintUnits& u) {
    Ink ink(p, u);
    const BoxLayout L = layout_boxes(ink, r, s);
    const Frame& f = L.frame;
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    plot::draw_grid(ink, f);
    const double group = f.plot.width() / std::max<size_t>(1, L.layers.size());
    const double slot = group * 0.8 / std::max<size_t>(1, L.runs.size());
    for (auto& b : s.boxes) {
        const size_t g = static_cast<size_t>(std::find(L.layers.begin(), L.layers.end(), b.layer) - L.layers.begin());
        const size_t k = static_cast<size_t>(std::find(L.runs.begin(), L.runs.end(), b.run) - L.runs.begin());
        const double cx = f.plot.left() + (g + 0.1) * group + (k + 0.5) * slot, half = slot * 0.38;
        auto Y = [&](double v) { return plot::to_px(f, 0, v).y(); };
        QColor fill = b.color;
        fill.setAlphaF(0.35);
        p.setPen(plot::pen(ink, b.color.darker(120), 0.25));
        p.drawLine(QPointF(cx, Y(b.min)), QPointF(cx, Y(b.q1)));
        p.drawLine(QPointF(cx, Y(b.q3)), QPointF(cx, Y(b.max)));
        p.drawLine(QPointF(cx - half / 2, Y(b.min)), QPointF(cx + half / 2, Y(b.min)));
        p.drawLine(QPointF(cx - half / 2, Y(b.max)), QPointF(cx + half / 2, Y(b.max)));
        p.setBrush(fill);
        p.drawRect(QRectF(QPointF(cx - half, Y(b.q3)), QPointF(cx + half, Y(b.q1))));
        p.setPen(plot::pen(ink, b.color.darker(150), 0.4));
        p.drawLine(QPointF(cx - half, Y(b.median)), QPointF(cx + half, Y(b.median)));
        p.setBrush(Qt::NoBrush);
    }
    plot::draw_axes(ink, f);
    plot::draw_legend_below(ink, L.entries, L.legend, r, f);
    p.restore();
}

double boxes_height_mm(const BoxSpec& s, double width_mm, double font_pt, double aspect) {
    plot::Measure m(font_pt);
    const double H = 1000;
    const BoxLayout L = layout_boxes(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(H)), s);
    return std::ceil(H - m.ink->to_mm(L.frame.plot.height()) + aspect * m.ink->to_mm(L.frame.plot.width()));
}

HeatSpec heat_spec(const Heatmap& h) {
    HeatSpec s;
    s.title = h.title();
    s.steps = h.steps();
    s.rows = h.rows();
    s.log = h.logScale();
    s.lo = h.minValue();
    s.hi = h.maxValue();
    return s;
}

namespace {

// Where a heatmap's parts go in `r`: its frame (title, layer and step axes), the colour bar's ticks and their
// widest label (bw).
struct HeatLayout {
    Frame f;
    PrintTicks bar;
    double bar_w = 0, bw = 0;
};

HeatLayout layout_heatmap(const Ink& ink, const QRectF& r, const HeatSpec& s) {
    const QFontMetricsF fm = ink.metrics(ink.font());
    const int H = static_cast<int>(s.rows.size()), W = static_cast<int>(s.steps.size());
    Axis x, y;
    // x: the steps, each cell centred on its own
    const double first = W ? s.steps.front() : 0, last = W ? s.steps.back() : 1;
    const double half = W > 1 ? 0.5 * (last - first) / (W - 1) : 0.5;
    x.lo = first - half, x.hi = last + half;
    x.integer = true;
    // y: the layers, every one labelled while they fit
    y.categories = true;
    y.lo = -0.5, y.hi = std::max(0.5, H - 0.5);
    HeatLayout L;
    L.bar_w = ink.mm(2.5);
    auto place = [&](int max_ticks, double plot_h) {
        const int every = std::max(1, static_cast<int>(std::ceil(H * fm.height() * 1.3 / std::max(1.0, plot_h))));
        std::vector<double> layers;
        for (int l = 0; l < H; l += every) layers.push_back(l);
        y.ticks = label_ticks(layers, false);
        // the colour bar's ticks, as many as its height has room for (4 or so)
        L.bar = print_ticks(s.lo, s.hi, s.log && s.lo > 0, std::min(4, max_ticks), std::min(3, max_ticks), max_ticks, false);
        L.bw = 0;
        for (auto& l : L.bar.labels) L.bw = std::max(L.bw, fm.horizontalAdvance(QString::fromStdString(l)));
        L.bw = std::max(L.bw, fm.horizontalAdvance(QString::fromStdString(L.bar.factor)));
        const double extra = ink.mm(2.0) + L.bar_w + ink.mm(1.8) + L.bw;
        L.f = plot::layout_frame(ink, r, s.title, QCoreApplication::translate("normlab::Figure", "step"),
                                 QCoreApplication::translate("normlab::Figure", "layer"), x, y, 0, extra);
    };
    place(6, r.height() * 0.6);
    // a low plot: fewer labels on the bar and the layer axis, so that none print over another
    const int room = static_cast<int>(L.f.plot.height() / (1.25 * fm.height()));
    if (room < 6) place(std::max(2, room), L.f.plot.height());
    return L;
}

}  // namespace

double heatmap_height_mm(const HeatSpec& s, double width_mm, double font_pt, double aspect) {
    plot::Measure m(font_pt);
    const double H = 1000;
    const HeatLayout L = layout_heatmap(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(H)), s);
    // the plot `aspect` × as high as wide, but at least four lines of text high (three labels on the colour bar)
    const double line_mm = font_pt * 25.4 / 72 * 1.25;
    const double plot_mm = std::max(aspect * m.ink->to_mm(L.f.plot.width()), 4 * line_mm);
    return std::ceil(H - m.ink->to_mm(L.f.plot.height()) + plot_mm);
}

void draw_heatmap(QPainter& p, const QRectF& r, const HeatSpec& s, const PrintUnits& u) {
    Ink ink(p, u);
    const QFontMetricsF fm = ink.metrics(ink.font());
    const int H = static_cast<int>(s.rows.size()), W = static_cast<int>(s.steps.size());
    const HeatLayout L = layout_heatmap(ink, r, s);
    const Frame& f = L.f;
    const PrintTicks& bar = L.bar;
    const double bar_w = L.bar_w, bw = L.bw;
    p.save();
    if (W && H) {
        // cells as sharp blocks: one image pixel a cell, scaled here without smoothing (heatmap.cpp says why)
        QImage img(W, H, QImage::Format_RGB32);
        const double a = s.log && s.lo > 0 ? std::log10(s.lo) : s.lo, b = s.log && s.hi > 0 ? std::log10(s.hi) : s.hi;
        for (int l = 0; l < H; ++l) {
            auto* line = reinterpret_cast<QRgb*>(img.scanLine(H - 1 - l));
            for (int k = 0; k < W; ++k) {
                const double v = k < static_cast<int>(s.rows[static_cast<size_t>(l)].size()) ? s.rows[static_cast<size_t>(l)][static_cast<size_t>(k)] : std::nan("");
                if (!std::isfinite(v) || (s.log && v <= 0)) {
                    line[k] = qRgb(150, 150, 150);
                    continue;
                }
                const double t = s.log ? std::log10(v) : v;
                line[k] = viridis(b > a ? std::clamp((t - a) / (b - a), 0.0, 1.0) : 0.5).rgb();
            }
        }
        const QRectF dev = p.transform().mapRect(f.plot);
        const QSize px(std::clamp(static_cast<int>(std::ceil(dev.width())), W, 8192), std::clamp(static_cast<int>(std::ceil(dev.height())), H, 8192));
        p.drawImage(f.plot, img.scaled(px, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    }
    plot::draw_axes(ink, f);
    // colour bar, labelled at its ticks
    const QRectF cb(f.plot.right() + ink.mm(2.0), f.plot.top(), bar_w, f.plot.height());
    const int n = std::max(2, static_cast<int>(cb.height()));
    for (int i = 0; i < n; ++i)
        p.fillRect(QRectF(cb.left(), cb.bottom() - (i + 1) * cb.height() / n, cb.width(), cb.height() / n + 0.5), viridis(double(i) / (n - 1)));
    p.setPen(plot::pen(ink, Qt::black, 0.2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(cb);
    p.setFont(ink.font());
    Axis scale;
    scale.lo = s.lo, scale.hi = s.hi, scale.log = s.log && s.lo > 0;
    for (size_t i = 0; i < bar.values.size(); ++i) {
        const double yy = cb.bottom() - scale.frac(bar.values[i]) * cb.height();
        p.drawLine(QPointF(cb.right(), yy), QPointF(cb.right() + ink.mm(0.8), yy));
        p.drawText(QRectF(cb.right() + ink.mm(1.2), yy - fm.height() / 2, bw + ink.mm(1), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(bar.labels[i]));
    }
    // the common factor under the bar, in the row of the step axis's title (above it, it met the title)
    if (!bar.factor.empty())
        p.drawText(QRectF(cb.left(), cb.bottom() + 1.15 * fm.height(), bw + ink.mm(4), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(bar.factor));
    p.restore();
}

}  // namespace normlab
