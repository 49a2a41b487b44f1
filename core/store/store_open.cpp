// NormLab core: opening a run store (see store.h) — the checks made before
// anything is written, and the schema and its migrations (crashed writers:
// dead_writers.cpp).
#include "core/errors.h"
#include "core/store/store.h"
#include "core/store/output_guard.h"
#include "core/store/store_internal.h"
#include "core/store/wal.h"

#include <sqlite3.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <thread>
#include <sys/stat.h>

namespace normlab {
namespace fs = std::filesystem;

namespace store_detail {

std::vector<float> column_floats(sqlite3_stmt* st, int i) {
    const void* blob = sqlite3_column_blob(st, i);  // before _bytes, as SQLite asks
    const size_t n = static_cast<size_t>(sqlite3_column_bytes(st, i)) / sizeof(float);
    std::vector<float> out(n);
    if (n > 0 && blob) std::memcpy(out.data(), blob, n * sizeof(float));
    return out;
}

}  // namespace store_detail

namespace {
using namespace store_detail;

// A read of the store's own tables that failed because the file is damaged
// says so: it is neither an old store ("open it once writable to migrate it")
// nor another application's.
void refuse_if_damaged(const std::string& path, int rc) {
    if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
        throw StoreError(path + " is damaged (SQLite: " + sqlite3_errstr(rc) + "; its schema cannot be read). It was left"
                                " untouched: use a good copy of it.", rc);
}

// Version 1: the first schema.
const char* kSchemaV1 = R"SQL(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE experiments(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, file TEXT NOT NULL DEFAULT '',
  spec TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY,
  experiment_id INTEGER REFERENCES experiments(id) ON DELETE SET NULL,
  name TEXT NOT NULL, scheme TEXT NOT NULL, config TEXT NOT NULL,
  status TEXT NOT NULL, status_step INTEGER NOT NULL DEFAULT -1, message TEXT NOT NULL DEFAULT '',
  created_at REAL NOT NULL, started_at REAL NOT NULL DEFAULT 0, ended_at REAL NOT NULL DEFAULT 0,
  device TEXT NOT NULL DEFAULT '', versions TEXT NOT NULL DEFAULT '{}', seed INTEGER NOT NULL DEFAULT 0,
  tags TEXT NOT NULL DEFAULT '[]', notes TEXT NOT NULL DEFAULT '',
  pid INTEGER NOT NULL DEFAULT 0, host TEXT NOT NULL DEFAULT '',
  steps_done INTEGER NOT NULL DEFAULT 0, final_loss REAL,
  info TEXT NOT NULL DEFAULT '{}', checkpoint TEXT NOT NULL DEFAULT '');
CREATE TABLE series(
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, name TEXT NOT NULL, layer INTEGER NOT NULL DEFAULT -1,
  UNIQUE(run_id, name, layer));
CREATE TABLE points(
  series_id INTEGER NOT NULL, step INTEGER NOT NULL, value REAL,
  PRIMARY KEY(series_id, step)) WITHOUT ROWID;
CREATE TABLE distributions(
  run_id INTEGER NOT NULL, name TEXT NOT NULL, layer INTEGER NOT NULL, step INTEGER NOT NULL,
  count INTEGER NOT NULL, min REAL, q1 REAL, median REAL, q3 REAL, max REAL, mean REAL, std REAL,
  hist_lo REAL, hist_hi REAL, hist BLOB,
  PRIMARY KEY(run_id, name, layer, step)) WITHOUT ROWID;
INSERT INTO meta(key, value) VALUES('app', 'normlab');
INSERT INTO meta(key, value) VALUES('schema_version', '1');
)SQL";

// Version 2: a heartbeat, so runs of other hosts can be recognised as dead,
// and the start time of the writing process, so a recycled pid is not taken
// for the writer.
const char* kMigrateTo2 = R"SQL(
ALTER TABLE runs ADD COLUMN heartbeat REAL NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN proc_start TEXT NOT NULL DEFAULT '';
CREATE INDEX runs_status ON runs(status);
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)SQL";

// Schema 3: each run's colour. Earlier runs keep '' and read as their default
// colour (core/palette.h), so nothing stored changes.
const char* kMigrateTo3 = R"SQL(
ALTER TABLE runs ADD COLUMN color TEXT NOT NULL DEFAULT '';
UPDATE meta SET value = '3' WHERE key = 'schema_version';
)SQL";

}  // namespace

namespace {
std::atomic<uint64_t> g_store_instances{0};

bool same_log(const WalState& a, const WalState& b) {
    return a.wal_exists == b.wal_exists && a.shm_exists == b.shm_exists && a.wal_bytes == b.wal_bytes &&
           a.valid_frames == b.valid_frames && a.committed_frames == b.committed_frames &&
           a.backfilled_frames == b.backfilled_frames && a.header == b.header;
}
}  // namespace

// The log as a crash left it. A log a connection has open is live, not a crash's leftovers:
// read while its writer restarted, checkpointed or closed it (the index read before the
// writer folded the log into the file, the log after it deleted it), it looked like lost
// frames and a healthy store was refused as damaged (test_store's reader racing writers: in
// 2 runs of 18 before writers were looked for at all, and in a CI run when they were looked
// for only after the reading, a writer of this process having closed meanwhile). So a writer
// seen before or after the reading, a writer of this process opened or closed meanwhile, or
// a log that changes within 20 ms is live (committed_frames -1: SQLite reads a live log
// right); what a crash left stays as it is.
WalState Store::settled_log(const std::string& path) {
    for (int tries = 0;; ++tries) {
        const uint64_t changes = writer_changes();
        const bool live_before = written_in_this_process(path) || shm_locked_by_another_process(path);
        WalState wal = inspect_wal(path);
        if (wal.lost_frames() == 0) return wal;
        auto live = [&] {
            return live_before || writer_changes() != changes || written_in_this_process(path) ||
                   shm_locked_by_another_process(path);
        };
        if (!live()) {
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            const WalState again = inspect_wal(path);
            if (!live() && same_log(wal, again)) return wal;
            if (tries < 5) continue;   // it changed with no writer seen: read it again
        }
        wal.committed_frames = -1;
        return wal;
    }
}

Store::Store(const std::string& given, Mode mode) : mode_(mode), instance_(++g_store_instances) {
    if (given.empty()) throw StoreError("the run store path is empty; give a file such as runs.sqlite");
    if (given == ":memory:" || given.rfind("file:", 0) == 0)
        throw StoreError("\"" + given + "\" is an SQLite URI or in-memory name; a run store is a plain file path"
                         " (for example runs.sqlite). Nothing was created.");
    (void)lock_timeout_seconds();   // a bad NORMLAB_LOCK_TIMEOUT is refused before anything is opened
    std::error_code ec;
    // Resolved once, symlinks included: the lost-log check, the -wal/-shm
    // files and the checkpoints folder are the real file's wherever it is
    // opened from.
    {
        const fs::path abs = fs::absolute(fs::path(given), ec);
        const fs::path real = fs::weakly_canonical(abs, ec);
        path_ = (ec ? abs.lexically_normal() : real).string();
        ec.clear();
    }
    const std::string& path = path_;
    dir_ = fs::path(path).parent_path().string();
    if (const std::string db = companion_of(path); !db.empty())   // `merge --into runs.sqlite-wal` made a store there
        throw StoreError(path + " belongs to the SQLite database " + db + " (its log, shared memory or journal): a store"
                         " there would destroy that database's latest rows. It was left untouched; give " + db +
                         " itself, or another file name.");
    // Its companions' names (<name>.checkpoints, <name>-wal) must fit the file system's limit too.
    if (const size_t n = fs::path(path).filename().string().size(); mode == Mode::ReadWrite && n + 12 > 255)
        throw StoreError("the run store's file name is " + std::to_string(n) + " bytes long; its checkpoints folder (" +
                         "the name + \".checkpoints\") would exceed the file system's 255. Give a name of at most 243 bytes."
                         " Nothing was created.");
    struct stat st{};
    const bool exists = ::stat(path.c_str(), &st) == 0;
    if (exists && !S_ISREG(st.st_mode))
        throw StoreError(path + " is " + (S_ISDIR(st.st_mode) ? "a folder" : "not a regular file") +
                         ", not a run store. It was left untouched; give the path of a .sqlite file.");
    if (!exists && mode == Mode::ReadOnly)
        throw StoreError("no run store at " + path + " yet; 'normlab-cli run' creates one", SQLITE_CANTOPEN);
    if (exists && st.st_size > 0) {
        std::string header;
        bool there = false;
        read_store_file(path, header, there, 16);   // never through a descriptor that is closed again (wal.h)
        if (header.size() < 16 || std::memcmp(header.data(), "SQLite format 3", 16) != 0)
            throw StoreError(path + " is not a NormLab run store (not an SQLite database). It was left untouched;"
                                    " choose another file, or a new name to create a store.");
    } else if (!exists) {
        if (auto dir = fs::path(path).parent_path(); !dir.empty()) {
            fs::create_directories(dir, ec);
            if (ec) throw StoreError("cannot create the folder " + dir.string() + " for the run store: " + ec.message());
        }
    }

    // A log lost or damaged after a crash would make committed rows vanish silently.
    WalState wal = settled_log(path);
    if (const int64_t lost = wal.lost_frames(); lost > 0) {
        if (!wal.wal_exists)
            throw StoreError(path + ": its write-ahead log " + path + "-wal is missing, but the crashed writer had"
                             " committed " + std::to_string(wal.committed_frames) + " page writes to it: the rows"
                             " written since the last checkpoint are lost. The store was left untouched; restore the"
                             " -wal file, or keep a copy of the store and move " + path + "-shm away to open what remains.");
        throw StoreError(path + ": its write-ahead log is damaged: it holds " + std::to_string(wal.valid_frames) +
                         " valid page writes of the " + std::to_string(wal.committed_frames) + " the writer committed,"
                         " so the last rows would silently vanish. The store was left untouched; restore " + path +
                         "-wal from a copy, or keep a copy and move " + path + "-wal and " + path +
                         "-shm away to open what remains.");
    }
    if (exists && st.st_size > 0) check_header(wal.header.empty() ? read_header(path) : wal.header);
    // What this open adds beside the store, removed again if the store is refused.
    const bool had_wal = fs::exists(path + "-wal"), had_shm = fs::exists(path + "-shm");
    if (mode == Mode::ReadWrite) writer_opening();   // before SQLite first touches the log (settled_log)
    open_connection(mode);
    if (mode == Mode::ReadWrite) writing_here(true);
    try {
        open_checked();
        if (mode == Mode::ReadWrite) {
            create_or_migrate();
            find_dead_writers(true);
        } else {
            // Schema 2 is read as it is (its runs read with their default colours).
            const int v = schema_version();
            if (v < 2)
                throw StoreError(path_ + " was written by an older NormLab (store schema " + std::to_string(v) +
                                 "); open it once writable (for example with 'normlab-cli run') to migrate it");
            has_color_ = v >= 3;
            find_dead_writers(false);
        }
    } catch (...) {
        for (auto& [k, s] : cache_) sqlite3_finalize(s);
        cache_.clear();
        // Refused: closing must not checkpoint the log into the file.
        sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        sqlite3_close(db_);
        db_ = nullptr;
        if (mode == Mode::ReadWrite) writing_here(false);
        // A read-only open deletes nothing: a -wal or -shm that appeared
        // meanwhile is a writer's creating the store (deleting them pulled the
        // files from under it: "disk I/O error", SIGBUS). A refused writable
        // open removes the empty log and index it made itself.
        std::error_code ec;
        if (mode == Mode::ReadWrite) {
            if (!had_wal && fs::exists(path + "-wal") && fs::file_size(path + "-wal", ec) == 0) fs::remove(path + "-wal", ec);
            if (!had_shm && !fs::exists(path + "-wal")) fs::remove(path + "-shm", ec);
        }
        throw;
    }
    // The file this connection writes: a store deleted or replaced under a
    // running writer is noticed at its next commit (check_still_there).
    struct stat now{};
    if (::stat(path.c_str(), &now) == 0) file_dev_ = now.st_dev, file_ino_ = now.st_ino;
    protect_store(path_);
}

// The SQLite header names the application and our schema (application_id,
// user_version), read from the file or, when the log holds a newer page 1,
// from the log: a newer NormLab's store or another program's database is
// refused before SQLite opens it. Stores made before NormLab set them have
// both at 0 and are checked through their meta table.
void Store::check_header(const std::string& header) {
    if (header.size() < 100) return;
    auto be32 = [&](size_t o) {
        const auto* b = reinterpret_cast<const unsigned char*>(header.data() + o);
        return (uint32_t(b[0]) << 24) | (uint32_t(b[1]) << 16) | (uint32_t(b[2]) << 8) | uint32_t(b[3]);
    };
    const uint32_t app = be32(68), version = be32(60);
    if (app == kApplicationId) {
        if (version > static_cast<uint32_t>(kSchemaVersion))
            throw StoreError(path_ + " was written by a newer NormLab (store schema " + std::to_string(version) +
                             "; this build reads up to " + std::to_string(kSchemaVersion) +
                             "). It was left untouched; update NormLab to open it.");
        return;
    }
    if (app != 0) {
        char id[16];
        std::snprintf(id, sizeof id, "0x%08X", app);
        throw StoreError(path_ + " is an SQLite database of another application (application id " + id +
                         "), not a NormLab run store. It was left untouched; choose another file.");
    }
}

Store::~Store() {
    for (auto& [k, st] : cache_) sqlite3_finalize(st);
    if (db_) sqlite3_close(db_);   // a writer's log folded into the file and removed: then it is no longer written here
    if (mode_ == Mode::ReadWrite && writer_key_.second != 0) writing_here(false);
}

namespace {
// Writable connections open in this process, by file; never destroyed, so that a store
// closed during the process's exit still finds them.
struct Writers {
    std::mutex mu;
    std::map<std::pair<uint64_t, uint64_t>, int> open;
    std::atomic<uint64_t> changes{0};   // writable opens begun and closes done, of any file
};
Writers& writers() {
    static Writers* w = new Writers;
    return *w;
}

std::pair<uint64_t, uint64_t> file_key(const std::string& path) {
    struct stat st{};
    if (::stat(path.c_str(), &st) != 0) return {0, 0};
    return {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
}
}  // namespace

// Another thread's writer in this process holds SQLite's locks as this one does,
// and a process never sees its own locks: those writers are counted here.
void Store::writing_here(bool open) {
    Writers& w = writers();
    std::lock_guard<std::mutex> lock(w.mu);
    ++w.changes;
    if (open) {
        writer_key_ = file_key(path_);
        if (writer_key_.second != 0) ++w.open[writer_key_];
    } else if (auto it = w.open.find(writer_key_); it != w.open.end() && --it->second == 0) {
        w.open.erase(it);
    }
    if (!open) writer_key_ = {0, 0};
}

void Store::writer_opening() { ++writers().changes; }

uint64_t Store::writer_changes() { return writers().changes.load(); }

bool Store::written_in_this_process(const std::string& path) {
    const auto key = file_key(path);
    Writers& w = writers();
    std::lock_guard<std::mutex> lock(w.mu);
    return key.second != 0 && w.open.count(key) > 0;
}

void Store::check(int rc, const char* what) {
    if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) return;
    const std::string msg = sqlite3_errmsg(db_);
    // A statement that failed (a lock that outlived the busy timeout) would
    // otherwise keep its read snapshot open until its next use, and the
    // connection's next write could never get the lock.
    for (auto& [sql, st] : cache_) sqlite3_reset(st);
    throw StoreError(path_ + ": " + what + ": " + msg, rc);
}

void Store::exec(const std::string& sql) {
    char* err = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
        std::string msg = err ? err : sqlite3_errstr(rc);
        sqlite3_free(err);
        throw StoreError(path_ + ": " + msg, rc);
    }
}

sqlite3_stmt* Store::prepare(const std::string& sql) {
    auto it = cache_.find(sql);
    if (it != cache_.end()) {
        sqlite3_reset(it->second);
        sqlite3_clear_bindings(it->second);
        return it->second;
    }
    sqlite3_stmt* st = nullptr;
    check(sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr), "prepare");
    cache_[sql] = st;
    return st;
}

// Read-only checks before anything is written: a foreign or newer file must
// stay exactly as it was.
void Store::open_checked() {
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master", -1, &st, nullptr);
    int tables = -1;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) tables = sqlite3_column_int(st, 0);
    }
    sqlite3_finalize(st);
    if (tables < 0) {
        if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
            throw StoreError(path_ + " is not a NormLab run store (not a readable SQLite database). It was left"
                                     " untouched.", rc);
        throw StoreError(path_ + ": " + sqlite3_errmsg(db_), rc);
    }
    if (tables == 0) {
        if (mode_ == Mode::ReadOnly) throw StoreError(path_ + " is empty: it holds no runs (not a NormLab run store yet)");
        return;  // a new, empty database
    }
    std::string app, version;
    st = nullptr;
    if ((rc = sqlite3_prepare_v2(db_, "SELECT key, value FROM meta", -1, &st, nullptr)) == SQLITE_OK) {
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const unsigned char* k = sqlite3_column_text(st, 0);
            const unsigned char* v = sqlite3_column_text(st, 1);
            const std::string key = k ? reinterpret_cast<const char*>(k) : "";
            if (key == "app") app = v ? reinterpret_cast<const char*>(v) : "";
            if (key == "schema_version") version = v ? reinterpret_cast<const char*>(v) : "";
        }
    }
    sqlite3_finalize(st);
    refuse_if_damaged(path_, rc);
    if (app != "normlab")
        throw StoreError(path_ + " is an SQLite database but not a NormLab run store (no normlab meta table)."
                                 " It was left untouched; choose another file.");
    const int v = std::atoi(version.c_str());
    if (v > kSchemaVersion)
        throw StoreError(path_ + " was written by a newer NormLab (store schema " + std::to_string(v) +
                         "; this build reads up to " + std::to_string(kSchemaVersion) +
                         "). It was left untouched; update NormLab to open it.");
    if (v < 1) throw StoreError(path_ + ": the NormLab store has no valid schema_version; it was left untouched.");
}

int Store::schema_version() const {
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(db_, "SELECT value FROM meta WHERE key='schema_version'", -1, &st, nullptr);
    int v = 0;
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        const unsigned char* t = sqlite3_column_text(st, 0);
        v = t ? std::atoi(reinterpret_cast<const char*>(t)) : 0;
    }
    sqlite3_finalize(st);
    refuse_if_damaged(path_, rc);
    return v;
}

void Store::create_or_migrate() {
    // WAL lets readers in other threads and processes see committed rows while
    // a run writes; best effort (some file systems refuse it).
    sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    exec("PRAGMA synchronous=NORMAL");
    auto current = [&] {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master WHERE name='meta'", -1, &st, nullptr);
        sqlite3_step(st);
        const bool fresh = sqlite3_column_int(st, 0) == 0;
        sqlite3_finalize(st);
        return fresh ? 0 : schema_version();
    };
    auto pragma = [&](const char* name) {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db_, (std::string("PRAGMA ") + name).c_str(), -1, &st, nullptr);
        const int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
        sqlite3_finalize(st);
        return v;
    };
    const std::string ids = "PRAGMA application_id=" + std::to_string(kApplicationId) +
                            "; PRAGMA user_version=" + std::to_string(kSchemaVersion) + ";";
    if (current() == kSchemaVersion) {          // no write lock for a store that needs nothing
        if (pragma("application_id") != kApplicationId || pragma("user_version") != kSchemaVersion) exec(ids);
        return;
    }
    exec("BEGIN IMMEDIATE");
    try {
        const int from = current();             // again, under the lock
        if (from == 0) exec(kSchemaV1);
        if (from <= 1) exec(kMigrateTo2);
        if (from <= 2) exec(kMigrateTo3);
        exec(ids);
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

}  // namespace normlab
