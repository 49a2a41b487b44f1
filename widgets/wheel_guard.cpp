// NormLab widgets: take_wheel_only_when_focused (see wheel_guard.h).
#include "widgets/wheel_guard.h"

#include <QAbstractScrollArea>
#include <QCoreApplication>
#include <QEvent>
#include <QWidget>

namespace normlab {
namespace {

class WheelGuard : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (event->type() != QEvent::Wheel) return false;
        auto* w = qobject_cast<QWidget*>(watched);
        if (!w || w->hasFocus()) return false;
        // Not focused: the wheel is the form's, to scroll it.
        for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
            if (auto* area = qobject_cast<QAbstractScrollArea*>(p)) {
                QCoreApplication::sendEvent(area->viewport(), event);
                break;
            }
        return true;
    }
};

}  // namespace

void take_wheel_only_when_focused(QWidget* field) {
    static WheelGuard* guard = new WheelGuard(QCoreApplication::instance());
    field->setFocusPolicy(Qt::StrongFocus);
    field->installEventFilter(guard);
}

}  // namespace normlab
