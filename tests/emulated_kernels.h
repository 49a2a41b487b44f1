// NormLab's CUDA kernels on fibers (tests/simt_emulator.h) for a whole
// model: tests/emulated_kernels.cpp compiles core/model/cuda_kernels.cu and
// cuda_bias_kernels.cu with the emulator, so that their launch functions, which
// the autograd operations of cuda_ops.cpp call, run on CPU tensors
// (tests/test_cuda_model_emulated.cpp). Kept apart from the emulator's macros
// (threadIdx, __shared__, …), which only that file sees.
#pragma once

#include <cstdint>
#include <string>

namespace normlab::test::emulated {

// Kernels launched since the program started.
int64_t launches();
// What the emulator found a GPU would leave undefined since the last call ("" when nothing), cleared.
std::string take_errors();

}  // namespace normlab::test::emulated
