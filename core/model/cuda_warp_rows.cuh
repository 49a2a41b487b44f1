// NormLab core: the row kernels of nGPT's update and of the residual add with
// its LayerNorm, a warp a row with the row held in registers (rows of n ≤ 32·V
// floats, V a lane). Included by cuda_kernels.cu, which launches these where a
// row fits (n ≤ 1024) and the block-a-row kernels otherwise, or everywhere with
// NORMLAB_ROW_KERNELS=block.
//
// Why: at GPT-2 small's width (n 768) the block-a-row kernels (256 threads, 3
// elements a thread, a block's sums between phases) moved 1.5–1.8 TB/s on an
// H200 (bench/results/leases/2026-11-26T1049-h200: nGPT's update 4.0 ms
// forward and 6.7 backward a step, Pre-LN's residual LayerNorm 4.0 and 4.4),
// about a third of what the card's memory gives. A block's few loads a thread
// and its barriers leave little in flight. Here each lane issues its V loads of
// each input before it uses any (the loop is unrolled), a warp's loads of one
// k are 32 neighbouring elements, the sums are the warp's shuffles, and no
// element is read twice from memory.
//
// The arithmetic is that of the block kernels and of cuda_kernel_bodies.h
// (which the CPU tests run); only the order of the sums differs. The GPU tests
// (test_fused_ops, test_cuda_residual_ln) run both kinds against the eager ops;
// test_cuda_emulated runs them on CPU threads (tests/simt_emulator.h) in CI.
#pragma once

#include "core/model/cuda_kernel_bodies.h"

#ifndef NORMLAB_SIMT   // tests/simt_emulator.h runs these kernels on the CPU
#include <cuda_runtime.h>
#endif

namespace normlab::cuda_kernels::warp_rows {

constexpr int kLanes = kernel_bodies::kLanes;

// The sum of v over the warp's lanes, the same bits in every lane (each step adds a pair
// in both lanes, and a + b = b + a).
__device__ __forceinline__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// This warp's row (or other unit of a warp's work), or false past the last (the whole
// warp returns: a row is a warp's).
__device__ __forceinline__ bool warp_row(int64_t rows, int64_t& row, int& lane) {
    row = (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x) / kLanes;
    lane = static_cast<int>(threadIdx.x % kLanes);
    return row < rows;
}

// nGPT's update y = N(x + α ⊙ (N(h) − x)); each row's ‖h‖ into rh, ‖z‖ into rz; with
// y_copy, y again in h's type (bf16 under autocast) for the next linear layer.
template <int V, class H>
__global__ void update_forward(const float* __restrict__ x, const H* __restrict__ h, const float* __restrict__ alpha,
                               float eps, float* __restrict__ y, float* __restrict__ rh, float* __restrict__ rz,
                               int64_t rows, int64_t n, H* __restrict__ y_copy) {
    using io = kernel_bodies::Io<H>;
    int64_t row;
    int lane;
    if (!warp_row(rows, row, lane)) return;
    const float* xr = x + row * n;
    const H* hr = h + row * n;
    float xv[V], hv[V];
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        xv[k] = i < n ? xr[i] : 0.f;
        hv[k] = i < n ? io::ld(hr[i]) : 0.f;
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) s += hv[k] * hv[k];
    const float nh = sqrtf(warp_sum(s)), ih = 1.f / (nh + eps);
    s = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {   // xv becomes z (0 past the row's end: α reads 0 there)
        const int64_t i = lane + kLanes * k;
        const float a = i < n ? alpha[i] : 0.f;
        xv[k] = xv[k] + a * (hv[k] * ih - xv[k]);
        s += xv[k] * xv[k];
    }
    const float nz = sqrtf(warp_sum(s)), iz = 1.f / (nz + eps);
    float* yr = y + row * n;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        if (i < n) {
            yr[i] = xv[k] * iz;
            if (y_copy) y_copy[row * n + i] = io::st(xv[k] * iz);
        }
    }
    if (lane == 0) rh[row] = nh, rz[row] = nz;
}

// Its gradient: dx, dh (h's type), and dα's share of the block's rows (Σ gz ⊙ (N(h) − x) over
// the kWarps rows of block b) into row b of dalpha_part: the warps' shares meet in shared memory
// and are added in warp order (deterministic), so the caller sums rows / kWarps rows of n where it
// summed a row of n for every row (a write and a read of 4·n bytes a row, ~3 ms of nGPT's step on
// the H100 at GPT-2 small's shape).
constexpr int kWarps = 256 / kLanes;   // warps a block (cuda_kernels.cu launches 256 threads)
// The blocks' groups of kWarps rows whose column sums block_column_sums writes, a row each.
inline int64_t row_groups(int64_t rows) { return (rows + kWarps - 1) / kWarps; }

// Column sums over the block's kWarps rows: each lane's value(k) for the row's elements
// lane + 32·k goes to shared memory, and the block's threads add the warps' values column by
// column in warp order (deterministic) into row blockIdx.x of out (n a row). Every thread of
// the block calls it (it holds two barriers); a warp without a row gives zeros.
template <int V, class Value>
__device__ __forceinline__ void block_column_sums(float (&part)[kWarps][V * kLanes], int64_t n, float* __restrict__ out,
                                                  Value value) {
    const int warp = static_cast<int>(threadIdx.x / kLanes), lane = static_cast<int>(threadIdx.x % kLanes);
#pragma unroll
    for (int k = 0; k < V; ++k) part[warp][lane + kLanes * k] = value(k);
    __syncthreads();
    for (int64_t i = threadIdx.x; i < n; i += kWarps * kLanes) {
        float sum = 0.f;
        for (int w = 0; w < kWarps; ++w) sum += part[w][i];
        out[blockIdx.x * n + i] = sum;
    }
    __syncthreads();   // part is written again by the next sum
}
template <int V, class H>
__global__ void update_backward(const float* __restrict__ x, const H* __restrict__ h, const float* __restrict__ alpha,
                                const float* __restrict__ rh, const float* __restrict__ rz,
                                const float* __restrict__ gy, float eps, float* __restrict__ dx, H* __restrict__ dh,
                                float* __restrict__ dalpha_part, int64_t rows, int64_t n) {
    using io = kernel_bodies::Io<H>;
    __shared__ float part[kWarps][V * kLanes];
    int64_t row;
    int lane;
    float da[V];
#pragma unroll
    for (int k = 0; k < V; ++k) da[k] = 0.f;
    if (warp_row(rows, row, lane)) {   // a warp past the last row adds zeros (every warp meets the barrier)
        const int64_t o = row * n;
        float xv[V], hv[V], gv[V], av[V];
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t i = lane + kLanes * k;
            xv[k] = i < n ? x[o + i] : 0.f;
            hv[k] = i < n ? io::ld(h[o + i]) : 0.f;
            gv[k] = i < n ? gy[o + i] : 0.f;
            av[k] = i < n ? alpha[i] : 0.f;
        }
        const float nh = rh[row], nz = rz[row], ih = 1.f / (nh + eps), iz = 1.f / (nz + eps);
        float s = 0;   // z · gy
#pragma unroll
        for (int k = 0; k < V; ++k) s += (xv[k] + av[k] * (hv[k] * ih - xv[k])) * gv[k];
        const float zg = warp_sum(s);
        const float cz = nz > 0 ? zg / (nz * (nz + eps) * (nz + eps)) : 0.f;
        s = 0;         // h · (α ⊙ gz)
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t i = lane + kLanes * k;
            const float hn = hv[k] * ih, z = xv[k] + av[k] * (hn - xv[k]);
            const float gz = gv[k] * iz - z * cz;
            if (i < n) {
                dx[o + i] = gz * (1.f - av[k]);
                da[k] = gz * (hn - xv[k]);
            }
            gv[k] = gz * av[k];   // gv becomes α ⊙ gz, the gradient of N(h)
            s += hv[k] * gv[k];
        }
        const float hg = warp_sum(s);
        const float ch = nh > 0 ? hg / (nh * (nh + eps) * (nh + eps)) : 0.f;
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t i = lane + kLanes * k;
            if (i < n) dh[o + i] = io::st(gv[k] * ih - hv[k] * ch);
        }
    }
    block_column_sums<V>(part, n, dalpha_part, [&](int k) { return da[k]; });
}

// The mean and rstd of a row held as v (0 past the row's end), two passes over the registers.
template <int V>
__device__ __forceinline__ void row_stats(const float (&v)[V], int lane, int64_t n, float eps, float& m, float& rs) {
    float sum = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) sum += v[k];
    m = warp_sum(sum) / static_cast<float>(n);
    float q = 0;   // no cancellation
#pragma unroll
    for (int k = 0; k < V; ++k) {
        if (lane + kLanes * k < n) q += (v[k] - m) * (v[k] - m);
    }
    rs = 1.f / sqrtf(warp_sum(q) / static_cast<float>(n) + eps);
}

// s = a·(λ ⊙ x) + b·f and y = LayerNorm(s)·γ + β; each row's mean and rstd. With
// bl, f is the branch's LayerNorm of its input first (its statistics into bl).
// With y_copy, y again in f's type (bf16 under autocast) for the next linear layer.
template <int V, class F, class Y>
__global__ void res_ln_forward(const float* __restrict__ x, const F* __restrict__ f, const float* __restrict__ lam,
                               float a, float b_host, const float* __restrict__ b_dev, const float* __restrict__ gamma,
                               const float* __restrict__ beta, float eps, float* __restrict__ s, Y* __restrict__ y,
                               float* __restrict__ mean, float* __restrict__ rstd, int64_t rows, int64_t n,
                               kernel_bodies::BranchLn bl, F* __restrict__ y_copy) {
    int64_t row;
    int lane;
    if (!warp_row(rows, row, lane)) return;
    const float b = b_dev ? *b_dev : b_host;
    const int64_t o = row * n;
    float sv[V];   // f, then s
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        sv[k] = i < n ? kernel_bodies::Io<F>::ld(f[o + i]) : 0.f;
    }
    if (bl.gamma) {
        float fm, fr;
        row_stats(sv, lane, n, bl.eps, fm, fr);
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const int64_t i = lane + kLanes * k;
            if (i < n) sv[k] = (sv[k] - fm) * fr * bl.gamma[i] + bl.beta[i];
        }
        if (lane == 0) bl.mean[row] = fm, bl.rstd[row] = fr;
    }
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        if (i < n) {
            const float ax = a * x[o + i];
            sv[k] = (lam ? ax * lam[i] : ax) + b * sv[k];
        } else {
            sv[k] = 0.f;
        }
    }
    float m, rs;
    row_stats(sv, lane, n, eps, m, rs);
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        if (i < n) {
            s[o + i] = sv[k];
            const Y v = kernel_bodies::Io<Y>::st((sv[k] - m) * rs * gamma[i] + beta[i]);
            y[o + i] = v;
            if (y_copy) y_copy[o + i] = kernel_bodies::Io<F>::st(kernel_bodies::Io<Y>::ld(v));
        }
    }
    if (lane == 0) mean[row] = m, rstd[row] = rs;
}

// Its gradient: dx = a·λ ⊙ ds (float32), df = b·ds (F); each row's Σĝ and Σĝŝ into sg_rows,
// sgx_rows; and the block's rows' shares of dγ (Σ gy·ŝ), dβ (Σ gy) and, with λ, dλ (Σ a·x·ds)
// into row blockIdx.x of pg, pb, pl (n each), summed in shared memory (block_column_sums), so
// that no column kernel reads s and gy again (1.5 ms of Pre-LN's step on the H100). With bl,
// df is b·ds through the branch's LayerNorm back to its input f, and dγ_f (Σ b·ds·f̂) and
// dβ_f (Σ b·ds) go into pgf, pbf the same way. With pfb, the column sums of df as stored
// (the gradient of the branch's output, whose linear layer left its bias's gradient here:
// linear_bias.cpp) go into pfb the same way.
template <int V, class F, class Y>
__global__ void res_ln_backward(const float* __restrict__ s, const float* __restrict__ gamma, const Y* __restrict__ gy,
                                const float* __restrict__ gs, const float* __restrict__ lam, const float* __restrict__ x,
                                float a, float b_host, const float* __restrict__ b_dev, const float* __restrict__ mean,
                                const float* __restrict__ rstd, float* __restrict__ dx, F* __restrict__ df,
                                float* __restrict__ sg_rows, float* __restrict__ sgx_rows, float* __restrict__ pg,
                                float* __restrict__ pb, float* __restrict__ pl, int64_t rows, int64_t n,
                                const F* __restrict__ f, kernel_bodies::BranchLn bl, float* __restrict__ pgf,
                                float* __restrict__ pbf, float* __restrict__ pfb) {
    using io_f = kernel_bodies::Io<F>;
    __shared__ float part[kWarps][V * kLanes];
    int64_t row;
    int lane;
    const bool active = warp_row(rows, row, lane);   // a warp past the last row gives zeros to the sums
    const float b = b_dev ? *b_dev : b_host;
    const int64_t o = active ? row * n : 0;
    const float m = active ? mean[row] : 0.f, rs = active ? rstd[row] : 0.f;
    auto in = [&](int k) { return active && lane + kLanes * k < n; };
    float xh[V], gv[V];   // ŝ = (s − mean)·rstd and gy; gv becomes ds
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        xh[k] = in(k) ? (s[o + i] - m) * rs : 0.f;
        gv[k] = in(k) ? kernel_bodies::Io<Y>::ld(gy[o + i]) : 0.f;
    }
    float sg = 0, sgx = 0;   // Σĝ, Σĝŝ with ĝ = gy·γ
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const float gh = in(k) ? gv[k] * gamma[lane + kLanes * k] : 0.f;
        sg += gh, sgx += gh * xh[k];
    }
    sg = warp_sum(sg);
    sgx = warp_sum(sgx);
    block_column_sums<V>(part, n, pg, [&](int k) { return gv[k] * xh[k]; });
    block_column_sums<V>(part, n, pb, [&](int k) { return gv[k]; });
    const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const int64_t i = lane + kLanes * k;
        if (in(k)) {
            float ds = rs * (gv[k] * gamma[i] - mg - xh[k] * mgx);
            if (gs) ds += gs[o + i];
            dx[o + i] = lam ? a * lam[i] * ds : a * ds;
            if (!bl.gamma) df[o + i] = kernel_bodies::Io<F>::st(b * ds);
            gv[k] = ds;
        } else {
            gv[k] = 0.f;
        }
    }
    if (active && lane == 0) sg_rows[row] = sg, sgx_rows[row] = sgx;
    if (lam) block_column_sums<V>(part, n, pl, [&](int k) { return in(k) ? a * x[o + lane + kLanes * k] * gv[k] : 0.f; });
    if (!bl.gamma) {
        if (pfb) block_column_sums<V>(part, n, pfb, [&](int k) { return in(k) ? io_f::ld(io_f::st(b * gv[k])) : 0.f; });
        return;
    }
    // Back through the branch's LayerNorm: df = rstd_f·(ĝ − Σĝ/n − f̂·Σĝf̂/n), ĝ = b·ds·γ_f, f̂ its normalised input.
    const float fm = active ? bl.mean[row] : 0.f, fr = active ? bl.rstd[row] : 0.f;
#pragma unroll
    for (int k = 0; k < V; ++k) xh[k] = in(k) ? (kernel_bodies::Io<F>::ld(f[o + lane + kLanes * k]) - fm) * fr : 0.f;
    block_column_sums<V>(part, n, pgf, [&](int k) { return b * gv[k] * xh[k]; });
    block_column_sums<V>(part, n, pbf, [&](int k) { return b * gv[k]; });
    float s1 = 0, s2 = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {
        gv[k] = in(k) ? b * gv[k] * bl.gamma[lane + kLanes * k] : 0.f;   // gv becomes ĝ
        s1 += gv[k];
        s2 += gv[k] * xh[k];
    }
    const float m1 = warp_sum(s1) / static_cast<float>(n), m2 = warp_sum(s2) / static_cast<float>(n);
#pragma unroll
    for (int k = 0; k < V; ++k) {
        const F v = io_f::st(fr * (gv[k] - m1 - xh[k] * m2));
        if (in(k)) df[o + lane + kLanes * k] = v;
        gv[k] = in(k) ? io_f::ld(v) : 0.f;   // gv becomes df as stored
    }
    if (pfb) block_column_sums<V>(part, n, pfb, [&](int k) { return gv[k]; });
}

// Calls fn with std::integral_constant<int, V> for the fewest floats a lane that hold a row
// of n; false (nothing called) past 1024 or where NORMLAB_ROW_KERNELS=block.
bool rows_by_warp();
template <class Fn>
bool by_width(int64_t n, Fn&& fn) {
    if (n > 32 * kLanes || !rows_by_warp()) return false;
    if (n <= 4 * kLanes) fn(std::integral_constant<int, 4>{});
    else if (n <= 8 * kLanes) fn(std::integral_constant<int, 8>{});
    else if (n <= 16 * kLanes) fn(std::integral_constant<int, 16>{});
    else if (n <= 24 * kLanes) fn(std::integral_constant<int, 24>{});
    else fn(std::integral_constant<int, 32>{});
    return true;
}

}  // namespace normlab::cuda_kernels::warp_rows
