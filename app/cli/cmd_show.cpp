// normlab-cli show: one run — status, info, configuration and what it recorded.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include "core/remote/mirror.h"
#include "core/settings_differ.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace normlab::cli {

namespace {

// The trace version a run was trained by (versions.trace; runs before it was recorded: 0).
int trace_version(const RunInfo& r) {
    auto it = r.versions.find("trace");
    return r.versions.is_object() && it != r.versions.end() && it->is_number_integer() ? it->get<int>() : 0;
}

// A stored object (versions, info) a key a line, aligned, its texts without quotes; a nested
// value as JSON on its line.
void print_object(const char* label, const nlohmann::json& o) {
    if (!o.is_object() || o.empty()) {
        std::printf("  %-11s %s\n", label, o.is_object() || o.is_null() ? "-" : printable_name(o.dump()).c_str());
        return;
    }
    size_t width = 0;
    for (auto& [k, v] : o.items()) width = std::max(width, std::min<size_t>(printable_name(k).size(), 24));
    std::printf("  %s\n", label);
    for (auto& [k, v] : o.items())
        std::printf("    %-*s  %s\n", static_cast<int>(width), printable_name(k).c_str(),
                    printable_name(v.is_string() ? v.get<std::string>() : v.dump()).c_str());
}

void show_one(Store& store, const RunInfo& r) {
    // Every stored text printed so that no byte of it reaches the terminal as a control or escape sequence.
    std::printf("run %lld: %s\n", static_cast<long long>(r.id), printable_name(r.name).c_str());
    std::printf("  scheme      %s\n  status      %s", printable_name(r.scheme).c_str(), printable_name(r.status_text).c_str());
    if (r.status_step >= 0 && r.status != RunStatus::Finished) std::printf(" at step %lld", static_cast<long long>(r.status_step));
    std::printf("\n");
    if (!r.message.empty()) std::printf("  message     %s\n", printable_name(r.message).c_str());
    // Without a final validation loss (training, stopped, killed): the latest measured, and when.
    std::string val = fmt_loss(r.final_loss);
    if (!std::isfinite(r.final_loss))
        if (const std::optional<Point> p = store.last_point(r.id, "val/loss"))
            val = "~" + fmt_loss(p->value) + " (the latest, at step " + std::to_string(p->step) + "; no final one yet)";
    std::printf("  steps       %lld\n  val loss    %s\n  device      %s\n  seed        %llu\n  created     %s\n",
                static_cast<long long>(r.steps_done), val.c_str(), printable_name(r.device).c_str(),
                static_cast<unsigned long long>(r.seed), time_text(r.created_at).c_str());
    if (r.ended_at > 0 && r.started_at > 0) std::printf("  duration    %s\n", format_duration(r.ended_at - r.started_at).c_str());
    std::string tags;
    for (auto& t : r.tags) tags += (tags.empty() ? "" : ", ") + printable_name(t);
    std::string notes;   // its lines kept, each printed safely
    for (size_t at = 0; at <= r.notes.size();) {
        const size_t nl = std::min(r.notes.find('\n', at), r.notes.size());
        notes += (at ? "\n              " : "") + printable_name(r.notes.substr(at, nl - at));
        at = nl + 1;
    }
    std::printf("  colour      %s\n", printable_name(r.color).c_str());
    std::printf("  tags        %s\n  notes       %s\n", tags.empty() ? "-" : tags.c_str(), notes.empty() ? "-" : notes.c_str());
    if (const RemoteRef ref = remote_ref(r); ref.run > 0) {
        // Mirrored from a server (remote follow): where it is, and how to reach it from here.
        std::printf("  server      %s, run %lld in %s%s%s there\n", printable_name(ref.dest).c_str(),
                    static_cast<long long>(ref.run), printable_name(ref.store).c_str(),
                    ref.sweep.empty() ? "" : " of the sweep ", printable_name(ref.sweep).c_str());
        const auto remote = r.info.find("remote");
        const std::string ckpt = remote != r.info.end() && remote->is_object() ? remote->value("checkpoint", "") : "";
        if (ckpt.empty()) std::printf("  checkpoint  - (none on the server yet)\n");
        else {
            std::string fetch = "normlab-cli remote fetch " + shell_word(ref.dest) + " " + std::to_string(ref.run) +
                                " --checkpoint --out FILE --remote-store " + shell_word(ref.store);
            if (!ref.cli.empty() && ref.cli != "normlab-cli") fetch += " --remote-cli " + shell_word(ref.cli);
            fetch += store_option(store);
            std::printf("  checkpoint  %s on the server; here: %s\n", printable_name(ckpt).c_str(), printable_name(fetch).c_str());
        }
    } else {
        std::printf("  checkpoint  %s\n", r.checkpoint.empty() ? "-" : printable_name(r.checkpoint).c_str());
    }
    print_object("versions", r.versions);
    print_object("info", r.info);
    std::map<std::string, std::pair<int, int64_t>> grouped;  // name -> (layers, points)
    for (auto& s : store.series(r.id)) {
        auto& g = grouped[s.name];
        g.first += s.layer >= 0 ? 1 : 0;
        g.second += s.count;
    }
    std::printf("  series      %zu\n", grouped.size());
    auto counted = [](long long n, const char* one, const char* many) { return std::to_string(n) + ' ' + (n == 1 ? one : many); };
    for (auto& [name, g] : grouped)
        std::printf("    %-28s %s%s\n", printable_name(name).c_str(), g.first ? (counted(g.first, "layer", "layers") + ", ").c_str() : "",
                    counted(g.second, "point", "points").c_str());
    std::map<std::string, size_t> dists;
    for (auto& d : store.distributions(r.id)) dists[d.name]++;
    for (auto& [name, n] : dists)
        std::printf("    %-28s %s\n", printable_name(name).c_str(), counted(static_cast<long long>(n), "distribution", "distributions").c_str());
    const std::string config = r.config.dump(2);   // its lines kept, each printed safely
    std::printf("  config      ");
    for (size_t at = 0; at < config.size();) {
        const size_t nl = std::min(config.find('\n', at), config.size());
        std::printf("%s%s\n", at ? "  " : "", printable_name(config.substr(at, nl - at)).c_str());
        at = nl + 1;
    }
}

// The settings in which the runs differ, a column a run, as the window's panel lists them: the scheme
// first, what the runs chose, then what their schemes imply.
void show_differences(const std::vector<RunInfo>& runs) {
    std::vector<nlohmann::json> configs;
    for (const RunInfo& r : runs) configs.push_back(r.config);
    const DifferingSettings d = differing_settings(configs);
    std::printf("\nsettings that differ");
    if (d.keys.empty()) {
        std::printf(": none but their names\n");
        return;
    }
    std::printf("\n");
    std::vector<std::vector<std::string>> cells(d.keys.size() + 1);   // a header row, then a row a key
    cells[0].push_back("");
    for (const RunInfo& r : runs) cells[0].push_back("#" + std::to_string(r.id) + " " + printable_name(r.name));
    for (size_t k = 0; k < d.keys.size(); ++k) {
        cells[k + 1].push_back(printable_name(d.keys[k]));
        for (const auto& leaves : d.leaves) {
            const auto it = leaves.find(d.keys[k]);
            cells[k + 1].push_back(printable_name(setting_text(it != leaves.end() ? &it->second : nullptr)));
        }
    }
    std::vector<int> width(runs.size() + 1, 0);
    for (const auto& row : cells)
        for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], width_of(row[c]));
    for (size_t k = 0; k < cells.size(); ++k) {
        if (k == d.implied_from + 1 && d.implied_from < d.keys.size()) std::printf("  what their schemes imply:\n");
        std::string line = "  ";
        for (size_t c = 0; c + 1 < cells[k].size(); ++c) line += fit(cells[k][c], width[c]) + "  ";
        std::printf("%s%s\n", line.c_str(), cells[k].back().c_str());
    }
}

}  // namespace

static int cmd_show(const Args& args) {
    if (args.positional.empty()) throw UsageError("show needs a run: normlab-cli show RUN [RUN...]");
    Store store(store_path(args), Store::Mode::ReadOnly);
    std::vector<RunInfo> runs;
    for (auto& key : args.positional) runs.push_back(store.find_run(key));
    std::map<int, std::vector<int64_t>> by_trace;
    for (size_t i = 0; i < runs.size(); ++i) {
        if (i) std::printf("\n");
        show_one(store, runs[i]);
        if (runs[i].status != RunStatus::Queued) by_trace[trace_version(runs[i])].push_back(runs[i].id);
    }
    if (runs.size() >= 2) show_differences(runs);
    // Runs trained by versions whose traces differ are not comparable as they stand.
    if (by_trace.size() > 1) {
        std::string which;
        for (auto& [v, ids] : by_trace) {
            std::string list;
            for (int64_t id : ids) list += (list.empty() ? "#" : ", #") + std::to_string(id);
            which += (which.empty() ? "" : "; ") + list + ": " + (v ? "trace version " + std::to_string(v) : std::string("before trace versions were recorded"));
        }
        std::printf("\nnote: these runs were trained by NormLab versions whose training traces differ (%s); the same"
                    " experiment would not train the same trace in both. CHANGELOG.md says which series changed and why.\n",
                    which.c_str());
    }
    return kOk;
}

extern const Command kShowCommand{"show", "show RUN [RUN...]",
    "runs: configuration, status, info, recorded series; of several, the\n"
    "settings in which they differ, and whether versions whose traces\n"
    "differ trained them\n",
    cmd_show};

}  // namespace normlab::cli
