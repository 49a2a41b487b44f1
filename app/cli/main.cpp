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
// Each command lives in its own cmd_*.cpp file with its synopsis and help, and
// is dispatched from the table below, which also makes the usage text; cli.h
// lists the exit codes.
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
// One per cmd_*.cpp.
extern const Command kRunCommand, kValidateCommand, kListCommand, kShowCommand, kExportCommand,
    kExportWeightsCommand, kEvalBatchCommand, kResumeCommand, kPlotCommand, kPresetCommand, kSchemesCommand,
    kSweepCommand, kMergeCommand, kCancelCommand, kDeleteCommand, kCompactCommand, kRemoteCommand, kStreamCommand, kServerInfoCommand, kExportBatchesCommand, kSampleCommand;
}  // namespace normlab::cli

using namespace normlab;
using namespace normlab::cli;

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

std::string usage_text() {
    std::string out = "usage: normlab-cli COMMAND [ARGS] [--store FILE]\n\ncommands:\n";
    for (const Command* c : kCommands) out += command_lines(*c);
    out += "\n"
           "The paper reproductions' report (figures drawn by the app's charts) is `normlab report`,\n"
           "which reuses runs trained here: normlab-cli run FILE --scale gpu,\n"
           "then normlab report FILE --scale gpu.\n"
           "RUN is an id or a unique name. The store defaults to $NORMLAB_STORE or\n"
           "~/.local/share/normlab/runs.sqlite. `normlab-cli COMMAND --help` shows one command.\n"
           "exit codes: 0 ok, 1 error, 2 usage/configuration, 3 diverged, 4 failed, 5 store, 130 interrupted\n";
    return out;
}

const Command* find_command(const std::string& name) {
    for (const Command* c : kCommands)
        if (name == c->name) return c;
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
        // `COMMAND --help` and `help COMMAND`: that command's usage; otherwise all of them.
        const std::string about = args.command == "help" && !args.positional.empty() ? args.positional[0] : args.command;
        if (const Command* c = find_command(about); c && (args.has_flag("--help") || args.command == "help")) {
            print_command_help(*c);
            return static_cast<int>(kOk);
        }
        if (args.command.empty() || args.has_flag("--help") || args.command == "help") {
            const bool asked = args.has_flag("--help") || args.command == "help";
            std::fputs(usage_text().c_str(), asked ? stdout : stderr);
            return static_cast<int>(asked ? kOk : kUsage);
        }
        const Command* c = find_command(args.command);
        if (!c) throw UsageError("unknown command \"" + args.command + "\" (see normlab-cli --help)");
        check_flags(args, *c);
        return c->run(args);
    });
}
