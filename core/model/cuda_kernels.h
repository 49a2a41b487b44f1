// NormLab core: CUDA kernels (cuda_kernels.cu), declared without LibTorch or
// CUDA headers so that fused_ops.cpp can call them. Row-wise over the last
// dimension n of `rows` contiguous float32 rows; `stream` is a cudaStream_t.
// Built only in the LibTorch 2.x build with CUDA (NORMLAB_CUDA_KERNELS).
#pragma once

#include "core/model/cuda_kernel_bodies.h"

#include <cstdint>

namespace normlab::cuda_kernels {

// nGPT's residual update y = N(x + α ⊙ (N(h) − x)), N(v) = v / (‖v‖₂ + eps).
// Writes y and each row's ‖h‖ (rh) and ‖x + α ⊙ (N(h) − x)‖ (rz). x, α, y
// float32; h, the branch's output, float32 or bfloat16 (`h_bf16`: read as
// it comes out of a bf16 layer, no cast). Rows of n ≤ ngpt_update_max_width().
// y_copy (or null): y again in h's type, for the next linear layer.
void ngpt_update_forward(const float* x, const void* h, const float* alpha, float eps, float* y, float* rh, float* rz,
                         int64_t rows, int64_t n, bool h_bf16, void* stream, void* y_copy = nullptr);
// Its gradient: dx (float32), dh (h's type), and gz ⊙ (N(h) − x) summed over
// groups of rows into dalpha_rows (ngpt_update_alpha_rows(rows, n) × n; summed
// over its rows by the caller; deterministic). gy_copy (or null, h's type; only where
// copy_grad_in_kernel(n)): y's copy's gradient, added to gy as it is read.
void ngpt_update_backward(const float* x, const void* h, const float* alpha, const float* rh, const float* rz,
                          const float* gy, float eps, float* dx, void* dh, float* dalpha_rows, int64_t rows, int64_t n,
                          bool h_bf16, void* stream, const void* gy_copy = nullptr);
int64_t ngpt_update_max_width();
int64_t ngpt_update_alpha_rows(int64_t rows, int64_t n);

// SwiGLU of the packed projection h = [u | g] (rows × 2f): a = (u·s_u)·silu(g·s_v)
// (rows × f), in float32 or bfloat16 storage (`bf16`), arithmetic in float;
// su and sv (float32, f each) may be null. The bodies are those of
// cuda_kernel_bodies.h.
void swiglu_forward(const void* h, const float* su, const float* sv, void* a, int64_t rows, int64_t f, bool bf16,
                    void* stream);
// Its gradient: dh (rows × 2f, packed as h) and each chunk of rows' share of
// ds_u and ds_v in psu and psv (row_chunks(rows) × f each; summed over
// chunks by the caller).
void swiglu_backward(const void* h, const float* su, const float* sv, const void* da, void* dh, float* psu,
                     float* psv, int64_t rows, int64_t f, bool bf16, void* stream);
// How many chunks of rows the column kernels cut `rows` into (≤ 256).
int64_t row_chunks(int64_t rows);

// nGPT's queries and keys: q' = RoPE(q) / (‖RoPE(q)‖ + eps) · s_qk and the same
// for k, from qk = the first 2d values of the B·T rows of the packed
// projection (rows ld apart), into q', k' (B, H, T, d_h); the norms, one a
// (b, t, h), into nq, nk. cs, sn: RoPE's (T, d_h) tables, or null (no RoPE);
// s: s_qk's effective values (d). With dims.unit false, RoPE alone: no norm
// (nq, nk unused) and s null or a scale.
using QkDims = kernel_bodies::QkShape;   // B, T, H, d_h, ld, eps
void ngpt_qk_forward(const void* qk, const float* cs, const float* sn, const float* s, void* qo, void* ko, float* nq,
                     float* nk, const QkDims& dims, bool bf16, void* stream);
// Its gradient: the q | k part of dqk (the projection's gradient, B·T rows `ld`
// apart) from gq, gk (B, H, T, d_h), and each chunk of qk_rows_per_chunk (b, t)
// rows' share of ds_qk in ps (qk_chunks(B·T) × d; null: none).
void ngpt_qk_backward(const void* qk, const float* cs, const float* sn, const float* s, const void* gq, const void* gk,
                      const float* nq, const float* nk, void* dqk, float* ps, const QkDims& dims, bool bf16,
                      void* stream);
int64_t qk_chunks(int64_t bt);

// NormFormer's FFN LN: out = LayerNorm(GELU(h)) over rows of n with gain γ and
// bias β (float32, n each), h and out in float32 or bfloat16; each row's mean
// and 1/√(var + eps) into mean, rstd (rows floats).
void gelu_layer_norm_forward(const void* h, const float* gamma, const float* beta, float eps, void* out, float* mean,
                             float* rstd, int64_t rows, int64_t n, bool bf16, void* stream);
// Its gradient: dh from g, and each chunk of rows' share of dγ, dβ in pg, pb
// (gelu_layer_norm_chunks(rows, n) × n each; summed over chunks by the caller).
// With pd (the same shape) and row_m (2·rows floats of scratch): each chunk's
// share of Σ dh as well, FC1's bias gradient, where the row fits the row kernel
// (true); false where it does not, pd untouched (the caller sums dh).
bool gelu_layer_norm_backward(const void* h, const float* gamma, const void* g, const float* mean, const float* rstd,
                              void* dh, float* pg, float* pb, int64_t rows, int64_t n, bool bf16, void* stream,
                              float* pd = nullptr, float* row_m = nullptr);
int64_t gelu_layer_norm_chunks(int64_t rows, int64_t n);

// The residual add and the LayerNorm after it: s = a·(λ ⊙ x) + b·f and
// y = LayerNorm(s)·γ + β over rows of n (Post-LN, Pre-LN, NormFormer's
// ResScale λ, DeepNorm's a, BranchNorm's b). x, s, λ (n, or null), γ, β
// float32; f float32 or bfloat16 (`f_bf16`), y too (`y_bf16`); each row's mean
// and 1/√(var + eps) into mean, rstd. b_dev: b read from the device (one float,
// BranchNorm's α_t in a captured step, filled before each replay) instead of b.
// bl: the branch's own LayerNorm before the add, f ← LN(f)·γ_f + β_f (NormFormer's
// post-attention LN; its gamma null: none), where residual_branch_ln_fits(n).
// y_copy (or null): y again in f's type, for the next linear layer (Post-LN's
// float32 y, which is also the next residual, in bfloat16 under autocast).
void residual_layer_norm_forward(const float* x, const void* f, const float* lam, float a, float b,
                                 const float* b_dev, const float* gamma, const float* beta, float eps, float* s,
                                 void* y, float* mean, float* rstd, int64_t rows, int64_t n, bool f_bf16, bool y_bf16,
                                 void* stream, const kernel_bodies::BranchLn& bl = {}, void* y_copy = nullptr);
// Its gradient from gy and gs (s's own gradient, or null): dx (float32), df
// (f's type), each row's two sums into sg, sgx (rows floats each), and each
// group of rows' share of dγ, dβ and, with λ, dλ in pg, pb, pl
// (residual_layer_norm_partial_rows(rows, n, sums) × n each, sums the count
// residual_layer_norm_sums gives for the call; summed over groups by the
// caller, deterministic on a given device; pl unused without λ). x is read only for dλ.
// With bl: f, the branch's input, and the shares of dγ_f, dβ_f in pgf, pbf.
// With pfb, where rows fit a warp (residual_branch_ln_fits(n); elsewhere pfb is
// not written): the shares of df's column sums, df as stored (the branch's
// linear layer's bias gradient, linear_bias.cpp).
// gy_copy (or null; f's type, with float32 y, only where copy_grad_in_kernel(n)): y's
// copy's gradient, added to gy as it is read (gy + gy_copy, the sum eager's add makes).
void residual_layer_norm_backward(const float* s, const float* x, const float* gamma, const void* gy,
                                  const float* gs, const float* lam, float a, float b, const float* b_dev,
                                  const float* mean,
                                  const float* rstd, float* dx, void* df, float* sg, float* sgx, float* pg, float* pb,
                                  float* pl, int64_t rows, int64_t n, bool f_bf16, bool y_bf16, void* stream,
                                  const void* f = nullptr, const kernel_bodies::BranchLn& bl = {}, float* pgf = nullptr,
                                  float* pbf = nullptr, float* pfb = nullptr, const void* gy_copy = nullptr);
int64_t residual_layer_norm_partial_rows(int64_t rows, int64_t n, int sums);
// The column sums a residual backward writes: dγ, dβ, dλ with λ, dγ_f and dβ_f with the
// branch's LayerNorm (bl), df's with pfb.
int residual_layer_norm_sums(bool lam, bool branch_ln, bool bias);
// Whether the residual kernels' and nGPT's update's backward take y's copy's gradient
// (gy_copy): where a row fits a warp (n ≤ 1,024, unless NORMLAB_ROW_KERNELS=block).
bool copy_grad_in_kernel(int64_t n);
// Whether rows of n take the branch's LayerNorm (a warp a row: n ≤ 1,024, unless NORMLAB_ROW_KERNELS=block).
bool residual_branch_ln_fits(int64_t n);

// Kernels that write a linear layer's output gradient and sum its columns for
// the layer's bias on the way (cuda_bias_kernels.cu): the GEMM adds the bias
// forward in its epilogue, and no separate pass reads the gradient again for it.
//
// GELU (the exact, erf form) of h (rows × n, float32 or bfloat16) into a.
void gelu_forward(const void* h, void* a, int64_t rows, int64_t n, bool bf16, void* stream);
// Its gradient dh = da·GELU'(h) and, with pb, each chunk of rows' column sums
// of dh as stored (row_chunks(rows) × n; summed over chunks by the caller).
void gelu_backward(const void* h, const void* da, void* dh, float* pb, int64_t rows, int64_t n, bool bf16,
                   void* stream);
// The attention heads' gradients gq, gk, gv ((B, H, T, d_h) with these
// element strides, the last 1; a null one: zeros) packed into dproj (B·T rows
// of [q | k | v], 3·H·d_h each), and with pb each chunk of rows' column sums
// (row_chunks(B·T) × 3·H·d_h).
struct HeadGrads {
    const void* g[3];
    int64_t sb[3], sh[3], st[3];
    int64_t B, T, H, dh;
};
void heads_backward(const HeadGrads& z, void* dproj, float* pb, bool bf16, void* stream);

}  // namespace normlab::cuda_kernels
