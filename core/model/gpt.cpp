// NormLab core: the model (gpt.h) in the order of its equations in
// docs/SCHEMES.md: Norm → Attention → MLP → Block → GPT. Shapes: B batch,
// T time, d model width, H heads, d_h = d/H, V vocabulary (256 bytes).
//
// Where each scheme's equations are:
//   Post-LN, Pre-LN (Xiong et al.)   BlockImpl::forward, the two residual rules
//   NormFormer (Shleifer et al.)     HeadScale and post-attention LN: end of AttentionImpl::forward;
//                                    FFN LN: MLPImpl::forward; ResScale: BlockImpl::forward
//   DeepNorm (Wang et al.)           α: BlockImpl::forward (residual); β: init.cpp
//   BranchNorm (Liu et al.)          α_t: BlockImpl::forward (branch); its schedule: branchnorm_alpha
//                                    (core/config.cpp), set each step by the trainer
//   nGPT (Loshchilov et al.)         s_qk: AttentionImpl::forward; s_u, s_v: MLPImpl::forward;
//                                    α_A, α_M: BlockImpl::forward; s_z: GPTImpl::forward;
//                                    the unit sphere: init.cpp (renormalize after each step)
// The fused CPU kernels behind unit_norm, ngpt_update and the attention are
// in fused_ops.cpp; initialization is in init.cpp; the tensors by name, as
// the probes and the optimizer read them, in gpt_tensors.cpp.
#include "core/model/gpt.h"

#include "core/model/cpu_kernels.h"
#include "core/model/profile_scope.h"
#include "core/train/precision.h"

#include <torch/version.h>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
#define NORMLAB_HAS_SDPA 1
#else
#define NORMLAB_HAS_SDPA 0
#endif

#include <cmath>
#include <limits>

namespace normlab {

namespace {

// A linear layer. LibTorch's C++ Linear module computes a (B, T, ·) input as
// matmul and then a separate in-place bias add — a second pass over the
// output, under bf16 autocast a casting kernel (12 ms of an 85 ms step at
// GPT-2 small's shape on an H100, docs/GPU.md); at::linear, as PyTorch's
// F.linear, flattens the input and fuses the bias into the GEMM. On the CPU
// the module's path is kept: the golden traces were recorded with it.
torch::Tensor apply_linear(torch::nn::Linear& layer, const torch::Tensor& x) {
    return x.is_cuda() ? torch::linear(x, layer->weight, layer->bias) : layer(x);
}

// The type a linear layer takes x's LayerNorm in: bfloat16 on a GPU under bf16
// autocast (a fused kernel then writes it so, the rounding autocast would
// apply), float32 elsewhere.
torch::ScalarType linear_input_type(const torch::Tensor& x) {
    return x.is_cuda() && cuda_autocast_bf16() ? torch::kBFloat16 : torch::kFloat;
}

// t·k, the product skipped for k = 1 (DeepNorm's α and BranchNorm's α_t when off).
torch::Tensor times(const torch::Tensor& t, double k) { return k == 1.0 ? t : t * k; }

torch::Tensor rotate_half(const torch::Tensor& x) {   // (..., d_h) → (-x2, x1)
    const int64_t h = x.size(-1) / 2;
    return torch::cat({-x.narrow(-1, h, h), x.narrow(-1, 0, h)}, -1);
}

torch::Tensor activation(const torch::Tensor& x, Activation a) {
    switch (a) {
        case Activation::ReLU: return torch::relu(x);
        case Activation::GELU: return torch::gelu(x);
        case Activation::SwiGLU: break;
    }
    return torch::silu(x);
}

}  // namespace

// ---- Norm -------------------------------------------------------------------
NormImpl::NormImpl(int64_t dim_, NormKind kind_, double eps_) : kind(kind_), eps(eps_), dim(dim_) {
    weight = register_parameter("weight", torch::ones({dim}));
    if (kind == NormKind::LayerNorm) bias = register_parameter("bias", torch::zeros({dim}));
}

torch::Tensor NormImpl::forward(const torch::Tensor& x_in) {
    // Statistics in fp32 whatever the precision: a bf16 branch output (train.precision) is upcast first.
    const torch::Tensor x = x_in.scalar_type() == torch::kFloat ? x_in : x_in.to(torch::kFloat);
    if (kind == NormKind::LayerNorm) return torch::layer_norm(x, {dim}, weight, bias, eps);
    return x * torch::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps) * weight;
}
// ---- Attention --------------------------------------------------------------
AttentionImpl::AttentionImpl(const ModelConfig& c) : cfg(c) {
    const int64_t d = c.d_model;
    qkv = register_module("qkv", torch::nn::Linear(torch::nn::LinearOptions(d, 3 * d).bias(c.bias)));
    out = register_module("out", torch::nn::Linear(torch::nn::LinearOptions(d, d).bias(c.bias)));
    if (c.normformer.head_scale) head_scale = register_parameter("head_scale", torch::ones({c.n_heads}));
    if (c.normformer.post_attn_norm) post_norm = register_module("post_norm", Norm(d, c.norm, c.norm_eps));
    if (c.layout == Layout::NGPT)
        s_qk = register_parameter("s_qk", torch::ones({d}), /*requires_grad=*/c.ngpt.scalers);
}

torch::Tensor AttentionImpl::max_causal_logit(const torch::Tensor& q, const torch::Tensor& k, double scale,
                                              int64_t max_logits) {
    torch::NoGradGuard ng;
    // A probe is float32 in every precision: under bf16 autocast the product would be bf16
    // (logits to 3 digits), and nGPT's CUDA kernel hands attention bf16 queries and keys.
    const AutocastOff fp32(q.is_cuda());
    const auto qf = q.to(torch::kFloat), kf = k.to(torch::kFloat);
    const int64_t B = q.size(0), H = q.size(1), T = q.size(2);
    const int64_t rows = std::max<int64_t>(1, max_logits / std::max<int64_t>(1, H * T * T));   // batch rows at once
    const auto mask = causal_mask(T, q.device());
    torch::Tensor m;
    for (int64_t b0 = 0; b0 < B; b0 += rows) {
        const int64_t n = std::min(rows, B - b0);
        auto att = torch::matmul(qf.narrow(0, b0, n) * scale, kf.narrow(0, b0, n).transpose(-2, -1));
        att.masked_fill_(mask, -std::numeric_limits<float>::infinity());
        auto mb = att.max();
        m = m.defined() ? torch::maximum(m, mb) : mb;
    }
    return m;
}

torch::Tensor AttentionImpl::causal_mask(int64_t T, const torch::Device& dev) {
    if (!mask_.defined() || mask_.size(0) != T || mask_.device() != dev)
        mask_ = torch::ones({T, T}, torch::TensorOptions().dtype(torch::kBool).device(dev)).triu(1);
    return mask_;
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin,
                                     ForwardCapture* cap, bool without_post_norm, torch::Tensor* bias_left) {
    const ProfileScope scope("normlab::attention");
    const int64_t B = x.size(0), T = x.size(1), d = cfg.d_model, H = cfg.n_heads, dh = d / H;
    // Where q, k, v go through split_heads (no rotary positions, not nGPT, not the CPU's packed
    // attention), the bias's gradient is summed there, as split_heads writes proj's (linear_bias.cpp).
    const bool heads_bias = qkv->bias.defined() && !cos.defined() && cfg.layout != Layout::NGPT &&
                            !(x.is_cpu() && fused_kernels_enabled()) && bias_grads_after(x);
    const auto proj = heads_bias ? torch::linear(x, qkv->weight, qkv->bias.detach())
                                 : apply_linear(qkv, x);                   // (B, T, 3d); bf16 under autocast
    const bool fused = !kv && fused_kernels_enabled() && kernels::attention_kernel_available() && x.device().is_cpu() &&
                       proj.scalar_type() == torch::kFloat && !(cfg.dropout > 0 && is_training());
    torch::Tensor y, max_logit;                                            // y: (B, T, d)
    double scale = 1.0 / std::sqrt(static_cast<double>(dh));
    if (fused && !cos.defined() && cfg.layout != Layout::NGPT) {
        // q, k, v are read in place from the projection; the gradient comes back packed.
        y = fused_causal_attention_packed(proj, H, scale, cap ? &max_logit : nullptr);
    } else {
        torch::Tensor q, k, v, sqk;   // q, k, v: (B, H, T, d_h); nGPT: s_qk's effective values (d)
        if (cfg.layout == Layout::NGPT) {
            sqk = ngpt_scaled(s_qk, 1.0, 1.0 / std::sqrt(static_cast<double>(d)));
            scale = std::sqrt(static_cast<double>(dh));                    // logits = cos·d_h^(1/2)·s_qk²
        }
        // nGPT on a GPU: RoPE, the unit norm and s_qk as one CUDA kernel (NORMLAB_CUDA_KERNELS).
        // The LayerNorm schemes with rotary positions: RoPE alone in that kernel.
        if (sqk.defined() ? !(cfg.ngpt.qk_norm && ngpt_queries_keys(proj, H, cos, sin, sqk, cfg.ngpt.eps, q, k, v))
                          : !rope_queries_keys(proj, H, cos, sin, q, k, v)) {
            std::tie(q, k, v) = split_heads(proj, H, heads_bias ? qkv->bias : torch::Tensor());
            if (cos.defined()) {
                q = q * cos + rotate_half(q) * sin;
                k = k * cos + rotate_half(k) * sin;
            }
            if (sqk.defined()) {
                if (cfg.ngpt.qk_norm) {
                    q = unit_norm(q, -1, cfg.ngpt.eps);
                    k = unit_norm(k, -1, cfg.ngpt.eps);
                }
                q = q * sqk.view({1, H, 1, dh});
                k = k * sqk.view({1, H, 1, dh});
            }
        }
        if (kv) {
            y = cached_attention(*kv, kv_layer, q, k, v, scale).transpose(1, 2).reshape({B, T, d});
        } else if (fused) {
            y = fused_causal_attention(q, k, v, scale, cap ? &max_logit : nullptr);
        } else {
            torch::Tensor yh;                                              // (B, H, T, d_h)
#if NORMLAB_HAS_SDPA
            if (!cap || x.is_cuda()) {
                // Fused attention of LibTorch ≥ 2.1 (GPUs); on the CPU the explicit path below records the max logit.
                yh = at::scaled_dot_product_attention(q, k, v, {}, is_training() ? cfg.dropout : 0.0,
                                                      /*is_causal=*/true, scale);
                // On a GPU a probe step keeps the fused attention's memory (no (B, H, T, T) scores
                // saved for the backward pass, ~0.8 GiB per layer at GPT-2 small's shape and batch
                // 32): the max logit from the same scaled logits without gradient, a few rows at a time.
                if (cap) max_logit = max_causal_logit(q, k, scale);
            }
#endif
            if (!yh.defined()) {
                // Scale q (B, H, T, d_h) rather than the logits (B, H, T, T); mask in place.
                auto att = torch::matmul(q * scale, k.transpose(-2, -1));  // (B, H, T, T)
                att.masked_fill_(causal_mask(T, x.device()), -std::numeric_limits<float>::infinity());
                if (cap) max_logit = att.detach().max();
                att = torch::softmax(att, -1);
                if (cfg.dropout > 0) att = torch::dropout(att, cfg.dropout, is_training());
                yh = torch::matmul(att, v);
            }
            y = yh.transpose(1, 2).reshape({B, T, d});
        }
    }
    if (cap) cap->max_logit.push_back(max_logit.detach().to(torch::kFloat));
    // HeadScale multiplies head h's d_h columns of y (before the projection) or
    // rows of its output (after). Both fold into the (d, d) projection weight
    // (and bias): (B·T)/d times fewer multiplies than scaling the activations.
    auto W = out->weight, bias = out->bias;
    if (head_scale.defined()) {
        const auto per_dim = head_scale.view({H, 1}).expand({H, dh}).reshape({d});
        if (cfg.normformer.head_scale_placement == HeadScalePlacement::BeforeOutProj) {
            W = W * per_dim.view({1, d});
        } else {
            W = W * per_dim.view({d, 1});
            if (bias.defined()) bias = bias * per_dim;
        }
    }
    // The bias's gradient left to the residual add's kernel where nothing comes between them.
    const bool leave_bias = bias_left && bias.defined() && (without_post_norm || !post_norm) &&
                            !(cfg.dropout > 0 && is_training()) && bias_grads_after(x);
    if (bias_left) *bias_left = leave_bias ? bias : torch::Tensor();
    auto o = torch::linear(y, W, leave_bias ? bias.detach() : bias);
    if (without_post_norm) return o;
    if (post_norm) o = post_norm(o);
    if (cfg.dropout > 0) o = torch::dropout(o, cfg.dropout, is_training());
    return o;
}

// ---- MLP --------------------------------------------------------------------
MLPImpl::MLPImpl(const ModelConfig& c) : cfg(c) {
    const int64_t d = c.d_model, f = c.d_ff;
    const int64_t rows = c.activation == Activation::SwiGLU ? 2 * f : f;
    fc1 = register_module("fc1", torch::nn::Linear(torch::nn::LinearOptions(d, rows).bias(c.bias)));
    fc2 = register_module("fc2", torch::nn::Linear(torch::nn::LinearOptions(f, d).bias(c.bias)));
    if (c.normformer.ffn_norm) ffn_norm = register_module("ffn_norm", Norm(f, c.norm, c.norm_eps));
    if (c.layout == Layout::NGPT) {
        s_u = register_parameter("s_u", torch::ones({f}), c.ngpt.scalers);
        s_v = register_parameter("s_v", torch::ones({f}), c.ngpt.scalers);
    }
}

torch::Tensor MLPImpl::forward(const torch::Tensor& x, ForwardCapture* cap, torch::Tensor* bias_left) {
    const ProfileScope scope("normlab::mlp");
    // fc1's bias gradient summed by GELU's backward (linear_bias.cpp), or by NormFormer's FFN LN after it.
    const bool gelu_bias = cfg.activation == Activation::GELU && fc1->bias.defined() && bias_grads_after(x);
    auto h = gelu_bias ? torch::linear(x, fc1->weight, fc1->bias.detach())
                       : apply_linear(fc1, x);                             // (B, T, d_ff | 2·d_ff)
    torch::Tensor a;
    bool normed = false;                                                   // FFN LN applied already
    if (cfg.activation == Activation::SwiGLU) {
        torch::Tensor su, sv;                                              // nGPT's scalers, effective values
        if (cfg.layout == Layout::NGPT) {
            su = s_u;                                                      // s_init = s_scale = 1
            sv = s_v * std::sqrt(static_cast<double>(cfg.d_model));
        }
        a = swiglu(h, su, sv);                                             // (B, T, d_ff)
    } else {
        if (cfg.activation == Activation::GELU && ffn_norm && ffn_norm->kind == NormKind::LayerNorm) {
            a = gelu_layer_norm(h, ffn_norm->weight, ffn_norm->bias, ffn_norm->eps,   // NormFormer's FFN LN, fused
                                gelu_bias ? fc1->bias : torch::Tensor());
            normed = a.defined();
        }
        if (!normed) a = gelu_bias ? gelu_bias_grad(h, fc1->bias) : activation(h, cfg.activation);
    }
    if (cap) {
        // GELU and ReLU are positive exactly where h is; SwiGLU's sign is its own.
        torch::NoGradGuard ng;
        const auto& act = cfg.activation == Activation::SwiGLU ? a : h;
        cap->act_active.push_back((act.detach() > 0).to(torch::kFloat).mean());
    }
    if (ffn_norm && !normed) a = ffn_norm(a);
    const bool leave_bias = bias_left && fc2->bias.defined() && !(cfg.dropout > 0 && is_training()) && bias_grads_after(x);
    if (bias_left) *bias_left = leave_bias ? fc2->bias : torch::Tensor();
    auto o = leave_bias ? torch::linear(a, fc2->weight, fc2->bias.detach()) : apply_linear(fc2, a);   // (B, T, d)
    if (cfg.dropout > 0) o = torch::dropout(o, cfg.dropout, is_training());
    return o;
}

// ---- Block ------------------------------------------------------------------
BlockImpl::BlockImpl(const ModelConfig& c) : cfg(c), residual_alpha(c.deepnorm_alpha()) {
    const int64_t d = c.d_model;
    if (c.layout != Layout::NGPT) {
        norm1 = register_module("norm1", Norm(d, c.norm, c.norm_eps));
        norm2 = register_module("norm2", Norm(d, c.norm, c.norm_eps));
    }
    attn = register_module("attn", Attention(c));
    mlp = register_module("mlp", MLP(c));
    if (c.normformer.res_scale) res_scale = register_parameter("res_scale", torch::ones({d}));
    if (c.layout == Layout::NGPT) {
        alpha_A = register_parameter("alpha_A", torch::ones({d}), c.ngpt.eigen_lr);
        alpha_M = register_parameter("alpha_M", torch::ones({d}), c.ngpt.eigen_lr);
    }
}

torch::Tensor BlockImpl::forward(const torch::Tensor& x_in, double branch, const torch::Tensor& cos,
                                 const torch::Tensor& sin, ForwardCapture* cap, torch::Tensor* lin) {
    torch::Tensor x = x_in;
    // What the linear layers read: a copy of x made with it where there is one (lin).
    const torch::Tensor x_lin = lin && lin->defined() ? *lin : x;
    torch::Tensor mid;   // the middle residual's copy
    if (cfg.layout == Layout::NGPT) {
        // nGPT (Loshchilov et al., eq. 10 and 11), h on the unit sphere:
        //   h ← norm(h + α_A ⊙ (norm(ATTN(h)) − h))
        //   h ← norm(h + α_M ⊙ (norm(MLP(h)) − h))
        // α stored as θ, effective α = θ·(α_init/α_scale) (ngpt_scaled); |α| keeps the step a convex mix.
        const double eps = cfg.ngpt.eps, d = cfg.d_model;
        const double base = 1.0 / std::sqrt(d);
        auto aA = ngpt_scaled(alpha_A, cfg.ngpt.alpha_init, base).abs();
        auto aM = ngpt_scaled(alpha_M, cfg.ngpt.alpha_init, base).abs();
        // Under bf16 autocast the branches come out in bf16; nGPT's normalizations and update stay fp32.
        // (the branch's output in its own type: ngpt_update casts it where its kernel does not read it)
        x = ngpt_update(x, attn(x_lin, cos, sin, cap), aA, eps, &mid);
        return ngpt_update(x, mlp(mid.defined() ? mid : x, cap), aM, eps, lin);
    }
    // α: DeepNorm's residual weight (2N)^¼ (1 when off); α_t: BranchNorm's
    // branch weight at this step (1 when off). Multiplying by 1 is skipped.
    if (cfg.layout == Layout::Post) {
        // Post-LN (Xiong et al., Table 1 left), with DeepNorm (Wang et al.) and BranchNorm:
        //   x ← LN₁(α·x + α_t·ATTN(x))
        //   x ← LN₂(α·x + α_t·MLP(x))        ResScale: LN₂(λ ⊙ α·x + α_t·MLP(x))
        torch::Tensor att_bias, mlp_bias;   // the branches' biases where their gradients are left to the kernel
        const auto att = attn(x_lin, cos, sin, cap, false, &att_bias);
        if (cap) capture_norm_input(*cap, norm1, x, att, att_bias, torch::Tensor(), branch, true);
        x = add_norm(norm1, x, att, torch::Tensor(), branch, torch::kFloat, &mid, att_bias);
        const auto f = mlp(mid.defined() ? mid : x, cap, &mlp_bias);
        if (cap) capture_norm_input(*cap, norm2, x, f, mlp_bias, res_scale, branch, false);
        return add_norm(norm2, x, f, res_scale, branch, torch::kFloat, lin, mlp_bias);
    }
    // Pre-LN (Xiong et al., Table 1 right) and NormFormer (Shleifer et al.; its extra norms
    // and HeadScale sit inside ATTN and MLP):
    //   x ← x + ATTN(LN₁(x))
    //   x ← x + MLP(LN₂(x))                  ResScale: λ ⊙ x + MLP(LN₂(x))
    if (lin) *lin = torch::Tensor();   // its linear layers read LayerNorms' outputs
    const auto [x1, f] = forward_pre_ln(x, torch::Tensor(), branch, cos, sin, cap);
    const auto [fb, b] = branch_of(f, branch);
    return residual_sum(x1, fb, b);
}

std::pair<torch::Tensor, double> BlockImpl::branch_of(const torch::Tensor& f, double branch) const {
    if (!branch_t.defined()) return {f, branch};
    return {f.to(torch::kFloat) * branch_t, 1.0};   // the same float32 product the kernels and ops form
}

std::pair<torch::Tensor, torch::Tensor> BlockImpl::forward_pre_ln(const torch::Tensor& x, const torch::Tensor& x_normed,
                                                                  double branch, const torch::Tensor& cos,
                                                                  const torch::Tensor& sin, ForwardCapture* cap,
                                                                  torch::Tensor* f_bias) {
    // NormFormer's post-attention LN goes into the residual add's kernel with LN₂ where
    // that applies (its gain and bias learned there as in the LN); its dropout comes after it.
    Norm post = attn->post_norm;
    const bool post_in_kernel = post && post->kind == NormKind::LayerNorm && !(cfg.dropout > 0 && is_training());
    torch::Tensor att_bias;   // the projection's bias where its gradient is left to the kernel
    auto att = attn(x_normed.defined() ? x_normed : norm1(x), cos, sin, cap, post_in_kernel, &att_bias);
    torch::Tensor x1, h;   // x₁ = α·x + α_t·ATTN(LN₁(x)), h = LN₂(x₁): one CUDA kernel where it applies
    BranchNormParams post_ln;
    if (post_in_kernel) post_ln = {post->weight, post->bias, post->eps};
    auto add_norm2 = [&](const BranchNormParams* f_norm) {
        return residual_layer_norm(x, att, torch::Tensor(), residual_alpha, branch, norm2->weight, norm2->bias,
                                   norm2->eps, linear_input_type(x), x1, h, branch_t, f_norm, nullptr, att_bias);
    };
    bool fused = add_norm2(post_in_kernel ? &post_ln : nullptr);
    if (!fused && post_in_kernel) {   // the kernel does not take the post-attention LN here
        att = post(with_bias_grad(att, att_bias));
        att_bias = torch::Tensor();
        fused = add_norm2(nullptr);
    }
    if (!fused) {
        const auto [a, b] = branch_of(with_bias_grad(att, att_bias), branch);
        x1 = times(x, residual_alpha) + times(a, b);
        h = norm2(x1);
    }
    return {x1, mlp(h, cap, f_bias)};
}

torch::Tensor BlockImpl::residual_sum(const torch::Tensor& x1, const torch::Tensor& f_in, double branch) {
    const auto r = times(x1, residual_alpha), f = times(f_in, branch);
    if (res_scale.defined()) return torch::addcmul(f, r, res_scale);   // λ ⊙ x + f in one pass
    return r + f;
}

// norm(λ ⊙ α·r + α_t·f) (λ undefined: 1) in y_type: one CUDA kernel each way where it applies, else eager.
torch::Tensor BlockImpl::add_norm(Norm& norm, const torch::Tensor& r_in, const torch::Tensor& f_branch,
                                  const torch::Tensor& lam, double branch, torch::ScalarType y_type, torch::Tensor* copy,
                                  const torch::Tensor& f_bias) {
    torch::Tensor s, y;
    if (copy) *copy = torch::Tensor();
    if (residual_layer_norm(r_in, f_branch, lam, residual_alpha, branch, norm->weight, norm->bias, norm->eps, y_type, s,
                            y, branch_t, nullptr, copy, f_bias))
        return y;
    const auto [f_in, b] = branch_of(with_bias_grad(f_branch, f_bias), branch);
    const auto r = times(r_in, residual_alpha), f = times(f_in, b);
    return norm(lam.defined() ? torch::addcmul(f, r, lam) : r + f);
}

// ---- GPT --------------------------------------------------------------------
void GPTImpl::set_branch_alpha(double a) {
    branch_alpha = a;
    // the scalar is written when α_t changes (each warm-up step, once after it), not on every call
    if (branch_alpha_t.defined() && a != branch_alpha_filled_) {
        torch::NoGradGuard ng;
        branch_alpha_t.fill_(a);
        branch_alpha_filled_ = a;
    }
}

void GPTImpl::use_branch_tensor(const torch::Tensor& t) {
    branch_alpha_t = t;
    branch_alpha_filled_ = std::numeric_limits<double>::quiet_NaN();
    if (t.defined()) set_branch_alpha(branch_alpha);
    for (size_t i = 0; i < blocks->size(); ++i) blocks[i]->as<Block>()->branch_t = t;
}

GPTImpl::GPTImpl(const ModelConfig& c) : cfg(c) {
    const int64_t d = c.d_model, V = c.vocab_size;
    tok_emb = register_module("tok_emb", torch::nn::Embedding(V, d));
    if (c.positions == Positions::Learned) pos_emb = register_parameter("pos_emb", torch::zeros({c.context, d}));
    blocks = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < c.n_layers; ++i) blocks->push_back(Block(c));
    if (c.final_norm) final_norm = register_module("final_norm", Norm(d, c.norm, c.norm_eps));
    if (!c.tie_embeddings) lm_head = register_parameter("lm_head", torch::zeros({V, d}));
    if (c.layout == Layout::NGPT) s_z = register_parameter("s_z", torch::ones({V}), c.ngpt.scalers);
    reset_parameters(0);
}

torch::Tensor GPTImpl::forward(const torch::Tensor& idx, ForwardCapture* cap, KVCache* kv) {
    const int64_t T = idx.size(1), P = kv ? kv->length : 0;   // P: the first position idx holds
    TORCH_CHECK(P + T <= cfg.context, "sequence length ", P + T, " exceeds model.context ", cfg.context);
    TORCH_CHECK(!kv || (!cap && !is_training()), "a KV cache is read in eval() mode without probes");
    struct Detach { GPTImpl* m; ~Detach() { if (m) m->attach_cache(nullptr); } } detach{kv ? this : nullptr};
    if (kv) attach_cache(kv);
    torch::Tensor x, cos, sin;
    {
        const ProfileScope scope("normlab::embed");
        x = tok_emb(idx);                                                  // (B, T, d)
        if (cfg.embed_scale) x = x * std::sqrt(static_cast<double>(cfg.d_model));
        if (cfg.positions == Positions::Learned) x = x + pos_emb.narrow(0, P, T);
        else if (cfg.positions == Positions::Sinusoidal) x = x + positions_table(P + T, x.device()).narrow(0, P, T);
        if (cfg.positions == Positions::RoPE) {
            rope_tables(P + T, x.device(), cos, sin);
            if (P > 0) cos = cos.narrow(0, P, T), sin = sin.narrow(0, P, T);
        }
        if (cfg.dropout > 0) x = torch::dropout(x, cfg.dropout, is_training());
    }
    // Pre-LN and NormFormer: where NormLab's CUDA kernel applies, a block's last
    // residual add is made in one pass with the LayerNorm after it (the next
    // block's LN₁ or the final LN); `normed` carries that LN's output.
    torch::Tensor normed, lin;
    for (size_t i = 0; i < blocks->size(); ++i) {
        // what a block does besides its attention and MLP (their own scopes): norms, residual adds, nGPT's updates
        const ProfileScope scope("normlab::residual");
        auto block = blocks[i]->as<Block>();
        auto prev = x;
        if (cfg.layout == Layout::Pre) {
            torch::Tensor f_bias;   // FC2's bias where its gradient is left to the residual add's kernel
            const auto [x1, f_branch] = block->forward_pre_ln(x, normed, branch_alpha, cos, sin, cap, &f_bias);
            Norm next = i + 1 < blocks->size() ? blocks[i + 1]->as<Block>()->norm1 : final_norm;
            normed = torch::Tensor();
            if (!next || !residual_layer_norm(x1, f_branch, block->res_scale, block->residual_alpha, branch_alpha,
                                              next->weight, next->bias, next->eps, linear_input_type(x1), x, normed,
                                              block->branch_t, nullptr, nullptr, f_bias)) {
                const auto [f, b] = block->branch_of(with_bias_grad(f_branch, f_bias), branch_alpha);
                x = block->residual_sum(x1, f, b);
            }
        } else {
            x = block->forward(x, branch_alpha, cos, sin, cap, &lin);   // lin: x's copy for the next linear layers
        }
        if (cap) {
            const ProfileScope probe_scope("normlab::probes");
            torch::NoGradGuard ng;
            auto xd = x.detach(), pd = prev.detach();
            auto sq = xd.pow(2).sum(-1);                                  // (B, T)
            cap->hidden_norm.push_back(sq.sqrt().mean());
            cap->hidden_sq.push_back(sq.mean() / cfg.d_model);
            cap->cos_prev.push_back(torch::cosine_similarity(pd, xd, -1).mean());
            if (T > 1) {
                // Σ_{t,t'} u_t·u_t' = ‖Σ_t u_t‖² over a sequence's unit vectors; less the T
                // diagonal terms, over the T(T−1) pairs: 1 where every position carries one vector.
                auto u = xd.to(torch::kFloat);
                u = u / u.norm(2, -1, true).clamp_min(1e-30);
                auto s2 = u.sum(1).pow(2).sum(-1);                         // (B)
                cap->cos_tokens.push_back(((s2 - double(T)) / (double(T) * double(T - 1))).mean());
            }
        }
    }
    if (kv) kv->length += T;
    const ProfileScope scope("normlab::head");
    if (final_norm) x = normed.defined() ? normed : final_norm(x);
    else if (lin.defined()) x = lin;                                       // nGPT: the last update's copy
    auto W = lm_head.defined() ? lm_head : tok_emb->weight;
    auto logits = torch::matmul(x, W.t());                                 // (B, T, V)
    if (s_z.defined()) logits = logits * ngpt_scaled(s_z, 1.0, 1.0 / std::sqrt(double(cfg.d_model)));
    return logits;
}

torch::Tensor GPTImpl::loss(const torch::Tensor& logits, const torch::Tensor& targets) {
    const ProfileScope scope("normlab::loss");
    // Softmax and the loss in fp32 whatever the precision the logits were computed in.
    const auto z = logits.scalar_type() == torch::kFloat ? logits : logits.to(torch::kFloat);
    return torch::nn::functional::cross_entropy(z.reshape({-1, z.size(-1)}), targets.reshape({-1}));
}

}  // namespace normlab
