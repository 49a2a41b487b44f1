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

bool Designer::undo() {
    if (undo_.empty()) return false;
    redo_.push_back(current_);
    const std::string previous = undo_.back();
    undo_.pop_back();
    restoring_ = true;
    fillForm(nlohmann::json::parse(previous));
    restoring_ = false;
    current_ = previous;
    return true;
}

bool Designer::redo() {
    if (redo_.empty()) return false;
    undo_.push_back(current_);
    const std::string next = redo_.back();
    redo_.pop_back();
    restoring_ = true;
    fillForm(nlohmann::json::parse(next));
    restoring_ = false;
    current_ = next;
    return true;
}

}  // namespace normlab
