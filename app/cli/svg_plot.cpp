// normlab-cli: SVG line charts (see svg_plot.h).
#include "app/cli/svg_plot.h"

#include "core/axis_ticks.h"
#include "core/palette.h"

#include "core/series.h"
#include "core/store/output_guard.h"

#include <algorithm>
#include <cmath>
#include <fstream>
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
    const double L = 72, R = 16 + (c.series.size() > 1 ? 150 : 0), T = 36, B = 52;
    const double pw = c.width - L - R, ph = c.height - T - B;
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
    if (y1 == y0) y0 -= 0.5, y1 += 0.5;
    const double pad = 0.04 * (y1 - y0);
    y0 -= pad;
    y1 += pad;
    auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * pw; };
    auto py = [&](double y) { return T + ph - (fy(y) - y0) / (y1 - y0) * ph; };

    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << c.width << "\" height=\"" << c.height
      << "\" viewBox=\"0 0 " << c.width << ' ' << c.height << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << c.width / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"15\" font-weight=\"bold\">"
      << esc(c.title) << "</text>\n";
    // grid and ticks
    o << "<g font-size=\"11\" fill=\"#333\">\n";
    const std::vector<double> xt = nice_ticks(x0, x1, 6, c.integer_x);
    const std::vector<std::string> xl = tick_labels(xt);
    for (size_t i = 0; i < xt.size(); ++i) {
        const double t = xt[i];
        o << "<line x1=\"" << px(t) << "\" y1=\"" << T << "\" x2=\"" << px(t) << "\" y2=\"" << T + ph
          << "\" stroke=\"#e6e6e6\"/>\n<text x=\"" << px(t) << "\" y=\"" << T + ph + 16 << "\" text-anchor=\"middle\">"
          << esc(xl[i]) << "</text>\n";
    }
    // Log axes get labels at any range (axis_ticks.h), not only at powers of ten.
    const std::vector<double> yt = c.log_y ? log_ticks(std::pow(10.0, y0), std::pow(10.0, y1), 6) : nice_ticks(y0, y1, 6);
    const std::vector<std::string> yl = tick_labels(yt);
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
      << esc(c.xlabel) << "</text>\n"
      << "<text transform=\"translate(16," << T + ph / 2 << ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\">"
      << esc(c.ylabel) << (c.log_y ? " (log)" : "") << "</text>\n";
    o << "<clipPath id=\"plot\"><rect x=\"" << L << "\" y=\"" << T << "\" width=\"" << pw << "\" height=\"" << ph
      << "\"/></clipPath>\n<g clip-path=\"url(#plot)\">\n";
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
    if (c.series.size() > 1) {
        double ly = T + 8;
        o << "<g font-size=\"11\">\n";
        for (size_t si = 0; si < c.series.size(); ++si) {
            const Series& s = c.series[si];
            if (s.label.empty()) continue;
            const std::string color = s.color.empty() ? palette_color(static_cast<int64_t>(si)) : s.color;
            o << "<line x1=\"" << L + pw + 12 << "\" y1=\"" << ly << "\" x2=\"" << L + pw + 34 << "\" y2=\"" << ly
              << "\" stroke=\"" << color << "\" stroke-width=\"2.5\"" << (s.dashed ? " stroke-dasharray=\"6,4\"" : "")
              << "/>\n<text x=\"" << L + pw + 40 << "\" y=\"" << ly + 4 << "\">" << esc(s.label) << "</text>\n";
            ly += 17;
        }
        o << "</g>\n";
    }
    o << "</svg>\n";
    check_output_path(path, "--out");
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path + "; check that the folder exists and is writable");
    f << o.str();
}

}  // namespace normlab::plot
