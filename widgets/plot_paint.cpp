// NormLab widgets: the pieces of a figure's layout (see plot_paint.h).
#include "widgets/plot_paint.h"

#include "core/axis_ticks.h"
#include "widgets/math_text.h"

#include <QGuiApplication>

#include <algorithm>
#include <cmath>

namespace normlab::plot {

QFont Ink::font(double scale, bool bold) const {
    QFont f = QGuiApplication::font();
    // font_pt points on paper, on whatever device: its pixels per mm, and Qt's points per its logical dpi
    const double px = u_.font_pt * scale / 72.0 * 25.4 * u_.px_per_mm;
    const int dpi = p_.device() ? std::max(1, p_.device()->logicalDpiY()) : 96;
    f.setPointSizeF(px * 72.0 / dpi);
    f.setBold(bold);
    f.setKerning(true);
    return f;
}

Measure::Measure(double font_pt) : image(8, 8, QImage::Format_ARGB32) {
    image.setDotsPerMeterX(static_cast<int>(300 / 0.0254));
    image.setDotsPerMeterY(static_cast<int>(300 / 0.0254));
    painter.begin(&image);
    ink = std::make_unique<Ink>(painter, PrintUnits{300 / 25.4, font_pt});
}

QStringList wrap(const QFontMetricsF& fm, const QString& text, double width) {
    if (text.isEmpty()) return {};
    width += 0.01;   // a column exactly as wide as its text (its width less the swatch) keeps it on one line
    auto adv = [&fm](const QString& t) { return math_text::advance(fm, t); };   // a script at its own size
    if (adv(text) <= width) return {text};
    // words, keeping their separators: "Post-LN · layers 0–7" breaks after spaces, then after "/" "·" "-"
    const std::vector<bool> script = math_text::in_script(text);   // "x_{l − 1}": no line ends inside
    QStringList words;
    std::vector<int> starts;   // each word's offset in text
    QString cur;
    for (int i = 0; i < text.size(); ++i) {
        if (cur.isEmpty()) starts.push_back(i);
        cur += text[i];
        if (text[i] == ' ' && !script[i]) words << cur, cur.clear();
    }
    if (!cur.isEmpty()) words << cur;
    QStringList pieces;
    for (int k = 0; k < words.size(); ++k) {
        const QString& w = words[k];
        if (adv(w.trimmed()) <= width) {
            pieces << w;
            continue;
        }
        QString part;
        for (int i = 0; i < w.size(); ++i) {
            const QChar c = w[i];
            part += c;
            if (!script[starts[k] + i] && (c == '/' || c == '-' || c == QChar(0x00B7) || c == '_' || c == '.'))
                pieces << part, part.clear();
        }
        if (!part.isEmpty()) pieces << part;
    }
    QStringList lines;
    QString line;
    for (const QString& piece : pieces) {
        if (!line.isEmpty() && adv((line + piece).trimmed()) > width) {
            lines << line.trimmed();
            line.clear();
        }
        line += piece;
    }
    if (!line.trimmed().isEmpty()) lines << line.trimmed();
    return lines;
}

double Axis::frac(double v) const {
    if (log) {
        const double a = std::log10(lo), b = std::log10(hi);
        return b > a ? (std::log10(v) - a) / (b - a) : 0.5;
    }
    return hi > lo ? (v - lo) / (hi - lo) : 0.5;
}

QPointF to_px(const Frame& f, double x, double y) {
    return {f.plot.left() + f.x.frac(x) * f.plot.width(), f.plot.bottom() - f.y.frac(y) * f.plot.height()};
}

QPen pen(const Ink& ink, const QColor& c, double width_mm, Qt::PenStyle style) {
    QPen p(c, ink.mm(width_mm), style, Qt::FlatCap, Qt::RoundJoin);
    if (style == Qt::DashLine) p.setDashPattern({3.2, 2.0});   // in widths: a dash people recognise at 0.35 mm
    if (style == Qt::DotLine) p.setDashPattern({1.0, 1.6});
    if (style == Qt::DashDotLine) p.setDashPattern({4.0, 1.6, 1.0, 1.6});
    return p;
}

std::pair<double, double> padded(double lo, double hi, bool log, double pad) {
    if (!(lo <= hi)) return log ? std::pair{1.0, 10.0} : std::pair{0.0, 1.0};
    if (log) {
        double a = std::log10(lo), b = std::log10(hi);
        if (b - a < 1e-9) a -= 0.1, b += 0.1;
        const double d = (b - a) * pad;
        return {std::pow(10.0, a - d), std::pow(10.0, b + d)};
    }
    if (hi - lo <= 1e-12 * std::max(1.0, std::abs(hi))) return unflat(lo, hi);
    const double d = (hi - lo) * pad;
    return {lo - d, hi + d};
}

namespace {

double widest(const QFontMetricsF& fm, const std::vector<std::string>& labels) {
    double w = 0;
    for (auto& l : labels) w = std::max(w, fm.horizontalAdvance(QString::fromStdString(l)));
    return w;
}

// Whether the x labels of `t` sit side by side in `width` px without touching.
bool x_labels_fit(const QFontMetricsF& fm, const Axis& x, const PrintTicks& t, double width, double gap) {
    for (size_t i = 1; i < t.values.size(); ++i) {
        Axis a = x;
        const double d = (a.frac(t.values[i]) - a.frac(t.values[i - 1])) * width;
        const double need = 0.5 * (fm.horizontalAdvance(QString::fromStdString(t.labels[i])) +
                                   fm.horizontalAdvance(QString::fromStdString(t.labels[i - 1]))) + gap;
        if (d < need) return false;
    }
    return true;
}

// A log axis over less than a decade or two, where evenly spaced values crowd
// at its top: a dense set of them, kept from the bottom up wherever the next
// stands `gap` px or more above the last kept.
PrintTicks thinned(const Axis& a, double length, double gap) {
    const PrintTicks dense = print_ticks(a.lo, a.hi, a.log, 10, 8, 14, a.integer);
    std::vector<double> kept;
    for (double g = gap; kept.empty() || kept.size() > 7; g *= 1.25) {   // never more than 7
        kept.clear();
        for (double v : dense.values)
            if (kept.empty() || (a.frac(v) - a.frac(kept.back())) * length >= g) kept.push_back(v);
    }
    PrintTicks t = label_ticks(kept, a.log);
    return t.values.size() >= 4 ? t : print_ticks(a.lo, a.hi, a.log, 4, 2, 4, a.integer);
}

}  // namespace

Frame layout_frame(const Ink& ink, const QRectF& r, const QString& title, const QString& x_title, const QString& y_title,
                   Axis x, Axis y, double legend_height, double right_extra, const FrameFit& fit) {
    const QFontMetricsF fm = ink.metrics(ink.font()), tfm = ink.metrics(ink.font(1.1, true));
    const double pad = ink.mm(0.8), tick = ink.mm(1.0), gap = ink.mm(0.8), ls = fm.lineSpacing(), lh = fm.height();
    Frame f;
    f.right_extra = right_extra;
    f.x_labels = fit.x_labels;
    f.title = wrap(tfm, title, r.width() - 2 * pad);
    const double th = f.title.isEmpty() ? 0 : f.title.size() * tfm.lineSpacing() + ink.mm(1.2);
    f.title_box = QRectF(r.left() + pad, r.top() + pad, r.width() - 2 * pad, th);
    double pw = r.width() * 0.75;   // a first guess, for the x title's wrap
    for (int pass = 0; pass < 2; ++pass) {
        f.x_title = fit.x_labels ? wrap(fm, x_title, pw) : QStringList();
        double top = r.top() + pad + th + 0.6 * lh;   // half a y label sticks out above the plot
        // without x labels: half a y label sticks out below too
        const double below = (fit.x_labels ? tick + gap + lh : 0.6 * lh) + (f.x_title.isEmpty() ? 0 : gap + f.x_title.size() * ls) +
                             (legend_height > 0 ? ink.mm(1.5) + legend_height : 0) + pad;
        double ph = r.bottom() - below - top;
        if (!y.categories) {
            // as many as stand apart by more than a line, 4 to 7 where the height allows
            auto closest = [&](const PrintTicks& t) {
                double c = ph;
                for (size_t i = 1; i < t.values.size(); ++i) c = std::min(c, (y.frac(t.values[i]) - y.frac(t.values[i - 1])) * ph);
                return c;
            };
            const int target = std::clamp(static_cast<int>(std::lround(ink.to_mm(ph) / 10.0)), 4, 6);
            for (int most = 7; most >= 2; --most) {
                y.ticks = print_ticks(y.lo, y.hi, y.log, std::min(target, most), std::min(4, most), most, y.integer);
                if (closest(y.ticks) >= 1.2 * lh) break;
            }
            if (y.log && y.ticks.values.size() < 4) y.ticks = thinned(y, ph, 1.2 * lh);
        }
        if (!y.ticks.factor.empty()) top += lh, ph -= lh;   // "×10⁻⁵" above the y labels
        f.y_title = wrap(fm, y_title, std::max(ph, ink.mm(5)));
        const double ytw = f.y_title.size() * ls;
        const double labels_w = widest(fm, y.ticks.labels);
        double yw = labels_w;
        if (!y.ticks.factor.empty()) yw = std::max(yw, fm.horizontalAdvance(QString::fromStdString(y.ticks.factor)) - tick);
        const double left = std::max(r.left() + pad + ytw + (ytw > 0 ? gap : 0) + yw + gap + tick, r.left() + fit.min_left);
        // the y title beside the tick labels (a common factor above them may be wider); in a stack of plots,
        // where the room for it starts, so that the stack's titles stand in line
        f.y_title_x = fit.min_left > 0 ? r.left() + pad : left - tick - gap - labels_w - gap - ytw;
        const double right = std::max(pad + right_extra, fit.min_right);
        pw = r.right() - right - left;
        if (!x.categories) {
            const int target = std::clamp(static_cast<int>(std::lround(ink.to_mm(pw) / 16.0)), 3, 6);
            for (int most = 7; most >= 2; --most) {
                x.ticks = print_ticks(x.lo, x.hi, x.log, std::min(target, most), std::min(4, most), most, x.integer);
                if (x_labels_fit(fm, x, x.ticks, pw, ink.mm(1.5))) break;
            }
        }
        // The last x label may stick out past the plot: leave it room.
        if (fit.x_labels && !x.ticks.values.empty()) {
            const double w = fm.horizontalAdvance(QString::fromStdString(x.ticks.labels.back()));
            const double over = w / 2 - (1 - x.frac(x.ticks.values.back())) * pw - (right - pad);
            if (over > 0) pw -= over;
        }
        f.plot = QRectF(left, top, pw, ph);
        f.legend_box = QRectF(r.left() + pad, r.bottom() - pad - legend_height, r.width() - 2 * pad, legend_height);
    }
    f.x = x;
    f.y = y;
    return f;
}

void draw_grid(const Ink& ink, const Frame& f) {
    QPainter& p = ink.p();
    const QRectF& a = f.plot;
    p.save();
    // light grid at the ticks, under everything
    p.setPen(pen(ink, QColor(225, 225, 225), 0.12));
    for (double v : f.y.ticks.values) {
        const double y = a.bottom() - f.y.frac(v) * a.height();
        p.drawLine(QPointF(a.left(), y), QPointF(a.right(), y));
    }
    if (!f.x.categories)
        for (double v : f.x.ticks.values) {
            const double x = a.left() + f.x.frac(v) * a.width();
            p.drawLine(QPointF(x, a.top()), QPointF(x, a.bottom()));
        }
    p.restore();
}

// The frame's box, ticks and texts: drawn after the data, over it.
void draw_axes(const Ink& ink, const Frame& f) {
    QPainter& p = ink.p();
    const QFont font = ink.font();
    const QFontMetricsF fm = ink.metrics(font), tfm = ink.metrics(ink.font(1.1, true));
    const double tick = ink.mm(1.0), gap = ink.mm(0.8), ls = fm.lineSpacing(), lh = fm.height();
    const QRectF& a = f.plot;
    p.save();
    p.setBrush(Qt::NoBrush);
    p.setPen(pen(ink, Qt::black, 0.2));
    p.drawRect(a);
    p.setFont(font);
    for (size_t i = 0; i < f.y.ticks.values.size(); ++i) {
        const double y = a.bottom() - f.y.frac(f.y.ticks.values[i]) * a.height();
        p.drawLine(QPointF(a.left() - tick, y), QPointF(a.left(), y));
        p.drawText(QRectF(a.left() - tick - gap - ink.mm(40), y - lh / 2, ink.mm(40), lh), Qt::AlignRight | Qt::AlignVCenter,
                   QString::fromStdString(f.y.ticks.labels[i]));
    }
    if (!f.y.ticks.factor.empty())
        // right-aligned at the axis: the layout reserved the labels' column for it (left-aligned 40 mm
        // out, it was drawn beside the page, where a PDF's text extraction still found it)
        p.drawText(QRectF(a.left() - tick - gap - ink.mm(40), a.top() - 1.6 * lh, ink.mm(40) + tick + gap, lh),
                   Qt::AlignRight | Qt::AlignVCenter, QString::fromStdString(f.y.ticks.factor));
    for (size_t i = 0; i < f.x.ticks.values.size(); ++i) {
        const double x = a.left() + f.x.frac(f.x.ticks.values[i]) * a.width();
        p.drawLine(QPointF(x, a.bottom()), QPointF(x, a.bottom() + (f.x_labels ? tick : tick / 2)));
        if (f.x_labels)
            p.drawText(QRectF(x - ink.mm(30), a.bottom() + tick + gap, ink.mm(60), lh), Qt::AlignHCenter | Qt::AlignTop,
                   QString::fromStdString(f.x.ticks.labels[i]));
    }
    const double xt = a.bottom() + tick + gap + lh + gap;
    if (f.x_labels && !f.x.ticks.factor.empty())
        p.drawText(QRectF(a.right() - ink.mm(30), xt, ink.mm(30) + f.right_extra, lh), Qt::AlignRight | Qt::AlignTop,
                   QString::fromStdString(f.x.ticks.factor));
    for (int i = 0; i < f.x_title.size(); ++i)
        math_text::draw(p, QRectF(a.left(), xt + i * ls, a.width(), lh), Qt::AlignHCenter | Qt::AlignTop, f.x_title[i]);
    if (!f.y_title.isEmpty()) {
        p.save();
        p.translate(f.y_title_x, a.center().y());
        p.rotate(-90);
        for (int i = 0; i < f.y_title.size(); ++i)
            math_text::draw(p, QRectF(-a.height() / 2, i * ls, a.height(), lh), Qt::AlignHCenter | Qt::AlignTop, f.y_title[i]);
        p.restore();
    }
    p.setFont(ink.font(1.1, true));
    for (int i = 0; i < f.title.size(); ++i)
        math_text::draw(p, QRectF(f.title_box.left(), f.title_box.top() + i * tfm.lineSpacing(), f.title_box.width(), tfm.height()),
                        Qt::AlignHCenter | Qt::AlignTop, f.title[i]);
    p.restore();
}

}  // namespace normlab::plot
