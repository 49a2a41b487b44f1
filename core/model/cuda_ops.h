// NormLab core: autograd operations around NormLab's own CUDA kernels
// (cuda_kernels.h). Only the LibTorch 2.x build with CUDA compiles them
// (NORMLAB_CUDA_KERNELS); fused_ops.cpp dispatches to them when
// cuda_kernels_enabled() and the inputs qualify (`…_applies`).
#pragma once

#include <torch/torch.h>

namespace normlab::cuda_ops {

// nGPT's residual update norm(x + α ⊙ (norm(h) − x)): float32 CUDA tensors of
// one shape, α over the last dimension.
bool ngpt_update_applies(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha);
// copy (or null): y again in h's type for the next linear layer, its gradient added to y's.
torch::Tensor ngpt_update(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha, double eps,
                          torch::Tensor* copy = nullptr);

// SwiGLU of the packed projection h = [u | g]: (u·s_u)·silu(g·s_v), on a
// float32 or bfloat16 CUDA h; the result has h's type (under bf16 autocast
// the next linear layer takes it as it is). su, sv: undefined or float32 of
// h's last dimension / 2.
bool swiglu_applies(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv);
torch::Tensor swiglu(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv);

// NormFormer's FFN LN: LayerNorm(GELU(h)) over the last dimension, gain γ and
// bias β float32, h float32 or bfloat16 on a CUDA device; the result has h's type.
// fc1_bias (undefined: none): the bias FC1's GEMM added to h without gradient,
// which gets the column sums of h's gradient.
bool gelu_layer_norm_applies(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta);
torch::Tensor gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                              double eps, const torch::Tensor& fc1_bias = {});

// nGPT's queries and keys from the packed projection proj (B, T, 3d) [q | k | v],
// float32 or bfloat16 on a CUDA device: q' = RoPE(q) / (‖RoPE(q)‖ + eps) ⊙ s
// per head, the same for k, as (B, H, T, d_h) of proj's type, and v, proj's v
// part as (B, H, T, d_h) (a view). cos, sin: RoPE's (T, d_h) float32 tables or
// undefined (no RoPE); s: s_qk's effective values (d, float32). With s
// undefined, for rope_qk: RoPE alone (cos and sin defined).
bool ngpt_qk_applies(const torch::Tensor& proj, int64_t H, const torch::Tensor& cos, const torch::Tensor& sin,
                     const torch::Tensor& s);
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> ngpt_qk(const torch::Tensor& proj, int64_t H,
                                                               const torch::Tensor& cos, const torch::Tensor& sin,
                                                               const torch::Tensor& s, double eps);
// RoPE alone on proj's q and k (the LayerNorm schemes with rotary positions), as ngpt_qk returns them.
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> rope_qk(const torch::Tensor& proj, int64_t H,
                                                               const torch::Tensor& cos, const torch::Tensor& sin);

// The residual add and the LayerNorm after it: s = a·(λ ⊙ x) + b·f and
// y = LayerNorm(s)·γ + β over the last dimension (Post-LN, Pre-LN, NormFormer's
// ResScale λ, DeepNorm's a, BranchNorm's b). x float32 on a CUDA device, f of
// x's shape in float32 or bfloat16, λ undefined or float32 of the last
// dimension; returns s (float32) and y (bfloat16 if y_bf16, else float32).
// b_t, where defined: b as a float32 device scalar without gradient, read by
// the kernels on the device (BranchNorm's α_t in a captured step), b ignored.
// f_gamma, f_beta, where defined: the branch's own LayerNorm before the add,
// f ← LN(f)·f_gamma + f_beta (NormFormer's post-attention LN; rows ≤ 1,024).
// y_copy (or null): y again in f's type for the next linear layer (Post-LN's
// float32 y under bf16 autocast), its gradient added to y's. f_bias, where
// defined: the bias of the linear layer that made f, which added it without
// gradient; it gets f's gradient's column sums (linear_bias.cpp).
bool residual_layer_norm_applies(const torch::Tensor& x, const torch::Tensor& f, const torch::Tensor& lam,
                                 const torch::Tensor& gamma, const torch::Tensor& beta, const torch::Tensor& b_t,
                                 const torch::Tensor& f_gamma = {}, const torch::Tensor& f_beta = {});
std::pair<torch::Tensor, torch::Tensor> residual_layer_norm(const torch::Tensor& x, const torch::Tensor& f,
                                                            const torch::Tensor& lam, double a, double b,
                                                            const torch::Tensor& b_t, const torch::Tensor& gamma,
                                                            const torch::Tensor& beta, double eps, bool y_bf16,
                                                            const torch::Tensor& f_gamma = {},
                                                            const torch::Tensor& f_beta = {}, double f_eps = 0,
                                                            torch::Tensor* y_copy = nullptr,
                                                            const torch::Tensor& f_bias = {});

// The kernels that sum a linear layer's bias gradient as they write its
// output's gradient (cuda_bias_kernels.cu), without autograd: the autograd
// operations around them (linear_bias.cpp, attention_heads.cpp) run the eager
// formulas where these do not apply.
// GELU (exact) of h: float32 or bfloat16, contiguous, on a GPU the kernels were built for.
bool gelu_applies(const torch::Tensor& h);
torch::Tensor gelu_forward(const torch::Tensor& h);
// dh = da·GELU'(h) (da in h's type and shape, contiguous); with bias_grad, the
// column sums of dh over all rows (float32, h's last dimension).
torch::Tensor gelu_backward(const torch::Tensor& h, const torch::Tensor& da, torch::Tensor* bias_grad);
// The attention heads' gradients (B, H, T, d_h; undefined: zeros) packed into
// the projection's gradient (B, T, 3·H·d_h) of `type`; with bias_grad, its
// column sums (float32, 3·H·d_h). Applies where the defined ones are on a GPU
// the kernels were built for, of `type` (float32 or bfloat16), their last
// dimension contiguous.
bool heads_backward_applies(const std::vector<torch::Tensor>& grads, torch::ScalarType type);
torch::Tensor heads_backward(const std::vector<torch::Tensor>& grads, at::IntArrayRef proj_sizes, int64_t H,
                             torch::ScalarType type, torch::Tensor* bias_grad);

}  // namespace normlab::cuda_ops
