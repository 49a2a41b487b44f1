// NormLab core: the SQLite run store (see store.h).
#include "core/store/store.h"

#include "core/errors.h"

#include <sqlite3.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <unistd.h>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

namespace {

const char* kStatusNames[] = {"queued", "running", "finished", "diverged", "failed", "cancelled", "interrupted"};

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

std::string host_name() {
    char buf[256] = {0};
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

// Field 22 of /proc/PID/stat: the process start time in clock ticks since boot.
std::string process_start(int64_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string s;
    if (!f || !std::getline(f, s)) return "";
    auto rp = s.rfind(')');
    if (rp == std::string::npos) return "";
    std::istringstream in(s.substr(rp + 2));
    std::string field;
    for (int i = 3; i <= 22 && in >> field; ++i)
        if (i == 22) return field;
    return "";
}

bool process_alive(int64_t pid, const std::string& start) {
    if (pid <= 0) return false;
    if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
    const std::string now = process_start(pid);
    return start.empty() || now.empty() || now == start;
}

json parse_or(const char* text, json fallback) {
    if (!text) return fallback;
    try {
        return json::parse(text);
    } catch (...) {
        return fallback;
    }
}

}  // namespace

std::string status_name(RunStatus s) { return kStatusNames[static_cast<int>(s)]; }
RunStatus parse_status(const std::string& s) {
    for (int i = 0; i < 7; ++i)
        if (s == kStatusNames[i]) return static_cast<RunStatus>(i);
    throw StoreError("unknown run status \"" + s + "\"");
}

std::string Store::default_path() {
    if (const char* e = std::getenv("NORMLAB_STORE"); e && *e) return e;
    std::string base;
    if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) base = x;
    else if (const char* h = std::getenv("HOME"); h && *h) base = std::string(h) + "/.local/share";
    else base = ".";
    return base + "/normlab/runs.sqlite";
}

Store::Store(const std::string& path) : path_(path) {
    std::error_code ec;
    const bool existed = fs::exists(path, ec) && fs::file_size(path, ec) > 0;
    if (existed) {
        std::ifstream f(path, std::ios::binary);
        char header[16] = {0};
        f.read(header, 16);
        if (!f || std::memcmp(header, "SQLite format 3", 16) != 0)
            throw StoreError(path + " is not a NormLab run store (not an SQLite database). It was left untouched;"
                                    " choose another file, or a new name to create a store.");
    } else if (auto dir = fs::path(path).parent_path(); !dir.empty()) {
        fs::create_directories(dir, ec);
        if (ec) throw StoreError("cannot create the folder " + dir.string() + " for the run store: " + ec.message());
    }
    int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                             nullptr);
    if (rc != SQLITE_OK) {
        std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw StoreError("cannot open the run store " + path + ": " + msg, rc);
    }
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 10000);
    try {
        open_checked();
        create_or_migrate();
        recover_interrupted();
    } catch (...) {
        for (auto& [k, st] : cache_) sqlite3_finalize(st);
        cache_.clear();
        sqlite3_close(db_);
        db_ = nullptr;
        throw;
    }
}

Store::~Store() {
    for (auto& [k, st] : cache_) sqlite3_finalize(st);
    if (db_) sqlite3_close(db_);
}

void Store::check(int rc, const char* what) {
    if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW) return;
    throw StoreError(path_ + ": " + what + ": " + sqlite3_errmsg(db_), rc);
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
    if (rc != SQLITE_OK) {
        sqlite3_finalize(st);
        if ((rc & 0xff) == SQLITE_NOTADB)
            throw StoreError(path_ + " is not a NormLab run store (not an SQLite database). It was left untouched.", rc);
        throw StoreError(path_ + ": " + sqlite3_errmsg(db_), rc);
    }
    rc = sqlite3_step(st);
    const int tables = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW) {
        if ((rc & 0xff) == SQLITE_NOTADB)
            throw StoreError(path_ + " is not a NormLab run store (not an SQLite database). It was left untouched.", rc);
        throw StoreError(path_ + ": " + sqlite3_errmsg(db_), rc);
    }
    if (tables == 0) return;  // a new, empty database
    std::string app, version;
    st = nullptr;
    if (sqlite3_prepare_v2(db_, "SELECT key, value FROM meta", -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            const std::string k = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
            const char* v = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
            if (k == "app") app = v ? v : "";
            if (k == "schema_version") version = v ? v : "";
        }
    }
    sqlite3_finalize(st);
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
    sqlite3_prepare_v2(db_, "SELECT value FROM meta WHERE key='schema_version'", -1, &st, nullptr);
    int v = 0;
    if (sqlite3_step(st) == SQLITE_ROW) v = std::atoi(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    return v;
}

void Store::create_or_migrate() {
    // WAL lets readers in other threads and processes see committed rows while
    // a run writes; best effort (some file systems refuse it).
    sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    exec("PRAGMA synchronous=NORMAL");
    exec("BEGIN IMMEDIATE");
    try {
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db_, "SELECT count(*) FROM sqlite_master WHERE name='meta'", -1, &st, nullptr);
        sqlite3_step(st);
        const bool fresh = sqlite3_column_int(st, 0) == 0;
        sqlite3_finalize(st);
        if (fresh) exec(kSchemaV1);
        int from = schema_version();
        if (from <= 1) exec(kMigrateTo2);
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

void Store::recover_interrupted() {
    const std::string host = host_name();
    const double now = now_seconds();
    std::vector<std::pair<int64_t, std::string>> dead;
    sqlite3_stmt* st = prepare("SELECT id, pid, host, proc_start, heartbeat, steps_done FROM runs WHERE status='running'");
    while (sqlite3_step(st) == SQLITE_ROW) {
        const int64_t id = sqlite3_column_int64(st, 0);
        const int64_t pid = sqlite3_column_int64(st, 1);
        const std::string h = reinterpret_cast<const char*>(sqlite3_column_text(st, 2));
        const std::string start = reinterpret_cast<const char*>(sqlite3_column_text(st, 3));
        const double beat = sqlite3_column_double(st, 4);
        const int64_t steps = sqlite3_column_int64(st, 5);
        const bool same_host = h == host;
        const bool gone = same_host ? !process_alive(pid, start) : (now - beat > 600.0);
        if (gone)
            dead.emplace_back(id, "the writing process (pid " + std::to_string(pid) + " on " + h +
                                      ") ended without finishing the run, after step " + std::to_string(steps));
    }
    sqlite3_reset(st);
    for (auto& [id, msg] : dead) {
        sqlite3_stmt* up = prepare("UPDATE runs SET status='interrupted', message=?, ended_at=? WHERE id=? AND status='running'");
        sqlite3_bind_text(up, 1, msg.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(up, 2, now);
        sqlite3_bind_int64(up, 3, id);
        check(sqlite3_step(up), "mark interrupted");
        recovered_.push_back(id);
    }
}

int64_t Store::add_experiment(const std::string& name, const std::string& file, const json& spec) {
    sqlite3_stmt* st = prepare("INSERT INTO experiments(name, file, spec, created_at) VALUES(?,?,?,?)");
    const std::string s = spec.dump();
    sqlite3_bind_text(st, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, file.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, s.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 4, now_seconds());
    check(sqlite3_step(st), "add experiment");
    return sqlite3_last_insert_rowid(db_);
}

int64_t Store::create_run(const std::string& name, const std::string& scheme, const json& config, uint64_t seed,
                          int64_t experiment_id, const std::vector<std::string>& tags) {
    sqlite3_stmt* st = prepare(
        "INSERT INTO runs(experiment_id, name, scheme, config, status, created_at, seed, tags) "
        "VALUES(?,?,?,?, 'queued', ?,?,?)");
    const std::string c = config.dump(), t = json(tags).dump();
    if (experiment_id > 0) sqlite3_bind_int64(st, 1, experiment_id);
    else sqlite3_bind_null(st, 1);
    sqlite3_bind_text(st, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, scheme.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, c.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_double(st, 5, now_seconds());
    sqlite3_bind_int64(st, 6, static_cast<int64_t>(seed));
    sqlite3_bind_text(st, 7, t.c_str(), -1, SQLITE_TRANSIENT);
    check(sqlite3_step(st), "create run");
    return sqlite3_last_insert_rowid(db_);
}

void Store::mark_running(int64_t run, const std::string& device, const json& versions) {
    const int64_t pid = ::getpid();
    sqlite3_stmt* st = prepare(
        "UPDATE runs SET status='running', message='', status_step=-1, started_at=?, ended_at=0, device=?, versions=?,"
        " pid=?, host=?, proc_start=?, heartbeat=? WHERE id=?");
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
    check(sqlite3_step(st), "mark running");
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

void Store::set_info(int64_t run, const json& info) {
    auto r = this->run(run);
    if (!r) throw StoreError("no run " + std::to_string(run) + " in " + path_);
    json merged = r->info.is_object() ? r->info : json::object();
    merged.update(info);
    sqlite3_stmt* st = prepare("UPDATE runs SET info=? WHERE id=?");
    const std::string s = merged.dump();
    sqlite3_bind_text(st, 1, s.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set info");
}

void Store::set_checkpoint(int64_t run, const std::string& path) {
    sqlite3_stmt* st = prepare("UPDATE runs SET checkpoint=? WHERE id=?");
    sqlite3_bind_text(st, 1, path.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set checkpoint");
}

void Store::heartbeat(int64_t run, int64_t steps_done) {
    sqlite3_stmt* st = prepare("UPDATE runs SET heartbeat=?, steps_done=? WHERE id=?");
    sqlite3_bind_double(st, 1, now_seconds());
    sqlite3_bind_int64(st, 2, steps_done);
    sqlite3_bind_int64(st, 3, run);
    check(sqlite3_step(st), "heartbeat");
}

void Store::rename_run(int64_t run, const std::string& name) {
    if (name.empty()) throw StoreError("a run name cannot be empty");
    sqlite3_stmt* st = prepare("UPDATE runs SET name=? WHERE id=?");
    sqlite3_bind_text(st, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "rename run");
}

void Store::set_tags(int64_t run, const std::vector<std::string>& tags) {
    sqlite3_stmt* st = prepare("UPDATE runs SET tags=? WHERE id=?");
    const std::string t = json(tags).dump();
    sqlite3_bind_text(st, 1, t.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set tags");
}

void Store::set_notes(int64_t run, const std::string& notes) {
    sqlite3_stmt* st = prepare("UPDATE runs SET notes=? WHERE id=?");
    sqlite3_bind_text(st, 1, notes.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set notes");
}

void Store::delete_run(int64_t run) {
    Transaction tx(*this);
    for (const char* sql : {"DELETE FROM points WHERE series_id IN (SELECT id FROM series WHERE run_id=?)",
                            "DELETE FROM series WHERE run_id=?", "DELETE FROM distributions WHERE run_id=?",
                            "DELETE FROM runs WHERE id=?"}) {
        sqlite3_stmt* st = prepare(sql);
        sqlite3_bind_int64(st, 1, run);
        check(sqlite3_step(st), "delete run");
    }
    tx.commit();
    for (auto it = series_cache_.begin(); it != series_cache_.end();)
        it = it->first.first == run ? series_cache_.erase(it) : std::next(it);
}

void Store::truncate_after(int64_t run, int64_t step) {
    Transaction tx(*this);
    for (const char* sql : {"DELETE FROM points WHERE step>? AND series_id IN (SELECT id FROM series WHERE run_id=?)",
                            "DELETE FROM distributions WHERE step>? AND run_id=?"}) {
        sqlite3_stmt* st = prepare(sql);
        sqlite3_bind_int64(st, 1, step);
        sqlite3_bind_int64(st, 2, run);
        check(sqlite3_step(st), "truncate run");
    }
    tx.commit();
}

static const char* kRunColumns =
    "id, experiment_id, name, scheme, config, status, status_step, message, created_at, started_at, ended_at,"
    " device, versions, seed, tags, notes, steps_done, final_loss, info, checkpoint, heartbeat, pid, host";

RunInfo Store::read_run(sqlite3_stmt* st) {
    auto text = [&](int i) {
        const unsigned char* t = sqlite3_column_text(st, i);
        return std::string(t ? reinterpret_cast<const char*>(t) : "");
    };
    RunInfo r;
    r.id = sqlite3_column_int64(st, 0);
    r.experiment_id = sqlite3_column_type(st, 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 1);
    r.name = text(2);
    r.scheme = text(3);
    r.config = parse_or(reinterpret_cast<const char*>(sqlite3_column_text(st, 4)), json::object());
    r.status = parse_status(text(5));
    r.status_step = sqlite3_column_int64(st, 6);
    r.message = text(7);
    r.created_at = sqlite3_column_double(st, 8);
    r.started_at = sqlite3_column_double(st, 9);
    r.ended_at = sqlite3_column_double(st, 10);
    r.device = text(11);
    r.versions = parse_or(reinterpret_cast<const char*>(sqlite3_column_text(st, 12)), json::object());
    r.seed = static_cast<uint64_t>(sqlite3_column_int64(st, 13));
    json tags = parse_or(reinterpret_cast<const char*>(sqlite3_column_text(st, 14)), json::array());
    for (auto& t : tags)
        if (t.is_string()) r.tags.push_back(t.get<std::string>());
    r.notes = text(15);
    r.steps_done = sqlite3_column_int64(st, 16);
    r.final_loss = sqlite3_column_type(st, 17) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, 17);
    r.info = parse_or(reinterpret_cast<const char*>(sqlite3_column_text(st, 18)), json::object());
    r.checkpoint = text(19);
    r.heartbeat = sqlite3_column_double(st, 20);
    r.pid = sqlite3_column_int64(st, 21);
    r.host = text(22);
    return r;
}

std::vector<RunInfo> Store::runs() {
    sqlite3_stmt* st = prepare(std::string("SELECT ") + kRunColumns + " FROM runs ORDER BY id");
    std::vector<RunInfo> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) out.push_back(read_run(st));
    check(rc, "list runs");
    return out;
}

std::optional<RunInfo> Store::run(int64_t id) {
    sqlite3_stmt* st = prepare(std::string("SELECT ") + kRunColumns + " FROM runs WHERE id=?");
    sqlite3_bind_int64(st, 1, id);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        RunInfo r = read_run(st);
        sqlite3_reset(st);
        return r;
    }
    check(rc, "read run");
    return std::nullopt;
}

RunInfo Store::find_run(const std::string& key) {
    char* end = nullptr;
    const long long id = std::strtoll(key.c_str(), &end, 10);
    if (!key.empty() && end && *end == '\0') {
        if (auto r = run(id)) return *r;
        throw StoreError("no run with id " + key + " in " + path_ + "; 'normlab-cli list' shows the runs");
    }
    std::vector<RunInfo> hits;
    for (auto& r : runs())
        if (r.name == key) hits.push_back(r);
    if (hits.size() == 1) return hits[0];
    if (hits.empty()) throw StoreError("no run named \"" + key + "\" in " + path_ + "; 'normlab-cli list' shows the runs");
    std::string ids;
    for (auto& r : hits) ids += (ids.empty() ? "" : ", ") + std::to_string(r.id);
    throw StoreError(std::to_string(hits.size()) + " runs are named \"" + key + "\" (ids " + ids + "); give the id");
}

int64_t Store::series_id(int64_t run, const std::string& name, int layer) {
    auto key = std::make_pair(run, std::make_pair(name, layer));
    if (auto it = series_cache_.find(key); it != series_cache_.end()) return it->second;
    sqlite3_stmt* ins = prepare("INSERT OR IGNORE INTO series(run_id, name, layer) VALUES(?,?,?)");
    sqlite3_bind_int64(ins, 1, run);
    sqlite3_bind_text(ins, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(ins, 3, layer);
    check(sqlite3_step(ins), "create series");
    sqlite3_stmt* st = prepare("SELECT id FROM series WHERE run_id=? AND name=? AND layer=?");
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_text(st, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, layer);
    check(sqlite3_step(st), "find series");
    const int64_t id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    series_cache_[key] = id;
    return id;
}

std::vector<SeriesInfo> Store::series(int64_t run, bool with_counts) {
    sqlite3_stmt* st = prepare(
        with_counts ? "SELECT s.id, s.name, s.layer, (SELECT count(*) FROM points p WHERE p.series_id=s.id),"
                      " (SELECT max(step) FROM points p WHERE p.series_id=s.id) FROM series s WHERE s.run_id=?"
                      " ORDER BY s.name, s.layer"
                    : "SELECT s.id, s.name, s.layer, 0, NULL FROM series s WHERE s.run_id=? ORDER BY s.name, s.layer");
    sqlite3_bind_int64(st, 1, run);
    std::vector<SeriesInfo> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        SeriesInfo s;
        s.id = sqlite3_column_int64(st, 0);
        s.name = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
        s.layer = sqlite3_column_int(st, 2);
        s.count = sqlite3_column_int64(st, 3);
        s.last_step = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 4);
        out.push_back(s);
    }
    check(rc, "list series");
    return out;
}

std::vector<Point> Store::points(int64_t series, int64_t after_step) {
    sqlite3_stmt* st = prepare("SELECT step, value FROM points WHERE series_id=? AND step>? ORDER BY step");
    sqlite3_bind_int64(st, 1, series);
    sqlite3_bind_int64(st, 2, after_step);
    std::vector<Point> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(st, 0),
                       sqlite3_column_type(st, 1) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, 1)});
    check(rc, "read points");
    return out;
}

std::vector<Distribution> Store::distributions(int64_t run, const std::string& name, int64_t after_step) {
    sqlite3_stmt* st = prepare(
        "SELECT name, layer, step, count, min, q1, median, q3, max, mean, std, hist_lo, hist_hi, hist"
        " FROM distributions WHERE run_id=? AND (?='' OR name=?) AND step>? ORDER BY name, layer, step");
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_text(st, 2, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, after_step);
    std::vector<Distribution> out;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        Distribution d;
        d.name = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
        d.layer = sqlite3_column_int(st, 1);
        d.step = sqlite3_column_int64(st, 2);
        d.count = sqlite3_column_int64(st, 3);
        double* vals[] = {&d.min, &d.q1, &d.median, &d.q3, &d.max, &d.mean, &d.std, &d.hist_lo, &d.hist_hi};
        for (int i = 0; i < 9; ++i)
            *vals[i] = sqlite3_column_type(st, 4 + i) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, 4 + i);
        const int bytes = sqlite3_column_bytes(st, 13);
        d.hist.resize(static_cast<size_t>(bytes) / sizeof(float));
        if (bytes > 0) std::memcpy(d.hist.data(), sqlite3_column_blob(st, 13), d.hist.size() * sizeof(float));
        out.push_back(std::move(d));
    }
    check(rc, "read distributions");
    return out;
}

void Store::write_batch(const std::vector<PointRow>& points, const std::vector<std::pair<int64_t, Distribution>>& dists) {
    if (points.empty() && dists.empty()) return;
    Transaction tx(*this);
    sqlite3_stmt* st = prepare("INSERT OR REPLACE INTO points(series_id, step, value) VALUES(?,?,?)");
    for (const auto& p : points) {
        sqlite3_bind_int64(st, 1, p.series);
        sqlite3_bind_int64(st, 2, p.step);
        if (std::isnan(p.value)) sqlite3_bind_null(st, 3);
        else sqlite3_bind_double(st, 3, p.value);
        check(sqlite3_step(st), "write points");
        sqlite3_reset(st);
    }
    sqlite3_stmt* ds = prepare(
        "INSERT OR REPLACE INTO distributions(run_id, name, layer, step, count, min, q1, median, q3, max, mean, std,"
        " hist_lo, hist_hi, hist) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (const auto& [run, d] : dists) {
        sqlite3_bind_int64(ds, 1, run);
        sqlite3_bind_text(ds, 2, d.name.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(ds, 3, d.layer);
        sqlite3_bind_int64(ds, 4, d.step);
        sqlite3_bind_int64(ds, 5, d.count);
        const double vals[] = {d.min, d.q1, d.median, d.q3, d.max, d.mean, d.std, d.hist_lo, d.hist_hi};
        for (int i = 0; i < 9; ++i) {
            if (std::isnan(vals[i])) sqlite3_bind_null(ds, 6 + i);
            else sqlite3_bind_double(ds, 6 + i, vals[i]);
        }
        sqlite3_bind_blob(ds, 15, d.hist.data(), static_cast<int>(d.hist.size() * sizeof(float)), SQLITE_TRANSIENT);
        check(sqlite3_step(ds), "write distribution");
        sqlite3_reset(ds);
    }
    tx.commit();
}

Store::Transaction::Transaction(Store& s) : store_(s) { store_.exec("BEGIN IMMEDIATE"); }
Store::Transaction::~Transaction() {
    if (!done_) sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
}
void Store::Transaction::commit() {
    store_.exec("COMMIT");
    done_ = true;
}

// ---- RunWriter --------------------------------------------------------------
RunWriter::RunWriter(Store& store, int64_t run, double flush_seconds)
    : store_(store), run_(run), flush_seconds_(flush_seconds), last_flush_(now_seconds()) {}

RunWriter::~RunWriter() {
    try {
        flush();
    } catch (...) {
        // never throw from a destructor; the caller flushes explicitly to see errors
    }
}

int64_t RunWriter::id_for(const std::string& name, int layer) {
    auto key = std::make_pair(name, layer);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const int64_t id = store_.series_id(run_, name, layer);
    ids_[key] = id;
    return id;
}

void RunWriter::scalar(const std::string& name, int64_t step, double value) { layer(name, -1, step, value); }

void RunWriter::layer(const std::string& name, int layer, int64_t step, double value) {
    points_.push_back({id_for(name, layer), step, value});
}

void RunWriter::distribution(Distribution d) { dists_.emplace_back(run_, std::move(d)); }

void RunWriter::maybe_flush() {
    if (now_seconds() - last_flush_ >= flush_seconds_) flush();
}

void RunWriter::flush() {
    store_.write_batch(points_, dists_);
    points_.clear();
    dists_.clear();
    last_flush_ = now_seconds();
}

}  // namespace normlab
