// normlab-cli stream and server-info: the server's side of training over ssh
// (docs/REMOTE.md). `stream` sends a store's rows as JSON lines on its
// standard output for a mirror elsewhere (core/remote/stream.h); `server-info`
// says what this NormLab is, for the other side's check.
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/remote/stream.h"
#include "core/version.h"

#include <chrono>
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

std::string host() {
    char h[256] = {};
    ::gethostname(h, sizeof h - 1);
    return h;
}

}  // namespace

static int cmd_stream(const Args& args) {
    const std::string path = store_path(args);
    double interval = 0.5;
    if (args.options.count("--interval")) interval = parse_int("--interval", args.opt("--interval"), 50, 60000) / 1000.0;
    auto error = [](const std::string& m) {
        emit(json{{"t", "error"}, {"message", m}}.dump());
        std::fflush(stdout);
        return kStore;
    };
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return error("there is no store at " + path + " on " + host() + " (nothing was trained into it yet)");
    std::unique_ptr<Store> store;
    try {
        store = std::make_unique<Store>(path, Store::Mode::ReadOnly);
    } catch (const StoreError& e) {
        return error(e.what());
    }
    // The hello first; then the request, which may depend on it (the store's path).
    StreamServer first(*store, {}, emit);
    first.hello();
    std::fflush(stdout);
    std::string line;
    if (!std::getline(std::cin, line)) return error("no request arrived on standard input");
    StreamRequest req;
    try {
        req = StreamRequest::parse(line);
    } catch (const std::exception& e) {
        return error(std::string("bad request: ") + e.what());
    }
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

static int cmd_server_info(const Args& args) {
    const std::string path = store_path(args);
    json j = library_versions();
    j["protocol"] = kStreamProtocol;
    j["schema"] = Store::kSchemaVersion;
    j["host"] = host();
    j["store"] = std::filesystem::absolute(path).lexically_normal().string();
    j["cuda_devices"] = cuda_device_count();
    std::error_code ec;
    j["store_exists"] = std::filesystem::exists(path, ec);
    j["store_error"] = "";
    if (j["store_exists"].get<bool>()) {
        try {
            Store s(path, Store::Mode::ReadOnly);
            j["store_schema"] = s.schema_version();
            j["runs"] = s.runs().size();
        } catch (const StoreError& e) {
            j["store_error"] = e.what();
        }
    }
    emit(j.dump());
    return kOk;
}

extern const Command kStreamCommand{"stream", "stream [--follow]",
    "send a store's rows to a mirror on another machine, as JSON\n"
    "lines on standard output (what `remote follow` runs over ssh)\n",
    cmd_stream,
    "Reads one request line on standard input (docs/REMOTE.md: the runs, and what the mirror holds).\n"
    "  --follow        keep sending until every requested run has ended (else one pass)\n"
    "  --interval MS   how often the store is read (default 500)\n"};

extern const Command kServerInfoCommand{"server-info", "server-info",
    "what this NormLab is, as JSON: versions, stream protocol, store,\n"
    "CUDA (what `remote check` asks a server)\n",
    cmd_server_info};

}  // namespace normlab::cli
