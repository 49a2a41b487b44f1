// NormLab core: the launcher's variables (see launch.h).
#include "core/dist/launch.h"

#include "core/errors.h"

#include <algorithm>
#include <cstdlib>

namespace normlab {
namespace {

// A whole non-negative integer, or a ConfigError naming the variable.
int env_int(const char* name, const char* value, int lo, int hi) {
    const std::string s = value ? value : "";
    size_t pos = 0;
    long v = -1;
    try {
        v = std::stol(s, &pos);
    } catch (...) {
        pos = 0;
    }
    if (s.empty() || pos != s.size() || v < lo || v > hi)
        throw ConfigError(name, "is \"" + s + "\"; expected a whole number from " + std::to_string(lo) + " to " +
                                    std::to_string(hi) + " (it is set by the launcher: torchrun, srun)");
    return static_cast<int>(v);
}

}  // namespace

std::string first_slurm_host(const std::string& nodelist) {
    // Up to the first comma outside brackets; a bracket range keeps its first entry.
    std::string host;
    for (size_t i = 0; i < nodelist.size(); ++i) {
        const char c = nodelist[i];
        if (c == ',') break;
        if (c == '[') {
            const size_t close = nodelist.find(']', i);
            if (close == std::string::npos) throw ConfigError("SLURM_STEP_NODELIST", "\"" + nodelist + "\" has an unclosed '['");
            std::string inside = nodelist.substr(i + 1, close - i - 1);
            inside = inside.substr(0, inside.find_first_of(",-"));
            host += inside;
            i = close;
            continue;
        }
        host += c;
    }
    return host;
}

LaunchInfo detect_launch(const std::function<const char*(const char*)>& env) {
    LaunchInfo li;
    auto has = [&](const char* k) { const char* v = env(k); return v && *v; };
    if (has("WORLD_SIZE")) {
        li.world_size = env_int("WORLD_SIZE", env("WORLD_SIZE"), 1, 1 << 20);
        if (li.world_size == 1) return li;
        li.launcher = has("TORCHELASTIC_RUN_ID") ? "torchrun" : "env";
        if (!has("RANK")) throw ConfigError("RANK", "is not set but WORLD_SIZE is " + std::to_string(li.world_size) +
                                                        "; set RANK to this process's index (0 to WORLD_SIZE-1) or launch with torchrun");
        li.rank = env_int("RANK", env("RANK"), 0, li.world_size - 1);
        li.local_rank = has("LOCAL_RANK") ? env_int("LOCAL_RANK", env("LOCAL_RANK"), 0, li.world_size - 1) : li.rank;
        li.local_world_size = has("LOCAL_WORLD_SIZE") ? env_int("LOCAL_WORLD_SIZE", env("LOCAL_WORLD_SIZE"), 1, li.world_size)
                                                      : li.world_size;
        if (!has("MASTER_ADDR"))
            throw ConfigError("MASTER_ADDR", "is not set; set it to rank 0's host name or address (127.0.0.1 on one machine)");
        li.master_addr = env("MASTER_ADDR");
        li.master_port = has("MASTER_PORT") ? env_int("MASTER_PORT", env("MASTER_PORT"), 1, 65535) : 29500;
        return li;
    }
    // A Slurm step: srun sets SLURM_STEP_NUM_TASKS; a batch script (the step
    // that runs sbatch's script) has SLURM_NTASKS but is one process.
    if (has("SLURM_PROCID") && has("SLURM_STEP_NUM_TASKS")) {
        li.world_size = env_int("SLURM_STEP_NUM_TASKS", env("SLURM_STEP_NUM_TASKS"), 1, 1 << 20);
        if (li.world_size == 1) return li;
        li.launcher = "slurm";
        li.rank = env_int("SLURM_PROCID", env("SLURM_PROCID"), 0, li.world_size - 1);
        li.local_rank = has("SLURM_LOCALID") ? env_int("SLURM_LOCALID", env("SLURM_LOCALID"), 0, li.world_size - 1) : 0;
        li.local_world_size = 1;
        if (has("SLURM_STEP_TASKS_PER_NODE")) {
            // "2" or "2(x3)" or "3,2": the first node's count.
            const std::string t = env("SLURM_STEP_TASKS_PER_NODE");
            const std::string lead = t.substr(0, t.find_first_not_of("0123456789"));
            if (!lead.empty()) li.local_world_size = std::max(1, std::atoi(lead.c_str()));
        }
        const char* nodes = has("SLURM_STEP_NODELIST") ? env("SLURM_STEP_NODELIST")
                            : has("SLURM_JOB_NODELIST") ? env("SLURM_JOB_NODELIST") : env("SLURM_NODELIST");
        if (!nodes || !*nodes) throw ConfigError("SLURM_STEP_NODELIST", "is not set; cannot find rank 0's host (set MASTER_ADDR)");
        li.master_addr = has("MASTER_ADDR") ? env("MASTER_ADDR") : first_slurm_host(nodes);
        if (has("MASTER_PORT")) {
            li.master_port = env_int("MASTER_PORT", env("MASTER_PORT"), 1, 65535);
        } else {
            // Every task of a step computes the same port; steps and jobs on one node differ.
            const long job = has("SLURM_JOB_ID") ? std::atol(env("SLURM_JOB_ID")) : 0;
            const long step = has("SLURM_STEP_ID") ? std::atol(env("SLURM_STEP_ID")) : 0;
            li.master_port = 20000 + static_cast<int>((job * 31 + step) % 20000);
        }
        return li;
    }
    return li;
}

LaunchInfo detect_launch() {
    return detect_launch([](const char* k) { return std::getenv(k); });
}

}  // namespace normlab
