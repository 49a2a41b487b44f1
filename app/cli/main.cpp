// normlab-cli: NormLab without a desktop, for GPU servers, clusters and scripts.
//
//   normlab-cli run EXPERIMENT.json [--store FILE] [--device cpu|cuda] [--only NAME]... [--threads N] [--steps N]
//                                   [--scale NAME]
//   normlab-cli validate EXPERIMENT.json [--scale NAME]
//   normlab-cli list | show RUN | export RUN --csv|--json [--out FILE]
//   normlab-cli export-weights RUN FILE.safetensors | eval-batch RUN FILE.safetensors [--batch N] [--seed S]
//   normlab-cli resume RUN | preset SCHEME | schemes
//   normlab-cli plot [RUN...] [--last N] --out DIR
//   normlab-cli sweep EXPERIMENT.json --slurm [--submit] | sweep --status DIR | merge STORE... --into STORE
//
// Each command's synopsis, help and options are in commands.cpp (the front end answers
// --help from there) or, for the commands that need no LibTorch, in its own cmd_*.cpp; the
// engine's commands' functions are named in the table below; cli.h lists the exit codes.
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/platform.h"
#include "core/version.h"

#include <algorithm>
#include <csignal>
#include <cstring>
#include <cstdio>
#include <sstream>
#include <string>

namespace normlab::cli {
// The engine's commands, one per cmd_*.cpp.
int cmd_run(const Args&);
int cmd_validate(const Args&);
int cmd_sample(const Args&);
int cmd_export_weights(const Args&);
int cmd_eval_batch(const Args&);
int cmd_export_batches(const Args&);
int cmd_resume(const Args&);
int cmd_sweep(const Args&);
int cmd_server_info(const Args&);
}  // namespace normlab::cli

using namespace normlab;
using namespace normlab::cli;

namespace {

// The engine's commands' functions (commands.cpp describes them, with none).
int (*engine_function(const std::string& name))(const Args&) {
    static const std::pair<const char*, int (*)(const Args&)> kFunctions[] = {
        {"run", cmd_run}, {"validate", cmd_validate}, {"sample", cmd_sample}, {"export-weights", cmd_export_weights},
        {"eval-batch", cmd_eval_batch}, {"export-batches", cmd_export_batches}, {"resume", cmd_resume},
        {"sweep", cmd_sweep}, {"server-info", cmd_server_info}};
    for (const auto& [command, function] : kFunctions)
        if (name == command) return function;
    return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    // The commands that train start again with OpenMP's threads waiting passively
    // (core/platform.h; the others need not pay the second start-up, ~0.3 s).
    // Started by the front end (front.cpp), which has set that, they do not.
    if (argc > 1 && command_trains(argv[1])) tune_thread_waiting(argv);
    tune_cpu_kernels();          // before any LibTorch work
    std::signal(SIGXFSZ, SIG_IGN);   // a file-size limit is a write error to report, not a crash
    return run_reporting(argc, argv, [](const Args& args) {
        if (args.has_flag("--version")) {
            std::printf("normlab-cli %s\n%s\n", NORMLAB_VERSION, library_versions().dump().c_str());
            return static_cast<int>(kOk);
        }
        if (const int answered = help_or_usage(args); answered >= 0) return answered;
        const Command& c = *find_command(args.command);
        check_flags(args, c);
        return c.run ? c.run(args) : engine_function(c.name)(args);
    });
}
