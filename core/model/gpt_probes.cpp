// NormLab core: the probes of what enters a Post-LN norm (gpt.h's ForwardCapture:
// norm_sigma_*, branch_cos_*), taken on probe steps beside the forward pass,
// which they leave as it is.
//
// Why they are there: a Post-LN block's norm divides its input s = α·x + α_t·F(x)
// by σ(s), and so its backward divides the gradient by σ too. Where F(x) comes
// out aligned with x (cos near 1), σ grows past 1 with nothing for the gradient
// to gain from the branch's own path back, and over many blocks the first
// layer's gradient shrinks like ∏ 1/σ (docs/reproduction-gpu/NOTES.md,
// finding 9: BranchNorm's ramp leaves a 48-layer stack at σ ≈ 1.08 a sub-layer,
// 1/1.08^95 ≈ 10⁻³).
#include "core/model/gpt.h"

#include "core/model/profile_scope.h"

namespace normlab {

void BlockImpl::capture_norm_input(ForwardCapture& cap, const Norm& norm, const torch::Tensor& r_in,
                                   const torch::Tensor& f_in, const torch::Tensor& f_bias, const torch::Tensor& lam,
                                   double branch, bool after_attention) const {
    const ProfileScope scope("normlab::probes");
    torch::NoGradGuard ng;
    auto f = f_in.detach().to(torch::kFloat);
    if (f_bias.defined()) f = f + f_bias.detach().to(torch::kFloat);   // the bias add_norm's kernel adds
    const auto [fb, b] = branch_of(f, branch);
    const auto F = b == 1.0 ? fb.to(torch::kFloat) : fb.to(torch::kFloat) * b;
    auto R = r_in.detach().to(torch::kFloat);
    if (residual_alpha != 1.0) R = R * residual_alpha;
    if (lam.defined()) R = R * lam.detach().to(torch::kFloat);
    const auto s = R + F;
    const auto sigma = norm->kind == NormKind::LayerNorm
                           ? (s.var(-1, /*unbiased=*/false) + norm->eps).sqrt()
                           : (s.pow(2).mean(-1) + norm->eps).sqrt();
    // α_t = 0 (BranchNorm's first step) leaves F zero: its cosine is 0 (the eps of cosine_similarity)
    const auto cos = torch::cosine_similarity(R, F, -1);
    (after_attention ? cap.norm_sigma_attn : cap.norm_sigma_mlp).push_back(sigma.mean());
    (after_attention ? cap.branch_cos_attn : cap.branch_cos_mlp).push_back(cos.mean());
}

}  // namespace normlab
