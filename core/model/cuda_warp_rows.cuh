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
// element is read twice from memory. The residual kernels take P = 4: a lane's
// elements in packs of four neighbours, one access each (col, load_row).
//
// The arithmetic is that of the block kernels and of cuda_kernel_bodies.h
// (which the CPU tests run); only the order of the sums differs. The GPU tests
// (test_fused_ops, test_cuda_residual_ln) run both kinds against the eager ops;
// test_cuda_emulated runs them on CPU threads (tests/simt_emulator.h) in CI.
#pragma once

#include "core/model/cuda_kernel_bodies.h"
#include "core/model/cuda_vector_io.cuh"

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

// The column of a lane's k-th element when a lane holds its row in packs of P neighbouring
// elements: P·(lane + 32·⌊k/P⌋) + k mod P (lane + 32·k for P = 1).
template <int P>
__device__ __forceinline__ int64_t col(int lane, int k) {
    return static_cast<int64_t>(P) * (lane + kLanes * (k / P)) + k % P;
}

// A lane's V elements of row r (0 past n) in packs of P: one access of P·sizeof(T) bytes a pack
// (P divides n and r is aligned to P elements where P > 1; the launchers check).
template <int P, int V, class T>
__device__ __forceinline__ void load_row(const T* __restrict__ r, int lane, int64_t n, float (&v)[V]) {
#pragma unroll
    for (int j = 0; j < V / P; ++j) {
        float t[P];
        const int64_t c = col<P>(lane, j * P);
        if (c < n) {
            load<P>(r + c, t);
        } else {
#pragma unroll
            for (int q = 0; q < P; ++q) t[q] = 0.f;
        }
#pragma unroll
        for (int q = 0; q < P; ++q) v[j * P + q] = t[q];
    }
}
template <int P, int V, class T>
__device__ __forceinline__ void store_row(T* __restrict__ r, int lane, int64_t n, const float (&v)[V]) {
#pragma unroll
    for (int j = 0; j < V / P; ++j) {
        const int64_t c = col<P>(lane, j * P);
        if (c >= n) continue;
        float t[P];
#pragma unroll
        for (int q = 0; q < P; ++q) t[q] = v[j * P + q];
        store<P>(r + c, t);
    }
}

// nGPT's update y = N(x + α ⊙ (N(h) − x)); each row's ‖h‖ into rh, ‖z‖ into rz; with
// y_copy, y again in h's type (bf16 under autocast) for the next linear layer. P: a lane's
// elements in packs of P neighbours (load_row), as the residual kernels'.
template <int V, class H, int P = 1>
__global__ void update_forward(const float* __restrict__ x, const H* __restrict__ h, const float* __restrict__ alpha,
                               float eps, float* __restrict__ y, float* __restrict__ rh, float* __restrict__ rz,
                               int64_t rows, int64_t n, H* __restrict__ y_copy) {
    int64_t row;
    int lane;
    if (!warp_row(rows, row, lane)) return;
    const int64_t o = row * n;
    float xv[V], hv[V], av[V];
    load_row<P>(x + o, lane, n, xv);
    load_row<P>(h + o, lane, n, hv);
    float s = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) s += hv[k] * hv[k];
    const float nh = sqrtf(warp_sum(s)), ih = 1.f / (nh + eps);
    load_row<P>(alpha, lane, n, av);
    s = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) {   // xv becomes z (0 past the row's end: α reads 0 there)
        xv[k] = xv[k] + av[k] * (hv[k] * ih - xv[k]);
        s += xv[k] * xv[k];
    }
    const float nz = sqrtf(warp_sum(s)), iz = 1.f / (nz + eps);
#pragma unroll
    for (int k = 0; k < V; ++k) xv[k] *= iz;
    store_row<P>(y + o, lane, n, xv);
    if (y_copy) store_row<P>(y_copy + o, lane, n, xv);
    if (lane == 0) rh[row] = nh, rz[row] = nz;
}

constexpr int kWarps = 256 / kLanes;   // warps a block (cuda_kernels.cu launches 256 threads)
// The blocks of the backward kernels an SM must hold at once (__launch_bounds__): two up to
// 24 floats a lane (d 768), so at most 128 registers a thread. Left to itself, ptxas gave
// the residual kernel's backward 128–154 registers (Post-LN's, bf16 f and float32 y: 154)
// and nGPT's update's 141–165 at d 768 on sm_90, so that 65,536 registers held one block of
// 256 threads an SM: 8 warps, few loads in flight (lease 3's profile had these kernels at
// ~55 % of the H100's bandwidth). With the bound: 128 registers, no spills for the residual
// kernel, 52–56 bytes a thread for the update's (ptxas -v). Wider rows keep one block.
template <int V>
constexpr int kBlocksAnSm = V <= 24 ? 2 : 1;
// The groups of kWarps rows, a warp a row. The backward kernels' blocks take the groups
// g ≡ blockIdx.x (mod gridDim.x) in turn, and each block writes one row of each column sum
// (cuda_kernels.cu launches as many blocks as the GPU holds at once: column_sum_blocks).
// Why: with a block a group, the residual kernel's backward wrote a row of each of its 3–6
// column sums for every 8 rows (at GPT-2 small's shape 4,096 rows of 768 floats a sum, 12.6 MB),
// which ATen's sum over them then read back: 0.8 ms of the 4.4 that NormFormer's residual
// backward took on the H200 (lease 5's profile, `reduce_kernel`, ~1.5 TB/s), and 0.9 GB a step
// written and read back again for Pre-LN's 24 calls.
__host__ __device__ inline int64_t row_groups(int64_t rows) { return (rows + kWarps - 1) / kWarps; }
// The residual kernel's column sums that a block keeps in shared memory over its groups (with
// the 8 rows' buffer, 42 KiB at 24 floats a lane and 48 KiB at 32: the most a block may declare).
// Where a call has more (NormFormer's branch LN with λ and its bias at d > 768), its blocks take
// a group each and write each group's sums (column_sum_blocks).
template <int V>
constexpr int kKeptSums = V <= 24 ? 6 : 4;
// The residual backward's column sums: dγ and dβ, dλ with λ, dγ_f and dβ_f with the branch's
// LayerNorm, the branch's bias with pfb (cuda_kernels.h: residual_layer_norm_partial_rows).
__host__ __device__ inline int residual_sums(bool lam, bool branch_ln, bool bias) {
    return 2 + (lam ? 1 : 0) + (branch_ln ? 2 : 0) + (bias ? 1 : 0);
}

// The block's warps' rows in part added column by column in warp order (deterministic), into
// kept's row r (the block's sums so far, in shared memory) or, where r < 0, into row blockIdx.x of
// out (n a row). Thread t adds columns t, t + 256, … of every sum, so kept needs no barrier of
// its own. Every thread of the block calls it (it holds two barriers).
template <int V, int S>
__device__ __forceinline__ void sum_warps(float (&part)[kWarps][V * kLanes], float (&kept)[S][V * kLanes], int r,
                                          int64_t n, float* __restrict__ out) {
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.x); i < n; i += kWarps * kLanes) {
        float sum = 0.f;
        for (int w = 0; w < kWarps; ++w) sum += part[w][i];
        if (r >= 0) kept[r][i] += sum;
        else out[blockIdx.x * n + i] = sum;
    }
    __syncthreads();   // part is written again by the next sum
}
// Column sums over the block's kWarps rows: each lane's value(k) for the row's element
// col<P>(lane, k) goes to its warp's row of part (a pack of P an access), then sum_warps; a warp
// without a row gives zeros.
template <int V, int P = 1, int S, class Value>
__device__ __forceinline__ void block_column_sums(float (&part)[kWarps][V * kLanes], float (&kept)[S][V * kLanes], int r,
                                                  int64_t n, float* __restrict__ out, Value value) {
    const int warp = static_cast<int>(threadIdx.x / kLanes), lane = static_cast<int>(threadIdx.x % kLanes);
#pragma unroll
    for (int j = 0; j < V / P; ++j) {
        float t[P];
#pragma unroll
        for (int q = 0; q < P; ++q) t[q] = value(j * P + q);
        store<P>(&part[warp][col<P>(lane, j * P)], t);
    }
    sum_warps<V>(part, kept, r, n, out);
}
// A kept sum at the block's start (zeros) and at its end (into row blockIdx.x of out), by the
// thread that adds each column (block_column_sums).
template <int L>
__device__ __forceinline__ void clear_kept(float (&kept)[L]) {
    for (int i = static_cast<int>(threadIdx.x); i < L; i += kWarps * kLanes) kept[i] = 0.f;
}
template <int L>
__device__ __forceinline__ void write_kept(const float (&kept)[L], int64_t n, float* __restrict__ out) {
    for (int i = static_cast<int>(threadIdx.x); i < n; i += kWarps * kLanes) out[blockIdx.x * n + i] = kept[i];
}

// Its gradient: dx, dh (h's type), and dα's share of the block's rows (Σ gz ⊙ (N(h) − x) over
// the kWarps rows of block b) into row b of dalpha_part: the warps' shares meet in shared memory
// and are added in warp order (deterministic), so the caller sums rows / kWarps rows of n where it
// summed a row of n for every row (a write and a read of 4·n bytes a row, ~3 ms of nGPT's step on
// the H100 at GPT-2 small's shape). With gyc, y's gradient is gy + gyc: y's copy's (the next
// linear layer's, in h's type) added as it is read, where eager added them in a pass of its own.
// A block a group, not the residual kernel's blocks over many (res_ln_backward): looping over
// groups kept its ~9 pointers live across the body, and the registers it spilled at d 768 went
// from 56 to 104 bytes a thread (ptxas -v, sm_90), for a sum of 0.3 GB a step in nGPT's.
template <int V, class H, int P = 1>
__global__ void __launch_bounds__(256, kBlocksAnSm<V>) update_backward(const float* __restrict__ x, const H* __restrict__ h, const float* __restrict__ alpha,
                                const float* __restrict__ rh, const float* __restrict__ rz,
                                const float* __restrict__ gy, float eps, float* __restrict__ dx, H* __restrict__ dh,
                                float* __restrict__ dalpha_part, int64_t rows, int64_t n,
                                const H* __restrict__ gyc) {
    __shared__ float part[kWarps][V * kLanes];
    int64_t row;
    int lane;
    float da[V];
#pragma unroll
    for (int k = 0; k < V; ++k) da[k] = 0.f;
    if (warp_row(rows, row, lane)) {   // a warp past the last row adds zeros (every warp meets the barrier)
        const int64_t o = row * n;
        float xv[V], hv[V], gv[V], av[V];
        load_row<P>(gy + o, lane, n, gv);
        if (gyc) {   // y's copy's gradient added as it is read (xv holds it until x comes)
            load_row<P>(gyc + o, lane, n, xv);
#pragma unroll
            for (int k = 0; k < V; ++k) gv[k] += xv[k];
        }
        load_row<P>(x + o, lane, n, xv);
        load_row<P>(h + o, lane, n, hv);
        load_row<P>(alpha, lane, n, av);
        const float nh = rh[row], nz = rz[row], ih = 1.f / (nh + eps), iz = 1.f / (nz + eps);
        float s = 0;   // z · gy
#pragma unroll
        for (int k = 0; k < V; ++k) s += (xv[k] + av[k] * (hv[k] * ih - xv[k])) * gv[k];
        const float zg = warp_sum(s);
        const float cz = nz > 0 ? zg / (nz * (nz + eps) * (nz + eps)) : 0.f;
        s = 0;         // h · (α ⊙ gz)
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const float hn = hv[k] * ih, z = xv[k] + av[k] * (hn - xv[k]);
            const float gz = gv[k] * iz - z * cz;
            da[k] = col<P>(lane, k) < n ? gz * (hn - xv[k]) : 0.f;
            xv[k] = gz * (1.f - av[k]);   // xv becomes dx
            gv[k] = gz * av[k];           // gv becomes α ⊙ gz, the gradient of N(h)
            s += hv[k] * gv[k];
        }
        store_row<P>(dx + o, lane, n, xv);
        const float hg = warp_sum(s);
        const float ch = nh > 0 ? hg / (nh * (nh + eps) * (nh + eps)) : 0.f;
#pragma unroll
        for (int k = 0; k < V; ++k) hv[k] = gv[k] * ih - hv[k] * ch;   // hv becomes dh
        store_row<P>(dh + o, lane, n, hv);
    }
    block_column_sums<V, P>(part, part, -1, n, dalpha_part, [&](int k) { return da[k]; });
}

// The mean and rstd of a row held as v (0 past the row's end), two passes over the registers.
template <int V, int P = 1>
__device__ __forceinline__ void row_stats(const float (&v)[V], int lane, int64_t n, float eps, float& m, float& rs) {
    float sum = 0;
#pragma unroll
    for (int k = 0; k < V; ++k) sum += v[k];
    m = warp_sum(sum) / static_cast<float>(n);
    float q = 0;   // no cancellation
#pragma unroll
    for (int k = 0; k < V; ++k) {
        if (col<P>(lane, k) < n) q += (v[k] - m) * (v[k] - m);
    }
    rs = 1.f / sqrtf(warp_sum(q) / static_cast<float>(n) + eps);
}

// s = a·(λ ⊙ x) + b·f and y = LayerNorm(s)·γ + β; each row's mean and rstd. With
// bl, f is the branch's LayerNorm of its input first (its statistics into bl).
// With y_copy, y again in f's type (bf16 under autocast) for the next linear layer.
// P: a lane's elements in packs of P neighbours, each pack one access (4: 16 bytes of a float
// row, 8 of a bf16 one, where a warp's 32 two-byte loads moved 64 bytes an instruction; the
// profile of lease 3 had these kernels at ~55 % of the H100's bandwidth), or 1.
template <int V, class F, class Y, int P = 1>
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
    float sv[V], w[V];   // sv: f, then s; w: the parameters of the moment
    load_row<P>(f + o, lane, n, sv);
    if (bl.gamma) {
        float fm, fr;
        row_stats<V, P>(sv, lane, n, bl.eps, fm, fr);
        load_row<P>(bl.gamma, lane, n, w);
#pragma unroll
        for (int k = 0; k < V; ++k) sv[k] = (sv[k] - fm) * fr * w[k];
        load_row<P>(bl.beta, lane, n, w);
#pragma unroll
        for (int k = 0; k < V; ++k) sv[k] += w[k];
        if (lane == 0) bl.mean[row] = fm, bl.rstd[row] = fr;
    }
    {
        float xv[V];
        load_row<P>(x + o, lane, n, xv);
        if (lam) load_row<P>(lam, lane, n, w);
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const float ax = a * xv[k];
            sv[k] = col<P>(lane, k) < n ? (lam ? ax * w[k] : ax) + b * sv[k] : 0.f;
        }
    }
    float m, rs;
    row_stats<V, P>(sv, lane, n, eps, m, rs);
    store_row<P>(s + o, lane, n, sv);
    load_row<P>(gamma, lane, n, w);
#pragma unroll
    for (int k = 0; k < V; ++k) sv[k] = (sv[k] - m) * rs * w[k];
    load_row<P>(beta, lane, n, w);
#pragma unroll
    for (int k = 0; k < V; ++k) sv[k] = kernel_bodies::Io<Y>::ld(kernel_bodies::Io<Y>::st(sv[k] + w[k]));   // y as stored
    store_row<P>(y + o, lane, n, sv);
    if (y_copy) store_row<P>(y_copy + o, lane, n, sv);
    if (lane == 0) mean[row] = m, rstd[row] = rs;
}

// Its gradient: dx = a·λ ⊙ ds (float32), df = b·ds (F); each row's Σĝ and Σĝŝ into sg_rows,
// sgx_rows; and the block's rows' shares of dγ (Σ gy·ŝ), dβ (Σ gy) and, with λ, dλ (Σ a·x·ds)
// into row blockIdx.x of pg, pb, pl (n each), summed in shared memory (block_column_sums), so
// that no column kernel reads s and gy again (1.5 ms of Pre-LN's step on the H100). With bl,
// df is b·ds through the branch's LayerNorm back to its input f, and dγ_f (Σ b·ds·f̂) and
// dβ_f (Σ b·ds) go into pgf, pbf the same way. With pfb, the column sums of df as stored
// (the gradient of the branch's output, whose linear layer left its bias's gradient here:
// linear_bias.cpp) go into pfb the same way. With gyc (float32 y only), y's gradient is
// gy + gyc: its copy's (the next linear layer's, in F) added as it is read, where eager added
// them in a pass of its own (Post-LN's, DeepNorm's, BranchNorm's residual).
// A block takes the groups g ≡ blockIdx.x (mod gridDim.x) and keeps its sums over them in
// shared memory where they fit (kKeptSums), so that it writes one row of each at its end.
template <int V, class F, class Y, int P = 1>
__global__ void __launch_bounds__(256, kBlocksAnSm<V>) res_ln_backward(const float* __restrict__ s, const float* __restrict__ gamma, const Y* __restrict__ gy,
                                const float* __restrict__ gs, const float* __restrict__ lam, const float* __restrict__ x,
                                float a, float b_host, const float* __restrict__ b_dev, const float* __restrict__ mean,
                                const float* __restrict__ rstd, float* __restrict__ dx, F* __restrict__ df,
                                float* __restrict__ sg_rows, float* __restrict__ sgx_rows, float* __restrict__ pg,
                                float* __restrict__ pb, float* __restrict__ pl, int64_t rows, int64_t n,
                                const F* __restrict__ f, kernel_bodies::BranchLn bl, float* __restrict__ pgf,
                                float* __restrict__ pbf, float* __restrict__ pfb, const F* __restrict__ gyc) {
    using io_f = kernel_bodies::Io<F>;
    __shared__ float part[kWarps][V * kLanes];
    __shared__ float kept[kKeptSums<V>][V * kLanes];   // rows: dγ, dβ, then dλ, dγ_f, dβ_f, the bias, those written
    const int lane = static_cast<int>(threadIdx.x % kLanes), warp = static_cast<int>(threadIdx.x / kLanes);
    const bool keep = residual_sums(lam, bl.gamma, pfb) <= kKeptSums<V>;
    const int k_l = 2, k_f = lam ? 3 : 2, k_fb = k_f + (bl.gamma ? 2 : 0);   // kept's rows of dλ, dγ_f (dβ_f next), the bias
    auto kept_row = [&](int r) { return keep ? r : -1; };   // -1: each group's sums written
    if (keep)
        for (int r = 0; r < kKeptSums<V>; ++r) clear_kept(kept[r]);
    const float b = b_dev ? *b_dev : b_host;
    const int64_t groups = row_groups(rows);
#pragma unroll 1   // a group at a time: unrolled, the groups' registers spilled (ptxas -v)
    for (int64_t g = blockIdx.x; g < groups; g += gridDim.x) {
        const int64_t row = g * kWarps + warp;
        const bool active = row < rows;   // a warp past the last row gives zeros to the sums
        const int64_t o = active ? row * n : 0, nn = active ? n : 0;   // past the last row: no element loaded or stored
        const float m = active ? mean[row] : 0.f, rs = active ? rstd[row] : 0.f;
        auto in = [&](int k) { return col<P>(lane, k) < nn; };
        float xh[V], gv[V], w[V];   // ŝ = (s − mean)·rstd; gy, which becomes ds; w: what is read or written next
        load_row<P>(s + o, lane, nn, xh);
#pragma unroll
        for (int k = 0; k < V; ++k) xh[k] = in(k) ? (xh[k] - m) * rs : 0.f;
        load_row<P>(gy + o, lane, nn, gv);
        if (gyc) {   // y's copy's gradient (float32 y only) added as it is read: gy + gyc as ATen adds them
            load_row<P>(gyc + o, lane, nn, w);
#pragma unroll
            for (int k = 0; k < V; ++k) gv[k] += w[k];
        }
        load_row<P>(gamma, lane, nn, w);
        float sg = 0, sgx = 0;   // Σĝ, Σĝŝ with ĝ = gy·γ
#pragma unroll
        for (int k = 0; k < V; ++k) {
            const float gh = gv[k] * w[k];
            sg += gh, sgx += gh * xh[k];
        }
        sg = warp_sum(sg);
        sgx = warp_sum(sgx);
        block_column_sums<V, P>(part, kept, kept_row(0), n, pg, [&](int k) { return gv[k] * xh[k]; });
        block_column_sums<V, P>(part, kept, kept_row(1), n, pb, [&](int k) { return gv[k]; });
        const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
#pragma unroll
        for (int k = 0; k < V; ++k) gv[k] = in(k) ? rs * (gv[k] * w[k] - mg - xh[k] * mgx) : 0.f;
        if (gs) {
            load_row<P>(gs + o, lane, nn, w);
#pragma unroll
            for (int k = 0; k < V; ++k) gv[k] += w[k];
        }
        if (lam) load_row<P>(lam, lane, nn, w);
#pragma unroll
        for (int k = 0; k < V; ++k) w[k] = lam ? a * w[k] * gv[k] : a * gv[k];
        store_row<P>(dx + o, lane, nn, w);
        if (!bl.gamma) {
#pragma unroll
            for (int k = 0; k < V; ++k) w[k] = io_f::ld(io_f::st(b * gv[k]));   // df as stored
            store_row<P>(df + o, lane, nn, w);
            if (pfb) block_column_sums<V, P>(part, kept, kept_row(k_fb), n, pfb, [&](int k) { return w[k]; });
        }
        if (active && lane == 0) sg_rows[row] = sg, sgx_rows[row] = sgx;
        if (lam) {
            load_row<P>(x + o, lane, nn, w);
            block_column_sums<V, P>(part, kept, kept_row(k_l), n, pl, [&](int k) { return a * w[k] * gv[k]; });
        }
        if (!bl.gamma) continue;
        // Back through the branch's LayerNorm: df = rstd_f·(ĝ − Σĝ/n − f̂·Σĝf̂/n), ĝ = b·ds·γ_f, f̂ its normalised input.
        const float fm = active ? bl.mean[row] : 0.f, fr = active ? bl.rstd[row] : 0.f;
        load_row<P>(f + o, lane, nn, xh);
#pragma unroll
        for (int k = 0; k < V; ++k) xh[k] = in(k) ? (xh[k] - fm) * fr : 0.f;
        block_column_sums<V, P>(part, kept, kept_row(k_f), n, pgf, [&](int k) { return b * gv[k] * xh[k]; });
        block_column_sums<V, P>(part, kept, kept_row(k_f + 1), n, pbf, [&](int k) { return b * gv[k]; });
        load_row<P>(bl.gamma, lane, nn, w);
        float s1 = 0, s2 = 0;
#pragma unroll
        for (int k = 0; k < V; ++k) {
            gv[k] = b * gv[k] * w[k];   // gv becomes ĝ
            s1 += gv[k];
            s2 += gv[k] * xh[k];
        }
        const float m1 = warp_sum(s1) / static_cast<float>(n), m2 = warp_sum(s2) / static_cast<float>(n);
#pragma unroll
        for (int k = 0; k < V; ++k) w[k] = in(k) ? io_f::ld(io_f::st(fr * (gv[k] - m1 - xh[k] * m2))) : 0.f;   // df as stored
        store_row<P>(df + o, lane, nn, w);
        if (pfb) block_column_sums<V, P>(part, kept, kept_row(k_fb), n, pfb, [&](int k) { return w[k]; });
    }
    if (!keep) return;
    write_kept(kept[0], n, pg);
    write_kept(kept[1], n, pb);
    if (lam) write_kept(kept[k_l], n, pl);
    if (bl.gamma) write_kept(kept[k_f], n, pgf), write_kept(kept[k_f + 1], n, pbf);
    if (pfb) write_kept(kept[k_fb], n, pfb);
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
