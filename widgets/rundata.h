// NormLab widgets: one run's data as the charts need it, read from the run store.
//
// The live charts and the comparison of saved runs both go through RunData:
// refresh() reads only the rows added since the last call (per series, by
// step), so a live run is polled cheaply a few times a second; a saved run is
// read once. Full resolution is kept; charts reduce what they draw.
// Knows the store, not LibTorch.
#pragma once

#include "core/store/store.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

struct SeriesData {
    std::vector<double> steps, values;   // values NaN where non-finite
};

class RunData {
public:
    // `source`: the store the run lives in when it is not the window's own
    // (a store opened for comparison, read-only); null: the store refresh() is given.
    explicit RunData(int64_t run_id, Store* source = nullptr) : id_(run_id), source_(source) {}

    // Reads new rows; returns true when anything changed (points, distributions, status).
    // With a time `until`, it stops between one series and the next once that time is past,
    // and the next call goes on from there (passDone() is false meanwhile): the window reads
    // a fast run's rows in slices between its events rather than in one long block (at 10^5
    // points a second, ~50,000 rows a refresh took 10-24 ms here). A pass reads the run's
    // status and its list of series where it starts, its distributions where it ends.
    bool refresh(Store& store, std::optional<std::chrono::steady_clock::time_point> until = std::nullopt);
    // Only the series and distributions `wanted` takes by name are read (a figure's view: normlab
    // figure), the others are as if not recorded; none set: all. Without `distributions`, none of
    // those is read at all. Set before the first refresh.
    void setWanted(std::function<bool(const std::string&)> wanted, bool distributions) {
        wanted_ = std::move(wanted);
        distributions_ = distributions;
    }
    bool passDone() const { return !resume_at_; }

    int64_t id() const { return id_; }
    Store* source() const { return source_; }
    const RunInfo& info() const { return info_; }
    bool live() const { return info_.status == RunStatus::Running || info_.status == RunStatus::Queued; }

    // nullptr when the run has no such series (yet).
    const SeriesData* series(const std::string& name, int layer = -1) const;
    // Layers recorded for a per-layer series name (0..n-1), 0 if none.
    int layers(const std::string& name) const;
    // Names with this prefix ("grad_l1/" → {"grad_l1/q", ...}).
    std::vector<std::string> names(const std::string& prefix = "") const;

    // Gain distributions, by name → (layer, step) ordered.
    const std::vector<Distribution>& distributions(const std::string& name) const;
    std::vector<std::string> distribution_names() const;
    std::vector<int64_t> distribution_steps(const std::string& name) const;

    // x of a step in another unit, from train/tokens and train/wall_s (the value at the nearest earlier step).
    enum class XUnit { Step, Tokens, WallSeconds };
    double x_of(int64_t step, XUnit unit) const;

    std::optional<double> loss_floor() const { return info_number("loss_floor"); }
    // The loss of byte frequencies alone on the run's data (its info's unigram_loss;
    // runs from before 2026-11-28 lack it): where a run that stopped learning sits.
    std::optional<double> unigram_loss() const { return info_number("unigram_loss"); }
    std::optional<double> info_number(const char* key) const;   // a number of the run's info, if it has one

private:
    int64_t id_;
    Store* source_ = nullptr;
    RunInfo info_;
    std::map<std::pair<std::string, int>, int64_t> ids_;          // series ids known so far
    std::optional<std::pair<std::string, int>> resume_at_;          // the series a sliced pass goes on from
    std::map<std::pair<std::string, int>, SeriesData> data_;
    std::map<std::string, std::vector<Distribution>> dists_;
    int64_t last_dist_step_ = -1;
    std::function<bool(const std::string&)> wanted_;
    bool distributions_ = true;
};

}  // namespace normlab
