// One forward and backward of a model on a batch of byte tokens, for the
// tests that compare its paths (test_cuda_kernels on a GPU,
// test_cuda_model_emulated on fibers): the loss and every parameter's
// gradient (zeros where none).
#pragma once

#include "core/model/gpt.h"
#include "core/train/precision.h"

#include <string>
#include <vector>

namespace normlab::test {

struct LossGrads {
    double loss = 0;
    std::vector<torch::Tensor> grads;   // model->parameters()' order
};

// precision: fp32 | bf16 (autocast on the tensors' device); targets (B, T) of 256 classes.
inline LossGrads loss_and_grads(GPT& model, const torch::Tensor& idx, const torch::Tensor& targets,
                                const std::string& precision) {
    model->zero_grad();
    torch::Tensor loss;
    {
        AutocastScope autocast(precision, idx.is_cuda());
        const auto logits = model->forward(idx);
        loss = torch::cross_entropy_loss(logits.to(torch::kFloat).view({-1, 256}), targets.view({-1}));
    }
    loss.backward();
    LossGrads r;
    r.loss = loss.item<double>();
    for (auto& p : model->parameters()) r.grads.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
    return r;
}

}  // namespace normlab::test
