// NormLab core: Slurm job-array sweeps (see slurm.h).
#include "core/dist/slurm.h"

#include "core/config.h"
#include "core/counted.h"
#include "core/errors.h"

#include <cstdio>
#include <regex>
#include <vector>

namespace normlab {
using nlohmann::json;

namespace {

// A word for a POSIX shell, quoted when it needs to be.
std::string sh(const std::string& s) {
    if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=/.:,@%") ==
                          std::string::npos)
        return s;
    std::string o = "'";
    for (char c : s) o += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return o + "'";
}

std::string numbered(const std::string& dir, const char* sub, int task, const char* ext) {
    char b[32];
    std::snprintf(b, sizeof b, "task-%03d", task);
    return dir + "/" + sub + "/" + b + ext;
}

}  // namespace

std::string SlurmSweep::store_of(int task) const { return numbered(dir, "stores", task, ".sqlite"); }
std::string SlurmSweep::log_of(int task) const { return numbered(dir, "logs", task, ".log"); }

json SlurmSweep::to_json() const {
    return {{"cli", cli},           {"experiment", experiment},   {"name", name},
            {"dir", dir},           {"scale", scale},             {"runs", run_names},
            {"runs_per_task", runs_per_task}, {"tasks", tasks()}, {"partition", partition},
            {"time", time},         {"cpus_per_task", cpus_per_task}, {"gpus_per_task", gpus_per_task},
            {"max_parallel", max_parallel}, {"device", device},   {"steps", steps}};
}

SlurmSweep SlurmSweep::from_json(const json& j) {
    SlurmSweep s;
    try {
        s.cli = j.at("cli");
        s.experiment = j.at("experiment");
        s.name = j.at("name");
        s.dir = j.at("dir");
        s.scale = j.value("scale", "");
        s.run_names = j.at("runs").get<std::vector<std::string>>();
        s.runs_per_task = j.value("runs_per_task", 1);
        s.partition = j.value("partition", "");
        s.time = j.value("time", "");
        s.cpus_per_task = j.value("cpus_per_task", 1);
        s.gpus_per_task = j.value("gpus_per_task", 0);
        s.max_parallel = j.value("max_parallel", 0);
        s.device = j.value("device", "");
        s.steps = j.value("steps", 0);
    } catch (const json::exception& e) {
        throw ConfigError("sweep.json", std::string("is not a NormLab sweep description: ") + e.what());
    }
    return s;
}

void check_sweep(const SlurmSweep& s) {
    // Every value below reaches a shell script: quoted there, and free of line breaks and escapes here.
    for (auto& [field, value] : std::vector<std::pair<const char*, const std::string*>>{
             {"name", &s.name}, {"--dir", &s.dir}, {"experiment", &s.experiment}, {"cli", &s.cli},
             {"--scale", &s.scale}, {"--device", &s.device}, {"--partition", &s.partition}, {"--time", &s.time}})
        require_safe_name(field, *value);
    for (auto& r : s.run_names) require_safe_name("runs", r);
    if (s.run_names.empty()) throw ConfigError("experiment", "has no runs to sweep");
    if (s.runs_per_task < 1) throw ConfigError("--runs-per-task", "must be at least 1");
    if (s.cpus_per_task < 1) throw ConfigError("--cpus-per-task", "must be at least 1");
    if (s.gpus_per_task < 0) throw ConfigError("--gpus-per-task", "must be 0 or more");
    if (s.max_parallel < 0) throw ConfigError("--max-parallel", "must be 0 (no limit) or more");
    // Slurm's time formats: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM, D-HH:MM:SS, or UNLIMITED.
    static const std::regex kTime(R"(\d+|\d+:\d+|\d+:\d+:\d+|\d+-\d+|\d+-\d+:\d+|\d+-\d+:\d+:\d+)");
    if (!s.time.empty() && s.time != "UNLIMITED" && s.time != "INFINITE" && !std::regex_match(s.time, kTime))
        throw ConfigError("--time", "\"" + s.time + "\" is not a Slurm time; use minutes (90), HH:MM:SS (01:30:00) or"
                                    " D-HH:MM:SS (1-00:00:00)");
    if (s.partition.find_first_of(" \t\n'\"$`\\") != std::string::npos)
        throw ConfigError("--partition", "\"" + s.partition + "\" is not a partition name");
}

std::string sbatch_script(const SlurmSweep& s) {
    const int n = static_cast<int>(s.run_names.size()), k = s.runs_per_task;
    std::string o = "#!/bin/bash\n";
    o += "# NormLab sweep of " + s.name + ": " + counted(n, "run") + " in " + counted(s.tasks(), "array task") +
         ", written by normlab-cli sweep --slurm.\n";
    o += "# Each task trains its runs into its own store under stores/ (SQLite is not shared between writers);\n";
    o += "# watch with `normlab-cli sweep --status " + s.dir + "`, merge with\n";
    o += "# `normlab-cli merge " + s.dir + "/stores/*.sqlite --into runs.sqlite`.\n";
    o += "#SBATCH --job-name=" + sh("normlab-" + s.name) + "\n";
    o += "#SBATCH --array=0-" + std::to_string(s.tasks() - 1) + (s.max_parallel > 0 ? "%" + std::to_string(s.max_parallel) : "") + "\n";
    o += "#SBATCH --ntasks=1\n";
    o += "#SBATCH --cpus-per-task=" + std::to_string(s.cpus_per_task) + "\n";
    if (s.gpus_per_task > 0) o += "#SBATCH --gpus-per-task=" + std::to_string(s.gpus_per_task) + "\n";
    if (!s.partition.empty()) o += "#SBATCH --partition=" + s.partition + "\n";
    if (!s.time.empty()) o += "#SBATCH --time=" + s.time + "\n";
    o += "#SBATCH --output=" + sh(s.dir + "/logs/task-%3a.log") + "\n";
    o += "set -euo pipefail\n";
    o += "TASK=${SLURM_ARRAY_TASK_ID:?run this script with sbatch}\n";
    o += "FIRST=$((TASK * " + std::to_string(k) + "))\n";
    o += "LAST=$((FIRST + " + std::to_string(k - 1) + "))\n";
    o += "if [ \"$LAST\" -gt " + std::to_string(n - 1) + " ]; then LAST=" + std::to_string(n - 1) + "; fi\n";
    o += "STORE=$(printf '%s/stores/task-%03d.sqlite' " + sh(s.dir) + " \"$TASK\")\n";
    o += "export OMP_NUM_THREADS=${SLURM_CPUS_PER_TASK:-" + std::to_string(s.cpus_per_task) + "}\n";
    o += "exec " + sh(s.cli) + " run " + sh(s.experiment) + " --index \"$FIRST-$LAST\" --store \"$STORE\" --threads \"$OMP_NUM_THREADS\"";
    if (!s.scale.empty()) o += " --scale " + sh(s.scale);
    if (!s.device.empty()) o += " --device " + sh(s.device);
    if (s.steps > 0) o += " --steps " + std::to_string(s.steps);
    o += "\n";
    return o;
}

}  // namespace normlab
