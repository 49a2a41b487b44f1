// NormLab widgets: the designer's undo and redo (see designer.h). A step is
// the whole form as JSON text, recorded after every change the form validates;
// undo and redo fill the form from it. A field typed into is one step for the
// whole edit, not one per keystroke (0.0025 → 0.002 → 0, invalid, before): its
// keystrokes join the step until the edit ends (Enter, focus leaves) or
// another field changes.
#include "widgets/designer.h"

#include <QAbstractSpinBox>
#include <QLineEdit>

namespace normlab {

void Designer::recordUndo() {
    const std::string now = formJson().dump();
    if (current_.empty() || restoring_) {
        current_ = now;
        return;
    }
    if (now == current_) return;
    QObject* field = sender();   // the field whose signal brought us here (revalidate), if any
    const bool typed = field && (qobject_cast<QLineEdit*>(field) || qobject_cast<QAbstractSpinBox*>(field));
    if (typed && field == typing_ && !undo_.empty()) {   // the same edit goes on
        redo_.clear();
        current_ = now;
        return;
    }
    undo_.push_back(current_);
    if (undo_.size() > 200) undo_.erase(undo_.begin());
    redo_.clear();
    current_ = now;
    typing_ = typed ? field : nullptr;
    if (typed && !field->property("normlabEditEnds").toBool()) {   // the edit ends with Enter or when focus leaves
        field->setProperty("normlabEditEnds", true);
        auto end = [this, field] {
            if (typing_ == field) typing_ = nullptr;
        };
        if (auto* e = qobject_cast<QLineEdit*>(field)) connect(e, &QLineEdit::editingFinished, this, end);
        if (auto* s = qobject_cast<QAbstractSpinBox*>(field)) connect(s, &QAbstractSpinBox::editingFinished, this, end);
    }
}

// Moves one state from `from` to the form, the form's state onto `to`.
bool Designer::stepUndo(std::vector<std::string>& from, std::vector<std::string>& to) {
    if (from.empty()) return false;
    typing_ = nullptr;   // an edit after an undo is a step of its own
    to.push_back(current_);
    const std::string state = from.back();
    from.pop_back();
    restoring_ = true;
    fillForm(nlohmann::json::parse(state));
    restoring_ = false;
    current_ = state;
    return true;
}

bool Designer::undo() { return stepUndo(undo_, redo_); }
bool Designer::redo() { return stepUndo(redo_, undo_); }

}  // namespace normlab
