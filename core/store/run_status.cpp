// NormLab core: a run's status through its life (see store.h): claimed by
// the process that trains it, queued again for a detached resume, ended;
// every change from a status conditional on it, so that two processes never
// both win.
#include "core/errors.h"
#include "core/json_input.h"
#include "core/store/store.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <unistd.h>

namespace normlab {
using nlohmann::json;
using namespace store_detail;

void Store::mark_running(int64_t run, const std::string& device, const json& versions) {
    sqlite3_stmt* st = prepare("SELECT status FROM runs WHERE id=?");
    sqlite3_bind_int64(st, 1, run);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_reset(st);
        throw StoreError("no run " + std::to_string(run) + " in " + path_);
    }
    const unsigned char* t = sqlite3_column_text(st, 0);
    const std::string from = t ? reinterpret_cast<const char*>(t) : "";
    sqlite3_reset(st);
    claim_run(run, parse_status(from), device, versions);
}

bool Store::claim_run(int64_t run, RunStatus from, const std::string& device, const json& versions) {
    const int64_t pid = ::getpid();
    sqlite3_stmt* st = prepare(
        "UPDATE runs SET status='running', message='', status_step=-1,"
        " started_at=CASE WHEN started_at>0 THEN started_at ELSE ? END, ended_at=0, device=?, versions=?,"
        " pid=?, host=?, proc_start=?, heartbeat=? WHERE id=? AND status=?");
    const std::string v = versions.dump(), h = host_name(), ps = process_start(pid);
    const double now = now_seconds();
    sqlite3_bind_double(st, 1, now);
    sqlite3_bind_text(st, 2, device.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, v.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, pid);
    sqlite3_bind_text(st, 5, h.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 6, ps.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 7, now);
    sqlite3_bind_int64(st, 8, run);
    const std::string f = status_name(from);
    sqlite3_bind_text(st, 9, f.c_str(), -1, SQLITE_TRANSIENT);
    check(sqlite3_step(st), "mark running");
    return sqlite3_changes(db_) == 1;
}

bool Store::requeue(int64_t run, RunStatus from, const std::string& message) {
    // Nobody owns it until the process that resumes it does (own_queued): not the one that trained it last.
    sqlite3_stmt* st = prepare("UPDATE runs SET status='queued', status_step=-1, message=?, ended_at=0, pid=0, proc_start=''"
                               " WHERE id=? AND status=?");
    const std::string s = status_name(from);
    sqlite3_bind_text(st, 1, message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    sqlite3_bind_text(st, 3, s.c_str(), -1, SQLITE_TRANSIENT);
    check(sqlite3_step(st), "queue a run again");
    return sqlite3_changes(db_) == 1;
}

bool Store::own_queued(int64_t run) noexcept {
    try {
        const int64_t pid = ::getpid();
        sqlite3_stmt* st = prepare("UPDATE runs SET pid=?, host=?, proc_start=? WHERE id=? AND status='queued'");
        const std::string h = host_name(), ps = process_start(pid);
        sqlite3_bind_int64(st, 1, pid);
        sqlite3_bind_text(st, 2, h.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, ps.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 4, run);
        check(sqlite3_step(st), "own a queued run");
        return sqlite3_changes(db_) == 1;
    } catch (...) {
        return false;   // left unowned: queued, as every run was before owners
    }
}

bool Store::fail_queued(int64_t run, const std::string& message) {
    sqlite3_stmt* st = prepare("UPDATE runs SET status='failed', status_step=steps_done, message=?, ended_at=? WHERE id=? AND status='queued'");
    sqlite3_bind_text(st, 1, message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 2, now_seconds());
    sqlite3_bind_int64(st, 3, run);
    check(sqlite3_step(st), "mark a queued run failed");
    return sqlite3_changes(db_) == 1;
}

bool Store::cancel_queued(int64_t run, const std::string& message) {
    sqlite3_stmt* st = prepare("UPDATE runs SET status='cancelled', status_step=0, message=?, ended_at=? WHERE id=? AND status='queued'");
    sqlite3_bind_text(st, 1, message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 2, now_seconds());
    sqlite3_bind_int64(st, 3, run);
    check(sqlite3_step(st), "cancel a queued run");
    return sqlite3_changes(db_) == 1;
}

void Store::finish_run(int64_t run, RunStatus status, int64_t step, const std::string& message, double final_loss) {
    sqlite3_stmt* st = prepare(
        "UPDATE runs SET status=?, status_step=?, message=?, ended_at=?, final_loss=?, heartbeat=? WHERE id=?");
    const std::string s = status_name(status);
    const double now = now_seconds();
    sqlite3_bind_text(st, 1, s.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, step);
    sqlite3_bind_text(st, 3, message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 4, now);
    if (std::isfinite(final_loss)) sqlite3_bind_double(st, 5, final_loss);
    else sqlite3_bind_null(st, 5);
    sqlite3_bind_double(st, 6, now);
    sqlite3_bind_int64(st, 7, run);
    check(sqlite3_step(st), "finish run");
}

void Store::set_status(int64_t run, RunStatus status, const std::string& message) {
    sqlite3_stmt* st = prepare("UPDATE runs SET status=?, message=? WHERE id=?");
    const std::string s = status_name(status);
    sqlite3_bind_text(st, 1, s.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, message.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, run);
    check(sqlite3_step(st), "set status");
}

int64_t RunInfo::steps_total() const {
    return config.is_object() && config.contains("train") ? int_field(config["train"], "steps") : 0;
}

}  // namespace normlab
