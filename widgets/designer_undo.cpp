// NormLab widgets: the designer's undo and redo (see designer.h). A step is
// the whole form as JSON text, recorded after every change the form validates;
// undo and redo fill the form from it.
#include "widgets/designer.h"

namespace normlab {

void Designer::recordUndo() {
    const std::string now = formJson().dump();
    if (current_.empty() || restoring_) {
        current_ = now;
        return;
    }
    if (now == current_) return;
    undo_.push_back(current_);
    if (undo_.size() > 200) undo_.erase(undo_.begin());
    redo_.clear();
    current_ = now;
}

// Moves one state from `from` to the form, the form's state onto `to`.
bool Designer::stepUndo(std::vector<std::string>& from, std::vector<std::string>& to) {
    if (from.empty()) return false;
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
