// NormLab widgets: drawing a report figure (core/report) with the app's own
// LineChart, offscreen, into PNG and SVG files — the same chart code, axes,
// colours and export path as the live charts.
#pragma once

#include "core/report/report.h"

#include <QString>

namespace normlab {

// Writes `stem`.png (at `dpi`) and `stem`.svg. Returns false with `error` set.
bool write_report_figure(const report::Figure& figure, const QString& stem, int dpi, QString* error);

}  // namespace normlab
