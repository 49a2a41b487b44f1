// NormLab core: CUDA kernels (see cuda_kernels.h). No LibTorch here.
//
// nGPT's residual update is ~9 elementwise kernels forward and ~20 backward
// over (B, T, d) fp32 tensors when written with ATen ops (norms, adds,
// products, divisions, and their gradients): the update is the largest part
// of nGPT's elementwise time on an H100 (docs/GPU.md). One block per row
// computes it in one kernel each way, recomputing N(h) and z from the inputs
// rather than keeping them, so its saved tensors are the inputs the layer
// keeps anyway and two floats a row.
#include "core/model/cuda_kernels.h"

#include <cuda_runtime.h>

namespace normlab::cuda_kernels {
namespace {

constexpr int kThreads = 256;

// The sum of v over the block's threads, returned to every thread.
__device__ float block_sum(float v, float* shared) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();   // shared is reused by consecutive sums
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    float s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += shared[w];
    return s;
}

__global__ void update_forward(const float* __restrict__ x, const float* __restrict__ h,
                               const float* __restrict__ alpha, float eps, float* __restrict__ y,
                               float* __restrict__ rh, float* __restrict__ rz, int64_t n) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * n;
    const float* hr = h + row * n;
    float* yr = y + row * n;
    float s = 0;
    for (int64_t i = threadIdx.x; i < n; i += kThreads) s += hr[i] * hr[i];
    const float nh = sqrtf(block_sum(s, shared)), ih = 1.f / (nh + eps);
    s = 0;
    for (int64_t i = threadIdx.x; i < n; i += kThreads) {
        const float z = xr[i] + alpha[i] * (hr[i] * ih - xr[i]);
        yr[i] = z;
        s += z * z;
    }
    const float nz = sqrtf(block_sum(s, shared)), iz = 1.f / (nz + eps);
    for (int64_t i = threadIdx.x; i < n; i += kThreads) yr[i] *= iz;   // each thread rescales what it wrote
    if (threadIdx.x == 0) {
        rh[row] = nh;
        rz[row] = nz;
    }
}

// d/dv [v / (‖v‖ + ε)] applied to g: g / (r + ε) − v (v·g) / (r (r + ε)²), r = ‖v‖ (0 when r = 0).
__global__ void update_backward(const float* __restrict__ x, const float* __restrict__ h,
                                const float* __restrict__ alpha, const float* __restrict__ rh,
                                const float* __restrict__ rz, const float* __restrict__ gy, float eps,
                                float* __restrict__ dx, float* __restrict__ dh, float* __restrict__ dalpha_rows,
                                int64_t n) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x;
    const float *xr = x + row * n, *hr = h + row * n, *gr = gy + row * n;
    const float nh = rh[row], nz = rz[row], ih = 1.f / (nh + eps), iz = 1.f / (nz + eps);
    float s = 0;   // z · gy
    for (int64_t i = threadIdx.x; i < n; i += kThreads) {
        const float z = xr[i] + alpha[i] * (hr[i] * ih - xr[i]);
        s += z * gr[i];
    }
    const float zg = block_sum(s, shared);
    const float cz = nz > 0 ? zg / (nz * (nz + eps) * (nz + eps)) : 0.f;
    s = 0;         // h · (α ⊙ gz)
    for (int64_t i = threadIdx.x; i < n; i += kThreads) {
        const float hn = hr[i] * ih, z = xr[i] + alpha[i] * (hn - xr[i]);
        const float gz = gr[i] * iz - z * cz;
        dx[row * n + i] = gz * (1.f - alpha[i]);
        dalpha_rows[row * n + i] = gz * (hn - xr[i]);
        const float ghn = gz * alpha[i];
        dh[row * n + i] = ghn;   // finished below
        s += hr[i] * ghn;
    }
    const float hg = block_sum(s, shared);
    const float ch = nh > 0 ? hg / (nh * (nh + eps) * (nh + eps)) : 0.f;
    for (int64_t i = threadIdx.x; i < n; i += kThreads) dh[row * n + i] = dh[row * n + i] * ih - hr[i] * ch;
}

}  // namespace

void ngpt_update_forward(const float* x, const float* h, const float* alpha, float eps, float* y, float* rh,
                         float* rz, int64_t rows, int64_t n, void* stream) {
    if (rows == 0) return;
    update_forward<<<static_cast<unsigned>(rows), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(x, h, alpha, eps, y,
                                                                                                    rh, rz, n);
}

void ngpt_update_backward(const float* x, const float* h, const float* alpha, const float* rh, const float* rz,
                          const float* gy, float eps, float* dx, float* dh, float* dalpha_rows, int64_t rows,
                          int64_t n, void* stream) {
    if (rows == 0) return;
    update_backward<<<static_cast<unsigned>(rows), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
        x, h, alpha, rh, rz, gy, eps, dx, dh, dalpha_rows, n);
}

}  // namespace normlab::cuda_kernels
