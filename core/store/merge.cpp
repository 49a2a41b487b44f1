// NormLab core: merging run stores (see Store::merge_from in store.h). A
// sweep's array tasks each train into a store of their own (SQLite must not
// be shared over a network file system); merging brings them into one.
#include "core/store/store.h"

#include "core/errors.h"
#include "core/palette.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A run's identity across stores: its creation time (to the microsecond),
// seed and configuration, none of which changes after it is created.
std::string identity(double created_at, uint64_t seed, const json& config) {
    char t[64];
    std::snprintf(t, sizeof t, "%.6f/%llu/", created_at, static_cast<unsigned long long>(seed));
    return t + config.dump();
}

bool ended(RunStatus s) { return s != RunStatus::Queued && s != RunStatus::Running && s != RunStatus::Interrupted; }

}  // namespace

void Store::require_sound(const std::string& merge_target) {
    sqlite3_stmt* qc = nullptr;
    sqlite3_prepare_v2(db_, "PRAGMA quick_check", -1, &qc, nullptr);
    std::string problems;
    int n = 0, rc;
    while ((rc = sqlite3_step(qc)) == SQLITE_ROW) {
        const char* t = reinterpret_cast<const char*>(sqlite3_column_text(qc, 0));
        const std::string line = t ? t : "";
        if (line == "ok") continue;
        if (n++ < 3) problems += (problems.empty() ? "" : "; ") + line;
    }
    if (rc != SQLITE_DONE && problems.empty()) problems = sqlite3_errmsg(db_);
    sqlite3_finalize(qc);
    if (n > 3) problems += "; and " + std::to_string(n - 3) + " more";
    if (!problems.empty())
        throw StoreError(path_ + " is damaged (SQLite's integrity check: " + problems + "); nothing was merged and " +
                         merge_target + " was not touched. Merge a good copy of it.");
}

Store::MergeReport Store::merge_from(const std::string& source, bool checked, const std::atomic<bool>* stop,
                                      const std::function<void(int64_t, int64_t)>& progress) {
    if (read_only()) throw StoreError(path_ + " is open read-only; runs cannot be merged into it");
    check_still_there();
    std::error_code ec;
    if (fs::exists(source, ec) && fs::exists(path_, ec) && fs::equivalent(source, path_, ec))
        throw StoreError(source + " is the store being merged into; name another file with --into");
    if (!fs::exists(source, ec)) throw StoreError(source + " does not exist; nothing was merged");
    Store src(source, Mode::ReadOnly);
    // A damaged source would silently yield fewer rows: refuse it whole.
    if (!checked) src.require_sound(path_);
    // Every row read from the source, or an error: a read that stops early is never taken for the end.
    auto next = [&src](sqlite3_stmt* q, const char* what) {
        const int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW) return true;
        if (rc != SQLITE_DONE)
            throw StoreError(src.path_ + ": " + what + ": " + sqlite3_errmsg(src.db_) + "; nothing was merged", rc);
        return false;
    };

    // Stopped: every statement of either store fails (SQLITE_INTERRUPT), the transaction rolls
    // back and the checkpoint files copied so far are removed (orphans).
    store_detail::interrupt_on(src.db_, stop);
    store_detail::interrupt_on(db_, stop);
    struct Unhandle {
        sqlite3* db;
        ~Unhandle() { store_detail::interrupt_on(db, nullptr); }
    } unhandle{db_};
    auto check_stop = [&] {
        if (stop && stop->load())
            throw StoreError("merging " + source + " was stopped; nothing of it was merged", SQLITE_INTERRUPT);
    };

    // The source's series a run, for progress: a run found here already counts as merged at once.
    std::map<int64_t, int64_t> series_of;
    int64_t series_total = 0, series_done = 0;
    if (progress) {
        sqlite3_stmt* c = src.prepare("SELECT run_id, COUNT(*) FROM series GROUP BY run_id");
        while (next(c, "count the series")) series_total += series_of[sqlite3_column_int64(c, 0)] = sqlite3_column_int64(c, 1);
        sqlite3_reset(c);
    }
    auto advance = [&](int64_t n) {
        series_done += n;
        if (progress) progress(series_done, series_total);
    };

    MergeReport report;
    std::map<std::string, RunInfo> here;
    for (auto& r : runs()) here.emplace(identity(r.created_at, r.seed, r.config), r);
    const fs::path ckpt_dir = fs::path(path_ + ".checkpoints");

    Transaction tx(*this);
    std::map<int64_t, int64_t> experiments;   // source id → id here
    auto experiment_here = [&](int64_t src_id) -> int64_t {
        if (src_id <= 0) return 0;
        if (auto it = experiments.find(src_id); it != experiments.end()) return it->second;
        sqlite3_stmt* q = src.prepare("SELECT name, file, spec, created_at FROM experiments WHERE id=?");
        sqlite3_bind_int64(q, 1, src_id);
        int64_t id = 0;
        if (next(q, "read an experiment")) {
            // The same experiment (name, file, spec) is one row here: a sweep's
            // tasks each record it in their own store.
            sqlite3_stmt* f = prepare("SELECT id FROM experiments WHERE name=? AND file=? AND spec=? ORDER BY id LIMIT 1");
            for (int i = 0; i < 3; ++i) sqlite3_bind_value(f, i + 1, sqlite3_column_value(q, i));
            if (sqlite3_step(f) == SQLITE_ROW) id = sqlite3_column_int64(f, 0);
            sqlite3_reset(f);
            if (id == 0) {
                sqlite3_stmt* ins = prepare("INSERT INTO experiments(name, file, spec, created_at) VALUES(?,?,?,?)");
                for (int i = 0; i < 4; ++i) sqlite3_bind_value(ins, i + 1, sqlite3_column_value(q, i));
                check(sqlite3_step(ins), "merge an experiment");
                sqlite3_reset(ins);
                id = sqlite3_last_insert_rowid(db_);
            }
        }
        sqlite3_reset(q);
        experiments[src_id] = id;
        return id;
    };

    // The columns both stores have (a source of an older schema lacks some).
    auto columns = [](sqlite3* db) {
        std::set<std::string> out;
        sqlite3_stmt* st = nullptr;
        sqlite3_prepare_v2(db, "PRAGMA table_info(runs)", -1, &st, nullptr);
        while (sqlite3_step(st) == SQLITE_ROW) out.insert(store_detail::column_string(st, 1));
        sqlite3_finalize(st);
        return out;
    };
    const std::set<std::string> mine = columns(db_);
    // Copied from the source; user annotations (name, notes, tags, colour) only for a new run.
    static const std::set<std::string> kAnnotations{"name", "notes", "tags", "color"};
    std::vector<std::string> copied;
    for (auto& c : columns(src.db_))
        if (mine.count(c) && c != "id" && c != "experiment_id" && c != "checkpoint") copied.push_back(c);

    // Checkpoint copies this merge made, removed again if it does not commit.
    std::vector<fs::path> copied_files;
    struct Orphans {
        std::vector<fs::path>& files;
        bool keep = false;
        ~Orphans() {
            std::error_code e;
            if (!keep)
                for (auto& f : files) fs::remove(f, e);
        }
    } orphans{copied_files};
    for (const RunInfo& r : src.runs()) {
        const std::string key = identity(r.created_at, r.seed, r.config);
        int64_t id = 0;
        bool fresh = true;
        if (auto it = here.find(key); it != here.end()) {
            const RunInfo& h = it->second;
            const bool further = r.steps_done > h.steps_done || (ended(r.status) && !ended(h.status));
            if (!further) {
                ++report.unchanged;
                advance(series_of[r.id]);
                continue;
            }
            if (h.status == RunStatus::Running)
                throw StoreError("run " + std::to_string(h.id) + " of " + path_ + " (\"" + h.name + "\") is being trained"
                                 " here; merge again when it has ended. Nothing was merged");
            id = h.id;
            fresh = false;
        }
        // The run's row, column by column from the source.
        std::string cols, marks;
        std::vector<std::string> use;
        for (auto& c : copied)
            if (fresh || !kAnnotations.count(c)) use.push_back(c);
        std::string select;
        for (auto& c : use) select += (select.empty() ? "" : ", ") + c;
        sqlite3_stmt* q = src.prepare("SELECT " + select + " FROM runs WHERE id=?");
        sqlite3_bind_int64(q, 1, r.id);
        if (!next(q, "read a source run")) throw StoreError(source + ": run " + std::to_string(r.id) + " vanished while it was merged");
        std::string sql;
        if (fresh) {
            std::string m;
            for (size_t i = 0; i < use.size(); ++i) m += (i ? ",?" : "?");
            sql = "INSERT INTO runs(id, " + select + ", experiment_id, checkpoint) VALUES(" + store_detail::kNextRunId + ", " +
                  m + ",?,'')";
        } else {
            for (auto& c : use) sql += (sql.empty() ? "" : ", ") + c + "=?";
            sql = "UPDATE runs SET " + sql + ", experiment_id=?, checkpoint='' WHERE id=?";
        }
        sqlite3_stmt* w = prepare(sql);
        for (size_t i = 0; i < use.size(); ++i) sqlite3_bind_value(w, static_cast<int>(i + 1), sqlite3_column_value(q, static_cast<int>(i)));
        const int64_t exp = experiment_here(r.experiment_id);
        if (exp > 0) sqlite3_bind_int64(w, static_cast<int>(use.size() + 1), exp);
        else sqlite3_bind_null(w, static_cast<int>(use.size() + 1));
        if (!fresh) sqlite3_bind_int64(w, static_cast<int>(use.size() + 2), id);
        check(sqlite3_step(w), "merge a run");
        sqlite3_reset(w);
        sqlite3_reset(q);
        if (r.status == RunStatus::Running) {
            // Still training in the source: the copy is a snapshot, not a run
            // being trained here. A later merge brings it up to date.
            sqlite3_stmt* live = prepare("UPDATE runs SET status='interrupted', pid=0, message=? WHERE id=?");
            const std::string why = "a copy merged from " + src.path_ + " while it was still training there (at step " +
                                    std::to_string(r.steps_done) + "); merge again to bring it up to date";
            sqlite3_bind_text(live, 1, why.c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_int64(live, 2, fresh ? sqlite3_last_insert_rowid(db_) : id);
            check(sqlite3_step(live), "mark a live copy");
            sqlite3_reset(live);
        }
        if (fresh) {
            id = sqlite3_last_insert_rowid(db_);
            // The source's default colour is its id's: here the run gets its new id's, so that
            // runs merged from many task stores (each run 1 there) do not all share one colour.
            // A colour chosen by the user is kept.
            if (r.color == default_run_color(r.id)) set_run_color(id, default_run_color(id));
        } else {
            // The source's data replaces what an earlier merge brought.
            for (const char* d : {"DELETE FROM points WHERE series_id IN (SELECT id FROM series WHERE run_id=?)",
                                  "DELETE FROM series WHERE run_id=?", "DELETE FROM distributions WHERE run_id=?"}) {
                sqlite3_stmt* del = prepare(d);
                sqlite3_bind_int64(del, 1, id);
                check(sqlite3_step(del), "replace a merged run's data");
                sqlite3_reset(del);
            }
            series_cache_.clear();
        }
        // Series and their points.
        sqlite3_stmt* sq = src.prepare("SELECT id, name, layer FROM series WHERE run_id=?");
        sqlite3_bind_int64(sq, 1, r.id);
        std::vector<std::tuple<int64_t, std::string, int>> ser;
        while (next(sq, "read a run's series"))
            ser.emplace_back(sqlite3_column_int64(sq, 0), store_detail::column_string(sq, 1),
                             sqlite3_column_int(sq, 2));
        sqlite3_reset(sq);
        for (auto& [sid, name, layer] : ser) {
            sqlite3_stmt* ins = prepare("INSERT INTO series(run_id, name, layer) VALUES(?,?,?)");
            sqlite3_bind_int64(ins, 1, id);
            sqlite3_bind_text(ins, 2, name.c_str(), -1, SQLITE_TRANSIENT);
            sqlite3_bind_int(ins, 3, layer);
            check(sqlite3_step(ins), "merge a series");
            sqlite3_reset(ins);
            const int64_t nid = sqlite3_last_insert_rowid(db_);
            sqlite3_stmt* pq = src.prepare("SELECT step, value FROM points WHERE series_id=?");
            sqlite3_bind_int64(pq, 1, sid);
            sqlite3_stmt* pi = prepare("INSERT INTO points(series_id, step, value) VALUES(?,?,?)");
            while (next(pq, "read points")) {
                sqlite3_bind_int64(pi, 1, nid);
                sqlite3_bind_value(pi, 2, sqlite3_column_value(pq, 0));
                sqlite3_bind_value(pi, 3, sqlite3_column_value(pq, 1));
                check(sqlite3_step(pi), "merge points");
                sqlite3_reset(pi);
            }
            sqlite3_reset(pq);
            advance(1);
        }
        // Distributions, every column.
        sqlite3_stmt* dq = src.prepare("SELECT name, layer, step, count, min, q1, median, q3, max, mean, std, hist_lo,"
                                       " hist_hi, hist FROM distributions WHERE run_id=?");
        sqlite3_bind_int64(dq, 1, r.id);
        sqlite3_stmt* di = prepare("INSERT INTO distributions(run_id, name, layer, step, count, min, q1, median, q3, max,"
                                   " mean, std, hist_lo, hist_hi, hist) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
        while (next(dq, "read distributions")) {
            sqlite3_bind_int64(di, 1, id);
            for (int i = 0; i < 14; ++i) sqlite3_bind_value(di, i + 2, sqlite3_column_value(dq, i));
            check(sqlite3_step(di), "merge distributions");
            sqlite3_reset(di);
        }
        sqlite3_reset(dq);
        // The checkpoint file, copied beside this store under this run's id.
        check_stop();
        if (!r.checkpoint.empty()) {
            const fs::path from(r.checkpoint);
            std::string step = std::to_string(r.steps_done);
            const std::string name = from.filename().string();
            if (auto at = name.rfind("-step-"); at != std::string::npos) step = name.substr(at + 6, name.size() - at - 9);
            const fs::path to = ckpt_dir / ("run-" + std::to_string(id) + "-step-" + step + ".pt");
            std::error_code cec;
            fs::create_directories(ckpt_dir, cec);
            const bool existed = fs::exists(to, cec);
            if (fs::exists(from, cec) && fs::copy_file(from, to, fs::copy_options::overwrite_existing, cec)) {
                if (!existed) copied_files.push_back(to);
                set_checkpoint(id, to.string());
            } else {
                report.warnings.push_back("run \"" + r.name + "\": its checkpoint " + from.string() +
                                          " could not be copied (" + (cec ? cec.message() : "missing") +
                                          "); it can be exported and plotted, not resumed");
            }
        }
        if (fresh) ++report.added;
        else ++report.updated;
    }
    check_stop();
    tx.commit();
    orphans.keep = true;
    return report;
}

}  // namespace normlab
