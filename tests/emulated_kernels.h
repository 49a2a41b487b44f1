// NormLab's CUDA kernels on fibers (tests/simt_emulator.h): tests/emulated_kernels.cpp
// compiles core/model/cuda_kernels.cu and cuda_bias_kernels.cu with the emulator
// once (normlab_emulated_kernels), so that their launch functions run on CPU
// tensors, called one at a time (tests/test_cuda_emulated.cpp) or by the
// autograd operations of cuda_ops.cpp for a whole model
// (tests/test_cuda_model_emulated.cpp). Kept apart from the emulator's macros
// (threadIdx, __shared__, …), which only the files that include it see.
#pragma once

#include <cstdint>
#include <string>

namespace normlab::test::emulated {

// Kernels launched since the program started.
int64_t launches();
// What the emulator found a GPU would leave undefined since the last call ("" when nothing), cleared.
std::string take_errors();

}  // namespace normlab::test::emulated
