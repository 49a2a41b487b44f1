// NormLab widgets: fields that take the mouse wheel only when focused.
//
// A form in a scroll area full of drop-downs and spin boxes: scrolling the
// form with the wheel must not change the field that passes under the
// pointer (it changed BranchNorm's schedule while a user scrolled, and Save
// wrote it). A guarded field takes the wheel only once it has focus (a
// click or Tab gives it); otherwise the wheel scrolls the form around it.
#pragma once

class QWidget;

namespace normlab {

// Sets `field` to take focus by click or Tab only, and its wheel events,
// while it lacks focus, to go to the scroll area around it.
void take_wheel_only_when_focused(QWidget* field);

}  // namespace normlab
