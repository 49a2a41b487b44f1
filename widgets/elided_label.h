// NormLab widgets: a one-line label that elides its text to the room it has
// (the whole text in its tooltip when cut), so a long note never makes a tab
// taller or wider than a laptop's window.
#pragma once

#include <QFontMetrics>
#include <QLabel>
#include <QResizeEvent>

namespace normlab {

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
