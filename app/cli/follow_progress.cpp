#include "app/cli/follow_progress.h"

#include "app/cli/cli.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

namespace normlab::cli {
namespace {

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double number(const nlohmann::json& j, const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

}  // namespace

FollowProgress::FollowProgress(Store& local, std::string dest, Mode mode)
    : local_(local), dest_(std::move(dest)), tty_(mode == Mode::Auto && isatty(2)), json_(mode == Mode::Json) {}

double FollowProgress::latest(int64_t run, Seen& seen, const std::string& name, int64_t* step) {
    Series& s = seen.series[name];
    if (s.id == 0) {   // not recorded yet when last looked (val/loss comes with the first evaluation)
        for (const SeriesInfo& info : local_.series(run, false))
            if (info.name == name && info.layer == -1) s.id = info.id;
        if (s.id == 0) return std::nan("");
    }
    // The rows from the last one read on. Where that one is gone, a resume there dropped the rows
    // from its checkpoint on (they come again): read the series from its start.
    std::vector<Point> fresh = local_.points(s.id, s.last_step - 1);
    if (s.last_step >= 0 && (fresh.empty() || fresh.front().step != s.last_step)) {
        s.last_step = -1;
        s.value = std::nan("");
        fresh = local_.points(s.id, -1);
    }
    if (!fresh.empty()) {
        s.last_step = fresh.back().step;
        s.value = fresh.back().value;
    }
    if (step) *step = s.last_step;
    return s.last_step >= 0 ? s.value : std::nan("");
}

MirroredProgress FollowProgress::progress(int64_t local_id) {
    MirroredProgress p;
    const std::optional<RunInfo> r = local_.run(local_id);
    if (!r) return p;
    Seen& seen = seen_[local_id];
    p.total = r->steps_total();
    int64_t last = -1;
    p.loss = latest(local_id, seen, "train/loss", &last);
    // Its steps as its rows say them: the run's row says them once a second or so, its rows as they come.
    p.step = std::max(r->steps_done, last + 1);
    p.val_loss = latest(local_id, seen, "val/loss");
    const double tokens = latest(local_id, seen, "train/tokens"), wall = latest(local_id, seen, "train/wall_s");
    if (std::isfinite(tokens) && std::isfinite(wall) && wall > 0 && tokens > 0) {
        p.tokens_per_s = tokens / wall;
        const double per_token = number(r->info, "flops_per_token"), peak = number(r->info, "peak_flops");
        if (per_token > 0 && peak > 0) p.mfu = per_token * p.tokens_per_s / peak;
        const double per_step = number(r->info, "tokens_per_step");
        if (per_step > 0 && p.total > p.step) p.eta_s = (p.total - p.step) * per_step / p.tokens_per_s;
    }
    return p;
}

std::string FollowProgress::line(const std::string& key, const MirroredProgress& p) const {
    std::string out = printable_name(dest_) + " " + printable_name(key) + ": step " + std::to_string(p.step) + "/" + std::to_string(p.total) + " loss " +
                      fmt_loss(p.loss) + " val " + fmt_loss(p.val_loss);
    char buf[64];
    if (p.tokens_per_s > 0) {
        std::snprintf(buf, sizeof buf, " %.0f tok/s", p.tokens_per_s);
        out += buf;
    }
    if (p.mfu > 0) {
        std::snprintf(buf, sizeof buf, " MFU %.1f%%", 100 * p.mfu);
        out += buf;
    }
    if (p.eta_s > 0) out += " ETA " + format_duration(p.eta_s);
    return out;
}

nlohmann::json FollowProgress::event(const std::string& key, int64_t local_id, const MirroredProgress& p) const {
    const std::optional<RunInfo> r = local_.run(local_id);
    return {{"event", "progress"}, {"dest", dest_},          {"run", key},         {"local_id", local_id},
            {"name", r ? r->name : ""}, {"step", p.step},     {"total", p.total},   {"loss", p.loss},
            {"val_loss", p.val_loss},   {"tokens_per_s", p.tokens_per_s}, {"mfu", p.mfu}, {"eta_s", p.eta_s}};
}

void FollowProgress::update(const std::map<std::string, std::string>& statuses, const std::map<std::string, int64_t>& ids) {
    std::string first;
    int running = 0;
    const double t = now_s();
    for (const auto& [key, status] : statuses) {
        const auto id = ids.find(key);
        if (status != "running" || id == ids.end()) continue;
        ++running;
        const MirroredProgress p = progress(id->second);
        if (tty_) {
            if (first.empty()) first = line(key, p);
            continue;
        }
        if (!std::isfinite(p.loss)) continue;   // its first rows not here yet
        Seen& seen = seen_[id->second];
        if (json_) {
            if (p.step != seen.last_step) {   // each sync that moved it (the server's: every half second)
                print_json_line(event(key, id->second, p));   // NaN (no validation yet) as null
                seen.last_step = p.step;
                seen.last_print = t;
            }
            continue;
        }
        const int decile = p.total > 0 ? static_cast<int>(10 * p.step / p.total) : 0;
        if (decile != seen.last_decile || t - seen.last_print > 30) {
            std::fprintf(stderr, "%s\n", line(key, p).c_str());
            seen.last_decile = decile;
            seen.last_print = t;
        }
    }
    if (!tty_) return;
    if (running == 0) return clear();
    if (running > 1) first += " (+" + std::to_string(running - 1) + " running)";
    // Within the terminal's width: a line that wraps is not redrawn in place.
    if (winsize w{}; ::ioctl(2, TIOCGWINSZ, &w) == 0 && w.ws_col > 1) first.resize(bytes_within(first, w.ws_col - 1));
    std::fprintf(stderr, "\r%s\033[K", first.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void FollowProgress::clear() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
}

FetchProgress::FetchProgress(std::string what, bool json)
    : what_(std::move(what)), json_(json), tty_(!json && isatty(2)), start_(now_s()) {}

std::string FetchProgress::line(int64_t bytes, int64_t total, double seconds) {
    std::string out = format_bytes(static_cast<uintmax_t>(bytes));
    if (total > 0) out += " of " + format_bytes(static_cast<uintmax_t>(total)) + " (" + std::to_string(100 * bytes / total) + "%)";
    if (seconds > 0.5 && bytes > 0) {
        const double rate = bytes / seconds;
        out += ", " + format_bytes(static_cast<uintmax_t>(rate)) + "/s";
        if (total > bytes) out += ", ETA " + format_duration((total - bytes) / rate);
    }
    return out;
}

void FetchProgress::update(int64_t bytes, int64_t total) {
    const double t = now_s();
    if (json_) {
        if (t - last_ < 0.5 && bytes != total) return;
        last_ = t;
        return print_json_line({{"event", "progress"}, {"bytes", bytes}, {"total", total}});
    }
    if (tty_) {
        if (t - last_ < 0.2 && bytes != total) return;
        last_ = t;
        std::string l = "fetching " + what_ + ": " + line(bytes, total, t - start_);
        if (winsize w{}; ::ioctl(2, TIOCGWINSZ, &w) == 0 && w.ws_col > 1) l.resize(bytes_within(l, w.ws_col - 1));
        std::fprintf(stderr, "\r%s\033[K", l.c_str());
        std::fflush(stderr);
        drawn_ = true;
        return;
    }
    const int tenth = total > 0 ? static_cast<int>(10 * bytes / total) : -1;
    if (t - start_ < 2 && total < (int64_t{64} << 20)) return;   // a small transfer says only that it is done
    if ((total > 0 && tenth != last_tenth_ && tenth < 10) || (total <= 0 && t - last_ > 10)) {
        std::fprintf(stderr, "fetching %s: %s\n", what_.c_str(), line(bytes, total, t - start_).c_str());
        last_tenth_ = tenth;
        last_ = t;
    }
}

void FetchProgress::clear() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
}

}  // namespace normlab::cli
