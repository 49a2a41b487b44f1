// normlab-bench train --profile TRACE.json: the run under LibTorch's Kineto
// profiler (CPU ops and CUDA kernels), written as a Chrome trace that
// bench/profile_summary.py sums per kernel beside the PyTorch peer's
// (peer.py --profile). LibTorch ≥ 2 only.
#include <torch/version.h>

#include <memory>
#include <stdexcept>
#include <string>

#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/autograd/profiler_kineto.h>

namespace normlab::bench {

namespace {
using torch::profiler::impl::ActivityType;
using torch::profiler::impl::ProfilerConfig;
using torch::profiler::impl::ProfilerState;
// input shapes: bench/trace_ops.py names each kernel by the operator and shape that launched it
ProfilerConfig config() { return ProfilerConfig(ProfilerState::KINETO, /*report_input_shapes=*/true); }
std::set<ActivityType> activities(bool cuda) {
    std::set<ActivityType> a{ActivityType::CPU};
    if (cuda) a.insert(ActivityType::CUDA);
    return a;
}
}  // namespace

// Kineto's warm-up: CUPTI's activity tracing on, nothing kept yet. Called before the run even when the
// trace starts later (--profile-from), so that CUPTI already traces when a CUDA graph is captured and
// instantiated: the kernels its replays launch are then traced one by one.
void profile_prepare(bool cuda) { torch::autograd::profiler::prepareProfiler(config(), activities(cuda)); }

void profile_start(bool cuda) { torch::autograd::profiler::enableProfiler(config(), activities(cuda)); }

void profile_stop(const std::string& path) { torch::autograd::profiler::disableProfiler()->save(path); }

}  // namespace normlab::bench
#else
namespace normlab::bench {
void profile_prepare(bool) { throw std::runtime_error("--profile needs LibTorch 2.x"); }
void profile_start(bool) {}
void profile_stop(const std::string&) {}
}  // namespace normlab::bench
#endif
