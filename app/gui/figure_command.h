// normlab figure: a chart of stored runs, drawn by the window's own chart
// code offscreen, at a physical size and font size for a paper, into PDF, SVG
// or PNG — for scripts, and for the tests of what the exports look like.
//
//   normlab figure RUN... --out FILE.pdf|svg|png
//                  [--view loss|gradients|gains|layers|scalars|sweep] [--weight fc2] [--norm l1|l2|expected_l2]
//                  [--probe NAME] [--group none|seed|seed-minmax] [--log-y | --linear-y] [--log-x] [--title TEXT]
//                  [--column single|double | --width-mm W | --width-in W] [--height-mm H | --height-in H]
//                  [--font-pt 8] [--dpi 300] [--panel] [--language en|de|zh_CN] [--store FILE]
//
// single column: 89 mm wide, double: 183 mm; the height defaults to what
// the legend, ticks and titles need plus a plot area half as high as wide. Every option is checked and every run found before the file is
// written.
#pragma once

#include <QString>
#include <QStringList>

namespace normlab {

class LineChart;
struct BoxSpec;

// A figure's print size: the width and height in mm (height 0: as the figure
// needs, plot_height_mm at default_aspect), every font at font_pt points, PNG at dpi; log axes -1: as `src` has them.
struct PrintSize {
    double width_mm = 89, height_mm = 0, font_pt = 8;
    int dpi = 300;
    QString title;
    int log_x = -1, log_y = -1;
};
constexpr double kSingleColumnMm = 89, kDoubleColumnMm = 183;

// Draws `src`'s curves, axes and reference lines as a figure of that size
// (widgets/plot_figure.h: no UI text, no footer, no readout) and writes `out`
// (.pdf, .svg or .png): what `normlab figure` and the window's Export do.
bool write_print_figure(const LineChart& src, const PrintSize& size, const QString& out, QString* error);
// The gains view's box plots per layer likewise.
bool write_print_boxes(const BoxSpec& src, const PrintSize& size, const QString& out, QString* error);
// The sweep view's parallel coordinates likewise (refused where there is nothing to compare).
bool write_print_sweep(const struct SweepSpec& src, const PrintSize& size, const QString& out, QString* error);

// Needs a QApplication. Returns the process exit code (0 ok, 1 the file could
// not be written, 2 bad usage or an unknown run, 5 store error).
int run_figure(const QStringList& args);

}  // namespace normlab
