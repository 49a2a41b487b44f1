// normlab-cli sweep: an experiment's runs as a Slurm job array, and its progress.
#include "app/cli/training.h"

#include "core/counted.h"
#include "core/dist/slurm.h"
#include "core/errors.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>

namespace normlab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string self_path() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("normlab-cli") : p.string();
}

}  // namespace

namespace {

int write_sweep(const Args& args) {
    if (!args.has_flag("--slurm"))
        throw UsageError("sweep writes Slurm job arrays: normlab-cli sweep EXPERIMENT --slurm [--submit] (see --help)");
    if (args.positional.size() != 1) throw UsageError("sweep needs one experiment file: normlab-cli sweep EXPERIMENT --slurm");
    Experiment ex = load_experiment(args.positional[0], args.opt("--scale"));
    const std::vector<ExperimentRun> chosen = chosen_runs(ex, args);
    if (chosen.size() != ex.runs.size() && (args.options.count("--only") || args.options.count("--index")))
        throw UsageError("sweep trains every run of the experiment; --only and --index are for run");
    preflight_all(chosen);   // every run checked here, before the cluster spends time on it

    SlurmSweep s;
    s.cli = self_path();
    s.experiment = fs::absolute(args.positional[0]).lexically_normal().string();
    s.name = ex.name;
    s.scale = args.opt("--scale");
    for (auto& r : ex.runs) s.run_names.push_back(r.name);
    const int n = static_cast<int>(s.run_names.size());
    if (args.options.count("--runs-per-task")) s.runs_per_task = parse_int("--runs-per-task", args.opt("--runs-per-task"), 1, n);
    if (args.options.count("--cpus-per-task")) s.cpus_per_task = parse_int("--cpus-per-task", args.opt("--cpus-per-task"), 1, 4096);
    if (args.options.count("--gpus-per-task")) s.gpus_per_task = parse_int("--gpus-per-task", args.opt("--gpus-per-task"), 0, 64);
    if (args.options.count("--max-parallel")) s.max_parallel = parse_int("--max-parallel", args.opt("--max-parallel"), 0, 100000);
    if (args.options.count("--steps")) s.steps = parse_int("--steps", args.opt("--steps"), 1, 1000000000);
    s.partition = args.opt("--partition");
    s.time = args.opt("--time");
    s.device = args.opt("--device");
    const std::string dir = args.opt("--dir", "sweep-" + ex.name);
    s.dir = fs::absolute(dir).lexically_normal().string();
    check_sweep(s);
    if (fs::exists(fs::path(s.dir) / "sweep.json"))
        throw UsageError("--dir " + dir + " already holds a sweep (sweep.json); choose another folder, or watch it with"
                         " normlab-cli sweep --status " + dir);
    // Old task stores would be shown, and trained further, as this sweep's.
    std::error_code dec;
    if (fs::is_directory(fs::path(s.dir) / "stores", dec) && !fs::is_empty(fs::path(s.dir) / "stores", dec))
        throw UsageError("--dir " + dir + " already holds task stores (stores/) but no sweep.json; they would be taken"
                         " for this sweep's. Choose an empty folder, or move stores/ away.");

    fs::create_directories(fs::path(s.dir) / "stores");
    fs::create_directories(fs::path(s.dir) / "logs");
    write_output_file(s.dir + "/sweep.sbatch", sbatch_script(s));
    fs::permissions(s.dir + "/sweep.sbatch", fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
    json record = s.to_json();
    std::fprintf(stderr, "%s: %s in %s; script %s/sweep.sbatch\n", ex.name.c_str(), counted(n, "run").c_str(),
                 counted(s.tasks(), "array task").c_str(), s.dir.c_str());
    if (args.has_flag("--submit")) {
        std::string out = run_command({"sbatch", "--parsable", s.dir + "/sweep.sbatch"});
        const std::string job = out.substr(0, out.find_first_of(";\n"));
        record["job_id"] = job;
        write_output_file(s.dir + "/sweep.json", record.dump(2) + "\n");
        std::printf("%s\n", job.c_str());
        std::fprintf(stderr, "submitted job %s; watch it with: normlab-cli sweep --status %s\n", job.c_str(), dir.c_str());
    } else {
        write_output_file(s.dir + "/sweep.json", record.dump(2) + "\n");
        std::printf("%s/sweep.sbatch\n", s.dir.c_str());
        std::fprintf(stderr, "submit it with: sbatch %s/sweep.sbatch (or again with --submit)\n", s.dir.c_str());
    }
    return kOk;
}

// scancel of the sweep's job array: its running tasks stop (their runs are
// saved as cancelled: Slurm sends SIGTERM first), pending ones never start.
int sweep_cancel(const Args& args) {
    const std::string dir = args.opt("--cancel");
    const auto [s, j] = read_sweep(dir, "--cancel");
    if (!j.contains("job_id") || !j["job_id"].is_string())
        throw UsageError(dir + " was written without --submit: there is no job to cancel");
    const std::string job = j["job_id"].get<std::string>();
    run_command({"scancel", job});
    std::printf("%s\tcancelled\n", job.c_str());
    return kOk;
}

int sweep_status(const Args& args) {
    const std::string dir = args.opt("--status");
    const auto [s, j] = read_sweep(dir, "--status");
    std::map<std::string, int> counts;
    int64_t steps_done = 0, steps_total = 0;
    std::printf("%-6s %-28s %-12s %s\n", "task", "run", "status", "steps");
    for (int t = 0; t < s.tasks(); ++t) {
        const int first = t * s.runs_per_task;
        const int last = std::min<int>(first + s.runs_per_task, static_cast<int>(s.run_names.size()));
        std::map<std::string, RunInfo> found;
        const std::string store = s.store_of(t);
        if (fs::exists(store)) {
            try {
                Store st(store, Store::Mode::ReadOnly);
                for (auto& r : st.runs()) found[r.name] = r;
            } catch (const StoreError& e) {
                std::printf("%-6d %-28s %-12s %s\n", t, "", "unreadable", e.what());
            }
        }
        for (int i = first; i < last; ++i) {
            const std::string& name = s.run_names[static_cast<size_t>(i)];
            std::string status = "pending";
            std::string steps = "-";
            if (auto it = found.find(name); it != found.end()) {
                const RunInfo& r = it->second;
                status = r.status_text;
                const int64_t total = r.steps_total();
                steps = std::to_string(r.steps_done) + "/" + std::to_string(total);
                steps_done += r.status == RunStatus::Finished ? total : r.steps_done;
                steps_total += total;
            }
            ++counts[status];
            std::printf("%-6d %-28.28s %-12s %s\n", t, name.c_str(), status.c_str(), steps.c_str());
        }
    }
    std::string summary;
    for (auto& [k, v] : counts) summary += (summary.empty() ? "" : ", ") + std::to_string(v) + " " + k;
    std::printf("%s: %s: %s", s.name.c_str(), counted(static_cast<long long>(s.run_names.size()), "run").c_str(), summary.c_str());
    if (steps_total > 0) std::printf("; %.0f%% of the started runs' steps", 100.0 * steps_done / steps_total);
    std::printf("\n");
    if (j.contains("job_id")) std::printf("Slurm job %s\n", j["job_id"].get<std::string>().c_str());
    std::printf("merge: normlab-cli merge %s/stores/*.sqlite --into runs.sqlite\n", s.dir.c_str());
    return counts.count("failed") || counts.count("diverged") ? kFailed : kOk;
}

}  // namespace

int cmd_sweep(const Args& args) {
    if (args.options.count("--status")) return sweep_status(args);
    if (args.options.count("--cancel")) return sweep_cancel(args);
    return write_sweep(args);
}

}  // namespace normlab::cli
