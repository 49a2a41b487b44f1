// NormLab core: the SQLite run store (see store.h).
#include "core/store/store.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/palette.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <unordered_map>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;
using namespace store_detail;

double now_seconds() {
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    return 1.8e9;  // a fixed clock for fuzzing (see host_name in store_open.cpp)
#else
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
#endif
}

namespace {

const char* kStatusNames[] = {"queued", "running", "finished", "diverged", "failed", "cancelled", "interrupted", "unknown"};

}  // namespace

std::string status_name(RunStatus s) { return kStatusNames[static_cast<int>(s)]; }
RunStatus parse_status(const std::string& s) {
    for (int i = 0; i < 7; ++i)
        if (s == kStatusNames[i]) return static_cast<RunStatus>(i);
    throw StoreError("unknown run status \"" + s + "\"");
}
bool resumable(RunStatus s) {
    return s == RunStatus::Queued || s == RunStatus::Cancelled || s == RunStatus::Interrupted ||
           s == RunStatus::Failed;
}

int64_t Store::add_experiment(const std::string& name, const std::string& file, const json& spec) {
    check_still_there();
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
    require_safe_name("name", name);
    for (auto& tag : tags) require_safe_name("tags", tag);
    check_still_there();
    sqlite3_stmt* st = prepare(
        std::string("INSERT INTO runs(id, experiment_id, name, scheme, config, status, created_at, seed, tags) VALUES(") +
        kNextRunId + ", ?,?,?,?, 'queued', ?,?,?)");
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
    const int64_t id = sqlite3_last_insert_rowid(db_);
    set_run_color(id, default_run_color(id));
    return id;
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
    const std::string stored = stored_checkpoint(path);
    sqlite3_bind_text(st, 1, stored.c_str(), -1, SQLITE_TRANSIENT);
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

// A user's edit of a run that another process deleted meanwhile is said, not silently dropped.
void Store::require_changed(int64_t run) const {
    if (sqlite3_changes(db_) == 0)
        throw StoreError("run " + std::to_string(run) + " is no longer in " + path_ +
                         " (deleted meanwhile, by another window or normlab-cli delete); nothing was changed");
}

void Store::rename_run(int64_t run, const std::string& name) {
    if (name.empty()) throw StoreError("a run name cannot be empty");
    if (auto bad = unsafe_name_character(name); !bad.empty())
        throw StoreError("the run name holds " + bad + "; names may hold no control or text-direction characters");
    check_still_there();
    sqlite3_stmt* st = prepare("UPDATE runs SET name=? WHERE id=?");
    sqlite3_bind_text(st, 1, name.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "rename run");
    require_changed(run);
}

void Store::set_tags(int64_t run, const std::vector<std::string>& tags) {
    for (auto& tag : tags)
        if (auto bad = unsafe_name_character(tag); !bad.empty())
            throw StoreError("the tag \"" + printable_name(tag) + "\" holds " + bad + "; tags may hold no control or text-direction characters");
    check_still_there();
    sqlite3_stmt* st = prepare("UPDATE runs SET tags=? WHERE id=?");
    const std::string t = json(tags).dump();
    sqlite3_bind_text(st, 1, t.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set tags");
    require_changed(run);
}

void Store::set_notes(int64_t run, const std::string& notes) {
    check_still_there();
    sqlite3_stmt* st = prepare("UPDATE runs SET notes=? WHERE id=?");
    sqlite3_bind_text(st, 1, notes.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set notes");
    require_changed(run);
}

void Store::set_run_color(int64_t run, const std::string& color) {
    if (!color.empty() && !is_hex_color(color))
        throw ConfigError("color", "\"" + color + "\" is not a colour; write it as #rrggbb, e.g. #4e79a7");
    const std::string c = color.empty() ? default_run_color(run) : color;
    check_still_there();
    sqlite3_stmt* st = prepare("UPDATE runs SET color=? WHERE id=?");
    sqlite3_bind_text(st, 1, c.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, run);
    check(sqlite3_step(st), "set colour");
    require_changed(run);
}

void Store::truncate_for_resume(int64_t run, int64_t step) {
    Transaction tx(*this);
    for (const char* sql : {"DELETE FROM points WHERE series_id IN (SELECT id FROM series WHERE run_id=?2) AND"
                            " (step>?1 OR (step=?1 AND series_id NOT IN"
                            "  (SELECT id FROM series WHERE run_id=?2 AND name='val/loss')))",
                            "DELETE FROM distributions WHERE step>=?1 AND run_id=?2"}) {
        sqlite3_stmt* st = prepare(sql);
        sqlite3_bind_int64(st, 1, step);
        sqlite3_bind_int64(st, 2, run);
        check(sqlite3_step(st), "truncate run");
    }
    tx.commit();
}

// An immutable connection reads the file without locks (store_connection.cpp):
// a writer that starts, folds its log into the file or compacts it while a read
// runs changes pages under that read, which then returns rows of neither state
// (measured: a count that was never the store's) or fails as malformed. So a
// read that saw the store written meanwhile is read again, from a connection
// opened again; one that throws meanwhile too.
template <class Read>
auto Store::read_fresh(Read&& read) -> decltype(read()) {
    for (int attempt = 0;; ++attempt) {
        reopen_if_written();
        if (!immutable_) return read();
        try {
            auto out = read();
            if (!written_since_opened()) return out;
        } catch (const std::exception&) {
            if (!written_since_opened()) throw;
        }
        if (attempt == 8)
            throw StoreError(path_ + " was written during each of 9 reads of it; try again when its writer is idle",
                             SQLITE_BUSY);
    }
}

std::vector<RunInfo> Store::runs(const std::vector<RunInfo*>& reuse) {
    std::vector<RunJsonText> json;
    std::vector<RunInfo> out = read_fresh([&] {
        sqlite3_stmt* st = prepare("SELECT " + run_columns() + " FROM runs ORDER BY id");
        std::vector<RunInfo> rows;
        json.clear();
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) rows.push_back(read_run(st, json.emplace_back()));
        check(rc, "list runs");
        return rows;
    });
    std::unordered_map<int64_t, RunInfo*> before;   // only now, the read done: a read retried takes nothing twice
    for (RunInfo* r : reuse)
        if (r && r->json_digest != 0) before.emplace(r->id, r);
    for (size_t i = 0; i < out.size(); ++i) {
        const auto it = before.find(out[i].id);
        parse_run_json(out[i], json[i], it == before.end() ? nullptr : it->second);
    }
    return out;
}

std::optional<RunInfo> Store::run(int64_t id) {
    RunJsonText json;
    std::optional<RunInfo> out = read_fresh([&]() -> std::optional<RunInfo> {
        sqlite3_stmt* st = prepare("SELECT " + run_columns() + " FROM runs WHERE id=?");
        sqlite3_bind_int64(st, 1, id);
        int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            RunInfo r = read_run(st, json);
            sqlite3_reset(st);
            return r;
        }
        check(rc, "read run");
        return std::nullopt;
    });
    if (out) parse_run_json(*out, json, nullptr);
    return out;
}

std::vector<std::pair<int64_t, RunStatus>> Store::statuses() {
    return read_fresh([&] {
        sqlite3_stmt* st = prepare("SELECT id, status FROM runs ORDER BY id");
        std::vector<std::pair<int64_t, RunStatus>> out;
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const int64_t id = sqlite3_column_int64(st, 0);
            const RunStatus stored = stored_status(column_string(st, 1));
            out.emplace_back(id, shown_interrupted(id, stored) ? RunStatus::Interrupted : stored);
        }
        check(rc, "list run statuses");
        return out;
    });
}

RunInfo Store::find_run(const std::string& key) {
    // "id:N" is an id and "name:X" a name, whatever they look like (or a run literally named so,
    // where none is found that way); a bare number is an id, or the name of a run where no run has
    // that id; both at once are refused, naming the ids that tell them apart.
    const auto is_id = [](const std::string& k) {
        return !k.empty() && k.size() <= 18 && std::all_of(k.begin(), k.end(), [](char c) { return c >= '0' && c <= '9'; });
    };
    std::optional<std::vector<RunInfo>> all;   // read once, where a name is looked up
    const auto named = [&](const std::string& name) {
        if (!all) all = runs();
        std::vector<RunInfo> hits;
        for (auto& r : *all)
            if (r.name == name) hits.push_back(r);
        return hits;
    };
    const auto say = [](const std::vector<RunInfo>& rs) {   // "id:3, id:5 or id:7"
        std::string s;
        for (size_t i = 0; i < rs.size(); ++i)
            s += (i == 0 ? "say id:" : i + 1 == rs.size() ? " or id:" : ", id:") + std::to_string(rs[i].id);
        return s;
    };
    const bool forced_id = key.rfind("id:", 0) == 0, forced_name = key.rfind("name:", 0) == 0;
    const std::string k = forced_id ? key.substr(3) : forced_name ? key.substr(5) : key;
    const std::string shown_key = printable_name(key), shown = printable_name(k);   // as given, never raw on a terminal
    std::vector<RunInfo> hits;
    if (forced_id || (!forced_name && is_id(k))) {
        const auto by_id = is_id(k) ? run(std::stoll(k)) : std::nullopt;
        hits = named(forced_id ? key : k);
        if (by_id && hits.empty()) return *by_id;
        if (by_id) {
            const std::string what = hits.size() == 1 ? "the name of run " + std::to_string(hits[0].id)
                                                      : "the name of " + std::to_string(hits.size()) + " runs";
            hits.insert(hits.begin(), *by_id);
            throw StoreError("\"" + shown_key + "\" is run " + k + "'s id and " + what + "; " + say(hits));
        }
        if (hits.empty() && forced_id && !is_id(k))
            throw StoreError("\"" + shown_key + "\" is not a run id: id: takes the number in the # column of 'normlab-cli list'");
        if (hits.empty()) throw StoreError("no run with id " + k + " in " + path_ + "; 'normlab-cli list' shows the runs");
    } else {
        hits = named(k);
        if (hits.empty() && forced_name) hits = named(key);
        if (hits.empty()) throw StoreError("no run named \"" + shown + "\" in " + path_ + "; 'normlab-cli list' shows the runs");
    }
    if (hits.size() == 1) return hits[0];
    throw StoreError(std::to_string(hits.size()) + " runs are named \"" + (forced_id ? shown_key : shown) + "\"; " + say(hits));
}

int64_t Store::series_id(int64_t run, const std::string& name, int layer) {
    auto key = std::make_pair(run, std::make_pair(name, layer));
    if (auto it = series_cache_.find(key); it != series_cache_.end()) return it->second;
    if (mode_ == Mode::ReadWrite) {
        // never for a run that is not there (deleted while its trainer or follower still writes)
        sqlite3_stmt* ins = prepare("INSERT OR IGNORE INTO series(run_id, name, layer) SELECT ?1, ?2, ?3"
                                    " WHERE EXISTS(SELECT 1 FROM runs WHERE id=?1)");
        sqlite3_bind_int64(ins, 1, run);
        sqlite3_bind_text(ins, 2, name.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(ins, 3, layer);
        check(sqlite3_step(ins), "create series");
    }
    auto find = [&]() -> int64_t {
        sqlite3_stmt* st = prepare("SELECT id FROM series WHERE run_id=? AND name=? AND layer=?");
        sqlite3_bind_int64(st, 1, run);
        sqlite3_bind_text(st, 2, name.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, layer);
        const int rc = sqlite3_step(st);
        check(rc, "find series");
        if (rc != SQLITE_ROW) return 0;      // read-only and absent: no points
        const int64_t id = sqlite3_column_int64(st, 0);
        sqlite3_reset(st);
        return id;
    };
    const int64_t id = mode_ == Mode::ReadOnly ? read_fresh(find) : find();
    if (id != 0) series_cache_[key] = id;
    return id;
}

std::vector<SeriesInfo> Store::series(int64_t run, bool with_counts) {
    return read_fresh([&] {
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
            s.name = store_detail::column_string(st, 1);
            s.layer = sqlite3_column_int(st, 2);
            s.count = sqlite3_column_int64(st, 3);
            s.last_step = sqlite3_column_type(st, 4) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 4);
            out.push_back(s);
        }
        check(rc, "list series");
        return out;
    });
}

std::vector<Point> Store::points(int64_t series, int64_t after_step) {
    return read_fresh([&] {
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
    });
}

std::optional<Point> Store::last_point(int64_t run, const std::string& name, int layer) {
    return read_fresh([&]() -> std::optional<Point> {
        sqlite3_stmt* st = prepare(
            "SELECT p.step, p.value FROM series s JOIN points p ON p.series_id = s.id"
            " WHERE s.run_id=? AND s.name=? AND s.layer=? AND p.value IS NOT NULL ORDER BY p.step DESC LIMIT 1");
        sqlite3_bind_int64(st, 1, run);
        sqlite3_bind_text(st, 2, name.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int(st, 3, layer);
        const int rc = sqlite3_step(st);
        if (rc == SQLITE_ROW) {
            const Point p{sqlite3_column_int64(st, 0), sqlite3_column_double(st, 1)};
            sqlite3_reset(st);
            return p;
        }
        check(rc, "read the last point");
        return std::nullopt;
    });
}

std::vector<Distribution> Store::distributions(int64_t run, const std::string& name, int64_t after_step) {
    return read_fresh([&] {
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
            d.name = store_detail::column_string(st, 0);
            d.layer = sqlite3_column_int(st, 1);
            d.step = sqlite3_column_int64(st, 2);
            d.count = sqlite3_column_int64(st, 3);
            double* vals[] = {&d.min, &d.q1, &d.median, &d.q3, &d.max, &d.mean, &d.std, &d.hist_lo, &d.hist_hi};
            for (int i = 0; i < 9; ++i)
                *vals[i] = sqlite3_column_type(st, 4 + i) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, 4 + i);
            d.hist = store_detail::column_floats(st, 13);
            out.push_back(std::move(d));
        }
        check(rc, "read distributions");
        return out;
    });
}

void Store::write_batch(const std::vector<PointRow>& points, const std::vector<std::pair<int64_t, Distribution>>& dists,
                        int64_t run_id, const std::string* checkpoint, int64_t checkpoint_step) {
    if (points.empty() && dists.empty() && !checkpoint) return;
    check_still_there();
    Transaction tx(*this);
    if (run_id != 0) {   // a run deleted while it trains gets no more rows (its series ids may be another's now)
        sqlite3_stmt* e = prepare("SELECT 1 FROM runs WHERE id=?");
        sqlite3_bind_int64(e, 1, run_id);
        const int rc = sqlite3_step(e);
        sqlite3_reset(e);
        if (rc != SQLITE_ROW) {
            check(rc, "find the run");
            throw StoreError("run " + std::to_string(run_id) + " is no longer in " + path_ +
                             ": it was deleted while it trained, so its latest rows were not written");
        }
    }
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
    if (checkpoint) {
        sqlite3_stmt* c = prepare("UPDATE runs SET checkpoint=?, steps_done=?, heartbeat=? WHERE id=?");
        const std::string stored = stored_checkpoint(*checkpoint);
        sqlite3_bind_text(c, 1, stored.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(c, 2, checkpoint_step);
        sqlite3_bind_double(c, 3, now_seconds());
        sqlite3_bind_int64(c, 4, run_id);
        check(sqlite3_step(c), "record checkpoint");
    }
    tx.commit();
}

Store::ReadSnapshot::ReadSnapshot(Store& s) : store_(s) {
    store_.reopen_if_written();
    store_.exec("BEGIN");
    store_.in_snapshot_ = true;
}
Store::ReadSnapshot::~ReadSnapshot() {
    store_.in_snapshot_ = false;
    sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

Store::Transaction::Transaction(Store& s) : store_(s) { store_.exec("BEGIN IMMEDIATE"); }
Store::Transaction::~Transaction() {
    if (done_) return;
    sqlite3_exec(store_.db_, "ROLLBACK", nullptr, nullptr, nullptr);
    // Series created inside are gone, and their ids free for the next insert:
    // a cached one would send a later point to whichever series takes it.
    store_.series_cache_.clear();
}
void Store::Transaction::commit() {
    store_.exec("COMMIT");
    done_ = true;
}

}  // namespace normlab
