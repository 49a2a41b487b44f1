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

}  // namespace normlab::cuda_kernels
