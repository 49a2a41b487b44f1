// normlab-cli: SVG line charts (see svg_plot.h).
#include "app/cli/svg_plot.h"

#include "app/cli/cli.h"
#include "core/axis_ticks.h"
#include "core/palette.h"
#include "core/print_ticks.h"
#include "core/series.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace normlab::plot {
namespace {

std::string esc(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '<') o += "&lt;";
        else if (c == '>') o += "&gt;";
        else if (c == '&') o += "&amp;";
        else if (c == '"') o += "&quot;";
        else o += c;
    }
    return o;
}

// An axis title (13 px) as the window writes it: "_{ℓ}" a subscript (‖x_{ℓ}‖),
// the rest escaped. Offsets (dy) and sizes in pixels, not baseline-shift and
// percentages, which SVG Tiny renderers (Qt's) do not know.
std::string axis_title(const std::string& s) {
    std::string o;
    size_t at = 0;
    bool down = false;
    for (size_t open; (open = s.find("_{", at)) != std::string::npos;) {
        const size_t close = s.find('}', open + 2);
        if (close == std::string::npos) break;
        if (open > at) o += down ? "<tspan dy=\"-4\">" + esc(s.substr(at, open - at)) + "</tspan>" : esc(s.substr(at, open - at));
        o += std::string("<tspan dy=\"") + (down && open == at ? "0" : "4") + "\" font-size=\"10\">" +
             esc(s.substr(open + 2, close - open - 2)) + "</tspan>";
        down = true;
        at = close + 1;
    }
    if (at < s.size()) o += down ? "<tspan dy=\"-4\">" + esc(s.substr(at)) + "</tspan>" : esc(s.substr(at));
    return o;
}

// A conservative width of `s` in DejaVu Sans at `size` px (no font metrics
// without Qt): wide letters 0.72 em, others 0.6, spaces 0.32 — never less
// than the text takes, so that a legend laid out by it is never cut.
double text_width(const std::string& s, double size) {
    double w = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if ((c & 0xC0) == 0x80) continue;   // a UTF-8 continuation byte: counted with its lead
        w += c == ' ' ? 0.32 : (std::isupper(c) || c == 'm' || c == 'w' || c >= 0x80) ? 0.72 : 0.6;
    }
    return w * size;
}

// `s` in lines no wider than `width` px (at spaces; a longer word alone on its line). The
// width is a column's, summed from text_width and less the swatch: rounding can leave it a
// hair under the text it was measured from (34 + w - 34 != w), so a hair is allowed: the
// default experiment's first legend entry wrapped its last word onto a second line.
std::vector<std::string> wrap_words(const std::string& s, double width, double size) {
    width += 1e-6 * (1 + std::abs(width));
    std::vector<std::string> lines;
    std::string line, word;
    std::istringstream in(s);
    while (in >> word) {
        const std::string next = line.empty() ? word : line + " " + word;
        if (!line.empty() && text_width(next, size) > width) {
            lines.push_back(line);
            line = word;
        } else {
            line = next;
        }
    }
    if (!line.empty() || lines.empty()) lines.push_back(line);
    return lines;
}

std::string num(double v) {
    std::ostringstream s;
    s.precision(4);
    s << v;
    return s.str();
}

}  // namespace

std::string sequential(double t) {
    static const int v[][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    t = std::clamp(t, 0.0, 1.0) * 4;
    const int i = std::min(3, static_cast<int>(t));
    const double f = t - i;
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(v[i][0] + f * (v[i + 1][0] - v[i][0])),
                  static_cast<int>(v[i][1] + f * (v[i + 1][1] - v[i][1])),
                  static_cast<int>(v[i][2] + f * (v[i + 1][2] - v[i][2])));
    return buf;
}

void write_svg(const Chart& c, const std::string& path) {
    const double L = 72, R = 16, T = 36, B = 52;
    const double pw = c.width - L - R, ph = c.height - T - B;
    // The legend under the x title, in as many columns as fit the width, each
    // entry whole (wrapped, never cut at the edge); the figure grows to hold it.
    struct Entry {
        std::vector<std::string> lines;
        std::string color;
        bool dashed;
        double x, y;
    };
    std::vector<Entry> legend;
    double legend_h = 0;
    if (c.series.size() > 1) {
        const double fs = 11, swatch = 34, gap = 16, room = c.width - 24.0, line_h = 15;
        std::vector<size_t> shown;
        for (size_t si = 0; si < c.series.size(); ++si)
            if (!c.series[si].label.empty()) shown.push_back(si);
        size_t cols = std::max<size_t>(1, shown.size());
        std::vector<double> colw;
        for (; cols >= 1; --cols) {
            colw.assign(cols, 0.0);
            for (size_t k = 0; k < shown.size(); ++k)
                colw[k % cols] = std::max(colw[k % cols], swatch + text_width(c.series[shown[k]].label, fs));
            double total = gap * static_cast<double>(cols - 1);
            for (double w : colw) total += w;
            if (total <= room || cols == 1) break;
        }
        double y = c.height + 6.0, row_h = 0;
        for (size_t k = 0; k < shown.size(); ++k) {
            const Series& s = c.series[shown[k]];
            const size_t col = k % cols;
            if (col == 0 && k > 0) y += row_h, row_h = 0;
            double x = 12;
            for (size_t j = 0; j < col; ++j) x += colw[j] + gap;
            Entry e{wrap_words(s.label, std::min(colw[col], room) - swatch, fs),
                    s.color.empty() ? palette_color(static_cast<int64_t>(shown[k])) : s.color, s.dashed, x, y};
            row_h = std::max(row_h, line_h * static_cast<double>(e.lines.size()));
            legend.push_back(std::move(e));
        }
        legend_h = legend.empty() ? 0 : y + row_h - c.height + 8;
    }
    const double height = c.height + legend_h;
    auto fy = [&](double y) { return c.log_y ? std::log10(y) : y; };
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (auto& s : c.series)
        for (size_t i = 0; i < s.x.size(); ++i) {
            if (!std::isfinite(s.y[i]) || (c.log_y && s.y[i] <= 0)) continue;
            x0 = std::min(x0, s.x[i]);
            x1 = std::max(x1, s.x[i]);
            y0 = std::min(y0, fy(s.y[i]));
            y1 = std::max(y1, fy(s.y[i]));
        }
    for (auto& [y, label] : c.hlines)
        if (std::isfinite(y) && (!c.log_y || y > 0)) y0 = std::min(y0, fy(y)), y1 = std::max(y1, fy(y));
    if (!std::isfinite(x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    if (x1 == x0) x1 = x0 + 1;
    if (c.log_y && y1 == y0) y0 -= 0.5, y1 += 0.5;   // half a decade either side
    else if (!c.log_y) std::tie(y0, y1) = unflat(y0, y1);
    const double pad = 0.04 * (y1 - y0);
    y0 -= pad;
    y1 += pad;
    auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * pw; };
    auto py = [&](double y) { return T + ph - (fy(y) - y0) / (y1 - y0) * ph; };

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << c.width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << c.width << ' ' << height << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << c.width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
      << esc(c.title) << "</text>\n";
    // grid and ticks
    o << "<g font-size=\"11\" fill=\"#333\">\n";
    // 4 to 7 ticks an axis, in one notation (core/print_ticks.h)
    const PrintTicks xticks = print_ticks(x0, x1, false, 6, 4, 7, c.integer_x);
    const std::vector<double>& xt = xticks.values;
    const std::vector<std::string>& xl = xticks.labels;
    for (size_t i = 0; i < xt.size(); ++i) {
        const double t = xt[i];
        o << "<line x1=\"" << px(t) << "\" y1=\"" << T << "\" x2=\"" << px(t) << "\" y2=\"" << T + ph
          << "\" stroke=\"#e6e6e6\"/>\n<text x=\"" << px(t) << "\" y=\"" << T + ph + 16 << "\" text-anchor=\"middle\">"
          << esc(xl[i]) << "</text>\n";
    }
    // Log axes get labels at any range, not only at powers of ten.
    const PrintTicks yticks = c.log_y ? print_ticks(std::pow(10.0, y0), std::pow(10.0, y1), true, 6) : print_ticks(y0, y1, false, 6);
    const std::vector<double>& yt = yticks.values;
    const std::vector<std::string>& yl = yticks.labels;
    if (!yticks.factor.empty())
        o << "<text x=\"" << L - 6 << "\" y=\"" << T - 6 << "\" text-anchor=\"start\">" << esc(yticks.factor) << "</text>\n";
    if (!xticks.factor.empty())
        o << "<text x=\"" << L + pw << "\" y=\"" << T + ph + 32 << "\" text-anchor=\"end\">" << esc(xticks.factor) << "</text>\n";
    for (size_t i = 0; i < yt.size(); ++i) {
        const double y = py(yt[i]);
        if (y < T - 1 || y > T + ph + 1) continue;
        o << "<line x1=\"" << L << "\" y1=\"" << y << "\" x2=\"" << L + pw << "\" y2=\"" << y
          << "\" stroke=\"#e6e6e6\"/>\n<text x=\"" << L - 6 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << esc(yl[i])
          << "</text>\n";
    }
    o << "</g>\n<rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << pw << "\" height=\"" << ph
      << "\" fill=\"none\" stroke=\"#444\"/>\n"
      << "<text x=\"" << L + pw / 2 << "\" y=\"" << c.height - 12 << "\" text-anchor=\"middle\" font-size=\"13\">"
      << axis_title(c.xlabel) << "</text>\n"
      << "<text transform=\"translate(16," << T + ph / 2 << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">"
      << axis_title(c.ylabel) << (c.log_y ? " (log)" : "") << "</text>\n";
    // No clip path: the axes hold every finite value with 4 % to spare, and ImageMagick's own
    // SVG renderer (`convert`, `display`) drew nothing of the lines inside one.
    o << "<g>\n";
    for (auto& [y, label] : c.hlines) {
        if (!std::isfinite(y) || (c.log_y && y <= 0)) continue;
        o << "<line x1=\"" << L << "\" y1=\"" << py(y) << "\" x2=\"" << L + pw << "\" y2=\"" << py(y)
          << "\" stroke=\"#555\" stroke-dasharray=\"5,4\"/>\n<text x=\"" << L + pw - 4 << "\" y=\"" << py(y) - 4
          << "\" text-anchor=\"end\" font-size=\"11\" fill=\"#555\">" << esc(label) << "</text>\n";
    }
    for (size_t si = 0; si < c.series.size(); ++si) {
        const Series& s = c.series[si];
        const std::string color = s.color.empty() ? palette_color(static_cast<int64_t>(si)) : s.color;
        // Per pixel column: first, min, max, last (core/series.h), so spikes survive.
        std::vector<std::vector<std::pair<double, double>>> runs{
            reduce_for_pixels(s.x, s.y, x0, x1, static_cast<int>(pw), c.log_y)};
        std::vector<double> breaks;
        for (size_t i = 0; i < s.x.size(); ++i)
            if (!std::isfinite(s.y[i])) breaks.push_back(s.x[i]);
        for (auto& r : runs) {
            if (r.empty()) continue;
            o << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"" << s.width << "\" stroke-opacity=\""
              << s.opacity << "\" stroke-linejoin=\"round\"" << (s.dashed ? " stroke-dasharray=\"6,4\"" : "") << " points=\"";
            for (auto& [x, y] : r) o << num(px(x)) << ',' << num(py(y)) << ' ';
            o << "\"/>\n";
            if (s.markers)
                for (auto& [x, y] : r)
                    o << "<circle cx=\"" << px(x) << "\" cy=\"" << py(y) << "\" r=\"3\" fill=\"" << color << "\"/>\n";
        }
        for (double bx : breaks)   // a non-finite value: a cross on the top edge, never a silent gap
            o << "<text x=\"" << px(bx) << "\" y=\"" << T + 12 << "\" text-anchor=\"middle\" font-size=\"13\" fill=\""
              << color << "\">✕</text>\n";
    }
    o << "</g>\n";
    o << "<g font-size=\"11\">\n";
    for (const Entry& e : legend) {
        o << "<line x1=\"" << e.x << "\" y1=\"" << e.y + 8 << "\" x2=\"" << e.x + 26 << "\" y2=\"" << e.y + 8 << "\" stroke=\""
          << e.color << "\" stroke-width=\"2.5\"" << (e.dashed ? " stroke-dasharray=\"6,4\"" : "") << "/>\n";
        for (size_t k = 0; k < e.lines.size(); ++k)
            o << "<text x=\"" << e.x + 34 << "\" y=\"" << e.y + 12 + 15.0 * static_cast<double>(k) << "\">" << esc(e.lines[k]) << "</text>\n";
    }
    o << "</g>\n";
    o << "</svg>\n";
    cli::write_output_file(path, o.str());   // whole or not at all: a failed write leaves the SVG that was there
}

}  // namespace normlab::plot
