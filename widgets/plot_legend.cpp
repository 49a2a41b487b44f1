// NormLab widgets: a figure's legend — what it lists and where each entry
// goes (see plot_figure.h, plot_paint.h).
#include "widgets/plot_paint.h"

#include "widgets/math_text.h"

#include <QCoreApplication>
#include <QLinearGradient>

#include <algorithm>
#include <climits>
#include <map>

namespace normlab {

std::vector<LegendEntry> legend_entries(const PlotSpec& s) { return legend_entries(s.curves, s.hlines); }

std::vector<LegendEntry> legend_entries(const std::vector<Curve>& curves, const std::vector<std::pair<double, QString>>& hlines) {
    std::vector<LegendEntry> out;
    auto run_of = [](const Curve& c) { return c.run.isEmpty() ? c.label : c.run; };
    std::vector<QString> runs;   // in drawing order
    for (auto& c : curves)
        if (std::find(runs.begin(), runs.end(), run_of(c)) == runs.end()) runs.push_back(run_of(c));
    const bool layered = std::any_of(curves.begin(), curves.end(), [](const Curve& c) { return c.layer >= 0; });
    if (layered) {
        // Per-layer lines: a colour ramp per run, and the layers it spans. Where several runs span the same
        // layers, each entry is the run's name alone and one grey key says which layers the ramps go through
        // ("Post-LN seed=1 · layers 0–3" eight times was cut at a laptop's width and a column's).
        auto layers_text = [](int first, int last) {
            return first == last ? QCoreApplication::translate("normlab::Figure", "layer %1").arg(first)
                                 : QCoreApplication::translate("normlab::Figure", "layers %1–%2").arg(first).arg(last);
        };
        std::vector<std::pair<int, int>> spans;
        for (const QString& run : runs) {
            int first = INT_MAX, last = INT_MIN;
            for (auto& c : curves)
                if (run_of(c) == run) first = std::min(first, c.layer), last = std::max(last, c.layer);
            spans.emplace_back(first, last);
        }
        const bool one_span = runs.size() > 1 && spans.front().first < spans.front().second &&
                              std::all_of(spans.begin(), spans.end(), [&](auto& s) { return s == spans.front(); });
        for (const QString& run : runs) {
            std::map<int, const Curve*> by_layer;
            bool band = false;
            for (auto& c : curves)
                if (run_of(c) == run) by_layer[c.layer] = &c, band = band || !c.band_lo.empty();
            LegendEntry e;
            for (auto& [layer, c] : by_layer) e.ramp.push_back(c->color);
            e.color = by_layer.begin()->second->color;
            e.band = band;
            const QString layers = layers_text(by_layer.begin()->first, by_layer.rbegin()->first);
            e.text = one_span ? run : runs.size() > 1 ? QString("%1 · %2").arg(run, layers) : layers;
            e.run = run;
            out.push_back(e);
        }
        if (one_span) {
            LegendEntry key;   // the first run's ramp in grey: dark to light as every run's goes
            key.text = layers_text(spans.front().first, spans.front().second);
            for (const QColor& c : out.front().ramp) {
                const int g = qGray(c.rgb());
                key.ramp.push_back(QColor(g, g, g));
            }
            key.color = key.ramp.front();
            key.key = true;
            out.push_back(key);
        }
    } else {
        // Each run once in its colour; the kinds of line (train, validation) once each, in grey with their dash.
        std::vector<std::pair<QString, Qt::PenStyle>> parts;
        for (auto& c : curves)
            if (!c.part.isEmpty() &&
                std::none_of(parts.begin(), parts.end(), [&](auto& p) { return p.first == c.part; }))
                parts.emplace_back(c.part, c.style);
        bool styles_differ = false;
        for (auto& p : parts) styles_differ = styles_differ || p.second != parts.front().second;
        for (const QString& run : runs) {
            LegendEntry e;
            e.text = run;
            e.run = run;
            bool first = true, shown = false;
            for (auto& c : curves) {
                if (run_of(c) != run) continue;
                shown = shown || c.legend;
                if (first) e.color = c.color, e.style = c.style;
                else if (c.style != e.style) e.style = Qt::SolidLine;
                e.band = e.band || !c.band_lo.empty();
                first = false;
            }
            if (styles_differ) e.style = Qt::SolidLine;
            if (shown) out.push_back(e);
        }
        if (styles_differ)
            for (auto& [part, style] : parts) {
                LegendEntry e;
                e.text = part;
                e.part = part;
                e.color = QColor(80, 80, 80);
                e.style = style;
                out.push_back(e);
            }
    }
    for (size_t h = 0; h < hlines.size(); ++h) {
        LegendEntry e;
        e.text = hlines[h].second;
        e.hline = static_cast<int>(h);
        e.color = QColor(110, 110, 110);
        e.style = reference_line_style(h);
        out.push_back(e);
    }
    return out;
}

namespace plot {

namespace {
constexpr double kSwatchMm = 5.5, kSwatchGapMm = 1.2, kColumnGapMm = 3.0, kRowGapMm = 0.3;
}

// One row where the legend fits in one. Else the runs in a grid, row by row, of as many columns as
// fit the width, and what names no run (the kinds of line, the reference lines, the layers' key)
// flowing in rows of their own under them: at 89 mm "train" stood at the end of the runs' row, "validation" under the
// first run and "Pre-LN" in a column as wide as "unigram (byte frequencies)".
LegendLayout layout_legend(const Ink& ink, const std::vector<LegendEntry>& entries, double width) {
    LegendLayout l;
    if (entries.empty()) return l;
    const QFontMetricsF fm = ink.metrics(ink.font());
    const double sw = ink.mm(kSwatchMm) + ink.mm(kSwatchGapMm), cg = ink.mm(kColumnGapMm), ls = fm.lineSpacing();
    const size_t n = entries.size();
    std::vector<double> natural(n);
    for (size_t i = 0; i < n; ++i) natural[i] = sw + math_text::advance(fm, entries[i].text);
    double one_row = static_cast<double>(n - 1) * cg;
    for (double w : natural) one_row += w;
    // The blocks: the whole legend in one row, or each stretch of runs' and of other entries apart.
    std::vector<std::pair<size_t, size_t>> blocks;   // [first, last)
    for (size_t i = 0; i < n; ++i)
        if (i == 0 || (one_row > width && entries[i].run.isEmpty() != entries[i - 1].run.isEmpty())) blocks.emplace_back(i, i + 1);
        else blocks.back().second = i + 1;
    l.lines.resize(n);
    l.cells.resize(n);
    double y = 0;
    for (auto [first, last] : blocks) {
        const size_t m = last - first;
        if (blocks.size() > 1 && entries[first].run.isEmpty()) {
            // The keys, unlike each other, flow: each as wide as it is, a new row where the next is not.
            double x = 0;
            int most = 1;
            for (size_t i = first; i < last; ++i) {
                const double w = std::min(natural[i], width);
                if (x > 0 && x + w > width) y += most * ls + ink.mm(kRowGapMm), x = 0, most = 1;
                l.lines[i] = wrap(fm, entries[i].text, std::max(ink.mm(10), w - sw));
                most = std::max(most, static_cast<int>(l.lines[i].size()));
                l.cells[i] = QRectF(x, y, w, l.lines[i].size() * ls);
                l.width = std::max(l.width, x + w);
                x += w + cg;
            }
            y += most * ls + ink.mm(kRowGapMm);
            continue;
        }
        // The most columns (row by row) that fit the width.
        size_t cols = 1;
        std::vector<double> colw;
        for (size_t c = m; c >= 1; --c) {
            std::vector<double> w(c, 0.0);
            for (size_t i = 0; i < m; ++i) w[i % c] = std::max(w[i % c], natural[first + i]);
            double total = static_cast<double>(c - 1) * cg;
            for (double x : w) total += x;
            if (total <= width || c == 1) {
                cols = c;
                colw = w;
                break;
            }
        }
        if (cols == 1) colw[0] = std::min(colw[0], width);
        for (size_t i = 0; i < m; ++i)
            l.lines[first + i] = wrap(fm, entries[first + i].text, std::max(ink.mm(10), colw[i % cols] - sw));
        for (size_t r = 0; r * cols < m; ++r) {
            int most = 1;
            for (size_t c = 0; c < cols && r * cols + c < m; ++c)
                most = std::max(most, static_cast<int>(l.lines[first + r * cols + c].size()));
            double x = 0;
            for (size_t c = 0; c < cols && r * cols + c < m; ++c) {
                l.cells[first + r * cols + c] = QRectF(x, y, colw[c], most * ls);
                x += colw[c] + cg;
            }
            l.width = std::max(l.width, x - cg);
            y += most * ls + ink.mm(kRowGapMm);
        }
    }
    l.height = y - ink.mm(kRowGapMm);
    return l;
}

void draw_legend(const Ink& ink, const std::vector<LegendEntry>& entries, const LegendLayout& l, QPointF at) {
    QPainter& p = ink.p();
    p.save();
    p.setFont(ink.font());
    const QFontMetricsF fm = ink.metrics(ink.font());
    const double ls = fm.lineSpacing(), sw = ink.mm(kSwatchMm);
    for (size_t i = 0; i < entries.size() && i < l.cells.size(); ++i) {
        const LegendEntry& e = entries[i];
        const QRectF cell = l.cells[i].translated(at);
        const double cy = cell.top() + ls / 2;
        if (e.band) {
            QColor fill = e.color;
            fill.setAlphaF(0.25);
            p.fillRect(QRectF(cell.left(), cy - ink.mm(1.0), sw, ink.mm(2.0)), fill);
        }
        if (!e.ramp.empty()) {
            // the colours of the layers, first to last
            QLinearGradient g(cell.left(), cy, cell.left() + sw, cy);
            for (size_t k = 0; k < e.ramp.size(); ++k)
                g.setColorAt(e.ramp.size() > 1 ? double(k) / double(e.ramp.size() - 1) : 0.0, e.ramp[k]);
            p.fillRect(QRectF(cell.left(), cy - ink.mm(0.45), sw, ink.mm(0.9)), g);
        } else {
            p.setPen(pen(ink, e.color, 0.4, e.style));
            p.drawLine(QPointF(cell.left(), cy), QPointF(cell.left() + sw, cy));
        }
        p.setPen(Qt::black);
        for (int k = 0; k < l.lines[i].size(); ++k)
            math_text::draw(p, QRectF(cell.left() + sw + ink.mm(kSwatchGapMm), cell.top() + k * ls, cell.width(), fm.height()),
                            Qt::AlignLeft | Qt::AlignTop, l.lines[i][k]);
    }
    p.restore();
}

void draw_legend_below(const Ink& ink, const std::vector<LegendEntry>& entries, const LegendLayout& l, const QRectF& r,
                       const Frame& f) {
    draw_legend(ink, entries, l, QPointF(r.left() + std::max(0.0, (r.width() - l.width) / 2), f.legend_box.top()));
}

}  // namespace plot

}  // namespace normlab
