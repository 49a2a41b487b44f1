// NormLab core: the attention's heads from the packed projection (B, T, 3d):
// q, k, v as (B, H, T, d_h) views, one autograd node whose backward writes the
// projection's gradient once; and nGPT's queries and keys through NormLab's
// CUDA kernel, where it is on and applies.
//
// Taken apart with view → permute → select, the three heads' gradients come
// back through three select nodes (each a zero-filled (3, B, H, T, d_h) tensor
// with its slice copied in), two additions of those, and a copy that makes the
// permuted sum contiguous for the view: ~9 passes over the projection's size.
// At GPT-2 small's shape on an H200 that was 9.5 ms of Pre-LN's 60 ms step in
// bf16 (bench/results/leases/2026-11-26T1049-h200/profile-pre_ln.txt); three
// strided copies into one buffer did it then (2.35 ms on the H100), and on a
// GPU NormLab's kernel does it in one pass, summing the projection's bias
// gradient on the way where the model leaves that to it (linear_bias.cpp).
#include "core/model/fused_ops.h"
#include "core/model/profile_scope.h"

#ifdef NORMLAB_CUDA_KERNELS
#include "core/model/cuda_ops.h"
#endif

namespace normlab {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// part 0, 1, 2 (q, k, v) of proj (B, T, 3d) as (B, H, T, d_h), a view.
torch::Tensor head_part(const torch::Tensor& proj, int64_t H, int64_t part) {
    const int64_t B = proj.size(0), T = proj.size(1), dh = proj.size(2) / 3 / H;
    return proj.view({B, T, 3, H, dh}).select(2, part).permute({0, 2, 1, 3});
}

struct SplitHeadsFn : torch::autograd::Function<SplitHeadsFn> {
    // bias: the projection's bias (empty: none), whose gradient, the column sums of the
    // projection's, is summed here (see split_heads).
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& proj, const torch::Tensor& bias, int64_t H) {
        const FunctionScope scope("normlab::split_heads", proj);
        ctx->saved_data["H"] = H;
        ctx->saved_data["sizes"] = proj.sizes();
        ctx->saved_data["dtype"] = static_cast<int64_t>(proj.scalar_type());
        ctx->saved_data["bias_dtype"] = static_cast<int64_t>(bias.scalar_type());
        ctx->saved_data["bias"] = bias.numel() > 0;
        return {head_part(proj, H, 0), head_part(proj, H, 1), head_part(proj, H, 2)};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const int64_t H = ctx->saved_data["H"].toInt();
        const auto sizes = ctx->saved_data["sizes"].toIntVector();
        const auto dtype = static_cast<torch::ScalarType>(ctx->saved_data["dtype"].toInt());
        const bool with_bias = ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(1);
        torch::Tensor dproj, dbias;
#ifdef NORMLAB_CUDA_KERNELS
        if (cuda_kernels_enabled() && cuda_ops::heads_backward_applies(grads, dtype))
            dproj = cuda_ops::heads_backward(grads, sizes, H, dtype, with_bias ? &dbias : nullptr);
#endif
        if (!dproj.defined()) {
            const auto like = grads[0].defined() ? grads[0] : grads[1].defined() ? grads[1] : grads[2];
            dproj = torch::empty(sizes, like.options().dtype(dtype));
            for (int64_t p = 0; p < 3; ++p) {
                auto part = head_part(dproj, H, p);
                if (grads[p].defined()) part.copy_(grads[p]);
                else part.zero_();
            }
            if (with_bias) dbias = dproj.view({-1, dproj.size(-1)}).sum(0, false, torch::kFloat);
        }
        if (dbias.defined()) dbias = bias_grad_of(dbias, ctx->saved_data["bias_dtype"].toInt());
        return {dproj, dbias, torch::Tensor()};
    }
};

}  // namespace

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> split_heads(const torch::Tensor& proj, int64_t n_heads,
                                                                   const torch::Tensor& bias) {
    TORCH_CHECK(proj.dim() == 3 && proj.size(2) % (3 * n_heads) == 0, "split_heads: proj must be (B, T, 3·d)");
    TORCH_CHECK(!bias.defined() || bias.numel() == proj.size(2), "split_heads: the bias must have proj's last dimension");
    const auto c = proj.contiguous();
    const bool bias_grad = bias.defined() && bias.requires_grad();
    if (!c.requires_grad() && !bias_grad) return {head_part(c, n_heads, 0), head_part(c, n_heads, 1), head_part(c, n_heads, 2)};
    // Autograd functions take defined tensors: an absent bias travels as an empty one.
    auto out = SplitHeadsFn::apply(c, bias_grad ? bias : torch::empty({0}, proj.options()), n_heads);
    return {out[0], out[1], out[2]};
}

bool ngpt_queries_keys(const torch::Tensor& proj, int64_t n_heads, const torch::Tensor& cos, const torch::Tensor& sin,
                       const torch::Tensor& s_qk, double eps, torch::Tensor& q, torch::Tensor& k, torch::Tensor& v) {
#ifdef NORMLAB_CUDA_KERNELS
    if (cuda_kernels_enabled() && cuda_ops::ngpt_qk_applies(proj, n_heads, cos, sin, s_qk)) {
        std::tie(q, k, v) = cuda_ops::ngpt_qk(proj, n_heads, cos, sin, s_qk, eps);
        return true;
    }
#endif
    return false;
}

bool rope_queries_keys(const torch::Tensor& proj, int64_t n_heads, const torch::Tensor& cos, const torch::Tensor& sin,
                       torch::Tensor& q, torch::Tensor& k, torch::Tensor& v) {
#ifdef NORMLAB_CUDA_KERNELS
    if (cos.defined() && cuda_kernels_enabled() && cuda_ops::ngpt_qk_applies(proj, n_heads, cos, sin, {})) {
        std::tie(q, k, v) = cuda_ops::rope_qk(proj, n_heads, cos, sin);
        return true;
    }
#endif
    return false;
}

}  // namespace normlab
