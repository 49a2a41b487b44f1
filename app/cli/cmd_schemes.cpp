// normlab-cli schemes: the schemes and the components each switches on.
#include "app/cli/cli.h"

#include "core/config.h"

#include <cstdio>

namespace normlab::cli {

static int cmd_schemes(const Args&) {
    for (Scheme s : all_schemes()) {
        RunConfig cfg;
        apply_scheme(cfg, s);
        const auto& m = cfg.model;
        std::printf("%-11s %-10s layout=%s final_norm=%d headscale=%d post_attn_norm=%d ffn_norm=%d res_scale=%d "
                    "deepnorm.residual=%d deepnorm.init=%d branchnorm=%d\n",
                    scheme_name(s).c_str(), scheme_title(s).c_str(), to_json(cfg)["model"]["layout"].get<std::string>().c_str(),
                    m.final_norm, m.normformer.head_scale, m.normformer.post_attn_norm, m.normformer.ffn_norm,
                    m.normformer.res_scale, m.deepnorm.residual, m.deepnorm.init, m.branchnorm.enabled);
    }
    return kOk;
}

extern const Command kSchemesCommand{"schemes", "schemes",
    "the schemes and their components\n",
    cmd_schemes};

}  // namespace normlab::cli
