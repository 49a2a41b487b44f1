// normlab figure: a chart of stored runs, drawn by the window's own chart
// code offscreen, at a physical size and font size for a paper, into PDF, SVG
// or PNG — for scripts, and for the tests of what the exports look like.
//
//   normlab figure RUN... --out FILE.pdf|svg|png
//                  [--view loss|gradients|layers|scalars] [--weight fc2] [--norm l1|l2|expected_l2]
//                  [--probe NAME] [--group none|seed|seed-minmax] [--log-y | --linear-y] [--title TEXT]
//                  [--column single|double | --width-mm W | --width-in W] [--height-mm H | --height-in H]
//                  [--font-pt 8] [--dpi 300] [--store FILE]
//
// single column: 89 mm wide, double: 183 mm; the height defaults to 0.62 ×
// the width. Every option is checked and every run found before the file is
// written.
#pragma once

#include <QStringList>

namespace normlab {

// Needs a QApplication. Returns the process exit code (0 ok, 1 the file could
// not be written, 2 bad usage or an unknown run, 5 store error).
int run_figure(const QStringList& args);

}  // namespace normlab
