// NormLab core: fused causal attention for one head on the CPU (see attention_kernel.h).
//
// Causality by blocks of kBlock query rows: row block [r0, r0+rb) attends to
// keys [0, r0+rb), so the GEMMs skip the blocks above the diagonal (at T = 128
// and kBlock = 64, a quarter of the products). Softmax and its backward run
// per row over the keys a row may see, vectorized (compiled for AVX2 + FMA
// and for the baseline, picked at run time).
#include "core/model/attention_kernel.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <limits>

namespace normlab::kernels {
namespace {

constexpr int64_t kBlock = 64;

// The Fortran BLAS interface LibTorch itself calls (column-major).
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                         const int*, const float*, const int*, const float*, float*, const int*);

SgemmFn sgemm() {
    static const SgemmFn fn = reinterpret_cast<SgemmFn>(dlsym(RTLD_DEFAULT, "sgemm_"));
    return fn;
}

// Row-major C[M×N] = alpha · op(A)[M×K] · op(B)[K×N] (+ beta · C). A row-major
// matrix is its transpose in column-major, so BLAS computes Cᵀ = op(B)ᵀ op(A)ᵀ.
void gemm(bool ta, bool tb, int64_t M, int64_t N, int64_t K, float alpha, const float* A, int64_t lda,
          const float* B, int64_t ldb, float beta, float* C, int64_t ldc) {
    const char ca = tb ? 'T' : 'N', cb = ta ? 'T' : 'N';
    const int m = static_cast<int>(N), n = static_cast<int>(M), k = static_cast<int>(K);
    const int la = static_cast<int>(ldb), lb = static_cast<int>(lda), lc = static_cast<int>(ldc);
    sgemm()(&ca, &cb, &m, &n, &k, &alpha, B, &la, A, &lb, &beta, C, &lc);
}

// Eight floats at a time with GCC's vector extensions (AVX registers where
// compiled for AVX2, pairs of SSE registers otherwise); loads and stores are unaligned.
typedef float f8 __attribute__((vector_size(32)));
typedef float f8u __attribute__((vector_size(32), aligned(4)));
typedef int32_t i8 __attribute__((vector_size(32)));
typedef uint32_t u8 __attribute__((vector_size(32)));

__attribute__((always_inline)) inline f8 load8(const float* p) { return *reinterpret_cast<const f8u*>(p); }
__attribute__((always_inline)) inline void store8(float* p, f8 v) { *reinterpret_cast<f8u*>(p) = v; }
__attribute__((always_inline)) inline f8 splat(float x) { return f8{x, x, x, x, x, x, x, x}; }
__attribute__((always_inline)) inline float lanes_max(f8 v) {
    float m = v[0];
    for (int l = 1; l < 8; ++l) m = v[l] > m ? v[l] : m;
    return m;
}
__attribute__((always_inline)) inline float lanes_sum(f8 v) {
    return ((v[0] + v[4]) + (v[1] + v[5])) + ((v[2] + v[6]) + (v[3] + v[7]));
}

// exp for x ≤ 0 (softmax after the max is subtracted): Cephes' polynomial on
// x − n·ln 2, times 2ⁿ built in the exponent bits; ~1 ulp. NaN in, NaN out;
// below −87.3 it returns ~1e-38, not 0. F is float or f8 (U its bits).
template <typename F, typename U>
__attribute__((always_inline)) inline F exp_nonpositive(F x) {
    x = x < -87.3f ? F{} - 87.3f : x;
    const float shifter = 12582912.0f;   // 1.5·2²³: adding it rounds to an integer in the low mantissa bits
    const F t = x * 1.44269504088896341f + shifter;
    const F n = t - shifter;
    x = x - n * 0.693359375f + n * 2.12194440e-4f;
    F p = x * 1.9875691500e-4f + 1.3981999507e-3f;
    p = p * x + 8.3334519073e-3f;
    p = p * x + 4.1665795894e-2f;
    p = p * x + 1.6666665459e-1f;
    p = p * x + 5.0000001201e-1f;
    p = p * x * x + x + 1.0f;
    const U bits = (__builtin_bit_cast(U, t) - 0x4B400000u + 127u) << 23;   // (n + 127) << 23
    return p * __builtin_bit_cast(F, bits);
}

// Rows [r0, r0+rb) of P (ld T), each a softmax over the keys it may see
// (row i: [0, i]) and zeros to T. Vectors run to the multiple of 8 past the
// last visible key, with the invisible lanes selected away. Returns the
// largest logit.
__attribute__((always_inline)) inline float softmax_rows(float* P, int64_t T, int64_t r0, int64_t rb) {
    constexpr float kNegInf = -std::numeric_limits<float>::infinity();
    const i8 lane{0, 1, 2, 3, 4, 5, 6, 7};
    float row_max = kNegInf;
    for (int64_t i = 0; i < rb; ++i) {
        float* s = P + i * T;
        const int64_t valid = r0 + i + 1, padded = std::min(T, (valid + 7) & ~int64_t(7)), vend = padded & ~int64_t(7);
        auto visible = [&](int64_t j) { return lane < static_cast<int32_t>(valid - j); };
        f8 vm = splat(kNegInf);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 x = visible(j) ? load8(s + j) : splat(kNegInf);
            vm = x > vm ? x : vm;
        }
        float m = lanes_max(vm);
        for (int64_t j = vend; j < valid; ++j) m = s[j] > m ? s[j] : m;
        f8 vsum = splat(0.0f);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 e = visible(j) ? exp_nonpositive<f8, u8>(load8(s + j) - m) : splat(0.0f);
            store8(s + j, e);
            vsum += e;
        }
        float sum = lanes_sum(vsum);
        for (int64_t j = vend; j < valid; ++j) sum += (s[j] = exp_nonpositive<float, uint32_t>(s[j] - m));
        const float inv = 1.0f / sum;
        for (int64_t j = 0; j < vend; j += 8) store8(s + j, load8(s + j) * inv);
        for (int64_t j = vend; j < valid; ++j) s[j] *= inv;
        std::fill(s + std::max(vend, valid), s + T, 0.0f);
        row_max = std::max(row_max, m);
    }
    return row_max;
}

// dS = P ⊙ (dP − Σⱼ P dP) over the first n entries of rb rows (ld T), in place in dP.
__attribute__((always_inline)) inline void softmax_backward_rows(const float* P, float* dP, int64_t T, int64_t rb,
                                                                 int64_t n) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t i = 0; i < rb; ++i) {
        const float* p = P + i * T;
        float* g = dP + i * T;
        f8 vdot = splat(0.0f);
        for (int64_t j = 0; j < vend; j += 8) vdot += load8(p + j) * load8(g + j);
        float dot = lanes_sum(vdot);
        for (int64_t j = vend; j < n; ++j) dot += p[j] * g[j];
        for (int64_t j = 0; j < vend; j += 8) store8(g + j, load8(p + j) * (load8(g + j) - dot));
        for (int64_t j = vend; j < n; ++j) g[j] = p[j] * (g[j] - dot);
    }
}

// The row loops compiled twice, for AVX2 + FMA and for the baseline ISA, chosen once at run time.
#if defined(__x86_64__) && defined(__GNUC__)
#define NORMLAB_AVX2 1
__attribute__((target("avx2,fma"))) float softmax_rows_avx2(float* P, int64_t T, int64_t r0, int64_t rb) {
    return softmax_rows(P, T, r0, rb);
}
__attribute__((target("avx2,fma"))) void softmax_backward_rows_avx2(const float* P, float* dP, int64_t T, int64_t rb,
                                                                    int64_t n) {
    softmax_backward_rows(P, dP, T, rb, n);
}
bool use_avx2() {
    static const bool yes = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    return yes;
}
#else
#define NORMLAB_AVX2 0
#endif

float softmax_forward_block(float* P, int64_t T, int64_t r0, int64_t rb) {
#if NORMLAB_AVX2
    if (use_avx2()) return softmax_rows_avx2(P, T, r0, rb);
#endif
    return softmax_rows(P, T, r0, rb);
}

void softmax_backward_block(const float* P, float* dP, int64_t T, int64_t rb, int64_t n) {
#if NORMLAB_AVX2
    if (use_avx2()) return softmax_backward_rows_avx2(P, dP, T, rb, n);
#endif
    softmax_backward_rows(P, dP, T, rb, n);
}

}  // namespace

bool attention_kernel_available() { return sgemm() != nullptr; }

float attention_forward_head(int64_t T, int64_t dh, float scale, const float* q, int64_t ldq, const float* k,
                             int64_t ldk, const float* v, int64_t ldv, float* P, float* y, int64_t ldy) {
    float max_logit = -std::numeric_limits<float>::infinity();
    for (int64_t r0 = 0; r0 < T; r0 += kBlock) {
        const int64_t rb = std::min(kBlock, T - r0), n = r0 + rb;   // rows [r0, n) see keys [0, n)
        float* Pr = P + r0 * T;
        gemm(false, true, rb, n, dh, scale, q + r0 * ldq, ldq, k, ldk, 0.0f, Pr, T);
        max_logit = std::max(max_logit, softmax_forward_block(Pr, T, r0, rb));
        gemm(false, false, rb, dh, n, 1.0f, Pr, T, v, ldv, 0.0f, y + r0 * ldy, ldy);
    }
    return max_logit;
}

void attention_backward_head(int64_t T, int64_t dh, float scale, const float* q, int64_t ldq, const float* k,
                             int64_t ldk, const float* v, int64_t ldv, const float* P, const float* dy,
                             int64_t lddy, float* dS, float* dq, int64_t lddq, float* dk, int64_t lddk, float* dv,
                             int64_t lddv) {
    for (int64_t r0 = 0; r0 < T; r0 += kBlock) {
        const int64_t rb = std::min(kBlock, T - r0), n = r0 + rb;
        float* dSr = dS + r0 * T;
        gemm(false, true, rb, n, dh, 1.0f, dy + r0 * lddy, lddy, v, ldv, 0.0f, dSr, T);   // dP = dY Vᵀ
        softmax_backward_block(P + r0 * T, dSr, T, rb, n);
        gemm(false, false, rb, dh, n, scale, dSr, T, k, ldk, 0.0f, dq + r0 * lddq, lddq);  // dQ = s·dS K
    }
    // Key block [c0, c0+cb) is seen by query rows [c0, T) only.
    for (int64_t c0 = 0; c0 < T; c0 += kBlock) {
        const int64_t cb = std::min(kBlock, T - c0), m = T - c0;
        gemm(true, false, cb, dh, m, scale, dS + c0 * T + c0, T, q + c0 * ldq, ldq, 0.0f, dk + c0 * lddk, lddk);
        gemm(true, false, cb, dh, m, 1.0f, P + c0 * T + c0, T, dy + c0 * lddy, lddy, 0.0f, dv + c0 * lddv, lddv);
    }
}

}  // namespace normlab::kernels
