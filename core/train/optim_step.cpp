// The optimizer step and the gradient clipping, as multi-tensor (_foreach)
// kernels on a GPU.
//
// LibTorch's C++ Adam/AdamW loop over the parameters, issuing ~9 kernels for
// each: on a GPU a small model's step is then bound by kernel launches (~470
// for the small benchmark model). PyTorch's Python optimizers default to the
// multi-tensor ("foreach") implementation on CUDA; this is the same for the
// core: the arithmetic of LibTorch's loop (torch/csrc/api/src/optim/adamw.cpp),
// operation for operation, over all the parameters of a group at once. The
// state it reads and writes is the optimizer's own (AdamParamState /
// AdamWParamState), so checkpoints and resume are unchanged.
#include "core/model/profile_scope.h"
#include "core/train/recorder.h"

#include <ATen/ATen.h>
#include <torch/version.h>

#include <cmath>
#include <type_traits>

namespace normlab {

namespace {

// The optimizer's state key for a parameter: a string in LibTorch 1.x,
// the TensorImpl's address in 2.x.
template <class Map>
auto state_key(const torch::Tensor& p) {
#if TORCH_VERSION_MAJOR < 2
    return c10::guts::to_string(p.unsafeGetTensorImpl());
#else
    return static_cast<typename std::decay_t<Map>::key_type>(p.unsafeGetTensorImpl());
#endif
}

// Whether the multi-tensor path does what LibTorch's loop would for this
// group: not for AMSGrad, sparse gradients, or parameters at different step
// counts (all are at the same step in a NormLab run, resumed or not).
template <class Options, class State>
bool adam_eligible(torch::optim::Optimizer& opt, torch::optim::OptimizerParamGroup& group) {
    if (static_cast<Options&>(group.options()).amsgrad()) return false;
    auto& states = opt.state();
    int64_t step = -1;
    for (auto& p : group.params()) {
        if (!p.grad().defined()) continue;
        if (p.grad().is_sparse()) return false;
        auto it = states.find(state_key<decltype(states)>(p));
        const int64_t s = it == states.end() ? 0 : static_cast<State&>(*it->second).step();
        if (step >= 0 && s != step) return false;
        step = s;
    }
    return true;
}

// The optimizer's state of p, made (step 0, zero moments) if it has none yet.
template <class State>
State& adam_state(torch::optim::Optimizer& opt, const torch::Tensor& p) {
    auto& states = opt.state();
    auto key = state_key<decltype(states)>(p);
    auto it = states.find(key);
    if (it == states.end()) {
        auto s = std::make_unique<State>();
        s->step(0);
        s->exp_avg(torch::zeros_like(p, at::MemoryFormat::Preserve));
        s->exp_avg_sq(torch::zeros_like(p, at::MemoryFormat::Preserve));
        it = states.emplace(key, std::move(s)).first;
    }
    return static_cast<State&>(*it->second);
}

// Adam (decoupled = false) and AdamW over one parameter group.
template <class Options, class State>
void adam_group(torch::optim::Optimizer& opt, torch::optim::OptimizerParamGroup& group, bool decoupled) {
    auto& o = static_cast<Options&>(group.options());
    std::vector<torch::Tensor> params, grads, exp_avgs, exp_avg_sqs;
    for (auto& p : group.params()) {
        if (!p.grad().defined()) continue;
        params.push_back(p);
        grads.push_back(p.grad());
    }
    if (params.empty()) return;
    int64_t step = 0;   // the group's step count before this step (adam_eligible: the same for all)
    for (auto& p : params) {
        auto& s = adam_state<State>(opt, p);
        step = s.step();
        s.step(step + 1);
        exp_avgs.push_back(s.exp_avg());
        exp_avg_sqs.push_back(s.exp_avg_sq());
    }
    const double lr = o.lr(), wd = o.weight_decay(), eps = o.eps();
    const double beta1 = std::get<0>(o.betas()), beta2 = std::get<1>(o.betas());
    const double bias1 = 1 - std::pow(beta1, step + 1), bias2 = 1 - std::pow(beta2, step + 1);
    if (wd != 0) {
        if (decoupled) at::_foreach_mul_(params, 1 - lr * wd);   // AdamW: p ← p(1 − lr·λ)
        else grads = at::_foreach_add(grads, params, wd);        // Adam: g ← g + λp
    }
    at::_foreach_mul_(exp_avgs, beta1);                          // m ← β₁m + (1 − β₁)g
    at::_foreach_add_(exp_avgs, grads, 1 - beta1);
    at::_foreach_mul_(exp_avg_sqs, beta2);                       // v ← β₂v + (1 − β₂)g²
    at::_foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2);
    auto denom = at::_foreach_sqrt(exp_avg_sqs);                 // √v / √(1 − β₂ᵗ) + ε
    at::_foreach_div_(denom, std::sqrt(bias2));
    at::_foreach_add_(denom, eps);
    at::_foreach_addcdiv_(params, exp_avgs, denom, -lr / bias1);  // p ← p − lr/(1 − β₁ᵗ) · m / denom
}

#if TORCH_VERSION_MAJOR >= 2
// The same Adam/AdamW with the learning rate and the bias corrections as
// device scalars, so that a CUDA graph replays it with this step's values:
// lr, bias1 = 1 − β₁ᵗ, rbias2 = 1/√(1 − β₂ᵗ). The states must exist (the
// eager steps before capture make them); host step counts are not touched.
// fused: PyTorch's fused Adam/AdamW kernels (one launch a group; what
// torch.optim.AdamW(fused=True) runs), reading the same device step count.
template <class Options, class State>
void adam_group_device(torch::optim::Optimizer& opt, torch::optim::OptimizerParamGroup& group, bool decoupled,
                       const torch::Tensor& lr, const torch::Tensor& step, const torch::Tensor& step_size,
                       const torch::Tensor& rbias2, bool fused) {
    auto& o = static_cast<Options&>(group.options());
    std::vector<torch::Tensor> params, grads, exp_avgs, exp_avg_sqs;
    for (auto& p : group.params()) {
        if (!p.grad().defined()) continue;
        auto& s = adam_state<State>(opt, p);
        params.push_back(p);
        grads.push_back(p.grad());
        exp_avgs.push_back(s.exp_avg());
        exp_avg_sqs.push_back(s.exp_avg_sq());
    }
    if (params.empty()) return;
    const double wd = o.weight_decay(), eps = o.eps();
    const double beta1 = std::get<0>(o.betas()), beta2 = std::get<1>(o.betas());
    if (fused) {
        const std::vector<torch::Tensor> steps(params.size(), step);   // read, not advanced, by the kernel
        if (decoupled) at::_fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, {}, steps, lr, beta1, beta2, wd, eps, false, false);
        else at::_fused_adam_(params, grads, exp_avgs, exp_avg_sqs, {}, steps, lr, beta1, beta2, wd, eps, false, false);
        return;
    }
    if (wd != 0) {
        if (decoupled) at::_foreach_mul_(params, 1 - lr * wd);   // AdamW: p ← p(1 − lr·λ)
        else grads = at::_foreach_add(grads, params, wd);        // Adam: g ← g + λp
    }
    at::_foreach_mul_(exp_avgs, beta1);
    at::_foreach_add_(exp_avgs, grads, 1 - beta1);
    at::_foreach_mul_(exp_avg_sqs, beta2);
    at::_foreach_addcmul_(exp_avg_sqs, grads, grads, 1 - beta2);
    auto upd = at::_foreach_sqrt(exp_avg_sqs);                   // √v / √(1 − β₂ᵗ) + ε
    at::_foreach_mul_(upd, rbias2);
    at::_foreach_add_(upd, eps);
    at::_foreach_reciprocal_(upd);                               // −lr/(1 − β₁ᵗ) · m / denom
    at::_foreach_mul_(upd, exp_avgs);
    at::_foreach_mul_(upd, step_size);
    at::_foreach_add_(params, upd);
}
#endif

}  // namespace

#if TORCH_VERSION_MAJOR >= 2
void optimizer_step_on_device(torch::optim::Optimizer& opt, const torch::Tensor& lr, const torch::Tensor& step, bool fused) {
    optimizer_step_on_device(opt, std::vector<torch::Tensor>(opt.param_groups().size(), lr), step, fused);
}

void optimizer_step_on_device(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& lrs, const torch::Tensor& step,
                              bool fused) {
    using namespace torch::optim;
    TORCH_CHECK(lrs.size() == opt.param_groups().size(), "optimizer_step_on_device: a learning rate for each group");
    const bool adamw = dynamic_cast<AdamW*>(&opt) != nullptr;
    TORCH_CHECK(adamw || dynamic_cast<Adam*>(&opt), "the static step needs Adam or AdamW");
    const ProfileScope scope("normlab::optimizer");
    torch::NoGradGuard ng;
    step.add_(1);
    // The bias corrections in double, as the eager step (std::pow) and the
    // fused kernels take them: in float32 1 − 0.999ᵗ is 1.3e-5 off at t = 1.
    // The fused kernels work them out themselves from the step count.
    const torch::Tensor t = fused ? torch::Tensor() : step.to(torch::kDouble);
    auto& groups = opt.param_groups();
    torch::Tensor lr64;   // the group's rate in double, cast once for the groups that share it
    for (size_t i = 0; i < groups.size(); ++i) {
        // every group shares the step count; the learning rate is the group's (BranchNorm's scaled
        // step gives the branches lr·α_t), and betas may differ
        auto& g = groups[i];
        const torch::Tensor& lr = lrs[i];
        auto betas = adamw ? static_cast<AdamWOptions&>(g.options()).betas() : static_cast<AdamOptions&>(g.options()).betas();
        torch::Tensor step_size, rbias2;
        if (!fused) {
            if (i == 0 || !lr.is_same(lrs[i - 1])) lr64 = lr.to(torch::kDouble);
            step_size = (-lr64 / (1 - at::pow(std::get<0>(betas), t))).to(lr.scalar_type());
            rbias2 = at::rsqrt(1 - at::pow(std::get<1>(betas), t)).to(lr.scalar_type());
        }
        if (adamw) adam_group_device<AdamWOptions, AdamWParamState>(opt, g, true, lr, step, step_size, rbias2, fused);
        else adam_group_device<AdamOptions, AdamParamState>(opt, g, false, lr, step, step_size, rbias2, fused);
    }
}

int64_t optimizer_steps_done(torch::optim::Optimizer& opt, bool advance) {
    using namespace torch::optim;
    const bool adamw = dynamic_cast<AdamW*>(&opt) != nullptr;
    int64_t done = 0;
    auto& states = opt.state();
    for (auto& g : opt.param_groups())
        for (auto& p : g.params()) {
            auto it = states.find(state_key<decltype(states)>(p));
            if (it == states.end()) continue;
            if (adamw) {
                auto& s = static_cast<AdamWParamState&>(*it->second);
                if (advance) s.step(s.step() + 1);
                done = std::max(done, s.step());
            } else {
                auto& s = static_cast<AdamParamState&>(*it->second);
                if (advance) s.step(s.step() + 1);
                done = std::max(done, s.step());
            }
        }
    return done;
}
#endif

// Global L2 norm of all gradients (a device scalar; no host sync).
torch::Tensor grad_norm(const std::vector<torch::Tensor>& params, bool multi_tensor) {
    const ProfileScope scope("normlab::grad_norm");
    std::vector<torch::Tensor> grads;
    for (auto& p : params)
        if (p.grad().defined()) grads.push_back(p.grad());
    if (grads.empty()) return torch::zeros({});
    std::vector<torch::Tensor> norms;
    if (multi_tensor) {
        norms = at::_foreach_norm(grads, 2);
    } else {
        for (auto& g : grads) norms.push_back(g.norm(2));
    }
    for (auto& n : norms) n = n.to(torch::kFloat);
    return torch::stack(norms).norm(2);
}

void scale_grads(const std::vector<torch::Tensor>& params, double scale, bool multi_tensor) {
    const ProfileScope scope("normlab::grad_norm");
    torch::NoGradGuard ng;
    std::vector<torch::Tensor> grads;
    for (auto& p : params)
        if (p.grad().defined()) grads.push_back(p.grad());
    if (multi_tensor) {
        if (!grads.empty()) at::_foreach_mul_(grads, scale);
        return;
    }
    for (auto& g : grads) g.mul_(scale);
}

void optimizer_step(torch::optim::Optimizer& opt, bool multi_tensor) {
    using namespace torch::optim;
    const ProfileScope scope("normlab::optimizer");
    const bool adamw = dynamic_cast<AdamW*>(&opt) != nullptr, adam = dynamic_cast<Adam*>(&opt) != nullptr;
    bool eligible = multi_tensor && (adamw || adam);
    for (auto& g : opt.param_groups())
        eligible = eligible && (adamw ? adam_eligible<AdamWOptions, AdamWParamState>(opt, g)
                                      : adam_eligible<AdamOptions, AdamParamState>(opt, g));
    if (!eligible) {   // SGD, AMSGrad, …: LibTorch's own loop
        opt.step();
        return;
    }
    torch::NoGradGuard ng;
    for (auto& g : opt.param_groups()) {
        if (adamw) adam_group<AdamWOptions, AdamWParamState>(opt, g, true);
        else adam_group<AdamOptions, AdamParamState>(opt, g, false);
    }
}

}  // namespace normlab
