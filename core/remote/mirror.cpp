// NormLab core: applying the follow stream to a local store (see mirror.h).
#include "core/remote/mirror.h"

#include "core/json_input.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/palette.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <cmath>
#include <cstring>

namespace normlab {
using nlohmann::json;

namespace {

double number(const json& v) { return v.is_number() ? v.get<double>() : std::nan(""); }

void bind_number(sqlite3_stmt* st, int i, const json& v) {
    if (v.is_number() && std::isfinite(v.get<double>())) sqlite3_bind_double(st, i, v.get<double>());
    else sqlite3_bind_null(st, i);
}

void bind_text(sqlite3_stmt* st, int i, const std::string& s) { sqlite3_bind_text(st, i, s.c_str(), -1, SQLITE_TRANSIENT); }

}  // namespace

RemoteRef remote_ref(const RunInfo& r) {
    RemoteRef ref;
    if (!r.info.is_object() || !r.info.contains("remote") || !r.info["remote"].is_object()) return ref;
    // Read only as the types the mirror writes (a store edited by hand must not throw out of the run
    // table, which asks this of every run it shows).
    const json& m = r.info["remote"];
    ref.dest = string_field(m, "dest");
    ref.store = string_field(m, "store");
    ref.cli = string_field(m, "cli");
    ref.sweep = string_field(m, "sweep");
    ref.run = int_field(m, "run");
    return ref;
}

Mirror::Mirror(Store& local, std::string dest, std::string cli) : s_(local), dest_(std::move(dest)), cli_(std::move(cli)) {}

void Mirror::hello(const std::string& line) {
    try {
        read_hello(line);
    } catch (const json::exception& e) {
        throw RemoteError(std::string("the server's stream hello has a value of the wrong type (") + e.what() +
                          "): install the same NormLab version on both sides");
    }
}

void Mirror::read_hello(const std::string& line) {
    json j;
    try {
        j = json::parse(line);
    } catch (const std::exception&) {
        throw RemoteError("the server's first line is not NormLab's stream (\"" + printable_name(line.substr(0, 80)) +
                          "\"): is the remote command normlab-cli, and does the login shell print nothing?");
    }
    if (j.is_object() && j.value("t", "") == "error") throw RemoteError(j.value("message", "the server refused the stream"));
    if (!j.is_object() || j.value("t", "") != "hello" || !j.contains("protocol"))
        throw RemoteError("the server's first line is not NormLab's stream hello: " + printable_name(line.substr(0, 80)));
    const int protocol = j.value("protocol", 0);
    if (protocol != kStreamProtocol)
        throw RemoteError("the server's NormLab " + j.value("normlab", std::string("?")) + " speaks stream protocol " +
                          std::to_string(protocol) + "; this one speaks " + std::to_string(kStreamProtocol) +
                          ": install the same NormLab version on both sides");
    store_ = j.value("store", "");
    sweep_ = j.value("sweep", false);
    task_stores_.clear();
    if (sweep_ && j.contains("stores") && j["stores"].is_array())
        for (auto& p : j["stores"])
            if (p.is_string()) task_stores_.push_back(p.get<std::string>());
    host_ = j.value("host", "");
    version_ = j.value("normlab", "");
}

int64_t Mirror::local_id(int64_t remote_run, const std::string& store) {
    const std::string& st = store.empty() ? store_ : store;
    if (auto it = ids_.find({st, remote_run}); it != ids_.end()) return it->second;
    for (const RunInfo& r : s_.runs()) {
        const RemoteRef ref = remote_ref(r);
        if (ref.run == remote_run && ref.dest == dest_ && ref.store == st) return ids_[{st, remote_run}] = r.id;
    }
    return 0;
}

std::vector<int64_t> Mirror::unfinished() {
    std::vector<int64_t> out;
    for (const RunInfo& r : s_.runs()) {
        const RemoteRef ref = remote_ref(r);
        if (ref.run > 0 && ref.dest == dest_ && ref.store == store_ && !follow_ended(r.status)) out.push_back(ref.run);
    }
    return out;
}

RunCursor Mirror::cursor_of(int64_t id) {
    RunCursor c;
    const std::optional<RunInfo> r = s_.run(id);
    if (!r) return c;
    c.writer = r->info["remote"].value("writer", "");
    c.steps = r->steps_done;
    for (const SeriesInfo& si : s_.series(id, true))
        if (si.count > 0) c.series[{si.name, si.layer}] = si.last_step;
    sqlite3_stmt* q = s_.prepare("SELECT name, layer, MAX(step) FROM distributions WHERE run_id=? GROUP BY name, layer");
    sqlite3_bind_int64(q, 1, id);
    while (sqlite3_step(q) == SQLITE_ROW)
        c.dists[{store_detail::column_string(q, 0), sqlite3_column_int(q, 1)}] =
            sqlite3_column_int64(q, 2);
    sqlite3_reset(q);
    return c;
}

StreamRequest Mirror::request(const std::vector<int64_t>& runs) {
    StreamRequest req;
    if (sweep_) {
        // Every task store, all its runs, from what is mirrored of each.
        for (const std::string& path : task_stores_) req.stores[path].all = true;
        for (const RunInfo& r : s_.runs()) {
            const RemoteRef ref = remote_ref(r);
            if (ref.run > 0 && ref.dest == dest_ && req.stores.count(ref.store))
                req.stores[ref.store].have[ref.run] = cursor_of(r.id);
        }
        return req;
    }
    req.runs = runs;
    for (int64_t rid : runs)
        if (const int64_t id = local_id(rid)) req.have[rid] = cursor_of(id);
    return req;
}

Mirror::Got Mirror::apply(const std::string& line) {
    try {
        return read_line(line);
    } catch (const json::exception& e) {
        pending_.clear();
        throw RemoteError(std::string("the server's stream has a malformed message (") + e.what() +
                          "); the mirror keeps every row up to the last complete snapshot");
    }
}

Mirror::Got Mirror::read_line(const std::string& line) {
    json j;
    try {
        j = json::parse(line);
    } catch (const std::exception&) {
        pending_.clear();
        throw RemoteError("the server's stream has a line that is not JSON (\"" + printable_name(line.substr(0, 80)) +
                          "\"); the mirror keeps every row up to the last complete snapshot");
    }
    const std::string t = j.is_object() ? j.value("t", "") : "";
    if (t == "error") {
        pending_.clear();
        throw RemoteError(j.value("message", "the server stopped the stream"));
    }
    if (t == "sync" || t == "end") {
        commit();
        if (t == "end") {
            end_reason_ = j.value("reason", "");
            return Got::Ended;
        }
        return Got::Synced;
    }
    if (t != "run" && t != "reset" && t != "points" && t != "dist") {
        pending_.clear();
        throw RemoteError("the server's stream has a message this NormLab does not know (\"" + printable_name(line.substr(0, 80)) + "\")");
    }
    pending_.push_back(std::move(j));
    return Got::More;
}

// One transaction for a whole snapshot; a malformed message rolls it all back.
void Mirror::commit() {
    if (pending_.empty()) return;
    std::vector<json> batch;
    batch.swap(pending_);
    try {
        commit_batch(batch);
    } catch (...) {
        ids_.clear();   // runs mirrored in the rolled-back snapshot are not in the store
        throw;
    }
}

void Mirror::commit_batch(const std::vector<json>& batch) {
    Store::Transaction tx(s_);
    // A run deleted here since the last snapshot: its id is never another run's,
    // so its messages are dropped, not written under it nor mirrored as a new run
    // from the middle of its stream.
    for (auto it = ids_.begin(); it != ids_.end();) {
        sqlite3_stmt* q = s_.prepare("SELECT 1 FROM runs WHERE id=?");
        sqlite3_bind_int64(q, 1, it->second);
        const int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc == SQLITE_ROW) {
            ++it;
            continue;
        }
        s_.check(rc, "find a mirrored run");
        deleted_.insert(it->first);
        it = ids_.erase(it);
    }
    auto run_of = [&](const json& m, const char* key) {
        const int64_t rid = m.value(key, int64_t{0});
        const int64_t id = local_id(rid, m.value("store", std::string()));
        if (id == 0) throw RemoteError("the server's stream sends rows of run " + std::to_string(rid) + " before the run itself");
        return id;
    };
    // A wrongly typed value throws json::exception: the transaction rolls back
    // and apply() says so as a RemoteError.
    for (const json& m : batch) {
        const std::string t = m.value("t", "");
        const std::string store = m.value("store", std::string());
        if (deleted_.count({store.empty() ? store_ : store, m.value(t == "run" ? "id" : "run", int64_t{0})})) continue;
        if (t == "run") {
            apply_run(m.value("store", store_), m.value("id", int64_t{0}), m.at("row"));
        } else if (t == "reset") {
            const int64_t id = run_of(m, "run");
            for (const char* d : {"DELETE FROM points WHERE series_id IN (SELECT id FROM series WHERE run_id=?)",
                                  "DELETE FROM series WHERE run_id=?", "DELETE FROM distributions WHERE run_id=?"}) {
                sqlite3_stmt* del = s_.prepare(d);
                sqlite3_bind_int64(del, 1, id);
                s_.check(sqlite3_step(del), "reset a mirrored run");
                sqlite3_reset(del);
            }
            s_.series_cache_.clear();
        } else if (t == "points") {
            const int64_t sid = s_.series_id(run_of(m, "run"), m.at("name").get<std::string>(), m.at("layer").get<int>());
            sqlite3_stmt* ins = s_.prepare("INSERT OR REPLACE INTO points(series_id, step, value) VALUES(?,?,?)");
            for (const json& p : m.at("p")) {
                sqlite3_bind_int64(ins, 1, sid);
                sqlite3_bind_int64(ins, 2, p.at(0).get<int64_t>());
                bind_number(ins, 3, p.at(1));
                s_.check(sqlite3_step(ins), "mirror points");
                sqlite3_reset(ins);
                ++rows_;
            }
        } else if (t == "dist") {
            const json& d = m.at("d");
            sqlite3_stmt* ins = s_.prepare(
                "INSERT OR REPLACE INTO distributions(run_id, name, layer, step, count, min, q1, median, q3, max,"
                " mean, std, hist_lo, hist_hi, hist) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
            sqlite3_bind_int64(ins, 1, run_of(m, "run"));
            bind_text(ins, 2, d.at("name").get<std::string>());
            sqlite3_bind_int(ins, 3, d.at("layer").get<int>());
            sqlite3_bind_int64(ins, 4, d.at("step").get<int64_t>());
            sqlite3_bind_int64(ins, 5, d.at("count").get<int64_t>());
            int i = 6;
            for (const char* k : {"min", "q1", "median", "q3", "max", "mean", "std", "hist_lo", "hist_hi"})
                bind_number(ins, i++, d.value(k, json()));
            std::vector<float> hist;
            for (const json& h : d.at("hist")) hist.push_back(static_cast<float>(number(h)));
            sqlite3_bind_blob(ins, 15, hist.data(), static_cast<int>(hist.size() * sizeof(float)), SQLITE_TRANSIENT);
            s_.check(sqlite3_step(ins), "mirror a distribution");
            sqlite3_reset(ins);
            ++rows_;
        }
    }
    tx.commit();
}

void Mirror::apply_run(const std::string& store, int64_t rid, const json& row) {
    if (rid <= 0) throw RemoteError("the server's stream names a run without an id");
    json info = row.value("info", json::object());
    if (!info.is_object()) info = json::object();
    info["remote"] = {{"dest", dest_},
                      {"cli", cli_},
                      {"store", store},
                      {"run", rid},
                      {"host", row.value("host", "")},
                      {"writer", row.value("writer", "")},
                      {"checkpoint", row.value("checkpoint", "")},
                      {"pid", row.value("pid", int64_t{0})}};
    if (sweep_) info["remote"]["sweep"] = store_;
    const std::string status = row.value("status", "queued");
    // "run 4", or for a sweep "task-002.sqlite run 1".
    const std::string key = (sweep_ ? store.substr(store.rfind('/') + 1) + " run " : std::string("run ")) + std::to_string(rid);
    statuses_[key] = status;
    int64_t id = local_id(rid, store);
    // The columns the server owns; name, notes, tags and colour are the user's
    // once the run is here (as merge keeps them).
    static const char* kOwned[] = {"scheme", "config", "status", "status_step", "message", "created_at", "started_at",
                                   "ended_at", "device", "versions", "seed", "steps_done", "final_loss", "info",
                                   "heartbeat", "host"};
    std::string sql;
    if (id == 0) {
        sql = "INSERT INTO runs(id, name, tags, notes, pid, checkpoint";
        for (const char* c : kOwned) sql += std::string(", ") + c;
        sql += std::string(") VALUES(") + store_detail::kNextRunId + ", ?,?,?,0,''";
        for (size_t i = 0; i < std::size(kOwned); ++i) sql += ",?";
        sql += ")";
    } else {
        sql = "UPDATE runs SET pid=0";
        for (const char* c : kOwned) sql += std::string(", ") + c + "=?";
        sql += " WHERE id=?";
    }
    sqlite3_stmt* st = s_.prepare(sql);
    int i = 1;
    if (id == 0) {
        bind_text(st, i++, row.value("name", "remote run " + std::to_string(rid)));
        bind_text(st, i++, row.value("tags", json::array()).dump());
        bind_text(st, i++, row.value("notes", ""));
    }
    bind_text(st, i++, row.value("scheme", ""));
    bind_text(st, i++, row.value("config", json::object()).dump());
    bind_text(st, i++, status);
    sqlite3_bind_int64(st, i++, row.value("status_step", int64_t{-1}));
    bind_text(st, i++, row.value("message", ""));
    for (const char* k : {"created_at", "started_at", "ended_at"}) sqlite3_bind_double(st, i++, row.value(k, 0.0));
    bind_text(st, i++, row.value("device", ""));
    bind_text(st, i++, row.value("versions", json::object()).dump());
    sqlite3_bind_int64(st, i++, static_cast<int64_t>(row.value("seed", uint64_t{0})));
    sqlite3_bind_int64(st, i++, row.value("steps_done", int64_t{0}));
    bind_number(st, i++, row.value("final_loss", json()));
    bind_text(st, i++, info.dump());
    sqlite3_bind_double(st, i++, row.value("heartbeat", 0.0));
    bind_text(st, i++, row.value("host", ""));
    if (id != 0) sqlite3_bind_int64(st, i++, id);
    s_.check(sqlite3_step(st), "mirror a run");
    sqlite3_reset(st);
    if (id == 0) {
        id = sqlite3_last_insert_rowid(s_.db_);
        ids_[{store, rid}] = id;
        // A colour the user chose there is kept; the server's default (its id's) becomes this id's.
        const std::string color = row.value("color", "");
        s_.set_run_color(id, is_hex_color(color) && color != default_run_color(rid) ? color : default_run_color(id));
    }
    local_ids_[key] = id;
}

}  // namespace normlab
