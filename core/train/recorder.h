// NormLab core (internal, LibTorch): what the training loop is made of,
// apart from the loop — optimizers, gradient helpers and the recorder that
// writes every probe through a RunWriter.
#pragma once

#include "core/config.h"
#include "core/model/gpt.h"
#include "core/store/store.h"

#include <torch/torch.h>
#include <torch/version.h>

#include <memory>
#include <vector>

namespace normlab {

class Communicator;

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimConfig& o, GPT& model);
// Per group of make_optimizer's: whether it holds the branches' parameters, whose learning rate
// follows BranchNorm's α_t (model.branchnorm.scale_updates); empty where nothing does.
std::vector<bool> branch_groups(torch::optim::Optimizer& opt, GPT& model);
// Drops the gradients (LibTorch 1.13's zero_grad() zeroes them in place,
// which costs a memset and makes backward accumulate instead of assign).
void clear_grads(const std::vector<torch::Tensor>& params);
// optim_step.cpp. multi_tensor: the _foreach kernels, a few launches for all
// parameters instead of several per parameter (what the trainer uses on a GPU).
// Global L2 norm of all gradients (a device scalar; no host sync).
torch::Tensor grad_norm(const std::vector<torch::Tensor>& params, bool multi_tensor = false);
// Multiplies every gradient by scale (clipping).
void scale_grads(const std::vector<torch::Tensor>& params, double scale, bool multi_tensor = false);
// One step of the optimizer: Adam and AdamW as multi-tensor kernels with the
// arithmetic of LibTorch's loop and its own state; anything else (SGD,
// AMSGrad) through LibTorch's step().
void optimizer_step(torch::optim::Optimizer& opt, bool multi_tensor);
#if TORCH_VERSION_MAJOR >= 2
// The same Adam/AdamW step with the learning rate and the step count as
// device scalars (step is advanced first): what a CUDA graph can replay
// (static_step.h). Leaves the states' host step counts alone. fused: PyTorch's
// fused Adam/AdamW kernels (what the static step uses on a GPU); otherwise
// _foreach kernels.
void optimizer_step_on_device(torch::optim::Optimizer& opt, const torch::Tensor& lr, const torch::Tensor& step,
                              bool fused = false);
// The same with a learning rate for each of the optimizer's groups (lrs[i]: group i's).
void optimizer_step_on_device(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& lrs, const torch::Tensor& step,
                              bool fused = false);
// The optimizer's step count (the largest of its states'; 0 before the
// first step), after advancing every state's by one when `advance`.
int64_t optimizer_steps_done(torch::optim::Optimizer& opt, bool advance);
#endif

// Throws RunError saying why when `info` cannot be trained (resume: resumed) now.
void require_trainable(const RunInfo& info, bool resume);

// Writes the probes of one step; every probe gathers its device tensors and
// copies them to the host once.
struct Recorder {
    RunWriter& w;
    // Data-parallel: forward probes are means over this rank's slice (or a
    // maximum) and are combined over the ranks into the global batch's value.
    Communicator* comm = nullptr;
    // Per-layer, per-weight gradient L1 (mean |g|) and L2 (Frobenius) norms.
    void gradients(GPT& model, int64_t step, const char* l1_name, const char* l2_name);
    void forward(const ForwardCapture& c, int64_t step);
    void gains(GPT& model, int64_t step, int bins);
    // σ_max/σ_min; q, k, v per head ((d_h, d) slices), reported as the median over heads.
    void conditions(GPT& model, int64_t step);
    // nGPT Fig. 4: eigenvalues of each embedding's covariance, divided by their median.
    void embedding_spectrum(GPT& model, int64_t step, int bins);
};

}  // namespace normlab
