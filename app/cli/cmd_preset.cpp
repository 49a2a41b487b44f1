// normlab-cli preset: the full configuration a scheme preset gives, as JSON.
#include "app/cli/cli.h"

#include "core/config.h"

#include <cstdio>

namespace normlab::cli {

static int cmd_preset(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("preset needs a scheme name");
    RunConfig cfg;
    apply_scheme(cfg, parse_scheme(args.positional[0]));
    std::printf("%s\n", to_json(cfg).dump(2).c_str());
    return kOk;
}

extern const Command kPresetCommand{"preset", "preset SCHEME",
    "the full configuration a scheme preset gives, as JSON\n",
    cmd_preset};

}  // namespace normlab::cli
