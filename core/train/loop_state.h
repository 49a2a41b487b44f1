// NormLab core (internal): what a checkpoint holds besides the weights and
// the optimizer — the training loop's own state — and how checkpoint files
// are named and cleaned up (used by trainer.cpp).
#pragma once

#include "core/config.h"
#include "core/data/data.h"
#include "core/errors.h"
#include "core/store/checkpoint_names.h"

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

namespace normlab::train_detail {
namespace fs = std::filesystem;
using nlohmann::json;

// A data source's fingerprint (FNV-1a, 64 bits, as 16 hex digits): recorded
// in the run's info, compared on resume.
inline std::string data_fingerprint(const std::vector<uint8_t>& bytes) {
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ull;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// Throws RunError when `data` is not what a run's `info` says it trained on
// (data_bytes, data_hash; runs from before they were recorded pass).
inline void check_same_data(const json& info, const Dataset& data, const DataConfig& cfg) {
    if (!info.is_object() || !info.contains("data_hash") || info["data_hash"] == data_fingerprint(data.bytes)) return;
    const std::string what = cfg.source == DataSource::File ? "data.path " + cfg.path : data.description;
    throw RunError("its data changed since it was trained: " + what + " now holds " + std::to_string(data.bytes.size()) +
                   " bytes (hash " + data_fingerprint(data.bytes) + "), the run trained on " +
                   info.value("data_bytes", json(0)).dump() + " bytes (hash " + info["data_hash"].get<std::string>() +
                   "). Restore that file, or train a new run on the new data");
}

// A little disk space kept aside (64 KiB in the checkpoints folder) so that
// a run that fills the disk can still record how it ended: freed when its end
// cannot be written, which is then written again. Removed when the run ends.
class SpaceReserve {
public:
    SpaceReserve(const std::string& dir, bool enabled) {
        if (!enabled) return;
        std::error_code ec;
        fs::create_directories(dir, ec);
        const std::string path = dir + "/.space-reserve";
        const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return;
        const bool ok = ::posix_fallocate(fd, 0, 64 * 1024) == 0;
        ::close(fd);
        if (ok) path_ = path;
        else ::unlink(path.c_str());
    }
    ~SpaceReserve() { release(); }
    SpaceReserve(const SpaceReserve&) = delete;
    SpaceReserve& operator=(const SpaceReserve&) = delete;
    // Frees the space; false when there was none kept.
    bool release() {
        if (path_.empty()) return false;
        ::unlink(path_.c_str());
        path_.clear();
        return true;
    }

private:
    std::string path_;
};

// The loop's own state, saved in every checkpoint so that a resumed run
// continues the trace an uninterrupted run would have written.
struct LoopState {
    double wall_s = 0;                                          // training wall time so far
    double best = std::numeric_limits<double>::infinity();     // divergence tracking
    int above = 0;
    double val_loss = std::nan("");
    std::deque<double> recent;                                  // the last 20 train losses
    bool val_pending = false;   // stopped during the evaluation due at this step: a resume measures it first

    json to_json() const {
        return {{"wall_s", wall_s}, {"best", std::isfinite(best) ? json(best) : json(nullptr)}, {"above", above},
                {"val_loss", std::isfinite(val_loss) ? json(val_loss) : json(nullptr)},
                {"recent", std::vector<double>(recent.begin(), recent.end())}, {"val_pending", val_pending}};
    }
    // Divergence after a step's loss and gradient norm: a non-finite loss or
    // gradient, a loss above max_loss, or a loss `margin` above the best for
    // `patience` steps. Returns why, or "" (and updates the tracking).
    std::string diverged(double loss, double gnorm, double max_loss, const DivergenceConfig& d) {
        std::string why;
        if (!std::isfinite(loss)) why = "the loss became non-finite";
        else if (!std::isfinite(gnorm)) why = "the gradients became non-finite";
        else if (loss > max_loss) why = "the loss exceeded " + std::to_string(max_loss) + " nats";
        else if (loss > best + d.margin) {
            if (++above >= d.patience)
                why = "the loss stayed " + std::to_string(d.margin) + " nats above its best for " + std::to_string(above) +
                      " steps";
        } else {
            above = 0;
        }
        best = std::min(best, loss);
        return why;
    }
    static LoopState from(const json& j) {
        LoopState s;
        auto num = [&](const char* k, double def) {
            auto it = j.find(k);
            return it != j.end() && it->is_number() ? it->get<double>() : def;
        };
        s.wall_s = num("wall_s", 0);
        s.best = num("best", std::numeric_limits<double>::infinity());
        s.above = static_cast<int>(num("above", 0));
        s.val_loss = num("val_loss", std::nan(""));
        if (auto it = j.find("val_pending"); it != j.end() && it->is_boolean()) s.val_pending = it->get<bool>();
        if (auto it = j.find("recent"); it != j.end() && it->is_array())
            for (auto& v : *it)
                if (v.is_number()) s.recent.push_back(v.get<double>());
        return s;
    }
};

// Checkpoint files: run-ID-step-S.pt, one per checkpoint. The store points at
// the newest only after it and the rows up to it are committed; the older
// one is removed after that, orphans of a crash when the run is next claimed.
using normlab::checkpoint_file;
using normlab::is_checkpoint_of;
inline void remove_checkpoints(const std::string& dir, int64_t run, const std::string& keep) {
    std::error_code ec;
    const fs::path kept = keep.empty() ? fs::path() : fs::path(keep).lexically_normal();
    for (auto& e : fs::directory_iterator(dir, ec))
        if (is_checkpoint_of(e.path(), run) && e.path().lexically_normal() != kept) fs::remove(e.path(), ec);
}


}  // namespace normlab::train_detail
