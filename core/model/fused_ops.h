// NormLab core: the fused CPU kernels (cpu_kernels.h) as LibTorch autograd
// operations, and the dispatch between them and the eager ops.
//
// Only LibTorch translation units include this header.
#pragma once

#include <torch/torch.h>

namespace normlab {

// Fused CPU kernels (core/model/cpu_kernels.h): causal attention,
// GELU + LayerNorm (NormFormer's FFN LN), SwiGLU, nGPT's unit normalization
// and residual update. Used for fp32 CPU tensors (attention:
// when the process has a BLAS and attention dropout is off); otherwise, and
// when switched off (A/B comparisons, tests), the eager LibTorch ops. On unless
// the environment sets NORMLAB_FUSED_KERNELS=0.
bool fused_kernels_enabled();
void set_fused_kernels(bool on);
// CUDA kernels of our own (core/model/cuda_kernels.cu: nGPT's residual
// update, queries and keys, SwiGLU, NormFormer's FFN LN, the residual add with
// the LayerNorm after it), built into the LibTorch
// 2.x build with CUDA (core/model/cuda_ops.h); used on CUDA tensors unless
// the environment sets NORMLAB_CUDA_KERNELS=0 (checked and timed on an H200
// on 2026-11-26: docs/GPU.md).
bool cuda_kernels_built();
bool cuda_kernels_enabled();
void set_cuda_kernels(bool on);

// Causal attention through the fused kernel. q, k, v: (B, H, T, d_h) views
// with a contiguous last dimension (e.g. of the packed QKV projection) →
// (B, T, H·d_h). `max_logit`, if given, receives the largest scaled logit.
torch::Tensor fused_causal_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                     double scale, torch::Tensor* max_logit = nullptr);
// The same on the packed projection qkv: (B, T, 3·d) with rows [q | k | v];
// its gradient is written in that layout, without splitting or stacking.
torch::Tensor fused_causal_attention_packed(const torch::Tensor& qkv, int64_t n_heads, double scale,
                                            torch::Tensor* max_logit = nullptr);

// x / (‖x‖₂ + eps) over the last dimension through the fused kernel.
torch::Tensor fused_unit_norm(const torch::Tensor& x, double eps);
// nGPT's residual update norm(x + α ⊙ (norm(h) − x)) over the last dimension;
// one fused pass on fp32 CPU tensors, NormLab's CUDA kernel on a GPU (h float32
// or bfloat16, read as it comes), the eager ops elsewhere (h cast to x's type).
// copy (or null): where the CUDA kernel writes it, y again in h's type (bf16
// under autocast) for the next linear layer, which then needs no cast; left
// undefined elsewhere (the caller passes y).
torch::Tensor ngpt_update(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha, double eps,
                          torch::Tensor* copy = nullptr);
// SwiGLU of a packed projection h = [u | g]: (u·s_u)·silu(g·s_v), the scalers
// optional (undefined: 1). swiglu picks NormLab's CUDA kernel, the fused CPU
// kernel or the eager ops; fused_swiglu is the CPU kernel (fp32 CPU tensors).
torch::Tensor swiglu(const torch::Tensor& h, const torch::Tensor& su = {}, const torch::Tensor& sv = {});
torch::Tensor fused_swiglu(const torch::Tensor& h, const torch::Tensor& su = {}, const torch::Tensor& sv = {});
// The packed projection proj (B, T, 3d) [q | k | v] as q, k, v (B, H, T, d_h),
// views of it (of a contiguous copy if it is not), whose gradients come back as
// one (B, T, 3d) tensor written once (attention_heads.cpp). bias (3d, or
// undefined): the projection's bias, added by its GEMM without gradient
// (detached), whose gradient, the column sums of proj's, is summed here
// (bias_grads_after).
std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> split_heads(const torch::Tensor& proj, int64_t n_heads,
                                                                   const torch::Tensor& bias = {});
// Whether a linear layer before GELU or before the attention heads leaves its
// bias's gradient to the operation after it (gelu_bias_grad, split_heads with
// a bias), which sums it while it writes the layer's output gradient, instead
// of autograd's pass of its own over that gradient (linear_bias.cpp): where x
// is on a GPU and NormLab's CUDA kernels are on; on the CPU only where a test
// asks (set_bias_grads_after_on_cpu), which checks the plumbing with the
// eager formulas.
bool bias_grads_after(const torch::Tensor& x);
void set_bias_grads_after_on_cpu(bool on);
// How many bias gradients those operations have summed in this process (for the tests).
int64_t bias_grads_summed();
// A bias's gradient from its gradient's column sums (float): in the bias's
// type (a torch::ScalarType, as the autograd context saved it), counted.
torch::Tensor bias_grad_of(const torch::Tensor& column_sums, int64_t bias_dtype);
// GELU (the exact form) of h, the output of a linear layer that added `bias`
// without gradient; bias gets the column sums of h's gradient. NormLab's
// kernel on a GPU where it applies (cuda_ops::gelu_applies), eager ops elsewhere.
torch::Tensor gelu_bias_grad(const torch::Tensor& h, const torch::Tensor& bias);
// f as it is, its gradient's column sums given to bias (undefined: f alone): the
// eager path of a branch whose linear layer left its bias's gradient to the
// residual add's kernel (residual_layer_norm's f_bias) where that did not run.
torch::Tensor with_bias_grad(const torch::Tensor& f, const torch::Tensor& bias);
// nGPT's queries and keys in one CUDA kernel where NormLab's CUDA kernels are on
// and apply (cuda_ops.h): from the packed projection proj (B, T, 3d), q and k
// ← RoPE (cos, sin: (T, d_h) tables, or undefined), the unit norm with eps, ⊙
// s_qk (d) per head, as (B, H, T, d_h), and v, proj's v part as (B, H, T, d_h).
// False (q, k, v untouched) where they do not apply: the caller runs the eager ops.
bool ngpt_queries_keys(const torch::Tensor& proj, int64_t n_heads, const torch::Tensor& cos, const torch::Tensor& sin,
                       const torch::Tensor& s_qk, double eps, torch::Tensor& q, torch::Tensor& k, torch::Tensor& v);
// RoPE alone on the queries and keys in that kernel (the LayerNorm schemes with
// rotary positions), q, k, v as above; false where it does not apply.
bool rope_queries_keys(const torch::Tensor& proj, int64_t n_heads, const torch::Tensor& cos, const torch::Tensor& sin,
                       torch::Tensor& q, torch::Tensor& k, torch::Tensor& v);
// LayerNorm(GELU(h)) over the last dimension with gain γ and bias β through a
// fused kernel: NormLab's CUDA kernel where it is on and applies, the CPU's
// for fp32 CPU tensors; undefined where neither does (the caller runs GELU and
// its LayerNorm). fused_gelu_layer_norm is the CPU kernel, in one pass.
// fc1_bias (undefined: none): the bias the linear layer before added to h
// without gradient (bias_grads_after), given the column sums of h's gradient —
// by the CUDA kernel's column pass, by with_bias_grad before the CPU's.
torch::Tensor gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                              double eps, const torch::Tensor& fc1_bias = {});
torch::Tensor fused_gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                                    double eps);

// A LayerNorm's gain, bias and ε, for residual_layer_norm's branch.
struct BranchNormParams {
    torch::Tensor gamma, beta;
    double eps = 1e-5;
};

// The residual add and the LayerNorm after it in one NormLab CUDA kernel each
// way: s = a·(λ ⊙ x) + b·f and y = LayerNorm(s)·γ + β over the last dimension,
// y of type y_type (float32, or bfloat16 for a linear layer under bf16
// autocast). λ: ResScale's gains or undefined. b_t: b as a float32 device
// scalar (BranchNorm's α_t, which a captured step reads on the device), or
// undefined (b). True with s and y written where NormLab's CUDA kernels are on
// and apply (cuda_ops.h); false (s, y untouched) elsewhere: the caller runs
// the eager ops. f_norm, where given: the branch's own LayerNorm, applied to f
// before the add in the same kernels (NormFormer's post-attention LN). y_copy
// (or null): where the kernel writes it, a float32 y again in f's type (bf16
// under autocast) for the next linear layer (Post-LN's y is both the next
// residual and the next layer's input); left undefined elsewhere. f_bias
// (or undefined): the bias of the linear layer that made f, added there
// without gradient; where this returns true it has f's gradient's column
// sums, and where false the caller gives them to it (with_bias_grad).
bool residual_layer_norm(const torch::Tensor& x, const torch::Tensor& f, const torch::Tensor& lam, double a, double b,
                         const torch::Tensor& gamma, const torch::Tensor& beta, double eps, torch::ScalarType y_type,
                         torch::Tensor& s, torch::Tensor& y, const torch::Tensor& b_t = {},
                         const BranchNormParams* f_norm = nullptr, torch::Tensor* y_copy = nullptr,
                         const torch::Tensor& f_bias = {});
// Tests: residual_layer_norm computes its contract with eager ops on CPU
// tensors too (the model's use of it — which norms, λ, α, α_t — is then
// checked without a GPU), and how many times it has taken over. With copies on,
// ngpt_update and residual_layer_norm hand out a copy of y on the CPU too (a
// clone), so that where the model reads a copy is checked the same way.
void set_residual_layer_norm_on_cpu(bool on);
void set_linear_copies_on_cpu(bool on);
int64_t residual_layer_norm_calls();

// SwiGLU's output for a packed h = [u | g]: empty, h's shape with the last
// dimension halved, h's type and device (the CPU and CUDA kernels share it).
inline torch::Tensor swiglu_output(const torch::Tensor& h) {
    auto sizes = h.sizes().vec();
    sizes.back() /= 2;
    return torch::empty(sizes, h.options());
}
// A scaler's data, or null for an empty tensor (an absent scaler).
inline const float* scaler_data(const torch::Tensor& s) { return s.numel() ? s.data_ptr<float>() : nullptr; }

// x / (‖x‖₂ + eps) over `dim` (nGPT's norm(·); the reference has no eps);
// the fused kernel for the last dimension of fp32 CPU tensors.
torch::Tensor unit_norm(const torch::Tensor& x, int64_t dim, double eps);

}  // namespace normlab
