// normlab-cli merge: run stores into one (a sweep's task stores, stores from other machines).
#include "app/cli/cli.h"
#include "app/stop_signals.h"

#include "core/counted.h"
#include "core/errors.h"

#include <atomic>
#include <csignal>
#include <cstdio>

namespace normlab::cli {
namespace {

std::atomic<bool> g_stop{false};

void on_signal(int) { g_stop = true; }

}  // namespace

static int cmd_merge(const Args& args) {
    const std::string into = args.opt("--into");
    if (into.empty() || args.positional.empty())
        throw UsageError("merge needs stores and a target: normlab-cli merge STORE... --into STORE");
    // Ctrl-C (SIGTERM, a hang-up): the store being merged is rolled back whole (its checkpoint copies removed); those before it stay merged.
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    app::stop_on_hangup(on_signal);
    // Every input is checked before anything is written: a refused one stops the merge untouched.
    for (auto& p : args.positional) {
        if (g_stop) break;   // nothing written yet: the first merge below says so
        Store(p, Store::Mode::ReadOnly).require_sound(into);
    }
    Store target(into);
    int added = 0, updated = 0, unchanged = 0;
    size_t done = 0;
    // On a terminal, how far the store being merged is (a store of 370 MB took 14 s without a word)
    ProgressLine line;
    for (auto& p : args.positional) {
        Store::MergeReport r;
        const std::string head = "merging " + p + " (" + std::to_string(done + 1) + " of " + std::to_string(args.positional.size()) + ")";
        auto progress = [&](int64_t series, int64_t total) { line.show(head, series, total, "series"); };
        try {
            r = target.merge_from(p, /*checked=*/true, &g_stop, progress);
            line.end();
        } catch (const StoreError&) {
            line.end();
            if (!g_stop) throw;
            const std::string before = done == 0   ? ""
                                       : done == 1 ? "; the store before it was"
                                                   : "; the " + std::to_string(done) + " stores before it were";
            std::fprintf(stderr, "normlab-cli: merge stopped: nothing of %s was merged into %s%s\n", p.c_str(),
                         target.path().c_str(), before.c_str());
            return kInterrupted;
        }
        ++done;
        std::fprintf(stderr, "%s: %s added, %d updated, %d already there\n", p.c_str(), counted(r.added, "run").c_str(), r.updated,
                     r.unchanged);
        for (auto& w : r.warnings) std::fprintf(stderr, "  warning: %s\n", w.c_str());
        added += r.added;
        updated += r.updated;
        unchanged += r.unchanged;
    }
    std::printf("%s: %s added, %d updated, %d already there (%s merged)\n", target.path().c_str(),
                counted(added, "run").c_str(), updated, unchanged,
                counted(static_cast<long long>(args.positional.size()), "store").c_str());
    return kOk;
}

extern const Command kMergeCommand{"merge", "merge STORE... --into STORE",
    "copy the runs of several stores into one (a sweep's task\n"
    "stores); merging again adds nothing\n",
    cmd_merge,
    "Each run is copied with every series, distribution, note, tag, colour, its experiment and its\n"
    "checkpoint file (into STORE.checkpoints/), under a new id. A run is identified by its creation\n"
    "time, seed and configuration: one already in the target is skipped, or brought up to date when\n"
    "the source has trained it further (its name, notes, tags and colour in the target are kept).\n"
    "The inputs are only read; a file that is not a run store is refused before anything is written.\n"
    "Each store is merged in one transaction: Ctrl-C leaves nothing of the one being merged (those\n"
    "before it stay merged), and the command exits with 130.\n"
    "example: normlab-cli merge sweep/stores/*.sqlite --into runs.sqlite\n",
    "--into"};

}  // namespace normlab::cli
