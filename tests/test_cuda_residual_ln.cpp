// NormLab's CUDA kernel for the residual add and the LayerNorm after it
// (Post-LN, Pre-LN, NormFormer's ResScale, DeepNorm's α, BranchNorm's α_t):
// its bodies (core/model/cuda_kernel_bodies.h, res_ln_*) on the CPU, called for
// every row, thread and column chunk as the kernels' grid calls them, against
// LibTorch's eager formula and autograd; on a machine with a GPU, the kernels
// themselves through residual_layer_norm() (scripts/gpu_session.sh graph runs
// this). Whole models with the kernel on and off: test_cuda_kernels.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/model/fused_ops.h"
#include "core/model/gpt.h"
#include "tests/kernel_bodies_cpu.h"
#include "tests/kernel_references.h"
#include "tests/test_util.h"
#endif

#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;
using normlab::test::off;
namespace kb = normlab::kernel_bodies;

namespace {

constexpr float kEps = 1e-5f;

using Inputs = test::ref::ResLnInputs;
using Results = test::ref::ResLn;
using test::ref::res_ln_inputs;
Results eager(const Inputs& in) { return test::ref::res_ln(in, kEps); }

// The bodies over the kernels' grid: for every row each phase for every thread
// of a 256-thread block, the block's sums between phases; then the column
// kernel over every (chunk, column). Partial sums start as NaN: one left
// unwritten shows.
template <class F, class Y>
Results through_bodies(const Inputs& in) {
    constexpr int64_t nt = 256;
    const int64_t rows = in.x.size(0), n = in.x.size(1);
    Results o;
    o.s = torch::empty({rows, n});
    o.y = torch::empty({rows, n}, in.gy.scalar_type());
    o.dx = torch::empty({rows, n});
    o.df = torch::empty({rows, n}, in.f.scalar_type());
    auto stats = torch::empty({4, rows});   // mean, rstd, Σĝ, Σĝŝ
    auto partial = torch::full({3, kb::row_chunks(rows), n}, std::nanf(""));
    const float *x = in.x.data_ptr<float>(), *gamma = in.gamma.data_ptr<float>(), *beta = in.beta.data_ptr<float>();
    const float* lam = in.lam.defined() ? in.lam.data_ptr<float>() : nullptr;
    const float* gs = in.gs.defined() ? in.gs.data_ptr<float>() : nullptr;
    const F* f = in.f.data_ptr<F>();
    const Y* gy = in.gy.data_ptr<Y>();
    float *s = o.s.data_ptr<float>(), *dx = o.dx.data_ptr<float>();
    float *mean = stats[0].data_ptr<float>(), *rstd = stats[1].data_ptr<float>();
    float *sg = stats[2].data_ptr<float>(), *sgx = stats[3].data_ptr<float>();
    const auto a = static_cast<float>(in.a), b = static_cast<float>(in.b);
    for (int64_t r = 0; r < rows; ++r) {
        const int64_t at = r * n;
        float sum = 0, sq = 0, g1 = 0, g2 = 0;
        for (int64_t t = 0; t < nt; ++t) sum += kb::res_ln_sum(x + at, f + at, lam, a, b, s + at, n, t, nt);
        mean[r] = sum / static_cast<float>(n);
        for (int64_t t = 0; t < nt; ++t) sq += kb::res_ln_sq(s + at, mean[r], n, t, nt);
        rstd[r] = 1.f / std::sqrt(sq / static_cast<float>(n) + kEps);
        for (int64_t t = 0; t < nt; ++t)
            kb::res_ln_write(s + at, gamma, beta, mean[r], rstd[r], o.y.data_ptr<Y>() + at, n, t, nt);
        for (int64_t t = 0; t < nt; ++t) {
            float p = 0, q = 0;
            kb::res_ln_grad_sums(s + at, gamma, gy + at, mean[r], rstd[r], n, t, nt, p, q);
            g1 += p, g2 += q;
        }
        sg[r] = g1, sgx[r] = g2;
        for (int64_t t = 0; t < nt; ++t)
            kb::res_ln_grad_write(s + at, gamma, gy + at, gs ? gs + at : nullptr, lam, a, b, mean[r], rstd[r], g1, g2,
                                  dx + at, o.df.data_ptr<F>() + at, n, t, nt);
    }
    float* pp = partial.data_ptr<float>();
    const int64_t plane = kb::row_chunks(rows) * n;
    for (int64_t c = 0; c < kb::row_chunks(rows); ++c)
        for (int64_t j = 0; j < n; ++j)
            kb::res_ln_param_grad_column(s, x, gamma, gy, gs, lam, a, mean, rstd, sg, sgx, pp + c * n + j,
                                         pp + plane + c * n + j, lam ? pp + 2 * plane + c * n + j : nullptr,
                                         c * kb::rows_per_chunk(rows), kb::chunk_end(c, rows), j, n);
    const auto used = lam ? partial : partial.narrow(0, 0, 2);
    if (torch::isnan(used).any().item<bool>()) return {};   // a chunk's partial sum unwritten
    const auto sums = partial.sum(1);
    o.dgamma = sums[0], o.dbeta = sums[1];
    if (lam) o.dlam = sums[2];
    return o;
}

QString describe(int64_t n, torch::ScalarType f, torch::ScalarType y, bool lam, bool scaled, bool gs) {
    auto name = [](torch::ScalarType t) { return t == torch::kFloat ? "fp32" : "bf16"; };
    return QString("n %1, f %2, y %3%4%5%6")
        .arg(n)
        .arg(name(f))
        .arg(name(y))
        .arg(lam ? ", λ" : "")
        .arg(scaled ? ", a 1.7, b 0.6" : "")
        .arg(gs ? ", s's own gradient" : "");
}

using test::ref::kResLnStorages;

}  // namespace

class TestCudaResidualLn : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Rows shorter than the block (13), not a multiple of it (300) and GPT-2
    // small's width (768); with and without λ, DeepNorm's and BranchNorm's
    // scalars, and a gradient of s (Pre-LN's residual) besides y's.
    void bodiesMatchEager() {
        torch::manual_seed(11);
        for (int64_t n : {13, 300, 768})
            for (const auto& [ft, yt] : kResLnStorages)
                for (bool lam : {false, true})
                    for (bool scaled : {false, true})
                        for (bool gs : {false, true}) {
                            const QString what = describe(n, ft, yt, lam, scaled, gs);
                            const auto in = res_ln_inputs(torch::kCPU, {40, n}, ft, yt, lam, scaled, gs);
                            const Results ref = eager(in);
                            Results got;
                            if (ft == torch::kFloat) got = through_bodies<float, float>(in);
                            else if (yt == torch::kFloat) got = through_bodies<c10::BFloat16, float>(in);
                            else got = through_bodies<c10::BFloat16, c10::BFloat16>(in);
                            QVERIFY2(got.s.defined(), qPrintable(what + ": a chunk's partial sum unwritten"));
                            compare(what, got, ref, ft, yt);
                            if (QTest::currentTestFailed()) return;
                        }
    }

    // Needs a GPU: the kernels through residual_layer_norm() against the eager
    // formula on the same device, at GPT-2 small's width and a row shorter than
    // a warp (a warp a row, the row in registers: cuda_warp_rows.cuh) and at 1,536
    // (past 1,024: a block a row); s unused (Post-LN: its gradient undefined) and used. With b read
    // from a device scalar (BranchNorm's α_t in a captured step) the same bits.
    void cudaMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        torch::manual_seed(12);
        const auto dev = torch::Device("cuda");
        for (int64_t n : {768, 13, 1536})
            for (const auto& [ft, yt] : kResLnStorages)
                for (bool lam : {false, true})
                    for (bool gs : {false, true}) {
                        const QString what = describe(n, ft, yt, lam, true, gs);
                        const auto in = res_ln_inputs(dev, {4, 128, n}, ft, yt, lam, true, gs);
                        const Results ref = eager(in);
                        auto x = in.x.clone().requires_grad_(true), f = in.f.clone().requires_grad_(true);
                        auto gamma = in.gamma.clone().requires_grad_(true), beta = in.beta.clone().requires_grad_(true);
                        auto l = lam ? in.lam.clone().requires_grad_(true) : torch::Tensor();
                        torch::Tensor s, y;
                        set_cuda_kernels(true);
                        const bool used = residual_layer_norm(x, f, l, in.a, in.b, gamma, beta, kEps, yt, s, y);
                        set_cuda_kernels(false);
                        QVERIFY2(used, qPrintable(what + ": the kernel did not apply"));
                        QCOMPARE(y.scalar_type(), yt);
                        std::vector<torch::Tensor> wrt{x, f, gamma, beta};
                        if (lam) wrt.push_back(l);
                        const auto g = gs ? torch::autograd::grad({y, s}, wrt, {in.gy, in.gs})
                                          : torch::autograd::grad({y}, wrt, {in.gy});
                        Results got{s, y, g[0], g[1], g[2], g[3], lam ? g[4] : torch::Tensor()};
                        compare(what, got, ref, ft, yt);
                        if (QTest::currentTestFailed()) return;
                        torch::Tensor s2, y2;
                        const auto b_t = torch::full({}, in.b, torch::TensorOptions().dtype(torch::kFloat).device(dev));
                        set_cuda_kernels(true);
                        QVERIFY(residual_layer_norm(x, f, l, in.a, 123.0, gamma, beta, kEps, yt, s2, y2, b_t));
                        set_cuda_kernels(false);
                        const auto g2 = gs ? torch::autograd::grad({y2, s2}, wrt, {in.gy, in.gs})
                                           : torch::autograd::grad({y2}, wrt, {in.gy});
                        QVERIFY2(torch::equal(s2, s) && torch::equal(y2, y), qPrintable(what + ": b on the device, values"));
                        for (size_t i = 0; i < g.size(); ++i)
                            QVERIFY2(torch::equal(g2[i], g[i]), qPrintable(what + QString(": b on the device, gradient %1").arg(i)));
                        if (!(ft == torch::kBFloat16 && yt == torch::kFloat)) continue;
                        // Post-LN's y with its bf16 copy for the next linear layer: y cast, its gradient added to y's
                        torch::Tensor s3, y3, copy, s4, y4;
                        const auto gc = torch::randn(in.gy.sizes(), in.gy.options()).to(torch::kBFloat16);
                        set_cuda_kernels(true);
                        QVERIFY(residual_layer_norm(x, f, l, in.a, in.b, gamma, beta, kEps, yt, s3, y3, {}, nullptr, &copy));
                        QVERIFY(residual_layer_norm(x, f, l, in.a, in.b, gamma, beta, kEps, yt, s4, y4));
                        set_cuda_kernels(false);
                        QVERIFY2(copy.defined() && torch::equal(copy, y3.to(torch::kBFloat16)), qPrintable(what + ": the copy is not y cast"));
                        const auto g3 = gs ? torch::autograd::grad({y3, s3, copy}, wrt, {in.gy, in.gs, gc})
                                           : torch::autograd::grad({y3, copy}, wrt, {in.gy, gc});
                        const auto g4 = gs ? torch::autograd::grad({y4, s4}, wrt, {in.gy + gc.to(torch::kFloat), in.gs})
                                           : torch::autograd::grad({y4}, wrt, {in.gy + gc.to(torch::kFloat)});
                        for (size_t i = 0; i < g3.size(); ++i)
                            QVERIFY2(torch::allclose(g3[i], g4[i], 1e-5, 1e-6), qPrintable(what + QString(": a copy, gradient %1").arg(i) + off(g3[i].cpu(), g4[i].cpu())));
                    }
    }

    // Needs a GPU: with the branch's own LayerNorm (NormFormer's post-attention LN,
    // f a bf16 projection's output as under autocast, or float32) against the
    // eager formula, with gradients for its gain and bias; past 1,024 wide the
    // kernels do not take it (the caller runs the LN).
    void cudaBranchLnMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        torch::manual_seed(14);
        const auto dev = torch::Device("cuda");
        for (int64_t n : {768, 13})
            for (const auto& [ft, yt] : kResLnStorages)
                for (bool gs : {false, true}) {
                    const QString what = describe(n, ft, yt, false, true, gs) + ", branch LN";
                    auto in = res_ln_inputs(dev, {4, 128, n}, ft, yt, false, true, gs);
                    in.f = (3 * in.f.to(torch::kFloat) + 0.7).to(ft);
                    in.f_gamma = 0.5 + torch::rand({n}, dev), in.f_beta = 0.1 * torch::randn({n}, dev), in.f_eps = 1e-5;
                    const Results ref = test::ref::res_ln(in, kEps);
                    auto x = in.x.clone().requires_grad_(true), f = in.f.clone().requires_grad_(true);
                    auto gamma = in.gamma.clone().requires_grad_(true), beta = in.beta.clone().requires_grad_(true);
                    const BranchNormParams post{in.f_gamma.clone().requires_grad_(true), in.f_beta.clone().requires_grad_(true), 1e-5};
                    torch::Tensor s, y;
                    set_cuda_kernels(true);
                    const bool used = residual_layer_norm(x, f, {}, in.a, in.b, gamma, beta, kEps, yt, s, y, {}, &post);
                    set_cuda_kernels(false);
                    QVERIFY2(used, qPrintable(what + ": the kernel did not apply"));
                    const std::vector<torch::Tensor> wrt{x, f, gamma, beta, post.gamma, post.beta};
                    const auto g = gs ? torch::autograd::grad({y, s}, wrt, {in.gy, in.gs}) : torch::autograd::grad({y}, wrt, {in.gy});
                    Results got{s, y, g[0], g[1], g[2], g[3]};
                    compare(what, got, ref, ft, yt);
                    auto close = [&](const char* name, const torch::Tensor& a, const torch::Tensor& b) {
                        QVERIFY2(torch::allclose(a.cpu(), b.cpu(), 1e-4, 1e-4), qPrintable(what + ": " + name + off(a.cpu(), b.cpu())));
                    };
                    close("dγ_f", g[4], ref.df_gamma);
                    close("dβ_f", g[5], ref.df_beta);
                    if (QTest::currentTestFailed()) return;
                }
        auto in = res_ln_inputs(dev, {4, 8, 1536}, torch::kBFloat16, torch::kBFloat16, false, false, false);
        const BranchNormParams post{torch::ones({1536}, dev), torch::zeros({1536}, dev), 1e-5};
        torch::Tensor s, y;
        set_cuda_kernels(true);
        const bool used = residual_layer_norm(in.x, in.f, {}, 1, 1, in.gamma, in.beta, kEps, torch::kBFloat16, s, y, {}, &post);
        set_cuda_kernels(false);
        QVERIFY2(!used, "the branch's LayerNorm taken at 1,536 wide");
    }

    // The model's use of the kernel — Post-LN's two adds a block, Pre-LN's LN₂
    // inside a block (NormFormer's with its post-attention LN before the add) and
    // its last add across blocks with the next block's LN₁ or the final LN; each
    // with its block's λ, α and the step's α_t — checked
    // on the CPU: residual_layer_norm computes its contract with eager ops
    // there (set_residual_layer_norm_on_cpu), and the loss and every gradient
    // must be the eager model's. The norms' gains and biases and λ are made to
    // differ from layer to layer first, so a norm taken from the wrong place
    // shows.
    void modelsUseItRight_data() {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("res_scale");
        QTest::addColumn<double>("alpha");    // DeepNorm's residual α (0: the scheme's own)
        QTest::addColumn<double>("branch");   // BranchNorm's α_t
        QTest::addColumn<bool>("on_device");  // α_t read from a scalar tensor, as a captured step reads it
        QTest::newRow("pre_ln") << static_cast<int>(Scheme::PreLN) << false << 0.0 << 1.0 << false;
        QTest::newRow("pre_ln + α + α_t") << static_cast<int>(Scheme::PreLN) << false << 1.3 << 0.7 << false;
        QTest::newRow("pre_ln + α_t as a tensor") << static_cast<int>(Scheme::PreLN) << false << 0.0 << 0.7 << true;
        QTest::newRow("normformer + ResScale") << static_cast<int>(Scheme::NormFormer) << true << 0.0 << 1.0 << false;
        QTest::newRow("post_ln") << static_cast<int>(Scheme::PostLN) << false << 0.0 << 1.0 << false;
        QTest::newRow("post_ln + ResScale") << static_cast<int>(Scheme::PostLN) << true << 0.0 << 1.0 << false;
        QTest::newRow("deepnorm") << static_cast<int>(Scheme::DeepNorm) << false << 0.0 << 1.0 << false;
        QTest::newRow("branchnorm") << static_cast<int>(Scheme::BranchNorm) << false << 0.0 << 0.4 << false;
        QTest::newRow("branchnorm, α_t as a tensor") << static_cast<int>(Scheme::BranchNorm) << false << 0.0 << 0.4 << true;
        // no residual LayerNorm: its updates' copies for the next linear layers alone
        QTest::newRow("ngpt") << static_cast<int>(Scheme::NGPT) << false << 0.0 << 1.0 << false;
    }
    void modelsUseItRight() {
        QFETCH(int, scheme);
        QFETCH(bool, res_scale);
        QFETCH(double, alpha);
        QFETCH(double, branch);
        QFETCH(bool, on_device);
        torch::manual_seed(13);
        ModelConfig mc = test::tiny(static_cast<Scheme>(scheme)).model;
        mc.n_layers = 3;
        if (res_scale) mc.normformer.res_scale = true;
        if (alpha > 0) mc.deepnorm.residual = true, mc.deepnorm.alpha = alpha;
        GPT model(mc);
        model->reset_parameters(7);
        if (on_device) model->use_branch_tensor(torch::zeros({}));
        model->set_branch_alpha(branch);
        {
            torch::NoGradGuard ng;
            for (auto& p : model->named_parameters()) {
                const bool norm = p.key().find("norm") != std::string::npos || p.key().find("res_scale") != std::string::npos;
                if (norm) p.value().copy_(p.key().find("bias") != std::string::npos ? 0.2 * torch::randn_like(p.value())
                                                                                     : 0.5 + torch::rand_like(p.value()));
            }
        }
        const auto idx = torch::randint(0, 256, {4, 16}, torch::kLong), targets = torch::randint(0, 256, {4, 16}, torch::kLong);
        // copies: y's copies for the next linear layers (Post-LN's and nGPT's), here clones the model must read where
        // it reads y's cast, and whose gradients must reach y
        auto run = [&](bool contract, bool copies) {
            set_residual_layer_norm_on_cpu(contract);
            set_linear_copies_on_cpu(copies);
            model->zero_grad();
            const auto loss = model->loss(model->forward(idx), targets);
            loss.backward();
            set_residual_layer_norm_on_cpu(false);
            set_linear_copies_on_cpu(false);
            std::vector<torch::Tensor> grads;
            for (auto& p : model->parameters()) grads.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
            return std::make_pair(loss.item<double>(), grads);
        };
        const auto [l0, g0] = run(false, false);
        const bool ngpt = static_cast<Scheme>(scheme) == Scheme::NGPT;
        for (bool copies : {false, true}) {
            const int64_t before = residual_layer_norm_calls();
            const auto [l1, g1] = run(true, copies);
            const QString how = copies ? "with copies: " : "";
            // every LayerNorm after an add
            QCOMPARE(residual_layer_norm_calls() - before, ngpt ? int64_t(0) : int64_t(2 * mc.n_layers));
            QVERIFY2(std::abs(l1 - l0) <= 1e-6 * std::abs(l0), qPrintable(how + QString("loss %1 against %2").arg(l1).arg(l0)));
            for (size_t i = 0; i < g0.size(); ++i) {
                const double scale = g0[i].abs().max().item<double>(), diff = (g1[i] - g0[i]).abs().max().item<double>();
                QVERIFY2(diff <= 1e-5 * scale + 1e-9,
                         qPrintable(how + QString("parameter %1's gradient off by %2 of %3").arg(i).arg(diff).arg(scale)));
            }
        }
    }

private:
    void compare(const QString& what, const Results& got, const Results& ref, torch::ScalarType ft,
                 torch::ScalarType yt) {
        auto close = [&](const char* name, const torch::Tensor& a, const torch::Tensor& b, double rtol, double atol) {
            if (QTest::currentTestFailed()) return;   // the first difference says it
            QVERIFY2(torch::allclose(a.to(torch::kFloat).cpu(), b.to(torch::kFloat).cpu(), rtol, atol),
                     qPrintable(what + ": " + name + off(a.cpu(), b.cpu())));
        };
        close("s", got.s, ref.s, 1e-6, 1e-6);
        close("y", got.y, ref.y, yt == torch::kFloat ? 1e-4 : 8e-3, 1e-4);
        close("dx", got.dx, ref.dx, 1e-4, 1e-4);
        close("df", got.df, ref.df, ft == torch::kFloat ? 1e-4 : 1e-2, 1e-4);
        close("dγ", got.dgamma, ref.dgamma, 1e-4, 1e-4);
        close("dβ", got.dbeta, ref.dbeta, 1e-4, 1e-4);
        QCOMPARE(got.dlam.defined(), ref.dlam.defined());
        if (ref.dlam.defined()) close("dλ", got.dlam, ref.dlam, 1e-4, 1e-4);
    }
};

QTEST_APPLESS_MAIN(TestCudaResidualLn)
#include "test_cuda_residual_ln.moc"
