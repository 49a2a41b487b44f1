// NormLab core: train.precision (see precision.h). Only ATen's autocast and
// context headers: no <torch/torch.h> in this translation unit.
#include "core/train/precision.h"

#include <ATen/Context.h>
#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace normlab {
namespace ac = at::autocast;

PrecisionSetting::PrecisionSetting(const std::string& precision, bool cuda) {
    if (!cuda) return;   // TF32 is a property of NVIDIA's tensor cores; the CPU computes fp32 regardless
    auto& ctx = at::globalContext();
    cublas_ = ctx.allowTF32CuBLAS();
    cudnn_ = ctx.allowTF32CuDNN();
    restore_ = true;
    const bool tf32 = precision == "tf32";   // bf16's own fp32 matmuls (none in the model) stay exact
    ctx.setAllowTF32CuBLAS(tf32);
    ctx.setAllowTF32CuDNN(tf32);
}

PrecisionSetting::~PrecisionSetting() {
    if (!restore_) return;
    auto& ctx = at::globalContext();
    ctx.setAllowTF32CuBLAS(cublas_);
    ctx.setAllowTF32CuDNN(cudnn_);
}

#if TORCH_VERSION_MAJOR * 100 + TORCH_VERSION_MINOR >= 204   // per-device autocast API
static bool enabled(bool cuda) { return ac::is_autocast_enabled(cuda ? at::kCUDA : at::kCPU); }
static void enable(bool cuda, bool on) { ac::set_autocast_enabled(cuda ? at::kCUDA : at::kCPU, on); }
static at::ScalarType dtype(bool cuda) { return ac::get_autocast_dtype(cuda ? at::kCUDA : at::kCPU); }
static void set_dtype(bool cuda, at::ScalarType t) { ac::set_autocast_dtype(cuda ? at::kCUDA : at::kCPU, t); }
#else   // LibTorch 1.13 (Debian): one switch per device kind
static bool enabled(bool cuda) { return cuda ? ac::is_enabled() : ac::is_cpu_enabled(); }
static void enable(bool cuda, bool on) { cuda ? ac::set_enabled(on) : ac::set_cpu_enabled(on); }
static at::ScalarType dtype(bool cuda) { return cuda ? ac::get_autocast_gpu_dtype() : ac::get_autocast_cpu_dtype(); }
static void set_dtype(bool cuda, at::ScalarType t) { cuda ? ac::set_autocast_gpu_dtype(t) : ac::set_autocast_cpu_dtype(t); }
#endif

AutocastScope::AutocastScope(const std::string& precision, bool cuda) : cuda_(cuda) {
    if (precision != "bf16") return;
    active_ = true;
    was_enabled_ = enabled(cuda);
    was_dtype_ = static_cast<int>(dtype(cuda));
    set_dtype(cuda, at::kBFloat16);
    enable(cuda, true);
    ac::increment_nesting();
}

AutocastScope::~AutocastScope() {
    if (!active_) return;
    if (ac::decrement_nesting() == 0) ac::clear_cache();
    enable(cuda_, was_enabled_);
    set_dtype(cuda_, static_cast<at::ScalarType>(was_dtype_));
}

bool cuda_autocast_bf16() { return enabled(true) && dtype(true) == at::kBFloat16; }

AutocastOff::AutocastOff(bool cuda) : cuda_(cuda), was_enabled_(enabled(cuda)) {
    if (was_enabled_) enable(cuda, false);
}

AutocastOff::~AutocastOff() {
    if (was_enabled_) enable(cuda_, true);
}

}  // namespace normlab
