// NormLab core: fused CPU kernels (see cpu_kernels.h).
//
// Attention: causality by blocks of kBlock query rows: row block [r0, r0+rb) attends to
// keys [0, r0+rb), so the GEMMs skip the blocks above the diagonal (at T = 128
// and kBlock = 64, a quarter of the products). Softmax and its backward run
// per row over the keys a row may see, vectorized (compiled for AVX2 + FMA
// and for the baseline, picked at run time).
#include "core/model/cpu_kernels.h"

#include "core/platform.h"

#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace normlab::kernels {
namespace {

constexpr int64_t kBlock = 64;

// The Fortran BLAS interface LibTorch itself calls (column-major).
using SgemmFn = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                         const int*, const float*, const int*, const float*, float*, const int*);

SgemmFn sgemm() {
    static const SgemmFn fn = reinterpret_cast<SgemmFn>(blas_symbol("sgemm_"));
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

// Σ a·b over a row, eight lanes then the tail; ‖x‖₂ from it.
__attribute__((always_inline)) inline float row_dot(const float* a, const float* b, int64_t n) {
    const int64_t vend = n & ~int64_t(7);
    f8 v = splat(0.0f);
    for (int64_t j = 0; j < vend; j += 8) v += load8(a + j) * load8(b + j);
    float s = lanes_sum(v);
    for (int64_t j = vend; j < n; ++j) s += a[j] * b[j];
    return s;
}
__attribute__((always_inline)) inline float row_norm(const float* x, int64_t n) { return std::sqrt(row_dot(x, x, n)); }

// dS = P ⊙ (dP − Σⱼ P dP) over the first n entries of rb rows (ld T), in place in dP.
__attribute__((always_inline)) inline void softmax_backward_rows(const float* P, float* dP, int64_t T, int64_t rb,
                                                                 int64_t n) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t i = 0; i < rb; ++i) {
        const float* p = P + i * T;
        float* g = dP + i * T;
        const float dot = row_dot(p, g, n);
        for (int64_t j = 0; j < vend; j += 8) store8(g + j, load8(p + j) * (load8(g + j) - dot));
        for (int64_t j = vend; j < n; ++j) g[j] = p[j] * (g[j] - dot);
    }
}

// Φ(x) and the density term x·φ(x) of GELU, eight lanes: Φ = ½·erfc(−x/√2),
// erfc(z) ≈ t·poly(t)·e^{−z²} with t = 1/(1 + p·z) for z ≥ 0 (A&S 7.1.26),
// and e^{−z²} = e^{−x²/2} = √(2π)·φ(x).
template <typename F, typename U>
__attribute__((always_inline)) inline void gelu_parts(F x, F& cdf, F& xpdf) {
    const F z = (x < 0.0f ? F{} - x : x) * 0.70710678118654752f;   // |x|/√2
    const F t = 1.0f / (z * 0.3275911f + 1.0f);
    const F poly = t * (t * (t * (t * (t * 1.061405429f - 1.453152027f) + 1.421413741f) - 0.284496736f) + 0.254829592f);
    const F e = exp_nonpositive<F, U>(F{} - z * z);
    const F half_erfc = 0.5f * poly * e;                              // ½·erfc(|x|/√2)
    cdf = x > 0.0f ? 1.0f - half_erfc : half_erfc;
    xpdf = x * e * 0.39894228040143268f;                              // x·φ(x)
}

// One row: writes gelu(h) to a and, if d is given, gelu'(h) = Φ + x·φ to d.
__attribute__((always_inline)) inline void gelu_row(const float* h, float* a, float* d, int64_t n) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t j = 0; j < vend; j += 8) {
        f8 cdf, xpdf;
        const f8 x = load8(h + j);
        gelu_parts<f8, u8>(x, cdf, xpdf);
        store8(a + j, x * cdf);
        if (d) store8(d + j, cdf + xpdf);
    }
    for (int64_t j = vend; j < n; ++j) {
        float cdf, xpdf;
        gelu_parts<float, uint32_t>(h[j], cdf, xpdf);
        a[j] = h[j] * cdf;
        if (d) d[j] = cdf + xpdf;
    }
}

// Sum of a row, eight lanes then the tail.
__attribute__((always_inline)) inline float row_sum(const float* x, int64_t n) {
    const int64_t vend = n & ~int64_t(7);
    f8 v = splat(0.0f);
    for (int64_t j = 0; j < vend; j += 8) v += load8(x + j);
    float s = lanes_sum(v);
    for (int64_t j = vend; j < n; ++j) s += x[j];
    return s;
}

__attribute__((always_inline)) inline void gelu_layer_norm_forward_body(const float* h, const float* gamma,
                                                                        const float* beta, float eps, float* out,
                                                                        float* mean, float* rstd, int64_t rows,
                                                                        int64_t n, float* a) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        gelu_row(h + r * n, a, nullptr, n);
        const float mu = row_sum(a, n) / static_cast<float>(n);
        f8 vv = splat(0.0f);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 c = load8(a + j) - mu;
            vv += c * c;
        }
        float var = lanes_sum(vv);
        for (int64_t j = vend; j < n; ++j) var += (a[j] - mu) * (a[j] - mu);
        const float rs = 1.0f / std::sqrt(var / static_cast<float>(n) + eps);
        float* o = out + r * n;
        for (int64_t j = 0; j < vend; j += 8) store8(o + j, (load8(a + j) - mu) * rs * load8(gamma + j) + load8(beta + j));
        for (int64_t j = vend; j < n; ++j) o[j] = (a[j] - mu) * rs * gamma[j] + beta[j];
        mean[r] = mu;
        rstd[r] = rs;
    }
}

__attribute__((always_inline)) inline void gelu_layer_norm_backward_body(const float* h, const float* gamma,
                                                                         const float* mean, const float* rstd,
                                                                         const float* dout, float* dh, float* dgamma,
                                                                         float* dbeta, int64_t rows, int64_t n,
                                                                         float* scratch) {
    const int64_t vend = n & ~int64_t(7);
    float *xhat = scratch, *dgelu = scratch + n;   // the row's normalized activations and gelu'(h)
    const float inv_n = 1.0f / static_cast<float>(n);
    for (int64_t r = 0; r < rows; ++r) {
        const float* g = dout + r * n;
        gelu_row(h + r * n, xhat, dgelu, n);
        const float mu = mean[r], rs = rstd[r];
        f8 v1 = splat(0.0f), v2 = splat(0.0f);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 xh = (load8(xhat + j) - mu) * rs, gj = load8(g + j), dx = gj * load8(gamma + j);
            store8(xhat + j, xh);
            v1 += dx;
            v2 += dx * xh;
            store8(dgamma + j, load8(dgamma + j) + gj * xh);
            store8(dbeta + j, load8(dbeta + j) + gj);
        }
        float s1 = lanes_sum(v1), s2 = lanes_sum(v2);
        for (int64_t j = vend; j < n; ++j) {
            const float xh = (xhat[j] - mu) * rs, dx = g[j] * gamma[j];
            xhat[j] = xh;
            s1 += dx;
            s2 += dx * xh;
            dgamma[j] += g[j] * xh;
            dbeta[j] += g[j];
        }
        s1 *= inv_n;
        s2 *= inv_n;
        float* d = dh + r * n;
        for (int64_t j = 0; j < vend; j += 8)
            store8(d + j, (load8(g + j) * load8(gamma + j) - s1 - load8(xhat + j) * s2) * rs * load8(dgelu + j));
        for (int64_t j = vend; j < n; ++j) d[j] = (g[j] * gamma[j] - s1 - xhat[j] * s2) * rs * dgelu[j];
    }
}

__attribute__((always_inline)) inline void unit_norm_forward_body(const float* x, float* y, float* norms,
                                                                  int64_t rows, int64_t n, float eps) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float* xr = x + r * n;
        float* yr = y + r * n;
        const float norm = row_norm(xr, n), inv = 1.0f / (norm + eps);
        for (int64_t j = 0; j < vend; j += 8) store8(yr + j, load8(xr + j) * inv);
        for (int64_t j = vend; j < n; ++j) yr[j] = xr[j] * inv;
        norms[r] = norm;
    }
}

__attribute__((always_inline)) inline void unit_norm_backward_body(const float* y, const float* norms, const float* g,
                                                                   float* dx, int64_t rows, int64_t n, float eps) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float *yr = y + r * n, *gr = g + r * n;
        float* d = dx + r * n;
        const float dot = row_dot(gr, yr, n);
        const float norm = norms[r], inv = 1.0f / (norm + eps);
        const float c = norm > 0.0f ? dot * (norm + eps) / norm : 0.0f;
        for (int64_t j = 0; j < vend; j += 8) store8(d + j, (load8(gr + j) - load8(yr + j) * c) * inv);
        for (int64_t j = vend; j < n; ++j) d[j] = (gr[j] - yr[j] * c) * inv;
    }
}

// σ(x) for any x from exp of a non-positive argument: e = e^{−|x|},
// σ = 1/(1 + e) for x ≥ 0 and e/(1 + e) below.
template <typename F, typename U>
__attribute__((always_inline)) inline F sigmoid(F x) {
    const F e = exp_nonpositive<F, U>(x < 0.0f ? x : F{} - x);
    const F inv = 1.0f / (e + 1.0f);
    return x < 0.0f ? e * inv : inv;
}

template <typename F, typename U>
__attribute__((always_inline)) inline F swiglu_value(F u, F g) {
    return u * g * sigmoid<F, U>(g);
}

__attribute__((always_inline)) inline void swiglu_forward_body(const float* h, const float* su, const float* sv,
                                                               float* a, int64_t rows, int64_t f) {
    const int64_t vend = f & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float *u = h + r * 2 * f, *g = u + f;
        float* o = a + r * f;
        for (int64_t j = 0; j < vend; j += 8) {
            f8 uj = load8(u + j), gj = load8(g + j);
            if (su) uj *= load8(su + j);
            if (sv) gj *= load8(sv + j);
            store8(o + j, swiglu_value<f8, u8>(uj, gj));
        }
        for (int64_t j = vend; j < f; ++j)
            o[j] = swiglu_value<float, uint32_t>(su ? u[j] * su[j] : u[j], sv ? g[j] * sv[j] : g[j]);
    }
}

// d/du' = da·g'·σ(g'); d/dg' = da·u'·σ(g')·(1 + g'·(1 − σ(g'))).
template <typename F, typename U>
__attribute__((always_inline)) inline void swiglu_grads(F u, F g, F da, F& du, F& dg) {
    const F s = sigmoid<F, U>(g);
    du = da * g * s;
    dg = da * u * s * (g * (1.0f - s) + 1.0f);
}

__attribute__((always_inline)) inline void swiglu_backward_body(const float* h, const float* su, const float* sv,
                                                                const float* da, float* dh, float* dsu, float* dsv,
                                                                int64_t rows, int64_t f) {
    const int64_t vend = f & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float *u = h + r * 2 * f, *g = u + f, *d = da + r * f;
        float *du = dh + r * 2 * f, *dg = du + f;
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 u0 = load8(u + j), g0 = load8(g + j);
            const f8 us = su ? u0 * load8(su + j) : u0, gs = sv ? g0 * load8(sv + j) : g0;
            f8 dus, dgs;
            swiglu_grads<f8, u8>(us, gs, load8(d + j), dus, dgs);
            store8(du + j, su ? dus * load8(su + j) : dus);
            store8(dg + j, sv ? dgs * load8(sv + j) : dgs);
            if (su) store8(dsu + j, load8(dsu + j) + dus * u0);
            if (sv) store8(dsv + j, load8(dsv + j) + dgs * g0);
        }
        for (int64_t j = vend; j < f; ++j) {
            const float us = su ? u[j] * su[j] : u[j], gs = sv ? g[j] * sv[j] : g[j];
            float dus, dgs;
            swiglu_grads<float, uint32_t>(us, gs, d[j], dus, dgs);
            du[j] = su ? dus * su[j] : dus;
            dg[j] = sv ? dgs * sv[j] : dgs;
            if (su) dsu[j] += dus * u[j];
            if (sv) dsv[j] += dgs * g[j];
        }
    }
}

__attribute__((always_inline)) inline void ngpt_update_forward_body(const float* x, const float* h,
                                                                    const float* alpha, float eps, float* y,
                                                                    float* hn, float* norm_h, float* norm_u,
                                                                    int64_t rows, int64_t n, float* u) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float *xr = x + r * n, *hr = h + r * n;
        float *hnr = hn + r * n, *yr = y + r * n;
        const float nh = row_norm(hr, n), ih = 1.0f / (nh + eps);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 hj = load8(hr + j) * ih, xj = load8(xr + j);
            store8(hnr + j, hj);
            store8(u + j, xj + load8(alpha + j) * (hj - xj));
        }
        for (int64_t j = vend; j < n; ++j) {
            hnr[j] = hr[j] * ih;
            u[j] = xr[j] + alpha[j] * (hnr[j] - xr[j]);
        }
        const float nu = row_norm(u, n), iu = 1.0f / (nu + eps);
        for (int64_t j = 0; j < vend; j += 8) store8(yr + j, load8(u + j) * iu);
        for (int64_t j = vend; j < n; ++j) yr[j] = u[j] * iu;
        norm_h[r] = nh;
        norm_u[r] = nu;
    }
}

__attribute__((always_inline)) inline void ngpt_update_backward_body(const float* x, const float* alpha,
                                                                     const float* hn, const float* y,
                                                                     const float* norm_h, const float* norm_u,
                                                                     const float* dy, float eps, float* dx,
                                                                     float* dh, float* dalpha, int64_t rows,
                                                                     int64_t n, float* dhn) {
    const int64_t vend = n & ~int64_t(7);
    for (int64_t r = 0; r < rows; ++r) {
        const float *xr = x + r * n, *hnr = hn + r * n, *yr = y + r * n, *g = dy + r * n;
        float *dxr = dx + r * n, *dhr = dh + r * n;
        // du = (dy − y·c)/(‖u‖+eps), c = (dy·y)(‖u‖+eps)/‖u‖: the unit norm's backward.
        const float dot = row_dot(g, yr, n);
        const float nu = norm_u[r], iu = 1.0f / (nu + eps), c = nu > 0.0f ? dot * (nu + eps) / nu : 0.0f;
        f8 v2 = splat(0.0f);
        for (int64_t j = 0; j < vend; j += 8) {
            const f8 du = (load8(g + j) - load8(yr + j) * c) * iu, a = load8(alpha + j), hj = load8(hnr + j),
                     xj = load8(xr + j);
            store8(dxr + j, du * (1.0f - a));
            store8(dalpha + j, load8(dalpha + j) + du * (hj - xj));
            const f8 d = du * a;
            store8(dhn + j, d);
            v2 += d * hj;
        }
        float dot2 = lanes_sum(v2);
        for (int64_t j = vend; j < n; ++j) {
            const float du = (g[j] - yr[j] * c) * iu;
            dxr[j] = du * (1.0f - alpha[j]);
            dalpha[j] += du * (hnr[j] - xr[j]);
            dhn[j] = du * alpha[j];
            dot2 += dhn[j] * hnr[j];
        }
        const float nh = norm_h[r], ih = 1.0f / (nh + eps), c2 = nh > 0.0f ? dot2 * (nh + eps) / nh : 0.0f;
        for (int64_t j = 0; j < vend; j += 8) store8(dhr + j, (load8(dhn + j) - load8(hnr + j) * c2) * ih);
        for (int64_t j = vend; j < n; ++j) dhr[j] = (dhn[j] - hnr[j] * c2) * ih;
    }
}

// The row loops compiled twice, for AVX2 + FMA and for the baseline ISA;
// the AVX2 build is chosen once at run time where the CPU has it.
#if defined(__x86_64__) && defined(__GNUC__)
#define NORMLAB_DISPATCH(name, body, ret, params, args)                                  \
    __attribute__((target("avx2,fma"))) ret name##_avx2 params { return body args; }     \
    ret name params {                                                                    \
        static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); \
        if (avx2) return name##_avx2 args;                                               \
        return body args;                                                                \
    }
#else
#define NORMLAB_DISPATCH(name, body, ret, params, args) \
    ret name params { return body args; }
#endif

NORMLAB_DISPATCH(softmax_forward_block, softmax_rows, float, (float* P, int64_t T, int64_t r0, int64_t rb),
                 (P, T, r0, rb))
NORMLAB_DISPATCH(softmax_backward_block, softmax_backward_rows, void,
                 (const float* P, float* dP, int64_t T, int64_t rb, int64_t n), (P, dP, T, rb, n))

}  // namespace

NORMLAB_DISPATCH(gelu_layer_norm_forward_rows, gelu_layer_norm_forward_body, void,
                 (const float* h, const float* gamma, const float* beta, float eps, float* out, float* mean,
                  float* rstd, int64_t rows, int64_t n, float* scratch),
                 (h, gamma, beta, eps, out, mean, rstd, rows, n, scratch))
NORMLAB_DISPATCH(gelu_layer_norm_backward_rows, gelu_layer_norm_backward_body, void,
                 (const float* h, const float* gamma, const float* mean, const float* rstd, const float* dout,
                  float* dh, float* dgamma, float* dbeta, int64_t rows, int64_t n, float* scratch),
                 (h, gamma, mean, rstd, dout, dh, dgamma, dbeta, rows, n, scratch))

NORMLAB_DISPATCH(unit_norm_forward_rows, unit_norm_forward_body, void,
                 (const float* x, float* y, float* norms, int64_t rows, int64_t n, float eps),
                 (x, y, norms, rows, n, eps))
NORMLAB_DISPATCH(unit_norm_backward_rows, unit_norm_backward_body, void,
                 (const float* y, const float* norms, const float* g, float* dx, int64_t rows, int64_t n, float eps),
                 (y, norms, g, dx, rows, n, eps))

NORMLAB_DISPATCH(swiglu_forward_rows, swiglu_forward_body, void,
                 (const float* h, const float* su, const float* sv, float* a, int64_t rows, int64_t f),
                 (h, su, sv, a, rows, f))
NORMLAB_DISPATCH(swiglu_backward_rows, swiglu_backward_body, void,
                 (const float* h, const float* su, const float* sv, const float* da, float* dh, float* dsu, float* dsv,
                  int64_t rows, int64_t f),
                 (h, su, sv, da, dh, dsu, dsv, rows, f))

NORMLAB_DISPATCH(ngpt_update_forward_rows, ngpt_update_forward_body, void,
                 (const float* x, const float* h, const float* alpha, float eps, float* y, float* hn, float* norm_h,
                  float* norm_u, int64_t rows, int64_t n, float* scratch),
                 (x, h, alpha, eps, y, hn, norm_h, norm_u, rows, n, scratch))
NORMLAB_DISPATCH(ngpt_update_backward_rows, ngpt_update_backward_body, void,
                 (const float* x, const float* alpha, const float* hn, const float* y, const float* norm_h,
                  const float* norm_u, const float* dy, float eps, float* dx, float* dh, float* dalpha, int64_t rows,
                  int64_t n, float* scratch),
                 (x, alpha, hn, y, norm_h, norm_u, dy, eps, dx, dh, dalpha, rows, n, scratch))

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
