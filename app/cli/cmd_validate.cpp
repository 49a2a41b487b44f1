// normlab-cli validate: checks an experiment exactly as run would, and lists its runs.
#include "app/cli/training.h"

#include "core/config.h"
#include "core/counted.h"

#include <cstdio>

namespace normlab::cli {

int cmd_validate(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("validate needs one experiment file");
    Experiment ex = load_experiment(args.positional[0], args.opt("--scale"));
    const std::vector<ExperimentRun> runs = chosen_runs(ex, args);
    preflight_all(runs);
    std::printf("%s%s: %s\n", ex.name.c_str(), ex.scale.empty() ? "" : (" (scale " + ex.scale + ")").c_str(),
                counted(static_cast<long long>(runs.size()), "run").c_str());
    // What the experiment is for, as its file says it (the window shows it above the form):
    // wrapped to a terminal's 80 columns, any other control character in it written as \xNN.
    if (!ex.description.empty()) {
        std::string about = ex.description;
        for (char& c : about)
            if (c == '\n' || c == '\t' || c == '\r') c = ' ';   // the file's own line breaks: the lines are ours
        for (const std::string& line : wrap_columns(printable_name(about), 76)) std::printf("  %s\n", line.c_str());
        std::printf("\n");
    }
    for (auto& r : runs) {
        const double gib = estimate_memory(r.config).total() / (1024.0 * 1024 * 1024);
        std::printf("  %-40s %-10s d=%d L=%d H=%d steps=%d lr=%g mem~%.2fGiB\n", r.name.c_str(),
                    scheme_name(r.config.scheme).c_str(), r.config.model.d_model, r.config.model.n_layers,
                    r.config.model.n_heads, r.config.train.steps, r.config.optim.lr, gib);
    }
    return kOk;
}

}  // namespace normlab::cli
