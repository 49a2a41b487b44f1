// NormLab widgets: one-line text that fits the room it has. ElidedLabel elides
// its text (the whole in its tooltip when cut), so a long note never makes a
// tab taller or wider than a laptop's window; elide_dotted shortens a dotted
// setting's name keeping its last part, which tells it from its neighbours.
#pragma once

#include <QFontMetrics>
#include <QLabel>
#include <QResizeEvent>
#include <QStringList>

#include <functional>

namespace normlab {

// "normformer.post_attn_norm" in `width` px: whole where it fits, else its leading parts cut from the left
// to `shorten`'s short form of each (by default their first letter: "n.post_attn_norm", "o.s.min_lr_ratio"),
// else that elided in the middle. Eliding the whole in the middle made "normformer.ffn_norm" and
// "normformer.post_attn_norm" both "normf…_norm".
inline QString elide_dotted(const QFontMetrics& fm, const QString& key, int width,
                            const std::function<QString(const QString&)>& shorten = {}) {
    if (fm.horizontalAdvance(key) <= width) return key;
    QStringList parts = key.split('.');
    for (int i = 0; i + 1 < parts.size(); ++i) {
        parts[i] = shorten ? shorten(parts[i]) : parts[i].left(1);
        const QString s = parts.join('.');
        if (fm.horizontalAdvance(s) <= width) return s;
    }
    return fm.elidedText(parts.join('.'), Qt::ElideMiddle, width);
}

class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(QWidget* parent = nullptr) : QLabel(parent) {
        setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
        setWordWrap(false);
    }
    void setFullText(const QString& text) {
        full_ = text;
        elide();
    }
    const QString& fullText() const { return full_; }
    QSize minimumSizeHint() const override { return {0, fontMetrics().height()}; }
    QSize sizeHint() const override { return {fontMetrics().horizontalAdvance(full_), fontMetrics().height()}; }

protected:
    void resizeEvent(QResizeEvent* e) override {
        QLabel::resizeEvent(e);
        elide();
    }

private:
    void elide() {
        const QString shown = fontMetrics().elidedText(full_, Qt::ElideRight, width());
        setText(shown);
        setToolTip(shown == full_ ? QString() : full_);
    }
    QString full_;
};

}  // namespace normlab
