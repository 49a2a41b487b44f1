// NormLab core: what the CUDA kernels' translation units share (cuda_kernels.cu,
// cuda_bias_kernels.cu): CUDA's headers and the launch macro, bfloat16 read and
// written through kernel_bodies::Io, and one launch written for both storage
// types. tests/simt_emulator.h, included before it, stands in for CUDA: it
// declares what CUDA would (the grid's indices, the warp's shuffle, the block's
// barrier, __nv_bfloat16) and launches through NORMLAB_LAUNCH.
#pragma once

#include "core/model/cuda_kernel_bodies.h"

#ifndef NORMLAB_SIMT
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#define NORMLAB_LAUNCH(grid, block, stream, ...) __VA_ARGS__<<<grid, block, 0, stream>>>
#endif

namespace normlab::kernel_bodies {
template <>
struct Io<__nv_bfloat16> {
    __host__ __device__ static float ld(__nv_bfloat16 v) { return __bfloat162float(v); }
    __host__ __device__ static __nv_bfloat16 st(float v) { return __float2bfloat16_rn(v); }
};
}  // namespace normlab::kernel_bodies

namespace normlab::cuda_kernels {
// Calls f with a value of the storage type: one launch written for both.
template <class F>
void by_storage(bool bf16, F&& f) {
    if (bf16) f(__nv_bfloat16{});
    else f(float{});
}
}  // namespace normlab::cuda_kernels
