// NormLab core: how much arithmetic a training step is, and how much the
// device could do — model-FLOPs utilisation (MFU), as nanoGPT's
// estimate_mfu and PaLM's Appendix B count it. No LibTorch.
#pragma once

#include "core/config.h"

#include <string>

namespace normlab {

// FLOPs per trained token: 6 × the weights every token is multiplied by
// (attention's q, k, v and output matrices, the MLP's, the output
// projection; not the embedding lookup, norms, biases or scalers) plus
// 12 · L · T · d for attention's scores and weighted values over the full
// context (forward 1×, backward 2×).
double training_flops_per_token(const ModelConfig& m);

// The dense matmul peak, FLOP/s, of a GPU named like "NVIDIA H100 80GB HBM3"
// (as CUDA names it) at `precision` — "fp32", "tf32" or "bf16" — from its
// vendor's data sheet; 0 when the device is not in the table.
double device_peak_flops(const std::string& device_name, const std::string& precision);

// MFU of a step: flops_per_token × tokens_per_s / peak (0 when peak is 0).
inline double mfu(double flops_per_token, double tokens_per_s, double peak) {
    return peak > 0 ? flops_per_token * tokens_per_s / peak : 0.0;
}

}  // namespace normlab
