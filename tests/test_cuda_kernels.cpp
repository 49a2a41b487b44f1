// NormLab's CUDA kernels where CI can check them: the bodies the kernels run
// (core/model/cuda_kernel_bodies.h), called here on the CPU for every
// (chunk of rows, column), exactly as the kernels' grid calls them, against
// LibTorch's eager ops in float32 and bfloat16 storage. On a machine with a
// GPU, the kernels themselves against the eager ops on the same device
// (scripts/gpu_session.sh graph runs this).
#include "core/model/cuda_kernel_bodies.h"
#include "core/model/fused_ops.h"

#include <QtTest/QtTest>

#include <c10/util/BFloat16.h>

namespace normlab::kernel_bodies {
template <>
struct Io<c10::BFloat16> {
    static float ld(c10::BFloat16 v) { return static_cast<float>(v); }
    static c10::BFloat16 st(float v) { return c10::BFloat16(v); }   // round to nearest even, as __float2bfloat16_rn
};
}  // namespace normlab::kernel_bodies

using namespace normlab;
namespace kb = normlab::kernel_bodies;

namespace {

// A (rows, 2f) projection, the scalers (or undefined) and the output's gradient.
struct Case {
    int64_t rows, f;
    bool scalers;
};

// Every (chunk, column) of the grid through the bodies, as the kernels do.
template <class T>
void grid_forward(const torch::Tensor& h, const float* su, const float* sv, torch::Tensor& a, int64_t rows, int64_t f) {
    for (int64_t c = 0; c < kb::row_chunks(rows); ++c)
        for (int64_t j = 0; j < f; ++j)
            kb::swiglu_forward_column(h.data_ptr<T>(), su, sv, a.data_ptr<T>(), c * kb::rows_per_chunk(rows),
                                      kb::chunk_end(c, rows), j, f);
}
template <class T>
void grid_backward(const torch::Tensor& h, const float* su, const float* sv, const torch::Tensor& da,
                   torch::Tensor& dh, torch::Tensor& partial, int64_t rows, int64_t f) {
    for (int64_t c = 0; c < kb::row_chunks(rows); ++c)
        for (int64_t j = 0; j < f; ++j)
            kb::swiglu_backward_column(h.data_ptr<T>(), su, sv, da.data_ptr<T>(), dh.data_ptr<T>(),
                                       partial[0].data_ptr<float>() + c * f + j,
                                       partial[1].data_ptr<float>() + c * f + j, c * kb::rows_per_chunk(rows),
                                       kb::chunk_end(c, rows), j, f);
}

// The eager formula on float32 copies of the inputs: a, and the gradients of h, s_u, s_v.
struct Reference {
    torch::Tensor a, dh, dsu, dsv;
};
Reference eager(const torch::Tensor& h, const torch::Tensor& su, const torch::Tensor& sv, const torch::Tensor& da) {
    auto hf = h.to(torch::kFloat).detach().requires_grad_(true);
    std::vector<torch::Tensor> inputs{hf};
    torch::Tensor suf, svf;
    if (su.defined()) suf = su.detach().requires_grad_(true), svf = sv.detach().requires_grad_(true);
    auto parts = hf.chunk(2, -1);
    auto u = parts[0], g = parts[1];
    if (suf.defined()) u = u * suf, g = g * svf, inputs.push_back(suf), inputs.push_back(svf);
    Reference r;
    r.a = u * torch::silu(g);
    auto grads = torch::autograd::grad({r.a}, inputs, {da.to(torch::kFloat)});
    r.dh = grads[0];
    if (suf.defined()) r.dsu = grads[1], r.dsv = grads[2];
    return r;
}

QString off(const torch::Tensor& a, const torch::Tensor& b) {
    return QString(" off by %1").arg((a.to(torch::kFloat) - b.to(torch::kFloat)).abs().max().item<double>());
}

}  // namespace

class TestCudaKernels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // SwiGLU's bodies over the kernels' grid: one row (one chunk), fewer rows than
    // chunks, a row count that leaves the last chunks empty (300 rows: 2 a chunk,
    // chunks 150–255 empty), many rows a chunk; a column count below a warp;
    // with nGPT's scalers and without; float32 and bfloat16 storage.
    void swigluBodiesMatchEager() {
        torch::manual_seed(3);
        for (auto c : {Case{1, 8, true}, Case{7, 13, true}, Case{300, 40, true}, Case{1000, 96, false},
                       Case{1000, 96, true}}) {
            for (bool bf16 : {false, true}) {
                const QString what = QString("rows %1, f %2, %3, %4")
                                         .arg(c.rows).arg(c.f).arg(c.scalers ? "scalers" : "no scalers")
                                         .arg(bf16 ? "bf16" : "fp32");
                const auto type = bf16 ? torch::kBFloat16 : torch::kFloat;
                const auto h = (2 * torch::randn({c.rows, 2 * c.f})).to(type);
                const auto da = torch::randn({c.rows, c.f}).to(type);
                torch::Tensor su, sv;
                if (c.scalers) su = 0.5 + torch::rand({c.f}), sv = 3 * torch::rand({c.f});
                const float* sup = c.scalers ? su.data_ptr<float>() : nullptr;
                const float* svp = c.scalers ? sv.data_ptr<float>() : nullptr;
                auto a = torch::empty({c.rows, c.f}, type), dh = torch::empty_like(h);
                auto partial = torch::full({2, kb::row_chunks(c.rows), c.f}, std::nanf(""));   // every cell written
                if (bf16) {
                    grid_forward<c10::BFloat16>(h, sup, svp, a, c.rows, c.f);
                    grid_backward<c10::BFloat16>(h, sup, svp, da, dh, partial, c.rows, c.f);
                } else {
                    grid_forward<float>(h, sup, svp, a, c.rows, c.f);
                    grid_backward<float>(h, sup, svp, da, dh, partial, c.rows, c.f);
                }
                const auto ref = eager(h, su, sv, da);
                // bfloat16 storage: the float result rounded once (≤ half a unit of 2⁻⁸ relative).
                const double rtol = bf16 ? 8e-3 : 1e-5, atol = bf16 ? 1e-5 : 1e-6;
                QVERIFY2(torch::allclose(a.to(torch::kFloat), ref.a, rtol, atol), qPrintable(what + ": a" + off(a, ref.a)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), ref.dh, rtol, 1e-5),
                         qPrintable(what + ": dh" + off(dh, ref.dh)));
                QVERIFY2(!torch::isnan(partial).any().item<bool>(), qPrintable(what + ": a chunk's partial sum unwritten"));
                if (c.scalers) {
                    const auto sums = partial.sum(1);
                    QVERIFY2(torch::allclose(sums[0], ref.dsu, 1e-4, 1e-4), qPrintable(what + ": ds_u" + off(sums[0], ref.dsu)));
                    QVERIFY2(torch::allclose(sums[1], ref.dsv, 1e-4, 1e-4), qPrintable(what + ": ds_v" + off(sums[1], ref.dsv)));
                }
            }
        }
    }

    // The grid's chunks cover every row once, in order, for any row count.
    void chunksCoverTheRows() {
        for (int64_t rows : {0, 1, 2, 255, 256, 257, 300, 511, 512, 513, 32768, 32769}) {
            int64_t next = 0;
            for (int64_t c = 0; c < kb::row_chunks(rows); ++c) {
                const int64_t r0 = std::min(c * kb::rows_per_chunk(rows), rows), r1 = kb::chunk_end(c, rows);
                QVERIFY2(r0 == next || r0 >= r1, qPrintable(QString("rows %1, chunk %2 starts at %3").arg(rows).arg(c).arg(r0)));
                if (r1 > r0) next = r1;
            }
            QCOMPARE(next, rows);
            QVERIFY(kb::row_chunks(rows) <= 256);   // a grid's y dimension, and the partial sums' rows
        }
    }

    // Needs a GPU: the SwiGLU kernels through swiglu() (nGPT's MLP gate) against the
    // eager ops on the same device, in float32 and bfloat16, at GPT-2 small's width.
    void cudaSwigluMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const auto dev = torch::Device("cuda");
        for (auto type : {torch::kFloat, torch::kBFloat16}) {
            for (auto c : {Case{4 * 128, 3072, true}, Case{300, 13, true}, Case{64, 256, false}}) {
                const QString what = QString("rows %1, f %2, %3").arg(c.rows).arg(c.f).arg(type == torch::kFloat ? "fp32" : "bf16");
                auto h = (2 * torch::randn({2, c.rows / 2, 2 * c.f}, dev)).to(type).requires_grad_(true);
                torch::Tensor su, sv;
                if (c.scalers)
                    su = (0.5 + torch::rand({c.f}, dev)).requires_grad_(true), sv = (3 * torch::rand({c.f}, dev)).requires_grad_(true);
                const auto da = torch::randn({2, c.rows / 2, c.f}, dev).to(type);
                std::vector<torch::Tensor> inputs{h};
                if (c.scalers) inputs.push_back(su), inputs.push_back(sv);
                set_cuda_kernels(false);
                const auto ref = swiglu(h, su, sv);
                const auto rg = torch::autograd::grad({ref}, inputs, {da.to(ref.scalar_type())});
                set_cuda_kernels(true);
                const auto y = swiglu(h, su, sv);
                const auto yg = torch::autograd::grad({y}, inputs, {da});
                set_cuda_kernels(false);
                const double rtol = type == torch::kFloat ? 1e-5 : 8e-3;
                QCOMPARE(y.scalar_type(), type);
                QVERIFY2(torch::allclose(y.to(torch::kFloat), ref.to(torch::kFloat), rtol, 1e-5), qPrintable(what + ": a" + off(y, ref)));
                for (size_t i = 0; i < inputs.size(); ++i)
                    QVERIFY2(torch::allclose(yg[i].to(torch::kFloat), rg[i].to(torch::kFloat), i == 0 ? rtol : 1e-3, 1e-3),
                             qPrintable(what + QString(": gradient %1").arg(i) + off(yg[i], rg[i])));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestCudaKernels)
#include "test_cuda_kernels.moc"
