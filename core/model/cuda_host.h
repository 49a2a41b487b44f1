// NormLab core: what the autograd operations around NormLab's CUDA kernels
// (cuda_ops.cpp, cuda_bias_ops.cpp) ask of the CUDA runtime on the host: the
// current stream, the device guard, whether a tensor is on a GPU the kernels
// were built for, and the check after a launch.
//
// With NORMLAB_CUDA_EMULATED (tests/test_cuda_model_emulated.cpp only) the
// same operations run on CPU tensors, their kernels on CPU threads
// (tests/simt_emulator.h): a CPU tensor counts as the kernels' device, and
// no CUDA header is read. CI has no GPU, so that is where the operations'
// autograd plumbing (their inputs, saved tensors and gradients' order) runs
// before a GPU ever sees it.
#pragma once

#include <torch/torch.h>

#ifndef NORMLAB_CUDA_EMULATED
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace normlab::cuda_host {

#ifndef NORMLAB_CUDA_EMULATED

using DeviceGuard = c10::cuda::CUDAGuard;
inline void* stream() { return c10::cuda::getCurrentCUDAStream().stream(); }
// On a GPU the kernels were built for: compute capability 8.0 or later
// (CMake builds sm_80 and sm_90 code and compute_80 PTX; bf16 needs Ampere). On
// an older GPU (a V100, a T4) the eager ops run instead of a failed launch.
inline bool kernel_device(const torch::Tensor& t) {
    return t.is_cuda() && at::cuda::getDeviceProperties(t.get_device())->major >= 8;
}
// A failed launch named where it was made, not at the next kernel.
#define NORMLAB_KERNEL_LAUNCH_CHECK() C10_CUDA_KERNEL_LAUNCH_CHECK()

#else

using DeviceGuard = c10::DeviceGuard;   // a CPU device: nothing to switch
inline void* stream() { return nullptr; }
inline bool kernel_device(const torch::Tensor& t) { return t.is_cpu(); }
// The emulator keeps what a GPU would leave undefined for the test to read.
#define NORMLAB_KERNEL_LAUNCH_CHECK() ((void)0)

#endif

}  // namespace normlab::cuda_host
