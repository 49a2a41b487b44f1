// NormLab core: fused CPU kernels on raw fp32 pointers, for the operations
// where PyTorch eager spends most beyond its GEMMs at the sizes a CPU trains.
// No LibTorch here: core/model/fused_ops.cpp wraps them in autograd functions and
// runs them in parallel (heads, or chunks of rows). docs/PERFORMANCE.md has
// the measurements.
//
// 1. Causal self-attention, one (batch, head) at a time.
//
// Why: PyTorch eager computes attention as bmm → mask → softmax → bmm, each
// op over all B·H heads in turn, with the heads copied out of the packed QKV
// projection first. At the sizes a CPU trains (T ≈ 128, d_h ≈ 32) each bmm is
// 64 small GEMMs issued one after another, and attention took ~35% of a small
// Pre-LN step. Here one thread does all of one head's work while its T×T
// block is in cache: GEMMs on strided views of Q, K, V (no copies), the
// causal mask as skipped blocks (the upper triangle is not multiplied), and
// softmax fused with the masking.
//
// Matrices are row-major with a leading dimension (row stride, in floats);
// the last dimension is contiguous.
#pragma once

#include <cstdint>

namespace normlab::kernels {

// True when the process has a BLAS sgemm_ to call (LibTorch's CPU build
// links one: OpenBLAS on Debian). Without it the model uses the eager path.
bool attention_kernel_available();

// One head. P (T×T, ld T) ← causal softmax(scale · Q Kᵀ), zero above the
// diagonal; Y (T×d_h) ← P V. Returns the largest scaled logit of the head
// (the max-logit probe).
float attention_forward_head(int64_t T, int64_t dh, float scale,
                             const float* q, int64_t ldq, const float* k, int64_t ldk,
                             const float* v, int64_t ldv, float* P, float* y, int64_t ldy);

// One head's gradients from dY and the saved P; dS (T×T, ld T) is scratch.
// dQ, dK, dV are written, not accumulated.
void attention_backward_head(int64_t T, int64_t dh, float scale,
                             const float* q, int64_t ldq, const float* k, int64_t ldk,
                             const float* v, int64_t ldv, const float* P,
                             const float* dy, int64_t lddy, float* dS,
                             float* dq, int64_t lddq, float* dk, int64_t lddk, float* dv, int64_t lddv);

// 2. GELU (exact, erf form) followed by LayerNorm over each row: NormFormer's
// FFN LN normalizes the GELU output. Eager runs them as separate passes over
// the (B·T, d_ff) activations and keeps the GELU output for the backward. Here
// one pass per direction, row by row: the GELU output never goes to memory,
// and the backward recomputes it from h. Φ uses Abramowitz & Stegun 7.1.26
// (|error| ≤ 1.5e-7, LibTorch's float GELU is off by up to 3.6e-7), sharing
// its exp with the Gaussian density of the derivative. GELU alone stays
// LibTorch's: its kernel was as fast as ours.

// out = LayerNorm(gelu(h)) · γ + β per row; mean and rstd (one per row) are
// saved for the backward. `scratch` holds n floats.
void gelu_layer_norm_forward_rows(const float* h, const float* gamma, const float* beta, float eps, float* out,
                                  float* mean, float* rstd, int64_t rows, int64_t n, float* scratch);
// dh from dout; dγ and dβ are accumulated into dgamma and dbeta (n each).
// `scratch` holds 2n floats.
void gelu_layer_norm_backward_rows(const float* h, const float* gamma, const float* mean, const float* rstd,
                                   const float* dout, float* dh, float* dgamma, float* dbeta, int64_t rows,
                                   int64_t n, float* scratch);

// 3. nGPT's normalization y = x / (‖x‖₂ + eps) over each row. Eager LibTorch
// computes it as norm → add → divide, and its backward as half a dozen
// broadcasting ops (~0.7 ms per (2048, 128) on these CPUs); nGPT calls it six
// times a layer. Here one pass each way; the backward uses the saved y and
// ‖x‖: dx = (g − y·(g·y)·(‖x‖+eps)/‖x‖) / (‖x‖+eps), and g/eps at x = 0 (the
// subgradient LibTorch takes).
void unit_norm_forward_rows(const float* x, float* y, float* norms, int64_t rows, int64_t n, float eps);
void unit_norm_backward_rows(const float* y, const float* norms, const float* g, float* dx, int64_t rows, int64_t n,
                             float eps);
// nGPT's residual update in one pass: hn = norm(h), y = norm(x + α ⊙ (hn − x)),
// with α (n) the eigen learning rates. Saves hn and both norms per row.
void ngpt_update_forward_rows(const float* x, const float* h, const float* alpha, float eps, float* y, float* hn,
                              float* norm_h, float* norm_u, int64_t rows, int64_t n, float* scratch);
// dx, dh from dy; dα accumulated. `scratch` holds n floats.
void ngpt_update_backward_rows(const float* x, const float* alpha, const float* hn, const float* y,
                               const float* norm_h, const float* norm_u, const float* dy, float eps, float* dx,
                               float* dh, float* dalpha, int64_t rows, int64_t n, float* scratch);

// 4. SwiGLU on the packed projection h = [u | g] (rows × 2f): a = u'·silu(g')
// with u' = u·s_u and g' = g·s_v when nGPT's scalers are given (null: 1).
// Eager splits h, runs silu and the products as separate passes and stacks
// the two halves of the gradient back together; here one pass each way, the
// gradient written packed. ds_u and ds_v (f each) are accumulated.
void swiglu_forward_rows(const float* h, const float* su, const float* sv, float* a, int64_t rows, int64_t f);
void swiglu_backward_rows(const float* h, const float* su, const float* sv, const float* da, float* dh, float* dsu,
                          float* dsv, int64_t rows, int64_t f);

}  // namespace normlab::kernels
