// Every normlab-cli command's name, synopsis, help and options, and the usage text that lists
// them: in both of normlab-cli's programs (front.cpp, main.cpp), so that `COMMAND --help`, the
// usage, an unknown command and an option a command does not take are answered by the front
// end in milliseconds, without loading LibTorch (Debian's takes ~1 s, under the sanitizers
// ~2 s). The commands that need LibTorch are described here with no function: the engine
// (main.cpp) runs them, the front end becomes the engine for them (front.cpp).
#include "app/cli/cli.h"
#include "core/nearest.h"

#include <cstdio>
#include <cstring>
#include <sstream>

namespace normlab::cli {

// The commands the front end runs itself, each described in its own file.
extern const Command kListCommand, kShowCommand, kExportCommand, kMergeCommand, kPlotCommand, kPresetCommand,
    kSchemesCommand, kCancelCommand, kDeleteCommand, kCompactCommand, kRemoteCommand, kStreamCommand;

// The engine's, with no function here (main.cpp's table names each one's).
extern const Command kRunCommand{"run", "run EXPERIMENT.json",
    "train every run of an experiment (--only NAME to pick some,\n"
    "--device cpu|cuda|auto, --threads N, --steps N to override)\n",
    nullptr,   // cmd_run, cmd_run.cpp
    "options:\n"
    "  --only NAME      train only the run named NAME (where none is, the runs starting with \"NAME \":\n"
    "                   a variant's sweep points); repeatable\n"
    "  --index I[-J]    train only the runs at positions I to J\n"
    "                   (0-based; what a sweep's array task trains)\n"
    "  --scale NAME     use the experiment's named scale (e.g. gpu)\n"
    "  --steps N        override every run's train.steps\n"
    "  --device D       cpu, cuda, cuda:N or auto;  --threads N  LibTorch threads (0: all cores)\n"
    "  --precision P    fp32, tf32 or bf16 (mixed precision, fp32 weights): overrides train.precision\n"
    "  --cuda-graph M   auto, on or off: the step captured as a CUDA graph (auto: on a GPU when\n"
    "                   the run allows it): overrides train.cuda_graph\n"
    "  --batch N|auto   override every run's train.batch_size; auto: the largest power of two whose\n"
    "                   training step fits in 85% of the GPU's memory, measured on it before queueing\n"
    "  --detach         queue the runs, print their ids and train them in a process of its own\n"
    "                   that outlives the terminal and the ssh session (output: STORE.logs/)\n"
    "Every run is checked (fields, data source, device, memory) before anything is written.\n"
    "Ctrl-C or SIGTERM cancels within a second, keeping a checkpoint; a second one exits at once.\n"
    "So does a hang-up (its terminal or ssh session closed) or a closed pipe; not under nohup.\n"
    "Data-parallel: started by torchrun --no-python, by srun -n N, or with RANK, WORLD_SIZE,\n"
    "MASTER_ADDR and MASTER_PORT set, each process trains a slice of every batch (Gloo on the\n"
    "CPU, NCCL on CUDA); rank 0 writes the store (docs/SCALING.md).\n",
    "--only --index --scale --steps --device --threads --precision --cuda-graph --batch --detach"};

extern const Command kValidateCommand{"validate", "validate EXPERIMENT.json",
    "check an experiment and list the runs it expands to\n",
    nullptr,   // cmd_validate, cmd_validate.cpp
    "options: --scale NAME, --only NAME, --index I[-J], --steps N, --device D, --threads N,\n"
    "         --precision P, --cuda-graph M, --batch N|auto, as for run.\n"
    "Refuses exactly what run would refuse, naming the field and the fix; writes nothing.\n",
    "--scale --only --index --steps --device --threads --precision --cuda-graph --batch"};

extern const Command kSampleCommand{"sample", "sample RUN [RUN ...]",
    "text the runs' latest weights write, continuing --prompt TEXT\n"
    "(--bytes N, --temperature T, --top-k K, --seed S, --slide, --weights F)\n",
    nullptr,   // cmd_sample, cmd_sample.cpp
    "The model reads and writes bytes: each next one is drawn from its distribution over the\n"
    "last model.context bytes, printed as it comes (Ctrl-C stops). Several runs write from one\n"
    "prompt with the same random draws, so their texts differ by their models alone.\n"
    "  --prompt TEXT        what the text continues (default: a line break)\n"
    "  --bytes N            bytes to write, 1 to 100000 (default 300)\n"
    "  --temperature T      0 (always the likeliest byte) to 10 (default 0.8)\n"
    "  --top-k K            draw among the K likeliest bytes (default 0: all 256)\n"
    "  --seed S             the draws (default 1): the same seed, the same text\n"
    "  --slide window|half  past model.context bytes: read the last window whole again for\n"
    "                       every byte, as the model was trained (window, the default; slow\n"
    "                       for big models), or keep its last half and go on from there (half:\n"
    "                       each byte reads half a window to a whole one; many times faster)\n"
    "  --weights FILE       a checkpoint of the run to use instead of its latest, e.g. one\n"
    "                       `normlab-cli remote fetch DEST RUN --checkpoint --out FILE` brought\n"
    "Control characters and bytes that are not UTF-8 are printed as \\xNN.\n"
    "Example: normlab-cli sample Post-LN NormFormer --prompt 'The ' --bytes 200\n",
    "--prompt --bytes --temperature --top-k --seed --slide --weights"};

extern const Command kExportWeightsCommand{"export-weights", "export-weights RUN FILE",
    "the run's latest weights as safetensors (docs/WEIGHTS.md)\n",
    nullptr};   // cmd_export_weights, cmd_export_weights.cpp

extern const Command kEvalBatchCommand{"eval-batch", "eval-batch RUN FILE",
    "logits and loss on a validation batch, as safetensors\n"
    "(--batch N, --seed S)\n",
    nullptr,   // cmd_eval_batch, cmd_eval_batch.cpp
    "Writes the batch, the core's logits and its loss for tests/crosscheck.py; prints the loss.\n",
    "--batch --seed"};

extern const Command kExportBatchesCommand{"export-batches", "export-batches RUN --steps A..B --out FILE",
    "the exact tokens training steps A..B of a run drew (safetensors),\n"
    "to replay its training elsewhere\n",
    nullptr,   // cmd_export_batches, cmd_export_batches.cpp
    "Tensors: tokens (N, batch, context+1; int64: inputs are [:, :, :-1], targets [:, :, 1:])\n"
    "and steps (N).\n"
    "Metadata: the run's configuration, its data's hash. Step s is the batch update s+1 trained on.\n"
    "The run's data must be what it trained on (refused otherwise); docs/WEIGHTS.md.\n",
    "--steps --out"};

extern const Command kResumeCommand{"resume", "resume RUN [RUN ...]",
    "continue an interrupted, cancelled or failed run from its\n"
    "checkpoint (from step 0 when it has none)\n",
    nullptr,   // cmd_resume, cmd_resume.cpp
    "options: --device D, --threads N;\n"
    "  --detach     train in a process of its own that outlives the terminal and ssh\n"
    "               (output: STORE.logs/)\n"
    "  --if-queued  train each run only if it is still queued (what a detached run uses)\n"
    "The run continues from its last checkpoint to exactly the trace it would have written.\n",
    "--device --threads --detach --if-queued"};

extern const Command kSweepCommand{"sweep", "sweep EXPERIMENT --slurm",
    "an experiment's runs as a Slurm job array, each task into its\n"
    "own store (--submit submits it); sweep --status DIR shows progress\n",
    nullptr,   // cmd_sweep, cmd_sweep.cpp
    "options:\n"
    "  --dir DIR            the sweep's folder (default sweep-NAME): sweep.sbatch, sweep.json,\n"
    "                       stores/task-NNN.sqlite, logs/task-NNN.log\n"
    "  --submit             submit with sbatch and print the job id\n"
    "  --partition P  --time T  --cpus-per-task N  --gpus-per-task N\n"
    "  --max-parallel K     at most K tasks at once (sbatch --array=0-N%K)\n"
    "  --runs-per-task K    K runs one after another per task (default 1)\n"
    "  --scale NAME  --steps N  --device D   passed to each task's run\n"
    "sweep --cancel DIR cancels its job array (scancel; running runs are saved as cancelled).\n"
    "Every run is checked before anything is written. Runs keep the names, configurations and\n"
    "seeds `run` gives them. Merge the task stores afterwards (they may be read while the job runs):\n"
    "  normlab-cli sweep EXP.json --slurm --dir sw --submit\n"
    "  normlab-cli sweep --status sw\n"
    "  normlab-cli merge sw/stores/*.sqlite --into runs.sqlite\n",
    "--slurm --submit --dir --status --cancel --scale --steps --device --partition --time --cpus-per-task --gpus-per-task --max-parallel --runs-per-task --only --index"};

extern const Command kServerInfoCommand{"server-info", "server-info",
    "what this NormLab is, as JSON: versions, stream protocol, store,\n"
    "CUDA (what `remote check` asks a server)\n",
    nullptr};   // cmd_server_info, cmd_server_info.cpp

namespace {

// In the order of the usage text.
const Command* const kCommands[] = {
    &kRunCommand,  &kValidateCommand, &kListCommand,   &kShowCommand,   &kSampleCommand, &kExportCommand, &kExportWeightsCommand,
    &kEvalBatchCommand, &kExportBatchesCommand, &kResumeCommand, &kSweepCommand, &kMergeCommand, &kPlotCommand, &kPresetCommand,
    &kSchemesCommand, &kCancelCommand, &kDeleteCommand, &kCompactCommand, &kRemoteCommand, &kStreamCommand, &kServerInfoCommand,
};

// "  SYNOPSIS                 first line of help", further lines aligned under it;
// a synopsis too long for its column gets a line of its own, the help under it.
std::string command_lines(const Command& c) {
    constexpr int kColumn = 24;
    std::string out, line;
    std::istringstream help(c.help);
    bool first = std::strlen(c.synopsis) <= kColumn;
    if (!first) out += std::string("  ") + c.synopsis + "\n";
    while (std::getline(help, line)) {
        char buf[512];
        std::snprintf(buf, sizeof buf, "  %-*s %s\n", kColumn, first ? c.synopsis : "", line.c_str());
        out += buf;
        first = false;
    }
    return out;
}

}  // namespace

std::string usage_text() {
    std::string out = "usage: normlab-cli COMMAND [ARGS] [--store FILE]\n\ncommands:\n";
    for (const Command* c : kCommands) out += command_lines(*c);
    out += "\n"
           "The paper reproductions' report (figures drawn by the app's charts) is `normlab report`,\n"
           "which reuses runs trained here: normlab-cli run FILE --scale gpu,\n"
           "then normlab report FILE --scale gpu.\n"
           "RUN is an id or a unique name (id:N or name:X says which, for a run named as a number).\n"
           "The store defaults to $NORMLAB_STORE or\n"
           "~/.local/share/normlab/runs.sqlite. `normlab-cli COMMAND --help` shows one command.\n"
           "exit codes: 0 ok, 1 error, 2 usage/configuration, 3 diverged, 4 failed, 5 store, 130 interrupted\n";
    return out;
}

const Command* find_command(const std::string& name) {
    for (const Command* c : kCommands)
        if (name == c->name) return c;
    return nullptr;
}

int help_or_usage(const Args& args) {
    // `COMMAND --help` and `help COMMAND`: that command's usage; otherwise all of them.
    const std::string about = args.command == "help" && !args.positional.empty() ? args.positional[0] : args.command;
    if (const Command* c = find_command(about); c && (args.has_flag("--help") || args.command == "help")) {
        print_command_help(*c);
        return kOk;
    }
    if (args.command.empty() || args.has_flag("--help") || args.command == "help") {
        const bool asked = args.has_flag("--help") || args.command == "help";
        std::fputs(usage_text().c_str(), asked ? stdout : stderr);
        return asked ? kOk : kUsage;
    }
    if (!find_command(args.command)) {
        std::vector<std::string> names;
        for (const Command* c : kCommands) names.push_back(c->name);
        const std::string best = nearest(args.command, names);
        throw UsageError("unknown command \"" + args.command + "\"" + (best.empty() ? "" : "; did you mean \"" + best + "\"?") +
                         " (see normlab-cli --help)");
    }
    return -1;
}

}  // namespace normlab::cli
