// NormLab widgets: a sweep's parallel coordinates — what they show and how
// they are drawn (see sweep.h).
#include "widgets/sweep.h"

#include "core/config.h"
#include "core/experiment.h"
#include "core/print_ticks.h"
#include "core/settings_differ.h"
#include "widgets/heatmap.h"
#include "widgets/plot_paint.h"

#include <QCoreApplication>
#include <QLinearGradient>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace normlab {

using nlohmann::json;

namespace {

QString shown(const json* v) {
    if (!v || v->is_null()) return QString::fromUtf8("—");
    return QString::fromStdString(v->is_string() ? v->get<std::string>() : v->dump());
}

// Where category i of n sits (0 bottom .. 1 top): each in the middle of its share of the axis, so that no
// category lies on the plot's top or bottom edge, where its runs' lines would run along it (two schemes
// compared drew two lines on the edges of an empty box).
double category_pos(int i, qsizetype n) { return n > 0 ? (i + 0.5) / double(n) : 0.5; }

}  // namespace

// The outcome's colour: viridis from dark (the best, lowest) to light on white; on a dark ground from its
// bright end (the best) to a blue that still stands off the ground.
QColor sweep_outcome_color(double pos, bool dark) {
    const double t = std::clamp(pos, 0.0, 1.0);
    return viridis(dark ? 1.0 - 0.65 * t : 0.85 * t);
}

SweepInk SweepInk::screen(const QPalette& palette) {
    if (palette.color(QPalette::Window).lightness() >= 128) return {};
    return {palette.color(QPalette::Base), palette.color(QPalette::Text), true};
}

SweepSpec sweep_spec(const std::vector<SweepRun>& runs, const QString& metric_title, const SweepOptions& o) {
    SweepSpec s;
    s.metric_title = metric_title;
    if (runs.size() < 2) {
        s.empty_hint = QCoreApplication::translate("normlab::SweepChart", "Select two or more runs — a sweep — to see which of their settings moved the outcome.");
        return s;
    }
    std::vector<std::map<std::string, json>> flat(runs.size());
    std::set<std::string> keys;
    for (size_t i = 0; i < runs.size(); ++i) {
        flat[i] = dotted_leaves(runs[i].config);
        flat[i].erase("name");
        for (auto& [k, v] : flat[i]) keys.insert(k);
    }
    s.lines.resize(runs.size());
    for (size_t i = 0; i < runs.size(); ++i) s.lines[i].run = runs[i].label;
    SchemeDefaults defaults;
    std::vector<std::string> schemes;
    for (const SweepRun& r : runs) schemes.push_back(scheme_of(r.config));
    for (const std::string& key : keys) {
        std::vector<const json*> v(runs.size(), nullptr);
        for (size_t i = 0; i < runs.size(); ++i)
            if (auto it = flat[i].find(key); it != flat[i].end()) v[i] = &it->second;
        bool differs = false, numeric = true;
        for (size_t i = 0; i < runs.size(); ++i) {
            differs = differs || shown(v[i]) != shown(v[0]);
            numeric = numeric && v[i] && v[i]->is_number();
        }
        if (!differs) continue;
        SweepSpec::Axis a;
        a.name = QString::fromStdString(key.rfind("model.", 0) == 0 ? key.substr(6) : key);
        if (o.hidden.contains(a.name)) {
            s.hidden << a.name;
            continue;
        }
        if (o.fold_implied && key != "scheme" && defaults.implied(key, schemes, v)) {
            s.implied << a.name;
            continue;
        }
        a.numeric = numeric;
        std::vector<double> pos(runs.size());
        if (numeric) {
            std::set<double> values;
            for (auto* x : v) values.insert(x->get<double>());
            const double lo = *values.begin(), hi = *values.rbegin();
            a.log = lo > 0 && hi >= 10 * lo;   // a learning rate's sweep spans a decade or more
            auto f = [&](double x) { return a.log ? std::log10(x) : x; };
            a.lo = f(lo), a.hi = f(hi);
            // labelled at the values the runs took, where they are few enough to read
            a.ticks = values.size() <= 8 ? std::vector<double>(values.begin(), values.end()) : print_ticks(lo, hi, a.log, 5, 3, 6).values;
            for (size_t i = 0; i < runs.size(); ++i) pos[i] = a.hi > a.lo ? (f(v[i]->get<double>()) - a.lo) / (a.hi - a.lo) : 0.5;
        } else {
            std::set<QString> cats;
            for (auto* x : v) cats.insert(shown(x));
            a.categories = QStringList(cats.begin(), cats.end());
            for (size_t i = 0; i < runs.size(); ++i) pos[i] = category_pos(a.categories.indexOf(shown(v[i])), a.categories.size());
        }
        for (size_t i = 0; i < runs.size(); ++i) {
            s.lines[i].values << shown(v[i]);
            s.lines[i].pos.push_back(pos[i]);
        }
        s.axes.push_back(std::move(a));
    }
    if (s.axes.empty()) {
        s.lines.clear();
        s.empty_hint = !s.hidden.isEmpty()
                           ? QCoreApplication::translate("normlab::SweepChart", "Every setting that differs among these runs is hidden (%1): show one to compare them.")
                                 .arg(s.hidden.join(", "))
                           : QCoreApplication::translate("normlab::SweepChart", "These runs' settings are all the same: select runs that differ to compare them.");
        return s;
    }
    // the outcome's axis, lowest at the bottom
    SweepSpec::Axis out;
    out.name = metric_title;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (auto& r : runs)
        if (std::isfinite(r.metric)) lo = std::min(lo, r.metric), hi = std::max(hi, r.metric);
    if (lo < hi) {
        // labelled at its ends too (the best and the worst run's outcome, to a digit more than the ticks), the ticks
        // between them where there is room (draw_sweep)
        out.lo = lo, out.hi = hi;
        const std::vector<double> t = print_ticks(lo, hi, false, 5, 3, 6).values;
        const double q = std::pow(10.0, std::floor(std::log10(t.size() > 1 ? t[1] - t[0] : hi - lo)) - 1);   // a digit more
        out.ticks.push_back(std::round(lo / q) * q);
        for (double x : t)
            if (x > lo && x < hi) out.ticks.push_back(x);
        out.ticks.push_back(std::round(hi / q) * q);
        out.ends = true;
    } else if (lo == hi) {
        out.lo = out.hi = lo;
        out.ticks = {lo};
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        s.lines[i].metric = std::isfinite(runs[i].metric) ? runs[i].metric : std::nan("");
        s.lines[i].metric_pos = std::isfinite(runs[i].metric) ? (hi > lo ? (runs[i].metric - lo) / (hi - lo) : 0.5) : std::nan("");
    }
    s.axes.push_back(std::move(out));
    return s;
}

QString sweep_left_out(const SweepSpec& s) {
    QStringList parts;
    const int implied = static_cast<int>(s.implied.size()), hidden = static_cast<int>(s.hidden.size());
    if (implied > 0)
        parts << QCoreApplication::translate("normlab::SweepChart", "%n setting(s) the scheme implies (%1)", "", implied).arg(s.implied.join(", "));
    if (hidden > 0) parts << QCoreApplication::translate("normlab::SweepChart", "%n hidden (%1)", "", hidden).arg(s.hidden.join(", "));
    if (parts.isEmpty()) return {};
    return QCoreApplication::translate("normlab::SweepChart", "Not shown: %1.").arg(parts.join("; "));
}

QPointF SweepGeometry::at(const SweepSpec& s, size_t line, size_t axis) const {
    const auto& l = s.lines[line];
    const double pos = axis + 1 < s.axes.size() ? l.pos[axis] : l.metric_pos;
    return {x[axis], std::isfinite(pos) ? bottom - pos * (bottom - top) : std::nan("")};
}

SweepGeometry draw_sweep(QPainter& p, const QRectF& r, const SweepSpec& s, const PrintUnits& u, int highlight,
                         const SweepInk& look) {
    plot::Ink ink(p, u);
    SweepGeometry g;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor fg = look.fg;
    const QFont f = ink.font();
    const QFontMetricsF fm = ink.metrics(f);
    const double gap = ink.mm(1.0), line_h = fm.lineSpacing();
    double top = r.top();
    if (!s.title.isEmpty()) {
        const QFont tf = ink.font(1.1, true);
        p.setFont(tf);
        p.setPen(fg);
        for (const QString& t : plot::wrap(ink.metrics(tf), s.title, r.width())) {
            p.drawText(QRectF(r.left(), top, r.width(), ink.metrics(tf).lineSpacing()), Qt::AlignCenter, t);
            top += ink.metrics(tf).lineSpacing();
        }
        top += gap;
    }
    p.setFont(f);
    p.setPen(fg);
    if (s.axes.empty()) {
        p.drawText(r.adjusted(gap, top - r.top(), -gap, 0), Qt::AlignCenter | Qt::TextWordWrap, s.empty_hint);
        p.restore();
        return g;
    }
    const size_t n = s.axes.size();
    // each axis's labels and where they sit (0 bottom .. 1 top)
    std::vector<QStringList> labels(n);
    std::vector<std::vector<double>> at(n);
    std::vector<QString> names(n);
    std::vector<double> widest(n, 0);
    for (size_t k = 0; k < n; ++k) {
        const auto& a = s.axes[k];
        names[k] = a.name;
        if (a.numeric) {
            const PrintTicks t = label_ticks(a.ticks, a.log);
            for (size_t i = 0; i < t.values.size(); ++i) {
                const double v = a.log ? std::log10(t.values[i]) : t.values[i];
                labels[k] << QString::fromStdString(t.labels[i]);
                at[k].push_back(a.ends && i == 0 ? 0.0 : a.ends && i + 1 == t.values.size() ? 1.0 : a.hi > a.lo ? (v - a.lo) / (a.hi - a.lo) : 0.5);
            }
            if (!t.factor.empty()) names[k] += QString(" (%1)").arg(QString::fromStdString(t.factor));
        } else {
            labels[k] = a.categories;
            for (int i = 0; i < a.categories.size(); ++i) at[k].push_back(category_pos(i, a.categories.size()));
        }
        for (auto& l : labels[k]) widest[k] = std::max(widest[k], fm.horizontalAdvance(l));
    }
    // The outcome's axis is its colour scale: a bar, its labels right of it and its name beside them, turned
    // (wrapped to two lines where the plot is too low for it), as a colour bar's.
    const double bar = ink.mm(1.6);
    const size_t settings = n - 1;
    const double title_w = line_h * 2;   // at most two turned lines
    const double left = r.left() + widest[0] + 2 * gap,
                 right = r.right() - title_w - gap - widest[n - 1] - ink.mm(1.1) - bar / 2;
    const double column = n > 1 ? (right - left) / (n - 1) : 0;
    for (size_t k = 0; k < n; ++k) g.x.push_back(n > 1 ? left + k * column : (left + right) / 2);
    // names above their axes, wrapped to the room between axes; where one would need more than two lines
    // there, every other name goes a row higher with twice the room (many axes in a column's width)
    std::vector<QStringList> name_lines(n);
    auto wrap_names = [&](double room) {
        bool fits = true;
        for (size_t k = 0; k < settings; ++k) {
            name_lines[k] = plot::wrap(fm, names[k], room);
            for (auto& l : name_lines[k]) fits = fits && fm.horizontalAdvance(l) <= room + 0.5;
            fits = fits && name_lines[k].size() <= 2;
        }
        return fits;
    };
    bool staggered = false;
    if (!wrap_names(n > 1 ? column - gap : right - left) && settings > 2) {
        staggered = true;
        wrap_names(2 * column - gap);
    }
    double row_h[2] = {0, 0};
    for (size_t k = 0; k < settings; ++k) {
        const int row = staggered && k % 2 == 0 ? 0 : 1;   // the last row sits on the axes
        row_h[row] = std::max(row_h[row], name_lines[k].size() * line_h);
    }
    const double names_h = row_h[0] + row_h[1];
    g.top = top + names_h + line_h * 0.8;
    g.bottom = r.bottom() - line_h * 0.6;
    auto y_of = [&](double pos) { return g.bottom - pos * (g.bottom - g.top); };
    // the runs: no outcome first (grey, dashed, to the last setting), then the worst to the best, the highlighted last
    std::vector<size_t> order(s.lines.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const double pa = s.lines[a].metric_pos, pb = s.lines[b].metric_pos;
        if (std::isnan(pa) != std::isnan(pb)) return std::isnan(pa);
        return !std::isnan(pa) && pa > pb;
    });
    if (highlight >= 0 && highlight < static_cast<int>(s.lines.size())) {
        order.erase(std::find(order.begin(), order.end(), static_cast<size_t>(highlight)));
        order.push_back(static_cast<size_t>(highlight));
    }
    p.setBrush(Qt::NoBrush);
    // a few runs' lines drawn bolder, as a line chart's are; a sweep's many, thin enough to be told apart
    const double width = s.lines.size() <= 8 ? 0.55 : 0.35;
    for (size_t i : order) {
        QPolygonF path;
        for (size_t k = 0; k < n; ++k)
            if (const QPointF q = g.at(s, i, k); std::isfinite(q.y())) path << q;
        const bool none = std::isnan(s.lines[i].metric_pos);
        QColor c = none ? QColor(150, 150, 150) : sweep_outcome_color(s.lines[i].metric_pos, look.dark);
        const bool lit = static_cast<int>(i) == highlight;
        if (highlight >= 0 && !lit) c.setAlpha(60);
        if (lit) {
            p.setPen(plot::pen(ink, look.ground, width + 0.85));   // a halo of the ground
            p.drawPolyline(path);
        }
        p.setPen(plot::pen(ink, c, lit ? width + 0.35 : width, none ? Qt::DashLine : Qt::SolidLine));
        p.drawPolyline(path);
    }
    // the axes over the lines: names, the line, ticks and labels on the ground's colour
    for (size_t k = 0; k < n; ++k) {
        const double x = g.x[k];
        p.setPen(fg);
        // bottom-aligned on its row, so each name sits just above its axis's top
        const bool upper = staggered && k % 2 == 0;
        double y = (upper ? top + row_h[0] : top + names_h) - name_lines[k].size() * line_h;
        for (const QString& l : name_lines[k]) {
            const double w = fm.horizontalAdvance(l);
            const double x0 = std::clamp(x - w / 2, r.left(), r.right() - w);
            p.drawText(QRectF(x0, y, w + 1, line_h), Qt::AlignCenter, l);
            y += line_h;
        }
        if (k + 1 == n) {   // the outcome: a colour bar, the best at the bottom
            QLinearGradient grad(QPointF(x, g.bottom), QPointF(x, g.top));
            for (int i = 0; i <= 10; ++i) grad.setColorAt(i / 10.0, sweep_outcome_color(i / 10.0, look.dark));
            p.fillRect(QRectF(x - bar / 2, g.top, bar, g.bottom - g.top), grad);
            p.setPen(plot::pen(ink, fg, 0.2));
            p.drawRect(QRectF(x - bar / 2, g.top, bar, g.bottom - g.top));
        } else {
            p.setPen(plot::pen(ink, fg, 0.25));
            p.drawLine(QPointF(x, g.top), QPointF(x, g.bottom));
        }
        const bool outcome = k + 1 == n;   // its labels right of the bar, the settings' left of their line
        const double edge = outcome ? x + bar / 2 : x, dir = outcome ? 1 : -1;
        for (int i = 0; i < labels[k].size(); ++i) {
            const double pos = at[k][static_cast<size_t>(i)], room = (g.bottom - g.top) / fm.height();
            // too near an end's label: less than a line and a half apart, the two read as one ("3.35" on "3.30")
            if (s.axes[k].ends && i > 0 && i + 1 < labels[k].size() && (pos * room < 1.5 || (1 - pos) * room < 1.5)) continue;
            const double ty = y_of(pos);
            p.setPen(plot::pen(ink, fg, 0.2));
            p.drawLine(QPointF(edge + dir * ink.mm(0.8), ty), QPointF(edge, ty));
            const double w = fm.horizontalAdvance(labels[k][i]);
            const QRectF box(outcome ? edge + ink.mm(1.1) : edge - ink.mm(1.1) - w, ty - fm.height() / 2, w, fm.height());
            if (!outcome) {
                QColor under = look.ground;
                under.setAlpha(210);
                p.fillRect(box.adjusted(-ink.mm(0.3), 0, ink.mm(0.3), 0), under);
            }
            p.setPen(fg);
            p.drawText(box, (outcome ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter, labels[k][i]);
        }
        if (outcome) {
            const double h = g.bottom - g.top;
            QStringList t = plot::wrap(fm, names[k], h);
            if (t.size() > 2) t = QStringList{t.mid(0, t.size() / 2 + t.size() % 2).join(' '), t.mid(t.size() / 2 + t.size() % 2).join(' ')};
            p.save();
            p.translate(r.right() - title_w + (2 - t.size()) * line_h / 2, g.bottom);
            p.rotate(-90);
            for (int i = 0; i < t.size(); ++i) p.drawText(QRectF(0, i * line_h, h, line_h), Qt::AlignCenter, t[i]);
            p.restore();
        }
    }
    p.restore();
    return g;
}

double sweep_height_mm(const SweepSpec& s, double width_mm, double font_pt, double aspect) {
    const double line_mm = font_pt * 25.4 / 72 * 1.25;
    return width_mm * aspect + line_mm * (s.title.isEmpty() ? 3.5 : 5);
}

}  // namespace normlab
