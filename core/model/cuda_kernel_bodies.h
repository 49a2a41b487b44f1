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
// A column's walk down its rows, four rows' loads issued together on the GPU (the
// pointers are __restrict__, so the compiler may move a row's loads above the
// stores of the rows before it).
#if defined(__CUDA_ARCH__)
#define NORMLAB_UNROLL_ROWS _Pragma("unroll 4")
#else
#define NORMLAB_UNROLL_ROWS
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
NORMLAB_HD void swiglu_forward_column(const T* __restrict__ h, const float* su, const float* sv, T* __restrict__ a,
                                      int64_t r0, int64_t r1, int64_t j, int64_t f) {
    const float cu = su ? su[j] : 1.f, cg = sv ? sv[j] : 1.f;
    NORMLAB_UNROLL_ROWS
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
NORMLAB_HD void swiglu_backward_column(const T* __restrict__ h, const float* su, const float* sv,
                                       const T* __restrict__ da, T* __restrict__ dh, float* psu, float* psv, int64_t r0,
                                       int64_t r1, int64_t j, int64_t f) {
    const float cu = su ? su[j] : 1.f, cg = sv ? sv[j] : 1.f;
    float ssu = 0, ssv = 0;
    NORMLAB_UNROLL_ROWS
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

// ---- nGPT's queries and keys: RoPE, then x / (‖x‖ + eps) · s_qk ----------
//
// Eager LibTorch runs RoPE as five kernels (two products, a negation, a
// concatenation, a sum), the normalization as three and the scaler as one, for
// q and for k, in float32 and, under bf16 autocast, a cast for attention. Here a
// warp takes a row (b, t, h) of d_h values of the packed projection: lane l
// takes the elements l, l + 32, … (neighbouring lanes read and write
// neighbouring elements), the row's sums are the warp's, and it writes q' and
// k' (B, H, T, d_h) as attention takes them. The bodies below are one lane's
// share of a phase; on the CPU the tests run a phase for every lane and add
// the lanes' sums between phases, as the warp does.
//
// Backward, a warp takes a head h and a chunk of qk_rows_per_chunk (b, t) rows,
// one after another: dq and dk for each, and its lanes' share of ds_qk summed
// over the chunk in registers, written once a chunk (qk_chunks(B·T) × d).
//
// qk: the projection [q | k | v], B·T rows `ld` apart (the 2d values of q and k
// read from each). cs, sn: RoPE's (T, d_h) cos and sin tables (null: no RoPE).
// s: the effective s_qk (d = H·d_h). nq, nk: one norm a row (b, t, h),
// row = (b·T + t)·H + h. A lane holds at most kQkPerLane elements (d_h ≤ 256).
// unit false: RoPE alone (no norm, nq, nk unused; s may be null: no scale), for the
// LayerNorm schemes with rotary positions.
struct QkShape {
    int64_t B, T, H, dh, ld;
    float eps;
    bool unit = true;
};
constexpr int kLanes = 32;
constexpr int kQkPerLane = 8;
NORMLAB_HD int64_t qk_rows_per_chunk() { return 16; }
NORMLAB_HD int64_t qk_chunks(int64_t bt) { return (bt + qk_rows_per_chunk() - 1) / qk_rows_per_chunk(); }

// Element e of RoPE(x) at position t: x_e·cos + (−x_{e+d_h/2} | x_{e−d_h/2})·sin.
template <class T>
NORMLAB_HD float roped(const T* x, const float* cs, const float* sn, int64_t t, int64_t e, int64_t dh) {
    const float v = Io<T>::ld(x[e]);
    if (!cs) return v;
    const int64_t half = dh / 2;
    const float p = e < half ? -Io<T>::ld(x[e + half]) : Io<T>::ld(x[e - half]);
    return v * cs[t * dh + e] + p * sn[t * dh + e];
}

// Forward, phase 1: lane's share of ‖RoPE(x)‖² for row (b, t, h), part 0 (q) or 1 (k).
template <class T>
NORMLAB_HD float qk_forward_sumsq(const T* qk, const float* cs, const float* sn, int64_t row, int part, int lane,
                                  const QkShape& z) {
    const int64_t bt = row / z.H, h = row % z.H, t = bt % z.T;
    const T* x = qk + bt * z.ld + part * z.H * z.dh + h * z.dh;
    float ss = 0;
    for (int64_t e = lane; e < z.dh; e += kLanes) {
        const float r = roped(x, cs, sn, t, e, z.dh);
        ss += r * r;
    }
    return ss;
}

// Forward, phase 2: with n = ‖RoPE(x)‖ (the warp's sum), lane's elements of q' or k', and the norm.
template <class T>
NORMLAB_HD void qk_forward_store(const T* qk, const float* cs, const float* sn, const float* s, T* qo, T* ko,
                                 float* nq, float* nk, int64_t row, int part, int lane, float n, const QkShape& z) {
    const int64_t bt = row / z.H, h = row % z.H, b = bt / z.T, t = bt % z.T;
    const T* x = qk + bt * z.ld + part * z.H * z.dh + h * z.dh;
    T* o = (part ? ko : qo) + ((b * z.H + h) * z.T + t) * z.dh;
    for (int64_t e = lane; e < z.dh; e += kLanes) {
        const float r = roped(x, cs, sn, t, e, z.dh), v = z.unit ? r / (n + z.eps) : r;
        o[e] = Io<T>::st(s ? v * s[h * z.dh + e] : v);
    }
    if (z.unit && lane == 0) (part ? nk : nq)[row] = n;
}

// Backward, phase 1: lane's share of r·gy for row (bt, h) and part, with r = RoPE(x),
// gy = g ⊙ s and g the gradient of q' or k' ((B, H, T, d_h)).
template <class T>
NORMLAB_HD float qk_backward_dot(const T* qk, const float* cs, const float* sn, const float* s, const T* gq,
                                 const T* gk, int64_t bt, int64_t h, int part, int lane, const QkShape& z) {
    const int64_t b = bt / z.T, t = bt % z.T;
    const T* x = qk + bt * z.ld + part * z.H * z.dh + h * z.dh;
    const T* g = (part ? gk : gq) + ((b * z.H + h) * z.T + t) * z.dh;
    float dot = 0;
    for (int64_t e = lane; e < z.dh; e += kLanes)
        dot += roped(x, cs, sn, t, e, z.dh) * Io<T>::ld(g[e]) * (s ? s[h * z.dh + e] : 1.f);
    return dot;
}

// Backward, phase 2: with dot = r·gy (the warp's sum) and n = ‖r‖: dr = gy / (n + eps)
// − r·dot / (n (n + eps)²) (the second term 0 at n = 0), and dx = RoPEᵀ(dr):
// dx_j = dr_j·cos_j + dr_{j+d_h/2}·sin_{j+d_h/2} for j < d_h/2, dr_j·cos_j −
// dr_{j−d_h/2}·sin_{j−d_h/2} above; lane's elements written into dqk (the projection's
// gradient, rows `ld` apart, its q | k part), and g·r/(n + eps) added into acc (ds_qk).
template <class T>
NORMLAB_HD void qk_backward_store(const T* qk, const float* cs, const float* sn, const float* s, const T* gq,
                                  const T* gk, const float* nq, const float* nk, T* dqk, int64_t bt, int64_t h,
                                  int part, int lane, float dot, float* acc, const QkShape& z) {
    const int64_t b = bt / z.T, t = bt % z.T, half = z.dh / 2, off = part * z.H * z.dh + h * z.dh;
    const T* x = qk + bt * z.ld + off;
    const T* g = (part ? gk : gq) + ((b * z.H + h) * z.T + t) * z.dh;
    const float* sh = s ? s + h * z.dh : nullptr;
    const float n = z.unit ? (part ? nk : nq)[bt * z.H + h] : 0.f, ie = z.unit ? 1.f / (n + z.eps) : 1.f;
    const float c = n > 0 ? dot / (n * (n + z.eps) * (n + z.eps)) : 0.f;
    auto dr = [&](int64_t e) { return Io<T>::ld(g[e]) * (sh ? sh[e] : 1.f) * ie - roped(x, cs, sn, t, e, z.dh) * c; };
    T* out = dqk + bt * z.ld + off;
    int i = 0;
    for (int64_t j = lane; j < z.dh; j += kLanes, ++i) {
        float v = dr(j);
        if (cs) {
            v *= cs[t * z.dh + j];
            v += j < half ? dr(j + half) * sn[t * z.dh + j + half] : -dr(j - half) * sn[t * z.dh + j - half];
        }
        out[j] = Io<T>::st(v);
        acc[i] += Io<T>::ld(g[j]) * (z.unit ? roped(x, cs, sn, t, j, z.dh) / (n + z.eps) : roped(x, cs, sn, t, j, z.dh));
    }
}

// Backward, last: lane's share of ds_qk over its chunk into ps (the chunk's row of d).
NORMLAB_HD void qk_scale_grad_store(const float* acc, float* ps, int64_t h, int lane, const QkShape& z) {
    if (!ps) return;
    int i = 0;
    for (int64_t e = lane; e < z.dh; e += kLanes, ++i) ps[h * z.dh + e] = acc[i];
}

// ---- NormFormer's FFN LN: LayerNorm(GELU(h)) over a row -----------------
//
// Under bf16 autocast eager runs GELU in bf16, casts to float32 for the
// LayerNorm, and casts its float32 output back for the next linear layer:
// ~6 passes over the (B, T, d_ff) activations forward and more backward.
// Here a block of nt threads takes a row of n, in phases separated by the
// block's sums. Thread tid takes the elements tid, tid + nt, …. On the CPU
// the tests run each phase for every tid, then add the partial sums. GELU is
// the exact (erf) form, as LibTorch's default.
NORMLAB_HD float gelu(float x) { return 0.5f * x * (1.f + erff(x * 0.70710678118654752f)); }
NORMLAB_HD float gelu_grad(float x) {   // Φ(x) + x·φ(x)
    return 0.5f * (1.f + erff(x * 0.70710678118654752f)) + x * 0.39894228040143268f * expf(-0.5f * x * x);
}

// Phase 1: this thread's share of Σ GELU(h).
template <class T>
NORMLAB_HD float gelu_ln_sum(const T* h, int64_t n, int64_t tid, int64_t nt) {
    float s = 0;
    for (int64_t i = tid; i < n; i += nt) s += gelu(Io<T>::ld(h[i]));
    return s;
}
// Phase 2: its share of Σ (GELU(h) − mean)² (two passes: no cancellation).
template <class T>
NORMLAB_HD float gelu_ln_sq(const T* h, float mean, int64_t n, int64_t tid, int64_t nt) {
    float s = 0;
    for (int64_t i = tid; i < n; i += nt) {
        const float c = gelu(Io<T>::ld(h[i])) - mean;
        s += c * c;
    }
    return s;
}
// Phase 3: out = (GELU(h) − mean)·rstd·γ + β, rstd = 1/√(var + eps).
template <class T>
NORMLAB_HD void gelu_ln_write(const T* h, const float* gamma, const float* beta, float mean, float rstd, T* out,
                              int64_t n, int64_t tid, int64_t nt) {
    for (int64_t i = tid; i < n; i += nt)
        out[i] = Io<T>::st((gelu(Io<T>::ld(h[i])) - mean) * rstd * gamma[i] + beta[i]);
}

// Backward, phase 1: this thread's shares of Σ ĝ and Σ ĝ·x̂, with ĝ = g·γ and
// x̂ = (GELU(h) − mean)·rstd.
template <class T>
NORMLAB_HD void gelu_ln_grad_sums(const T* h, const float* gamma, const T* g, float mean, float rstd, int64_t n,
                                  int64_t tid, int64_t nt, float& sg, float& sgx) {
    sg = 0, sgx = 0;
    for (int64_t i = tid; i < n; i += nt) {
        const float gh = Io<T>::ld(g[i]) * gamma[i], xh = (gelu(Io<T>::ld(h[i])) - mean) * rstd;
        sg += gh;
        sgx += gh * xh;
    }
}
// Backward, phase 2: dh = rstd·(ĝ − Σĝ/n − x̂·Σĝx̂/n)·GELU'(h).
template <class T>
NORMLAB_HD void gelu_ln_grad_write(const T* h, const float* gamma, const T* g, float mean, float rstd, float sg,
                                   float sgx, T* dh, int64_t n, int64_t tid, int64_t nt) {
    const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
    for (int64_t i = tid; i < n; i += nt) {
        const float x = Io<T>::ld(h[i]), xh = (gelu(x) - mean) * rstd;
        dh[i] = Io<T>::st(rstd * (Io<T>::ld(g[i]) * gamma[i] - mg - xh * mgx) * gelu_grad(x));
    }
}
// dγ and dβ's share of the rows [r0, r1) for column j: Σ g·x̂ into *pg, Σ g into *pb.
template <class T>
NORMLAB_HD void gelu_ln_param_grad_column(const T* h, const T* g, const float* mean, const float* rstd, float* pg,
                                          float* pb, int64_t r0, int64_t r1, int64_t j, int64_t n) {
    float sgam = 0, sbet = 0;
    for (int64_t r = r0; r < r1; ++r) {
        const float gv = Io<T>::ld(g[r * n + j]);
        sgam += gv * (gelu(Io<T>::ld(h[r * n + j])) - mean[r]) * rstd[r];
        sbet += gv;
    }
    *pg = sgam;
    *pb = sbet;
}

// ---- The residual add and the LayerNorm after it -----------------------------
//
// s = a·(λ ⊙ x) + b·f and y = LayerNorm(s)·γ + β over a row of n: Post-LN's
// LN(α·x + α_t·F(x)) (y is the next residual), Pre-LN's and NormFormer's
// x + F(LN(x)) followed by the next LN (s is the next residual, y the next
// linear layer's input), with DeepNorm's α (a), BranchNorm's α_t (b) and
// ResScale's λ (null: 1). x and s are float32, the branch output f has the
// branch's type F, y the type Y the next layer takes. Eager LibTorch runs the
// scalings, the add, the LayerNorm and, under bf16 autocast, a cast of its
// float32 output for the next linear layer, each a pass over the (B, T, d)
// activations (and more backward). Here a block of nt threads takes a row in
// phases separated by the block's sums, as the FFN LN above.
//
// Phase 1: writes s and returns this thread's share of Σ s. λ ⊙ (a·x) + b·f in
// that order, as eager's addcmul(f, α·x, λ).
template <class F>
NORMLAB_HD float res_ln_sum(const float* x, const F* f, const float* lam, float a, float b, float* s, int64_t n,
                            int64_t tid, int64_t nt) {
    float sum = 0;
    for (int64_t i = tid; i < n; i += nt) {
        const float ax = a * x[i], v = (lam ? ax * lam[i] : ax) + b * Io<F>::ld(f[i]);
        s[i] = v;
        sum += v;
    }
    return sum;
}
// Phase 2: its share of Σ (s − mean)² (two passes: no cancellation).
NORMLAB_HD float res_ln_sq(const float* s, float mean, int64_t n, int64_t tid, int64_t nt) {
    float q = 0;
    for (int64_t i = tid; i < n; i += nt) q += (s[i] - mean) * (s[i] - mean);
    return q;
}
// Phase 3: y = (s − mean)·rstd·γ + β; with y_copy, y again in C (a float32 y in
// bfloat16 for the next linear layer under bf16 autocast, as its cast would round it).
template <class Y, class C = float>
NORMLAB_HD void res_ln_write(const float* s, const float* gamma, const float* beta, float mean, float rstd, Y* y,
                             int64_t n, int64_t tid, int64_t nt, C* y_copy = nullptr) {
    for (int64_t i = tid; i < n; i += nt) {
        const Y v = Io<Y>::st((s[i] - mean) * rstd * gamma[i] + beta[i]);
        y[i] = v;
        if (y_copy) y_copy[i] = Io<C>::st(Io<Y>::ld(v));
    }
}

// Backward, phase 1: this thread's shares of Σ ĝ and Σ ĝ·ŝ, ĝ = gy·γ, ŝ = (s − mean)·rstd.
template <class Y>
NORMLAB_HD void res_ln_grad_sums(const float* s, const float* gamma, const Y* gy, float mean, float rstd, int64_t n,
                                 int64_t tid, int64_t nt, float& sg, float& sgx) {
    sg = 0, sgx = 0;
    for (int64_t i = tid; i < n; i += nt) {
        const float gh = Io<Y>::ld(gy[i]) * gamma[i];
        sg += gh;
        sgx += gh * (s[i] - mean) * rstd;
    }
}
// The gradient of s at element i of a row: the LayerNorm's,
// rstd·(ĝ − Σĝ/n − ŝ·Σĝŝ/n), plus gs (the gradient s gets as the next
// residual; null: none).
template <class Y>
NORMLAB_HD float res_ln_ds(const float* s, const float* gamma, const Y* gy, const float* gs, float mean, float rstd,
                           float mg, float mgx, int64_t i) {
    const float d = rstd * (Io<Y>::ld(gy[i]) * gamma[i] - mg - (s[i] - mean) * rstd * mgx);
    return gs ? d + gs[i] : d;
}
// Backward, phase 2: dx = a·λ ⊙ ds (float32), df = b·ds (F).
template <class F, class Y>
NORMLAB_HD void res_ln_grad_write(const float* s, const float* gamma, const Y* gy, const float* gs, const float* lam,
                                  float a, float b, float mean, float rstd, float sg, float sgx, float* dx, F* df,
                                  int64_t n, int64_t tid, int64_t nt) {
    const float mg = sg / static_cast<float>(n), mgx = sgx / static_cast<float>(n);
    for (int64_t i = tid; i < n; i += nt) {
        const float ds = res_ln_ds(s, gamma, gy, gs, mean, rstd, mg, mgx, i);
        dx[i] = lam ? a * lam[i] * ds : a * ds;
        df[i] = Io<F>::st(b * ds);
    }
}
// The branch's own LayerNorm before the add, f ← LN(f)·γ_f + β_f (NormFormer's
// post-attention LN; gamma null: none), in the kernels that hold a row in a
// warp's registers (cuda_warp_rows.cuh): each row's mean and rstd of f are
// written forward and read backward.
struct BranchLn {
    const float* gamma = nullptr;
    const float* beta = nullptr;
    float eps = 0;
    float* mean = nullptr;
    float* rstd = nullptr;
};
// The column sums of the rows [r0, r1) for column j: dγ's share Σ gy·ŝ into
// *pg, dβ's Σ gy into *pb and, with λ, dλ's Σ a·x·ds into *pl. sg, sgx: each
// row's sums of phase 1 (rows floats each). With the branch's LayerNorm (bl),
// its dγ_f's share Σ b·ds·f̂ into *pgf and dβ_f's Σ b·ds into *pbf, f̂ the
// branch's normalised input (f its input, of type F).
template <class Y, class F = float>
NORMLAB_HD void res_ln_param_grad_column(const float* s, const float* x, const float* gamma, const Y* gy,
                                         const float* gs, const float* lam, float a, const float* mean,
                                         const float* rstd, const float* sg, const float* sgx, float* pg, float* pb,
                                         float* pl, int64_t r0, int64_t r1, int64_t j, int64_t n,
                                         const F* f = nullptr, BranchLn bl = {}, float b = 1, float* pgf = nullptr,
                                         float* pbf = nullptr) {
    float sgam = 0, sbet = 0, slam = 0, sgf = 0, sbf = 0;
    for (int64_t r = r0; r < r1; ++r) {
        const int64_t o = r * n;
        const float gv = Io<Y>::ld(gy[o + j]);
        sgam += gv * (s[o + j] - mean[r]) * rstd[r];
        sbet += gv;
        if (lam || bl.gamma) {
            const float mg = sg[r] / static_cast<float>(n), mgx = sgx[r] / static_cast<float>(n);
            const float ds = res_ln_ds(s + o, gamma, gy + o, gs ? gs + o : nullptr, mean[r], rstd[r], mg, mgx, j);
            if (lam) slam += a * x[o + j] * ds;
            if (bl.gamma) {
                sgf += b * ds * (Io<F>::ld(f[o + j]) - bl.mean[r]) * bl.rstd[r];
                sbf += b * ds;
            }
        }
    }
    *pg = sgam;
    *pb = sbet;
    if (lam) *pl = slam;
    if (bl.gamma) *pgf = sgf, *pbf = sbf;
}

}  // namespace normlab::kernel_bodies

