// normlab-cli as a user starts it: the commands that need no LibTorch run
// here: those that only read or copy a store (list, show, export, merge,
// plot, cancel, delete, compact), `remote` (ssh to a server; the server's own normlab-cli
// trains), `stream` (the server's side of `remote follow`), schemes and
// preset. Every other command, the usage text and --version are the engine's (the
// whole normlab-cli, main.cpp), which this program becomes by execv — the
// same pid, arguments and name, so signals, `ps` and `normlab-cli cancel`
// see one normlab-cli either way. Debian's LibTorch takes ~1 s to load
// (its op registry and ~290 libraries): `list` answered in milliseconds, and
// a run loads LibTorch once, where re-executing itself to set OpenMP's
// waiting (core/platform.h) loaded it twice.
//
// The engine lives at ../libexec/normlab/normlab-cli from this program's
// folder, in a build tree as where it is installed.
#include "app/cli/cli.h"

#include "core/platform.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace normlab::cli {
extern const Command kListCommand, kShowCommand, kExportCommand, kMergeCommand, kPlotCommand, kCancelCommand,
    kDeleteCommand, kCompactCommand, kRemoteCommand, kStreamCommand, kSchemesCommand, kPresetCommand;
}  // namespace normlab::cli

using namespace normlab;
using namespace normlab::cli;

namespace {

const Command* const kHere[] = {&kListCommand,   &kShowCommand,   &kExportCommand,  &kMergeCommand,  &kPlotCommand,
                                 &kCancelCommand, &kDeleteCommand, &kCompactCommand, &kRemoteCommand, &kStreamCommand, &kSchemesCommand,
                                 &kPresetCommand};

const Command* here(const char* name) {
    for (const Command* c : kHere)
        if (std::strcmp(name, c->name) == 0) return c;
    return nullptr;
}

// The engine beside this program, or "" where /proc/self/exe cannot say.
std::string engine_path() {
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return {};
    const std::string path(self, static_cast<size_t>(n));
    return path.substr(0, path.rfind('/')) + "/../libexec/normlab/normlab-cli";
}

[[noreturn]] void become_engine(char** argv) {
    // The commands that train: OpenMP's waiting set now, so the engine need not start twice.
    if (command_trains(argv[1])) set_thread_waiting();
    const std::string engine = engine_path();
    if (!engine.empty()) ::execv(engine.c_str(), argv);
    std::fprintf(stderr,
                 "normlab-cli: cannot start the engine that trains (%s): %s; build or install NormLab again "
                 "(bash scripts/setup.sh), which puts it there\n",
                 engine.empty() ? "../libexec/normlab/normlab-cli beside this program" : engine.c_str(),
                 engine.empty() ? "/proc/self/exe cannot be read" : std::strerror(errno));
    std::exit(kError);
}

}  // namespace

int main(int argc, char** argv) {
    const Command* c = argc > 1 ? here(argv[1]) : nullptr;
    bool version = false;
    for (int i = 1; i < argc; ++i) version = version || std::strcmp(argv[i], "--version") == 0;
    if (!c || version) become_engine(argv);
    std::signal(SIGXFSZ, SIG_IGN);   // a file-size limit is a write error to report, not a crash
    return run_reporting(argc, argv, [c](const Args& args) {
        if (args.has_flag("--help")) {
            print_command_help(*c);
            return static_cast<int>(kOk);
        }
        check_flags(args, *c);
        return c->run(args);
    });
}
