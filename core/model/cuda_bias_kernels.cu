// NormLab core: the kernels that write a linear layer's output gradient and
// sum its columns for the layer's bias as they go (cuda_kernels.h): GELU after
// the MLP's first layer, and the attention heads' gradients packed back into the
// q/k/v projection's. No LibTorch here.
//
// Why: the linear layers' GEMMs add their bias in the epilogue for free, but
// autograd sums the bias's gradient in a pass of its own over the output's
// gradient: 3.2 ms of Pre-LN's 57 ms step at GPT-2 small's shape on the H100
// (bench/results/leases/2026-11-26T1640-h100, the column sums of 12 layers'
// q/k/v, projection, FC1 and FC2 gradients, ~5.4 GB at about half the card's
// bandwidth). FC1's (3·d of the 7·d columns) and q/k/v's (3·d) are written by
// the kernels here, which keep each column's sum in a register while they walk
// a chunk of rows. The packed heads' gradient was three strided copies (2.35 ms
// a step); here it is one pass.
//
// Layout: a thread takes P neighbouring columns (one access of P elements
// where the columns and pointers allow, P = 1 otherwise) and walks the rows of
// chunk blockIdx.y, as the column kernels of cuda_kernel_bodies.h do; each
// chunk's sums go to a row of the partial sums, which the caller adds in a
// fixed order (deterministic).
#include "core/model/cuda_kernels.h"

#include "core/model/cuda_launch.cuh"
#include "core/model/cuda_vector_io.cuh"

namespace normlab::cuda_kernels {
namespace bias_cols {

namespace kb = normlab::kernel_bodies;
constexpr int kThreads = 256;
constexpr int kPack = 4;   // columns an access: 8 bytes of bf16, 16 of float

// This thread's first column (a multiple of P) and its chunk of rows; false past the last column.
template <int P>
__device__ __forceinline__ bool column_pack(int64_t rows, int64_t n, int64_t& j, int64_t& r0, int64_t& r1) {
    j = P * (blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x);
    r0 = blockIdx.y * kb::rows_per_chunk(rows);
    r1 = kb::chunk_end(blockIdx.y, rows);
    return j < n;
}

template <int P>
dim3 grid(int64_t rows, int64_t n, int block = kThreads) {
    const int64_t threads = (n + P - 1) / P;
    return dim3(static_cast<unsigned>((threads + block - 1) / block), static_cast<unsigned>(kb::row_chunks(rows)));
}

// Rows a thread loads before it uses any (kRowBatch of them at a time, then the rest one by
// one). The GELU kernels' erff holds a branch, so with the rows' loop only unrolled
// (NORMLAB_UNROLL_ROWS) each row's load came after the last row's store, in a basic block of its
// own (the PTX has ld, the erf's branches, st, ld, …), and the heads' kernel's branches on g and
// on t's wrap did the same: a load in flight a thread, where these kernels move bytes only
// (heads_backward ran at ~2.1 TB/s of the H200's 4.8 in lease 5's NormFormer trace). The
// arithmetic and the order of each column's sum are the loop's, so the bits are the same.
constexpr int kRowBatch = 8;
// With 16-byte accesses (8 bf16 columns a thread) 4 rows are as many bytes in flight as 8 rows of
// 8-byte ones, in half the registers 8 rows would take.
template <int P>
constexpr int kRowsAhead = P >= 8 ? 4 : kRowBatch;

// GELU forward sums no column, so it needs no walk down the columns: a flat pass
// over the rows·n elements, 16 bytes an access (P = 8 bf16 or 4 floats) and
// kFlatAhead accesses a thread loaded before any is used, a warp's accesses
// contiguous (512 bytes). The column kernel below, 8 bytes an access, ran at
// ~2.5 TB/s in lease 6's Pre-LN trace (1.92 ms a step), where eager's
// vectorized GELU ran at ~3. The same arithmetic an element, so the same bits.
constexpr int kFlatAhead = 4;
template <class T>
constexpr int kPack16 = 16 / static_cast<int>(sizeof(T));   // elements in one 16-byte access

template <int P, class T>
__global__ void gelu_forward_flat(const T* __restrict__ h, T* __restrict__ a, int64_t packs) {
    const int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x * kFlatAhead + threadIdx.x;
    float v[kFlatAhead][P];
#pragma unroll
    for (int u = 0; u < kFlatAhead; ++u) {
        const int64_t i = base + static_cast<int64_t>(u) * blockDim.x;
        if (i < packs) load<P>(h + i * P, v[u]);
    }
#pragma unroll
    for (int u = 0; u < kFlatAhead; ++u) {
        const int64_t i = base + static_cast<int64_t>(u) * blockDim.x;
        if (i >= packs) continue;
#pragma unroll
        for (int e = 0; e < P; ++e) v[u][e] = kb::gelu(v[u][e]);
        store<P>(a + i * P, v[u]);
    }
}

template <int P, class T>
__global__ void gelu_forward(const T* __restrict__ h, T* __restrict__ a, int64_t rows, int64_t n) {
    int64_t j, r0, r1;
    if (!column_pack<P>(rows, n, j, r0, r1)) return;
    auto row = [&](float (&v)[P], int64_t r) {
#pragma unroll
        for (int i = 0; i < P; ++i) v[i] = kb::gelu(v[i]);
        store<P>(a + r * n + j, v);
    };
    int64_t r = r0;
    for (; r + kRowBatch <= r1; r += kRowBatch) {
        float v[kRowBatch][P];
#pragma unroll
        for (int u = 0; u < kRowBatch; ++u) load<P>(h + (r + u) * n + j, v[u]);
#pragma unroll
        for (int u = 0; u < kRowBatch; ++u) row(v[u], r + u);
    }
    for (; r < r1; ++r) {
        float v[P];
        load<P>(h + r * n + j, v);
        row(v, r);
    }
}

// dh = da·GELU'(h); with pb, the chunk's column sums of dh as stored (what the weight's gradient reads).
template <int P, class T>
__global__ void gelu_backward(const T* __restrict__ h, const T* __restrict__ da, T* __restrict__ dh,
                              float* __restrict__ pb, int64_t rows, int64_t n) {
    int64_t j, r0, r1;
    if (!column_pack<P>(rows, n, j, r0, r1)) return;
    float sum[P];
#pragma unroll
    for (int i = 0; i < P; ++i) sum[i] = 0.f;
    auto row = [&](const float (&x)[P], float (&g)[P], int64_t r) {
#pragma unroll
        for (int i = 0; i < P; ++i) {
            g[i] = kb::Io<T>::ld(kb::Io<T>::st(g[i] * kb::gelu_grad(x[i])));
            sum[i] += g[i];
        }
        store<P>(dh + r * n + j, g);
    };
    constexpr int A = kRowsAhead<P>;
    int64_t r = r0;
    for (; r + A <= r1; r += A) {
        float x[A][P], g[A][P];
#pragma unroll
        for (int u = 0; u < A; ++u) load<P>(h + (r + u) * n + j, x[u]), load<P>(da + (r + u) * n + j, g[u]);
#pragma unroll
        for (int u = 0; u < A; ++u) row(x[u], g[u], r + u);
    }
    for (; r < r1; ++r) {
        float x[P], g[P];
        load<P>(h + r * n + j, x);
        load<P>(da + r * n + j, g);
        row(x, g, r);
    }
    if (pb) store<P>(pb + blockIdx.y * n + j, sum);
}

// dproj's columns j … j + P − 1 for the chunk's rows (b, t): part j / d (q, k or v), head
// (j mod d) / d_h, element j mod d_h; P divides d_h, so a pack stays in one head. A part without
// a gradient (g null) is zeros.
template <int P, class T>
__global__ void heads_backward(HeadGrads z, T* __restrict__ dproj, float* __restrict__ pb) {
    const int64_t d = z.H * z.dh, n = 3 * d, rows = z.B * z.T;
    int64_t j, r0, r1;
    if (!column_pack<P>(rows, n, j, r0, r1)) return;
    const int p = static_cast<int>(j / d);
    const int64_t head = (j % d) / z.dh, e = j % z.dh;
    const T* __restrict__ g = static_cast<const T*>(z.g[p]);
    const int64_t sb = z.sb[p], st = z.st[p], base = head * z.sh[p] + e;
    float sum[P];
#pragma unroll
    for (int i = 0; i < P; ++i) sum[i] = 0.f;
    auto row = [&](float (&v)[P], int64_t r) {
        store<P>(dproj + r * n + j, v);
#pragma unroll
        for (int i = 0; i < P; ++i) sum[i] += v[i];
    };
    int64_t b = r0 / z.T, t = r0 - b * z.T;   // row r's (b, t), advanced a row at a time
    int64_t r = r0;
    if (g) {
        for (; r + kRowBatch <= r1; r += kRowBatch) {
            float v[kRowBatch][P];
            int64_t at[kRowBatch];   // the rows' offsets into g, worked out before any load
#pragma unroll
            for (int u = 0; u < kRowBatch; ++u) {
                at[u] = b * sb + t * st + base;
                if (++t == z.T) t = 0, ++b;
            }
#pragma unroll
            for (int u = 0; u < kRowBatch; ++u) load<P>(g + at[u], v[u]);
#pragma unroll
            for (int u = 0; u < kRowBatch; ++u) row(v[u], r + u);
        }
        for (; r < r1; ++r) {
            float v[P];
            load<P>(g + b * sb + t * st + base, v);
            row(v, r);
            if (++t == z.T) t = 0, ++b;
        }
    } else {
        for (; r < r1; ++r) {
            float v[P];
#pragma unroll
            for (int i = 0; i < P; ++i) v[i] = 0.f;
            row(v, r);
        }
    }
    if (pb) store<P>(pb + blockIdx.y * n + j, sum);
}

// Whether P-column accesses fit: n a multiple of P and every pointer aligned to P elements of T
// (P floats for the partial sums).
template <class T>
bool packs(int64_t n, std::initializer_list<const void*> data, const float* pb) {
    return n % kPack == 0 && aligned(kPack * sizeof(T), data) && aligned(kPack * sizeof(float), {pb});
}

}  // namespace bias_cols

void gelu_forward(const void* h, void* a, int64_t rows, int64_t n, bool bf16, void* stream) {
    if (rows == 0 || n == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        namespace bc = bias_cols;
        const auto st = static_cast<cudaStream_t>(stream);
        const auto hp = static_cast<const T*>(h);
        const auto ap = static_cast<T*>(a);
        constexpr int F = bc::kPack16<T>;
        if ((rows * n) % F == 0 && aligned(16, {h, a})) {
            const int64_t packs = rows * n / F, per_block = static_cast<int64_t>(bc::kThreads) * bc::kFlatAhead;
            NORMLAB_LAUNCH(static_cast<unsigned>((packs + per_block - 1) / per_block), bc::kThreads, st,
                           bc::gelu_forward_flat<F, T>)(hp, ap, packs);
        } else if (bc::packs<T>(n, {h, a}, nullptr))
            NORMLAB_LAUNCH(bc::grid<bc::kPack>(rows, n), bc::kThreads, st, bc::gelu_forward<bc::kPack, T>)(hp, ap, rows, n);
        else
            NORMLAB_LAUNCH(bc::grid<1>(rows, n), bc::kThreads, st, bc::gelu_forward<1, T>)(hp, ap, rows, n);
    });
}

void gelu_backward(const void* h, const void* da, void* dh, float* pb, int64_t rows, int64_t n, bool bf16,
                   void* stream) {
    if (rows == 0 || n == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        namespace bc = bias_cols;
        const auto st = static_cast<cudaStream_t>(stream);
        const auto hp = static_cast<const T*>(h), dap = static_cast<const T*>(da);
        const auto dhp = static_cast<T*>(dh);
        // bf16: 8 columns an access (16 bytes; lease 6's trace had the 8-byte kernel at ~2.7 TB/s), in
        // blocks of 128 threads, so that d_ff = 3,072's 384 threads a chunk fill three; floats: 4 as before
        constexpr int W = bc::kPack16<T>;
        constexpr int kWideBlock = 128;
        if (W != bc::kPack && n % W == 0 && aligned(16, {h, da, dh}) && aligned(W * sizeof(float), {pb}))
            NORMLAB_LAUNCH(bc::grid<W>(rows, n, kWideBlock), kWideBlock, st, bc::gelu_backward<W, T>)(hp, dap, dhp, pb, rows, n);
        else if (bc::packs<T>(n, {h, da, dh}, pb))
            NORMLAB_LAUNCH(bc::grid<bc::kPack>(rows, n), bc::kThreads, st, bc::gelu_backward<bc::kPack, T>)(hp, dap, dhp, pb, rows, n);
        else
            NORMLAB_LAUNCH(bc::grid<1>(rows, n), bc::kThreads, st, bc::gelu_backward<1, T>)(hp, dap, dhp, pb, rows, n);
    });
}

void heads_backward(const HeadGrads& z, void* dproj, float* pb, bool bf16, void* stream) {
    const int64_t rows = z.B * z.T, n = 3 * z.H * z.dh;
    if (rows == 0 || n == 0) return;
    by_storage(bf16, [&](auto tag) {
        using T = decltype(tag);
        namespace bc = bias_cols;
        const auto st = static_cast<cudaStream_t>(stream);
        bool strides = z.dh % bc::kPack == 0;
        for (int p = 0; p < 3; ++p) strides = strides && z.sb[p] % bc::kPack == 0 && z.sh[p] % bc::kPack == 0 && z.st[p] % bc::kPack == 0;
        const auto out = static_cast<T*>(dproj);
        if (strides && bc::packs<T>(n, {z.g[0], z.g[1], z.g[2], dproj}, pb))
            NORMLAB_LAUNCH(bc::grid<bc::kPack>(rows, n), bc::kThreads, st, bc::heads_backward<bc::kPack, T>)(z, out, pb);
        else
            NORMLAB_LAUNCH(bc::grid<1>(rows, n), bc::kThreads, st, bc::heads_backward<1, T>)(z, out, pb);
    });
}

}  // namespace normlab::cuda_kernels
