// NormLab widgets: LineChart's axes and print style (see linechart.h) — 1-2-5
// ticks on linear axes, labels on log axes at any range (core/axis_ticks.h),
// axis titles elided to fit, and the fonts of a figure
// for print.
#include "widgets/linechart.h"

#include "core/axis_ticks.h"
#include "core/print_ticks.h"
#include "widgets/chart_legend.h"
#include "widgets/math_text.h"
#include "widgets/plot_figure.h"

#include <QCategoryAxis>
#include <QChart>
#include <QChartView>
#include <QFontDatabase>
#include <QFontMetrics>
#include <QLabel>
#include <QLineSeries>
#include <QRawFont>
#include <QTextDocument>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace normlab {

namespace {

// Chinese, Japanese and Korean: ideographs, kana, hangul, their punctuation and full-width forms.
bool east_asian(QChar c) {
    const char16_t u = c.unicode();
    return (u >= 0x2E80 && u <= 0x9FFF) || (u >= 0xAC00 && u <= 0xD7AF) || (u >= 0xF900 && u <= 0xFAFF) ||
           (u >= 0xFF00 && u <= 0xFFEF);
}

QFont title_font_for(QFont font, const QString& text) {
    // The font Qt falls back to for Chinese (Japanese and Korean share its glyphs' height), once.
    static const QString kFallback = [] {
        // none where no font has Chinese: QRawFont then crashes in familyName() (Qt 6.4)
        if (QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty()) return QString();
        const QString f = QRawFont::fromFont(QFont(), QFontDatabase::SimplifiedChinese).familyName();
        return f == QFont().family() ? QString() : f;
    }();
    QStringList families = font.families();
    if (families.isEmpty()) families << font.family();
    families.removeAll(kFallback);
    if (!kFallback.isEmpty() && std::any_of(text.begin(), text.end(), east_asian)) families.prepend(kFallback);
    if (families.isEmpty()) return font;   // no font but the fallback: leave it
    font.setFamilies(families);
    return font;
}

// The length of the box Qt Charts lays a title out in (ChartPresenter::textBoundingRect: a text
// document with a margin of half a pixel), which it cuts the title to the plot area by.
double title_box(const QFont& font, const QString& text) {
    QTextDocument doc;
    doc.setDocumentMargin(0.5);
    doc.setDefaultFont(font);
    doc.setPlainText(text);
    return doc.size().width();
}

}  // namespace

void setAxisTitle(QAbstractAxis* axis, const QString& title) {
    axis->setTitleFont(title_font_for(axis->titleFont(), title));
    axis->setTitleText(title);
}

void LineChart::setPrintStyle(double font_pt) {
    footer_->hide();
    auto sized = [](QFont f, double pt, bool bold = false) {
        f.setPointSizeF(pt);
        f.setBold(bold);
        return f;
    };
    chart_->setTitleFont(sized(chart_->titleFont(), font_pt * 1.1, true));
    legend_->setFont(sized(legend_->font(), font_pt));
    for (QAbstractAxis* a : {x_lin_, x_log_, y_lin_, y_log_}) {
        a->setLabelsFont(sized(a->labelsFont(), font_pt));
        a->setTitleFont(sized(a->titleFont(), font_pt));
    }
    chart_->setMargins(QMargins(1, 1, 1, 1));
    chart_->setBackgroundRoundness(0);
    chart_->setDropShadowEnabled(false);
    applyAxisTitles();
}

// Axis titles that fit: elided in the middle to the plot area's width (x)
// and height (y), the full text in the chart's tooltip ("mean |∂L/∂…" kept
// neither its start nor its unit).
void LineChart::applyAxisTitles() {
    if (!x_axis_ || !y_axis_ || applying_titles_) return;
    applying_titles_ = true;   // a new title may move the plot area, which calls back here
    // measured and elided as plain text; drawn with its scripts (HTML) where it fits whole
    const QString y_marked = y_title_ + (log_y_ ? tr(" (log)") : QString());
    const QString x_marked = x_title_ + (log_x_ ? tr(" (log)") : QString());
    const QString y_full = math_text::plain(y_marked), x_full = math_text::plain(x_marked);
    const QRectF area = chart_->plotArea();
    auto fit = [](const QAbstractAxis* ax, const QString& text, double room) {
        if (room < 40) return text;   // not laid out yet
        // Qt Charts cuts a title whose text box is longer than the plot area, and its box is a little
        // longer than the text's advance: at 1280×720 the loss chart's room of 106.5 px took the 106 px
        // of "loss (nats/byte)" by the advance and showed "loss (nats/by...". Elided until its box fits.
        const QFont font = title_font_for(ax->titleFont(), text);
        const QFontMetrics fm(font);
        const double box = title_box(font, text);
        if (box <= room) return text;
        // the advance the box leaves room for, then a pixel less while the box of what that elides to is too long
        int width = static_cast<int>(std::floor(room - (box - fm.horizontalAdvance(text))));
        QString fitted = fm.elidedText(text, Qt::ElideMiddle, std::max(width, 0));
        for (int i = 0; i < 8 && width > 0 && title_box(font, fitted) > room; ++i)
            fitted = fm.elidedText(text, Qt::ElideMiddle, --width);
        return fitted;
    };
    auto shown = [](const QString& fitted, const QString& full, const QString& marked) {
        return fitted == full && math_text::has_marks(marked) ? math_text::html(marked) : fitted;
    };
    const QString xs = fit(x_axis_, x_full, area.width());
    QString ys = fit(y_axis_, y_full, area.height());
    if (ys != y_full && !y_short_.isEmpty())   // "le…te" says nothing: the short title instead
        ys = fit(y_axis_, math_text::plain(y_short_) + (log_y_ ? tr(" (log)") : QString()), area.height());
    setAxisTitle(x_axis_, shown(xs, x_full, x_marked));
    setAxisTitle(y_axis_, shown(ys, y_full, y_marked));
    QStringList tip;
    if (xs != x_full) tip << tr("x: %1").arg(x_full);
    if (ys != y_full) tip << tr("y: %1").arg(y_full);
    view_->setToolTip(tip.join("\n"));
    applying_titles_ = false;
}

// Ticks at 1, 2, 2.5 or 5 × 10^k on multiples of the step
// (core/print_ticks.h), as many as the axis has room for (3 at least), for
// its current range (also after a zoom), every label with the same decimals:
// fixed tick counts gave 0.955/0.985/1.014 and 4.45245, a low learning-rate
// chart only "0.002095" and "5e-06". Placed by hand on a category axis, as
// on the log axes: a QValueAxis labels every tick through one printf format,
// so a learning rate of 3·10⁻⁴ read "0e+00 1e-04 2e-04 3e-04"; now "0
// 1×10⁻⁴ 2×10⁻⁴ 3×10⁻⁴", zero as zero.
namespace {
// The labels as drawn: a common factor on each ("3×10⁻⁶": no room for it beside a
// category axis), never on zero. (A log axis over a decade or more has none: each tick is
// in its own power of ten, "3×10⁻³ 10⁻³ 3×10⁻⁴", label_ticks.)
QStringList tick_texts(const PrintTicks& t) {
    QStringList out;
    for (size_t i = 0; i < t.labels.size(); ++i) {
        QString l = QString::fromStdString(t.labels[i]);
        if (!t.factor.empty() && t.values[i] != 0) l += QString::fromStdString(t.factor);
        out << l;
    }
    return out;
}

// Ticks at `at` (axis units, ascending; those past `hi` left out) labelled `texts` on a
// category axis, its start just below the range's, so that a tick exactly at the
// range's start is labelled (0 on a loss axis, x = 1 on a tight log x axis). Unchanged
// ticks are left alone (a live chart sets its range many times a second); a range
// change that the axis's own update sets off is not taken up again.
void place_category_ticks(QCategoryAxis* ax, const std::vector<double>& at, const QStringList& texts, double hi) {
    if (ax->property("normlab_labelling").toBool()) return;
    const double span = std::max(1e-300, ax->max() - ax->min());
    const double start = ax->min() - 1e-9 * span;
    std::vector<int> keep;
    double last = start;
    for (int i = 0; i < texts.size(); ++i)
        if (at[i] > last && at[i] <= hi + 1e-9 * span) keep.push_back(i), last = at[i];
    bool same = std::abs(ax->startValue() - start) <= 1e-12 * span && ax->categoriesLabels().size() == static_cast<int>(keep.size());
    for (size_t k = 0; same && k < keep.size(); ++k)
        same = ax->categoriesLabels()[static_cast<int>(k)] == texts[keep[k]] && ax->endValue(texts[keep[k]]) == at[keep[k]];
    if (same) return;
    ax->setProperty("normlab_labelling", true);
    // every category goes, whatever its label (two with the same label left one behind)
    while (!ax->categoriesLabels().isEmpty()) ax->remove(ax->categoriesLabels().constFirst());
    ax->setStartValue(start);
    for (int i : keep) ax->append(texts[i], at[i]);
    ax->setProperty("normlab_labelling", false);
}
}  // namespace

void label_value_axis(QCategoryAxis* ax, double room, bool integer) {
    // a row of labels as tall as the font draws them (a taller fallback font, CJK, a larger size: fewer rows)
    const QFontMetricsF fm(ax->labelsFont());
    const double row = std::max(28.0, 1.6 * fm.height());
    const int most = room < 40 ? 6 : std::clamp(static_cast<int>(room / row) + 1, 3, 8);
    PrintTicks t = print_ticks(ax->min(), ax->max(), false, std::min(5, most), std::min(3, most), most, integer);
    if (t.values.size() < 2 && ax->max() > ax->min()) t = label_ticks({ax->min(), ax->max()}, false);
    place_category_ticks(ax, t.values, tick_texts(t), ax->max());
}

void LineChart::updateLinearTicks(QAbstractAxis* axis, bool integer) {
    if (setting_range_) return;   // fitRanges sets them once both ranges are in place
    auto* ax = static_cast<QCategoryAxis*>(axis);
    const QRectF area = chart_->plotArea();
    if (ax->orientation() == Qt::Vertical) return label_value_axis(ax, area.height(), integer);
    const double room = area.width();
    const QFontMetricsF fm(ax->labelsFont());
    int most = room < 40 ? 6 : std::clamp(static_cast<int>(room / 64.0) + 1, 3, 8);
    PrintTicks t = print_ticks(ax->min(), ax->max(), false, std::min(5, most), std::min(3, most), most, integer);
    if (t.values.size() >= 2 && room >= 40) {
        // Qt elides a label wider than its share of the axis ("2…"): as many as their widest fits, drawn in this font
        double widest = 0;
        for (const QString& l : tick_texts(t)) widest = std::max(widest, fm.horizontalAdvance(l));
        const int fit = std::max(2, static_cast<int>(room / (widest + 12.0)) + 1);
        if (fit < static_cast<int>(t.values.size())) {
            most = fit;
            t = print_ticks(ax->min(), ax->max(), false, std::min(5, most), std::min(3, most), most, integer);
        }
    }
    if (t.values.size() < 2 && ax->max() > ax->min()) t = label_ticks({ax->min(), ax->max()}, false);
    place_category_ticks(ax, t.values, tick_texts(t), ax->max());
}

// Labels of a log axis (x or y) for its current range (also after a zoom):
// as many as fit, in one notation (10⁻⁴ beside 10⁻⁵, never 0.0001 beside 1e-05).
void LineChart::updateLogLabels(QAbstractAxis* axis) {
    auto* ax = static_cast<QCategoryAxis*>(axis);
    if (!ax) return;
    const double lo = ax->min(), hi = ax->max();
    const QRectF area = chart_->plotArea();
    const bool vertical = ax->orientation() == Qt::Vertical;
    const double room = vertical ? area.height() : area.width();
    const int most = room < 40 ? 6 : std::clamp(static_cast<int>(room / (vertical ? 28.0 : 64.0)) + 1, 3, 8);
    const PrintTicks t = print_ticks(std::pow(10.0, lo), std::pow(10.0, hi), true, std::min(5, most), std::min(3, most), most);
    std::vector<double> at;
    for (double v : t.values) at.push_back(std::log10(v));
    place_category_ticks(ax, at, tick_texts(t), hi);
}

QStringList LineChart::yTickLabels() const {
    return static_cast<QCategoryAxis*>(log_y_ ? y_log_ : y_lin_)->categoriesLabels();
}

QStringList LineChart::xTickLabels() const {
    return static_cast<QCategoryAxis*>(log_x_ ? x_log_ : x_lin_)->categoriesLabels();
}

QString LineChart::axisTitleShown(Qt::Orientation o) const {
    const QAbstractAxis* ax = o == Qt::Horizontal ? x_axis_ : y_axis_;
    return ax ? ax->titleText() : QString();
}

}  // namespace normlab
