// NormLab core: how this process was launched — alone, by torchrun (or any
// launcher that sets its variables), or as one task of a Slurm step.
//
// Goals: read the launchers' own variables, check them before anything is
// written, and say which variable is wrong and how to fix it. No LibTorch:
// the CLI reads it before it loads a model, and tests feed it a fake
// environment. See docs/SCALING.md.
#pragma once

#include <functional>
#include <string>

namespace normlab {

struct LaunchInfo {
    int rank = 0;                  // this process in [0, world_size)
    int world_size = 1;
    int local_rank = 0;            // this process on its node (selects cuda:LOCAL_RANK)
    int local_world_size = 1;      // processes on this node (shares its cores)
    std::string master_addr;       // rank 0's host, where the rendezvous TCPStore listens
    int master_port = 0;
    std::string launcher = "none"; // "torchrun", "env" (the torchrun variables set by hand or another launcher), "slurm"
    bool distributed() const { return world_size > 1; }
};

// Reads the environment: WORLD_SIZE/RANK/LOCAL_RANK/LOCAL_WORLD_SIZE/
// MASTER_ADDR/MASTER_PORT first (torchrun, also inside a Slurm job), else a
// Slurm step of several tasks (SLURM_PROCID, SLURM_STEP_NUM_TASKS,
// SLURM_LOCALID, SLURM_STEP_TASKS_PER_NODE, SLURM_STEP_NODELIST; the
// master is the node list's first host, the port is MASTER_PORT or derived
// from the job and step ids). A batch script or array task (one task) is
// not distributed. Throws ConfigError naming the variable.
LaunchInfo detect_launch(const std::function<const char*(const char*)>& getenv);
LaunchInfo detect_launch();

// The first host of a Slurm node list: "node[03-05,9],gpu1" → "node03".
std::string first_slurm_host(const std::string& nodelist);

}  // namespace normlab
