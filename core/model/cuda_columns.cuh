// NormLab core: the kernels that run a thread a column over a chunk of rows
// (kernel_bodies::row_chunks), their grid, and SwiGLU's bodies' kernels.
// Included by cuda_kernels.cu, which also runs the column sums of the
// LayerNorms' backward on this grid, and by tests/test_cuda_emulated.cpp,
// which launches SwiGLU's bodies' kernels beside the two-columns-a-thread
// ones (cuda_swiglu_pairs.cuh) to compare their bits. No LibTorch here.
#pragma once

#include "core/model/cuda_block_rows.cuh"   // block_rows::kBlock, the threads a block
#include "core/model/cuda_kernel_bodies.h"

namespace normlab::cuda_kernels::columns {

namespace kb = normlab::kernel_bodies;

constexpr int kThreads = block_rows::kBlock;

// The column and the chunk of rows of this thread; false past the last column.
__device__ __forceinline__ bool column_chunk(int64_t rows, int64_t f, int64_t& j, int64_t& r0, int64_t& r1) {
    j = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
    r0 = blockIdx.y * kb::rows_per_chunk(rows);
    r1 = kb::chunk_end(blockIdx.y, rows);
    return j < f;
}

// f columns of blocks of kThreads, a chunk of rows each row of the grid.
inline dim3 grid(int64_t rows, int64_t f) {
    return dim3(static_cast<unsigned>((f + kThreads - 1) / kThreads), static_cast<unsigned>(kb::row_chunks(rows)));
}

template <class T>
__global__ void swiglu_forward(const T* h, const float* su, const float* sv, T* a, int64_t rows, int64_t f) {
    int64_t j, r0, r1;
    if (column_chunk(rows, f, j, r0, r1)) kb::swiglu_forward_column(h, su, sv, a, r0, r1, j, f);
}

template <class T>
__global__ void swiglu_backward(const T* h, const float* su, const float* sv, const T* da, T* dh, float* psu,
                                float* psv, int64_t rows, int64_t f) {
    int64_t j, r0, r1;
    if (column_chunk(rows, f, j, r0, r1))
        kb::swiglu_backward_column(h, su, sv, da, dh, psu + blockIdx.y * f + j, psv + blockIdx.y * f + j, r0, r1, j, f);
}

}  // namespace normlab::cuda_kernels::columns
