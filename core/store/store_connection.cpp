// NormLab core: a run store's SQLite connection (see store.h): opened
// writable, read-only beside a writer, or immutable where no writer has the
// store open; and opened again when a writer comes to an immutable one.
#include "core/errors.h"
#include "core/store/store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <time.h>

namespace normlab {
namespace fs = std::filesystem;

namespace {

// "file:" URI of an absolute path, for SQLite's immutable read-only mode.
std::string file_uri(const std::string& path) {
    std::error_code ec;
    const std::string abs = fs::absolute(path, ec).string();
    std::string out = "file:";
    for (unsigned char c : abs) {
        if (c == '%' || c == '?' || c == '#' || c < 0x21 || c > 0x7e) {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "?immutable=1";
}

// What tells one state of a file from another: its inode, size and time of change.
std::string file_stamp(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return "";
    return std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
           std::to_string(st.st_mtim.tv_nsec);
}

// The stamp of a file no write has changed for a while. A file's time of change
// comes from a coarse clock (a few milliseconds a tick), so a write in the tick
// of the one before would leave the stamp as it was: the stamp is taken once
// the file's last write is 30 ms old, and any later write then changes it.
std::string settled_stamp(const std::string& path) {
    for (int wait = 0; wait < 4; ++wait) {
        struct stat st{};
        if (::stat(path.c_str(), &st) != 0) break;
        struct timespec now{};
        clock_gettime(CLOCK_REALTIME, &now);
        const double age = static_cast<double>(now.tv_sec - st.st_mtim.tv_sec) +
                           1e-9 * static_cast<double>(now.tv_nsec - st.st_mtim.tv_nsec);
        if (age >= 0.03 || age < -1.0) break;   // settled, or a clock far off (another machine's file system)
        std::this_thread::sleep_for(std::chrono::duration<double>(0.03 - std::max(age, 0.0)));
    }
    return file_stamp(path);
}

}  // namespace

void Store::open_connection(Mode mode) {
    ++connections_;
    int rc;
    immutable_ = false;
    if (mode == Mode::ReadWrite) {
        rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             nullptr);
        if (rc == SQLITE_OK && sqlite3_db_readonly(db_, "main") == 1) {
            sqlite3_close(db_);
            db_ = nullptr;
            throw StoreError(path_ + " cannot be written (the file or its folder is read-only); it can be opened"
                                     " read-only to look at its runs", SQLITE_READONLY);
        }
    } else if (!fs::exists(path_ + "-wal")) {
        // A cleanly closed store: read the file as it is. An immutable read
        // leaves no -wal/-shm beside the store and works in read-only folders;
        // a writer starting meanwhile writes to a new log, not to the pages read
        // here, and the next read opens the store again beside it
        // (reopen_if_written, Store::read_fresh).
        immutable_stamp_ = settled_stamp(path_);
        immutable_ = true;
        rc = sqlite3_open_v2(file_uri(path_).c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
                             nullptr);
    } else {
        rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
    }
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError("cannot open the run store " + path_ + ": " + msg, rc);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, static_cast<int>(lock_timeout_seconds() * 1000));
}

bool Store::written_since_opened() const {
    return fs::exists(path_ + "-wal") || file_stamp(path_) != immutable_stamp_;
}

// A read-only store opened immutable sees the file as it was when no writer had
// it open. Once one has started since (its log is there) or has written and
// closed (the file is another), the connection is opened again, as a reader
// beside the writer: what follows a store (`stream --follow`, started before
// the detached trainer opened it) sees every row the writer commits. Should the
// store no longer open (deleted, or replaced by something else), the error is
// thrown and the connection kept: nothing is read through it until it opens.
void Store::reopen_if_written() {
    if (!immutable_ || !written_since_opened()) return;
    for (auto& [k, st] : cache_) sqlite3_finalize(st);
    cache_.clear();
    series_cache_.clear();
    sqlite3* const old = db_;
    const std::string old_stamp = immutable_stamp_;
    const std::vector<int64_t> old_dead = dead_;
    const bool old_color = has_color_;
    db_ = nullptr;
    try {
        open_connection(Mode::ReadOnly);
        open_checked();                       // still a NormLab store
        const int v = schema_version();       // a writer may have migrated it
        has_color_ = v >= 3;
        dead_.clear();
        find_dead_writers(false);
    } catch (...) {
        for (auto& [k, st] : cache_) sqlite3_finalize(st);
        cache_.clear();
        if (db_) sqlite3_close(db_);
        db_ = old;
        immutable_ = true;
        immutable_stamp_ = old_stamp;
        dead_ = old_dead;
        has_color_ = old_color;
        throw;
    }
    if (in_snapshot_) sqlite3_exec(old, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(old);
    if (in_snapshot_) exec("BEGIN");
}

Store::Generation Store::generation() noexcept {
    Generation g;
    g.store = instance_;
    try {
        reopen_if_written();   // an immutable connection: written since, it is opened again
        sqlite3_stmt* st = prepare("PRAGMA data_version");
        const int rc = sqlite3_step(st);
        g.data_version = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -(++unknown_generations_);
        sqlite3_reset(st);
    } catch (...) {
        g.data_version = -(++unknown_generations_);   // unreadable now: unlike any other, so the read says why
    }
    g.connection = connections_;
    g.own_changes = db_ ? sqlite3_total_changes64(db_) : 0;
    return g;
}

}  // namespace normlab
