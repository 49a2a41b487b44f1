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

void profile_start(bool cuda) {
    using namespace torch::profiler::impl;
    // input shapes: bench/trace_ops.py names each kernel by the operator and shape that launched it
    const ProfilerConfig config(ProfilerState::KINETO, /*report_input_shapes=*/true);
    std::set<ActivityType> activities{ActivityType::CPU};
    if (cuda) activities.insert(ActivityType::CUDA);
    torch::autograd::profiler::prepareProfiler(config, activities);
    torch::autograd::profiler::enableProfiler(config, activities);
}

void profile_stop(const std::string& path) { torch::autograd::profiler::disableProfiler()->save(path); }

}  // namespace normlab::bench
#else
namespace normlab::bench {
void profile_start(bool) { throw std::runtime_error("--profile needs LibTorch 2.x"); }
void profile_stop(const std::string&) {}
}  // namespace normlab::bench
#endif
