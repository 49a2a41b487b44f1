// NormLab core: the server side of the follow stream (see stream.h).
#include "core/remote/stream.h"

#include "core/errors.h"
#include "core/store/store_internal.h"
#include "core/version.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <unistd.h>

namespace normlab {
using nlohmann::json;

namespace {

constexpr size_t kPointsPerLine = 4096;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json run_row(const RunInfo& r) {
    return json{{"name", r.name},         {"scheme", r.scheme},         {"config", r.config},
                {"status", r.status_text}, {"status_step", r.status_step}, {"message", r.message},
                {"created_at", r.created_at}, {"started_at", r.started_at}, {"ended_at", r.ended_at},
                {"device", r.device},     {"versions", r.versions},     {"seed", r.seed},
                {"tags", r.tags},         {"notes", r.notes},           {"steps_done", r.steps_done},
                {"final_loss", number_or_null(r.final_loss)}, {"info", r.info}, {"checkpoint", r.checkpoint},
                {"heartbeat", r.heartbeat}, {"pid", r.pid},             {"host", r.host},
                {"color", r.color},       {"writer", writer_identity(r)}};
}

std::vector<std::tuple<std::string, int, int64_t>> keyed(const json& a, const char* what) {
    std::vector<std::tuple<std::string, int, int64_t>> out;
    if (!a.is_array()) throw std::runtime_error(std::string("\"") + what + "\" must be a list");
    for (auto& e : a) {
        if (!e.is_array() || e.size() != 3 || !e[0].is_string() || !e[1].is_number_integer() || !e[2].is_number_integer())
            throw std::runtime_error(std::string("an entry of \"") + what + "\" must be [name, layer, step]");
        out.emplace_back(e[0].get<std::string>(), e[1].get<int>(), e[2].get<int64_t>());
    }
    return out;
}

}  // namespace

std::string writer_identity(const RunInfo& r) {
    if (r.pid == 0) return "";
    return r.host + "/" + std::to_string(r.pid) + "/" + r.proc_start;
}

bool follow_ended(RunStatus s) { return s != RunStatus::Queued && s != RunStatus::Running; }

json StreamRequest::to_json() const {
    json have_j = json::object();
    for (auto& [id, c] : have) {
        json s = json::array(), d = json::array();
        for (auto& [k, step] : c.series) s.push_back({k.first, k.second, step});
        for (auto& [k, step] : c.dists) d.push_back({k.first, k.second, step});
        have_j[std::to_string(id)] = {{"writer", c.writer}, {"series", s}, {"dists", d}, {"steps", c.steps}};
    }
    json j = {{"protocol", kStreamProtocol}, {"runs", runs}, {"have", have_j}};
    if (all) j["all"] = true;
    if (!stores.empty()) {
        j["stores"] = json::object();
        for (auto& [path, r] : stores) j["stores"][path] = r.to_json();
    }
    return j;
}

StreamRequest StreamRequest::parse(const std::string& line) {
    // A value of the wrong type (a number where a name goes) is a malformed
    // request too, said as one rather than as the JSON library's message.
    try {
        return parse_json(line);
    } catch (const json::exception& e) {
        throw std::runtime_error(std::string("the request has a value of the wrong type (") + e.what() + ")");
    }
}

StreamRequest StreamRequest::parse_json(const std::string& line) {
    json j;
    try {
        j = json::parse(line);
    } catch (const std::exception&) {
        throw std::runtime_error("the request is not JSON");
    }
    if (!j.is_object()) throw std::runtime_error("the request must be a JSON object");
    if (!j.contains("protocol") || !j["protocol"].is_number_integer())
        throw std::runtime_error("the request names no \"protocol\"");
    if (j["protocol"].get<int>() != kStreamProtocol)
        throw std::runtime_error("the request speaks stream protocol " + j["protocol"].dump() + "; this NormLab speaks " +
                                 std::to_string(kStreamProtocol) + " (update NormLab on the older side)");
    StreamRequest r;
    r.all = j.value("all", false);
    if (j.contains("stores")) {
        if (!j["stores"].is_object()) throw std::runtime_error("\"stores\" must be an object of store paths");
        for (auto& [path, sub] : j["stores"].items()) {
            json one = sub;
            if (!one.is_object()) throw std::runtime_error("\"stores\"." + path + " must be an object");
            one["protocol"] = kStreamProtocol;
            if (!one.contains("runs")) one["runs"] = json::array();
            r.stores[path] = parse_json(one.dump());
        }
        if (!j.contains("runs")) return r;
    }
    if (!j.contains("runs") || !j["runs"].is_array()) throw std::runtime_error("\"runs\" must be a list of run ids");
    for (auto& id : j["runs"]) {
        if (!id.is_number_integer() || id.get<int64_t>() <= 0) throw std::runtime_error("\"runs\" must hold run ids (integers > 0)");
        r.runs.push_back(id.get<int64_t>());
    }
    if (j.contains("have")) {
        if (!j["have"].is_object()) throw std::runtime_error("\"have\" must be an object");
        for (auto& [key, c] : j["have"].items()) {
            int64_t id = 0;
            try {
                id = std::stoll(key);
            } catch (...) {
                throw std::runtime_error("\"have\" has a key that is no run id: " + key);
            }
            RunCursor cur;
            if (!c.is_object()) throw std::runtime_error("\"have\"." + key + " must be an object");
            cur.writer = c.value("writer", "");
            cur.steps = c.value("steps", int64_t{0});
            for (auto& [n, l, s] : keyed(c.value("series", json::array()), "series")) cur.series[{n, l}] = s;
            for (auto& [n, l, s] : keyed(c.value("dists", json::array()), "dists")) cur.dists[{n, l}] = s;
            r.have[id] = cur;
        }
    }
    return r;
}

StreamServer::StreamServer(Store& store, StreamRequest request, Emit emit, std::string tag)
    : store_(store), req_(std::move(request)), emit_(std::move(emit)), tag_(std::move(tag)) {}

void StreamServer::out(json message) {
    if (!tag_.empty()) message["store"] = tag_;
    emit_(message.dump());
}

void StreamServer::hello() {
    emit_(json{{"t", "hello"}, {"protocol", kStreamProtocol}, {"normlab", NORMLAB_VERSION},
               {"schema", store_.schema_version()}, {"host", store_detail::host_name()}, {"store", store_.path()}}
              .dump());
}

void StreamServer::send_run(const RunInfo& r) {
    json row = run_row(r);
    std::string dumped = row.dump();
    std::string& last = sent_rows_[r.id];
    if (dumped == last) return;
    last = std::move(dumped);
    out({{"t", "run"}, {"id", r.id}, {"row", std::move(row)}});
}

bool StreamServer::poll(bool sync) {
    bool all_ended = true;
    {
        Store::ReadSnapshot snapshot(store_);
        std::vector<int64_t> ids = req_.runs;
        if (req_.all) {
            ids.clear();
            for (const RunInfo& r : store_.runs()) ids.push_back(r.id);
            if (ids.empty()) all_ended = false;   // its runs are still to be queued
        }
        for (int64_t id : ids) {
            std::optional<RunInfo> found = store_.run(id);
            if (!found)
                throw StoreError("no run with id " + std::to_string(id) + " in " + store_.path() +
                                 " ('normlab-cli list' there shows its runs)");
            RunInfo r = *found;
            // A writer that died since the store was opened: shown as the store will record it.
            if (r.status == RunStatus::Running && Store::writer_gone(r)) {
                r.status = RunStatus::Interrupted;
                r.status_text = status_name(r.status);
                r.message = "the writing process (pid " + std::to_string(r.pid) + " on " + r.host +
                            ") ended without finishing the run";
            }
            RunCursor& c = req_.have[id];
            const std::string w = writer_identity(r);
            // Resumed or restarted by another process, or cut back to an earlier
            // checkpoint: the mirror's rows are dropped and sent again.
            if (c.writer != w || r.steps_done < c.steps) {
                if (!c.writer.empty() || !c.series.empty() || !c.dists.empty())
                    out({{"t", "reset"}, {"run", id}});
                c = RunCursor{};
                c.writer = w;
            }
            c.steps = r.steps_done;
            send_run(r);
            for (const SeriesInfo& s : store_.series(id, false)) {
                int64_t& last = c.series.try_emplace({s.name, s.layer}, -1).first->second;
                const std::vector<Point> pts = store_.points(s.id, last);
                for (size_t at = 0; at < pts.size(); at += kPointsPerLine) {
                    json p = json::array();
                    for (size_t i = at; i < std::min(pts.size(), at + kPointsPerLine); ++i)
                        p.push_back({pts[i].step, number_or_null(pts[i].value)});
                    out({{"t", "points"}, {"run", id}, {"name", s.name}, {"layer", s.layer}, {"p", std::move(p)}});
                }
                if (!pts.empty()) last = pts.back().step;
            }
            int64_t from = -1;
            if (!c.dists.empty()) {
                from = c.dists.begin()->second;
                for (auto& [k, step] : c.dists) from = std::min(from, step);
            }
            for (const Distribution& d : store_.distributions(id, "", from)) {
                int64_t& last = c.dists.try_emplace({d.name, d.layer}, -1).first->second;
                if (d.step <= last) continue;
                last = d.step;
                out({{"t", "dist"},
                     {"run", id},
                     {"d",
                      {{"name", d.name}, {"layer", d.layer}, {"step", d.step}, {"count", d.count},
                       {"min", number_or_null(d.min)}, {"q1", number_or_null(d.q1)}, {"median", number_or_null(d.median)},
                       {"q3", number_or_null(d.q3)}, {"max", number_or_null(d.max)}, {"mean", number_or_null(d.mean)},
                       {"std", number_or_null(d.std)}, {"hist_lo", number_or_null(d.hist_lo)},
                       {"hist_hi", number_or_null(d.hist_hi)}, {"hist", d.hist}}}});
            }
            if (!follow_ended(r.status)) all_ended = false;
        }
    }
    if (sync) emit_(json{{"t", "sync"}, {"at", now_seconds()}}.dump());
    return all_ended;
}

}  // namespace normlab
