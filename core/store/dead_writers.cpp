// NormLab core: who writes a run, and whether that process is gone — a run
// left `running` by a crashed writer, or left `queued` by a process that was to
// train it (Store::own_queued) — found when a store is opened (see store.h).
#include "core/store/store.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <utility>
#include <unistd.h>

namespace normlab {

namespace store_detail {

// A fuzzing build (fuzz/CMakeLists.txt) answers the questions about this
// machine and the clock with constants, so that a fixed seed reaches the same
// inputs on any machine, at any time, whatever processes happen to be alive.
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
std::string host_name() { return "fuzz-host"; }
#else
std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}
#endif

namespace {
// The state (field 3) and start time (field 22) of /proc/PID/stat, read once; "" when there is none.
std::pair<std::string, std::string> state_and_start(int64_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string s;
    if (!f || !std::getline(f, s)) return {};
    auto rp = s.rfind(')');
    if (rp == std::string::npos) return {};
    std::istringstream in(s.substr(rp + 2));
    std::pair<std::string, std::string> out;
    std::string field;
    for (int i = 3; i <= 22 && in >> field; ++i) {
        if (i == 3) out.first = field;
        if (i == 22) out.second = field;
    }
    return out;
}
}  // namespace

std::string process_start(int64_t pid) { return state_and_start(pid).second; }

bool process_alive(int64_t pid, const std::string& start) {
    if (pid <= 0) return false;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    return pid % 2 == 1 && !start.empty();  // both answers reachable, the same on every machine
#else
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
    // Dead but not yet reaped by its parent (a zombie): it holds no lock and writes nothing more.
    // It showed as running until its launcher waited for it, for good under one that never did.
    const auto [state, now] = state_and_start(pid);
    if (state == "Z" || state == "X") return false;
    return start.empty() || now.empty() || now == start;
#endif
}

std::string queued_owner_gone(int64_t pid, const std::string& host, int64_t run) {
    return "queued by a process (pid " + std::to_string(pid) + " on " + host +
           ") that ended before it trained it; 'normlab-cli resume " + std::to_string(run) + "' starts it";
}

}  // namespace store_detail

using namespace store_detail;

// Runs left `running` by a process that is gone, and runs left `queued` by a
// process on this machine that queued them to train them itself (own_queued)
// and is gone. Writable: marked interrupted (best effort: a full disk must not
// stop the store from opening). Read-only: shown as interrupted by read_run,
// nothing written.
bool Store::writer_gone(const RunInfo& r) {
    if (r.info.is_object() && r.info.contains("remote")) return false;
    return r.host == host_name() ? !process_alive(r.pid, r.proc_start) : (now_seconds() - r.heartbeat > 600.0);
}

void Store::find_dead_writers(bool mark) {
    const std::string host = host_name();
    const double now = now_seconds();
    std::vector<std::pair<int64_t, std::string>> dead;
    // A run mirrored from a server (core/remote/mirror.h) is trained there: its
    // writer is judged by the server, never by the process on this machine.
    sqlite3_stmt* st = prepare("SELECT id, pid, host, proc_start, heartbeat, steps_done, status FROM runs"
                               " WHERE (status='running' OR (status='queued' AND pid>0)) AND info NOT LIKE '%\"remote\":%'");
    std::vector<std::string> from;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        auto text = [&](int i) {
            const unsigned char* t = sqlite3_column_text(st, i);
            return std::string(t ? reinterpret_cast<const char*>(t) : "");
        };
        const int64_t id = sqlite3_column_int64(st, 0);
        const int64_t pid = sqlite3_column_int64(st, 1);
        const std::string h = text(2), start = text(3);
        const double beat = sqlite3_column_double(st, 4);
        const int64_t steps = sqlite3_column_int64(st, 5);
        const std::string status = text(6);
        if (status == "queued") {
            // A queue on another machine has no heartbeat to judge it by: left as it is.
            if (h == host && !process_alive(pid, start)) {
                dead.emplace_back(id, queued_owner_gone(pid, h, id));
                from.push_back(status);
            }
            continue;
        }
        const bool gone = h == host ? !process_alive(pid, start) : (now - beat > 600.0);
        if (gone) {
            dead.emplace_back(id, "the writing process (pid " + std::to_string(pid) + " on " + h +
                                      ") ended without finishing the run, after step " + std::to_string(steps));
            from.push_back(status);
        }
    }
    sqlite3_reset(st);
    check(rc, "find interrupted runs");
    for (size_t i = 0; i < dead.size(); ++i) {
        const auto& [id, msg] = dead[i];
        dead_.push_back(id);
        if (!mark) continue;
        sqlite3_stmt* up = prepare("UPDATE runs SET status='interrupted', message=?, ended_at=? WHERE id=? AND status=?");
        sqlite3_bind_text(up, 1, msg.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(up, 2, now);
        sqlite3_bind_int64(up, 3, id);
        sqlite3_bind_text(up, 4, from[i].c_str(), -1, SQLITE_TRANSIENT);
        if (sqlite3_step(up) != SQLITE_DONE) {
            sqlite3_reset(up);
            continue;   // e.g. disk full: shown as interrupted, marked the next time
        }
        recovered_.push_back(id);
    }
    if (mark) {
        // Those marked are ordinary interrupted runs now.
        std::vector<int64_t> left;
        for (int64_t id : dead_)
            if (std::find(recovered_.begin(), recovered_.end(), id) == recovered_.end()) left.push_back(id);
        dead_ = left;
    }
}

}  // namespace normlab
