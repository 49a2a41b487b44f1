// NormLab widgets: chart titles with true subscripts and superscripts.
//
// A title may mark a script with braces, as TeX does: "‖x_{ℓ}‖²/d",
// "W_{q}", "σ_{max}/σ_{min}", "10^{-3}". Only the braced forms count, so a
// series' own name ("gain_mean/alpha_A", "ffn_norm") reads as it is. Each use
// renders the marks as its medium can:
//   - a figure (plot_paint.cpp) draws the script smaller, lowered or raised;
//   - the window's axis titles (Qt Charts) take them as HTML;
//   - a tooltip (the experiment form's equations) takes them as HTML too;
//   - plain text (combo boxes, labels, CSV headers, the readout) gets
//     Unicode's subscript and superscript letters where every character of the
//     script has one ("‖xₗ‖", "σₘₐₓ"), else "_q" / "_(…)".
#pragma once

#include <QString>

#include <vector>

QT_BEGIN_NAMESPACE
class QFontMetricsF;
class QPainter;
class QRectF;
QT_END_NAMESPACE

namespace normlab::math_text {

// The scripts' size against the text's.
constexpr double kScriptScale = 0.7;

// Whether `text` has a braced script ("_{" or "^{" with its closing brace).
bool has_marks(const QString& text);
// For each character of `text`, whether it belongs to a script, its marks included
// ("_{", "}"): where a wrapped line must not end.
std::vector<bool> in_script(const QString& text);
// As plain text (see above).
QString plain(const QString& text);
// As HTML: escaped, with <sub> and <sup>.
QString html(const QString& text);
// As a tooltip: `text` as it is where it has no script; else rich text, its lines kept
// (one equation a line, never wrapped) and its scripts as <sub>/<sup>.
QString tooltip(const QString& text);
// Its width in fm's font, the scripts at kScriptScale.
double advance(const QFontMetricsF& fm, const QString& text);
// Draws `text` on one line in `rect` with the painter's font, aligned by `flags`
// (Qt::AlignLeft/HCenter/Right, Qt::AlignTop/VCenter); QPainter::drawText's own
// output where it has no script.
void draw(QPainter& p, const QRectF& rect, int flags, const QString& text);

}  // namespace normlab::math_text
