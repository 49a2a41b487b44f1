// NormLab core: the store's file itself — where it is by default, how long a
// writer waits for a lock, its header read without dropping SQLite's locks,
// whether it is still the file this connection writes, where its
// checkpoints are, and compacting it (see store.h).
#include "core/errors.h"
#include "core/store/store.h"
#include "core/store/store_internal.h"
#include "core/store/wal.h"

#include <sqlite3.h>

#include <sys/stat.h>

#include <cerrno>
#include <filesystem>
#include <cstdlib>
#include <cstring>

namespace normlab {
namespace fs = std::filesystem;

std::string Store::default_path() {
    if (const char* e = std::getenv("NORMLAB_STORE"); e && *e) return e;
    std::string base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) base = x;
    else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.local/share";
    else base = ".";
    return base + "/normlab/runs.sqlite";
}

// How long a writer waits for another's write lock (SQLite retries with
// backoff meanwhile): a merge's long transaction or a stopped process must
// not fail a run. $NORMLAB_LOCK_TIMEOUT seconds, 1 to 86400; default 600.
double Store::lock_timeout_seconds() {
    if (const char* e = std::getenv("NORMLAB_LOCK_TIMEOUT"); e && *e) {
        char* end = nullptr;
        const double v = std::strtod(e, &end);
        if (end && *end == 0 && v >= 1 && v <= 86400) return v;
        throw StoreError(std::string("NORMLAB_LOCK_TIMEOUT=") + e + " is not a number of seconds from 1 to 86400;"
                         " unset it for the default (600)");
    }
    return 600;
}

std::string Store::read_header(const std::string& path) {
    std::string h;
    bool there = false;
    read_store_file(path, h, there, 100);
    return h.size() == 100 ? h : std::string();
}

void Store::check_still_there() const {
    if (file_ino_ == 0) return;
    struct stat now{};
    if (::stat(path_.c_str(), &now) != 0)
        throw StoreError("the run store " + path_ + " was deleted after this process opened it (" + std::strerror(errno) +
                         "): nothing more is written to it, and the rows written since are lost with it. Restore the"
                         " file, or open the store again.");
    if (static_cast<uint64_t>(now.st_dev) != file_dev_ || static_cast<uint64_t>(now.st_ino) != file_ino_)
        throw StoreError("the run store " + path_ + " was replaced by another file after this process opened it: nothing"
                         " more is written to the removed file. Open the store again to write to the new one.");
}

// Checkpoints below the store's folder are stored relative to it, so the
// store and its checkpoints can move together and be used from any folder.
std::string Store::stored_checkpoint(const std::string& path) const {
    if (path.empty()) return path;
    std::error_code ec;
    const fs::path abs = fs::absolute(path, ec).lexically_normal();
    const fs::path rel = abs.lexically_relative(fs::path(dir_).lexically_normal());
    if (!rel.empty() && *rel.begin() != "..") return rel.string();
    return abs.string();
}

// A relative checkpoint in a "<name>.checkpoints/" folder is looked for in
// this store's own folder first: a store renamed or copied together with its
// checkpoints folder finds its own files, and a store copied alone still
// reads the original's (which it never deletes: owns_checkpoint).
std::string Store::resolved_checkpoint(const std::string& stored) const {
    if (stored.empty() || fs::path(stored).is_absolute()) return stored;
    const fs::path rel(stored);
    if (std::distance(rel.begin(), rel.end()) == 2) {
        const std::string folder = rel.begin()->string();
        const std::string ext = ".checkpoints";
        if (folder.size() > ext.size() && folder.compare(folder.size() - ext.size(), ext.size(), ext) == 0) {
            const fs::path own = fs::path(path_ + ext) / rel.filename();
            std::error_code ec;
            if (fs::exists(own, ec)) return own.lexically_normal().string();
        }
    }
    return (fs::path(dir_) / stored).lexically_normal().string();
}

bool Store::owns_checkpoint(const std::string& file) const {
    std::error_code ec;
    const fs::path parent = fs::absolute(file, ec).parent_path();
    return fs::exists(parent, ec) && fs::equivalent(parent, path_ + ".checkpoints", ec);
}

namespace {

int64_t pragma_int(sqlite3* db, const char* name) {
    sqlite3_stmt* st = nullptr;
    int64_t v = 0;
    if (sqlite3_prepare_v2(db, (std::string("PRAGMA ") + name).c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

uintmax_t size_with_log(const std::string& path) {
    std::error_code ec;
    uintmax_t n = 0;
    for (const std::string& f : {path, path + "-wal"}) {
        const uintmax_t s = fs::file_size(f, ec);
        if (!ec) n += s;
    }
    return n;
}

}  // namespace

uintmax_t Store::free_bytes() {
    return static_cast<uintmax_t>(pragma_int(db_, "freelist_count") * pragma_int(db_, "page_size"));
}

Store::Compacted Store::compact(const std::atomic<bool>* stop) {
    if (read_only()) throw StoreError(path_ + " is open read-only; it cannot be compacted");
    check_still_there();
    Compacted c;
    c.before = size_with_log(path_);
    c.free = free_bytes();
    const uintmax_t live = static_cast<uintmax_t>(pragma_int(db_, "page_count") * pragma_int(db_, "page_size")) - c.free;
    // VACUUM writes the live pages twice: into a temporary database, then back through the log.
    std::error_code ec;
    const fs::path folder = fs::path(path_).parent_path();
    const char* env = std::getenv("SQLITE_TMPDIR");
    if (!env || !*env) env = std::getenv("TMPDIR");
    const fs::path tmp = env && *env ? env : "/var/tmp";
    const fs::space_info here = fs::space(folder, ec), there = fs::space(fs::exists(tmp) ? tmp : fs::path("/tmp"), ec);
    const uintmax_t margin = 64u << 20;
    const bool same = !ec && here.capacity == there.capacity && here.available == there.available;
    if (!ec && (here.available < (same ? 2 : 1) * live + margin || there.available < live + margin))
        throw StoreError("compacting " + path_ + " needs about " + std::to_string((live >> 20) + 1) + " MB free beside it and as much in " +
                         tmp.string() + " (SQLITE_TMPDIR chooses another folder); nothing was changed");
    store_detail::interrupt_on(db_, stop, 10000);
    try {
        exec("VACUUM");
    } catch (const StoreError& e) {
        store_detail::interrupt_on(db_, nullptr);
        if ((e.code() & 0xff) == SQLITE_INTERRUPT) throw StoreError(path_ + ": compacting was stopped; nothing was changed", e.code());
        throw;
    }
    store_detail::interrupt_on(db_, nullptr);
    // The rewritten pages are in the log: copied into the file and the log emptied, where no
    // reader holds an older snapshot (else SQLite does it at a later checkpoint).
    sqlite3_busy_timeout(db_, 10000);   // a reader's snapshot is not waited for long: a later checkpoint copies it
    sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
    sqlite3_busy_timeout(db_, static_cast<int>(lock_timeout_seconds() * 1000));
    c.after = size_with_log(path_);
    return c;
}

}  // namespace normlab
