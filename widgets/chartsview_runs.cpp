// NormLab widgets: ChartsView's runs (see chartsview.h): which are shown, their
// rows read as they come, whole or in slices, and the visible tab redrawn.
#include "widgets/chartsview.h"

#include "core/errors.h"
#include "widgets/runtable.h"

#include <QTabWidget>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>
#include <utility>

namespace normlab {

void ChartsView::setRuns(const std::vector<int64_t>& ids, Store& store) {
    std::vector<std::pair<Store*, int64_t>> refs;
    for (int64_t id : ids) refs.emplace_back(nullptr, id);
    setRuns(refs, store);
}

void ChartsView::setRuns(const std::vector<std::pair<Store*, int64_t>>& refs, Store& store) {
    std::vector<std::unique_ptr<RunData>> next;
    for (auto& [src, id] : refs) {
        Store* const source = src == &store ? nullptr : src;
        auto it = std::find_if(runs_.begin(), runs_.end(), [&](auto& r) { return r && r->id() == id && r->source() == source; });
        if (it != runs_.end()) next.push_back(std::move(*it));
        else {
            next.push_back(std::make_unique<RunData>(id, source));
            if (wanted_) next.back()->setWanted(wanted_, wanted_distributions_);
        }
    }
    runs_ = std::move(next);
    read_generations_ = generations(store);   // before the rows: what is written meanwhile is read next
    for (auto& r : runs_) readRun(*r, store);   // whole: a run kept mid-pass ends its pass here
    pass_run_ = 0;
    pass_changed_ = false;
    redrawAll();
}

void ChartsView::readOnlyWhatIsDrawn(const QString& view, const QString& probe) {
    auto starts = [](const std::string& n, const char* p) { return n.rfind(p, 0) == 0; };
    // the loss, the learning rate, tokens and wall time (an x axis), the final losses a sweep compares
    auto training = [starts](const std::string& n) { return starts(n, "train/") || starts(n, "val/"); };
    wanted_distributions_ = view == "gains";   // its box plots and histograms
    if (view == "block") wanted_ = [](const std::string&) { return false; };   // the runs' configurations alone
    else if (view == "loss" || view == "sweep") wanted_ = training;
    else if (view == "gradients") wanted_ = [=](const std::string& n) { return training(n) || starts(n, "grad_"); };
    else if (view == "gains") wanted_ = [=](const std::string& n) { return training(n) || starts(n, "gain/"); };
    else if (!probe.isEmpty()) wanted_ = [training, p = probe.toStdString()](const std::string& n) { return training(n) || n == p; };
    else wanted_distributions_ = true;   // layers or scalars at the probe the view chooses: all
}

bool ChartsView::refresh(Store& store) {
    bool changed = false;
    readRuns(store, std::nullopt, changed);
    return changed;
}

bool ChartsView::refreshUntil(Store& store, std::chrono::steady_clock::time_point until) {
    bool changed = false;
    return readRuns(store, until, changed);
}

// The window's store, then each other store a run shown comes from, once each.
std::vector<Store::Generation> ChartsView::generations(Store& store) const {
    std::vector<Store::Generation> out{store.generation()};
    std::vector<Store*> seen;
    for (const auto& r : runs_)
        if (Store* s = r->source(); s && std::find(seen.begin(), seen.end(), s) == seen.end()) {
            seen.push_back(s);
            out.push_back(s->generation());
        }
    return out;
}

bool ChartsView::readRuns(Store& store, std::optional<std::chrono::steady_clock::time_point> until, bool& changed) {
    if (pass_run_ == 0 && (runs_.empty() || runs_.front()->passDone())) {   // a pass would begin
        pass_generations_ = generations(store);
        if (pass_generations_ == read_generations_) return true;   // no store written since the last: nothing to read
    }
    // each store's runs' statuses, read once for all its runs shown (2,000 finished runs shown: one query, not 2,000)
    std::map<Store*, std::optional<std::unordered_map<int64_t, RunStatus>>> statuses;
    auto status_of = [&](Store& s, int64_t id) -> std::optional<RunStatus> {
        auto& known = statuses[&s];
        if (!known) {
            known.emplace();
            for (const auto& [run, status] : s.statuses()) known->emplace(run, status);
        }
        const auto it = known->find(id);
        return it == known->end() ? std::nullopt : std::optional<RunStatus>(it->second);
    };
    for (; pass_run_ < runs_.size(); ++pass_run_) {
        RunData& r = *runs_[pass_run_];
        if (r.passDone()) {   // its pass starts here: a run that no longer trains is read only if that changed
            bool read = r.live() || r.info().id == 0;
            if (!read) {   // a finished or stopped run that was resumed trains again: drawn live (its status to know)
                try {
                    const auto now = status_of(r.source() ? *r.source() : store, r.id());
                    read = now && *now != r.info().status;
                } catch (const StoreError& e) {
                    Q_EMIT storeUnreadable(RunTableModel::unreadableMessage(e));
                }
            }
            if (!read) continue;
        }
        pass_changed_ |= readRun(r, store, until);
        if (!r.passDone()) return false;
        if (until && pass_run_ + 1 < runs_.size() && std::chrono::steady_clock::now() >= *until) {
            ++pass_run_;
            return false;
        }
    }
    pass_run_ = 0;
    read_generations_ = pass_generations_;
    changed = std::exchange(pass_changed_, false);
    if (changed) redrawAll();
    return true;
}

bool ChartsView::readRun(RunData& r, Store& store, std::optional<std::chrono::steady_clock::time_point> until) {
    try {
        return r.refresh(store, until);
    } catch (const StoreError& e) {   // what was read before stays; its pass has ended
        Q_EMIT storeUnreadable(RunTableModel::unreadableMessage(e));
        return true;
    }
}

// Only the visible tab is redrawn; the others are marked stale and redrawn when shown.
void ChartsView::redrawAll() {
    std::fill(stale_.begin(), stale_.end(), true);
    redrawTab(tabs_->currentIndex());
}

void ChartsView::redrawTab(int i) {
    if (i < 0 || i >= static_cast<int>(stale_.size()) || !stale_[static_cast<size_t>(i)]) return;
    stale_[static_cast<size_t>(i)] = false;
    switch (i) {
        case kLossTab: redrawLoss(); break;
        case kGradTab: redrawGradients(); break;
        case kGainsTab: redrawGains(); break;
        case kLayersTab: redrawLayers(); break;
        case kScalarsTab: redrawScalars(); break;
        case kSweepTab: redrawSweep(); break;
        case kBlockTab: redrawBlock(); break;
    }
}

}  // namespace normlab
