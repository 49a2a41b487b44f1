// normlab-cli compact: gives back the disk space that deleted runs left in the
// store's file (SQLite reuses it for later rows but never shrinks the file).
#include "app/cli/cli.h"
#include "app/stop_signals.h"

#include "core/errors.h"

#include <atomic>
#include <csignal>
#include <cstdio>

namespace normlab::cli {
namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop = true; }

}  // namespace

static int cmd_compact(const Args& args) {
    if (!args.positional.empty()) throw UsageError("compact takes no run: normlab-cli compact [--store FILE]");
    Store store(existing_store_path(args));
    const uintmax_t free = store.free_bytes();
    if (free < (1u << 20)) {
        std::printf("%s: %s free; nothing to compact\n", store.path().c_str(), format_bytes(free).c_str());
        return kOk;
    }
    std::fprintf(stderr, "compacting %s (%s free)… Ctrl-C stops it, changing nothing\n", store.path().c_str(), format_bytes(free).c_str());
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    app::stop_on_hangup(on_signal);
    try {
        const Store::Compacted c = store.compact(&g_stop);
        std::printf("%s: %s → %s\n", store.path().c_str(), format_bytes(c.before).c_str(), format_bytes(c.after).c_str());
    } catch (const StoreError& e) {
        if (!g_stop) throw;
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kInterrupted;
    }
    return kOk;
}

extern const Command kCompactCommand{"compact", "compact",
    "give back the disk space deleted runs left in the store's file\n",
    cmd_compact,
    "The store is rewritten without its free pages in one transaction (SQLite's VACUUM): stopped or\n"
    "killed, it is left as it was; run ids stay. It needs as much free disk as the store's data, beside\n"
    "it and in $SQLITE_TMPDIR (else $TMPDIR, else /var/tmp), and checks that first. A run training\n"
    "meanwhile waits for it (writers wait up to $NORMLAB_LOCK_TIMEOUT seconds).\n"};

}  // namespace normlab::cli
