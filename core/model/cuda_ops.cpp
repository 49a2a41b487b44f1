// NormLab core: NormLab's CUDA kernels (cuda_kernels.cu) as LibTorch autograd
// operations (cuda_ops.h). Each launches on the current stream, so the ops
// are captured with the rest of a step into a CUDA graph
// (train/static_step.h).
#include "core/model/cuda_ops.h"

#include "core/model/cuda_host.h"
#include "core/model/cuda_kernels.h"
#include "core/model/profile_scope.h"
#include "core/model/fused_ops.h"

namespace normlab::cuda_ops {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

using cuda_host::stream;
// The kernels' storage types: float32 and bfloat16.
bool bf16(const torch::Tensor& t) { return t.scalar_type() == torch::kBFloat16; }
bool kernel_storage(const torch::Tensor& t) { return t.scalar_type() == torch::kFloat || bf16(t); }
// On a GPU the kernels were built for (cuda_host.h).
bool kernel_gpu(const torch::Tensor& t) { return cuda_host::kernel_device(t); }
// A float32 tensor on t's device: per-row statistics, per-chunk partial sums.
torch::Tensor floats(const torch::Tensor& t, at::IntArrayRef sizes) {
    return torch::empty(sizes, t.options().dtype(torch::kFloat));
}

// y's gradient from y's readers and from its copy's (the next linear layer's, in
// the copy's type): one float32 tensor, or undefined where neither was read.
torch::Tensor with_copy_grad(const torch::Tensor& g, const torch::Tensor& g_copy) {
    if (!g_copy.defined()) return g;
    return g.defined() ? g + g_copy : g_copy.to(torch::kFloat);   // one pass: the copy's cast folded into the add
}

// nGPT's residual update, one kernel each way; saves the inputs and two norms
// a row, and recomputes the rest in the backward pass. The branch's output h
// comes as the branch made it (bf16 under autocast: no cast to float32 and back
// for its gradient, ~6 ms of nGPT's step at GPT-2 small's shape on an H200).
struct NgptUpdateFn : torch::autograd::Function<NgptUpdateFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x_in, const torch::Tensor& h_in,
                                 const torch::Tensor& alpha_in, double eps, bool copy) {
        const FunctionScope scope("normlab::ngpt_update", x_in, h_in);
        const cuda_host::DeviceGuard guard(x_in.device());
        const auto x = x_in.contiguous(), h = h_in.contiguous(), alpha = alpha_in.contiguous();
        const int64_t n = x.size(-1), rows = x.numel() / n;
        auto y = torch::empty_like(x);
        auto y_copy = copy ? torch::empty_like(h) : floats(x, {0});
        auto rh = floats(x, {rows}), rz = floats(x, {rows});
        cuda_kernels::ngpt_update_forward(x.data_ptr<float>(), h.data_ptr(), alpha.data_ptr<float>(),
                                          static_cast<float>(eps), y.data_ptr<float>(), rh.data_ptr<float>(),
                                          rz.data_ptr<float>(), rows, n, bf16(h), stream(),
                                          copy ? y_copy.data_ptr() : nullptr);
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        ctx->set_materialize_grads(false);
        ctx->save_for_backward({x, h, alpha, rh, rz});
        ctx->saved_data["eps"] = eps;
        return {y, y_copy};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &x = saved[0], &h = saved[1], &alpha = saved[2], &rh = saved[3], &rz = saved[4];
        const cuda_host::DeviceGuard guard(x.device());
        const int64_t n = x.size(-1), rows = x.numel() / n;
        // y's copy's gradient added inside the kernel, as it reads y's (one pass over 10 bytes an element less)
        const bool copy_in_kernel = grads[0].defined() && grads[1].defined() &&
                                    grads[1].scalar_type() == h.scalar_type() && cuda_kernels::copy_grad_in_kernel(n);
        auto g = copy_in_kernel ? grads[0] : with_copy_grad(grads[0], grads[1]);
        if (!g.defined()) return variable_list(5);
        g = g.contiguous();
        const auto g_copy = copy_in_kernel ? grads[1].contiguous() : torch::Tensor();
        auto dx = torch::empty_like(x), dh = torch::empty_like(h);
        auto da = floats(x, {cuda_kernels::ngpt_update_alpha_rows(rows, n), n});
        cuda_kernels::ngpt_update_backward(x.data_ptr<float>(), h.data_ptr(), alpha.data_ptr<float>(),
                                           rh.data_ptr<float>(), rz.data_ptr<float>(), g.data_ptr<float>(),
                                           static_cast<float>(ctx->saved_data["eps"].toDouble()), dx.data_ptr<float>(),
                                           dh.data_ptr(), da.data_ptr<float>(), rows, n, bf16(h), stream(),
                                           copy_in_kernel ? g_copy.data_ptr() : nullptr);
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        return {dx, dh, da.sum(0).view(alpha.sizes()), torch::Tensor(), torch::Tensor()};
    }
};

// SwiGLU, one kernel each way over h's storage type; saves h (the linear
// layer's output, which autograd keeps anyway) and recomputes silu backward.
// The scalers' gradients are summed per chunk of rows by the kernel and over
// the chunks here, in a fixed order.
struct SwiGLUFn : torch::autograd::Function<SwiGLUFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& h_in, const torch::Tensor& su,
                                 const torch::Tensor& sv) {
        const FunctionScope scope("normlab::swiglu", h_in);
        const cuda_host::DeviceGuard guard(h_in.device());
        const auto h = h_in.contiguous();
        const int64_t f = h.size(-1) / 2, rows = h.numel() / h.size(-1);
        auto a = swiglu_output(h);
        const auto suc = su.contiguous(), svc = sv.contiguous();   // empty: no scaler
        cuda_kernels::swiglu_forward(h.data_ptr(), scaler_data(suc), scaler_data(svc), a.data_ptr(), rows, f,
                                     bf16(h), stream());
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        ctx->save_for_backward({h, suc, svc});
        return {a};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &h = saved[0], &su = saved[1], &sv = saved[2];
        const cuda_host::DeviceGuard guard(h.device());
        const auto da = grads[0].to(h.scalar_type()).contiguous();
        const int64_t f = h.size(-1) / 2, rows = h.numel() / h.size(-1);
        auto dh = torch::empty_like(h);
        auto partial = floats(h, {2, cuda_kernels::row_chunks(rows), f});
        cuda_kernels::swiglu_backward(h.data_ptr(), scaler_data(su), scaler_data(sv), da.data_ptr(), dh.data_ptr(),
                                      partial[0].data_ptr<float>(), partial[1].data_ptr<float>(), rows, f,
                                      bf16(h), stream());
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        const auto sums = partial.sum(1);
        return {dh, su.numel() ? sums[0] : torch::Tensor(), sv.numel() ? sums[1] : torch::Tensor()};
    }
};

// nGPT's queries and keys from the packed projection: RoPE, the unit norm and
// s_qk in one kernel each way (cuda_qk_rows.cuh); with s empty, RoPE alone (the
// LayerNorm schemes' rotary positions). Takes the whole projection
// and returns q', k' and v (a view of the projection's v part, as attention reads
// it), so that the backward pass writes the projection's gradient once: the
// kernel its q | k part, a copy dv. Saves the projection (alive anyway), the
// tables, s_qk and a norm a head and token; the rest is recomputed backward.
struct NgptQkFn : torch::autograd::Function<NgptQkFn> {
    static cuda_kernels::QkDims dims(const torch::Tensor& proj, int64_t H, double eps, bool unit) {
        const int64_t d = proj.size(2) / 3;
        return {proj.size(0), proj.size(1), H, d / H, proj.stride(1), static_cast<float>(eps), unit};
    }
    static torch::Tensor v_part(const torch::Tensor& proj, const cuda_kernels::QkDims& z) {   // (B, H, T, d_h)
        return proj.view({z.B, z.T, 3, z.H, z.dh}).select(2, 2).permute({0, 2, 1, 3});
    }
    static const float* table(const torch::Tensor& t) { return t.numel() ? t.data_ptr<float>() : nullptr; }
    static float* written(const torch::Tensor& t) { return t.numel() ? t.data_ptr<float>() : nullptr; }
    // s: s_qk's effective values, with the unit norm (nGPT); empty: RoPE alone.
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& proj, const torch::Tensor& s,
                                 const torch::Tensor& cos, const torch::Tensor& sin, int64_t H, double eps) {
        const bool unit = s.numel() > 0;
        const FunctionScope scope(unit ? "normlab::ngpt_qk" : "normlab::rope_qk", proj);
        const cuda_host::DeviceGuard guard(proj.device());
        const auto z = dims(proj, H, eps, unit);
        auto q = torch::empty({z.B, H, z.T, z.dh}, proj.options()), k = torch::empty_like(q);
        const int64_t norms = unit ? z.B * z.T * H : 0;
        auto nq = floats(proj, {norms}), nk = floats(proj, {norms});
        const auto sc = s.contiguous();
        cuda_kernels::ngpt_qk_forward(proj.data_ptr(), table(cos), table(sin), table(sc), q.data_ptr(), k.data_ptr(),
                                      written(nq), written(nk), z, bf16(proj), stream());
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        ctx->save_for_backward({proj, sc, cos, sin, nq, nk});
        ctx->saved_data["H"] = H;
        ctx->saved_data["eps"] = eps;
        return {q, k, v_part(proj, z)};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &proj = saved[0], &s = saved[1], &cos = saved[2], &sin = saved[3], &nq = saved[4], &nk = saved[5];
        const cuda_host::DeviceGuard guard(proj.device());
        const auto z = dims(proj, ctx->saved_data["H"].toInt(), ctx->saved_data["eps"].toDouble(), s.numel() > 0);
        auto grad = [&](const torch::Tensor& g) {   // an unused output's gradient comes undefined
            return g.defined() ? g.to(proj.scalar_type()).contiguous()
                               : torch::zeros({z.B, z.H, z.T, z.dh}, proj.options());
        };
        const auto gq = grad(grads[0]), gk = grad(grads[1]);
        auto dproj = torch::empty({z.B, z.T, 3 * z.H * z.dh}, proj.options());
        auto ps = floats(proj, {s.numel() ? cuda_kernels::qk_chunks(z.B * z.T) : 0, z.H * z.dh});
        cuda_kernels::ngpt_qk_backward(proj.data_ptr(), table(cos), table(sin), table(s), gq.data_ptr(), gk.data_ptr(),
                                       table(nq), table(nk), dproj.data_ptr(), written(ps), z,
                                       bf16(proj), stream());
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        auto dv = v_part(dproj, z);
        if (grads[2].defined()) dv.copy_(grads[2]);
        else dv.zero_();
        return {dproj, s.numel() ? ps.sum(0) : torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor(),
                torch::Tensor()};
    }
};

// NormFormer's FFN LN on the GELU output: one kernel forward (a block a row),
// a row kernel and a column kernel backward (dγ and dβ in the column kernel).
// Saves h and two floats a row; the GELU output is recomputed, never stored.
// With `bias` (not empty), FC1's bias that its GEMM added without gradient:
// its gradient, Σ dh over the rows, from the column kernel too, or summed from
// dh where the row does not fit the row kernel.
struct GeluLayerNormFn : torch::autograd::Function<GeluLayerNormFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& h_in, const torch::Tensor& gamma,
                                 const torch::Tensor& beta, double eps, const torch::Tensor& bias) {
        const FunctionScope scope("normlab::gelu_layer_norm", h_in);
        const cuda_host::DeviceGuard guard(h_in.device());
        const auto h = h_in.contiguous(), gc = gamma.contiguous(), bc = beta.contiguous();
        const int64_t n = h.size(-1), rows = h.numel() / n;
        auto out = torch::empty_like(h);
        auto mean = floats(h, {rows}), rstd = floats(h, {rows});
        cuda_kernels::gelu_layer_norm_forward(h.data_ptr(), gc.data_ptr<float>(), bc.data_ptr<float>(),
                                              static_cast<float>(eps), out.data_ptr(), mean.data_ptr<float>(),
                                              rstd.data_ptr<float>(), rows, n, bf16(h),
                                              stream());
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        ctx->save_for_backward({h, gc, mean, rstd});
        ctx->saved_data["bias"] = bias.numel() > 0;
        ctx->saved_data["bias_dtype"] = static_cast<int64_t>(bias.scalar_type());
        return {out};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &h = saved[0], &gamma = saved[1], &mean = saved[2], &rstd = saved[3];
        const cuda_host::DeviceGuard guard(h.device());
        const auto g = grads[0].to(h.scalar_type()).contiguous();
        const int64_t n = h.size(-1), rows = h.numel() / n;
        // the bias is the fourth tensor input: needs_input_grad counts tensors only, not eps (4 was past the edges)
        const bool with_bias = ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(3);
        auto dh = torch::empty_like(h);
        auto partial = floats(h, {with_bias ? 3 : 2, cuda_kernels::gelu_layer_norm_chunks(rows, n), n});
        const auto row_m = with_bias ? floats(h, {rows, 2}) : torch::Tensor();
        const bool summed = cuda_kernels::gelu_layer_norm_backward(
            h.data_ptr(), gamma.data_ptr<float>(), g.data_ptr(), mean.data_ptr<float>(), rstd.data_ptr<float>(),
            dh.data_ptr(), partial[0].data_ptr<float>(), partial[1].data_ptr<float>(), rows, n, bf16(h), stream(),
            with_bias ? partial[2].data_ptr<float>() : nullptr, with_bias ? row_m.data_ptr<float>() : nullptr);
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        const auto sums = partial.sum(1);
        torch::Tensor dbias;
        if (with_bias)
            dbias = bias_grad_of(summed ? sums[2] : dh.view({rows, n}).sum(0, false, torch::kFloat),
                                 ctx->saved_data["bias_dtype"].toInt());
        return {dh, sums[0], sums[1], torch::Tensor(), dbias};
    }
};

// The residual add and the LayerNorm after it: one kernel forward (a block a
// row), a row kernel and a column kernel backward. Returns s and y; saves s
// (the LayerNorm's input, which eager keeps too), x only with λ (for dλ), and
// two floats a row. Either output may go unused (Post-LN uses only y): its
// gradient is then undefined, not zeros. With γ_f and β_f (defined, not
// empty), the branch's own LayerNorm before the add (NormFormer's
// post-attention LN) in the same kernels: saves f, the branch's input, and two
// more floats a row, where eager would keep LN's float32 copy of it.
struct ResidualLayerNormFn : torch::autograd::Function<ResidualLayerNormFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& x_in, const torch::Tensor& f_in,
                                 const torch::Tensor& lam_in, const torch::Tensor& gamma, const torch::Tensor& beta,
                                 const torch::Tensor& b_t, const torch::Tensor& f_gamma, const torch::Tensor& f_beta,
                                 const torch::Tensor& f_bias, double a, double b, double eps, double f_eps, bool y_bf16,
                                 bool copy) {
        const FunctionScope scope("normlab::residual_layer_norm", x_in, f_in);
        const cuda_host::DeviceGuard guard(x_in.device());
        const auto x = x_in.contiguous(), f = f_in.contiguous(), lam = lam_in.contiguous();
        const auto gc = gamma.contiguous(), bc = beta.contiguous();
        const auto fgc = f_gamma.contiguous(), fbc = f_beta.contiguous();
        const bool scaled = lam.numel() > 0, branch_ln = fgc.numel() > 0;
        const int64_t n = x.size(-1), rows = x.numel() / n;
        TORCH_CHECK(!branch_ln || cuda_kernels::residual_branch_ln_fits(n), "the branch's LayerNorm needs rows of ≤ 1,024");
        auto s = torch::empty_like(x);
        auto y = torch::empty(x.sizes(), x.options().dtype(y_bf16 ? torch::kBFloat16 : torch::kFloat));
        auto mean = floats(x, {rows}), rstd = floats(x, {rows});
        auto f_stats = floats(x, {branch_ln ? 2 : 0, rows});
        auto y_copy = copy ? torch::empty(x.sizes(), f.options()) : floats(x, {0});
        kernel_bodies::BranchLn bl;
        if (branch_ln)
            bl = {fgc.data_ptr<float>(), fbc.data_ptr<float>(), static_cast<float>(f_eps), f_stats[0].data_ptr<float>(),
                  f_stats[1].data_ptr<float>()};
        cuda_kernels::residual_layer_norm_forward(
            x.data_ptr<float>(), f.data_ptr(), scaled ? lam.data_ptr<float>() : nullptr, static_cast<float>(a),
            static_cast<float>(b), b_t.numel() ? b_t.data_ptr<float>() : nullptr, gc.data_ptr<float>(), bc.data_ptr<float>(), static_cast<float>(eps),
            s.data_ptr<float>(), y.data_ptr(), mean.data_ptr<float>(), rstd.data_ptr<float>(), rows, n, bf16(f), y_bf16,
            stream(), bl, copy ? y_copy.data_ptr() : nullptr);
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        ctx->set_materialize_grads(false);
        ctx->save_for_backward({s, scaled ? x : lam, lam, gc, mean, rstd, b_t, branch_ln ? f : fgc, fgc, f_stats});
        ctx->saved_data["a"] = a;
        ctx->saved_data["b"] = b;
        ctx->saved_data["f_bf16"] = bf16(f);
        ctx->saved_data["y_bf16"] = y_bf16;
        ctx->saved_data["f_bias"] = f_bias.numel() > 0;   // its gradient summed here (linear_bias.cpp)
        ctx->saved_data["f_bias_dtype"] = static_cast<int64_t>(f_bias.scalar_type());
        return {s, y, y_copy};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto &s = saved[0], &x = saved[1], &lam = saved[2], &gamma = saved[3], &mean = saved[4], &rstd = saved[5];
        const auto &b_t = saved[6], &f = saved[7], &f_gamma = saved[8], &f_stats = saved[9];
        const cuda_host::DeviceGuard guard(s.device());
        const bool scaled = lam.numel() > 0, f_bf16 = ctx->saved_data["f_bf16"].toBool(),
                   y_bf16 = ctx->saved_data["y_bf16"].toBool(), branch_ln = f_gamma.numel() > 0;
        const auto y_type = y_bf16 ? torch::kBFloat16 : torch::kFloat;
        const int64_t n = s.size(-1), rows = s.numel() / n;
        // Post-LN's float32 y and its copy both read: the copy's gradient added inside the kernel as it
        // reads y's, where eager's add read 6 bytes an element and wrote 4 in a pass of its own
        const bool copy_in_kernel = grads[1].defined() && grads[2].defined() && !y_bf16 &&
                                    grads[2].scalar_type() == (f_bf16 ? torch::kBFloat16 : torch::kFloat) &&
                                    cuda_kernels::copy_grad_in_kernel(n);
        const auto gy_in = copy_in_kernel ? grads[1] : with_copy_grad(grads[1], grads[2]);
        if (!grads[0].defined() && !gy_in.defined()) return variable_list(15);
        const auto gs = grads[0].defined() ? grads[0].to(torch::kFloat).contiguous() : torch::Tensor();
        const auto gy = gy_in.defined() ? gy_in.to(y_type).contiguous() : torch::zeros(s.sizes(), s.options().dtype(y_type));
        const auto gy_copy = copy_in_kernel ? grads[2].contiguous() : torch::Tensor();
        auto dx = torch::empty_like(s);
        auto df = torch::empty(s.sizes(), s.options().dtype(f_bf16 ? torch::kBFloat16 : torch::kFloat));
        auto row_sums = floats(s, {2, rows});
        // the branch's bias: df's column sums, by the warp-a-row kernels where they run, else here
        const bool f_bias = ctx->saved_data["f_bias"].toBool() && ctx->needs_input_grad(8);
        const bool bias_in_kernel = f_bias && cuda_kernels::residual_branch_ln_fits(n);
        const int64_t i_bias = branch_ln ? 5 : 3;
        const int n_sums = cuda_kernels::residual_layer_norm_sums(scaled, branch_ln, bias_in_kernel);
        auto partial = floats(s, {i_bias + (bias_in_kernel ? 1 : 0), cuda_kernels::residual_layer_norm_partial_rows(rows, n, n_sums), n});
        kernel_bodies::BranchLn bl;
        if (branch_ln)
            bl = {f_gamma.data_ptr<float>(), nullptr, 0.f, f_stats[0].data_ptr<float>(), f_stats[1].data_ptr<float>()};
        cuda_kernels::residual_layer_norm_backward(
            s.data_ptr<float>(), scaled ? x.data_ptr<float>() : nullptr, gamma.data_ptr<float>(), gy.data_ptr(),
            gs.defined() ? gs.data_ptr<float>() : nullptr, scaled ? lam.data_ptr<float>() : nullptr,
            static_cast<float>(ctx->saved_data["a"].toDouble()), static_cast<float>(ctx->saved_data["b"].toDouble()),
            b_t.numel() ? b_t.data_ptr<float>() : nullptr, mean.data_ptr<float>(), rstd.data_ptr<float>(), dx.data_ptr<float>(), df.data_ptr(),
            row_sums[0].data_ptr<float>(), row_sums[1].data_ptr<float>(), partial[0].data_ptr<float>(),
            partial[1].data_ptr<float>(), partial[2].data_ptr<float>(), rows, n, f_bf16, y_bf16, stream(),
            branch_ln ? f.data_ptr() : nullptr, bl, branch_ln ? partial[3].data_ptr<float>() : nullptr,
            branch_ln ? partial[4].data_ptr<float>() : nullptr, bias_in_kernel ? partial[i_bias].data_ptr<float>() : nullptr,
            copy_in_kernel ? gy_copy.data_ptr() : nullptr);
        NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
        const auto sums = partial.sum(1);
        torch::Tensor dbias;
        if (f_bias)
            dbias = bias_grad_of(bias_in_kernel ? sums[i_bias] : df.view({rows, n}).sum(0, false, torch::kFloat),
                                 ctx->saved_data["f_bias_dtype"].toInt());
        return {dx, df, scaled ? sums[2] : torch::Tensor(), sums[0], sums[1], torch::Tensor(),
                branch_ln ? sums[3] : torch::Tensor(), branch_ln ? sums[4] : torch::Tensor(), dbias, torch::Tensor(),
                torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
    }
};

bool float_on(const torch::Tensor& t, const torch::Device& d) {
    return t.scalar_type() == torch::kFloat && t.device() == d;
}

}  // namespace

bool ngpt_update_applies(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha) {
    return kernel_gpu(x) && x.numel() > 0 && float_on(x, x.device()) && kernel_storage(h) && h.device() == x.device() &&
           float_on(alpha, x.device()) && x.sizes() == h.sizes() && alpha.numel() == x.size(-1) &&
           x.size(-1) <= cuda_kernels::ngpt_update_max_width();
}

torch::Tensor ngpt_update(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha, double eps,
                          torch::Tensor* copy) {
    auto out = NgptUpdateFn::apply(x, h, alpha, eps, copy != nullptr);
    if (copy) *copy = out[1];
    return out[0];
}

bool swiglu_applies(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv) {
    if (!kernel_gpu(h) || h.numel() == 0 || h.size(-1) % 2 != 0) return false;
    if (!kernel_storage(h)) return false;
    const int64_t f = h.size(-1) / 2;
    auto scaler_ok = [&](const torch::Tensor& s) { return !s.defined() || (float_on(s, h.device()) && s.numel() == f); };
    return scaler_ok(su) && scaler_ok(sv);
}

torch::Tensor swiglu(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv) {
    // Autograd functions take defined tensors: an absent scaler travels as an empty one.
    const auto none = floats(h, {0});
    return SwiGLUFn::apply(h, su.defined() ? su : none, sv.defined() ? sv : none)[0];
}

bool gelu_layer_norm_applies(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta) {
    if (!kernel_gpu(h) || h.numel() == 0 || h.size(-1) == 0) return false;
    if (!kernel_storage(h)) return false;
    return gamma.defined() && beta.defined() && float_on(gamma, h.device()) && float_on(beta, h.device()) &&
           gamma.numel() == h.size(-1) && beta.numel() == h.size(-1);
}

torch::Tensor gelu_layer_norm(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta,
                              double eps, const torch::Tensor& bias) {
    // Autograd functions take defined tensors: an absent bias travels as an empty one.
    const bool bias_grad = bias.defined() && bias.requires_grad();
    return GeluLayerNormFn::apply(h, gamma, beta, eps, bias_grad ? bias : floats(h, {0}))[0];
}

bool ngpt_qk_applies(const torch::Tensor& proj, int64_t H, const torch::Tensor& cos, const torch::Tensor& sin,
                     const torch::Tensor& s) {
    if (!kernel_gpu(proj) || proj.dim() != 3 || !proj.is_contiguous() || proj.numel() == 0 || H <= 0) return false;
    if (!kernel_storage(proj)) return false;
    const int64_t d = proj.size(2) / 3, T = proj.size(1);
    if (proj.size(2) != 3 * d || d % H != 0 || (d / H) % 2 != 0 || d / H > 32 * kernel_bodies::kQkPerLane) return false;
    if (s.defined() && (!float_on(s, proj.device()) || s.numel() != d || !s.is_contiguous())) return false;
    if (!s.defined() && !cos.defined()) return false;   // RoPE alone needs RoPE
    if (cos.defined() != sin.defined()) return false;
    auto table_ok = [&](const torch::Tensor& t) {
        return float_on(t, proj.device()) && t.dim() == 2 && t.size(0) == T && t.size(1) == d / H && t.is_contiguous();
    };
    return !cos.defined() || (table_ok(cos) && table_ok(sin));
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> ngpt_qk(const torch::Tensor& proj, int64_t H,
                                                               const torch::Tensor& cos, const torch::Tensor& sin,
                                                               const torch::Tensor& s, double eps) {
    const auto none = floats(proj, {0});
    const int64_t d = proj.size(2) / 3;
    auto out = NgptQkFn::apply(proj, s.view({d}), cos.defined() ? cos : none, sin.defined() ? sin : none, H, eps);
    return {out[0], out[1], out[2]};
}

std::tuple<torch::Tensor, torch::Tensor, torch::Tensor> rope_qk(const torch::Tensor& proj, int64_t H,
                                                               const torch::Tensor& cos, const torch::Tensor& sin) {
    const auto none = floats(proj, {0});
    auto out = NgptQkFn::apply(proj, none, cos, sin, H, 0.0);
    return {out[0], out[1], out[2]};
}

bool residual_layer_norm_applies(const torch::Tensor& x, const torch::Tensor& f, const torch::Tensor& lam,
                                 const torch::Tensor& gamma, const torch::Tensor& beta, const torch::Tensor& b_t,
                                 const torch::Tensor& f_gamma, const torch::Tensor& f_beta) {
    if (!kernel_gpu(x) || x.numel() == 0 || x.size(-1) == 0 || !float_on(x, x.device())) return false;
    if (b_t.defined() && !(float_on(b_t, x.device()) && b_t.numel() == 1 && !b_t.requires_grad())) return false;
    if (!kernel_storage(f) || f.device() != x.device() || f.sizes() != x.sizes()) return false;
    const int64_t n = x.size(-1);
    if (lam.defined() && !(float_on(lam, x.device()) && lam.numel() == n)) return false;
    auto affine = [&](const torch::Tensor& g, const torch::Tensor& bias) {
        return g.defined() && bias.defined() && float_on(g, x.device()) && float_on(bias, x.device()) && g.numel() == n &&
               bias.numel() == n;
    };
    if (f_gamma.defined() && !(affine(f_gamma, f_beta) && cuda_kernels::residual_branch_ln_fits(n))) return false;
    return affine(gamma, beta);
}

std::pair<torch::Tensor, torch::Tensor> residual_layer_norm(const torch::Tensor& x, const torch::Tensor& f,
                                                            const torch::Tensor& lam, double a, double b,
                                                            const torch::Tensor& b_t, const torch::Tensor& gamma,
                                                            const torch::Tensor& beta, double eps, bool y_bf16,
                                                            const torch::Tensor& f_gamma, const torch::Tensor& f_beta,
                                                            double f_eps, torch::Tensor* y_copy,
                                                            const torch::Tensor& f_bias) {
    // Autograd functions take defined tensors: an absent λ, b_t, branch LayerNorm or bias travels as an empty one.
    const auto none = floats(x, {0});
    auto out = ResidualLayerNormFn::apply(x, f, lam.defined() ? lam.view({x.size(-1)}) : none, gamma, beta,
                                          b_t.defined() ? b_t.view({1}) : none, f_gamma.defined() ? f_gamma : none,
                                          f_gamma.defined() ? f_beta : none, f_bias.defined() ? f_bias : none, a, b,
                                          eps, f_eps, y_bf16, y_copy != nullptr);
    if (y_copy) *y_copy = out[2];
    return {out[0], out[1]};
}

}  // namespace normlab::cuda_ops
