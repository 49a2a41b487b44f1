// NormLab core (internal): helpers shared by the store's translation units.
#pragma once

#include "core/errors.h"
#include "core/store/store.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include <sqlite3.h>

namespace normlab::store_detail {

std::string host_name();
// Field 22 of /proc/PID/stat: the process start time in clock ticks since boot ("" when unknown).
std::string process_start(int64_t pid);
bool process_alive(int64_t pid, const std::string& start);
// The message of a queued run whose owner (Store::own_queued) is gone.
std::string queued_owner_gone(int64_t pid, const std::string& host, int64_t run);

// A text column as a string; "" for SQL NULL. A damaged or hand-edited file can
// hold NULL where the schema says NOT NULL, so no reader trusts the schema.
inline std::string column_string(sqlite3_stmt* st, int i) {
    const unsigned char* t = sqlite3_column_text(st, i);
    return t ? reinterpret_cast<const char*>(t) : "";
}

// A stored status; Unknown for a text this build does not know (shown as stored, never fatal).
inline RunStatus stored_status(const std::string& text) {
    try {
        return parse_status(text);
    } catch (const StoreError&) {
        return RunStatus::Unknown;
    }
}

// A blob column of floats. A blob whose length is not a whole number of floats
// (a damaged file) keeps its whole floats; an empty or NULL one gives none.
std::vector<float> column_floats(sqlite3_stmt* st, int i);

// The id a new run gets: above every run's, and above every run ever deleted
// (meta 'deleted_runs_up_to'), so that no id names two runs in one store's life: a
// trainer, a mirror or a window still holding a deleted run's id never writes into
// or shows a new run under it. An SQL expression, for INSERT INTO runs(id, ...).
inline constexpr const char* kNextRunId =
    "(SELECT MAX(COALESCE((SELECT MAX(id) FROM runs), 0),"
    " COALESCE((SELECT CAST(value AS INTEGER) FROM meta WHERE key='deleted_runs_up_to'), 0)) + 1)";

// `db`'s statements fail with SQLITE_INTERRUPT once `stop` is set (checked every `ops` virtual
// machine steps: compact's VACUUM, a merge); a null `stop` clears it.
inline void interrupt_on(sqlite3* db, const std::atomic<bool>* stop, int ops = 1000) {
    if (!stop) {
        sqlite3_progress_handler(db, 0, nullptr, nullptr);
        return;
    }
    sqlite3_progress_handler(db, ops, [](void* s) { return static_cast<const std::atomic<bool>*>(s)->load() ? 1 : 0; },
                             const_cast<std::atomic<bool>*>(stop));
}

}  // namespace normlab::store_detail
