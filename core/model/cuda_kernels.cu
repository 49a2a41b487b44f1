// NormLab core: CUDA kernels (see cuda_kernels.h) and their launchers. No
// LibTorch here. The kernels that hold a row in registers are in
// cuda_warp_rows.cuh (nGPT's update, the residual add with its LayerNorm),
// cuda_block_rows.cuh (NormFormer's FFN LN) and cuda_qk_rows.cuh (queries and
// keys: RoPE, nGPT's norm and s_qk); this file keeps the kernels that run the
// bodies of cuda_kernel_bodies.h (the fallbacks where a row does not fit or
// NORMLAB_ROW_KERNELS=block), which the CPU tests run too; SwiGLU's and the
// column grid are in cuda_columns.cuh.
#include "core/model/cuda_kernels.h"

#include "core/model/cuda_launch.cuh"   // CUDA (or the emulator's stand-ins), Io<__nv_bfloat16>, by_storage

#include <cstdlib>
#include <cstring>
#include <type_traits>

#include "core/model/cuda_warp_rows.cuh"   // after Io<__nv_bfloat16>, which its kernels read through
#include "core/model/cuda_block_rows.cuh"
#include "core/model/cuda_qk_rows.cuh"
#include "core/model/cuda_swiglu_pairs.cuh"
#include "core/model/cuda_columns.cuh"

namespace normlab::cuda_kernels::warp_rows {
bool rows_by_warp() {
    static const bool on = [] {
        const char* v = std::getenv("NORMLAB_ROW_KERNELS");
        return !(v && std::strcmp(v, "block") == 0);
    }();
    return on;
}
}  // namespace normlab::cuda_kernels::warp_rows

namespace normlab::cuda_kernels {
namespace {

constexpr int kThreads = block_rows::kBlock;
using block_rows::block_sum;
using columns::column_chunk;

namespace kb = normlab::kernel_bodies;

// nGPT's queries and keys: a warp a row (b, t, h), q then k.
template <class T>
__global__ void qk_forward_kernel(const T* qk, const float* cs, const float* sn, const float* s, T* qo, T* ko,
                                  float* nq, float* nk, kb::QkShape z) {
    int64_t row;
    int lane;
    if (!warp_rows::warp_row(z.B * z.T * z.H, row, lane)) return;
    for (int part = 0; part < 2; ++part) {
        const float n = sqrtf(warp_rows::warp_sum(kb::qk_forward_sumsq(qk, cs, sn, row, part, lane, z)));
        kb::qk_forward_store(qk, cs, sn, s, qo, ko, nq, nk, row, part, lane, n, z);
    }
}

// Backward: a warp a head and a chunk of (b, t) rows; dq, dk of each, ds_qk's share of the chunk.
template <class T>
__global__ void qk_backward_kernel(const T* qk, const float* cs, const float* sn, const float* s, const T* gq,
                                   const T* gk, const float* nq, const float* nk, T* dqk, float* ps, kb::QkShape z) {
    const int64_t bt = z.B * z.T;
    int64_t w;
    int lane;
    if (!warp_rows::warp_row(kb::qk_chunks(bt) * z.H, w, lane)) return;
    const int64_t h = w % z.H, chunk = w / z.H;
    float acc[kb::kQkPerLane] = {};
    const int64_t r0 = chunk * kb::qk_rows_per_chunk(), r1 = r0 + kb::qk_rows_per_chunk() < bt ? r0 + kb::qk_rows_per_chunk() : bt;
    for (int64_t r = r0; r < r1; ++r) {
        for (int part = 0; part < 2; ++part) {
            const float dot = warp_rows::warp_sum(kb::qk_backward_dot(qk, cs, sn, s, gq, gk, r, h, part, lane, z));
            kb::qk_backward_store(qk, cs, sn, s, gq, gk, nq, nk, dqk, r, h, part, lane, dot, acc, z);
        }
    }
    kb::qk_scale_grad_store(acc, ps ? ps + chunk * z.H * z.dh : nullptr, h, lane, z);
}

// LayerNorm(GELU(h)): a block a row, the phases of cuda_kernel_bodies.h between block sums.
template <class T>
__global__ void gelu_ln_forward_kernel(const T* h, const float* gamma, const float* beta, float eps, T* out,
                                       float* mean, float* rstd, int64_t n) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x, tid = threadIdx.x;
    const T* hr = h + row * n;
    const float m = block_sum(kb::gelu_ln_sum(hr, n, tid, kThreads), shared) / static_cast<float>(n);
    const float var = block_sum(kb::gelu_ln_sq(hr, m, n, tid, kThreads), shared) / static_cast<float>(n);
    const float rs = 1.f / sqrtf(var + eps);
    kb::gelu_ln_write(hr, gamma, beta, m, rs, out + row * n, n, tid, kThreads);
    if (tid == 0) mean[row] = m, rstd[row] = rs;
}

template <class T>
__global__ void gelu_ln_backward_kernel(const T* h, const float* gamma, const T* g, const float* mean,
                                        const float* rstd, T* dh, int64_t n) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x, tid = threadIdx.x;
    float sg, sgx;
    kb::gelu_ln_grad_sums(h + row * n, gamma, g + row * n, mean[row], rstd[row], n, tid, kThreads, sg, sgx);
    sg = block_sum(sg, shared);
    sgx = block_sum(sgx, shared);
    kb::gelu_ln_grad_write(h + row * n, gamma, g + row * n, mean[row], rstd[row], sg, sgx, dh + row * n, n, tid,
                           kThreads);
}

template <class T>
__global__ void gelu_ln_param_grad_kernel(const T* h, const T* g, const float* mean, const float* rstd, float* pg,
                                          float* pb, int64_t rows, int64_t n) {
    int64_t j, r0, r1;
    if (column_chunk(rows, n, j, r0, r1))
        kb::gelu_ln_param_grad_column(h, g, mean, rstd, pg + blockIdx.y * n + j, pb + blockIdx.y * n + j, r0, r1, j, n);
}

// The residual add and the LayerNorm after it: a block a row, the phases of
// cuda_kernel_bodies.h between block sums; a column kernel for dγ, dβ, dλ.
template <class F, class Y>
__global__ void res_ln_forward_kernel(const float* x, const F* f, const float* lam, float a, float b_host,
                                      const float* b_dev, const float* gamma, const float* beta, float eps, float* s, Y* y, float* mean,
                                      float* rstd, int64_t n, F* y_copy) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x, tid = threadIdx.x, o = row * n;
    const float b = b_dev ? *b_dev : b_host;
    // Each thread reads back only the elements of s it wrote: no barrier needed between phases 1 and 2.
    const float m = block_sum(kb::res_ln_sum(x + o, f + o, lam, a, b, s + o, n, tid, kThreads), shared) /
                    static_cast<float>(n);
    const float var = block_sum(kb::res_ln_sq(s + o, m, n, tid, kThreads), shared) / static_cast<float>(n);
    const float rs = 1.f / sqrtf(var + eps);
    kb::res_ln_write(s + o, gamma, beta, m, rs, y + o, n, tid, kThreads, y_copy ? y_copy + o : nullptr);
    if (tid == 0) mean[row] = m, rstd[row] = rs;
}

template <class F, class Y>
__global__ void res_ln_backward_kernel(const float* s, const float* gamma, const Y* gy, const float* gs,
                                       const float* lam, float a, float b_host, const float* b_dev, const float* mean,
                                       const float* rstd, float* dx, F* df, float* sg_rows, float* sgx_rows, int64_t n) {
    __shared__ float shared[kThreads / 32];
    const int64_t row = blockIdx.x, tid = threadIdx.x, o = row * n;
    const float b = b_dev ? *b_dev : b_host;
    float sg, sgx;
    kb::res_ln_grad_sums(s + o, gamma, gy + o, mean[row], rstd[row], n, tid, kThreads, sg, sgx);
    sg = block_sum(sg, shared);
    sgx = block_sum(sgx, shared);
    kb::res_ln_grad_write(s + o, gamma, gy + o, gs ? gs + o : nullptr, lam, a, b, mean[row], rstd[row], sg, sgx,
                          dx + o, df + o, n, tid, kThreads);
    if (tid == 0) sg_rows[row] = sg, sgx_rows[row] = sgx;
}

template <class Y, class F>
__global__ void res_ln_param_grad_kernel(const float* s, const float* x, const float* gamma, const Y* gy,
                                         const float* gs, const float* lam, float a, const float* mean,
                                         const float* rstd, const float* sg, const float* sgx, float* pg, float* pb,
                                         float* pl, int64_t rows, int64_t n, const F* f, kb::BranchLn bl, float b_host,
                                         const float* b_dev, float* pgf, float* pbf) {
    int64_t j, r0, r1;
    if (column_chunk(rows, n, j, r0, r1)) {
        const int64_t at = blockIdx.y * n + j;
        const bool branch_ln = bl.gamma != nullptr;
        kb::res_ln_param_grad_column(s, x, gamma, gy, gs, lam, a, mean, rstd, sg, sgx, pg + at, pb + at,
                                     lam ? pl + at : nullptr, r0, r1, j, n, f, bl, b_dev ? *b_dev : b_host,
                                     branch_ln ? pgf + at : nullptr, branch_ln ? pbf + at : nullptr);
    }
}

// Blocks of kThreads for one warp each of `warps`.
unsigned warp_blocks(int64_t warps) {
    constexpr int64_t per_block = kThreads / kb::kLanes;
    return static_cast<unsigned>((warps + per_block - 1) / per_block);
}

// The current device's multiprocessors (0 where CUDA cannot say); the emulator's stand-in on the CPU.
int multiprocessors() {
#ifdef NORMLAB_SIMT
    return ::normlab::simt::multiprocessors();
#else
    int device = 0, count = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess) {
        (void)cudaGetLastError();   // not left for the next launch's check to name
        return 0;
    }
    return count;
#endif
}

// The blocks of a backward warp-a-row kernel that sums columns over groups of rows
// (warp_rows::row_groups): as many as the GPU holds at once (blocks_an_sm a multiprocessor),
// each keeping its sums over the groups it takes (keep), or a block a group, which writes its
// group's sums, where they do not fit in shared memory. One row of each sum a block.
unsigned column_sum_blocks(int64_t rows, int blocks_an_sm, bool keep) {
    const int64_t groups = warp_rows::row_groups(rows), resident = static_cast<int64_t>(multiprocessors()) * blocks_an_sm;
    return static_cast<unsigned>(keep && resident > 0 && resident < groups ? resident : groups);
}

dim3 pair_grid(int64_t rows, int64_t f) {   // two columns a thread
    return dim3(static_cast<unsigned>((f / 2 + kThreads - 1) / kThreads), static_cast<unsigned>(kb::row_chunks(rows)));
}
// The warp-a-row kernels four neighbouring elements a lane an access (warp_rows::load_row): n a
// multiple of 4 and every row pointer aligned to 16 bytes (4 floats; bf16 rows need only 8).
bool rows_in_packs(int64_t n, std::initializer_list<const void*> ptrs) { return n % 4 == 0 && aligned(16, ptrs); }
// SwiGLU two columns a thread (cuda_swiglu_pairs.cuh): f even, every pointer aligned for a pair of floats.
bool swiglu_in_pairs(int64_t f, std::initializer_list<const void*> ptrs) {
    return f % 2 == 0 && aligned(8, ptrs) && warp_rows::rows_by_warp();
}

}  // namespace

void swiglu_forward(const void* h, const float* su, const float* sv, void* a, int64_t rows, int64_t f, bool bf16,
                    void* stream) {
    if (rows == 0 || f == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        if (swiglu_in_pairs(f, {h, su, sv, a}))
            NORMLAB_LAUNCH(pair_grid(rows, f), kThreads, st, swiglu_pairs::forward<T>)(
                static_cast<const T*>(h), su, sv, static_cast<T*>(a), rows, f);
        else
            NORMLAB_LAUNCH(columns::grid(rows, f), kThreads, st, columns::swiglu_forward)(
                static_cast<const T*>(h), su, sv, static_cast<T*>(a), rows, f);
    });
}

void swiglu_backward(const void* h, const float* su, const float* sv, const void* da, void* dh, float* psu,
                     float* psv, int64_t rows, int64_t f, bool bf16, void* stream) {
    if (rows == 0 || f == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        const auto hp = static_cast<const T*>(h), dap = static_cast<const T*>(da);
        if (swiglu_in_pairs(f, {h, su, sv, da, dh, psu, psv}))
            NORMLAB_LAUNCH(pair_grid(rows, f), kThreads, st, swiglu_pairs::backward<T>)(hp, su, sv, dap, static_cast<T*>(dh),
                                                                                       psu, psv, rows, f);
        else
            NORMLAB_LAUNCH(columns::grid(rows, f), kThreads, st, columns::swiglu_backward)(hp, su, sv, dap, static_cast<T*>(dh),
                                                                                      psu, psv, rows, f);
    });
}

void ngpt_qk_forward(const void* qk, const float* cs, const float* sn, const float* s, void* qo, void* ko, float* nq,
                     float* nk, const QkDims& z, bool bf16, void* stream) {
    const int64_t rows = z.B * z.T * z.H;
    if (rows == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        const auto x = static_cast<const T*>(qk);
        const auto q = static_cast<T*>(qo), k = static_cast<T*>(ko);
        if (const int p = qk_rows::lanes_hold(z, {qk, cs, sn, s, qo, ko})) {
            qk_rows::by_lanes(p, [&](auto v) {
                NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, qk_rows::qk_forward<decltype(v)::value, T>)(
                    x, cs, sn, s, q, k, nq, nk, z);
            });
        } else {
            NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, qk_forward_kernel)(x, cs, sn, s, q, k, nq, nk, z);
        }
    });
}

void ngpt_qk_backward(const void* qk, const float* cs, const float* sn, const float* s, const void* gq, const void* gk,
                      const float* nq, const float* nk, void* dqk, float* ps, const QkDims& z, bool bf16,
                      void* stream) {
    const int64_t warps = qk_chunks(z.B * z.T) * z.H;
    if (warps == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        const auto *q = static_cast<const T*>(qk), *g1 = static_cast<const T*>(gq), *g2 = static_cast<const T*>(gk);
        const auto dx = static_cast<T*>(dqk);
        if (const int p = qk_rows::lanes_hold(z, {qk, cs, sn, s, gq, gk, dqk, ps})) {
            qk_rows::by_lanes(p, [&](auto v) {
                NORMLAB_LAUNCH(warp_blocks(warps), kThreads, st, qk_rows::qk_backward<decltype(v)::value, T>)(
                    q, cs, sn, s, g1, g2, nq, nk, dx, ps, z);
            });
        } else {
            NORMLAB_LAUNCH(warp_blocks(warps), kThreads, st, qk_backward_kernel)(q, cs, sn, s, g1, g2, nq, nk, dx, ps, z);
        }
    });
}

int64_t qk_chunks(int64_t bt) { return kb::qk_chunks(bt); }

void ngpt_update_forward(const float* x, const void* h, const float* alpha, float eps, float* y, float* rh, float* rz,
                         int64_t rows, int64_t n, bool h_bf16, void* stream, void* y_copy) {
    if (rows == 0) return;
    by_storage(h_bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        const auto hp = static_cast<const T*>(h);
        const auto cp = static_cast<T*>(y_copy);
        if (!warp_rows::by_width(n, [&](auto v) {
                constexpr int V = decltype(v)::value;
                if (rows_in_packs(n, {x, h, alpha, y, y_copy}))
                    NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::update_forward<V, T, 4>)(
                        x, hp, alpha, eps, y, rh, rz, rows, n, cp);
                else
                    NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::update_forward<V, T, 1>)(
                        x, hp, alpha, eps, y, rh, rz, rows, n, cp);
            }))
            NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, block_rows::update_forward)(x, hp, alpha, eps, y, rh, rz, n, cp);
    });
}

void ngpt_update_backward(const float* x, const void* h, const float* alpha, const float* rh, const float* rz,
                          const float* gy, float eps, float* dx, void* dh, float* dalpha_rows, int64_t rows, int64_t n,
                          bool h_bf16, void* stream, const void* gy_copy) {
    if (rows == 0) return;
    by_storage(h_bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto st = static_cast<cudaStream_t>(stream);
        const auto hp = static_cast<const T*>(h);
        const auto dhp = static_cast<T*>(dh);
        if (!warp_rows::by_width(n, [&](auto v) {
                constexpr int V = decltype(v)::value;
                const auto gcp = static_cast<const T*>(gy_copy);
                if (rows_in_packs(n, {x, h, alpha, gy, dx, dh, dalpha_rows, gy_copy}))
                    NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::update_backward<V, T, 4>)(
                        x, hp, alpha, rh, rz, gy, eps, dx, dhp, dalpha_rows, rows, n, gcp);
                else
                    NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::update_backward<V, T, 1>)(
                        x, hp, alpha, rh, rz, gy, eps, dx, dhp, dalpha_rows, rows, n, gcp);
            }))   // never with gy_copy (copy_grad_in_kernel)
            NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, block_rows::update_backward)(x, hp, alpha, rh, rz, gy, eps, dx, dhp,
                                                                              dalpha_rows, n);
    });
}

int64_t ngpt_update_max_width() { return static_cast<int64_t>(kThreads) * block_rows::kUpdatePerThread; }

int64_t ngpt_update_alpha_rows(int64_t rows, int64_t n) {
    static_assert(kThreads == warp_rows::kWarps * kb::kLanes, "update_backward's blocks hold kWarps warps");
    return warp_rows::by_width(n, [](auto) {}) ? warp_rows::row_groups(rows) : rows;
}

int64_t row_chunks(int64_t rows) { return kb::row_chunks(rows); }

void gelu_layer_norm_forward(const void* h, const float* gamma, const float* beta, float eps, void* out, float* mean,
                             float* rstd, int64_t rows, int64_t n, bool bf16, void* stream) {
    if (rows == 0 || n == 0) return;
    const auto st = static_cast<cudaStream_t>(stream);
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto hp = static_cast<const T*>(h);
        const auto op = static_cast<T*>(out);
        // 8 elements an access: 8·sizeof(T) bytes for h and out, 32 for γ and β (float)
        if (!(aligned(32, {h, out, gamma, beta}) && block_rows::by_vectors(n, [&](auto v) {
                NORMLAB_LAUNCH(static_cast<unsigned>(rows), block_rows::kRowThreads, st,
                               block_rows::gelu_ln_forward<decltype(v)::value, T>)(hp, gamma, beta, eps, op, mean, rstd, n);
            })))
            NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, gelu_ln_forward_kernel)(hp, gamma, beta, eps, op, mean,
                                                                                             rstd, n);
    });
}

int64_t gelu_layer_norm_chunks(int64_t rows, int64_t) { return kb::row_chunks(rows); }

bool gelu_layer_norm_backward(const void* h, const float* gamma, const void* g, const float* mean, const float* rstd,
                              void* dh, float* pg, float* pb, int64_t rows, int64_t n, bool bf16, void* stream,
                              float* pd, float* row_m) {
    if (rows == 0 || n == 0) return false;
    const auto st = static_cast<cudaStream_t>(stream);
    const bool sums = pd && row_m;
    bool by_rows = false;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        const auto *hp = static_cast<const T*>(h), *gp = static_cast<const T*>(g);
        const auto dhp = static_cast<T*>(dh);
        if (aligned(32, {h, g, dh, gamma, pg, pb, sums ? pd : nullptr}) && block_rows::by_vectors(n, [&](auto v) {
                NORMLAB_LAUNCH(static_cast<unsigned>(rows), block_rows::kRowThreads, st,
                               block_rows::gelu_ln_backward<decltype(v)::value, T>)(hp, gamma, gp, mean, rstd, dhp, n,
                                                                                     sums ? row_m : nullptr);
            })) {
            NORMLAB_LAUNCH(pair_grid(rows, n), kThreads, st, block_rows::gelu_ln_param_grad<T>)(
                hp, gp, mean, rstd, pg, pb, rows, n, gamma, sums ? row_m : nullptr, sums ? pd : nullptr);
            by_rows = true;
            return;
        }
        NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, gelu_ln_backward_kernel)(hp, gamma, gp, mean, rstd, dhp, n);
        NORMLAB_LAUNCH(columns::grid(rows, n), kThreads, st, gelu_ln_param_grad_kernel)(hp, gp, mean, rstd, pg, pb, rows, n);
    });
    return sums && by_rows;
}

bool copy_grad_in_kernel(int64_t n) { return residual_branch_ln_fits(n); }

bool residual_branch_ln_fits(int64_t n) {
    bool fits = false;
    warp_rows::by_width(n, [&](auto) { fits = true; });
    return fits;
}

void residual_layer_norm_forward(const float* x, const void* f, const float* lam, float a, float b,
                                 const float* b_dev, const float* gamma, const float* beta, float eps, float* s,
                                 void* y, float* mean, float* rstd, int64_t rows, int64_t n, bool f_bf16, bool y_bf16,
                                 void* stream, const kb::BranchLn& bl, void* y_copy) {
    if (rows == 0 || n == 0) return;
    by_storage(f_bf16, [&](auto ftag) {
        by_storage(y_bf16, [&](auto ytag) {
            using F = decltype(ftag);
            using Y = decltype(ytag);
            const auto st = static_cast<cudaStream_t>(stream);
            const auto fp = static_cast<const F*>(f);
            const auto yp = static_cast<Y*>(y);
            const auto cp = static_cast<F*>(y_copy);
            if (!warp_rows::by_width(n, [&](auto v) {
                    constexpr int V = decltype(v)::value;
                    if (rows_in_packs(n, {x, f, lam, gamma, beta, s, y, y_copy, bl.gamma, bl.beta}))
                        NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::res_ln_forward<V, F, Y, 4>)(
                            x, fp, lam, a, b, b_dev, gamma, beta, eps, s, yp, mean, rstd, rows, n, bl, cp);
                    else
                        NORMLAB_LAUNCH(warp_blocks(rows), kThreads, st, warp_rows::res_ln_forward<V, F, Y, 1>)(
                            x, fp, lam, a, b, b_dev, gamma, beta, eps, s, yp, mean, rstd, rows, n, bl, cp);
                }))   // never with bl (residual_branch_ln_fits)
                NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, res_ln_forward_kernel)(x, fp, lam, a, b, b_dev, gamma,
                                                                                        beta, eps, s, yp, mean, rstd, n, cp);
        });
    });
}

void residual_layer_norm_backward(const float* s, const float* x, const float* gamma, const void* gy,
                                  const float* gs, const float* lam, float a, float b, const float* b_dev,
                                  const float* mean, const float* rstd, float* dx, void* df, float* sg, float* sgx, float* pg, float* pb,
                                  float* pl, int64_t rows, int64_t n, bool f_bf16, bool y_bf16, void* stream,
                                  const void* f, const kb::BranchLn& bl, float* pgf, float* pbf, float* pfb,
                                  const void* gy_copy) {
    if (rows == 0 || n == 0) return;
    const auto st = static_cast<cudaStream_t>(stream);
    by_storage(f_bf16, [&](auto ftag) {
        by_storage(y_bf16, [&](auto ytag) {
            using F = decltype(ftag);
            using Y = decltype(ytag);
            const auto gyp = static_cast<const Y*>(gy);
            const auto dfp = static_cast<F*>(df);
            if (warp_rows::by_width(n, [&](auto v) {
                    constexpr int V = decltype(v)::value;
                    const auto gcp = static_cast<const F*>(gy_copy);
                    const unsigned blocks = column_sum_blocks(
                        rows, warp_rows::kBlocksAnSm<V>,
                        warp_rows::residual_sums(lam, bl.gamma, pfb) <= warp_rows::kKeptSums<V>);
                    if (rows_in_packs(n, {s, gamma, gy, gs, lam, x, dx, df, f, bl.gamma, gy_copy}))
                        NORMLAB_LAUNCH(blocks, kThreads, st, warp_rows::res_ln_backward<V, F, Y, 4>)(
                            s, gamma, gyp, gs, lam, x, a, b, b_dev, mean, rstd, dx, dfp, sg, sgx, pg, pb, pl, rows, n,
                            static_cast<const F*>(f), bl, pgf, pbf, pfb, gcp);
                    else
                        NORMLAB_LAUNCH(blocks, kThreads, st, warp_rows::res_ln_backward<V, F, Y, 1>)(
                            s, gamma, gyp, gs, lam, x, a, b, b_dev, mean, rstd, dx, dfp, sg, sgx, pg, pb, pl, rows, n,
                            static_cast<const F*>(f), bl, pgf, pbf, pfb, gcp);
                }))
                return;   // dγ, dβ and the rest summed by its blocks
            // A block a row (never with bl: residual_branch_ln_fits, nor gy_copy: copy_grad_in_kernel), then the column kernel, which reads
            // each row's sums: it runs after the row kernel, on the same stream.
            NORMLAB_LAUNCH(static_cast<unsigned>(rows), kThreads, st, res_ln_backward_kernel)(
                s, gamma, gyp, gs, lam, a, b, b_dev, mean, rstd, dx, dfp, sg, sgx, n);
            NORMLAB_LAUNCH(columns::grid(rows, n), kThreads, st, res_ln_param_grad_kernel)(
                s, x, gamma, gyp, gs, lam, a, mean, rstd, sg, sgx, pg, pb, pl, rows, n, static_cast<const F*>(f), bl, b,
                b_dev, pgf, pbf);
        });
    });
}

int64_t residual_layer_norm_partial_rows(int64_t rows, int64_t n, int sums) {
    int64_t blocks = kb::row_chunks(rows);   // the column kernel's chunks
    warp_rows::by_width(n, [&](auto v) {
        constexpr int V = decltype(v)::value;
        blocks = column_sum_blocks(rows, warp_rows::kBlocksAnSm<V>, sums <= warp_rows::kKeptSums<V>);
    });
    return blocks;
}

int residual_layer_norm_sums(bool lam, bool branch_ln, bool bias) { return warp_rows::residual_sums(lam, branch_ln, bias); }

}  // namespace normlab::cuda_kernels
