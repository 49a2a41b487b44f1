// NormLab core: a block's sums, nGPT's update a block a row, and NormFormer's
// FFN LN, LayerNorm(GELU(h)), a block of kRowThreads a row with the row in
// registers, read and written 8 elements an access (rows of n ≤ 4,096, n a
// multiple of 8). Included by
// cuda_kernels.cu, which launches these where a row fits and the bodies'
// kernels (cuda_kernel_bodies.h: a block a row, 256 threads, an element an
// access) otherwise, or everywhere with NORMLAB_ROW_KERNELS=block; dγ and dβ
// come from a column kernel, two columns a thread, over chunks of rows.
//
// Why: on the H100 (bench/results/leases/2026-11-26T1640-h100) the FFN LN
// took 4.7 ms forward and 14.0 backward of NormFormer's 73 ms step for ~12 GB
// that the card moves in ~3.6 ms. Its backward then took a block a chunk of 16
// rows with dγ and dβ in registers: 6 × 12 floats a thread of 256, so (by
// its registers) few blocks an SM; the 16 rows ran one after another between
// the block's barriers, and each element's erf was computed twice. Here every
// row is a block of its own, a thread holds 3 × 8 elements of GPT-2 small's
// d_ff, erf once an element, and h and g are read once by the row kernel and
// once more by the column kernel.
#pragma once

#include "core/model/cuda_kernel_bodies.h"
#include "core/model/cuda_vector_io.cuh"
#include "core/model/cuda_warp_rows.cuh"

#include <type_traits>

namespace normlab::cuda_kernels::block_rows {

constexpr int kBlock = 256;       // threads a block

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

// nGPT's update a block a row (rows past 1,024 wide, or NORMLAB_ROW_KERNELS=block;
// cuda_warp_rows.cuh has the warp-a-row kernels). One block per row computes it
// in one kernel each way, recomputing N(h) and z from the inputs rather than
// keeping them, so its saved tensors are the inputs the layer keeps anyway and
// two floats a row.
// h (the branch's output) in float32 or bfloat16 (H), read as float; dh written in H.
template <class H>
__global__ void update_forward(const float* __restrict__ x, const H* __restrict__ h,
                               const float* __restrict__ alpha, float eps, float* __restrict__ y,
                               float* __restrict__ rh, float* __restrict__ rz, int64_t n, H* __restrict__ y_copy) {
    using io = kernel_bodies::Io<H>;
    __shared__ float shared[kBlock / 32];
    const int64_t row = blockIdx.x;
    const float* xr = x + row * n;
    const H* hr = h + row * n;
    float* yr = y + row * n;
    float s = 0;
    for (int64_t i = threadIdx.x; i < n; i += kBlock) s += io::ld(hr[i]) * io::ld(hr[i]);
    const float nh = sqrtf(block_sum(s, shared)), ih = 1.f / (nh + eps);
    s = 0;
    for (int64_t i = threadIdx.x; i < n; i += kBlock) {
        const float z = xr[i] + alpha[i] * (io::ld(hr[i]) * ih - xr[i]);
        yr[i] = z;
        s += z * z;
    }
    const float nz = sqrtf(block_sum(s, shared)), iz = 1.f / (nz + eps);
    for (int64_t i = threadIdx.x; i < n; i += kBlock) {   // each thread rescales what it wrote
        yr[i] *= iz;
        if (y_copy) y_copy[row * n + i] = io::st(yr[i]);
    }
    if (threadIdx.x == 0) {
        rh[row] = nh;
        rz[row] = nz;
    }
}

// d/dv [v / (‖v‖ + ε)] applied to g: g / (r + ε) − v (v·g) / (r (r + ε)²), r = ‖v‖ (0 when r = 0).
// dh's unscaled values wait in registers (at most kUpdatePerThread a thread) between the two sums.
constexpr int kUpdatePerThread = 16;
template <class H>
__global__ void update_backward(const float* __restrict__ x, const H* __restrict__ h,
                                const float* __restrict__ alpha, const float* __restrict__ rh,
                                const float* __restrict__ rz, const float* __restrict__ gy, float eps,
                                float* __restrict__ dx, H* __restrict__ dh, float* __restrict__ dalpha_rows,
                                int64_t n) {
    using io = kernel_bodies::Io<H>;
    __shared__ float shared[kBlock / 32];
    const int64_t row = blockIdx.x;
    const float *xr = x + row * n, *gr = gy + row * n;
    const H* hr = h + row * n;
    const float nh = rh[row], nz = rz[row], ih = 1.f / (nh + eps), iz = 1.f / (nz + eps);
    float s = 0;   // z · gy
    for (int64_t i = threadIdx.x; i < n; i += kBlock) {
        const float z = xr[i] + alpha[i] * (io::ld(hr[i]) * ih - xr[i]);
        s += z * gr[i];
    }
    const float zg = block_sum(s, shared);
    const float cz = nz > 0 ? zg / (nz * (nz + eps) * (nz + eps)) : 0.f;
    s = 0;         // h · (α ⊙ gz)
    float ghn[kUpdatePerThread];
    int k = 0;
    for (int64_t i = threadIdx.x; i < n; i += kBlock, ++k) {
        const float hv = io::ld(hr[i]), hn = hv * ih, z = xr[i] + alpha[i] * (hn - xr[i]);
        const float gz = gr[i] * iz - z * cz;
        dx[row * n + i] = gz * (1.f - alpha[i]);
        dalpha_rows[row * n + i] = gz * (hn - xr[i]);
        ghn[k] = gz * alpha[i];
        s += hv * ghn[k];
    }
    const float hg = block_sum(s, shared);
    const float ch = nh > 0 ? hg / (nh * (nh + eps) * (nh + eps)) : 0.f;
    k = 0;
    for (int64_t i = threadIdx.x; i < n; i += kBlock, ++k) dh[row * n + i] = io::st(ghn[k] * ih - io::ld(hr[i]) * ch);
}

constexpr int kRowThreads = 128;   // a block a row of the FFN LN
constexpr int kVec = 8;            // elements an access

// The sums of a and b over the block's kRowThreads threads, returned to every thread
// (shared: 2·kRowThreads/32 floats).
__device__ __forceinline__ void row_sum2(float& a, float& b, float* shared) {
    a = warp_rows::warp_sum(a);
    b = warp_rows::warp_sum(b);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads();   // shared is reused by consecutive sums
    if (lane == 0) shared[warp] = a, shared[kRowThreads / 32 + warp] = b;
    __syncthreads();
    a = 0, b = 0;
    for (int w = 0; w < kRowThreads / 32; ++w) a += shared[w], b += shared[kRowThreads / 32 + w];
}

__device__ __forceinline__ float row_sum(float a, float* shared) {
    float b = 0.f;
    row_sum2(a, b, shared);
    return a;
}

// Thread tid's vectors of a row: k-th at elements kVec·(tid + kRowThreads·k), false past the row.
__device__ __forceinline__ bool row_vector(int k, int64_t n, int64_t& e) {
    e = kVec * (static_cast<int64_t>(threadIdx.x) + static_cast<int64_t>(kRowThreads) * k);
    return e < n;
}

// out = LayerNorm(GELU(h))·γ + β, a block a row; each row's mean and rstd.
template <int V, class T>
__global__ void gelu_ln_forward(const T* __restrict__ h, const float* __restrict__ gamma,
                                const float* __restrict__ beta, float eps, T* __restrict__ out,
                                float* __restrict__ mean, float* __restrict__ rstd, int64_t n) {
    __shared__ float shared[2 * kRowThreads / 32];
    const int64_t o = blockIdx.x * n;
    float a[V][kVec], s = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        int64_t e;
        if (row_vector(k, n, e)) {
            load<kVec>(h + o + e, a[k]);
#pragma unroll
            for (int i = 0; i < kVec; ++i) a[k][i] = kernel_bodies::gelu(a[k][i]), s += a[k][i];
        }
    }
    const float m = row_sum(s, shared) / static_cast<float>(n);
    float q = 0;   // two passes over the registers: no cancellation
#pragma unroll
    for (int k = 0; k < V; ++k) {
        int64_t e;
        if (row_vector(k, n, e)) {
#pragma unroll
            for (int i = 0; i < kVec; ++i) q += (a[k][i] - m) * (a[k][i] - m);
        }
    }
    const float rs = 1.f / sqrtf(row_sum(q, shared) / static_cast<float>(n) + eps);
#pragma unroll
    for (int k = 0; k < V; ++k) {
        int64_t e;
        if (row_vector(k, n, e)) {
            float gm[kVec], bt[kVec];
            load<kVec>(gamma + e, gm);
            load<kVec>(beta + e, bt);
#pragma unroll
            for (int i = 0; i < kVec; ++i) a[k][i] = (a[k][i] - m) * rs * gm[i] + bt[i];
            store<kVec>(out + o + e, a[k]);
        }
    }
    if (threadIdx.x == 0) mean[blockIdx.x] = m, rstd[blockIdx.x] = rs;
}

// Φ(x) and GELU′(x) = Φ(x) + x·φ(x) from one erf (GELU(x) = x·Φ(x)), and one element of dh
// (gelu_ln_backward): each written once for the row kernel and the column kernel that
// recomputes dh, so both compute the same bits.
__device__ __forceinline__ void gelu_phi_slope(float x, float& phi, float& d1) {
    phi = 0.5f * (1.f + erff(x * 0.70710678118654752f));
    d1 = phi + x * 0.39894228040143268f * expf(-0.5f * x * x);
}
__device__ __forceinline__ float gelu_ln_dh(float rs, float gh, float mg, float xh, float mgx, float d1) {
    return rs * (gh - mg - xh * mgx) * d1;
}

// Its gradient dh, a block a row: dh = rstd·(ĝ − Σĝ/n − x̂·Σĝx̂/n)·GELU′(h), ĝ = g·γ,
// x̂ = (GELU(h) − mean)·rstd; GELU and GELU′ from one erf. With row_m (2 floats a row):
// the row's Σĝ/n and Σĝx̂/n kept there, from which the column kernel recomputes dh for
// the column sums of FC1's bias gradient.
template <int V, class T>
__global__ void gelu_ln_backward(const T* __restrict__ h, const float* __restrict__ gamma, const T* __restrict__ g,
                                 const float* __restrict__ mean, const float* __restrict__ rstd, T* __restrict__ dh,
                                 int64_t n, float* __restrict__ row_m) {
    __shared__ float shared[2 * kRowThreads / 32];
    const int64_t o = blockIdx.x * n;
    const float m = mean[blockIdx.x], rs = rstd[blockIdx.x];
    float xh[V][kVec], gh[V][kVec], d1[V][kVec], sg = 0, sgx = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        int64_t e;
        if (row_vector(k, n, e)) {
            float gm[kVec];
            load<kVec>(h + o + e, xh[k]);
            load<kVec>(g + o + e, gh[k]);
            load<kVec>(gamma + e, gm);
#pragma unroll
            for (int i = 0; i < kVec; ++i) {
                const float x = xh[k][i];
                float phi;
                gelu_phi_slope(x, phi, d1[k][i]);
                xh[k][i] = (x * phi - m) * rs;
                gh[k][i] *= gm[i];
                sg += gh[k][i];
                sgx += gh[k][i] * xh[k][i];
            }
        }
    }
    row_sum2(sg, sgx, shared);
    const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
    if (row_m && threadIdx.x == 0) row_m[2 * blockIdx.x] = mg, row_m[2 * blockIdx.x + 1] = mgx;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        int64_t e;
        if (row_vector(k, n, e)) {
#pragma unroll
            for (int i = 0; i < kVec; ++i) gh[k][i] = gelu_ln_dh(rs, gh[k][i], mg, xh[k][i], mgx, d1[k][i]);
            store<kVec>(dh + o + e, gh[k]);
        }
    }
}

// dγ (Σ g·x̂) and dβ (Σ g) of a chunk of rows (blockIdx.y, kernel_bodies::row_chunks) for
// two neighbouring columns a thread, into row blockIdx.y of pg and pb (n each). With pd
// (and γ, and row_m from gelu_ln_backward): Σ dh as well, FC1's bias gradient, dh
// recomputed as the row kernel computed it before its rounding to T, from the h and g read
// here anyway, where autograd would read dh once more.
constexpr int kParamRows = 4;   // gelu_ln_param_grad's rows loaded before any is used
template <class T>
__global__ void gelu_ln_param_grad(const T* __restrict__ h, const T* __restrict__ g, const float* __restrict__ mean,
                                   const float* __restrict__ rstd, float* __restrict__ pg, float* __restrict__ pb,
                                   int64_t rows, int64_t n, const float* __restrict__ gamma,
                                   const float* __restrict__ row_m, float* __restrict__ pd) {
    const int64_t j = 2 * (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x);
    if (j >= n) return;
    const int64_t r0 = blockIdx.y * kernel_bodies::rows_per_chunk(rows), r1 = kernel_bodies::chunk_end(blockIdx.y, rows);
    float sgam[2] = {0.f, 0.f}, sbet[2] = {0.f, 0.f}, sdh[2] = {0.f, 0.f}, gm[2] = {0.f, 0.f};
    if (pd) load<2>(gamma + j, gm);
    // row r's share, its inputs loaded (in batches of kParamRows rows before any is used: GELU's
    // erff branches, and a row's loads after the last row's arithmetic were one load in flight a
    // thread, ~1.4 TB/s in lease 5's NormFormer trace); the same sums in the same order
    struct Stats {
        float m, rs, mg, mgx;   // the row's mean and rstd; with pd, its Σĝ/n and Σĝx̂/n (row_m)
    };
    auto stats = [&](int64_t r) {
        return pd ? Stats{mean[r], rstd[r], row_m[2 * r], row_m[2 * r + 1]} : Stats{mean[r], rstd[r], 0.f, 0.f};
    };
    auto row = [&](const float (&x)[2], const float (&gv)[2], const Stats& st) {
        const float m = st.m, rs = st.rs, mg = st.mg, mgx = st.mgx;
        if (pd) {
#pragma unroll
            for (int i = 0; i < 2; ++i) {
                float phi, d1;
                gelu_phi_slope(x[i], phi, d1);
                const float xh = (x[i] * phi - m) * rs;
                sgam[i] += gv[i] * xh, sbet[i] += gv[i];
                sdh[i] += gelu_ln_dh(rs, gv[i] * gm[i], mg, xh, mgx, d1);
            }
        } else {
#pragma unroll
            for (int i = 0; i < 2; ++i) sgam[i] += gv[i] * (kernel_bodies::gelu(x[i]) - m) * rs, sbet[i] += gv[i];
        }
    };
    int64_t r = r0;
    for (; r + kParamRows <= r1; r += kParamRows) {
        float x[kParamRows][2], gv[kParamRows][2];
        Stats st[kParamRows];
#pragma unroll
        for (int u = 0; u < kParamRows; ++u) {
            load<2>(h + (r + u) * n + j, x[u]), load<2>(g + (r + u) * n + j, gv[u]);
            st[u] = stats(r + u);
        }
#pragma unroll
        for (int u = 0; u < kParamRows; ++u) row(x[u], gv[u], st[u]);
    }
    for (; r < r1; ++r) {
        float x[2], gv[2];
        load<2>(h + r * n + j, x);
        load<2>(g + r * n + j, gv);
        row(x, gv, stats(r));
    }
    store<2>(pg + blockIdx.y * n + j, sgam);
    store<2>(pb + blockIdx.y * n + j, sbet);
    if (pd) store<2>(pd + blockIdx.y * n + j, sdh);
}

// Calls fn with std::integral_constant<int, V> for the fewest vectors a thread that hold a
// row of n; false (nothing called) where n is not a multiple of kVec, past 4·kVec·kRowThreads
// (4,096), or where NORMLAB_ROW_KERNELS=block.
template <class Fn>
bool by_vectors(int64_t n, Fn&& fn) {
    if (n % kVec != 0 || n > 4 * kVec * kRowThreads || !warp_rows::rows_by_warp()) return false;
    const int64_t v = (n / kVec + kRowThreads - 1) / kRowThreads;
    if (v <= 1) fn(std::integral_constant<int, 1>{});
    else if (v == 2) fn(std::integral_constant<int, 2>{});
    else if (v == 3) fn(std::integral_constant<int, 3>{});
    else fn(std::integral_constant<int, 4>{});
    return true;
}

}  // namespace normlab::cuda_kernels::block_rows
