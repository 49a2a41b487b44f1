// normlab figure (see figure_command.h).
#include "app/gui/figure_command.h"

#include "app/gui/offscreen.h"

#include "core/errors.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/figure.h"
#include "widgets/linechart.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPainter>
#include <QDir>
#include <QFileInfo>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>

namespace normlab {

namespace {

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The print size (title, log axes: -1 as the window shows them) and what to draw.
struct Options : PrintSize {
    QStringList runs;
    QString view = "loss", weight, norm, probe, out, store;
    int group = 0;    // ChartsView::setGrouping
};

// The figure's size in pixels at 96 per inch: Qt's PDF and SVG writers then give the page its size in mm.
QSize print_pixels(const PrintSize& size) {
    const double h = size.height_mm > 0 ? size.height_mm : std::round(size.width_mm * 0.62);
    return {static_cast<int>(std::lround(size.width_mm / 25.4 * 96)), static_cast<int>(std::lround(h / 25.4 * 96))};
}

const char* kUsage =
    "usage: normlab figure RUN... --out FILE.pdf|svg|png\n"
    "                      [--view loss|gradients|gains|layers|scalars] [--weight fc2] [--norm l1|l2|expected_l2]\n"
    "                      [--probe NAME] [--group none|seed|seed-minmax] [--log-y | --linear-y] [--log-x] [--title TEXT]\n"
    "                      [--column single|double | --width-mm W | --width-in W] [--height-mm H | --height-in H]\n"
    "                      [--font-pt 8] [--dpi 300] [--store FILE]\n"
    "Draws one chart of the runs (ids or names) as the window draws it, at a size for print:\n"
    "single column 89 mm, double column 183 mm wide (default single; height 0.62 x width),\n"
    "fonts at --font-pt points, no title unless --title. --probe names a series: for --view layers\n"
    "e.g. hidden/norm, attn/max_logit, cond/q, gain_mean/alpha_A; for --view scalars e.g.\n"
    "train/grad_norm, branchnorm/alpha; for --view gains (box plots per layer) e.g. gain/ffn_norm.\n"
    "--group seed draws runs that differ only by seed as their mean with a ± std band (seed-minmax:\n"
    "a min–max band). PDF and SVG are vectors; --dpi sets the PNG's resolution.\n";

double number(const QString& flag, const QString& v, double lo, double hi) {
    bool ok = false;
    const double x = v.toDouble(&ok);
    if (!ok || !std::isfinite(x) || x < lo || x > hi)
        throw Usage((flag + " needs a number from %1 to %2, got \"" + v + "\"").arg(lo).arg(hi).toStdString());
    return x;
}

Options parse(const QStringList& args) {
    Options o;
    auto value = [&](int& i) {
        if (i + 1 >= args.size()) throw Usage(args[i].toStdString() + " needs a value");
        return args[++i];
    };
    bool width_set = false;
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        auto size = [&](double lo_mm, double hi_mm, double unit_mm) {
            const QString flag = a;
            return number(flag, value(i), lo_mm / unit_mm, hi_mm / unit_mm) * unit_mm;
        };
        if (a == "--out") o.out = value(i);
        else if (a == "--view") o.view = value(i);
        else if (a == "--weight") o.weight = value(i);
        else if (a == "--norm") o.norm = value(i);
        else if (a == "--probe") o.probe = value(i);
        else if (a == "--title") o.title = value(i);
        else if (a == "--store") o.store = value(i);
        else if (a == "--group") {
            const QString g = value(i);
            if (g == "none") o.group = 0;
            else if (g == "seed") o.group = 1;
            else if (g == "seed-minmax") o.group = 2;
            else throw Usage("--group is none, seed (mean ± std) or seed-minmax (mean, min–max band), got \"" + g.toStdString() + "\"");
        } else if (a == "--log-y") o.log_y = 1;
        else if (a == "--linear-y") o.log_y = 0;
        else if (a == "--log-x") o.log_x = 1;
        else if (a == "--linear-x") o.log_x = 0;
        else if (a == "--width-mm") o.width_mm = size(20, 500, 1), width_set = true;
        else if (a == "--width-in") o.width_mm = size(20, 500, 25.4), width_set = true;
        else if (a == "--height-mm") o.height_mm = size(15, 500, 1);
        else if (a == "--height-in") o.height_mm = size(15, 500, 25.4);
        else if (a == "--font-pt") o.font_pt = number(a, value(i), 4, 24);
        else if (a == "--dpi") o.dpi = static_cast<int>(number(a, value(i), 72, 1200));
        else if (a == "--column") {
            const QString c = value(i);
            if (c == "single") o.width_mm = 89;
            else if (c == "double") o.width_mm = 183;
            else throw Usage("--column is single (89 mm) or double (183 mm), got \"" + c.toStdString() + "\"");
            width_set = true;
        } else if (a == "--help" || a == "-h") throw Usage("");
        else if (a.startsWith("--")) throw Usage("unknown option " + a.toStdString() + " (normlab figure --help)");
        else o.runs << a;
    }
    Q_UNUSED(width_set);
    if (o.runs.isEmpty()) throw Usage("name at least one run (an id or a name; normlab-cli list shows them)");
    if (o.out.isEmpty()) throw Usage("--out FILE.pdf, .svg or .png is required");
    const QString suffix = QFileInfo(o.out).suffix().toLower();
    if (suffix != "pdf" && suffix != "svg" && suffix != "png")
        throw Usage("--out " + o.out.toStdString() + ": the file name must end in .pdf, .svg or .png");
    if (!QFileInfo(QFileInfo(o.out).absolutePath()).isDir())
        throw Usage("--out " + o.out.toStdString() + ": the folder " + QFileInfo(o.out).absolutePath().toStdString() +
                    " does not exist; create it first");
    if (o.height_mm <= 0) o.height_mm = std::round(o.width_mm * 0.62);
    return o;
}

}  // namespace

bool write_print_figure(const LineChart& src, const PrintSize& size, const QString& out, QString* error) {
    LineChart fig;
    fig.setAttribute(Qt::WA_DontShowOnScreen);
    fig.setSmoothing(src.smoothing());
    fig.setTitle(size.title);
    fig.setAxisTitles(src.xTitle(), src.yTitle());
    fig.setHLines(src.hlines());
    fig.setLogY(size.log_y < 0 ? src.logY() : size.log_y == 1);
    fig.setLogX(size.log_x < 0 ? src.logX() : size.log_x == 1);
    fig.setCurves(src.curves(), false);
    fig.setPrintStyle(size.font_pt);
    const QSize px = print_pixels(size);
    fig.setMinimumSize(px);
    fig.setMaximumSize(px);
    fig.resize(px);
    fig.show();
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    return fig.exportFigure(out, QFileInfo(out).suffix().toLower(), size.dpi, error);
}

// The gains' box plots (a plain QChart) at a print size: the chart moves into
// a view of that size for the export and back into the window's view after.
bool write_print_boxes(QChartView& src, const PrintSize& size, const QString& out, QString* error) {
    QChart* chart = src.chart();
    if (!chart || chart->series().isEmpty()) {
        if (error) *error = "--view gains: none of these runs has recorded learned gains (probes.gains_every)";
        return false;
    }
    auto sized = [](QFont f, double pt, bool bold = false) {
        f.setPointSizeF(pt);
        f.setBold(bold);
        return f;
    };
    const QString title = chart->title();
    chart->setTitle(size.title);
    chart->setTitleFont(sized(chart->titleFont(), size.font_pt * 1.1, true));
    chart->legend()->setFont(sized(chart->legend()->font(), size.font_pt));
    for (QAbstractAxis* a : chart->axes()) {
        a->setLabelsFont(sized(a->labelsFont(), size.font_pt));
        a->setTitleFont(sized(a->titleFont(), size.font_pt));
    }
    chart->setMargins(QMargins(1, 1, 1, 1));
    chart->setBackgroundRoundness(0);
    const QSize px = print_pixels(size);
    QChartView fig;
    fig.setAttribute(Qt::WA_DontShowOnScreen);
    fig.setRenderHint(QPainter::Antialiasing);
    fig.setChart(chart);
    fig.setFixedSize(px);
    fig.show();
    for (int i = 0; i < 5; ++i) QApplication::processEvents();
    const bool ok = write_figure(out, QFileInfo(out).suffix().toLower(), size.dpi, fig.size(), size.title,
                                 [&](QPainter& p, const QRectF& target) { fig.render(&p, target, fig.rect()); }, error);
    src.setChart(chart);
    chart->setTitle(title);
    return ok;
}

int run_figure(const QStringList& args) {
    quiet_offscreen_notes();
    Options o;
    try {
        o = parse(args);
    } catch (const Usage& e) {
        if (*e.what() == '\0') {
            std::fputs(kUsage, stdout);
            return 0;
        }
        std::fprintf(stderr, "normlab figure: %s\n%s", e.what(), kUsage);
        return 2;
    }
    std::unique_ptr<Store> store;
    std::vector<int64_t> ids;
    try {
        const std::string path = o.store.isEmpty() ? Store::default_path() : o.store.toStdString();
        store = std::make_unique<Store>(path, Store::Mode::ReadOnly);
        for (const QString& r : o.runs) ids.push_back(store->find_run(r.toStdString()).id);
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab figure: %s\n", e.what());
        return store ? 2 : 5;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab figure: %s\n", e.what());
        return 5;
    }

    ChartsView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(1100, 750);
    view.setRuns(ids, *store);
    view.setGrouping(o.group);
    view.show();
    QApplication::processEvents();
    QString err;
    if (!view.showView(o.view, o.weight, o.norm, o.probe, &err)) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
        return 2;
    }
    const PrintSize& size = o;
    auto* src = qobject_cast<LineChart*>(view.currentChart());
    auto* boxes = qobject_cast<QChartView*>(view.currentChart());   // --view gains: box plots per layer
    if (!(src ? write_print_figure(*src, size, o.out, &err) : boxes && write_print_boxes(*boxes, size, o.out, &err))) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
        return 1;
    }
    std::printf("%s: %s of %d run%s, %.0f × %.0f mm, %g pt\n", qPrintable(o.out), qPrintable(o.view),
                static_cast<int>(ids.size()), ids.size() == 1 ? "" : "s", o.width_mm, o.height_mm, o.font_pt);
    return 0;
}

}  // namespace normlab
