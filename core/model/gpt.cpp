// NormLab core: the model (see gpt.h), bottom-up: norm → attention → MLP →
// block → GPT. Shapes: B batch, T time, d model width, H heads, d_h = d/H.
#include "core/model/gpt.h"

#include "core/model/cpu_kernels.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Parallel.h>
#include <torch/version.h>

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 1)
#define NORMLAB_HAS_SDPA 1
#else
#define NORMLAB_HAS_SDPA 0
#endif

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace normlab {

torch::Tensor unit_norm(const torch::Tensor& x, int64_t dim, double eps) {
    if ((dim == -1 || dim == x.dim() - 1) && fused_kernels_enabled() && x.device().is_cpu() &&
        x.scalar_type() == torch::kFloat && x.numel() > 0)
        return fused_unit_norm(x, eps);
    return x / (x.norm(2, dim, /*keepdim=*/true) + eps);
}

namespace {

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

torch::Tensor NormImpl::forward(const torch::Tensor& x) {
    if (kind == NormKind::LayerNorm) return torch::layer_norm(x, {dim}, weight, bias, eps);
    return x * torch::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps) * weight;
}

// ---- Fused causal attention (CPU) ---------------------------------------------
namespace {

std::atomic<int> g_fused_kernels{-1};   // -1: not decided yet (read the environment)

// Head (b, h) of a (B, H, T, d_h) layout: base + b·sb + h·sh, its rows st apart.
struct Heads {
    float* base;
    int64_t sb, sh, st;
    float* at(int64_t b, int64_t h) const { return base + b * sb + h * sh; }
};
Heads heads_of(const torch::Tensor& t) { return {t.data_ptr<float>(), t.stride(0), t.stride(1), t.stride(2)}; }
// Part `which` (0 q, 1 k, 2 v) of a packed (B, T, 3d) projection, or, with which = 0
// and parts = 1, a (B, T, d) tensor viewed as heads.
Heads packed_heads(const torch::Tensor& t, int which, int parts, int64_t H) {
    const int64_t T = t.size(1), w = t.size(2), d = w / parts;
    return {t.data_ptr<float>() + which * d, T * w, d / H, w};
}

struct AttentionShape {
    int64_t B, H, T, dh;
};

// All heads in parallel, one thread per head at a time (its BLAS calls then run single-threaded).
void attention_forward(const AttentionShape& s, float scale, Heads q, Heads k, Heads v, Heads y, float* P,
                       float* maxes) {
    at::parallel_for(0, s.B * s.H, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const int64_t b = i / s.H, h = i % s.H;
            maxes[i] = kernels::attention_forward_head(s.T, s.dh, scale, q.at(b, h), q.st, k.at(b, h), k.st,
                                                       v.at(b, h), v.st, P + i * s.T * s.T, y.at(b, h), y.st);
        }
    });
}

void attention_backward(const AttentionShape& s, float scale, Heads q, Heads k, Heads v, const float* P, Heads dy,
                        Heads dq, Heads dk, Heads dv) {
    at::parallel_for(0, s.B * s.H, 1, [&](int64_t begin, int64_t end) {
        std::vector<float> dS(s.T * s.T);
        for (int64_t i = begin; i < end; ++i) {
            const int64_t b = i / s.H, h = i % s.H;
            kernels::attention_backward_head(s.T, s.dh, scale, q.at(b, h), q.st, k.at(b, h), k.st, v.at(b, h),
                                             v.st, P + i * s.T * s.T, dy.at(b, h), dy.st, dS.data(), dq.at(b, h),
                                             dq.st, dk.at(b, h), dk.st, dv.at(b, h), dv.st);
        }
    });
}

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Runs the forward for either autograd function: y (B, T, H·d_h), and the
// per-head max logits as a second, non-differentiable output.
variable_list run_attention_forward(AutogradContext* ctx, const AttentionShape& s, double scale, Heads q, Heads k,
                                    Heads v, const torch::TensorOptions& opt) {
    auto P = torch::empty({s.B, s.H, s.T, s.T}, opt);
    auto y = torch::empty({s.B, s.T, s.H * s.dh}, opt);
    auto maxes = torch::empty({s.B * s.H}, opt);
    attention_forward(s, static_cast<float>(scale), q, k, v, packed_heads(y, 0, 1, s.H), P.data_ptr<float>(),
                      maxes.data_ptr<float>());
    ctx->saved_data["P"] = P;
    ctx->saved_data["scale"] = scale;
    ctx->mark_non_differentiable({maxes});
    return {y, maxes};
}

// Attention on the packed QKV projection; its gradient comes back packed.
struct PackedAttention : torch::autograd::Function<PackedAttention> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& qkv, int64_t H, double scale) {
        const AttentionShape s{qkv.size(0), H, qkv.size(1), qkv.size(2) / 3 / H};
        ctx->save_for_backward({qkv});
        ctx->saved_data["H"] = H;
        return run_attention_forward(ctx, s, scale, packed_heads(qkv, 0, 3, H), packed_heads(qkv, 1, 3, H),
                                     packed_heads(qkv, 2, 3, H), qkv.options());
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto qkv = ctx->get_saved_variables()[0];
        const int64_t H = ctx->saved_data["H"].toInt();
        const AttentionShape s{qkv.size(0), H, qkv.size(1), qkv.size(2) / 3 / H};
        auto dqkv = torch::empty_like(qkv);
        if (!grads[0].defined()) return {dqkv.zero_(), torch::Tensor(), torch::Tensor()};
        const auto dy = grads[0].contiguous();
        attention_backward(s, static_cast<float>(ctx->saved_data["scale"].toDouble()), packed_heads(qkv, 0, 3, H),
                           packed_heads(qkv, 1, 3, H), packed_heads(qkv, 2, 3, H),
                           ctx->saved_data["P"].toTensor().data_ptr<float>(), packed_heads(dy, 0, 1, H),
                           packed_heads(dqkv, 0, 3, H), packed_heads(dqkv, 1, 3, H), packed_heads(dqkv, 2, 3, H));
        return {dqkv, torch::Tensor(), torch::Tensor()};
    }
};

// Attention on separate (B, H, T, d_h) q, k, v (after RoPE or nGPT's q/k normalization).
struct SplitAttention : torch::autograd::Function<SplitAttention> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& q, const torch::Tensor& k,
                                 const torch::Tensor& v, double scale) {
        const AttentionShape s{q.size(0), q.size(1), q.size(2), q.size(3)};
        ctx->save_for_backward({q, k, v});
        return run_attention_forward(ctx, s, scale, heads_of(q), heads_of(k), heads_of(v), q.options());
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &q = saved[0], &k = saved[1], &v = saved[2];
        const AttentionShape s{q.size(0), q.size(1), q.size(2), q.size(3)};
        auto dq = torch::empty({s.B, s.H, s.T, s.dh}, q.options()), dk = torch::empty_like(dq),
             dv = torch::empty_like(dq);
        if (!grads[0].defined()) return {dq.zero_(), dk.zero_(), dv.zero_(), torch::Tensor()};
        const auto dy = grads[0].contiguous();
        attention_backward(s, static_cast<float>(ctx->saved_data["scale"].toDouble()), heads_of(q), heads_of(k),
                           heads_of(v), ctx->saved_data["P"].toTensor().data_ptr<float>(),
                           packed_heads(dy, 0, 1, s.H), heads_of(dq), heads_of(dk), heads_of(dv));
        return {dq, dk, dv, torch::Tensor()};
    }
};

void check_fused_input(const torch::Tensor& t, const char* what) {
    TORCH_CHECK(t.device().is_cpu() && t.scalar_type() == torch::kFloat,
                "fused attention: ", what, " must be a float32 CPU tensor");
    TORCH_CHECK(kernels::attention_kernel_available(), "fused attention: this process has no BLAS sgemm_");
}

torch::Tensor with_max(variable_list out, torch::Tensor* max_logit) {
    if (max_logit) *max_logit = out[1].max();
    return out[0];
}


// Row chunks for the row-wise kernels: one per thread, fixed by the thread
// count (so the per-chunk partial sums of dγ, dβ add up in a fixed order).
int64_t row_chunk_count(int64_t rows) { return std::max<int64_t>(1, std::min<int64_t>(at::get_num_threads(), rows)); }

template <typename F>
void for_row_chunks(int64_t rows, F&& f) {
    const int64_t chunks = row_chunk_count(rows);
    at::parallel_for(0, chunks, 1, [&](int64_t begin, int64_t end) {
        for (int64_t c = begin; c < end; ++c) f(c, rows * c / chunks, rows * (c + 1) / chunks);
    });
}

struct UnitNormFn : torch::autograd::Function<UnitNormFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x_in, double eps) {
        const auto x = x_in.contiguous();
        const int64_t n = x.size(-1), rows = x.numel() / n;
        auto y = torch::empty_like(x);
        auto norms = torch::empty({rows}, x.options());
        for_row_chunks(rows, [&](int64_t, int64_t r0, int64_t r1) {
            kernels::unit_norm_forward_rows(x.data_ptr<float>() + r0 * n, y.data_ptr<float>() + r0 * n,
                                            norms.data_ptr<float>() + r0, r1 - r0, n, static_cast<float>(eps));
        });
        ctx->save_for_backward({y});   // the output: no copy of x kept
        ctx->saved_data["norms"] = norms;
        ctx->saved_data["eps"] = eps;
        return {y};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto y = ctx->get_saved_variables()[0];
        const auto norms = ctx->saved_data["norms"].toTensor();
        const float eps = static_cast<float>(ctx->saved_data["eps"].toDouble());
        const auto g = grads[0].contiguous();
        const int64_t n = y.size(-1), rows = y.numel() / n;
        auto dx = torch::empty_like(y);
        for_row_chunks(rows, [&](int64_t, int64_t r0, int64_t r1) {
            kernels::unit_norm_backward_rows(y.data_ptr<float>() + r0 * n, norms.data_ptr<float>() + r0,
                                             g.data_ptr<float>() + r0 * n, dx.data_ptr<float>() + r0 * n, r1 - r0, n,
                                             eps);
        });
        return {dx, torch::Tensor()};
    }
};

struct SwiGLUFn : torch::autograd::Function<SwiGLUFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& h_in, const torch::Tensor& su,
                                 const torch::Tensor& sv) {
        const auto h = h_in.contiguous();
        const int64_t f = h.size(-1) / 2, rows = h.numel() / h.size(-1);
        auto sizes = h.sizes().vec();
        sizes.back() = f;
        auto a = torch::empty(sizes, h.options());
        const auto suc = su.contiguous(), svc = sv.contiguous();   // empty: no scaler
        const float* sup = suc.numel() ? suc.data_ptr<float>() : nullptr;
        const float* svp = svc.numel() ? svc.data_ptr<float>() : nullptr;
        for_row_chunks(rows, [&](int64_t, int64_t r0, int64_t r1) {
            kernels::swiglu_forward_rows(h.data_ptr<float>() + r0 * 2 * f, sup, svp, a.data_ptr<float>() + r0 * f,
                                         r1 - r0, f);
        });
        ctx->save_for_backward({h, suc, svc});
        return {a};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &h = saved[0], &su = saved[1], &sv = saved[2];
        const auto da = grads[0].contiguous();
        const int64_t f = h.size(-1) / 2, rows = h.numel() / h.size(-1);
        const int64_t chunks = row_chunk_count(rows);
        auto dh = torch::empty_like(h);
        auto partial = torch::zeros({2, chunks, f}, h.options());   // ds_u, ds_v per chunk
        const float* sup = su.numel() ? su.data_ptr<float>() : nullptr;
        const float* svp = sv.numel() ? sv.data_ptr<float>() : nullptr;
        for_row_chunks(rows, [&](int64_t c, int64_t r0, int64_t r1) {
            kernels::swiglu_backward_rows(h.data_ptr<float>() + r0 * 2 * f, sup, svp, da.data_ptr<float>() + r0 * f,
                                          dh.data_ptr<float>() + r0 * 2 * f, partial[0][c].data_ptr<float>(),
                                          partial[1][c].data_ptr<float>(), r1 - r0, f);
        });
        const auto sums = partial.sum(1);
        return {dh, sup ? sums[0] : torch::Tensor(), svp ? sums[1] : torch::Tensor()};
    }
};

struct NgptUpdateFn : torch::autograd::Function<NgptUpdateFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x_in, const torch::Tensor& h_in,
                                 const torch::Tensor& alpha_in, double eps) {
        const auto x = x_in.contiguous(), h = h_in.contiguous(), alpha = alpha_in.contiguous();
        const int64_t n = x.size(-1), rows = x.numel() / n;
        auto y = torch::empty_like(x), hn = torch::empty_like(x);
        auto nh = torch::empty({rows}, x.options()), nu = torch::empty({rows}, x.options());
        for_row_chunks(rows, [&](int64_t, int64_t r0, int64_t r1) {
            std::vector<float> scratch(n);
            kernels::ngpt_update_forward_rows(x.data_ptr<float>() + r0 * n, h.data_ptr<float>() + r0 * n,
                                              alpha.data_ptr<float>(), static_cast<float>(eps),
                                              y.data_ptr<float>() + r0 * n, hn.data_ptr<float>() + r0 * n,
                                              nh.data_ptr<float>() + r0, nu.data_ptr<float>() + r0, r1 - r0, n,
                                              scratch.data());
        });
        ctx->save_for_backward({x, alpha, y});
        ctx->saved_data["hn"] = hn;
        ctx->saved_data["nh"] = nh;
        ctx->saved_data["nu"] = nu;
        ctx->saved_data["eps"] = eps;
        return {y};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &alpha = saved[1], &y = saved[2];
        const auto hn = ctx->saved_data["hn"].toTensor(), nh = ctx->saved_data["nh"].toTensor(),
                   nu = ctx->saved_data["nu"].toTensor();
        const float eps = static_cast<float>(ctx->saved_data["eps"].toDouble());
        const auto g = grads[0].contiguous();
        const int64_t n = x.size(-1), rows = x.numel() / n;
        const int64_t chunks = row_chunk_count(rows);
        auto dx = torch::empty_like(x), dh = torch::empty_like(x);
        auto partial = torch::zeros({chunks, n}, x.options());
        for_row_chunks(rows, [&](int64_t c, int64_t r0, int64_t r1) {
            std::vector<float> scratch(n);
            kernels::ngpt_update_backward_rows(x.data_ptr<float>() + r0 * n, alpha.data_ptr<float>(),
                                               hn.data_ptr<float>() + r0 * n, y.data_ptr<float>() + r0 * n,
                                               nh.data_ptr<float>() + r0, nu.data_ptr<float>() + r0,
                                               g.data_ptr<float>() + r0 * n, eps, dx.data_ptr<float>() + r0 * n,
                                               dh.data_ptr<float>() + r0 * n, partial[c].data_ptr<float>(), r1 - r0,
                                               n, scratch.data());
        });
        return {dx, dh, partial.sum(0).view(alpha.sizes()), torch::Tensor()};
    }
};

struct GeluLayerNormFn : torch::autograd::Function<GeluLayerNormFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& h_in, const torch::Tensor& gamma,
                                 const torch::Tensor& beta, double eps) {
        const auto h = h_in.contiguous();
        const int64_t n = h.size(-1), rows = h.numel() / std::max<int64_t>(1, n);
        auto out = torch::empty_like(h);
        auto mean = torch::empty({rows}, h.options()), rstd = torch::empty({rows}, h.options());
        const auto gc = gamma.contiguous(), bc = beta.contiguous();
        for_row_chunks(rows, [&](int64_t, int64_t r0, int64_t r1) {
            std::vector<float> scratch(n);
            kernels::gelu_layer_norm_forward_rows(h.data_ptr<float>() + r0 * n, gc.data_ptr<float>(),
                                                  bc.data_ptr<float>(), static_cast<float>(eps),
                                                  out.data_ptr<float>() + r0 * n, mean.data_ptr<float>() + r0,
                                                  rstd.data_ptr<float>() + r0, r1 - r0, n, scratch.data());
        });
        ctx->save_for_backward({h, gc});
        ctx->saved_data["mean"] = mean;
        ctx->saved_data["rstd"] = rstd;
        return {out};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &h = saved[0], &gamma = saved[1];
        const auto mean = ctx->saved_data["mean"].toTensor(), rstd = ctx->saved_data["rstd"].toTensor();
        const auto g = grads[0].contiguous();
        const int64_t n = h.size(-1), rows = h.numel() / std::max<int64_t>(1, n);
        const int64_t chunks = row_chunk_count(rows);
        auto dh = torch::empty_like(h);
        auto partial = torch::zeros({2, chunks, n}, h.options());   // dγ, dβ per chunk
        for_row_chunks(rows, [&](int64_t c, int64_t r0, int64_t r1) {
            std::vector<float> scratch(2 * n);
            kernels::gelu_layer_norm_backward_rows(
                h.data_ptr<float>() + r0 * n, gamma.data_ptr<float>(), mean.data_ptr<float>() + r0,
                rstd.data_ptr<float>() + r0, g.data_ptr<float>() + r0 * n, dh.data_ptr<float>() + r0 * n,
                partial[0][c].data_ptr<float>(), partial[1][c].data_ptr<float>(), r1 - r0, n, scratch.data());
        });
        const auto sums = partial.sum(1);
        return {dh, sums[0], sums[1], torch::Tensor()};
    }
};

}  // namespace

bool fused_kernels_enabled() {
    int on = g_fused_kernels.load();
    if (on < 0) {
        const char* env = std::getenv("NORMLAB_FUSED_KERNELS");
        on = (env && std::strcmp(env, "0") == 0) ? 0 : 1;
        g_fused_kernels.store(on);
    }
    return on == 1;
}

void set_fused_kernels(bool on) { g_fused_kernels.store(on ? 1 : 0); }

torch::Tensor fused_causal_attention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                                     double scale, torch::Tensor* max_logit) {
    check_fused_input(q, "q");
    auto last_contiguous = [](const torch::Tensor& t) { return t.stride(-1) == 1 ? t : t.contiguous(); };
    return with_max(SplitAttention::apply(last_contiguous(q), last_contiguous(k), last_contiguous(v), scale),
                    max_logit);
}

torch::Tensor fused_causal_attention_packed(const torch::Tensor& qkv, int64_t n_heads, double scale,
                                            torch::Tensor* max_logit) {
    check_fused_input(qkv, "qkv");
    TORCH_CHECK(qkv.dim() == 3 && qkv.size(2) % (3 * n_heads) == 0, "fused attention: qkv must be (B, T, 3·d)");
    return with_max(PackedAttention::apply(qkv.contiguous(), n_heads, scale), max_logit);
}

torch::Tensor fused_unit_norm(const torch::Tensor& x, double eps) {
    TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == torch::kFloat,
                "fused unit norm: x must be a float32 CPU tensor");
    return UnitNormFn::apply(x, eps)[0];
}

torch::Tensor ngpt_update(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha, double eps) {
    if (fused_kernels_enabled() && x.device().is_cpu() && x.scalar_type() == torch::kFloat && x.numel() > 0 &&
        alpha.numel() == x.size(-1))
        return NgptUpdateFn::apply(x, h, alpha, eps)[0];
    return unit_norm(x + alpha * (unit_norm(h, -1, eps) - x), -1, eps);
}

torch::Tensor fused_swiglu(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv) {
    TORCH_CHECK(h.device().is_cpu() && h.scalar_type() == torch::kFloat && h.size(-1) % 2 == 0,
                "fused SwiGLU: h must be a float32 CPU tensor [u | g]");
    TORCH_CHECK((!su.defined() || su.numel() == h.size(-1) / 2) && (!sv.defined() || sv.numel() == h.size(-1) / 2),
                "fused SwiGLU: the scalers must have half h's last dimension");
    // Autograd functions take defined tensors: an absent scaler travels as an empty one.
    const auto none = torch::empty({0}, h.options());
    return SwiGLUFn::apply(h, su.defined() ? su : none, sv.defined() ? sv : none)[0];
}

torch::Tensor fused_gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                                    double eps) {
    TORCH_CHECK(h.device().is_cpu() && h.scalar_type() == torch::kFloat,
                "fused GELU + LayerNorm: h must be a float32 CPU tensor");
    TORCH_CHECK(gamma.numel() == h.size(-1) && beta.numel() == h.size(-1),
                "fused GELU + LayerNorm: gamma and beta must have h's last dimension");
    return GeluLayerNormFn::apply(h, gamma, beta, eps)[0];
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

torch::Tensor AttentionImpl::causal_mask(int64_t T, const torch::Device& dev) {
    if (!mask_.defined() || mask_.size(0) != T || mask_.device() != dev)
        mask_ = torch::ones({T, T}, torch::TensorOptions().dtype(torch::kBool).device(dev)).triu(1);
    return mask_;
}

torch::Tensor AttentionImpl::forward(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin,
                                     ForwardCapture* cap) {
    const int64_t B = x.size(0), T = x.size(1), d = cfg.d_model, H = cfg.n_heads, dh = d / H;
    const bool fused = fused_kernels_enabled() && kernels::attention_kernel_available() && x.device().is_cpu() &&
                       x.scalar_type() == torch::kFloat && !(cfg.dropout > 0 && is_training());
    const auto proj = qkv(x);                                              // (B, T, 3d)
    torch::Tensor y, max_logit;                                            // y: (B, T, d)
    double scale = 1.0 / std::sqrt(static_cast<double>(dh));
    if (fused && !cos.defined() && cfg.layout != Layout::NGPT) {
        // q, k, v are read in place from the projection; the gradient comes back packed.
        y = fused_causal_attention_packed(proj, H, scale, cap ? &max_logit : nullptr);
    } else {
        auto qkv_ = proj.view({B, T, 3, H, dh}).permute({2, 0, 3, 1, 4});  // (3, B, H, T, d_h)
        auto q = qkv_[0], k = qkv_[1], v = qkv_[2];                       // (B, H, T, d_h)
        if (cos.defined()) {
            q = q * cos + rotate_half(q) * sin;
            k = k * cos + rotate_half(k) * sin;
        }
        if (cfg.layout == Layout::NGPT) {
            const double base = 1.0 / std::sqrt(static_cast<double>(d));
            auto sqk = ngpt_scaled(s_qk, 1.0, base).view({1, H, 1, dh});
            if (cfg.ngpt.qk_norm) {
                q = unit_norm(q, -1, cfg.ngpt.eps);
                k = unit_norm(k, -1, cfg.ngpt.eps);
            }
            q = q * sqk;
            k = k * sqk;
            scale = std::sqrt(static_cast<double>(dh));                    // logits = cos·d_h^(1/2)·s_qk²
        }
        if (fused) {
            y = fused_causal_attention(q, k, v, scale, cap ? &max_logit : nullptr);
        } else {
            torch::Tensor yh;                                              // (B, H, T, d_h)
#if NORMLAB_HAS_SDPA
            if (!cap) {
                // Fused attention of LibTorch ≥ 2.1 (GPUs); the explicit path below records the max logit.
                yh = at::scaled_dot_product_attention(q, k, v, {}, is_training() ? cfg.dropout : 0.0,
                                                      /*is_causal=*/true, scale);
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
    if (cap) cap->max_logit.push_back(max_logit.detach());
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
    auto o = torch::linear(y, W, bias);
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

torch::Tensor MLPImpl::forward(const torch::Tensor& x, ForwardCapture* cap) {
    auto h = fc1(x);                                                       // (B, T, d_ff | 2·d_ff)
    torch::Tensor a;
    bool normed = false;                                                   // FFN LN applied already
    const bool fused = fused_kernels_enabled() && h.device().is_cpu() && h.scalar_type() == torch::kFloat;
    if (cfg.activation == Activation::SwiGLU) {
        torch::Tensor su, sv;                                              // nGPT's scalers, effective values
        if (cfg.layout == Layout::NGPT) {
            su = s_u;                                                      // s_init = s_scale = 1
            sv = s_v * std::sqrt(static_cast<double>(cfg.d_model));
        }
        if (fused) {
            a = fused_swiglu(h, su, sv);
        } else {
            auto parts = h.chunk(2, -1);
            auto u = parts[0], g = parts[1];                               // (B, T, d_ff) each
            if (su.defined()) u = u * su;
            if (sv.defined()) g = g * sv;
            a = u * torch::silu(g);
        }
    } else if (cfg.activation == Activation::GELU && ffn_norm && ffn_norm->kind == NormKind::LayerNorm && fused) {
        a = fused_gelu_layer_norm(h, ffn_norm->weight, ffn_norm->bias, ffn_norm->eps);   // NormFormer's FFN LN
        normed = true;
    } else {
        a = activation(h, cfg.activation);
    }
    if (cap) {
        // GELU and ReLU are positive exactly where h is; SwiGLU's sign is its own.
        torch::NoGradGuard ng;
        const auto& act = cfg.activation == Activation::SwiGLU ? a : h;
        cap->act_active.push_back((act.detach() > 0).to(torch::kFloat).mean());
    }
    if (ffn_norm && !normed) a = ffn_norm(a);
    auto o = fc2(a);                                                       // (B, T, d)
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
                                 const torch::Tensor& sin, ForwardCapture* cap) {
    torch::Tensor x = x_in;
    if (cfg.layout == Layout::NGPT) {
        const double eps = cfg.ngpt.eps, d = cfg.d_model;
        const double base = 1.0 / std::sqrt(d);
        auto aA = ngpt_scaled(alpha_A, cfg.ngpt.alpha_init, base).abs();
        auto aM = ngpt_scaled(alpha_M, cfg.ngpt.alpha_init, base).abs();
        x = ngpt_update(x, attn(x, cos, sin, cap), aA, eps);               // h ← norm(h + α_A(norm(h_A) − h))
        return ngpt_update(x, mlp(x, cap), aM, eps);
    }
    const double a = residual_alpha;
    auto residual = [&](const torch::Tensor& r) { return a == 1.0 ? r : r * a; };
    auto branch_out = [&](const torch::Tensor& f) { return branch == 1.0 ? f : f * branch; };
    if (cfg.layout == Layout::Post) {
        x = norm1(residual(x) + branch_out(attn(x, cos, sin, cap)));        // x ← LN(α·x + α_t·F(x))
        auto f = branch_out(mlp(x, cap));
        return norm2(res_scale.defined() ? torch::addcmul(f, residual(x), res_scale) : residual(x) + f);
    }
    x = residual(x) + branch_out(attn(norm1(x), cos, sin, cap));           // x ← x + F(LN(x))
    auto f = branch_out(mlp(norm2(x), cap));
    if (res_scale.defined()) return torch::addcmul(f, residual(x), res_scale);   // ResScale: λ ⊙ x + f, one pass
    return residual(x) + f;
}

// ---- GPT --------------------------------------------------------------------
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

torch::Tensor GPTImpl::positions_table(int64_t T, const torch::Device& dev) {
    if (!sinusoid_.defined() || sinusoid_.size(0) < T || sinusoid_.device() != dev) {
        const int64_t d = cfg.d_model, n = std::max<int64_t>(T, cfg.context);
        auto pos = torch::arange(n, torch::kFloat).unsqueeze(1);                           // (n, 1)
        auto div = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / d));  // (ceil(d/2))
        auto pe = torch::zeros({n, d});
        pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                      torch::sin(pos * div));
        pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                      torch::cos(pos * div.narrow(0, 0, d / 2)));
        sinusoid_ = pe.to(dev);
    }
    return sinusoid_.narrow(0, 0, T);
}

void GPTImpl::rope_tables(int64_t T, const torch::Device& dev, torch::Tensor& cos, torch::Tensor& sin) {
    if (!rope_cos_.defined() || rope_cos_.size(0) < T || rope_cos_.device() != dev) {
        const int64_t dh = cfg.head_dim(), n = std::max<int64_t>(T, cfg.context);
        auto inv = torch::pow(10000.0, -torch::arange(0, dh, 2, torch::kDouble) / dh);    // (d_h/2)
        auto freqs = torch::outer(torch::arange(n, torch::kDouble), inv);                    // (n, d_h/2)
        auto emb = torch::cat({freqs, freqs}, -1);                                           // (n, d_h)
        rope_cos_ = emb.cos().to(torch::kFloat).to(dev);
        rope_sin_ = emb.sin().to(torch::kFloat).to(dev);
    }
    cos = rope_cos_.narrow(0, 0, T);
    sin = rope_sin_.narrow(0, 0, T);
}

torch::Tensor GPTImpl::forward(const torch::Tensor& idx, ForwardCapture* cap) {
    const int64_t T = idx.size(1);
    TORCH_CHECK(T <= cfg.context, "sequence length ", T, " exceeds model.context ", cfg.context);
    auto x = tok_emb(idx);                                                 // (B, T, d)
    if (cfg.embed_scale) x = x * std::sqrt(static_cast<double>(cfg.d_model));
    if (cfg.positions == Positions::Learned) x = x + pos_emb.narrow(0, 0, T);
    else if (cfg.positions == Positions::Sinusoidal) x = x + positions_table(T, x.device());
    torch::Tensor cos, sin;
    if (cfg.positions == Positions::RoPE) rope_tables(T, x.device(), cos, sin);
    if (cfg.dropout > 0) x = torch::dropout(x, cfg.dropout, is_training());
    for (auto& m : *blocks) {
        auto prev = x;
        x = m->as<Block>()->forward(x, branch_alpha, cos, sin, cap);
        if (cap) {
            torch::NoGradGuard ng;
            auto xd = x.detach(), pd = prev.detach();
            auto sq = xd.pow(2).sum(-1);                                  // (B, T)
            cap->hidden_norm.push_back(sq.sqrt().mean());
            cap->hidden_sq.push_back(sq.mean() / cfg.d_model);
            cap->cos_prev.push_back(torch::cosine_similarity(pd, xd, -1).mean());
        }
    }
    if (final_norm) x = final_norm(x);
    auto W = lm_head.defined() ? lm_head : tok_emb->weight;
    auto logits = torch::matmul(x, W.t());                                 // (B, T, V)
    if (s_z.defined()) logits = logits * ngpt_scaled(s_z, 1.0, 1.0 / std::sqrt(double(cfg.d_model)));
    return logits;
}

torch::Tensor GPTImpl::loss(const torch::Tensor& logits, const torch::Tensor& targets) {
    return torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(-1)}), targets.reshape({-1}));
}

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

int64_t GPTImpl::parameter_count(bool trainable_only) {
    int64_t n = 0;
    for (auto& p : parameters())
        if (!trainable_only || p.requires_grad()) n += p.numel();
    return n;
}

}  // namespace normlab
