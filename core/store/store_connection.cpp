// NormLab core: a run store's SQLite connection (see store.h): opened
// writable, read-only beside a writer, or immutable where no writer has the
// store open; and opened again when a writer comes to an immutable one.
#include "core/errors.h"
#include "core/store/store.h"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/stat.h>

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

}  // namespace

void Store::open_connection(Mode mode) {
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
        // here, and the next read snapshot opens the store again beside it
        // (reopen_if_written).
        immutable_stamp_ = file_stamp(path_);
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

// A read-only store opened immutable sees the file as it was when no writer had
// it open. Once one has started since (its log is there) or has written and
// closed (the file is another), the connection is opened again, as a reader
// beside the writer: what follows a store (`stream --follow`, started before
// the detached trainer opened it) sees every row the writer commits.
void Store::reopen_if_written() {
    if (!immutable_ || (!fs::exists(path_ + "-wal") && file_stamp(path_) == immutable_stamp_)) return;
    for (auto& [k, st] : cache_) sqlite3_finalize(st);
    cache_.clear();
    series_cache_.clear();
    sqlite3_close(db_);
    db_ = nullptr;
    open_connection(Mode::ReadOnly);
    const int v = schema_version();   // a writer may have migrated it
    has_color_ = v >= 3;
    dead_.clear();
    find_dead_writers(false);
}

}  // namespace normlab
