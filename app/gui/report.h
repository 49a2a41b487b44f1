// normlab report: runs experiments (reusing finished runs from the store),
// measures the findings their "report" entries name, draws every figure with
// the app's chart widgets offscreen and writes Markdown, HTML and JSON.
//
//   normlab report EXPERIMENT.json... --out DIR [--markdown FILE] [--notes FILE.md]
//                  [--store FILE] [--scale NAME] [--retrain] [--no-train]
//                  [--device cpu|cuda|auto] [--threads N] [--dpi N] [--generated-by TEXT]
//
// DIR receives report.md, index.html, report.json and figures/*.png|svg;
// --markdown writes the Markdown to FILE instead (figure links relative to it).
#pragma once

#include <QStringList>

namespace normlab {

// Needs a QApplication. Returns the process exit code (0 ok, 1 a finding could
// not be measured or a run failed, 2 bad usage or configuration, 5 store error).
int run_report(const QStringList& args);

// The experiments shipped with NormLab: experiments/ in the working directory,
// installed (app_dir/../share/normlab/experiments, `cmake --install`) or the
// source tree's beside a build's app/ (app_dir/../../experiments), the first
// that has reproduction/*.json; empty if none does. Without arguments: this
// program's directory and the current one, and for a build made outside its
// checkout, the checkout it was built from.
QString shipped_experiments_dir(const QString& app_dir, const QString& cwd);
QString shipped_experiments_dir();

}  // namespace normlab
