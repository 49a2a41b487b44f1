// NormLab core: a block's sums, and NormFormer's FFN LN, LayerNorm(GELU(h)),
// with each thread's share of a row in registers (rows of n ≤ 16·256). Included
// by cuda_kernels.cu, which launches these where a row fits and the bodies'
// kernels (cuda_kernel_bodies.h: a block a row, a column kernel for dγ, dβ)
// otherwise, or everywhere with NORMLAB_ROW_KERNELS=block.
//
// Why: the bodies' kernels read each element of h three times forward (the
// sum, the squares, the output) and twice backward, computing GELU each time,
// and the column kernel reads h and g once more for dγ and dβ. At GPT-2
// small's d_ff (3,072, bf16) that is NormFormer's widest pass. Here a thread
// loads its E elements once and computes GELU once; backward, a block takes a
// chunk of kChunkRows rows and keeps its columns' shares of dγ and dβ in
// registers across them, so h and g are read once: the column kernel goes.
// The row's arithmetic and the order of its sums are the bodies' (the same
// block_sum over the same per-thread partial sums): the outputs and dh are the
// same bits; dγ and dβ are summed in other chunks.
#pragma once

#include "core/model/cuda_kernel_bodies.h"
#include "core/model/cuda_warp_rows.cuh"

#include <type_traits>

namespace normlab::cuda_kernels::block_rows {

constexpr int kBlock = 256;       // threads a block
constexpr int kChunkRows = 16;    // rows a block backward

// The sum of v over the block's threads, returned to every thread.
__device__ __forceinline__ float block_sum(float v, float* shared) {
    v = warp_rows::warp_sum(v);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();   // shared is reused by consecutive sums
    if (lane == 0) shared[warp] = v;
    __syncthreads();
    float s = 0;
    for (int w = 0; w < kBlock / 32; ++w) s += shared[w];
    return s;
}
// Two sums at once, each as block_sum adds it (shared: 2·kBlock/32 floats).
__device__ __forceinline__ void block_sum2(float& a, float& b, float* shared) {
    a = warp_rows::warp_sum(a);
    b = warp_rows::warp_sum(b);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) shared[warp] = a, shared[kBlock / 32 + warp] = b;
    __syncthreads();
    a = 0, b = 0;
    for (int w = 0; w < kBlock / 32; ++w) a += shared[w], b += shared[kBlock / 32 + w];
}

// out = LayerNorm(GELU(h))·γ + β, a block a row; each row's mean and rstd.
template <int E, class T>
__global__ void gelu_ln_forward(const T* __restrict__ h, const float* __restrict__ gamma,
                                const float* __restrict__ beta, float eps, T* __restrict__ out,
                                float* __restrict__ mean, float* __restrict__ rstd, int64_t n) {
    using io = kernel_bodies::Io<T>;
    __shared__ float shared[kBlock / 32];
    const int64_t row = blockIdx.x, o = row * n;
    const int tid = threadIdx.x;
    float a[E], s = 0;
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
        a[e] = i < n ? kernel_bodies::gelu(io::ld(h[o + i])) : 0.f;
        s += a[e];
    }
    const float m = block_sum(s, shared) / static_cast<float>(n);
    float q = 0;   // two passes over the registers: no cancellation
#pragma unroll
    for (int e = 0; e < E; ++e) {
        if (tid + kBlock * e < n) q += (a[e] - m) * (a[e] - m);
    }
    const float rs = 1.f / sqrtf(block_sum(q, shared) / static_cast<float>(n) + eps);
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
        if (i < n) out[o + i] = io::st((a[e] - m) * rs * gamma[i] + beta[i]);
    }
    if (tid == 0) mean[row] = m, rstd[row] = rs;
}

// Its gradient, a block a chunk of kChunkRows rows: dh, and the chunk's shares
// of dγ (Σ g·x̂) and dβ (Σ g) into row blockIdx.x of pg and pb (n each).
template <int E, class T>
__global__ void gelu_ln_backward(const T* __restrict__ h, const float* __restrict__ gamma, const T* __restrict__ g,
                                 const float* __restrict__ mean, const float* __restrict__ rstd, T* __restrict__ dh,
                                 float* __restrict__ pg, float* __restrict__ pb, int64_t rows, int64_t n) {
    using io = kernel_bodies::Io<T>;
    __shared__ float shared[2 * kBlock / 32];
    const int tid = threadIdx.x;
    const int64_t r0 = blockIdx.x * static_cast<int64_t>(kChunkRows);
    const int64_t r1 = r0 + kChunkRows < rows ? r0 + kChunkRows : rows;
    float gam[E], sgam[E], sbet[E];
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
        gam[e] = i < n ? gamma[i] : 0.f;
        sgam[e] = sbet[e] = 0.f;
    }
    for (int64_t r = r0; r < r1; ++r) {
        const int64_t o = r * n;
        const float m = mean[r], rs = rstd[r];
        float x[E], xh[E], gv[E], sg = 0, sgx = 0;
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
            x[e] = i < n ? io::ld(h[o + i]) : 0.f;
            gv[e] = i < n ? io::ld(g[o + i]) : 0.f;
            xh[e] = (kernel_bodies::gelu(x[e]) - m) * rs;
            if (i < n) {
                const float gh = gv[e] * gam[e];
                sg += gh;
                sgx += gh * xh[e];
            }
        }
        block_sum2(sg, sgx, shared);
        const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
#pragma unroll
        for (int e = 0; e < E; ++e) {
            const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
            if (i < n) {
                dh[o + i] = io::st(rs * (gv[e] * gam[e] - mg - xh[e] * mgx) * kernel_bodies::gelu_grad(x[e]));
                sgam[e] += gv[e] * xh[e];
                sbet[e] += gv[e];
            }
        }
    }
#pragma unroll
    for (int e = 0; e < E; ++e) {
        const int64_t i = tid + static_cast<int64_t>(kBlock) * e;
        if (i < n) pg[blockIdx.x * n + i] = sgam[e], pb[blockIdx.x * n + i] = sbet[e];
    }
}

// Calls fn with std::integral_constant<int, E> for the fewest elements a thread that hold a row
// of n; false (nothing called) past 16·256 or where NORMLAB_ROW_KERNELS=block.
template <class Fn>
bool by_elements(int64_t n, Fn&& fn) {
    if (n > 16 * kBlock || !warp_rows::rows_by_warp()) return false;
    if (n <= 4 * kBlock) fn(std::integral_constant<int, 4>{});
    else if (n <= 8 * kBlock) fn(std::integral_constant<int, 8>{});
    else if (n <= 12 * kBlock) fn(std::integral_constant<int, 12>{});
    else fn(std::integral_constant<int, 16>{});
    return true;
}

}  // namespace normlab::cuda_kernels::block_rows
