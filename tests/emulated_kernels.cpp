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

std::string take_errors() {
    const std::lock_guard<std::mutex> lock(simt::errors_mutex());
    std::string all;
    for (const auto& e : simt::errors()) all += e + "; ";
    simt::errors().clear();
    return all;
}

}  // namespace normlab::test::emulated
