// NormLab core: SwiGLU of the packed projection h = [u | g], two neighbouring
// columns a thread, loaded and stored as one access (a warp's 32 threads read
// 128 contiguous bytes of a bf16 row where the bodies' kernels read 64), over
// the same chunks of rows. Included by cuda_kernels.cu, which launches these
// where f is even and the pointers are aligned for a pair, and the bodies'
// kernels otherwise or with NORMLAB_ROW_KERNELS=block.
//
// Why: on the H100 (bench/results/leases/2026-11-26T1640-h100) nGPT's SwiGLU
// took 4.0 ms forward and 7.4 backward a step for ~19 GB, ~55 % of the card's
// bandwidth; the bodies' kernels issue a two-byte load for each element. The
// arithmetic and the order of every sum are the bodies' (each column's rows in
// the same order), so the outputs and the partial sums are the same bits
// (test_cuda_emulated compares them).
#pragma once

#include "core/model/cuda_kernel_bodies.h"
#include "core/model/cuda_vector_io.cuh"

namespace normlab::cuda_kernels::swiglu_pairs {

namespace kb = normlab::kernel_bodies;

// Thread's first column (even) and its chunk of rows; false past the last column.
__device__ __forceinline__ bool pair_chunk(int64_t rows, int64_t f, int64_t& j, int64_t& r0, int64_t& r1) {
    j = 2 * (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x);
    r0 = blockIdx.y * kb::rows_per_chunk(rows);
    r1 = kb::chunk_end(blockIdx.y, rows);
    return j < f;
}

// a = (u·s_u)·silu(g·s_v) for columns j, j + 1.
template <class T>
__global__ void forward(const T* __restrict__ h, const float* __restrict__ su, const float* __restrict__ sv,
                        T* __restrict__ a, int64_t rows, int64_t f) {
    int64_t j, r0, r1;
    if (!pair_chunk(rows, f, j, r0, r1)) return;
    float cu[2] = {1.f, 1.f}, cg[2] = {1.f, 1.f};
    if (su) load<2>(su + j, cu);
    if (sv) load<2>(sv + j, cg);
    NORMLAB_UNROLL_ROWS
    for (int64_t r = r0; r < r1; ++r) {
        float u[2], g[2];
        load<2>(h + r * 2 * f + j, u);
        load<2>(h + r * 2 * f + f + j, g);
#pragma unroll
        for (int i = 0; i < 2; ++i) u[i] = (u[i] * cu[i]) * kb::silu(g[i] * cg[i]);
        store<2>(a + r * f + j, u);
    }
}

// Its gradient: dh for columns j, j + 1 of u and of g, and the chunk's shares of ds_u, ds_v
// (row blockIdx.y of psu, psv, f each).
template <class T>
__global__ void backward(const T* __restrict__ h, const float* __restrict__ su, const float* __restrict__ sv,
                         const T* __restrict__ da, T* __restrict__ dh, float* __restrict__ psu,
                         float* __restrict__ psv, int64_t rows, int64_t f) {
    int64_t j, r0, r1;
    if (!pair_chunk(rows, f, j, r0, r1)) return;
    float cu[2] = {1.f, 1.f}, cg[2] = {1.f, 1.f}, ssu[2] = {0.f, 0.f}, ssv[2] = {0.f, 0.f};
    if (su) load<2>(su + j, cu);
    if (sv) load<2>(sv + j, cg);
    NORMLAB_UNROLL_ROWS
    for (int64_t r = r0; r < r1; ++r) {
        float u0[2], g0[2], d[2], du[2], dg[2];
        load<2>(h + r * 2 * f + j, u0);
        load<2>(h + r * 2 * f + f + j, g0);
        load<2>(da + r * f + j, d);
#pragma unroll
        for (int i = 0; i < 2; ++i) {
            const float u = u0[i] * cu[i], g = g0[i] * cg[i], s = 1.f / (1.f + expf(-g));
            du[i] = d[i] * (g * s);
            dg[i] = d[i] * u * s * (1.f + g * (1.f - s));   // ∂/∂(u·s_u), ∂/∂(g·s_v)
            ssu[i] += du[i] * u0[i];
            ssv[i] += dg[i] * g0[i];
            du[i] *= cu[i];
            dg[i] *= cg[i];
        }
        store<2>(dh + r * 2 * f + j, du);
        store<2>(dh + r * 2 * f + f + j, dg);
    }
    store<2>(psu + blockIdx.y * f + j, ssu);
    store<2>(psv + blockIdx.y * f + j, ssv);
}

}  // namespace normlab::cuda_kernels::swiglu_pairs
