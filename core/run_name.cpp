// NormLab core: a run's name from what it changes in its scheme's preset
// (config.h: run_name_from_differences).
#include "core/config.h"

namespace normlab {

std::string run_name_from_differences(const RunConfig& c) {
    RunConfig preset;
    apply_scheme(preset, c.scheme);
    const ModelConfig& m = c.model;
    const ModelConfig& p = preset.model;
    struct Toggle {
        const char* name;
        bool have, preset;
    };
    const Toggle toggles[] = {
        {"final norm", m.final_norm, p.final_norm},
        {"HeadScale", m.normformer.head_scale, p.normformer.head_scale},
        {"post-attn LN", m.normformer.post_attn_norm, p.normformer.post_attn_norm},
        {"FFN LN", m.normformer.ffn_norm, p.normformer.ffn_norm},
        {"ResScale", m.normformer.res_scale, p.normformer.res_scale},
        {"DeepNorm α", m.deepnorm.residual, p.deepnorm.residual},
        {"β-init", m.deepnorm.init, p.deepnorm.init},
        {"BranchNorm α_t", m.branchnorm.enabled, p.branchnorm.enabled},
        {"QK-norm", m.ngpt.qk_norm, p.ngpt.qk_norm},
        {"eigen LRs", m.ngpt.eigen_lr, p.ngpt.eigen_lr},
        {"scalers", m.ngpt.scalers, p.ngpt.scalers},
        {"renormalize", m.ngpt.renormalize, p.ngpt.renormalize},
    };
    std::string name = scheme_title(c.scheme);
    if (m.layout != p.layout) name += std::string(" ") + to_json(c)["model"]["layout"].get<std::string>() + " layout";
    for (const Toggle& t : toggles)
        if (t.have != t.preset) name += std::string(" ") + (t.have ? "+" : "−") + t.name;
    return name;
}

}  // namespace normlab
