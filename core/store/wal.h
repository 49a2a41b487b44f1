// NormLab core: inspection of an SQLite write-ahead log without SQLite.
//
// After a crash, SQLite rebuilds its index of the log (the -shm file) from
// the frames whose checksums hold, and silently ignores the rest: a deleted
// or damaged -wal makes committed rows vanish without an error. The -shm
// file still holds what the crashed writer had committed (mxFrame), so
// comparing the two tells a damaged or missing log from a clean one. Reading
// both files ourselves changes neither. Format: https://sqlite.org/fileformat2.html#walformat
#pragma once

#include <cstdint>
#include <cstddef>
#include <functional>
#include <string>

namespace normlab {

struct WalState {
    bool wal_exists = false, shm_exists = false;
    uint64_t wal_bytes = 0;
    int64_t valid_frames = 0;       // frames up to the last valid commit frame
    int64_t committed_frames = -1;  // mxFrame from the -shm header of the same log generation; -1 unknown
    int64_t backfilled_frames = 0;  // nBackfill: frames already copied into the database file
    std::string header;             // the database header (first 100 bytes) as the log's last commit left it; "" when the log has no page 1
    bool hot() const { return wal_exists && wal_bytes > 32; }
    // Frames the crashed writer committed that the log no longer holds; 0 when none are missing.
    int64_t lost_frames() const {
        const int64_t safe = valid_frames > backfilled_frames ? valid_frames : backfilled_frames;
        return committed_frames > safe ? committed_frames - safe : 0;
    }
};

// The bytes of a store's file, -wal or -shm (at most `limit`), read through a
// descriptor this process keeps open: closing one would drop the POSIX locks
// SQLite's connections in this process hold on that file (see wal.cpp).
// False (out empty) when it does not exist or cannot be read.
bool read_store_file(const std::string& path, std::string& out, bool& exists, size_t limit = SIZE_MAX);
// The descriptor read_store_file reads `path` through, kept open; -1 when it cannot be opened.
int kept_descriptor(const std::string& path);

// Reads PATH-shm (first) and PATH-wal. Never writes.
WalState inspect_wal(const std::string& db_path);
// For tests: `between` runs once, in the next inspect_wal, after it has read the index and
// before it reads the log (where a writer closing the store makes it look lost).
void at_next_inspection(std::function<void()> between);
// Whether another process has the database open through SQLite (it holds a
// lock on the -shm index: every connection to a store in WAL mode does, until
// it closes). Its log is then live, not what a crash left: a writer restarting,
// checkpointing or closing it between inspect_wal's reads of the index and the
// log can make one reading look like lost frames, which SQLite reads right.
bool shm_locked_by_another_process(const std::string& db_path);

// The SQLite database whose write-ahead log, shared-memory index or rollback
// journal `path` is (`runs.sqlite` for `runs.sqlite-wal`), or "" where it is
// none: a store made there would overwrite that database's unsaved rows.
std::string companion_of(const std::string& path);

// Valid frames of a write-ahead log held in memory (for tests and the fuzzer).
// With `header`, the first 100 bytes of the newest committed image of page 1.
int64_t count_valid_wal_frames(const std::string& wal_bytes, std::string* salt = nullptr, std::string* header = nullptr);

}  // namespace normlab
