// NormLab core: CUDA kernels (cuda_kernels.cu), declared without LibTorch or
// CUDA headers so that fused_ops.cpp can call them. Row-wise over the last
// dimension n of `rows` contiguous float32 rows; `stream` is a cudaStream_t.
// Built only in the LibTorch 2.x build with CUDA (NORMLAB_CUDA_KERNELS).
#pragma once

#include <cstdint>

namespace normlab::cuda_kernels {

// nGPT's residual update y = N(x + α ⊙ (N(h) − x)), N(v) = v / (‖v‖₂ + eps).
// Writes y and each row's ‖h‖ (rh) and ‖x + α ⊙ (N(h) − x)‖ (rz).
void ngpt_update_forward(const float* x, const float* h, const float* alpha, float eps, float* y, float* rh,
                         float* rz, int64_t rows, int64_t n, void* stream);
// Its gradient: dx, dh, and per row gz ⊙ (N(h) − x) into dalpha_rows (rows × n;
// summed over rows by the caller, deterministic).
void ngpt_update_backward(const float* x, const float* h, const float* alpha, const float* rh, const float* rz,
                          const float* gy, float eps, float* dx, float* dh, float* dalpha_rows, int64_t rows,
                          int64_t n, void* stream);

// SwiGLU of the packed projection h = [u | g] (rows × 2f): a = (u·s_u)·silu(g·s_v)
// (rows × f), in float32 or bfloat16 storage (`bf16`), arithmetic in float;
// su and sv (float32, f each) may be null. The bodies are those of
// cuda_kernel_bodies.h.
void swiglu_forward(const void* h, const float* su, const float* sv, void* a, int64_t rows, int64_t f, bool bf16,
                    void* stream);
// Its gradient: dh (rows × 2f, packed as h) and each chunk of rows' share of
// ds_u and ds_v in psu and psv (swiglu_row_chunks(rows) × f each; summed over
// chunks by the caller).
void swiglu_backward(const void* h, const float* su, const float* sv, const void* da, void* dh, float* psu,
                     float* psv, int64_t rows, int64_t f, bool bf16, void* stream);
int64_t swiglu_row_chunks(int64_t rows);

}  // namespace normlab::cuda_kernels
