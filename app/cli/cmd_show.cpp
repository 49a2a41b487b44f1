// normlab-cli show: one run — status, info, configuration and what it recorded.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include <cstdio>
#include <map>

namespace normlab::cli {

static int cmd_show(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("show needs one run: normlab-cli show RUN");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    std::printf("run %lld: %s\n", static_cast<long long>(r.id), r.name.c_str());
    std::printf("  scheme      %s\n  status      %s", r.scheme.c_str(), r.status_text.c_str());
    if (r.status_step >= 0 && r.status != RunStatus::Finished) std::printf(" at step %lld", static_cast<long long>(r.status_step));
    std::printf("\n");
    if (!r.message.empty()) std::printf("  message     %s\n", r.message.c_str());
    std::printf("  steps       %lld\n  val loss    %s\n  device      %s\n  seed        %llu\n  created     %s\n",
                static_cast<long long>(r.steps_done), fmt_loss(r.final_loss).c_str(), r.device.c_str(),
                static_cast<unsigned long long>(r.seed), time_text(r.created_at).c_str());
    if (r.ended_at > 0 && r.started_at > 0) std::printf("  duration    %s\n", format_duration(r.ended_at - r.started_at).c_str());
    std::string tags;
    for (auto& t : r.tags) tags += (tags.empty() ? "" : ", ") + t;
    std::printf("  colour      %s\n", r.color.c_str());
    std::printf("  tags        %s\n  notes       %s\n  checkpoint  %s\n", tags.c_str(), r.notes.c_str(),
                r.checkpoint.empty() ? "-" : r.checkpoint.c_str());
    std::printf("  versions    %s\n  info        %s\n", r.versions.dump().c_str(), r.info.dump().c_str());
    std::map<std::string, std::pair<int, int64_t>> grouped;  // name -> (layers, points)
    for (auto& s : store.series(r.id)) {
        auto& g = grouped[s.name];
        g.first += s.layer >= 0 ? 1 : 0;
        g.second += s.count;
    }
    std::printf("  series      %zu\n", grouped.size());
    for (auto& [name, g] : grouped)
        std::printf("    %-28s %s%lld points\n", name.c_str(),
                    g.first ? (std::to_string(g.first) + " layers, ").c_str() : "", static_cast<long long>(g.second));
    std::map<std::string, size_t> dists;
    for (auto& d : store.distributions(r.id)) dists[d.name]++;
    for (auto& [name, n] : dists) std::printf("    %-28s %zu distributions\n", name.c_str(), n);
    std::printf("  config      %s\n", r.config.dump(2).c_str());
    return kOk;
}

extern const Command kShowCommand{"show", "show RUN",
    "one run: configuration, status, info, recorded series\n",
    cmd_show};

}  // namespace normlab::cli
