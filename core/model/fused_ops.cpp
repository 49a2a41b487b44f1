// NormLab core: autograd functions around the fused CPU kernels (fused_ops.h,
// cpu_kernels.h), run in parallel over heads or chunks of rows, and the
// dispatch that picks them or LibTorch's eager ops.
#include "core/model/fused_ops.h"

#include "core/model/cpu_kernels.h"
#include "core/model/profile_scope.h"

#include <ATen/Parallel.h>

#ifdef NORMLAB_CUDA_KERNELS
#include "core/model/cuda_ops.h"
#endif

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace normlab {

torch::Tensor unit_norm(const torch::Tensor& x, int64_t dim, double eps) {
    if ((dim == -1 || dim == x.dim() - 1) && fused_kernels_enabled() && x.device().is_cpu() &&
        x.scalar_type() == torch::kFloat && x.numel() > 0)
        return fused_unit_norm(x, eps);
    return x / (x.norm(2, dim, /*keepdim=*/true) + eps);
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
        const FunctionScope scope("normlab::attention_packed", qkv);
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
        const FunctionScope scope("normlab::attention_split", q, k);
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
        const FunctionScope scope("normlab::unit_norm", x_in);
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
        const FunctionScope scope("normlab::swiglu", h_in);
        const auto h = h_in.contiguous();
        const int64_t f = h.size(-1) / 2, rows = h.numel() / h.size(-1);
        auto a = swiglu_output(h);
        const auto suc = su.contiguous(), svc = sv.contiguous();   // empty: no scaler
        const float *sup = scaler_data(suc), *svp = scaler_data(svc);
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
        const float *sup = scaler_data(su), *svp = scaler_data(sv);
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
        const FunctionScope scope("normlab::ngpt_update", x_in, h_in);
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
        const FunctionScope scope("normlab::gelu_layer_norm", h_in);
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

namespace {
// A switch read once from the environment (`name` set to the opposite of
// `default_on` flips it), until set_… decides it.
bool env_switch(std::atomic<int>& state, const char* name, bool default_on) {
    int on = state.load();
    if (on < 0) {
        const char* env = std::getenv(name);
        on = (env && std::strcmp(env, default_on ? "0" : "1") == 0) ? !default_on : default_on;
        state.store(on);
    }
    return on == 1;
}
std::atomic<int> g_cuda_kernels{-1};
std::atomic<bool> g_residual_ln_on_cpu{false};
std::atomic<bool> g_copies_on_cpu{false};
std::atomic<int64_t> g_residual_ln_calls{0};
}  // namespace

bool fused_kernels_enabled() { return env_switch(g_fused_kernels, "NORMLAB_FUSED_KERNELS", true); }
void set_fused_kernels(bool on) { g_fused_kernels.store(on ? 1 : 0); }

bool cuda_kernels_built() {
#ifdef NORMLAB_CUDA_KERNELS
    return true;
#else
    return false;
#endif
}
bool cuda_kernels_enabled() { return env_switch(g_cuda_kernels, "NORMLAB_CUDA_KERNELS", true) && cuda_kernels_built(); }
void set_cuda_kernels(bool on) { g_cuda_kernels.store(on ? 1 : 0); }


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

torch::Tensor ngpt_update(const torch::Tensor& x, const torch::Tensor& h_in, const torch::Tensor& alpha, double eps,
                          torch::Tensor* copy) {
    if (copy) *copy = torch::Tensor();
#ifdef NORMLAB_CUDA_KERNELS
    if (cuda_kernels_enabled() && cuda_ops::ngpt_update_applies(x, h_in, alpha))
        return cuda_ops::ngpt_update(x, h_in, alpha, eps, h_in.scalar_type() != x.scalar_type() ? copy : nullptr);
#endif
    const auto h = h_in.scalar_type() == x.scalar_type() ? h_in : h_in.to(x.scalar_type());
    torch::Tensor y;
    if (fused_kernels_enabled() && x.device().is_cpu() && x.scalar_type() == torch::kFloat && x.numel() > 0 &&
        alpha.numel() == x.size(-1))
        y = NgptUpdateFn::apply(x, h, alpha, eps)[0];
    else
        y = unit_norm(x + alpha * (unit_norm(h, -1, eps) - x), -1, eps);
    if (copy && g_copies_on_cpu && y.device().is_cpu()) *copy = y.clone();   // the plumbing's tests: a copy to follow
    return y;
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

torch::Tensor gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                              double eps, const torch::Tensor& fc1_bias) {
#ifdef NORMLAB_CUDA_KERNELS
    if (cuda_kernels_enabled() && cuda_ops::gelu_layer_norm_applies(h, gamma, beta))
        return cuda_ops::gelu_layer_norm(h, gamma, beta, eps, fc1_bias);
#endif
    if (fused_kernels_enabled() && h.device().is_cpu() && h.scalar_type() == torch::kFloat)
        return fused_gelu_layer_norm(with_bias_grad(h, fc1_bias), gamma, beta, eps);
    return {};
}

bool residual_layer_norm(const torch::Tensor& x, const torch::Tensor& f, const torch::Tensor& lam, double a, double b,
                         const torch::Tensor& gamma, const torch::Tensor& beta, double eps, torch::ScalarType y_type,
                         torch::Tensor& s, torch::Tensor& y, const torch::Tensor& b_t,
                         const BranchNormParams* f_norm, torch::Tensor* y_copy, const torch::Tensor& f_bias) {
    const torch::Tensor none;
    if (y_copy) *y_copy = torch::Tensor();
    const auto& fg = f_norm ? f_norm->gamma : none;
    const auto& fb = f_norm ? f_norm->beta : none;
#ifdef NORMLAB_CUDA_KERNELS
    if (cuda_kernels_enabled() && (y_type == torch::kFloat || y_type == torch::kBFloat16) &&
        cuda_ops::residual_layer_norm_applies(x, f, lam, gamma, beta, b_t, fg, fb)) {
        // a copy only where it differs from y: a float32 y, a bf16 branch (autocast)
        const bool copy = y_copy && y_type == torch::kFloat && f.scalar_type() == torch::kBFloat16;
        std::tie(s, y) = cuda_ops::residual_layer_norm(x, f, lam, a, b, b_t, gamma, beta, eps, y_type == torch::kBFloat16,
                                                       fg, fb, f_norm ? f_norm->eps : 0.0, copy ? y_copy : nullptr,
                                                       f_bias);
        ++g_residual_ln_calls;
        return true;
    }
#endif
    if (g_residual_ln_on_cpu && x.device().is_cpu() && gamma.defined() && beta.defined() &&
        (!f_norm || (fg.defined() && fb.defined()))) {
        // The kernel's contract in eager ops, for the tests of the model's plumbing on a CPU.
        const auto ax = a == 1.0 ? x : x * a;
        const auto fw = with_bias_grad(f, f_bias);
        const auto fn = f_norm ? torch::layer_norm(fw.to(torch::kFloat), {f.size(-1)}, fg, fb, f_norm->eps) : fw;
        const auto bf = b_t.defined() ? fn.to(torch::kFloat) * b_t : b == 1.0 ? fn : fn * b;
        s = (lam.defined() ? ax * lam : ax) + bf;
        y = torch::layer_norm(s, {s.size(-1)}, gamma, beta, eps).to(y_type);
        if (y_copy && g_copies_on_cpu) *y_copy = y.clone();   // the plumbing's tests: a copy to follow
        ++g_residual_ln_calls;
        return true;
    }
    return false;
}

void set_residual_layer_norm_on_cpu(bool on) { g_residual_ln_on_cpu = on; }
void set_linear_copies_on_cpu(bool on) { g_copies_on_cpu = on; }
int64_t residual_layer_norm_calls() { return g_residual_ln_calls.load(); }

torch::Tensor swiglu(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv) {
#ifdef NORMLAB_CUDA_KERNELS
    if (cuda_kernels_enabled() && cuda_ops::swiglu_applies(h, su, sv)) return cuda_ops::swiglu(h, su, sv);
#endif
    if (fused_kernels_enabled() && h.device().is_cpu() && h.scalar_type() == torch::kFloat) return fused_swiglu(h, su, sv);
    auto parts = h.chunk(2, -1);
    auto u = parts[0], g = parts[1];                                       // (…, f) each
    if (su.defined()) u = u * su;
    if (sv.defined()) g = g * sv;
    return u * torch::silu(g);
}

torch::Tensor fused_gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                                    double eps) {
    TORCH_CHECK(h.device().is_cpu() && h.scalar_type() == torch::kFloat,
                "fused GELU + LayerNorm: h must be a float32 CPU tensor");
    TORCH_CHECK(gamma.numel() == h.size(-1) && beta.numel() == h.size(-1),
                "fused GELU + LayerNorm: gamma and beta must have h's last dimension");
    return GeluLayerNormFn::apply(h, gamma, beta, eps)[0];
}

}  // namespace normlab
