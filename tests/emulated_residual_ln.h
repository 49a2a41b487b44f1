// Tests (internal): the residual LayerNorm's launch functions run once on
// the SIMT emulator (tests/simt_emulator.h), forward and backward, and
// compared with the eager formula (tests/kernel_references.h); and the small
// helpers every emulated launch in tests/test_cuda_emulated.cpp uses. The
// launch functions are those of normlab_emulated_kernels
// (tests/emulated_kernels.cpp).
#pragma once

#include "tests/kernel_bodies_cpu.h"
#include "tests/kernel_references.h"

#include <QtTest/QtTest>

#include "tests/simt_emulator.h"
// after the emulator, which stands in for CUDA: the launch functions' declarations
#include "core/model/cuda_kernels.h"

namespace normlab::test::emu {

namespace ck = normlab::cuda_kernels;
namespace ref = normlab::test::ref;

inline constexpr float kEps = 1e-5f;

inline void* ptr(const torch::Tensor& t) { return t.data_ptr(); }
inline const float* fp(const torch::Tensor& t) { return t.defined() ? t.data_ptr<float>() : nullptr; }
inline float* wp(torch::Tensor& t) { return t.numel() ? t.data_ptr<float>() : nullptr; }
inline torch::Tensor nans(at::IntArrayRef shape, torch::ScalarType t = torch::kFloat) { return torch::full(shape, NAN, t); }

// got ≈ want (float32), or the test fails with what and how far.
inline void close(const QString& what, const torch::Tensor& got, const torch::Tensor& want, double rtol) {
    QVERIFY2(torch::allclose(got.to(torch::kFloat), want, rtol, 1e-4), qPrintable(what + off(got, want)));
}

// The residual LayerNorm's launch functions forward and backward on in (with the branch's
// LayerNorm where in.f_gamma is defined), every output starting as NaN; b read from the
// device where on_device (the argument b then wrong on purpose); y's copy where asked.
struct ResLnRun {
    torch::Tensor s, y, y_copy, dx, df, pg, pb, pl, pgf, pbf, pfb, fmean, frstd;
};
inline ResLnRun run_res_ln(const ref::ResLnInputs& in, bool on_device, bool copy, const torch::Tensor& gy_copy = {}) {
    const int64_t rows = in.x.size(0), n = in.x.size(1);
    const int64_t chunks = ck::residual_layer_norm_partial_rows(
        rows, n, ck::residual_layer_norm_sums(in.lam.defined(), in.f_gamma.defined(), ck::residual_branch_ln_fits(n)));
    const auto ft = in.f.scalar_type(), yt = in.gy.scalar_type();
    const bool fb = ft == torch::kBFloat16, yb = yt == torch::kBFloat16;
    const auto b_dev = torch::full({1}, static_cast<float>(in.b));
    const float a = static_cast<float>(in.a), b_arg = on_device ? 123.f : static_cast<float>(in.b);
    const float* bp = on_device ? fp(b_dev) : nullptr;
    ResLnRun r;
    r.s = nans({rows, n}), r.y = nans({rows, n}, yt), r.y_copy = nans({rows, n}, ft);
    r.dx = nans({rows, n}), r.df = nans({rows, n}, ft);
    r.pg = nans({chunks, n}), r.pb = nans({chunks, n}), r.pl = nans({chunks, n}), r.pgf = nans({chunks, n}),
    r.pbf = nans({chunks, n}), r.pfb = nans({chunks, n});
    r.fmean = nans({rows}), r.frstd = nans({rows});
    auto mean = nans({rows}), rstd = nans({rows}), sg = nans({rows}), sgx = nans({rows});
    normlab::kernel_bodies::BranchLn bl;
    if (in.f_gamma.defined())
        bl = {fp(in.f_gamma), fp(in.f_beta), static_cast<float>(in.f_eps), wp(r.fmean), wp(r.frstd)};
    ck::residual_layer_norm_forward(fp(in.x), ptr(in.f), fp(in.lam), a, b_arg, bp, fp(in.gamma), fp(in.beta), kEps,
                                    wp(r.s), ptr(r.y), wp(mean), wp(rstd), rows, n, fb, yb, nullptr, bl,
                                    copy ? ptr(r.y_copy) : nullptr);
    const bool branch_ln = bl.gamma != nullptr;
    ck::residual_layer_norm_backward(fp(r.s), fp(in.x), fp(in.gamma), ptr(in.gy), fp(in.gs), fp(in.lam), a, b_arg, bp,
                                     fp(mean), fp(rstd), wp(r.dx), ptr(r.df), wp(sg), wp(sgx), wp(r.pg), wp(r.pb),
                                     wp(r.pl), rows, n, fb, yb, nullptr, branch_ln ? ptr(in.f) : nullptr, bl,
                                     branch_ln ? wp(r.pgf) : nullptr, branch_ln ? wp(r.pbf) : nullptr,
                                     ck::residual_branch_ln_fits(n) ? wp(r.pfb) : nullptr,
                                     gy_copy.defined() ? ptr(gy_copy) : nullptr);
    return r;
}

// A run against the eager formula: s, y, the gradients, and dλ, dγ_f, dβ_f where in has them.
inline void compare_res_ln(const QString& what, const ResLnRun& got, const ref::ResLn& r, const ref::ResLnInputs& in) {
    const bool f32 = in.f.scalar_type() == torch::kFloat, y32 = in.gy.scalar_type() == torch::kFloat;
    close(what + ": s", got.s, r.s, in.f_gamma.defined() ? 1e-5 : 1e-6);   // the branch's LN rounds once more
    close(what + ": y", got.y, r.y, y32 ? 1e-4 : 8e-3);
    close(what + ": dx", got.dx, r.dx, 1e-4);
    close(what + ": df", got.df, r.df, f32 ? 1e-4 : 1e-2);
    close(what + ": dγ", got.pg.sum(0), r.dgamma, 1e-4);
    close(what + ": dβ", got.pb.sum(0), r.dbeta, 1e-4);
    if (in.lam.defined()) close(what + ": dλ", got.pl.sum(0), r.dlam, 1e-4);
    // the branch's bias gradient where rows fit a warp: df's column sums, df as written
    if (ck::residual_branch_ln_fits(in.x.size(1))) close(what + ": df's column sums", got.pfb.sum(0), got.df.to(torch::kFloat).sum(0), 1e-5);
    else QVERIFY2(torch::isnan(got.pfb).all().item<bool>(), qPrintable(what + ": df's column sums written by the block kernels"));
    if (in.f_gamma.defined()) {
        close(what + ": dγ_f", got.pgf.sum(0), r.df_gamma, 1e-4);
        close(what + ": dβ_f", got.pbf.sum(0), r.df_beta, 1e-4);
    }
}

}  // namespace normlab::test::emu
