// NormLab widgets: chart titles with true subscripts and superscripts (see math_text.h).
#include "widgets/math_text.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QRectF>

#include <algorithm>

namespace normlab::math_text {

namespace {

enum class Script { None, Sub, Super };

struct Run {
    QString text;
    Script script = Script::None;
};

// Where the script that starts at i ("_{" or "^{") closes, or -1.
int closing(const QString& text, int i) {
    if (i + 1 >= text.size() || (text[i] != '_' && text[i] != '^') || text[i + 1] != '{') return -1;
    for (int j = i + 2; j < text.size(); ++j) {
        if (text[j] == '{') return -1;   // no nesting: the braces are then the text's own
        if (text[j] == '}') return j;
    }
    return -1;
}

// to[k] where c is from[k], else a null QChar.
QChar lookup(QChar c, const char* from, const char16_t* to) {
    for (int k = 0; from[k]; ++k)
        if (c == QChar(from[k])) return QChar(to[k]);
    return {};
}

// Unicode's subscript or superscript form of c, or a null QChar where it has none.
QChar scripted(QChar c, Script s) {
    const bool sub = s == Script::Sub;
    if (c >= '0' && c <= '9') return QChar((sub ? u"₀₁₂₃₄₅₆₇₈₉" : u"⁰¹²³⁴⁵⁶⁷⁸⁹")[c.unicode() - '0']);
    if (c == '-' || c == QChar(0x2212)) return QChar(sub ? 0x208B : 0x207B);
    if (sub && c == QChar(0x2113)) return QChar(0x2097);   // ℓ, the layer's index: Unicode's subscript l
    return sub ? lookup(c, "+=()aeoxhklmnpstiruvj", u"₊₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ") : lookup(c, "+=()ni", u"⁺⁼⁽⁾ⁿⁱ");
}

// `text` cut into runs of plain text and scripts (one run, unscripted, where it has none).
std::vector<Run> runs(const QString& text) {
    std::vector<Run> out;
    QString cur;
    for (int i = 0; i < text.size(); ++i) {
        const int end = closing(text, i);
        if (end < 0) {
            cur += text[i];
            continue;
        }
        if (!cur.isEmpty()) out.push_back({cur, Script::None}), cur.clear();
        out.push_back({text.mid(i + 2, end - i - 2), text[i] == '_' ? Script::Sub : Script::Super});
        i = end;
    }
    if (!cur.isEmpty() || out.empty()) out.push_back({cur, Script::None});
    return out;
}

}  // namespace

bool has_marks(const QString& text) {
    for (int i = 0; i + 1 < text.size(); ++i)
        if (closing(text, i) > 0) return true;
    return false;
}

std::vector<bool> in_script(const QString& text) {
    std::vector<bool> in(static_cast<size_t>(text.size()), false);
    for (int i = 0; i < text.size(); ++i)
        if (const int end = closing(text, i); end > 0) {
            std::fill(in.begin() + i, in.begin() + end + 1, true);
            i = end;
        }
    return in;
}

QString plain(const QString& text) {
    if (!has_marks(text)) return text;
    QString out;
    for (const Run& r : runs(text)) {
        if (r.script == Script::None) {
            out += r.text;
            continue;
        }
        QString uni;
        for (QChar c : r.text) {
            const QChar s = scripted(c, r.script);
            if (s.isNull()) {
                uni.clear();
                break;
            }
            uni += s;
        }
        if (!uni.isEmpty() || r.text.isEmpty()) out += uni;
        else out += QString(r.script == Script::Sub ? "_" : "^") + (r.text.size() == 1 ? r.text : "(" + r.text + ")");
    }
    return out;
}

QString html(const QString& text) {
    QString out;
    for (const Run& r : runs(text)) {
        const QString t = r.text.toHtmlEscaped();
        out += r.script == Script::Sub ? "<sub>" + t + "</sub>" : r.script == Script::Super ? "<sup>" + t + "</sup>" : t;
    }
    return out;
}

QString tooltip(const QString& text) {
    if (!has_marks(text)) return text;
    return "<p style='white-space:pre'>" + html(text).replace('\n', "<br>") + "</p>";
}

double advance(const QFontMetricsF& fm, const QString& text) {
    if (!has_marks(text)) return fm.horizontalAdvance(text);
    double w = 0;
    for (const Run& r : runs(text)) w += fm.horizontalAdvance(r.text) * (r.script == Script::None ? 1.0 : kScriptScale);
    return w;
}

void draw(QPainter& p, const QRectF& rect, int flags, const QString& text) {
    if (!has_marks(text)) {
        p.drawText(rect, flags, text);
        return;
    }
    const QFont base = p.font();
    QFont small = base;
    if (base.pointSizeF() > 0) small.setPointSizeF(base.pointSizeF() * kScriptScale);
    else small.setPixelSize(std::max(1, static_cast<int>(base.pixelSize() * kScriptScale + 0.5)));
    const QFontMetricsF fm(base, p.device()), sm(small, p.device());
    const std::vector<Run> parts = runs(text);
    double width = 0;
    for (const Run& r : parts) width += (r.script == Script::None ? fm : sm).horizontalAdvance(r.text);
    double x = flags & Qt::AlignRight ? rect.right() - width
               : flags & Qt::AlignHCenter ? rect.center().x() - width / 2
                                          : rect.left();
    const double baseline = flags & Qt::AlignBottom    ? rect.bottom() - fm.descent()
                            : flags & Qt::AlignVCenter ? rect.center().y() - fm.height() / 2 + fm.ascent()
                                                       : rect.top() + fm.ascent();
    for (const Run& r : parts) {
        const bool script = r.script != Script::None;
        p.setFont(script ? small : base);
        const double shift = r.script == Script::Sub ? 0.22 * fm.ascent() : r.script == Script::Super ? -0.38 * fm.ascent() : 0;
        p.drawText(QPointF(x, baseline + shift), r.text);
        x += (script ? sm : fm).horizontalAdvance(r.text);
    }
    p.setFont(base);
}

}  // namespace normlab::math_text
