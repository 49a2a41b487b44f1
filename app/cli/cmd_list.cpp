// normlab-cli list: the runs of a store.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include <cstdio>
#include <unistd.h>

namespace normlab::cli {

static int cmd_list(const Args& args) {
    const std::string path = store_path(args);
    if (::access(path.c_str(), F_OK) != 0) {
        std::printf("(no store at %s yet: no runs)\n", path.c_str());
        return kOk;
    }
    Store store(path, Store::Mode::ReadOnly);
    auto runs = store.runs();
    std::printf("%-5s %-32s %-11s %-11s %9s %10s  %s\n", "id", "name", "scheme", "status", "steps", "val loss", "created");
    for (auto& r : runs)
        std::printf("%-5lld %-32.32s %-11s %-11s %9lld %10s  %s\n", static_cast<long long>(r.id), printable_name(r.name).c_str(),
                    printable_name(r.scheme).c_str(), printable_name(r.status_text).c_str(), static_cast<long long>(r.steps_done),
                    fmt_loss(r.final_loss).c_str(), time_text(r.created_at).c_str());
    if (runs.empty()) std::printf("(no runs in %s)\n", store.path().c_str());
    return kOk;
}

extern const Command kListCommand{"list", "list",
    "the runs in the store\n",
    cmd_list};

}  // namespace normlab::cli
