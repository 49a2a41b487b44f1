// NormLab core: the capture-safe training step and its CUDA graph (see static_step.h).
#include "core/train/static_step.h"

#include "core/errors.h"
#include "core/model/profile_scope.h"
#include "core/train/precision.h"
#include "core/train/recorder.h"

#include <spdlog/spdlog.h>
#include <torch/version.h>

#include <cmath>

#ifdef NORMLAB_CUDA_GRAPHS
#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAGuard.h>
#endif

namespace normlab::train_detail {

bool cuda_graphs_built() {
#ifdef NORMLAB_CUDA_GRAPHS
    return true;
#else
    return false;
#endif
}

std::string static_step_unsupported(const RunConfig& cfg, bool data_parallel) {
    if (TORCH_VERSION_MAJOR < 2)
        return "this build's LibTorch (" TORCH_VERSION ") has no device-side optimizer arithmetic; the LibTorch 2.x build has";
    if (data_parallel) return "a data-parallel run all-reduces its gradients between backward and update";
    if (cfg.model.dropout > 0) return "model.dropout is " + std::to_string(cfg.model.dropout) + " (its masks are reseeded every step)";
    if (cfg.optim.kind == OptimizerKind::SGD) return "optim.kind is sgd (the static step has Adam and AdamW)";
    return "";
}

#if TORCH_VERSION_MAJOR >= 2

// ---- the CUDA side: a side stream every static step runs on, and the graph
struct StaticStep::Graph {
#ifdef NORMLAB_CUDA_GRAPHS
    explicit Graph(c10::DeviceIndex i) : index(i), stream(c10::cuda::getStreamFromPool(false, i)) {}
    c10::DeviceIndex index;
    c10::cuda::CUDAStream stream;
    std::unique_ptr<at::cuda::CUDAGraph> graph;
    at::cuda::CUDAEvent copied[2];   // a pending step's loss and norm are on the host
#endif
};

namespace {
#ifdef NORMLAB_CUDA_GRAPHS
// The enclosed work on the graph's side stream, after what the current
// stream has queued and before what it queues next (PyTorch's torch.cuda.graph
// warms up and captures on a side stream the same way).
class OnSideStream {
public:
    explicit OnSideStream(StaticStep::Graph* g) : g_(g) {
        if (!g_) return;
        prev_ = c10::cuda::getCurrentCUDAStream(g_->index);
        at::cuda::CUDAEvent before;
        before.record(*prev_);
        before.block(g_->stream);
        guard_.emplace(g_->stream);
    }
    ~OnSideStream() {
        if (!g_) return;
        guard_.reset();
        at::cuda::CUDAEvent after;
        after.record(g_->stream);
        after.block(*prev_);
    }

private:
    StaticStep::Graph* g_;
    std::optional<c10::cuda::CUDAStream> prev_;
    std::optional<c10::cuda::CUDAStreamGuard> guard_;
};
double allocated_bytes(c10::DeviceIndex i, bool peak) {
    const auto st = c10::cuda::CUDACachingAllocator::getDeviceStats(i).allocated_bytes[0];   // aggregate
    return static_cast<double>(peak ? st.peak : st.current);
}
#else
struct OnSideStream {
    explicit OnSideStream(StaticStep::Graph*) {}
};
#endif
}  // namespace

StaticStep::StaticStep(GPT& model, torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params,
                       const RunConfig& cfg, const torch::Device& device, bool capture, bool force, Forward forward)
    : model_(model), opt_(opt), params_(params), cfg_(cfg), device_(device), capture_(capture && device.is_cuda()),
      force_(force), forward_(std::move(forward)) {
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat).device(device);
    tokens_ = torch::zeros({cfg.train.batch_size, cfg.model.context + 1}, torch::TensorOptions().dtype(torch::kLong).device(device));
    lr_ = torch::zeros({}, f32);
    step_ = torch::full({}, static_cast<double>(optimizer_steps_done(opt, false)), f32);   // a resume's count
    out_ = torch::zeros({2}, f32);
    for (auto& h : host_out_) {
        h = torch::zeros({2}, torch::kFloat);
        if (device.is_cuda()) h = h.pin_memory();   // copied into without a synchronisation (before any capture)
    }
    // BranchNorm's α_t as a device scalar the step reads, filled before each one: the graph follows its schedule
    if (cfg.model.branchnorm.enabled) {
        branch_alpha_ = torch::zeros({}, f32);
        model_->use_branch_tensor(branch_alpha_);
    }
    // Each optimizer group's learning rate: lr_, or with branchnorm.scale_updates lr·α_t for the
    // branches' groups, a device scalar of its own filled beside lr_ (as the ordinary step sets it)
    const std::vector<bool> branch = branch_groups(opt, model);
    for (size_t i = 0; i < opt.param_groups().size(); ++i) {
        const bool scaled = i < branch.size() && branch[i];
        if (scaled && !branch_lr_.defined()) branch_lr_ = torch::zeros({}, f32);
        group_lr_.push_back(scaled ? branch_lr_ : lr_);
    }
#ifdef NORMLAB_CUDA_GRAPHS
    if (capture_) graph_ = std::make_unique<Graph>(device.has_index() ? device.index() : c10::cuda::current_device());
#else
    if (capture_) state_ = "not captured: this build has no CUDA graphs (the LibTorch 2.x build with CUDA has)";
#endif
}

StaticStep::~StaticStep() {
    if (branch_alpha_.defined()) model_->use_branch_tensor(torch::Tensor());   // the model steps on by the number
}

bool StaticStep::captured() const {
#ifdef NORMLAB_CUDA_GRAPHS
    return graph_ && graph_->graph;
#else
    return false;
#endif
}

// ---- compute: forward in the run's precision, the loss, backward into the kept gradients
void StaticStep::compute(ForwardCapture* cap) {
    {
        const ProfileScope scope("normlab::zero_grad");
        std::vector<torch::Tensor> grads;
        for (auto& p : params_)
            if (p.grad().defined()) grads.push_back(p.grad());
        if (!grads.empty()) at::_foreach_zero_(grads);   // in place: the addresses a graph captured stay
    }
    const int64_t T = cfg_.model.context;
    auto loss = GPTImpl::loss(forward_(tokens_.narrow(1, 0, T), cap), tokens_.narrow(1, 1, T));
    loss.backward();
    torch::NoGradGuard ng;
    out_.select(0, 0).copy_(loss.detach());
}

// ---- update: the gradient norm, clipping, the optimizer, nGPT's renormalization — all on the device
void StaticStep::update() {
    torch::NoGradGuard ng;
    auto norm = grad_norm(params_, true);
    out_.select(0, 1).copy_(norm);
    if (cfg_.optim.grad_clip > 0) {
        const ProfileScope scope("normlab::grad_norm");
        std::vector<torch::Tensor> grads;
        for (auto& p : params_)
            if (p.grad().defined()) grads.push_back(p.grad());
        if (!grads.empty()) at::_foreach_mul_(grads, (cfg_.optim.grad_clip / (norm + 1e-6)).clamp_max(1.0));
    }
    optimizer_step_on_device(opt_, group_lr_, step_, device_.is_cuda());   // fused kernels on a GPU
    if (cfg_.model.ngpt.renormalize) model_->renormalize();
}

void StaticStep::load(const torch::Tensor& tokens, double lr, double branch_alpha) {
    tokens_.copy_(tokens, /*non_blocking=*/true);
    fill_rates(lr, branch_alpha);
}

void StaticStep::fill_rates(double lr, double branch_alpha) {
    lr_.fill_(lr);
    if (branch_lr_.defined()) branch_lr_.fill_(lr * branch_alpha);   // in double, as TrainLoop::schedule
}

void StaticStep::advance_host_steps() { optimizer_steps_done(opt_, true); }

std::pair<double, double> StaticStep::step(const torch::Tensor& tokens, double lr, double branch_alpha, int64_t s) {
    launch(tokens, lr, branch_alpha, s);
    return collect();
}

std::pair<double, double> StaticStep::collect() {
    TORCH_CHECK(!pending_.empty(), "StaticStep::collect: no step was launched");
    const int k = pending_.front();
    pending_.pop_front();
#ifdef NORMLAB_CUDA_GRAPHS
    if (graph_) graph_->copied[k].synchronize();   // the step's one synchronisation
#endif
    const float* v = host_out_[k].data_ptr<float>();
    return {v[0], v[1]};
}

void StaticStep::drain() {
    while (!pending_.empty()) collect();
}

void StaticStep::launch(const torch::Tensor& tokens, double lr, double branch_alpha, int64_t s) {
    TORCH_CHECK(pending_.size() < 2, "StaticStep::launch: two steps are pending already");
    {
        OnSideStream on(graph_.get());
        model_->set_branch_alpha(branch_alpha);   // into branch_alpha_, which the graph reads, on this stream
        load(tokens, lr, branch_alpha);
        if (!captured() && capture_ && state_.empty()) try_capture(s);
        if (captured()) {
#ifdef NORMLAB_CUDA_GRAPHS
            graph_->graph->replay();
#endif
        } else {
#ifdef NORMLAB_CUDA_GRAPHS
            const bool measure = capture_ && !captured();
            double before = 0;
            if (measure) {
                c10::cuda::CUDACachingAllocator::resetPeakStats(graph_->index);
                before = allocated_bytes(graph_->index, false);
            }
#endif
            compute(nullptr);
            update();
            ++eager_steps_;
#ifdef NORMLAB_CUDA_GRAPHS
            if (measure) step_extra_bytes_ = allocated_bytes(graph_->index, true) - before;
#endif
        }
        // The loss and the norm on their way to the host, behind the step on its stream (the next
        // step, queued after it, cannot overwrite out_ before they are copied).
        const int k = pending_.empty() ? next_slot_ : 1 - pending_.back();
        host_out_[k].copy_(out_, /*non_blocking=*/graph_ != nullptr);
#ifdef NORMLAB_CUDA_GRAPHS
        if (graph_) graph_->copied[k].record(graph_->stream);
#endif
        pending_.push_back(k);
        next_slot_ = 1 - k;
    }
    advance_host_steps();
}

double StaticStep::forward_backward(const torch::Tensor& tokens, double branch_alpha, ForwardCapture* cap) {
    TORCH_CHECK(pending_.empty(), "StaticStep::forward_backward: a step launched before is not collected");
    {
        OnSideStream on(graph_.get());
        model_->set_branch_alpha(branch_alpha);
        tokens_.copy_(tokens, true);
        compute(cap);
    }
    return out_[0].item<double>();
}

double StaticStep::clip_update(double lr, double branch_alpha) {
    {
        OnSideStream on(graph_.get());
        fill_rates(lr, branch_alpha);
        update();
    }
    ++eager_steps_;   // a probe step warms up as well as any
    advance_host_steps();
    return out_[1].item<double>();
}

// Captures the step once the eager steps before it have made the optimizer's
// state, the gradients and the libraries' workspaces (PyTorch warms up 3
// steps before capture too), when the graph's memory and an eager probe
// step's would both fit. Runs inside OnSideStream.
bool StaticStep::try_capture(int64_t s) {
#ifdef NORMLAB_CUDA_GRAPHS
    if (eager_steps_ < 3) return false;
    const double total = static_cast<double>(at::cuda::getDeviceProperties(graph_->index)->totalGlobalMem);
    const double held = allocated_bytes(graph_->index, false);
    const double need = held + 2 * step_extra_bytes_;
    const auto gib = [](double b) { return b / (1 << 30); };
    // ... and in what is free now: other processes may share the GPU (several runs side by side)
    size_t free_now = 0, total_now = 0;
    {
        c10::cuda::CUDAGuard on_device(graph_->index);
        if (cudaMemGetInfo(&free_now, &total_now) != cudaSuccess) (void)cudaGetLastError();
    }
    const auto reserved = c10::cuda::CUDACachingAllocator::getDeviceStats(graph_->index).reserved_bytes[0].current;
    const double available = static_cast<double>(free_now) + (static_cast<double>(reserved) - held);
    const bool others_hold = total_now > 0 && 2 * step_extra_bytes_ > available - 0.05 * total;
    if (!force_ && (need > 0.9 * total || others_hold)) {
        char why[240];
        if (need > 0.9 * total)
            std::snprintf(why, sizeof why, "not captured: the graph and an eager probe step would need %.1f GiB of %.1f GiB",
                          gib(need), gib(total));
        else
            std::snprintf(why, sizeof why, "not captured: the graph and an eager probe step would need %.1f GiB more, "
                          "%.1f GiB of %.1f GiB are free (other processes hold the rest)",
                          gib(2 * step_extra_bytes_), gib(available), gib(total));
        state_ = why;
        spdlog::info("{} (train.cuda_graph \"on\" captures regardless)", state_);
        return false;
    }
    if (before_capture_) before_capture_();
    c10::cuda::device_synchronize();
    // The eager steps' activations, freed, are still the allocator's (reserved): hand them back before
    // the graph's pool takes a step's worth of its own (as torch.cuda.graph does), so that a run without
    // eager steps after the capture holds one step's activations, not two. A probe step later takes
    // its own again.
    // The gradients as the captured backward writes them: dropped here, each becomes its last backward
    // kernel's output in the graph's pool (autograd takes it over as the gradient), which every replay
    // writes afresh — not zeroed and then accumulated into (a memset and an add a parameter, ~1 GB of
    // traffic a step at GPT-2 small's shape). PyTorch's whole-network capture sets them to None the
    // same way. Eager steps after it zero those tensors in place and accumulate, as before.
    for (auto& p : params_) p.mutable_grad() = torch::Tensor();
    c10::cuda::CUDACachingAllocator::emptyCache();
    const bool cache = at::autocast::is_autocast_cache_enabled();
    at::autocast::set_autocast_cache_enabled(false);   // casts are captured, not cached across replays
    auto graph = std::make_unique<at::cuda::CUDAGraph>();
    bool begun = false;
    try {
        // Thread-local capture mode: other threads' CUDA calls (the window's device
        // line, a run being queued, the helper gathering batches) neither fail
        // nor invalidate the capture, as they would in CUDA's global mode.
        graph->capture_begin({0, 0}, cudaStreamCaptureModeThreadLocal);
        begun = true;
        compute(nullptr);
        update();
        graph->capture_end();
        begun = false;
        for (auto& p : params_)   // a parameter without one would lose its weight decay and moments' decay
            if (!p.grad().defined()) throw std::runtime_error("a parameter got no gradient in the captured step");
    } catch (const std::exception& e) {
        // Something in the step could not be captured: end the capture (and the
        // allocator's routing into its pool), drop it, and keep training eagerly.
        at::autocast::set_autocast_cache_enabled(cache);
        if (begun) {
            try {
                graph->capture_end();
            } catch (const std::exception&) {
            }
        }
        graph.reset();
        (void)cudaGetLastError();
        const std::string what = dynamic_cast<const c10::Error*>(&e) ? static_cast<const c10::Error&>(e).what_without_backtrace()
                                                                    : e.what();
        state_ = "not captured: capture failed (" + what.substr(0, 300) + "); training eagerly";
        spdlog::warn("{}", state_);
        return false;
    }
    at::autocast::set_autocast_cache_enabled(cache);
    graph_->graph = std::move(graph);
    char what[160];
    std::snprintf(what, sizeof what, "captured at step %lld (a step holds %.0f MiB beyond the weights)",
                  static_cast<long long>(s), step_extra_bytes_ / (1 << 20));
    state_ = what;
    spdlog::info("the training step is a CUDA graph: {}", state_);
    return true;
#else
    return false;
#endif
}

#else   // LibTorch 1.x: no static step (static_step_unsupported says so before a run starts)

struct StaticStep::Graph {};
StaticStep::StaticStep(GPT& model, torch::optim::Optimizer& opt, const std::vector<torch::Tensor>&, const RunConfig& cfg,
                       const torch::Device& device, bool, bool, Forward)
    : model_(model), opt_(opt), cfg_(cfg), device_(device), capture_(false), force_(false) {
    throw RunError(static_step_unsupported(cfg, false));
}
StaticStep::~StaticStep() = default;
bool StaticStep::captured() const { return false; }
std::pair<double, double> StaticStep::step(const torch::Tensor&, double, double, int64_t) { return {0, 0}; }
void StaticStep::launch(const torch::Tensor&, double, double, int64_t) {}
std::pair<double, double> StaticStep::collect() { return {0, 0}; }
void StaticStep::drain() {}
double StaticStep::forward_backward(const torch::Tensor&, double, ForwardCapture*) { return 0; }
double StaticStep::clip_update(double, double) { return 0; }

#endif

}  // namespace normlab::train_detail
