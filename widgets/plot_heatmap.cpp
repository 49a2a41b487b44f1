// NormLab widgets: heatmap figures for print (see plot_figure.h) — one heatmap, and a row of them as
// small multiples, as the Gradients tab lays them out (heatmap_grid.h).
#include "widgets/plot_figure.h"

#include "widgets/heatmap.h"
#include "widgets/math_text.h"
#include "widgets/plot_paint.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace normlab {

using plot::Axis;
using plot::Frame;
using plot::Ink;

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
// widest label (bw). Without its layer axis or colour bar (a row's small multiples) the cells take their room.
struct HeatLayout {
    Frame f;
    PrintTicks bar;
    double bar_w = 0, bw = 0;
    double cells_lo = 0, cells_hi = 1;   // the steps the cells span (on a shared step axis, part of f.x's)
};

HeatLayout layout_heatmap(const Ink& ink, const QRectF& r, const HeatSpec& s) {
    const QFontMetricsF fm = ink.metrics(ink.font());
    const int H = static_cast<int>(s.rows.size()), W = static_cast<int>(s.steps.size());
    Axis x, y;
    // x: the steps, each cell centred on its own
    const double first = W ? s.steps.front() : 0, last = W ? s.steps.back() : 1;
    const double half = W > 1 ? 0.5 * (last - first) / (W - 1) : 0.5;
    x.lo = first - half, x.hi = last + half;
    if (std::isfinite(s.step_lo) && std::isfinite(s.step_hi) && s.step_lo <= first && s.step_hi >= last)
        x.lo = s.step_lo - half, x.hi = s.step_hi + half;
    x.integer = true;
    // y: the layers, every one labelled while they fit
    y.categories = true;
    y.lo = -0.5, y.hi = std::max(0.5, H - 0.5);
    HeatLayout L;
    L.cells_lo = first - half, L.cells_hi = last + half;
    L.bar_w = s.colour_bar ? ink.mm(2.5) : 0;
    auto place = [&](int max_ticks, double plot_h) {
        if (s.layer_axis) {
            const int every = std::max(1, static_cast<int>(std::ceil(H * fm.height() * 1.3 / std::max(1.0, plot_h))));
            std::vector<double> layers;
            for (int l = 0; l < H; l += every) layers.push_back(l);
            y.ticks = label_ticks(layers, false);
        }
        double extra = ink.mm(1.2);   // a gap to the next heatmap of the row
        if (s.colour_bar) {
            // the colour bar's ticks, as many as its height has room for (4 or so)
            L.bar = print_ticks(s.lo, s.hi, s.log && s.lo > 0, std::min(4, max_ticks), std::min(3, max_ticks), max_ticks, false);
            L.bw = 0;
            for (auto& l : L.bar.labels) L.bw = std::max(L.bw, fm.horizontalAdvance(QString::fromStdString(l)));
            L.bw = std::max(L.bw, fm.horizontalAdvance(QString::fromStdString(L.bar.factor)));
            extra = ink.mm(2.0) + L.bar_w + ink.mm(1.8) + L.bw;
        }
        L.f = plot::layout_frame(ink, r, s.title, QCoreApplication::translate("normlab::Figure", "step"),
                                 s.layer_axis ? QCoreApplication::translate("normlab::Figure", "layer") : QString(), x, y, 0, extra);
    };
    place(6, r.height() * 0.6);
    // a low plot: fewer labels on the bar and the layer axis, so that none print over another
    const int room = static_cast<int>(L.f.plot.height() / (1.25 * fm.height()));
    if (room < 6) place(std::max(2, room), L.f.plot.height());
    return L;
}

void paint_heatmap(const Ink& ink, const HeatLayout& L, const HeatSpec& s) {
    QPainter& p = ink.p();
    const QFontMetricsF fm = ink.metrics(ink.font());
    const int H = static_cast<int>(s.rows.size()), W = static_cast<int>(s.steps.size());
    const Frame& f = L.f;
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
        // the cells over their own steps (on a shared step axis a shorter run's end short of the plot's)
        const double x0 = f.plot.left() + f.x.frac(L.cells_lo) * f.plot.width();
        const double x1 = f.plot.left() + f.x.frac(L.cells_hi) * f.plot.width();
        const QRectF cells(x0, f.plot.top(), x1 - x0, f.plot.height());
        const QRectF dev = p.transform().mapRect(cells);
        const QSize px(std::clamp(static_cast<int>(std::ceil(dev.width())), W, 8192), std::clamp(static_cast<int>(std::ceil(dev.height())), H, 8192));
        p.drawImage(cells, img.scaled(px, Qt::IgnoreAspectRatio, Qt::FastTransformation));
    }
    plot::draw_axes(ink, f);
    if (!s.colour_bar) {
        p.restore();
        return;
    }
    // colour bar, labelled at its ticks
    const PrintTicks& bar = L.bar;
    const QRectF cb(f.plot.right() + ink.mm(2.0), f.plot.top(), L.bar_w, f.plot.height());
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
        p.drawText(QRectF(cb.right() + ink.mm(1.2), yy - fm.height() / 2, L.bw + ink.mm(1), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(bar.labels[i]));
    }
    // the common factor under the bar, in the row of the step axis's title (above it, it met the title)
    if (!bar.factor.empty())
        p.drawText(QRectF(cb.left(), cb.bottom() + 1.15 * fm.height(), L.bw + ink.mm(4), fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::fromStdString(bar.factor));
    p.restore();
}

// A row of heatmaps in `r`: each one's frame as it needs, its cells as wide as every other's, and the plots'
// tops and bottoms in line (a title that wraps to two lines lowers them all). A row shorter than `columns`
// (the last of a grid) has its cells as wide as a full row's, whose other heatmaps would be bare.
std::vector<HeatLayout> layout_row(const Ink& ink, const QRectF& r, const std::vector<HeatSpec>& row, size_t columns) {
    const size_t n = row.size(), cols = std::max(n, columns);
    if (n == 0) return {};
    const double probe = r.width() / cols;
    auto frame_of = [&](const HeatSpec& s) { return probe - layout_heatmap(ink, QRectF(0, r.top(), probe, r.height()), s).f.plot.width(); };
    std::vector<double> frame(n);
    for (size_t k = 0; k < n; ++k) frame[k] = frame_of(row[k]);
    double framed = std::accumulate(frame.begin(), frame.end(), 0.0);
    if (cols > n) {
        HeatSpec bare = row.back();
        bare.layer_axis = bare.colour_bar = false;
        framed += static_cast<double>(cols - n) * frame_of(bare);
    }
    const double cells = std::max(ink.mm(5), (r.width() - framed) / cols);
    std::vector<HeatLayout> out;
    double x = r.left(), top = r.top(), bottom = r.bottom();
    for (size_t k = 0; k < n; ++k) {
        out.push_back(layout_heatmap(ink, QRectF(x, r.top(), frame[k] + cells, r.height()), row[k]));
        x += frame[k] + cells;
        top = std::max(top, out.back().f.plot.top());
        bottom = std::min(bottom, out.back().f.plot.bottom());
    }
    // each title over its own cells where it fits there (over the frame too, it stood off-centre)
    const QFontMetricsF tfm = ink.metrics(ink.font(1.1, true));
    for (auto& L : out) {
        L.f.plot = QRectF(L.f.plot.left(), top, L.f.plot.width(), bottom - top);
        double widest = 0;
        for (const QString& line : L.f.title) widest = std::max(widest, math_text::advance(tfm, line));
        if (widest <= L.f.plot.width()) L.f.title_box = QRectF(L.f.plot.left(), L.f.title_box.top(), L.f.plot.width(), L.f.title_box.height());
    }
    return out;
}

}  // namespace

double heatmap_row_height_mm(const std::vector<HeatSpec>& row, double width_mm, double font_pt, double aspect, size_t columns) {
    plot::Measure m(font_pt);
    const double H = 1000;
    const std::vector<HeatLayout> L = layout_row(*m.ink, QRectF(0, 0, m.ink->mm(width_mm), m.ink->mm(H)), row, columns);
    if (L.empty()) return 0;
    // the plots `aspect` × as high as wide, but at least four lines of text high (three labels on the colour bar)
    const double line_mm = font_pt * 25.4 / 72 * 1.25;
    const double plot_mm = std::max(aspect * m.ink->to_mm(L.front().f.plot.width()), 4 * line_mm);
    return std::ceil(H - m.ink->to_mm(L.front().f.plot.height()) + plot_mm);
}

void draw_heatmap(QPainter& p, const QRectF& r, const HeatSpec& s, const PrintUnits& u) { draw_heatmap_row(p, r, {s}, u, 1); }

void draw_heatmap_row(QPainter& p, const QRectF& r, const std::vector<HeatSpec>& row, const PrintUnits& u, size_t columns) {
    Ink ink(p, u);
    const std::vector<HeatLayout> L = layout_row(ink, r, row, columns);
    for (size_t k = 0; k < row.size(); ++k) paint_heatmap(ink, L[k], row[k]);
}

void frame_small_multiples(std::vector<HeatSpec>& row, bool shared_scale) {
    bool same_layers = true;
    for (auto& s : row) same_layers = same_layers && s.rows.size() == row.front().rows.size();
    for (size_t k = 0; k < row.size(); ++k) {
        row[k].layer_axis = !same_layers || k == 0;
        row[k].colour_bar = !shared_scale || k + 1 == row.size();
    }
}

void share_steps(std::vector<HeatSpec>& all) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (auto& s : all)
        if (!s.steps.empty()) lo = std::min(lo, s.steps.front()), hi = std::max(hi, s.steps.back());
    if (!(lo <= hi)) return;
    for (auto& s : all) s.step_lo = lo, s.step_hi = hi;
}

}  // namespace normlab
