// NormLab core: the numeric precision a run trains in (train.precision).
//
//   fp32  every operation in float32 (the default; traces are bit-stable).
//   tf32  float32 tensors, matrix products on the GPU's TF32 tensor cores
//         (10-bit mantissa inputs, fp32 accumulation); on the CPU the same as fp32.
//   bf16  autocast: matrix products and attention in bfloat16, everything else
//         in float32 — master weights, gradients, optimizer state, the norms'
//         statistics (LayerNorm/RMSNorm run on the fp32 residual stream),
//         softmax and the loss (logits are upcast before cross-entropy), nGPT's
//         normalizations, residual updates and scalers (branch outputs are
//         upcast before them), and every probe.
//
// Only the forward pass runs under autocast; the backward follows what it
// recorded. Checkpoints hold fp32 weights in every precision, so a run may
// be resumed, or its weights loaded, in another.
#pragma once

#include <string>

namespace normlab {

// Process-wide TF32 switches for the run's lifetime, restored on destruction.
class PrecisionSetting {
public:
    PrecisionSetting(const std::string& precision, bool cuda);
    ~PrecisionSetting();
    PrecisionSetting(const PrecisionSetting&) = delete;
    PrecisionSetting& operator=(const PrecisionSetting&) = delete;

private:
    bool restore_ = false, cublas_ = false, cudnn_ = false;
};

// bf16 autocast on this thread for one forward pass (a no-op for fp32/tf32).
// Its cache of casted weights is cleared when the outermost scope ends, so
// an optimizer step is always seen by the next forward.
class AutocastScope {
public:
    AutocastScope(const std::string& precision, bool cuda);
    ~AutocastScope();
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool active_ = false, cuda_ = false, was_enabled_ = false;
    int was_dtype_ = 0;
};

// Autocast off on this thread for a scope inside an autocast forward: a probe
// computed in float32 from the forward's tensors (the max-logit probe).
class AutocastOff {
public:
    explicit AutocastOff(bool cuda);
    ~AutocastOff();
    AutocastOff(const AutocastOff&) = delete;
    AutocastOff& operator=(const AutocastOff&) = delete;

private:
    bool cuda_ = false, was_enabled_ = false;
};

// Whether a CUDA linear layer on this thread takes its input in bfloat16 (bf16
// autocast on for CUDA): a fused kernel feeding one may then write its output
// in bfloat16 itself — the rounding autocast would apply before the product.
bool cuda_autocast_bf16();

}  // namespace normlab
