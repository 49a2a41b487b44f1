// NormLab core: the mirror — a server's runs kept in a local store from the
// follow stream (stream.h), so that the window and every command read them as
// they read local runs.
//
// A mirrored run is an ordinary row of the local store with info.remote =
// {"dest": ssh destination, "store": the server's store (absolute, as the
// server names it), "run": its id there, "writer": who trains it there,
// "checkpoint": its checkpoint there, "host": the server's host name}. Its
// pid is 0: the local store never judges it dead (the server does), and it is
// never resumed here. Lines are buffered until a "sync" and applied in one
// short transaction, so the store's write lock is held for milliseconds and a
// stream cut mid-snapshot leaves the mirror at the previous sync.
#pragma once

#include "core/remote/stream.h"
#include "core/store/store.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace normlab {

struct RemoteRef {
    std::string dest, store, cli;
    std::string sweep;        // the Slurm sweep's folder there ("" for a store of its own)
    int64_t run = 0;
};
// The remote reference of a run of a local store (run = 0 when it is not mirrored).
RemoteRef remote_ref(const RunInfo& r);

class Mirror {
public:
    // `dest`: the ssh destination as the user names it; `cli`: the server's
    // normlab-cli as given (recorded, so the window can follow again).
    Mirror(Store& local, std::string dest, std::string cli = "");

    // The server's hello: checks the protocol and remembers its store's path.
    // Throws RemoteError for a line that is not a compatible hello.
    void hello(const std::string& line);
    const std::string& remote_store() const { return store_; }
    // A sweep's stream: its folder (remote_store()) and task stores.
    bool sweep() const { return sweep_; }
    const std::vector<std::string>& task_stores() const { return task_stores_; }
    const std::string& remote_host() const { return host_; }
    const std::string& remote_version() const { return version_; }

    // Mirrored runs of this destination and store that had not ended when last seen (server ids).
    std::vector<int64_t> unfinished();
    // The request for `runs` (server ids), with what the local store holds of
    // each; for a sweep, every run of every task store.
    StreamRequest request(const std::vector<int64_t>& runs);

    enum class Got { More, Synced, Ended };
    // One line of the stream. Throws RemoteError for a line that cannot be
    // read or an error the server sends (nothing since the last sync is applied).
    Got apply(const std::string& line);
    // Forgets the lines received since the last sync (the stream was cut).
    void drop_pending() { pending_.clear(); }
    // The local id of a server's run (0 when not mirrored yet), of the hello's store or `store`.
    int64_t local_id(int64_t remote_run, const std::string& store = "");
    // Statuses of the followed runs as last sent ("run 4" or "task-002.sqlite run 1" → status text).
    const std::map<std::string, std::string>& statuses() const { return statuses_; }
    // The same runs' local ids (key as statuses()').
    const std::map<std::string, int64_t>& local_ids() const { return local_ids_; }
    int64_t rows_applied() const { return rows_; }
    const std::string& end_reason() const { return end_reason_; }

private:
    void read_hello(const std::string& line);
    Got read_line(const std::string& line);   // apply(), a wrongly typed value left to throw
    void commit();
    void commit_batch(const std::vector<nlohmann::json>& batch);
    void apply_run(const std::string& store, int64_t rid, const nlohmann::json& row);
    RunCursor cursor_of(int64_t local);
    Store& s_;
    std::string dest_, cli_, store_, host_, version_, end_reason_;
    std::vector<nlohmann::json> pending_;
    bool sweep_ = false;
    std::vector<std::string> task_stores_;
    std::map<std::pair<std::string, int64_t>, int64_t> ids_;   // (store, server id) → local id
    // Runs deleted here while they were followed: the rest of their stream is dropped (the server's run goes on).
    std::set<std::pair<std::string, int64_t>> deleted_;
    std::map<std::string, std::string> statuses_;
    std::map<std::string, int64_t> local_ids_;
    int64_t rows_ = 0;
};

}  // namespace normlab
