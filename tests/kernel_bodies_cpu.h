// What the tests of NormLab's CUDA kernels share: the bodies of
// core/model/cuda_kernel_bodies.h with LibTorch's CPU bfloat16 as their
// bfloat16 storage, and how far a result is from its reference.
#pragma once

#include "core/model/cuda_kernel_bodies.h"

#include <QString>

#include <torch/torch.h>

#include <c10/util/BFloat16.h>

namespace normlab::kernel_bodies {
template <>
struct Io<c10::BFloat16> {
    static float ld(c10::BFloat16 v) { return static_cast<float>(v); }
    static c10::BFloat16 st(float v) { return c10::BFloat16(v); }   // round to nearest even, as __float2bfloat16_rn
};
}  // namespace normlab::kernel_bodies

namespace normlab::test {

// " off by <the largest absolute difference>", for a failure's message.
inline QString off(const torch::Tensor& a, const torch::Tensor& b) {
    return QString(" off by %1").arg((a.to(torch::kFloat) - b.to(torch::kFloat)).abs().max().item<double>());
}

}  // namespace normlab::test
