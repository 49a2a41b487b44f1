// NormLab widgets: report figures (see reportfigure.h).
#include "widgets/reportfigure.h"

#include "widgets/linechart.h"

#include <QApplication>
#include <QChart>
#include <QLegend>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace normlab {

namespace {

// report::Line::dash's patterns.
const Qt::PenStyle kDashes[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine, Qt::DashDotDotLine};

}  // namespace

bool write_report_figure(const report::Figure& figure, const QString& stem, int dpi, QString* error) {
    LineChart chart;
    chart.setAttribute(Qt::WA_DontShowOnScreen);
    chart.resize(760, 470);
    chart.setTitle(QString::fromStdString(figure.title));
    chart.setAxisTitles(QString::fromStdString(figure.x_label), QString::fromStdString(figure.y_label));
    // A log axis labels only powers of ten: under a decade and a half of range
    // it would show one label or none, so such a figure is drawn linear.
    double lo = std::numeric_limits<double>::infinity(), hi = 0;
    for (auto& l : figure.lines)
        for (double y : l.y)
            if (std::isfinite(y) && y > 0) lo = std::min(lo, y), hi = std::max(hi, y);
    chart.setLogY(figure.log_y && hi > 30 * lo);
    std::vector<Curve> curves;
    for (auto& l : figure.lines) {
        Curve c;
        c.label = QString::fromStdString(l.label);
        c.color = run_color(l.color);
        c.x = l.x;
        c.y = l.y;
        c.style = kDashes[static_cast<size_t>(std::max(0, l.dash)) % std::size(kDashes)];
        c.width = 2.0;
        c.smooth = false;
        c.markers = l.markers;
        curves.push_back(std::move(c));
    }
    std::vector<std::pair<double, QString>> hlines;
    for (auto& [v, label] : figure.hlines) hlines.emplace_back(v, QString::fromStdString(label));
    chart.setHLines(std::move(hlines));
    chart.setCurves(std::move(curves), false);
    chart.show();   // lays the view out (never on screen)
    for (int i = 0; i < 3; ++i) QApplication::processEvents();
    return chart.exportFigure(stem + ".png", "png", dpi, error) && chart.exportFigure(stem + ".svg", "svg", dpi, error);
}

}  // namespace normlab
