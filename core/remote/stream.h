// NormLab core: the follow stream — how a store's rows travel over ssh's
// standard streams to a mirror on another machine (docs/REMOTE.md).
//
// The server side (`normlab-cli stream`) reads one request line on its
// standard input: which runs, and what the mirror already holds of each
// (per series and per distribution, the last step; the writer's identity).
// It answers on its standard output with JSON lines, in snapshots: every
// message between two "sync" lines comes from one committed state of the
// store, so a mirror that commits at each sync holds a prefix of the server's
// rows — never half a batch — and a cut stream loses nothing it committed.
// Following resumes from the mirror's own rows: no gap, no duplicate (rows
// are keyed by (series, step), so one sent twice replaces itself).
//
// Messages (server → mirror), each one JSON object on one line:
//   {"t":"hello","protocol":1,"normlab":"0.9.0","schema":3,"host":"gpu1","store":"/abs/runs.sqlite"}
//   {"t":"run","id":7,"row":{...the run's columns...}}       new or changed
//   {"t":"reset","run":7}           the run was resumed or restarted: drop its rows, they follow again
//   {"t":"points","run":7,"name":"train/loss","layer":-1,"p":[[step,value-or-null],...]}
//   {"t":"dist","run":7,"d":{"name":..,"layer":..,"step":..,"count":..,"min":..,...,"hist":[..]}}
//   {"t":"sync","at":1732400000.5}  end of a snapshot
//   {"t":"end","reason":"..."}      every followed run has ended (or one pass was asked for)
//   {"t":"error","message":"..."}   the request cannot be served
// A sweep's stream (`stream --sweep DIR`) says "sweep":true and "stores":[...]
// in its hello, takes {"protocol":1,"stores":{PATH:{"all":true,"have":{...}}}},
// and adds "store":PATH to every run, reset, points and dist message.
// Request (mirror → server), one line:
//   {"protocol":1,"runs":[7,8],"have":{"7":{"writer":"...","series":[[name,layer,step],..],
//                                          "dists":[[name,layer,step],..]}}}
#pragma once

#include "core/store/store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace normlab {

constexpr int kStreamProtocol = 1;

// A writer's identity: a resume or restart changes it (and rewrites the run's
// rows from its checkpoint on), so a mirror holding another writer's rows
// drops them and takes them again.
std::string writer_identity(const RunInfo& r);

// Whether a run's status is final for following: nobody trains it (a queued
// run will be, a running one is).
bool follow_ended(RunStatus s);

// What a mirror holds of one run.
struct RunCursor {
    std::string writer;
    int64_t steps = 0;                                                // the run's steps_done held
    std::map<std::pair<std::string, int>, int64_t> series, dists;   // (name, layer) → last step held
};

struct StreamRequest {
    std::vector<int64_t> runs;            // the runs to send (server ids)
    bool all = false;                     // every run of the store, those added later too (a sweep's task store)
    std::map<int64_t, RunCursor> have;
    // A sweep (`stream --sweep DIR`): one request per task store, by its path.
    std::map<std::string, StreamRequest> stores;
    nlohmann::json to_json() const;
    // Throws std::runtime_error naming what is wrong with the line.
    static StreamRequest parse(const std::string& line);

private:
    static StreamRequest parse_json(const std::string& line);
};

// Serves one request from a store opened read-only.
class StreamServer {
public:
    using Emit = std::function<void(const std::string& line)>;
    // `tag`: the store's path, added to every message as "store" (a sweep's
    // stream carries several stores); "" for a stream of one store.
    StreamServer(Store& store, StreamRequest request, Emit emit, std::string tag = "");
    // The hello line (first).
    void hello();
    // Sends what changed since the last poll, then (with `sync`) a sync. Returns
    // true when every requested run has ended and everything of them has been
    // sent (for `all`: when the store has runs and every one has ended).
    // Throws StoreError for a requested run the store does not have.
    bool poll(bool sync = true);

private:
    void send_run(const RunInfo& r);
    void out(nlohmann::json message);
    Store& store_;
    StreamRequest req_;
    Emit emit_;
    std::string tag_;
    std::map<int64_t, std::string> sent_rows_;   // run → the row last sent (dumped)
};

}  // namespace normlab
