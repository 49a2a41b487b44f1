// NormLab core: fused causal self-attention for the CPU, one (batch, head) at
// a time, on raw fp32 pointers. No LibTorch here: core/model/gpt.cpp wraps it
// in an autograd function and runs the heads in parallel.
//
// Why: PyTorch eager computes attention as bmm → mask → softmax → bmm, each
// op over all B·H heads in turn, with the heads copied out of the packed QKV
// projection first. At the sizes a CPU trains (T ≈ 128, d_h ≈ 32) each bmm is
// 64 small GEMMs issued one after another, and attention took ~35% of a small
// Pre-LN step. Here one thread does all of one head's work while its T×T
// block is in cache: GEMMs on strided views of Q, K, V (no copies), the
// causal mask as skipped blocks (the upper triangle is not multiplied), and
// softmax fused with the masking (docs/PERFORMANCE.md).
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

}  // namespace normlab::kernels
