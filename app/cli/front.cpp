// normlab-cli as a user starts it: the commands that need no LibTorch run
// here: those that only read or copy a store (list, show, export, merge,
// plot, cancel, delete, compact), `remote` (ssh to a server; the server's own normlab-cli
// trains), `stream` (the server's side of `remote follow`), schemes and
// preset; so do every command's --help, the usage text, an unknown command and
// an option a command does not take (commands.cpp). Every other command and
// --version are the engine's (the whole normlab-cli, main.cpp), which this program becomes by execv — the
// same pid, arguments and name, so signals, `ps` and `normlab-cli cancel`
// see one normlab-cli either way. Debian's LibTorch takes ~1 s to load
// (its op registry and ~290 libraries): `list` answered in milliseconds, and
// a run loads LibTorch once, where re-executing itself to set OpenMP's
// waiting (core/platform.h) loaded it twice.
//
// The engine lives at ../libexec/normlab/normlab-cli from this program's
// folder, in a build tree as where it is installed.
#include "app/cli/cli.h"

#include "core/experiment.h"
#include "core/platform.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

using namespace normlab;
using namespace normlab::cli;

namespace {

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
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--version") == 0) become_engine(argv);   // it names LibTorch's version
    std::signal(SIGXFSZ, SIG_IGN);   // a file-size limit is a write error to report, not a crash
    return run_reporting(argc, argv, [argv](const Args& args) {
        if (const int answered = help_or_usage(args); answered >= 0) return answered;
        const Command& c = *find_command(args.command);
        check_flags(args, c);   // refused here as the engine would, before LibTorch loads
        // An experiment whose file or fields are wrong, refused in milliseconds: what run and
        // validate check first (run after --device and --threads, left to the engine when given).
        const bool experiment_first = c.name == std::string("validate") ||
                                      (c.name == std::string("run") && !args.options.count("--device") &&
                                       !args.options.count("--threads"));
        if (experiment_first && args.positional.size() == 1) load_experiment(args.positional[0], args.opt("--scale"));
        if (!c.run) become_engine(argv);
        return c.run(args);
    });
}
