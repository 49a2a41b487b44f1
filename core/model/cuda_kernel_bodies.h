// NormLab core: the arithmetic of some CUDA kernels (cuda_kernels.cu), one
// thread's work each, written without CUDA so that the CPU can run it too.
//
// Such a kernel is a __global__ wrapper that works out its column j and its
// chunk of rows from blockIdx and threadIdx and calls a body below. The tests
// (tests/test_cuda_kernels.cpp) call the same bodies for every (chunk, column)
// on the CPU and compare against LibTorch's eager ops, in float and bfloat16
// storage. The indexing, the arithmetic and the chunked sums are therefore
// checked in CI, which has no GPU. A GPU checks the launches themselves
// (scripts/gpu_session.sh graph).
//
// Storage: T is float or a bfloat16 (__nv_bfloat16 on the GPU,
// c10::BFloat16 in the tests), read and written through Io<T>. The includer
// specialises Io for its bfloat16. The arithmetic is in float.
//
// A column's thread walks its chunk of rows, so neighbouring threads of a warp
// read neighbouring elements of a row (coalesced). Sums over rows (the
// gradients of per-column scalers) are per chunk. The caller adds the chunks
// in a fixed order, so the result does not depend on scheduling.
#pragma once

#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define NORMLAB_HD __host__ __device__ inline
#else
#define NORMLAB_HD inline
#endif

namespace normlab::kernel_bodies {

template <class T>
struct Io;
template <>
struct Io<float> {
    NORMLAB_HD static float ld(float v) { return v; }
    NORMLAB_HD static float st(float v) { return v; }
};

// The rows are cut into this many chunks (one a grid row), of rows_per_chunk
// rows each; the last chunks may be short or empty.
NORMLAB_HD int64_t row_chunks(int64_t rows) { return rows < 256 ? rows : 256; }
NORMLAB_HD int64_t rows_per_chunk(int64_t rows) {
    const int64_t c = row_chunks(rows);
    return c > 0 ? (rows + c - 1) / c : 0;
}
NORMLAB_HD int64_t chunk_end(int64_t chunk, int64_t rows) {
    const int64_t e = (chunk + 1) * rows_per_chunk(rows);
    return e < rows ? e : rows;
}

// silu(g) = g / (1 + e^-g), as LibTorch writes it.
NORMLAB_HD float silu(float g) { return g / (1.f + expf(-g)); }

// SwiGLU of the packed projection h = [u | g] (rows × 2f), for column j of the
// rows [r0, r1): a = (u·s_u)·silu(g·s_v) (rows × f). su, sv (f each) may be
// null (1). This is nGPT's MLP gate and any SwiGLU MLP's.
template <class T>
NORMLAB_HD void swiglu_forward_column(const T* h, const float* su, const float* sv, T* a, int64_t r0, int64_t r1,
                                      int64_t j, int64_t f) {
    const float cu = su ? su[j] : 1.f, cg = sv ? sv[j] : 1.f;
    for (int64_t r = r0; r < r1; ++r) {
        const float u = Io<T>::ld(h[r * 2 * f + j]) * cu, g = Io<T>::ld(h[r * 2 * f + f + j]) * cg;
        a[r * f + j] = Io<T>::st(u * silu(g));
    }
}

// Its gradient for column j of the rows [r0, r1): dh (rows × 2f, packed as h)
// is written; the sums over these rows of da·∂a/∂s_u and da·∂a/∂s_v go to
// *psu and *psv (the chunk's share of ds_u[j] and ds_v[j]).
// silu'(g) = σ(g)·(1 + g·(1 − σ(g))).
template <class T>
NORMLAB_HD void swiglu_backward_column(const T* h, const float* su, const float* sv, const T* da, T* dh, float* psu,
                                       float* psv, int64_t r0, int64_t r1, int64_t j, int64_t f) {
    const float cu = su ? su[j] : 1.f, cg = sv ? sv[j] : 1.f;
    float ssu = 0, ssv = 0;
    for (int64_t r = r0; r < r1; ++r) {
        const float u0 = Io<T>::ld(h[r * 2 * f + j]), g0 = Io<T>::ld(h[r * 2 * f + f + j]);
        const float u = u0 * cu, g = g0 * cg, s = 1.f / (1.f + expf(-g));
        const float d = Io<T>::ld(da[r * f + j]);
        const float du = d * (g * s), dg = d * u * s * (1.f + g * (1.f - s));   // ∂/∂(u·s_u), ∂/∂(g·s_v)
        dh[r * 2 * f + j] = Io<T>::st(du * cu);
        dh[r * 2 * f + f + j] = Io<T>::st(dg * cg);
        ssu += du * u0;
        ssv += dg * g0;
    }
    *psu = ssu;
    *psv = ssv;
}

}  // namespace normlab::kernel_bodies
