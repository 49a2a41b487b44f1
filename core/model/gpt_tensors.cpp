// NormLab core: the model's tensors by name, as the probes, the optimizer
// and the counts read them (gpt.h): every weight with its layer and role
// (q, k and v as slices of the packed projection), the learned gains at
// their effective scale, the matrices whose condition numbers are probed,
// the parameter groups with and without weight decay.
#include "core/model/gpt.h"

#include <cmath>

namespace normlab {

std::vector<ProbeTensor> GPTImpl::weights() {
    std::vector<ProbeTensor> out;
    const int64_t d = cfg.d_model;
    for (size_t i = 0; i < blocks->size(); ++i) {
        auto b = blocks[i]->as<Block>();
        const int l = static_cast<int>(i);
        auto& a = *b->attn;
        auto& p = *b->mlp;
        out.push_back({l, "q", a.qkv->weight, 0, d});
        out.push_back({l, "k", a.qkv->weight, d, 2 * d});
        out.push_back({l, "v", a.qkv->weight, 2 * d, 3 * d});
        out.push_back({l, "o", a.out->weight});
        out.push_back({l, "fc1", p.fc1->weight});
        out.push_back({l, "fc2", p.fc2->weight});
        if (b->norm1) out.push_back({l, "norm1", b->norm1->weight});
        if (b->norm2) out.push_back({l, "norm2", b->norm2->weight});
        if (a.post_norm) out.push_back({l, "post_attn_norm", a.post_norm->weight});
        if (p.ffn_norm) out.push_back({l, "ffn_norm", p.ffn_norm->weight});
        if (a.head_scale.defined()) out.push_back({l, "head_scale", a.head_scale});
        if (b->res_scale.defined()) out.push_back({l, "res_scale", b->res_scale});
        if (b->alpha_A.defined() && b->alpha_A.requires_grad()) {
            out.push_back({l, "alpha_A", b->alpha_A});
            out.push_back({l, "alpha_M", b->alpha_M});
        }
        if (a.s_qk.defined() && a.s_qk.requires_grad()) {
            out.push_back({l, "s_qk", a.s_qk});
            out.push_back({l, "s_u", p.s_u});
            out.push_back({l, "s_v", p.s_v});
        }
    }
    out.push_back({-1, "tok_emb", tok_emb->weight});
    if (lm_head.defined()) out.push_back({-1, "lm_head", lm_head});
    if (final_norm) out.push_back({-1, "final_norm", final_norm->weight});
    return out;
}

std::vector<ProbeTensor> GPTImpl::gains() {
    torch::NoGradGuard ng;
    std::vector<ProbeTensor> out;
    const double base = 1.0 / std::sqrt(static_cast<double>(cfg.d_model));
    for (size_t i = 0; i < blocks->size(); ++i) {
        auto b = blocks[i]->as<Block>();
        const int l = static_cast<int>(i);
        auto& a = *b->attn;
        auto& p = *b->mlp;
        if (b->norm1) out.push_back({l, "norm1", b->norm1->weight.detach()});
        if (b->norm2) out.push_back({l, "norm2", b->norm2->weight.detach()});
        if (a.post_norm) out.push_back({l, "post_attn_norm", a.post_norm->weight.detach()});
        if (p.ffn_norm) out.push_back({l, "ffn_norm", p.ffn_norm->weight.detach()});
        if (a.head_scale.defined()) out.push_back({l, "head_scale", a.head_scale.detach()});
        if (b->res_scale.defined()) out.push_back({l, "res_scale", b->res_scale.detach()});
        if (b->alpha_A.defined()) {
            out.push_back({l, "alpha_A", ngpt_scaled(b->alpha_A.detach(), cfg.ngpt.alpha_init, base).abs()});
            out.push_back({l, "alpha_M", ngpt_scaled(b->alpha_M.detach(), cfg.ngpt.alpha_init, base).abs()});
            out.push_back({l, "s_qk", ngpt_scaled(a.s_qk.detach(), 1.0, base)});
            out.push_back({l, "s_u", p.s_u.detach()});
            out.push_back({l, "s_v", p.s_v.detach()});
        }
    }
    if (final_norm) out.push_back({-1, "final_norm", final_norm->weight.detach()});
    if (s_z.defined()) out.push_back({-1, "s_z", ngpt_scaled(s_z.detach(), 1.0, base)});
    return out;
}

std::vector<ProbeTensor> GPTImpl::matrices() {
    std::vector<ProbeTensor> out;
    for (auto& w : weights())
        if (w.param.dim() == 2) out.push_back(w);
    return out;
}

void GPTImpl::split_decay(std::vector<torch::Tensor>& decay, std::vector<torch::Tensor>& no_decay) {
    for (auto& p : parameters()) {
        if (!p.requires_grad()) continue;
        (p.dim() >= 2 ? decay : no_decay).push_back(p);
    }
}

std::vector<torch::Tensor> GPTImpl::branch_parameters() {
    std::vector<torch::Tensor> out;
    for (size_t i = 0; i < blocks->size(); ++i) {
        auto b = blocks[i]->as<Block>();
        for (auto* m : {static_cast<torch::nn::Module*>(b->attn.get()), static_cast<torch::nn::Module*>(b->mlp.get())})
            for (auto& p : m->parameters())
                if (p.requires_grad()) out.push_back(p);
    }
    return out;
}

int64_t GPTImpl::parameter_count(bool trainable_only) {
    int64_t n = 0;
    for (auto& p : parameters())
        if (!trainable_only || p.requires_grad()) n += p.numel();
    return n;
}

}  // namespace normlab
