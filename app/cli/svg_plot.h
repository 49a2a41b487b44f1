// normlab-cli: a small SVG line-chart writer for headless figures.
//
// Goals: readable figures from a GPU server without Qt (axes with ticks and
// labels, log-y, legend, title, a dashed reference line); series of any
// length drawn through a per-pixel-column first/min/max/last reduction, so no
// spike is hidden and files stay small; non-finite points are marked on the
// top edge. Non-goals: interactivity (that is the desktop app's job).
#pragma once

#include <string>
#include <vector>

namespace normlab::plot {

struct Series {
    std::string label;
    std::vector<double> x, y;
    std::string color;         // "#rrggbb"; empty: picked from the palette
    double width = 1.6;
    double opacity = 1.0;
    bool dashed = false;
    bool markers = false;      // a dot per point (short series)
};

struct Chart {
    std::string title, xlabel, ylabel;
    bool log_y = false;
    bool integer_x = false;    // ticks on whole numbers only (layers, steps), counts from 10,000 in k/M/B
    std::vector<Series> series;
    std::vector<std::pair<double, std::string>> hlines;   // (y, label), drawn dashed
    int width = 720, height = 440;
};

// Writes the chart as a standalone SVG file; throws std::runtime_error on I/O failure.
void write_svg(const Chart& chart, const std::string& path);

// A sequential palette for layers (viridis samples); categorical colours: core/palette.h.
std::string sequential(double t);   // t in [0, 1]

}  // namespace normlab::plot
