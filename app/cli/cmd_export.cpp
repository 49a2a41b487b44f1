// normlab-cli export: every point of a run as CSV, or everything as JSON.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include <cmath>
#include <iomanip>
#include <iostream>
#include <sstream>

namespace normlab::cli {

using nlohmann::json;

static int cmd_export(const Args& args) {
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
                    {"ended_at", r.ended_at}, {"device", r.device}, {"color", r.color}};
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

extern const Command kExportCommand{"export", "export RUN --csv|--json",
    "the run's data (--out FILE, default stdout)\n",
    cmd_export,
    "--csv: one row per point (run_id,run_name,series,layer,step,value), never sampled.\n"
    "--json: the run's record, every series and every distribution.\n"
    "--out FILE is written through a temporary file: a failed export leaves nothing behind.\n",
    "--csv --json --out"};

}  // namespace normlab::cli
