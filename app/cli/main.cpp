// normlab-cli: NormLab without a desktop, for GPU servers, clusters and scripts.
//
//   normlab-cli run EXPERIMENT.json [--store FILE] [--device cpu|cuda] [--only NAME]... [--threads N] [--steps N]
//                                   [--scale NAME]
//   normlab-cli validate EXPERIMENT.json [--scale NAME]
//   normlab-cli list | show RUN | export RUN --csv|--json [--out FILE]
//   normlab-cli export-weights RUN FILE.safetensors | eval-batch RUN FILE.safetensors [--batch N] [--seed S]
//   normlab-cli resume RUN | preset SCHEME | schemes
//   normlab-cli plot [RUN...] [--last N] --out DIR
//
// Each command lives in a cmd_*.cpp file and is dispatched from the table
// below; cli.h lists the exit codes.
#include "app/cli/cli.h"

#include "core/errors.h"
#include "core/platform.h"
#include "core/version.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <csignal>
#include <cstdio>

using namespace normlab;
using namespace normlab::cli;

namespace {

const char* kUsageText =
    "usage: normlab-cli COMMAND [ARGS] [--store FILE]\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.json      train every run of an experiment (--only NAME to pick some,\n"
    "                           --device cpu|cuda|auto, --threads N, --steps N to override)\n"
    "  validate EXPERIMENT.json check an experiment and list the runs it expands to\n"
    "  list                     the runs in the store\n"
    "  show RUN                 one run: configuration, status, info, recorded series\n"
    "  export RUN --csv|--json  the run's data (--out FILE, default stdout)\n"
    "  export-weights RUN FILE  the run's latest weights as safetensors (docs/WEIGHTS.md)\n"
    "  eval-batch RUN FILE      logits and loss on a validation batch, as safetensors\n"
    "                           (--batch N, --seed S)\n"
    "  resume RUN               continue an interrupted, cancelled or failed run from its\n"
    "                           checkpoint (from step 0 when it has none)\n"
    "  plot [RUN...] --out DIR  SVG figures of runs (default: the last 2; --last N)\n"
    "  preset SCHEME            the full configuration a scheme preset gives, as JSON\n"
    "  schemes                  the schemes and their components\n"
    "\n"
    "The paper reproductions' report (figures drawn by the app's charts) is `normlab report`,\n"
    "which reuses runs trained here: normlab-cli run FILE --scale gpu, then normlab report FILE --scale gpu.\n"
    "RUN is an id or a unique name. The store defaults to $NORMLAB_STORE or\n"
    "~/.local/share/normlab/runs.sqlite.\n"
    "exit codes: 0 ok, 1 error, 2 usage/configuration, 3 diverged, 4 failed, 5 store, 130 interrupted\n";

struct Command {
    const char* name;
    int (*run)(const Args&);
};
const Command kCommands[] = {
    {"run", cmd_run},       {"resume", cmd_resume},   {"validate", cmd_validate},
    {"list", cmd_list},     {"show", cmd_show},       {"export", cmd_export},
    {"export-weights", cmd_export_weights},           {"eval-batch", cmd_eval_batch},
    {"preset", cmd_preset}, {"plot", cmd_plot},       {"schemes", cmd_schemes},
};

}  // namespace

int main(int argc, char** argv) {
    tune_cpu_kernels();   // before any LibTorch work
    std::signal(SIGXFSZ, SIG_IGN);   // a file-size limit is a write error to report, not a crash
    auto logger = spdlog::stderr_color_mt("normlab");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%^%l%$: %v");
    spdlog::set_level(spdlog::level::warn);
    try {
        Args args = parse_args(argc, argv);
        if (args.has_flag("--verbose")) spdlog::set_level(spdlog::level::info);
        if (args.has_flag("--version")) {
            std::printf("normlab-cli %s\n%s\n", NORMLAB_VERSION, library_versions().dump().c_str());
            return kOk;
        }
        if (args.command.empty() || args.has_flag("--help") || args.command == "help") {
            std::fputs(kUsageText, args.command.empty() && !args.has_flag("--help") ? stderr : stdout);
            return args.command.empty() && !args.has_flag("--help") ? kUsage : kOk;
        }
        static const std::vector<std::string> known_flags{"--csv", "--json", "--verbose", "--help", "--version"};
        for (auto& f : args.flags)
            if (std::find(known_flags.begin(), known_flags.end(), f) == known_flags.end())
                throw UsageError("unknown option " + f + " (see normlab-cli --help)");
        for (const Command& c : kCommands)
            if (args.command == c.name) return c.run(args);
        throw UsageError("unknown command \"" + args.command + "\" (see normlab-cli --help)");
    } catch (const UsageError& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kUsage;
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "normlab-cli: configuration error: %s\n", e.what());
        return kUsage;
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab-cli: store error: %s\n", e.what());
        return kStore;
    } catch (const RunError& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kFailed;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kError;
    }
}
