// NormLab widgets: RunData (see rundata.h).
#include "widgets/rundata.h"

#include <algorithm>
#include <cmath>

namespace normlab {

bool RunData::refresh(Store& own, std::optional<std::chrono::steady_clock::time_point> until) {
    Store& store = source_ ? *source_ : own;
    bool changed = false;
    auto it = ids_.begin();
    if (resume_at_) {
        it = ids_.lower_bound(*resume_at_);
        resume_at_.reset();
    } else {
        auto info = store.run(id_);
        if (!info) return false;
        changed = info->status != info_.status || info->steps_done != info_.steps_done || info->name != info_.name ||
                  info->tags != info_.tags || info->notes != info_.notes || info->color != info_.color;
        // Resumed (it stopped, and trains again): its checkpoint's step may be before the last point read,
        // and the store drops what came after it, so everything is read again.
        auto live = [](RunStatus s) { return s == RunStatus::Running || s == RunStatus::Queued; };
        if (info_.id != 0 && !live(info_.status) && live(info->status)) {
            data_.clear();
            ids_.clear();
            dists_.clear();
            last_dist_step_ = -1;
            changed = true;
        }
        info_ = *info;
        for (auto& s : store.series(id_, /*with_counts=*/false))
            if (!wanted_ || wanted_(s.name)) ids_.emplace(std::make_pair(s.name, s.layer), s.id);
        it = ids_.begin();
    }
    for (bool first = true; it != ids_.end(); ++it, first = false) {
        if (until && !first && std::chrono::steady_clock::now() >= *until) {   // a series a call at least
            resume_at_ = it->first;
            return changed;
        }
        SeriesData& d = data_[it->first];
        const int64_t after = d.steps.empty() ? -1 : static_cast<int64_t>(d.steps.back());
        auto pts = store.points(it->second, after);
        if (pts.empty()) continue;
        changed = true;
        d.steps.reserve(d.steps.size() + pts.size());
        d.values.reserve(d.values.size() + pts.size());
        for (auto& p : pts) {
            d.steps.push_back(static_cast<double>(p.step));
            d.values.push_back(p.value);
        }
    }
    // The trainer writes all distributions of a probe step in one transaction, so a step is never half-read.
    if (!distributions_) return changed;
    for (auto& d : store.distributions(id_, "", last_dist_step_)) {
        last_dist_step_ = std::max(last_dist_step_, d.step);
        if (wanted_ && !wanted_(d.name)) continue;
        dists_[d.name].push_back(std::move(d));
        changed = true;
    }
    return changed;
}

const SeriesData* RunData::series(const std::string& name, int layer) const {
    auto it = data_.find({name, layer});
    return it == data_.end() || it->second.steps.empty() ? nullptr : &it->second;
}

int RunData::layers(const std::string& name) const {
    int n = 0;
    for (auto& [key, d] : data_)
        if (key.first == name && !d.steps.empty()) n = std::max(n, key.second + 1);
    return n;
}

std::vector<std::string> RunData::names(const std::string& prefix) const {
    std::vector<std::string> out;
    for (auto& [key, d] : data_)
        if (key.first.rfind(prefix, 0) == 0 && (out.empty() || out.back() != key.first)) out.push_back(key.first);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

const std::vector<Distribution>& RunData::distributions(const std::string& name) const {
    static const std::vector<Distribution> none;
    auto it = dists_.find(name);
    return it == dists_.end() ? none : it->second;
}

std::vector<std::string> RunData::distribution_names() const {
    std::vector<std::string> out;
    for (auto& [name, v] : dists_)
        if (!v.empty()) out.push_back(name);
    return out;
}

std::vector<int64_t> RunData::distribution_steps(const std::string& name) const {
    std::vector<int64_t> steps;
    for (auto& d : distributions(name)) steps.push_back(d.step);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

double RunData::x_of(int64_t step, XUnit unit) const {
    if (unit == XUnit::Step) return static_cast<double>(step);
    const SeriesData* s = series(unit == XUnit::Tokens ? "train/tokens" : "train/wall_s");
    if (!s) return static_cast<double>(step);
    auto it = std::upper_bound(s->steps.begin(), s->steps.end(), static_cast<double>(step));
    if (it == s->steps.begin()) return 0.0;
    return s->values[static_cast<size_t>(it - s->steps.begin() - 1)];
}

std::optional<double> RunData::info_number(const char* key) const {
    if (info_.info.contains(key) && info_.info[key].is_number()) return info_.info[key].get<double>();
    return std::nullopt;
}

}  // namespace normlab
