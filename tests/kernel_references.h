// The eager formulas NormLab's CUDA kernels are checked against (their bodies
// on the CPU, the kernels on the CPU through tests/simt_emulator.h, and the
// kernels on a GPU): LibTorch's ops on float32 copies of the inputs, and the
// gradients by autograd. Only LibTorch here.
#pragma once

#include <torch/torch.h>

#include <utility>
#include <vector>

namespace normlab::test::ref {

// SwiGLU of the packed projection h = [u | g]: a = (u·s_u)·silu(g·s_v) and the gradients of h, s_u, s_v
// (s_u, s_v undefined: none).
struct Swiglu {
    torch::Tensor a, dh, dsu, dsv;
};
inline Swiglu swiglu(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv, const torch::Tensor& da) {
    auto hf = h.to(torch::kFloat).detach().requires_grad_(true);
    std::vector<torch::Tensor> inputs{hf};
    torch::Tensor suf, svf;
    if (su.defined()) suf = su.detach().requires_grad_(true), svf = sv.detach().requires_grad_(true);
    auto parts = hf.chunk(2, -1);
    auto u = parts[0], g = parts[1];
    if (suf.defined()) u = u * suf, g = g * svf, inputs.push_back(suf), inputs.push_back(svf);
    Swiglu r;
    r.a = u * torch::silu(g);
    auto grads = torch::autograd::grad({r.a}, inputs, {da.to(torch::kFloat)});
    r.dh = grads[0];
    if (suf.defined()) r.dsu = grads[1], r.dsv = grads[2];
    return r;
}

// nGPT's queries and keys as the model writes them, from the packed projection
// (B, T, 3d): q', k' (B, H, T, d_h) and the gradients of proj and s.
struct Qk {
    torch::Tensor q, k, dproj, ds;
};
// unit false: RoPE alone, s undefined (no scale, no ds).
inline Qk qk(const torch::Tensor& proj, int64_t H, const torch::Tensor& cos, const torch::Tensor& sin,
             const torch::Tensor& s, double eps, const torch::Tensor& gq, const torch::Tensor& gk, bool unit = true) {
    const int64_t B = proj.size(0), T = proj.size(1), d = proj.size(2) / 3, dh = d / H, half = dh / 2;
    auto pf = proj.to(torch::kFloat).detach().requires_grad_(true);
    auto sf = unit ? s.detach().requires_grad_(true) : torch::Tensor();
    auto qkv = pf.view({B, T, 3, H, dh}).permute({2, 0, 3, 1, 4});
    auto rot = [&](const torch::Tensor& x) { return torch::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1); };
    Qk r;
    auto q = qkv[0], k = qkv[1];
    if (cos.defined()) q = q * cos + rot(q) * sin, k = k * cos + rot(k) * sin;
    if (!unit) {
        r.q = q, r.k = k;
        r.dproj = torch::autograd::grad({r.q, r.k}, {pf}, {gq.to(torch::kFloat), gk.to(torch::kFloat)})[0];
        return r;
    }
    r.q = q / (q.norm(2, -1, true) + eps) * sf.view({1, H, 1, dh});
    r.k = k / (k.norm(2, -1, true) + eps) * sf.view({1, H, 1, dh});
    auto g = torch::autograd::grad({r.q, r.k}, {pf, sf}, {gq.to(torch::kFloat), gk.to(torch::kFloat)});
    r.dproj = g[0], r.ds = g[1];
    return r;
}

// NormFormer's FFN LN: out = LayerNorm(GELU(h))·γ + β, and the gradients of h, γ, β from g.
struct GeluLn {
    torch::Tensor out, dh, dgamma, dbeta;
};
inline GeluLn gelu_ln(const torch::Tensor& h, const torch::Tensor& gamma, const torch::Tensor& beta, double eps,
                      const torch::Tensor& g) {
    auto hf = h.to(torch::kFloat).detach().requires_grad_(true);
    auto gf = gamma.detach().clone().requires_grad_(true), bf = beta.detach().clone().requires_grad_(true);
    GeluLn r;
    r.out = torch::layer_norm(torch::gelu(hf), {h.size(-1)}, gf, bf, eps);
    const auto grads = torch::autograd::grad({r.out}, {hf, gf, bf}, {g.to(torch::kFloat)});
    r.dh = grads[0], r.dgamma = grads[1], r.dbeta = grads[2];
    return r;
}

// nGPT's residual update y = N(x + α ⊙ (N(h) − x)), N(v) = v / (‖v‖ + eps), and the gradients of x, h, α from gy.
struct Update {
    torch::Tensor y, dx, dh, dalpha;
};
inline Update update(const torch::Tensor& x, const torch::Tensor& h, const torch::Tensor& alpha, double eps,
                     const torch::Tensor& gy) {
    auto xf = x.detach().clone().requires_grad_(true), hf = h.to(torch::kFloat).detach().requires_grad_(true);
    auto af = alpha.detach().clone().requires_grad_(true);
    const auto unit = [eps](const torch::Tensor& v) { return v / (v.norm(2, -1, true) + eps); };
    Update r;
    r.y = unit(xf + af * (unit(hf) - xf));
    const auto grads = torch::autograd::grad({r.y}, {xf, hf, af}, {gy});
    r.dx = grads[0], r.dh = grads[1], r.dalpha = grads[2];
    return r;
}

// The storage pairs the residual LayerNorm meets in a model, (f, y): float32
// throughout; under bf16 autocast a bf16 branch into a bf16 y (Pre-LN: the next
// linear layer's input) or into a float32 one (Post-LN: the next residual).
inline const std::pair<torch::ScalarType, torch::ScalarType> kResLnStorages[] = {
    {torch::kFloat, torch::kFloat}, {torch::kBFloat16, torch::kBFloat16}, {torch::kBFloat16, torch::kFloat}};

// The residual add and the LayerNorm after it: s = a·(λ ⊙ x) + b·f, y = LN(s)·γ + β;
// gy (y's type) and gs (s's own gradient, or undefined) come back. With f_gamma,
// the branch's own LayerNorm first: f ← LN(f)·f_gamma + f_beta (NormFormer's
// post-attention LN).
struct ResLnInputs {
    torch::Tensor x, f, lam, gamma, beta, gy, gs, f_gamma, f_beta;
    double a = 1, b = 1, f_eps = 1e-5;
};
struct ResLn {
    torch::Tensor s, y, dx, df, dgamma, dbeta, dlam, df_gamma, df_beta;
};
inline ResLnInputs res_ln_inputs(const torch::Device& dev, at::IntArrayRef shape, torch::ScalarType f_type,
                                 torch::ScalarType y_type, bool res_scale, bool scaled, bool grad_s) {
    const int64_t n = shape.back();
    const auto fl = torch::TensorOptions().device(dev);
    ResLnInputs in;
    in.x = 2 * torch::randn(shape, fl) + 0.4;
    in.f = torch::randn(shape, fl).to(f_type);
    if (res_scale) in.lam = 0.5 + torch::rand({n}, fl);
    in.gamma = 0.5 + torch::rand({n}, fl);
    in.beta = 0.1 * torch::randn({n}, fl);
    in.gy = torch::randn(shape, fl).to(y_type);
    if (grad_s) in.gs = 0.3 * torch::randn(shape, fl);
    if (scaled) in.a = 1.7, in.b = 0.6;
    return in;
}
inline ResLn res_ln(const ResLnInputs& in, double eps) {
    auto x = in.x.clone().requires_grad_(true), f = in.f.to(torch::kFloat).requires_grad_(true);
    auto gamma = in.gamma.clone().requires_grad_(true), beta = in.beta.clone().requires_grad_(true);
    auto lam = in.lam.defined() ? in.lam.clone().requires_grad_(true) : torch::Tensor();
    const bool branch_ln = in.f_gamma.defined();
    auto fg = branch_ln ? in.f_gamma.clone().requires_grad_(true) : torch::Tensor();
    auto fb = branch_ln ? in.f_beta.clone().requires_grad_(true) : torch::Tensor();
    const auto ax = x * in.a;
    const auto branch = branch_ln ? torch::layer_norm(f, {x.size(-1)}, fg, fb, in.f_eps) : f;
    const auto s = (lam.defined() ? ax * lam : ax) + branch * in.b;
    const auto y = torch::layer_norm(s, {x.size(-1)}, gamma, beta, eps);
    std::vector<torch::Tensor> wrt{x, f, gamma, beta};
    if (lam.defined()) wrt.push_back(lam);
    if (branch_ln) wrt.push_back(fg), wrt.push_back(fb);
    const auto g = torch::autograd::grad({y, s}, wrt, {in.gy.to(torch::kFloat), in.gs.defined() ? in.gs : torch::zeros_like(s)});
    ResLn r{s.detach(), y.detach(), g[0], g[1], g[2], g[3]};
    size_t next = 4;
    if (lam.defined()) r.dlam = g[next++];
    if (branch_ln) r.df_gamma = g[next], r.df_beta = g[next + 1];
    return r;
}

}  // namespace normlab::test::ref
