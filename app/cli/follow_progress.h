// normlab-cli remote follow: each followed run's progress as the mirror receives it — its step,
// losses, speed, MFU and time left, read from the local store after every sync.
#pragma once
#include "core/store/store.h"

#include <cstdint>
#include <map>
#include <string>

namespace normlab::cli {

// What a mirrored run's rows say of its progress. tokens_per_s and mfu are averaged over the
// run's training so far (train/tokens over train/wall_s), as a local run's progress line has them.
struct MirroredProgress {
    int64_t step = 0, total = 0;
    double loss = 0, val_loss = 0;   // NaN where none is recorded yet
    double tokens_per_s = 0, mfu = 0, eta_s = 0;   // 0: not known yet
};

class FollowProgress {
public:
    // Json: each running run's progress as a JSON line on standard output (`remote follow
    // --json`, the window's follower) after each sync that moved its step (twice a second at most).
    enum class Mode { Auto, Json };
    FollowProgress(Store& local, std::string dest, Mode mode = Mode::Auto);
    ~FollowProgress() { clear(); }   // an error's message starts a line of its own
    // After a sync: `statuses` and `ids` are the mirror's (its key "run 4" → status, → local id).
    // On a terminal one line, redrawn, names the running runs' progress (the first's in full); in a
    // log (the window's follower) each running run has a line every tenth of its steps or 30 s.
    void update(const std::map<std::string, std::string>& statuses, const std::map<std::string, int64_t>& ids);
    // Ends the terminal's progress line before another line is printed.
    void clear();
    MirroredProgress progress(int64_t local_id);
    std::string line(const std::string& key, const MirroredProgress& p) const;
    // The JSON line's object: {"event":"progress","dest","run" (the key),"local_id","name", and p's fields}.
    nlohmann::json event(const std::string& key, int64_t local_id, const MirroredProgress& p) const;

private:
    struct Series {
        int64_t id = 0, last_step = -1;
        double value = 0;
    };
    struct Seen {
        std::map<std::string, Series> series;   // by name (layer -1)
        int last_decile = -1;
        double last_print = 0;
        int64_t last_step = -1;   // Json: the step last printed
    };
    // The series' last value (NaN: none yet); `step`, where given, its step (-1: none).
    double latest(int64_t run, Seen& seen, const std::string& name, int64_t* step = nullptr);

    Store& local_;
    std::string dest_;
    bool tty_, json_;
    bool drawn_ = false;
    std::map<int64_t, Seen> seen_;
};

// normlab-cli remote fetch: how far a transfer is — redrawn on a terminal (five times a second at
// most), a line every tenth of it in a log; with `json` (--json, the window's fetch),
// {"event":"progress","bytes","total"} on stdout twice a second at most and at the end.
class FetchProgress {
public:
    explicit FetchProgress(std::string what, bool json = false);
    ~FetchProgress() { clear(); }
    void update(int64_t bytes, int64_t total);   // total < 0: not known
    void clear();
    // "812 MB of 1.52 GB (53%), 48.1 MB/s, ETA 0:15" after `seconds`.
    static std::string line(int64_t bytes, int64_t total, double seconds);

private:
    std::string what_;
    bool json_, tty_, drawn_ = false;
    double start_, last_ = 0;
    int last_tenth_ = -1;
};

}  // namespace normlab::cli
