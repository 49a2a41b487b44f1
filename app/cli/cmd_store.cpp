// normlab-cli: list, show, export, export-weights and eval-batch — commands
// that only read a store. They open it read-only: no write lock (they work
// while a run writes, on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include "core/train/trainer.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace normlab::cli {
using nlohmann::json;

int cmd_list(const Args& args) {
    const std::string path = store_path(args);
    if (::access(path.c_str(), F_OK) != 0) {
        std::printf("(no store at %s yet: no runs)\n", path.c_str());
        return kOk;
    }
    Store store(path, Store::Mode::ReadOnly);
    auto runs = store.runs();
    std::printf("%-5s %-32s %-11s %-11s %9s %10s  %s\n", "id", "name", "scheme", "status", "steps", "val loss", "created");
    for (auto& r : runs)
        std::printf("%-5lld %-32.32s %-11s %-11s %9lld %10s  %s\n", static_cast<long long>(r.id), r.name.c_str(),
                    r.scheme.c_str(), r.status_text.c_str(), static_cast<long long>(r.steps_done),
                    fmt_loss(r.final_loss).c_str(), time_text(r.created_at).c_str());
    if (runs.empty()) std::printf("(no runs in %s)\n", store.path().c_str());
    return kOk;
}

int cmd_show(const Args& args) {
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

int cmd_export(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("export needs one run: normlab-cli export RUN --csv|--json");
    const bool csv = args.has_flag("--csv"), js = args.has_flag("--json");
    if (csv == js) throw UsageError("export needs exactly one of --csv or --json");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    const std::string out = args.opt("--out");
    std::ostringstream os;
    os.precision(9);
    auto series = store.series(r.id);
    if (csv) {
        // Long format: one row per point, every point (never sampled).
        os << "run_id,run_name,series,layer,step,value\n";
        for (auto& s : series)
            for (auto& p : store.points(s.id))
                os << r.id << ',' << csv_escape(r.name) << ',' << s.name << ',' << s.layer << ',' << p.step << ','
                   << (std::isnan(p.value) ? std::string("nan") : (std::ostringstream() << std::setprecision(9) << p.value).str())
                   << '\n';
    } else {
        json j;
        j["run"] = {{"id", r.id},           {"name", r.name},         {"scheme", r.scheme},
                    {"status", r.status_text}, {"status_step", r.status_step}, {"message", r.message},
                    {"config", r.config},   {"info", r.info},         {"versions", r.versions},
                    {"seed", r.seed},       {"tags", r.tags},         {"notes", r.notes},
                    {"steps_done", r.steps_done}, {"created_at", r.created_at}, {"started_at", r.started_at},
                    {"ended_at", r.ended_at}, {"device", r.device}};
        j["run"]["final_loss"] = std::isnan(r.final_loss) ? json(nullptr) : json(r.final_loss);
        json arr = json::array();
        for (auto& s : series) {
            json pts = json::array();
            for (auto& p : store.points(s.id))
                pts.push_back({p.step, std::isfinite(p.value) ? json(p.value) : json(nullptr)});
            arr.push_back({{"name", s.name}, {"layer", s.layer}, {"points", pts}});
        }
        j["series"] = arr;
        json dists = json::array();
        for (auto& d : store.distributions(r.id))
            dists.push_back({{"name", d.name}, {"layer", d.layer}, {"step", d.step}, {"count", d.count},
                             {"min", d.min}, {"q1", d.q1}, {"median", d.median}, {"q3", d.q3}, {"max", d.max},
                             {"mean", d.mean}, {"std", d.std}, {"hist_lo", d.hist_lo}, {"hist_hi", d.hist_hi},
                             {"hist", d.hist}});
        j["distributions"] = dists;
        os << j.dump(1) << '\n';
    }
    // Into a temporary file renamed into place: a full disk leaves no truncated export, and exits non-zero.
    if (!out.empty()) write_output_file(out, os.str());
    else {
        std::cout << os.str();
        std::cout.flush();
        if (!std::cout) throw std::runtime_error("writing the export to standard output failed");
    }
    return kOk;
}

int cmd_export_weights(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("export-weights needs a run and a file: normlab-cli export-weights RUN FILE.safetensors");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    export_safetensors(r, args.positional[1]);
    std::fprintf(stderr, "wrote %s (run %lld)\n", args.positional[1].c_str(), static_cast<long long>(r.id));
    return kOk;
}

int cmd_eval_batch(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("eval-batch needs a run and a file: normlab-cli eval-batch RUN FILE.safetensors");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    const int batch = args.options.count("--batch") ? parse_int("--batch", args.opt("--batch"), 1, 4096) : 4;
    const int seed = args.options.count("--seed") ? parse_int("--seed", args.opt("--seed"), 0) : 7;
    const double loss = write_eval_batch(r, args.positional[1], batch, static_cast<uint64_t>(seed));
    std::printf("%.9g\n", loss);
    return kOk;
}

}  // namespace normlab::cli
