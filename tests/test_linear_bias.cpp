// A linear layer's bias gradient summed by the operation after it
// (core/model/linear_bias.cpp, fused_ops.h's bias_grads_after): GELU after the
// MLP's first layer, and the attention heads' split after the q/k/v
// projection. On the CPU the operations' eager formulas and the model's
// plumbing (the bias detached in the GEMM, handed to the next operation); on a
// GPU NormLab's kernels (cuda_bias_kernels.cu) against eager PyTorch.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/model/fused_ops.h"
#include "core/model/gpt.h"
#include "core/train/precision.h"
#include "tests/kernel_bodies_cpu.h"
#include "tests/test_util.h"
#endif

#include <QtTest/QtTest>

using namespace normlab;
using normlab::test::off;

namespace {

// GELU after a linear layer, its bias in the GEMM without gradient and summed by
// gelu_bias_grad, against the eager layer and GELU: the output and the gradients of x, W, b.
void check_gelu(const torch::Device& dev, torch::ScalarType type, int64_t n, const QString& what) {
    torch::manual_seed(41);
    auto x = torch::randn({3, 37, 24}, dev).requires_grad_(true);
    auto W = (0.3 * torch::randn({n, 24}, dev)).requires_grad_(true), b = (0.5 * torch::randn({n}, dev)).requires_grad_(true);
    const auto g = torch::randn({3, 37, n}, dev);
    auto grads = [&](bool after) {
        AutocastScope autocast(type == torch::kBFloat16 ? "bf16" : "fp32", dev.is_cuda());
        const auto y = after ? gelu_bias_grad(torch::linear(x, W, b.detach()), b) : torch::gelu(torch::linear(x, W, b));
        auto r = torch::autograd::grad({y}, {x, W, b}, {g.to(y.scalar_type())});
        r.insert(r.begin(), y.detach());
        return r;
    };
    const auto want = grads(false), got = grads(true);
    QCOMPARE(got[0].scalar_type(), want[0].scalar_type());
    const double rtol = type == torch::kFloat ? 1e-5 : 2e-2;
    const char* names[] = {"GELU", "dx", "dW", "db"};
    for (int i = 0; i < 4; ++i) {
        const auto a = got[i].to(torch::kFloat).cpu(), e = want[i].to(torch::kFloat).cpu();
        const double scale = e.abs().max().item<double>();
        QVERIFY2((a - e).abs().max().item<double>() <= rtol * scale + 1e-6, qPrintable(what + ": " + names[i] + off(a, e)));
    }
}

// The heads' split with the projection's bias: q, k, v through causal attention (the
// gradients' layouts as attention returns them) or a head left unused (no gradient), the
// gradients of x, W, b against the eager projection and views.
void check_heads(const torch::Device& dev, torch::ScalarType type, bool v_unused, const QString& what) {
    torch::manual_seed(42);
    const int64_t B = 2, T = 19, H = 4, dh = 8, d = H * dh;
    auto x = torch::randn({B, T, d}, dev).requires_grad_(true);
    auto W = (0.2 * torch::randn({3 * d, d}, dev)).requires_grad_(true), b = (0.3 * torch::randn({3 * d}, dev)).requires_grad_(true);
    const auto g = torch::randn({B, T, d}, dev);
    auto grads = [&](bool after) {
        AutocastScope autocast(type == torch::kBFloat16 ? "bf16" : "fp32", dev.is_cuda());
        const auto proj = after ? torch::linear(x, W, b.detach()) : torch::linear(x, W, b);
        torch::Tensor q, k, v;
        if (after) {
            std::tie(q, k, v) = split_heads(proj, H, b);
        } else {
            const auto parts = proj.view({B, T, 3, H, dh}).permute({2, 0, 3, 1, 4});
            q = parts[0], k = parts[1], v = parts[2];
        }
        const auto att = torch::softmax(torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(double(dh)), -1);
        const auto yh = v_unused ? att.sum(-1, true) * q : torch::matmul(att, v);
        const auto y = yh.transpose(1, 2).reshape({B, T, d});
        return torch::autograd::grad({y}, {x, W, b}, {g.to(y.scalar_type())});
    };
    const auto want = grads(false), got = grads(true);
    const double rtol = type == torch::kFloat ? 1e-5 : 2e-2;
    const char* names[] = {"dx", "dW", "db"};
    for (int i = 0; i < 3; ++i) {
        const auto a = got[i].to(torch::kFloat).cpu(), e = want[i].to(torch::kFloat).cpu();
        const double scale = e.abs().max().item<double>();
        QVERIFY2((a - e).abs().max().item<double>() <= rtol * scale + 1e-6, qPrintable(what + ": " + names[i] + off(a, e)));
    }
}

// NormFormer's FFN LN after a linear layer whose bias is in the GEMM without gradient and
// summed by gelu_layer_norm (the CPU's fused kernel after with_bias_grad; on a GPU the
// kernel's column pass), against the eager layer, GELU and LayerNorm: the output and the
// gradients of x, W, b, γ, β.
void check_gelu_ln(const torch::Device& dev, torch::ScalarType type, int64_t n, const QString& what) {
    torch::manual_seed(43);
    auto x = torch::randn({3, 37, 24}, dev).requires_grad_(true);
    auto W = (0.3 * torch::randn({n, 24}, dev)).requires_grad_(true), b = (0.5 * torch::randn({n}, dev)).requires_grad_(true);
    auto gamma = (1 + 0.2 * torch::randn({n}, dev)).requires_grad_(true), beta = (0.1 * torch::randn({n}, dev)).requires_grad_(true);
    const auto g = torch::randn({3, 37, n}, dev);
    auto grads = [&](bool after) {
        AutocastScope autocast(type == torch::kBFloat16 ? "bf16" : "fp32", dev.is_cuda());
        torch::Tensor y;
        if (after) {
            y = gelu_layer_norm(torch::linear(x, W, b.detach()), gamma, beta, 1e-5, b);
            if (!y.defined()) return std::vector<torch::Tensor>{};
        } else {
            const auto a = torch::gelu(torch::linear(x, W, b));
            y = torch::layer_norm(a.to(torch::kFloat), {n}, gamma, beta, 1e-5).to(a.scalar_type());
        }
        auto r = torch::autograd::grad({y}, {x, W, b, gamma, beta}, {g.to(y.scalar_type())});
        r.insert(r.begin(), y.detach());
        return r;
    };
    const auto want = grads(false), got = grads(true);
    QVERIFY2(!got.empty(), qPrintable(what + ": gelu_layer_norm did not apply"));
    const double rtol = type == torch::kFloat ? 1e-5 : 3e-2;
    const char* names[] = {"y", "dx", "dW", "db", "dγ", "dβ"};
    for (int i = 0; i < 6; ++i) {
        const auto a = got[i].to(torch::kFloat).cpu(), e = want[i].to(torch::kFloat).cpu();
        const double scale = e.abs().max().item<double>();
        QVERIFY2((a - e).abs().max().item<double>() <= rtol * scale + 1e-6, qPrintable(what + ": " + names[i] + off(a, e)));
    }
}

}  // namespace

class TestLinearBias : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The operations' eager formulas (what runs where the kernels do not apply).
    void operationsOnCpu() {
        for (int64_t n : {12, 13}) check_gelu(torch::kCPU, torch::kFloat, n, QString("GELU, n %1").arg(n));
        for (bool unused : {false, true})
            check_heads(torch::kCPU, torch::kFloat, unused, QString("heads%1").arg(unused ? ", v unused" : ""));
        for (int64_t n : {16, 13}) check_gelu_ln(torch::kCPU, torch::kFloat, n, QString("GELU + LN, n %1").arg(n));
    }

    // Needs a GPU: NormLab's kernels, four columns an access (n 64; d_h 8) and one (n 13),
    // fp32 and under bf16 autocast, the heads' gradients as attention returns them.
    void kernelsOnGpu() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const torch::Device dev("cuda");
        set_cuda_kernels(true);
        for (auto type : {torch::kFloat, torch::kBFloat16}) {
            const QString t = type == torch::kFloat ? "fp32" : "bf16";
            for (int64_t n : {64, 13}) check_gelu(dev, type, n, QString("GELU, n %1, %2").arg(n).arg(t));
            for (bool unused : {false, true}) check_heads(dev, type, unused, QString("heads, %1%2").arg(t).arg(unused ? ", v unused" : ""));
            // the row and column kernels (n a multiple of 8), and the bodies' kernels with dh summed after them (13)
            for (int64_t n : {64, 13}) check_gelu_ln(dev, type, n, QString("GELU + LN, n %1, %2").arg(n).arg(t));
        }
        set_cuda_kernels(false);
    }

    // The model's plumbing, on the CPU (set_bias_grads_after_on_cpu): q/k/v's and FC1's biases
    // detached in their GEMMs and summed by split_heads and GELU (NormFormer's FC1 bias by its
    // FFN LN where that is fused, by GELU here, with the fused kernels off), the output projection's and FC2's by the residual
    // add's kernel, here its contract in eager ops (set_residual_layer_norm_on_cpu), or, where
    // that does not run, with_bias_grad; one sum for each such bias, and the loss and every
    // gradient the eager model's. The fused CPU attention, which takes the packed projection
    // whole, is off in both runs.
    void modelPlumbing_data() {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<int>("per_layer");   // bias gradients summed after their layer, a block
        for (bool contract : {false, true}) {
            const char* how = contract ? " + the residual kernel's contract" : "";
            QTest::addRow("pre_ln%s", how) << static_cast<int>(Scheme::PreLN) << 4;
            QTest::addRow("post_ln%s", how) << static_cast<int>(Scheme::PostLN) << 4;
            QTest::addRow("deepnorm%s", how) << static_cast<int>(Scheme::DeepNorm) << 4;
            QTest::addRow("branchnorm%s", how) << static_cast<int>(Scheme::BranchNorm) << 4;
            QTest::addRow("normformer%s", how) << static_cast<int>(Scheme::NormFormer) << 4;
            QTest::addRow("ngpt%s", how) << static_cast<int>(Scheme::NGPT) << 0;   // no biases
        }
    }
    void modelPlumbing() {
        QFETCH(int, scheme);
        QFETCH(int, per_layer);
        ModelConfig mc = test::tiny(static_cast<Scheme>(scheme)).model;
        mc.n_layers = 3;
        GPT model(mc);
        model->reset_parameters(5);
        model->set_branch_alpha(0.6);
        {
            torch::NoGradGuard ng;   // biases that differ from layer to layer, so a bias summed into the wrong one shows
            for (auto& p : model->named_parameters())
                if (p.key().find("bias") != std::string::npos) p.value().copy_(0.2 * torch::randn_like(p.value()));
        }
        const auto idx = torch::randint(0, 256, {4, 16}, torch::kLong), targets = torch::randint(0, 256, {4, 16}, torch::kLong);
        set_fused_kernels(false);
        const bool contract = QString(QTest::currentDataTag()).contains("contract");
        auto run = [&](bool after) {
            set_bias_grads_after_on_cpu(after);
            set_residual_layer_norm_on_cpu(after && contract);
            model->zero_grad();
            const auto loss = model->loss(model->forward(idx), targets);
            loss.backward();
            set_bias_grads_after_on_cpu(false);
            set_residual_layer_norm_on_cpu(false);
            std::vector<torch::Tensor> grads;
            for (auto& p : model->parameters()) grads.push_back(p.grad().defined() ? p.grad().clone() : torch::zeros_like(p));
            return std::make_pair(loss.item<double>(), grads);
        };
        const auto [l0, g0] = run(false);
        const int64_t before = bias_grads_summed();
        const auto [l1, g1] = run(true);
        set_fused_kernels(true);
        QCOMPARE(bias_grads_summed() - before, int64_t(per_layer * mc.n_layers));
        QVERIFY2(std::abs(l1 - l0) <= 1e-6 * std::abs(l0), qPrintable(QString("loss %1 against %2").arg(l1).arg(l0)));
        for (size_t i = 0; i < g0.size(); ++i) {
            const double scale = g0[i].abs().max().item<double>(), diff = (g1[i] - g0[i]).abs().max().item<double>();
            QVERIFY2(diff <= 1e-5 * scale + 1e-9, qPrintable(QString("parameter %1's gradient off by %2 of %3").arg(i).arg(diff).arg(scale)));
        }
    }
};

QTEST_APPLESS_MAIN(TestLinearBias)
#include "test_linear_bias.moc"
