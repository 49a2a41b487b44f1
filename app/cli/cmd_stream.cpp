// normlab-cli stream: the server's side of following training over ssh
// (docs/REMOTE.md). It sends a store's rows as JSON lines on its standard
// output for a mirror elsewhere (core/remote/stream.h). Without LibTorch: the
// front end runs it (front.cpp), so `remote follow` starts in milliseconds on
// a server whose CUDA LibTorch takes seconds to load. server-info, which asks
// LibTorch about the GPUs, is cmd_server_info.cpp.
#include "app/cli/cli.h"
#include "app/cli/sweep_dir.h"

#include "core/errors.h"
#include "core/remote/stream.h"
#include "core/store/store_internal.h"
#include "core/version.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <thread>
#include <unistd.h>

namespace normlab::cli {
using nlohmann::json;

namespace {

void emit(const std::string& line) {
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fputc('\n', stdout);
}

int stream_error(const std::string& m) {
    emit(json{{"t", "error"}, {"message", m}}.dump());
    std::fflush(stdout);
    return kStore;
}

// After the hello: the request line on standard input ("" when read, else what is wrong).
std::string read_request(StreamRequest& req) {
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) return "no request arrived on standard input";
    try {
        req = StreamRequest::parse(line);
    } catch (const std::exception& e) {
        return std::string("bad request: ") + e.what();
    }
    return "";
}

// Whether Slurm still knows the job (pending or running tasks).
bool job_alive(const std::string& job) {
    try {
        return run_command({"squeue", "-h", "-j", job, "-o", "%i"}).find_first_not_of(" \n") != std::string::npos;
    } catch (const std::exception&) {
        return false;   // squeue refuses a job it has forgotten
    }
}

// A sweep's task stores in one stream: each opened when its task creates it.
int stream_sweep(const Args& args, double interval) {
    const auto [sweep, record] = read_sweep(args.opt("--sweep"), "--sweep");
    const std::string job = record.value("job_id", std::string());
    std::vector<std::string> paths;
    for (int t = 0; t < sweep.tasks(); ++t) paths.push_back(sweep.store_of(t));
    emit(json{{"t", "hello"}, {"protocol", kStreamProtocol}, {"normlab", NORMLAB_VERSION}, {"schema", Store::kSchemaVersion},
              {"host", store_detail::host_name()}, {"store", sweep.dir}, {"sweep", true}, {"stores", paths}, {"job", job}}
             .dump());
    StreamRequest req;
    if (std::string why = read_request(req); !why.empty()) return stream_error(why);
    for (auto& [path, r] : req.stores)
        if (std::find(paths.begin(), paths.end(), path) == paths.end())
            return stream_error(path + " is not a task store of the sweep in " + sweep.dir);
    struct Task {
        std::unique_ptr<Store> store;
        std::unique_ptr<StreamServer> server;
        bool ended = false;
    };
    std::map<std::string, Task> tasks;
    const bool follow = args.has_flag("--follow");
    double last_squeue = 0;
    bool alive = !job.empty();
    for (;;) {
        bool all_ended = true;
        for (auto& [path, r] : req.stores) {
            Task& t = tasks[path];
            std::error_code ec;
            if (!t.store && std::filesystem::exists(path, ec)) {
                try {
                    t.store = std::make_unique<Store>(path, Store::Mode::ReadOnly);
                    t.server = std::make_unique<StreamServer>(*t.store, r, emit, path);
                } catch (const StoreError&) {
                    t.store.reset();   // being created by its task: next time
                }
            }
            if (!t.server) {
                all_ended = false;
                continue;
            }
            try {
                t.ended = t.server->poll(false);
            } catch (const StoreError& e) {
                return stream_error(e.what());
            }
            all_ended = all_ended && t.ended;
        }
        emit(json{{"t", "sync"}, {"at", now_seconds()}}.dump());
        // A task that failed before creating its store never will: the job's end says so.
        if (!all_ended && alive && now_seconds() - last_squeue > 10) {
            last_squeue = now_seconds();
            alive = job_alive(job);
        }
        bool done = all_ended;
        if (!alive && !all_ended) {
            done = true;
            for (auto& [path, t] : tasks)
                if (t.server && !t.ended) done = false;
        }
        if (done || !follow) {
            emit(json{{"t", "end"}, {"reason", all_ended ? "every run of the sweep has ended" : done ? "the Slurm job has ended" : "one pass"}}.dump());
            std::fflush(stdout);
            return kOk;
        }
        if (std::fflush(stdout) != 0 || std::ferror(stdout)) return kError;
        std::this_thread::sleep_for(std::chrono::duration<double>(interval));
    }
}

}  // namespace

static int cmd_stream(const Args& args) {
    double interval = 0.5;
    if (args.options.count("--interval")) interval = parse_int("--interval", args.opt("--interval"), 50, 60000) / 1000.0;
    if (args.options.count("--sweep")) return stream_sweep(args, interval);
    const std::string path = store_path(args);
    auto error = stream_error;
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return error("there is no store at " + path + " on " + store_detail::host_name() + " (nothing was trained into it yet)");
    std::unique_ptr<Store> store;
    try {
        store = std::make_unique<Store>(path, Store::Mode::ReadOnly);
    } catch (const StoreError& e) {
        return error(e.what());
    }
    // The hello first; then the request, which may depend on it (the store's path).
    StreamServer first(*store, {}, emit);
    first.hello();
    StreamRequest req;
    if (std::string why = read_request(req); !why.empty()) return error(why);
    StreamServer server(*store, std::move(req), emit);
    const bool follow = args.has_flag("--follow");
    for (;;) {
        bool ended = false;
        try {
            ended = server.poll();
        } catch (const StoreError& e) {
            return error(e.what());
        }
        if (ended || !follow) {
            emit(json{{"t", "end"}, {"reason", ended ? "every run followed has ended" : "one pass"}}.dump());
            std::fflush(stdout);
            return kOk;
        }
        // A closed connection ends this process here (SIGPIPE), or at the next write.
        if (std::fflush(stdout) != 0 || std::ferror(stdout)) return kError;
        std::this_thread::sleep_for(std::chrono::duration<double>(interval));
    }
}

extern const Command kStreamCommand{"stream", "stream [--follow]",
    "send a store's rows to a mirror on another machine, as JSON\n"
    "lines on standard output (what `remote follow` runs over ssh)\n",
    cmd_stream,
    "Reads one request line on standard input (docs/REMOTE.md: the runs, and what the mirror holds).\n"
    "  --follow        keep sending until every requested run has ended (else one pass)\n"
    "  --interval MS   how often the store is read (default 500)\n"
    "  --sweep DIR     every task store of a Slurm sweep (normlab-cli sweep --dir DIR),\n"
    "                  until the job ends\n",
    "--follow --interval --sweep"};

}  // namespace normlab::cli
