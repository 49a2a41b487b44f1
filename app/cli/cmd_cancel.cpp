// normlab-cli cancel: stops a run trained by another normlab-cli process on
// this machine (a detached launch, a terminal, a launch over ssh): a running
// run is saved as cancelled with its checkpoint (resumable), a queued one is
// cancelled before it starts. The window's runs are stopped in the window.
#include "app/cli/cli.h"

#include "core/remote/mirror.h"
#include "core/store/store_internal.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace normlab::cli {
namespace {

std::string process_name(int64_t pid) {
    std::ifstream f("/proc/" + std::to_string(pid) + "/comm");
    std::string name;
    std::getline(f, name);
    return name;
}

}  // namespace

static int cmd_cancel(const Args& args) {
    if (args.positional.empty()) throw UsageError("cancel needs a run: normlab-cli cancel RUN [RUN ...]");
    Store store(existing_store_path(args));
    std::vector<RunInfo> runs;
    for (auto& key : args.positional) runs.push_back(store.find_run(key));   // all found before any is touched
    int code = kOk;
    for (RunInfo& run : runs) {
        const std::string id = std::to_string(run.id);
        if (const RemoteRef ref = remote_ref(run); ref.run > 0)
            throw UsageError("run " + id + " is mirrored from " + ref.dest + " and trains there: 'normlab-cli remote cancel " +
                             ref.dest + " " + std::to_string(ref.run) + "' stops it");
        if (run.status == RunStatus::Queued &&
            store.cancel_queued(run.id, "cancelled before it started (normlab-cli cancel); 'normlab-cli resume " + id +
                                            "' starts it")) {
            std::printf("%s\tcancelled\t%s\n", id.c_str(), printable_name(run.name).c_str());
            continue;
        }
        run = *store.run(run.id);   // a trainer may have claimed it meanwhile
        if (run.status != RunStatus::Running) {
            std::printf("%s\t%s\t%s (nothing to cancel)\n", id.c_str(), printable_name(run.status_text).c_str(),
                        printable_name(run.name).c_str());
            continue;
        }
        if (run.host != store_detail::host_name())
            throw UsageError("run " + id + " trains on " + run.host + " (pid " + std::to_string(run.pid) +
                             "); cancel it there (normlab-cli remote cancel " + run.host + " " + id + ")");
        if (Store::writer_gone(run)) {
            std::printf("%s\tinterrupted\t%s (its process is gone; 'normlab-cli resume %s' continues it)\n", id.c_str(),
                        printable_name(run.name).c_str(), id.c_str());
            continue;
        }
        // Only a normlab-cli takes SIGUSR1 as "stop this run"; the window stops its runs itself.
        if (process_name(run.pid) != "normlab-cli")
            throw UsageError("run " + id + " trains in " + process_name(run.pid) + " (pid " + std::to_string(run.pid) +
                             "), not in a normlab-cli; stop it there (the window's Stop)");
        if (::kill(static_cast<pid_t>(run.pid), SIGUSR1) != 0)
            throw UsageError("cannot signal process " + std::to_string(run.pid) + " (run " + id + "): not yours?");
        // It saves a checkpoint and records the end: wait for that, up to a minute.
        const auto start = std::chrono::steady_clock::now();
        while (run.status == RunStatus::Running && std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            run = *store.run(run.id);
        }
        std::printf("%s\t%s\t%s\n", id.c_str(), printable_name(run.status_text).c_str(), printable_name(run.name).c_str());
        if (run.status == RunStatus::Running) code = kFailed;
    }
    return code;
}

extern const Command kCancelCommand{"cancel", "cancel RUN [RUN ...]",
    "stop a run another normlab-cli trains on this machine (kept with\n"
    "its checkpoint: resume continues it), or a queued one before it starts\n",
    cmd_cancel,
    "A running run is saved as cancelled within seconds; its process goes on with its next run.\n"
    "Exit 0 when every run has stopped (or had nothing to stop),\n"
    "4 when one is still running after a minute.\n"};

}  // namespace normlab::cli
