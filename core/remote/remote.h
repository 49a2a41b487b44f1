// NormLab core: training on a server over ssh — checking it, launching runs
// there detached, following them into a local mirror store, and stopping
// them (docs/REMOTE.md). What `normlab-cli remote` and the window's
// "Train on a server…" share. No Qt; no port opened, no daemon: everything
// rides on the user's own ssh (ssh.h) and the server's normlab-cli.
#pragma once

#include "core/remote/mirror.h"
#include "core/remote/ssh.h"
#include "core/store/store.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace normlab {

struct Server {
    std::string dest;                   // host, user@host or an alias of ~/.ssh/config
    std::string cli = "normlab-cli";    // the server's normlab-cli (default: the one on its PATH)
    std::string store;                  // the server's store ("": its default store)
    std::string sweep;                  // a Slurm sweep's folder there: follow its task stores instead
    SshOptions ssh;
    // The server's normlab-cli with `args` (and --store when one is named), quoted for its shell.
    std::string command(std::vector<std::string> args) const;
};

struct ServerCheck {
    struct Gpu {
        std::string name;               // "NVIDIA H100 80GB HBM3"
        std::string total_mib, free_mib;   // as nvidia-smi says them ("81559")
    };
    nlohmann::json info;                // what `normlab-cli server-info` there says
    std::vector<Gpu> gpus;              // nvidia-smi's, where it answers
    std::string summary() const;        // one paragraph for a person
    // `remote check --json`: {"info": server-info's object, "gpus": [{"name", "total_mib", "free_mib"}]}
    // (the window words it in its language).
    nlohmann::json to_json() const;
};
// Throws RemoteError saying what is wrong: ssh fails, NormLab is not there,
// or is a version whose stream this one cannot follow.
ServerCheck check_server(const Server& s);

// Sends the experiment (its JSON text) to the server and starts its runs there
// detached: they survive the window, the laptop sleeping and the network. Its
// runs are queued there before this returns; their ids there are returned.
// `extra`: options for the server's `run` (--only, --steps, --device, ...).
std::vector<int64_t> launch_remote(const Server& s, const std::string& experiment_name, const std::string& experiment_json,
                                   const std::vector<std::string>& extra = {});

// Submits the experiment's runs as a Slurm job array through the server (a
// login node): `normlab-cli sweep --slurm --submit --dir s.sweep` there.
// `extra`: the sweep's options (--partition, --time, --gpus-per-task, ...).
// Returns the job's id. Follow it with a Server whose `sweep` is that folder.
std::string submit_sweep(const Server& s, const std::string& experiment_name, const std::string& experiment_json,
                         const std::vector<std::string>& extra = {});
// scancel of the sweep's job array there (`normlab-cli sweep --cancel DIR`).
void cancel_sweep(const Server& s);

// Cancels (a running run keeps its checkpoint and can be resumed) or resumes
// (detached) a run on the server (its id there). Returns what the server's normlab-cli
// printed ("4\tcancelled\tNAME", "4\tfinished\tNAME (nothing to cancel)"). Throws RemoteError.
std::string cancel_remote(const Server& s, int64_t run);
std::string resume_remote(const Server& s, int64_t run);

// Copies a run's latest weights (safetensors, exported there) or its latest
// checkpoint file (`checkpoint`: its path there) from the server into
// `out`, through FILE.tmp and a rename. Returns the bytes written.
// The server sends the file's size first, so that `progress(bytes so far, bytes in all)` can say
// how far it is (after every chunk) and a short transfer is refused; `stop` (asked often) ends it
// with nothing kept, and it returns -1.
struct FetchEvents {
    std::function<void(int64_t, int64_t)> progress;
    std::function<bool()> stop;
};
int64_t fetch_remote(const Server& s, int64_t run, const std::string& checkpoint, const std::string& out,
                     const FetchEvents& events = {});

// What a follower says besides its runs' news: in English as the terminal prints it, and what
// it is made of, so that the window can word it in its own language.
struct FollowNote {
    enum class Kind { Following, FollowingSweep, Reconnected, Retrying };
    Kind kind = Kind::Following;
    std::string text;
    long long count = 0;   // Following: runs; FollowingSweep: task stores
    std::string why;       // Retrying: what ended the connection (ssh's own words where it said them)
    int in_s = 0;          // Retrying: seconds until the next try
};
struct FollowEvents {
    std::function<void(const FollowNote&)> note;    // connection and reconnection news
    std::function<bool()> stop;                     // true: stop following (checked often)
    std::function<void(const Mirror&)> synced;      // after every applied snapshot
};
enum class FollowEnd { Ended, Stopped, Nothing };
// Follows `runs` (server ids) and every run of this server's store that the
// local store mirrors and had not ended, until all have ended; with
// `s.sweep`, every run of every task store of the sweep until the job ends. Reconnects
// after a drop (`retries` failures in a row without progress, then throws
// RemoteError); the mirror keeps every row of every completed snapshot.
FollowEnd follow_remote(const Server& s, Store& local, const std::vector<int64_t>& runs, int retries,
                        const FollowEvents& events);

}  // namespace normlab
