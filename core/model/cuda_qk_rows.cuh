// NormLab core: queries and keys from the packed projection, RoPE and (nGPT)
// the unit norm and s_qk, with each lane's d_h/32 neighbouring elements held
// in registers and moved by vector loads and stores; RoPE's partner element
// (e ± d_h/2) comes from lane l ^ 16 by a shuffle. Included by cuda_kernels.cu,
// which launches these where d_h = 32·P (P 1, 2, 4, 8) and the pointers are
// aligned for a P-element access, and the bodies' kernels
// (cuda_kernel_bodies.h) otherwise or with NORMLAB_ROW_KERNELS=block.
//
// Why: the bodies' kernels (a lane an element l, l + 32, …) ran 16.5 ms of
// nGPT's 85 ms step on an H100 (bench/results/leases/2026-11-26T1640-h100:
// 6.1 forward, 10.4 backward for 12 layers), for ~6 GB that the card's
// memory moves in ~1.8 ms: each element read its RoPE partner, the cos and
// sin tables and the input again for every use (the backward's RoPEᵀ three
// times), two bytes a load, with 64-bit divisions for its indices. Here a lane
// issues one load of each input for each part before any use, both parts (q
// and k) side by side, and the indices are a warp's, once.
//
// With z.unit false the kernels are RoPE alone (s null: no scale): the
// queries and keys of the LayerNorm schemes with rotary positions (Pre-LN
// with nGPT's MLP, nGPT's baseline), which eager LibTorch runs as ~10 kernels
// forward and more backward (~30 of pre_ln_glu's 100 ms on the H100).
#pragma once

#include "core/model/cuda_kernel_bodies.h"
#include "core/model/cuda_vector_io.cuh"
#include "core/model/cuda_warp_rows.cuh"

#include <initializer_list>
#include <type_traits>

namespace normlab::cuda_kernels::qk_rows {

using kernel_bodies::QkShape;
constexpr int kLanes = kernel_bodies::kLanes;
constexpr int kHalf = kLanes / 2;   // lane l's RoPE partner is lane l ^ kHalf

// In place, x ← RoPE(x) for lane's P elements: x_e·cos_e + (−x_{e+d_h/2} | x_{e−d_h/2})·sin_e.
template <int P>
__device__ __forceinline__ void rope(float (&x)[P], const float (&c)[P], const float (&sn)[P], bool low) {
    float o[P];
#pragma unroll
    for (int i = 0; i < P; ++i) o[i] = __shfl_xor_sync(0xffffffffu, x[i], kHalf);
#pragma unroll
    for (int i = 0; i < P; ++i) x[i] = x[i] * c[i] + (low ? -o[i] : o[i]) * sn[i];
}

// Forward, a warp a row (b, t, h): q' and k' (B, H, T, d_h); with z.unit, ‖RoPE(·)‖ into nq, nk.
template <int P, class T>
__global__ void qk_forward(const T* __restrict__ qk, const float* __restrict__ cs, const float* __restrict__ sn,
                           const float* __restrict__ s, T* __restrict__ qo, T* __restrict__ ko, float* __restrict__ nq,
                           float* __restrict__ nk, QkShape z) {
    int64_t row;
    int lane;
    if (!warp_rows::warp_row(z.B * z.T * z.H, row, lane)) return;
    const int64_t bt = row / z.H, h = row - bt * z.H, b = bt / z.T, t = bt - b * z.T, e0 = lane * P;
    const T* xr = qk + bt * z.ld + h * z.dh + e0;
    float x[2][P], c[P] = {}, si[P] = {}, sc[P] = {};
    load<P>(xr, x[0]);
    load<P>(xr + z.H * z.dh, x[1]);
    if (cs) {
        load<P>(cs + t * z.dh + e0, c);
        load<P>(sn + t * z.dh + e0, si);
        rope<P>(x[0], c, si, lane < kHalf);
        rope<P>(x[1], c, si, lane < kHalf);
    }
    if (s) load<P>(s + h * z.dh + e0, sc);
    float ss[2] = {0.f, 0.f};
#pragma unroll
    for (int i = 0; i < P; ++i) ss[0] += x[0][i] * x[0][i], ss[1] += x[1][i] * x[1][i];
    const float n[2] = {sqrtf(warp_rows::warp_sum(ss[0])), sqrtf(warp_rows::warp_sum(ss[1]))};
    const int64_t o = ((b * z.H + h) * z.T + t) * z.dh + e0;
#pragma unroll
    for (int part = 0; part < 2; ++part) {
#pragma unroll
        for (int i = 0; i < P; ++i) {
            const float v = z.unit ? x[part][i] / (n[part] + z.eps) : x[part][i];
            x[part][i] = s ? v * sc[i] : v;
        }
        store<P>((part ? ko : qo) + o, x[part]);
    }
    if (z.unit && lane == 0) nq[row] = n[0], nk[row] = n[1];
}

// Backward, a warp a head h and a chunk of qk_rows_per_chunk() (b, t) rows: the q | k
// part of dqk; with ps, lane's share of ds_qk over the chunk into ps's row `chunk`.
template <int P, class T>
__global__ void qk_backward(const T* __restrict__ qk, const float* __restrict__ cs, const float* __restrict__ sn,
                            const float* __restrict__ s, const T* __restrict__ gq, const T* __restrict__ gk,
                            const float* __restrict__ nq, const float* __restrict__ nk, T* __restrict__ dqk,
                            float* __restrict__ ps, QkShape z) {
    const int64_t bt_rows = z.B * z.T, per = kernel_bodies::qk_rows_per_chunk();
    int64_t w;
    int lane;
    if (!warp_rows::warp_row(kernel_bodies::qk_chunks(bt_rows) * z.H, w, lane)) return;
    const int64_t chunk = w / z.H, h = w - chunk * z.H, e0 = lane * P;
    const int64_t r1 = (chunk + 1) * per < bt_rows ? (chunk + 1) * per : bt_rows;
    const bool low = lane < kHalf;
    float sc[P], acc[P];
#pragma unroll
    for (int i = 0; i < P; ++i) sc[i] = 1.f, acc[i] = 0.f;
    if (s) load<P>(s + h * z.dh + e0, sc);
    for (int64_t bt = chunk * per; bt < r1; ++bt) {
        const int64_t b = bt / z.T, t = bt - b * z.T;
        const int64_t xo = bt * z.ld + h * z.dh + e0, go = ((b * z.H + h) * z.T + t) * z.dh + e0;
        float r[2][P], g[2][P], c[P] = {}, si[P] = {};
        load<P>(qk + xo, r[0]);
        load<P>(qk + xo + z.H * z.dh, r[1]);
        load<P>(gq + go, g[0]);
        load<P>(gk + go, g[1]);
        if (cs) {
            load<P>(cs + t * z.dh + e0, c);
            load<P>(sn + t * z.dh + e0, si);
            rope<P>(r[0], c, si, low);
            rope<P>(r[1], c, si, low);
        }
        float ie[2] = {1.f, 1.f}, cc[2] = {0.f, 0.f};
        if (z.unit) {
            // dr = g⊙s/(n + eps) − r (r·(g⊙s)) / (n (n + eps)²), 0 for the second term at n = 0.
            float dot[2] = {0.f, 0.f};
#pragma unroll
            for (int i = 0; i < P; ++i) dot[0] += r[0][i] * g[0][i] * sc[i], dot[1] += r[1][i] * g[1][i] * sc[i];
            dot[0] = warp_rows::warp_sum(dot[0]);
            dot[1] = warp_rows::warp_sum(dot[1]);
            const float n[2] = {nq[bt * z.H + h], nk[bt * z.H + h]};
#pragma unroll
            for (int part = 0; part < 2; ++part) {
                ie[part] = 1.f / (n[part] + z.eps);
                cc[part] = n[part] > 0 ? dot[part] / (n[part] * (n[part] + z.eps) * (n[part] + z.eps)) : 0.f;
            }
        }
#pragma unroll
        for (int part = 0; part < 2; ++part) {
            float dr[P];
#pragma unroll
            for (int i = 0; i < P; ++i) {
                dr[i] = g[part][i] * sc[i] * ie[part] - r[part][i] * cc[part];
                acc[i] += g[part][i] * (r[part][i] * ie[part]);
            }
            if (cs) {
                // RoPEᵀ: dx_e = dr_e·cos_e + (dr_{e+d_h/2}·sin_{e+d_h/2} | −dr_{e−d_h/2}·sin_{e−d_h/2}),
                // the partner's dr·sin from lane l ^ 16.
                float p[P];
#pragma unroll
                for (int i = 0; i < P; ++i) p[i] = __shfl_xor_sync(0xffffffffu, dr[i] * si[i], kHalf);
#pragma unroll
                for (int i = 0; i < P; ++i) dr[i] = dr[i] * c[i] + (low ? p[i] : -p[i]);
            }
            store<P>(dqk + xo + part * z.H * z.dh, dr);
        }
    }
    if (ps) store<P>(ps + chunk * z.H * z.dh + h * z.dh + e0, acc);
}

// Whether these kernels take shape z with these pointers (d_h = 32·P, P-element accesses
// aligned), and for which P: 0 where they do not. T's pointers need sizeof(T)·P bytes, the
// float ones 4·P: every pointer is asked for 4·P, a multiple of both.
inline int lanes_hold(const QkShape& z, std::initializer_list<const void*> ptrs) {
    const int p = z.dh == 32 ? 1 : z.dh == 64 ? 2 : z.dh == 128 ? 4 : z.dh == 256 ? 8 : 0;
    if (!p || z.ld % p != 0 || !warp_rows::rows_by_warp() || !aligned(4u * static_cast<unsigned>(p), ptrs)) return 0;
    return p;
}

// Calls fn with std::integral_constant<int, P> for p (1, 2, 4, 8).
template <class Fn>
void by_lanes(int p, Fn&& fn) {
    if (p == 1) fn(std::integral_constant<int, 1>{});
    else if (p == 2) fn(std::integral_constant<int, 2>{});
    else if (p == 4) fn(std::integral_constant<int, 4>{});
    else fn(std::integral_constant<int, 8>{});
}

}  // namespace normlab::cuda_kernels::qk_rows
