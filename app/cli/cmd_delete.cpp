// normlab-cli delete: removes runs from a store with all their rows and their
// checkpoint files (what the window's Delete does), after asking. On a server
// or a cluster's login node, where there is no window, it is how a store is
// kept tidy and its disk given back.
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/remote/mirror.h"

#include <cstdio>
#include <iostream>
#include <string>
#include <unistd.h>

namespace normlab::cli {
static int cmd_delete(const Args& args) {
    if (args.positional.empty()) throw UsageError("delete needs a run: normlab-cli delete RUN [RUN ...] [--yes]");
    Store store(existing_store_path(args));
    if (store.read_only())
        throw StoreError(store.path() + " is open read-only (no write permission?); nothing was deleted");
    // Every run found and every refusal said before any run is touched.
    std::vector<RunInfo> runs;
    for (auto& key : args.positional) {
        RunInfo r = store.find_run(key);
        bool twice = false;
        for (const RunInfo& o : runs) twice = twice || o.id == r.id;
        if (!twice) runs.push_back(std::move(r));
    }
    for (const RunInfo& r : runs)
        if (const std::string why = Store::delete_refusal(r); !why.empty()) throw UsageError(why + ". Nothing was deleted");
    if (!args.has_flag("--yes")) {
        if (!::isatty(STDIN_FILENO))
            throw UsageError("delete asks before it deletes, and standard input is not a terminal: give --yes to delete "
                             "without asking. Nothing was deleted");
        for (const RunInfo& r : runs) {
            std::printf("  %lld\t%s\t%s\t%lld steps", static_cast<long long>(r.id), printable_name(r.name).c_str(),
                        printable_name(r.status_text).c_str(), static_cast<long long>(r.steps_done));
            if (const RemoteRef ref = remote_ref(r); ref.run > 0)
                std::printf("\t(mirrored from %s: deleted here only; it stays there)", printable_name(ref.dest).c_str());
            std::printf("\n");
        }
        std::printf("Delete %zu run%s and all %s data from %s? This cannot be undone. [y/N] ", runs.size(),
                    runs.size() == 1 ? "" : "s", runs.size() == 1 ? "its" : "their", store.path().c_str());
        std::fflush(stdout);
        std::string answer;
        if (!std::getline(std::cin, answer) || (answer != "y" && answer != "Y" && answer != "yes")) {
            std::printf("Nothing was deleted.\n");
            return kError;
        }
    }
    Store::Deleted freed;
    for (const RunInfo& r : runs) {
        const Store::Deleted d = store.delete_run(r.id);
        freed.files += d.files;
        freed.bytes += d.bytes;
        std::printf("%lld\tdeleted\t%s\n", static_cast<long long>(r.id), printable_name(r.name).c_str());
    }
    if (freed.files > 0)
        std::printf("%d checkpoint file%s removed (%s)\n", freed.files, freed.files == 1 ? "" : "s", format_bytes(freed.bytes).c_str());
    return kOk;
}

extern const Command kDeleteCommand{"delete", "delete RUN [RUN ...] [--yes]",
    "remove runs with all their data and checkpoint files (asks first;\n"
    "--yes does not); a run still training is refused: cancel it first\n",
    cmd_delete,
    "Every run is found, and every refusal said, before any is deleted. A deleted run's id is never\n"
    "given to another run of the store. A run mirrored from a server is deleted here only.\n"
    "The store's file keeps its size (SQLite reuses the freed pages for later runs; 'normlab-cli\n"
    "compact' gives them back to the disk).\n"
    "Exit 0 when the runs were deleted, 1 when the question was answered no, 2 when one was refused.\n",
    "--yes"};

}  // namespace normlab::cli
