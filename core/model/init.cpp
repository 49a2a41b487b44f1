// NormLab core: each scheme's initialization (gpt.h, docs/SCHEMES.md): GPT-2's
// N(0, σ) with residual projections scaled by 1/√(2L), Xavier (fairseq),
// DeepNorm's β-gain Xavier, nGPT's unit-sphere rows and scaler θs.
#include "core/model/gpt.h"
#include "core/model/profile_scope.h"

#include <ATen/CPUGeneratorImpl.h>

#include <cmath>

namespace normlab {

void GPTImpl::reset_parameters(uint64_t seed) {
    torch::NoGradGuard ng;
    auto gen = at::detail::createCPUGenerator(seed);
    const int64_t d = cfg.d_model, L = cfg.n_layers;
    const double std0 = cfg.init_std;
    const bool ngpt = cfg.layout == Layout::NGPT;
    const double base = 1.0 / std::sqrt(static_cast<double>(d));
    // Row range [r0, r0+rows) of w, Xavier with its own fans (fan_in = columns).
    auto xavier_normal = [&](torch::Tensor w, int64_t r0, int64_t rows, double gain) {
        const double s = gain * std::sqrt(2.0 / static_cast<double>(w.size(1) + rows));
        w.narrow(0, r0, rows).normal_(0.0, s, gen);
    };
    auto xavier_uniform = [&](torch::Tensor w, int64_t r0, int64_t rows) {
        const double b = std::sqrt(6.0 / static_cast<double>(w.size(1) + rows));
        w.narrow(0, r0, rows).uniform_(-b, b, gen);
    };
    auto init_matrix = [&](torch::Tensor w, int64_t r0, int64_t rows, double normal_std) {
        if (ngpt) w.narrow(0, r0, rows).normal_(0.0, base, gen);
        else if (cfg.init == InitKind::Xavier) xavier_uniform(w, r0, rows);
        else w.narrow(0, r0, rows).normal_(0.0, normal_std, gen);
    };
    const double emb_std = ngpt ? base : (cfg.init == InitKind::Xavier ? base : std0);
    tok_emb->weight.normal_(0.0, emb_std, gen);
    if (pos_emb.defined()) pos_emb.normal_(0.0, emb_std, gen);
    if (lm_head.defined()) lm_head.normal_(0.0, emb_std, gen);
    const double resid_std = std0 / std::sqrt(2.0 * L);
    const double beta = cfg.deepnorm_beta();
    const int64_t f = cfg.d_ff, fc1_rows = cfg.activation == Activation::SwiGLU ? 2 * f : f;
    for (auto& m : *blocks) {
        auto b = m->as<Block>();
        auto& a = *b->attn;
        auto& p = *b->mlp;
        for (int s = 0; s < 3; ++s) init_matrix(a.qkv->weight, s * d, d, std0);
        init_matrix(a.out->weight, 0, d, resid_std);
        for (int64_t r = 0; r < fc1_rows; r += f) init_matrix(p.fc1->weight, r, f, std0);
        init_matrix(p.fc2->weight, 0, d, resid_std);
        if (cfg.deepnorm.init && !ngpt) {
            // DeepNorm (paper form): Xavier-normal, gain β on W_v, W_O, FC1, FC2; gain 1 on W_q, W_k.
            xavier_normal(a.qkv->weight, 0, d, 1.0);
            xavier_normal(a.qkv->weight, d, d, 1.0);
            xavier_normal(a.qkv->weight, 2 * d, d, beta);
            xavier_normal(a.out->weight, 0, d, beta);
            for (int64_t r = 0; r < fc1_rows; r += f) xavier_normal(p.fc1->weight, r, f, beta);
            xavier_normal(p.fc2->weight, 0, d, beta);
        }
        for (auto* lin : {&a.qkv, &a.out, &p.fc1, &p.fc2})
            if ((*lin)->bias.defined()) (*lin)->bias.zero_();
        for (auto* n : {&b->norm1, &b->norm2, &a.post_norm, &p.ffn_norm})
            if (*n) {
                (*n)->weight.fill_(1.0);
                if ((*n)->bias.defined()) (*n)->bias.zero_();
            }
        if (a.head_scale.defined()) a.head_scale.fill_(1.0);
        if (b->res_scale.defined()) b->res_scale.fill_(1.0);
        if (ngpt) {
            b->alpha_A.fill_(base);      // effective α = θ·(0.05/base) = 0.05
            b->alpha_M.fill_(base);
            a.s_qk.fill_(base);          // effective 1
            p.s_u.fill_(1.0);
            p.s_v.fill_(1.0);
        }
    }
    if (final_norm) {
        final_norm->weight.fill_(1.0);
        if (final_norm->bias.defined()) final_norm->bias.zero_();
    }
    if (s_z.defined()) s_z.fill_(base);
    if (ngpt) renormalize();
}

void GPTImpl::renormalize() {
    if (cfg.layout != Layout::NGPT) return;
    const ProfileScope scope("normlab::renormalize");
    torch::NoGradGuard ng;
    const double eps = cfg.ngpt.eps;
    auto put = [&](torch::Tensor w, int64_t dim) { w.div_(w.norm(2, dim, /*keepdim=*/true).add_(eps)); };
    put(tok_emb->weight, 1);                      // (V, d): rows
    if (lm_head.defined()) put(lm_head, 1);
    for (auto& m : *blocks) {
        auto b = m->as<Block>();
        put(b->attn->qkv->weight, 1);             // (3d, d): each output unit's d-vector
        put(b->attn->out->weight, 0);             // (d, d): columns
        put(b->mlp->fc1->weight, 1);              // (2·d_ff, d)
        put(b->mlp->fc2->weight, 0);              // (d, d_ff): columns of length d
    }
}

}  // namespace normlab
