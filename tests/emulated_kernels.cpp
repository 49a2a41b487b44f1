// The launch functions of NormLab's CUDA kernels, defined here for the CPU:
// the .cu files as they are, after the emulator that stands in for CUDA
// (tests/emulated_kernels.h).
#include "tests/emulated_kernels.h"

#include "tests/simt_emulator.h"
// after the emulator, which stands in for CUDA:
#include "core/model/cuda_kernels.cu"
#include "core/model/cuda_bias_kernels.cu"

namespace normlab::test::emulated {

int64_t launches() { return simt::launches().load(); }

std::string take_errors() { return simt::take_errors(); }

}  // namespace normlab::test::emulated
