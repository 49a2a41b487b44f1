// NormLab core (internal, LibTorch ≥ 2): the training step in a form a CUDA
// graph can capture (train.cuda_graph), and the graph itself.
//
// A captured step is replayed with one launch instead of the ~1,000 kernel
// launches of an eager one, which bound the step of a small model on a GPU.
// What capture needs, and this step gives:
//   * static inputs: the batch is copied into one device buffer, the learning
//     rate into a device scalar, before every replay;
//   * no host synchronisation inside: the gradient norm, the clipping factor
//     (min(1, clip / (‖g‖ + 1e-6)), as PyTorch's clip_grad_norm_) and Adam's
//     bias corrections (from a device step count) stay on the device; the loss
//     and the norm are read once, after the step;
//   * gradients written by the captured backward into the graph's pool (dropped
//     before capture, as PyTorch's whole-network capture does), so their
//     addresses never change; eager steps zero them in place and accumulate;
//   * the optimizer state the optimizer's own (checkpoints unchanged), its
//     host step counts advanced beside the device one.
// Probe steps (which read activations and gradients mid-step) and the steps
// before capture run the same functions eagerly, so the arithmetic is the
// same in every step. On a CPU, or where capture is not wanted, every step is
// eager: that is what the CPU tests compare with the ordinary step.
//
// Not captured (the ordinary step runs): dropout (its masks are reseeded each
// step), data-parallel training (gradient all-reduce), SGD and AMSGrad.
// BranchNorm's α_t is a device scalar the step reads (GPTImpl::use_branch_tensor),
// filled before each step, so its schedule runs inside the graph too; so is
// the branches' rate lr·α_t where branchnorm.scale_updates scales their step.
#pragma once

#include "core/config.h"
#include "core/model/gpt.h"

#include <torch/torch.h>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace normlab::train_detail {

// Whether this build can capture CUDA graphs (LibTorch 2.x with CUDA).
bool cuda_graphs_built();
// Why the static step cannot train this run ("" when it can); data_parallel:
// the run has more than one process.
std::string static_step_unsupported(const RunConfig& cfg, bool data_parallel);

class StaticStep {
public:
    using Forward = std::function<torch::Tensor(const torch::Tensor&, ForwardCapture*)>;
    // capture: record a CUDA graph (CUDA devices only); force: capture even
    // when the memory check says the graph and an eager probe step would not
    // both fit (train.cuda_graph = "on").
    StaticStep(GPT& model, torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& params,
               const RunConfig& cfg, const torch::Device& device, bool capture, bool force, Forward forward);
    ~StaticStep();
    StaticStep(const StaticStep&) = delete;
    StaticStep& operator=(const StaticStep&) = delete;

    // A whole step on tokens (B, T+1): replayed when captured, else eager.
    // Returns the loss and the gradient norm (before clipping).
    std::pair<double, double> step(const torch::Tensor& tokens, double lr, double branch_alpha, int64_t s);
    // The same step in two halves, so that the next one can be queued on the
    // device before this one's numbers are read (the training loop's step
    // ahead): launch() queues the step and the copy of its loss and norm into
    // page-locked host memory; collect() waits for the oldest step launched
    // and returns its loss and gradient norm. At most two steps are pending.
    void launch(const torch::Tensor& tokens, double lr, double branch_alpha, int64_t s);
    std::pair<double, double> collect();
    size_t pending() const { return pending_.size(); }
    void drain();   // waits for every pending step; their numbers are dropped
    // A probe step, eagerly, in two halves: forward and backward (returns the
    // loss), then — after the probes have read the gradients — clipping and
    // the update (returns the gradient norm).
    double forward_backward(const torch::Tensor& tokens, double branch_alpha, ForwardCapture* cap);
    double clip_update(double lr, double branch_alpha);

    // Called right before capture begins: whatever else in the process makes
    // CUDA calls on other threads must finish them first (the batches
    // gathered ahead, batch_ahead.h).
    void set_before_capture(std::function<void()> f) { before_capture_ = std::move(f); }

    // What became of capture, for the run's info: "captured at step N (X MiB)",
    // "not captured: …", or "" while undecided.
    const std::string& state() const { return state_; }
    bool captured() const;

    struct Graph;   // the side stream and the captured graph (CUDA builds)

private:
    void compute(ForwardCapture* cap);   // forward, loss, backward: static in, static out
    void update();                       // norm, clip, optimizer, renormalization
    void load(const torch::Tensor& tokens, double lr, double branch_alpha);
    void fill_rates(double lr, double branch_alpha);
    void advance_host_steps();
    bool try_capture(int64_t s);

    GPT& model_;
    torch::optim::Optimizer& opt_;
    std::vector<torch::Tensor> params_;
    const RunConfig& cfg_;
    const torch::Device device_;
    const bool capture_, force_;
    Forward forward_;
    std::function<void()> before_capture_;
    torch::Tensor tokens_, lr_, step_, out_;   // out_: [loss, gradient norm]
    torch::Tensor host_out_[2];                // out_'s copies on the host, a slot a pending step
    std::deque<int> pending_;                  // the slots of the steps launched and not collected, oldest first
    int next_slot_ = 0;
    torch::Tensor branch_alpha_;               // BranchNorm's α_t, read by the model (undefined without BranchNorm)
    torch::Tensor branch_lr_;                  // lr·α_t for the branches' groups (branchnorm.scale_updates; else undefined)
    std::vector<torch::Tensor> group_lr_;      // each optimizer group's rate: lr_ or branch_lr_
    std::unique_ptr<Graph> graph_;
    int eager_steps_ = 0;
    double step_extra_bytes_ = 0;            // a step's peak allocation above what was held before it
    std::string state_;
};

}  // namespace normlab::train_detail
