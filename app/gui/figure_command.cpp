// normlab figure (see figure_command.h).
#include "app/gui/figure_command.h"

#include "app/gui/offscreen.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/run_filter.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/figure.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "widgets/sweep.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QLegend>
#include <QPainter>
#include <QDir>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLocale>
#include <QTranslator>

#include <cmath>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <regex>
#include <stdexcept>

namespace normlab {

namespace {

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The print size (title, log axes: -1 as the window shows them) and what to draw.
struct Options : PrintSize {
    QStringList runs;
    QString where;               // --where: the runs a filter text picks too (core/run_filter.h)
    bool has_where = false;
    QString view = "loss", weight, norm, probe, out, store;
    QString language = "en";   // the figure's own words: axis titles, "train", "validation", "layers 0–3"
    QStringList hide;            // --view sweep: settings left out by name
    bool all_settings = false;   // --view sweep: the settings the scheme implies as axes too
    int group = 0;    // ChartsView::setGrouping
    double smoothing = -1;   // --view loss: the smoothing along x (-1: the window's default)
    bool panel = false;   // every chart of the view, stacked
    int64_t at_step = -2;   // --view layers against depth at this step (-1: the last recorded); -2: over the steps
};

const char* kUsage =
    "usage: normlab figure RUN... --out FILE.pdf|svg|png\n"
    "                      [--view loss|gradients|gains|layers|scalars|sweep|block] [--weight fc2] [--norm l1|l2|expected_l2]\n"
    "                      [--probe NAME] [--group none|seed|seed-minmax] [--smoothing 0.6] [--log-y | --linear-y] [--log-x]\n"
    "                      [--title TEXT] [--column single|double | --width-mm W | --width-in W] [--height-mm H | --height-in H]\n"
    "                      [--font-pt 8] [--dpi 300] [--panel] [--language en|de|zh_CN] [--store FILE]\n"
    "                      [--hide SETTING,...] [--all-settings] [--at-step N|last] [--where TEXT]\n"
    "Draws one chart of the runs (ids or names; a name without its \" seed=N\" takes every seed) at a size for print:\n"
    "single column 89 mm, double column 183 mm wide (default single; the height fits the legend\n"
    "and gives the plot a height of half its width at a single column, 0.36 at a double),\n"
    "fonts at --font-pt points, no title unless --title. --probe names a series: for --view layers\n"
    "e.g. hidden/norm, attn/max_logit, cond/q, gain_mean/alpha_A; for --view scalars e.g.\n"
    "train/grad_norm, branchnorm/alpha; for --view gains (box plots per layer) e.g. gain/ffn_norm;\n"
    "for --view sweep (parallel coordinates: an axis per setting that differs, then the outcome)\n"
    "final_val (default), best_val or final_train; settings each run has as its scheme sets them\n"
    "(layout, final_norm, ...) are left out unless --all-settings, and --hide leaves out more by name\n"
    "(as the axes are named: optim.lr, n_layers).\n"
    "--at-step N draws --view layers against depth: x the layer, a line per run, each run's last value\n"
    "recorded at or before step N (last: its last one), as the Layers tab's \"x: layer\" does.\n"
    "--group seed draws runs that differ only by seed as their mean with a ± std band (seed-minmax:\n"
    "a min–max band). --smoothing (0 to 0.99, in hundredths; the window's slider, 0.6 by default) smooths the\n"
    "training loss along x: the same amount for every run whatever its length or probe interval (0.6 keeps\n"
    "1/e of a point's weight over 0.65 % of the x axis, 0.9 over 3.2 %, 0.99 over 33 %); 0 draws it raw.\n"
    "--view block draws each run's Transformer block side by side, as the window's Block tab does: where\n"
    "its normalizations, sub-layers and scales sit on the residual stream, outlined where the runs differ\n"
    "(runs drawn alike share one block).\n"
    "--panel draws every chart of the view, stacked, as the window's Export panel\n"
    "(loss with the learning rate, gradients with a heatmap per run, gains with the histogram).\n"
    "--language draws the figure's words (axis titles, legend, \"train\", \"validation\") in that\n"
    "language, as the window's Export does in it; English by default.\n"
    "--where TEXT draws the runs a filter picks too, as normlab-cli list TEXT and the window's filter box\n"
    "read it: words and comparisons such as 'ngpt val<3.2' or 'tag:paper lr>=1e-3' (quote < and >).\n"
    "PDF and SVG are vectors; --dpi sets the PNG's resolution.\n"
    "Runs that recorded none of what the view draws (nGPT's eigen learning rates beside Pre-LN) are left out\n"
    "and named after the figure is written; where that is every run, nothing is written (exit 2).\n";

// The languages a figure can be drawn in: English and each translation built in (:/i18n/normlab_CODE.qm).
QStringList figure_languages() {
    QStringList out{"en"};
    for (const QString& f : QDir(":/i18n").entryList({"normlab_*.qm"}, QDir::Files, QDir::Name))
        if (const QString code = f.mid(8, f.size() - 8 - 3); code != "en") out << code;   // en: its plurals
    return out;
}

// Installs the translation of `code` (en: its plurals) for the figure's words; "" or why it cannot be drawn so.
QString use_language(const QString& code, QTranslator& t) {
    if (code == "en") {   // the source text, but for its plurals
        if (t.load(":/i18n/normlab_en")) QCoreApplication::installTranslator(&t);
        return {};
    }
    const QLocale loc(code);
    // a writing system without a font would print boxes into the paper's figure
    const bool han = loc.script() == QLocale::SimplifiedHanScript || loc.script() == QLocale::TraditionalHanScript;
    if (han && QFontDatabase::families(loc.script() == QLocale::SimplifiedHanScript ? QFontDatabase::SimplifiedChinese
                                                                                     : QFontDatabase::TraditionalChinese)
                   .isEmpty())
        return QString("--language %1: no font with its characters is installed, so its words would print as boxes; "
                       "install one (Debian: sudo apt install fonts-wqy-microhei; scripts/setup.sh installs it) or "
                       "draw the figure in English")
            .arg(code);
    if (!t.load(":/i18n/normlab_" + code)) return QString("--language %1: its translation could not be loaded").arg(code);
    QCoreApplication::installTranslator(&t);
    return {};
}

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
        else if (a == "--language") o.language = value(i);
        else if (a == "--where") {
            o.where = value(i);
            o.has_where = true;
        }
        else if (a == "--hide") {
            for (const QString& h : value(i).split(',', Qt::SkipEmptyParts)) o.hide << h.trimmed();
        } else if (a == "--all-settings") o.all_settings = true;
        else if (a == "--group") {
            const QString g = value(i);
            if (g == "none") o.group = 0;
            else if (g == "seed") o.group = 1;
            else if (g == "seed-minmax") o.group = 2;
            else throw Usage("--group is none, seed (mean ± std) or seed-minmax (mean, min–max band), got \"" + g.toStdString() + "\"");
        } else if (a == "--panel") o.panel = true;
        else if (a == "--at-step") {
            const QString v = value(i);
            o.at_step = v == "last" ? -1 : static_cast<int64_t>(number(a, v, 0, 1e15));
            if (v != "last" && v.contains('.')) throw Usage("--at-step needs a whole step or last, got \"" + v.toStdString() + "\"");
        }
        else if (a == "--log-y") o.log_y = 1;
        else if (a == "--linear-y") o.log_y = 0;
        else if (a == "--log-x") o.log_x = 1;
        else if (a == "--linear-x") o.log_x = 0;
        else if (a == "--width-mm") o.width_mm = size(20, 500, 1), width_set = true;
        else if (a == "--width-in") o.width_mm = size(20, 500, 25.4), width_set = true;
        else if (a == "--height-mm") o.height_mm = size(15, 500, 1);
        else if (a == "--height-in") o.height_mm = size(15, 500, 25.4);
        else if (a == "--font-pt") o.font_pt = number(a, value(i), 4, 24);
        else if (a == "--dpi") o.dpi = static_cast<int>(number(a, value(i), 72, 1200));
        else if (a == "--smoothing") o.smoothing = number(a, value(i), 0, 0.99);
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
    if (o.view != "sweep" && (!o.hide.isEmpty() || o.all_settings))
        throw Usage("--hide and --all-settings choose the axes of --view sweep; drop them for --view " + o.view.toStdString());
    if (o.smoothing >= 0 && o.view != "loss")
        throw Usage("--smoothing smooths the training loss, which only --view loss draws; drop it for --view " +
                    o.view.toStdString());
    if (o.at_step != -2 && o.view != "layers")
        throw Usage("--at-step draws --view layers against depth; drop it for --view " + o.view.toStdString());
    if (o.runs.isEmpty() && !o.has_where)
        throw Usage("name at least one run (an id or a name; normlab-cli list shows them), or pick them with --where TEXT");
    if (o.out.isEmpty()) throw Usage("--out FILE.pdf, .svg or .png is required");
    const QStringList languages = figure_languages();
    if (!languages.contains(o.language))
        throw Usage("--language " + o.language.toStdString() + ": no translation of that name; one of " +
                    languages.join(", ").toStdString());
    const QString suffix = QFileInfo(o.out).suffix().toLower();
    if (suffix != "pdf" && suffix != "svg" && suffix != "png")
        throw Usage("--out " + o.out.toStdString() + ": the file name must end in .pdf, .svg or .png");
    if (!QFileInfo(QFileInfo(o.out).absolutePath()).isDir())
        throw Usage("--out " + o.out.toStdString() + ": the folder " + QFileInfo(o.out).absolutePath().toStdString() +
                    " does not exist; create it first");
    return o;
}

// RUN as people name it: an id, a unique name (id:N, name:X where a name is a
// number: Store::find_run), or the name of runs that
// differ only by seed ("Post-LN" for "Post-LN seed=1" and "Post-LN seed=2",
// as an experiment's seed sweep names them).
std::vector<int64_t> select_runs(Store& store, const std::string& key) {
    try {
        return {store.find_run(key).id};
    } catch (const StoreError&) {
        std::vector<int64_t> seeds;
        static const std::regex seed_suffix(" seed=[0-9]+");
        const std::string name = key.rfind("name:", 0) == 0 ? key.substr(5) : key;
        for (auto& r : store.runs())
            if (r.name.size() > name.size() && r.name.compare(0, name.size(), name) == 0 &&
                std::regex_match(r.name.substr(name.size()), seed_suffix))
                seeds.push_back(r.id);
        if (seeds.empty()) throw;
        return seeds;
    }
}

// The runs a figure leaves out, having recorded none of the series it draws (its chart draws what the others
// have): said, where "loss of 4 runs" written over one run's boxes read as the four drawn.
void print_left_out(const QStringList& labels) {
    if (labels.isEmpty()) return;
    QStringList shown;
    for (const QString& l : labels) shown << QString::fromStdString(printable_text(l.toStdString()));
    std::printf("  not drawn, as they recorded none of what it shows: %s\n", qPrintable(shown.join(", ")));
}

}  // namespace

bool write_print_figure(const LineChart& src, const PrintSize& size, const QString& out, QString* error) {
    PlotSpec spec = plot_spec(src);
    spec.title = size.title;
    if (size.log_y >= 0) spec.log_y = size.log_y == 1;
    if (size.log_x >= 0) spec.log_x = size.log_x == 1;
    const double h = size.height_mm > 0 ? size.height_mm : plot_height_mm(spec, size.width_mm, size.font_pt, default_aspect(size.width_mm));
    return write_print(out, {}, size.width_mm, h, size.font_pt, size.dpi, spec.title.isEmpty() ? spec.y_title : spec.title,
                       [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_plot(p, r, spec, u); }, error);
}

bool write_print_sweep(const SweepSpec& src, const PrintSize& size, const QString& out, QString* error) {
    if (src.axes.empty()) {   // a figure of a hint is no figure
        if (error) *error = "--view sweep: " + src.empty_hint;
        return false;
    }
    SweepSpec spec = src;
    spec.title = size.title;
    const double h = size.height_mm > 0 ? size.height_mm : sweep_height_mm(spec, size.width_mm, size.font_pt, default_aspect(size.width_mm));
    return write_print(out, {}, size.width_mm, h, size.font_pt, size.dpi, spec.title.isEmpty() ? spec.metric_title : spec.title,
                       [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_sweep(p, r, spec, u); }, error);
}

bool write_print_boxes(const BoxSpec& src, const PrintSize& size, const QString& out, QString* error) {
    if (src.boxes.empty()) {
        if (error) *error = "--view gains: none of these runs has recorded learned gains (probes.gains_every)";
        return false;
    }
    BoxSpec spec = src;
    spec.title = size.title;
    const double h = size.height_mm > 0 ? size.height_mm : boxes_height_mm(spec, size.width_mm, size.font_pt, 0.9 * default_aspect(size.width_mm));
    return write_print(out, {}, size.width_mm, h, size.font_pt, size.dpi, spec.title.isEmpty() ? spec.y_title : spec.title,
                       [&](QPainter& p, const QRectF& r, const PrintUnits& u) { draw_boxes(p, r, spec, u); }, error);
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
        std::fprintf(stderr, "normlab figure: %s\n%s", printable_text(e.what()).c_str(), kUsage);
        return 2;
    }
    QTranslator translator;
    if (const QString why = use_language(o.language, translator); !why.isEmpty()) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(why));
        return 2;
    }
    std::unique_ptr<Store> store;
    std::vector<int64_t> ids;
    try {
        const std::string path = o.store.isEmpty() ? Store::default_path() : o.store.toStdString();
        store = std::make_unique<Store>(path, Store::Mode::ReadOnly);
        for (const QString& r : o.runs)
            for (int64_t id : select_runs(*store, r.toStdString()))
                if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        if (o.has_where) {
            std::string why;
            const std::vector<int64_t> picked = runs_where(*store, o.where.toStdString(), &why);
            if (picked.empty()) {
                std::fprintf(stderr, "normlab figure: --where %s picks none of the runs in %s (normlab-cli list '%s' shows what it "
                                     "picks). Nothing was written.\n%s",
                             qPrintable(o.where), store->path().c_str(), qPrintable(o.where), why.c_str());
                return 2;
            }
            for (int64_t id : picked)
                if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab figure: %s\n", printable_text(e.what()).c_str());
        return store ? 2 : 5;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab figure: %s\n", printable_text(e.what()).c_str());
        return 5;
    }

    ChartsView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(1100, 750);
    view.readOnlyWhatIsDrawn(o.view, o.probe);
    view.setRuns(ids, *store);
    view.setGrouping(o.group);
    if (o.smoothing >= 0) view.setSmoothing(o.smoothing);
    view.show();
    QApplication::processEvents();
    QString err;
    if (!view.showView(o.view, o.weight, o.norm, o.probe, &err)) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
        return 2;
    }
    if (o.at_step != -2 && !view.showLayersAt(o.at_step, &err)) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
        return 2;
    }
    if (!view.nothingDrawn().isEmpty()) {   // else a plot of nothing but its axes
        // Why, in this message's English: the view drew in the figure's --language, so it redraws without it
        // (nothing more is drawn: the figure is refused).
        QCoreApplication::removeTranslator(&translator);
        QApplication::processEvents();
        const QString none = view.nothingDrawn();
        QString asked = "--view " + o.view;
        for (auto [option, value] : {std::pair{"--weight", o.weight}, {"--norm", o.norm}, {"--probe", o.probe}})
            if (!value.isEmpty()) asked += QString(" %1 %2").arg(option, value);
        // the hint's second line says why: "It exists only in nGPT runs.", "It is recorded every … steps"
        std::fprintf(stderr, "normlab figure: %s: %s recorded what it draws. %s Nothing was written.\n", qPrintable(asked),
                     ids.size() == 1 ? "the run has not" : qPrintable(QString("none of the %1 runs has").arg(ids.size())),
                     qPrintable(none.section('\n', 1)));
        return 2;
    }
    if (o.view == "sweep") {
        view.setSweepOptions({!o.all_settings, o.hide});
        const SweepSpec& s = view.sweepSpec();
        QStringList unknown;
        for (const QString& h : o.hide)
            if (!s.hidden.contains(h)) unknown << h;
        if (!unknown.isEmpty() && (!s.axes.empty() || !s.hidden.isEmpty())) {   // a typo would silently draw the axis it meant to hide
            QStringList differ = s.implied + s.hidden;
            for (size_t k = 0; k + 1 < s.axes.size(); ++k) differ << s.axes[k].name;
            differ.sort();
            std::fprintf(stderr, "normlab figure: --hide %s: not a setting that differs among these runs; they differ in %s\n",
                         qPrintable(unknown.join(",")), differ.isEmpty() ? "nothing" : qPrintable(differ.join(", ")));
            return 2;
        }
    }
    const PrintSize& size = o;
    if (o.panel || o.view == "block") {   // the blocks: one drawing, as the window's Block tab exports it
        if (o.log_y >= 0) view.setLogY(o.log_y == 1);
        if (!view.exportFigure(o.out, {}, o.dpi, true, o.width_mm, o.height_mm, o.font_pt, &err)) {
            std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
            return 1;
        }
        std::printf("%s: the %s panel of %d run%s, %.0f mm wide, %g pt", qPrintable(o.out), qPrintable(o.view),
                    static_cast<int>(ids.size()), ids.size() == 1 ? "" : "s", o.width_mm, o.font_pt);
        // the blocks' text a little smaller where that saved a row, or scaled with a block wider than the page
        if (const double pt = view.figureTextPt(o.width_mm, o.font_pt); pt < o.font_pt - 1e-6)
            std::printf(" (the blocks' text at %.3g pt to fit the width)", pt);
        std::printf("\n");
        print_left_out(view.runsLacking());
        return 0;
    }
    if (o.view == "sweep" && view.sweepSpec().axes.empty()) {   // runs that do not make a sweep: bad input, nothing written
        std::fprintf(stderr, "normlab figure: --view sweep: %s\n", qPrintable(view.sweepSpec().empty_hint));
        return 2;
    }
    auto* src = qobject_cast<LineChart*>(view.currentChart());   // else --view gains: box plots per layer
    const bool written = src ? write_print_figure(*src, size, o.out, &err)
                         : o.view == "sweep" ? write_print_sweep(view.sweepSpec(), size, o.out, &err)
                                             : write_print_boxes(view.boxSpec(), size, o.out, &err);
    if (!written) {
        std::fprintf(stderr, "normlab figure: %s\n", qPrintable(err));
        return 1;
    }
    std::printf("%s: %s of %d run%s, %.0f mm wide, %g pt\n", qPrintable(o.out), qPrintable(o.view),
                static_cast<int>(ids.size()), ids.size() == 1 ? "" : "s", o.width_mm, o.font_pt);
    print_left_out(view.runsLacking());
    return 0;
}

}  // namespace normlab
