// NormLab widgets: box-plot figures for print (see plot_figure.h); heatmaps: plot_heatmap.cpp.
#include "widgets/plot_figure.h"

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

}  // namespace normlab
