// NormLab's CUDA kernels where CI can check them: the bodies the kernels run
// (core/model/cuda_kernel_bodies.h), called here on the CPU for every
// (chunk of rows, column), exactly as the kernels' grid calls them, against
// LibTorch's eager ops in float32 and bfloat16 storage. On a machine with a
// GPU, the kernels themselves against the eager ops on the same device
// (scripts/gpu_session.sh graph runs this).
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "core/model/fused_ops.h"
#include "core/model/gpt.h"
#include "core/train/precision.h"
#include "tests/kernel_bodies_cpu.h"
#include "tests/kernel_references.h"
#include "tests/model_pass.h"
#include "tests/test_util.h"
#endif

#include <QtTest/QtTest>

using namespace normlab;
using normlab::test::off;
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
                const auto ref = test::ref::swiglu(h, su, sv, da);
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

    // nGPT's query/key bodies (RoPE, unit norm, s_qk) as the kernels run them: a
    // warp a row forward, each phase for every lane and the lanes' sums added
    // between; backward a warp a head and a chunk of rows, each lane's share of
    // ds_qk kept across the chunk. With RoPE (generic tables, not only the rotary
    // ones) and without; heads of 8, 64 and 96 (lanes idle, one element a lane,
    // three); a row count above one chunk and not a multiple of it; a zero row;
    // fp32 and bf16. The projection's v part of the gradient is left alone.
    void qkBodiesMatchEager() {
        torch::manual_seed(4);
        struct Qk { int64_t B, T, H, dh; bool rope; };
        for (auto c : {Qk{2, 5, 3, 8, true}, Qk{1, 7, 2, 8, false}, Qk{2, 150, 2, 64, true}, Qk{1, 19, 2, 96, true}}) {
            for (bool bf16 : {false, true}) {
                const QString what = QString("B %1, T %2, H %3, d_h %4, %5, %6").arg(c.B).arg(c.T).arg(c.H).arg(c.dh)
                                         .arg(c.rope ? "RoPE" : "no RoPE").arg(bf16 ? "bf16" : "fp32");
                const auto type = bf16 ? torch::kBFloat16 : torch::kFloat;
                const int64_t d = c.H * c.dh, rows = c.B * c.T * c.H, bt = c.B * c.T;
                auto proj = torch::randn({c.B, c.T, 3 * d});
                proj.select(1, 0).narrow(-1, 0, c.dh).zero_();             // head 0's q at t = 0: a zero row
                proj = proj.to(type);
                torch::Tensor cos, sin;
                if (c.rope) cos = torch::randn({c.T, c.dh}), sin = torch::randn({c.T, c.dh});
                const auto s = 0.5 + torch::rand({d});
                const auto gq = torch::randn({c.B, c.H, c.T, c.dh}).to(type), gk = torch::randn({c.B, c.H, c.T, c.dh}).to(type);
                const kb::QkShape z{c.B, c.T, c.H, c.dh, 3 * d, 1e-6f};
                const float* cs = c.rope ? cos.data_ptr<float>() : nullptr;
                const float* sn = c.rope ? sin.data_ptr<float>() : nullptr;
                auto q = torch::empty({c.B, c.H, c.T, c.dh}, type), k = torch::empty_like(q);
                auto nq = torch::empty({rows}), nk = torch::empty({rows});
                auto dproj = torch::full({c.B, c.T, 3 * d}, 7.0, type);
                auto ps = torch::full({kb::qk_chunks(bt), d}, std::nanf(""));
                auto run = [&](auto tag) {
                    using T = decltype(tag);
                    const T* x = proj.data_ptr<T>();
                    const float* sp = s.data_ptr<float>();
                    for (int64_t r = 0; r < rows; ++r) {
                        for (int part = 0; part < 2; ++part) {
                            float ss = 0;
                            for (int lane = 0; lane < kb::kLanes; ++lane) ss += kb::qk_forward_sumsq(x, cs, sn, r, part, lane, z);
                            for (int lane = 0; lane < kb::kLanes; ++lane)
                                kb::qk_forward_store(x, cs, sn, sp, q.data_ptr<T>(), k.data_ptr<T>(), nq.data_ptr<float>(),
                                                     nk.data_ptr<float>(), r, part, lane, std::sqrt(ss), z);
                        }
                    }
                    for (int64_t ch = 0; ch < kb::qk_chunks(bt); ++ch) {
                        for (int64_t h = 0; h < c.H; ++h) {
                            float acc[kb::kLanes][kb::kQkPerLane] = {};
                            const int64_t r1 = std::min(bt, (ch + 1) * kb::qk_rows_per_chunk());
                            for (int64_t r = ch * kb::qk_rows_per_chunk(); r < r1; ++r) {
                                for (int part = 0; part < 2; ++part) {
                                    float dot = 0;
                                    for (int lane = 0; lane < kb::kLanes; ++lane)
                                        dot += kb::qk_backward_dot(x, cs, sn, sp, gq.data_ptr<T>(), gk.data_ptr<T>(), r, h, part, lane, z);
                                    for (int lane = 0; lane < kb::kLanes; ++lane)
                                        kb::qk_backward_store(x, cs, sn, sp, gq.data_ptr<T>(), gk.data_ptr<T>(), nq.data_ptr<float>(),
                                                              nk.data_ptr<float>(), dproj.data_ptr<T>(), r, h, part, lane, dot,
                                                              acc[lane], z);
                                }
                            }
                            for (int lane = 0; lane < kb::kLanes; ++lane)
                                kb::qk_scale_grad_store(acc[lane], ps.data_ptr<float>() + ch * d, h, lane, z);
                        }
                    }
                };
                if (bf16) run(c10::BFloat16());
                else run(float());
                const auto ref = test::ref::qk(proj, c.H, cos, sin, s, 1e-6, gq, gk);
                const double rtol = bf16 ? 8e-3 : 1e-5;
                QVERIFY2(torch::allclose(q.to(torch::kFloat), ref.q, rtol, 1e-5), qPrintable(what + ": q'" + off(q, ref.q)));
                QVERIFY2(torch::allclose(k.to(torch::kFloat), ref.k, rtol, 1e-5), qPrintable(what + ": k'" + off(k, ref.k)));
                const auto dref = ref.dproj.narrow(-1, 0, 2 * d), dqk = dproj.narrow(-1, 0, 2 * d);
                QVERIFY2(torch::allclose(dqk.to(torch::kFloat), dref, bf16 ? 1e-2 : 1e-4, bf16 ? 1e-2 : 1e-4),
                         qPrintable(what + ": dq, dk" + off(dqk, dref)));
                QVERIFY2((dproj.narrow(-1, 2 * d, d) == 7).all().item<bool>(), qPrintable(what + ": v's part written"));
                QVERIFY2(!torch::isnan(ps).any().item<bool>(), qPrintable(what + ": a chunk's partial sum unwritten"));
                QVERIFY2(torch::allclose(ps.sum(0), ref.ds, 1e-4, 1e-4), qPrintable(what + ": ds_qk" + off(ps.sum(0), ref.ds)));
            }
        }
    }

    // NormFormer's FFN LN bodies, run as the kernels do: for every row, each phase
    // for every thread of a 256-thread block, the partial sums added between
    // phases; dγ and dβ over the column grid. Rows shorter than the block (13),
    // not a multiple of it (300) and GPT-2 small's d_ff (3072); fp32 and bf16.
    void geluLayerNormBodiesMatchEager() {
        torch::manual_seed(5);
        constexpr int64_t nt = 256;
        for (int64_t n : {13, 300, 3072}) {
            for (bool bf16 : {false, true}) {
                const QString what = QString("n %1, %2").arg(n).arg(bf16 ? "bf16" : "fp32");
                const auto type = bf16 ? torch::kBFloat16 : torch::kFloat;
                const int64_t rows = 40;
                const auto h = (1.5 * torch::randn({rows, n}) + 0.3).to(type), g = torch::randn({rows, n}).to(type);
                const auto gamma = 0.5 + torch::rand({n}), beta = 0.1 * torch::randn({n});
                auto out = torch::empty({rows, n}, type), dh = torch::empty_like(out);
                auto mean = torch::empty({rows}), rstd = torch::empty({rows});
                auto partial = torch::full({2, kb::row_chunks(rows), n}, std::nanf(""));
                const float eps = 1e-5f;
                auto run = [&](auto tag) {
                    using T = decltype(tag);
                    const T *hp = h.data_ptr<T>(), *gp = g.data_ptr<T>();
                    for (int64_t r = 0; r < rows; ++r) {
                        const T *hr = hp + r * n, *gr = gp + r * n;
                        float s = 0, q = 0, sg = 0, sgx = 0;
                        for (int64_t t = 0; t < nt; ++t) s += kb::gelu_ln_sum(hr, n, t, nt);
                        const float m = s / n;
                        for (int64_t t = 0; t < nt; ++t) q += kb::gelu_ln_sq(hr, m, n, t, nt);
                        const float rs = 1.f / std::sqrt(q / n + eps);
                        mean[r] = m, rstd[r] = rs;
                        for (int64_t t = 0; t < nt; ++t)
                            kb::gelu_ln_write(hr, gamma.data_ptr<float>(), beta.data_ptr<float>(), m, rs,
                                              out.data_ptr<T>() + r * n, n, t, nt);
                        for (int64_t t = 0; t < nt; ++t) {
                            float a, b;
                            kb::gelu_ln_grad_sums(hr, gamma.data_ptr<float>(), gr, m, rs, n, t, nt, a, b);
                            sg += a, sgx += b;
                        }
                        for (int64_t t = 0; t < nt; ++t)
                            kb::gelu_ln_grad_write(hr, gamma.data_ptr<float>(), gr, m, rs, sg, sgx, dh.data_ptr<T>() + r * n,
                                                   n, t, nt);
                    }
                    for (int64_t c = 0; c < kb::row_chunks(rows); ++c)
                        for (int64_t j = 0; j < n; ++j)
                            kb::gelu_ln_param_grad_column(hp, gp, mean.data_ptr<float>(), rstd.data_ptr<float>(),
                                                          partial[0].data_ptr<float>() + c * n + j,
                                                          partial[1].data_ptr<float>() + c * n + j,
                                                          c * kb::rows_per_chunk(rows), kb::chunk_end(c, rows), j, n);
                };
                if (bf16) run(c10::BFloat16());
                else run(float());
                const auto ref = test::ref::gelu_ln(h, gamma, beta, eps, g);
                const double rtol = bf16 ? 8e-3 : 1e-4;
                QVERIFY2(torch::allclose(out.to(torch::kFloat), ref.out, rtol, 1e-4), qPrintable(what + ": out" + off(out, ref.out)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), ref.dh, bf16 ? 1e-2 : 1e-4, 1e-4),
                         qPrintable(what + ": dh" + off(dh, ref.dh)));
                QVERIFY2(!torch::isnan(partial).any().item<bool>(), qPrintable(what + ": a chunk's partial sum unwritten"));
                const auto sums = partial.sum(1);
                QVERIFY2(torch::allclose(sums[0], ref.dgamma, 1e-4, 1e-4), qPrintable(what + ": dγ" + off(sums[0], ref.dgamma)));
                QVERIFY2(torch::allclose(sums[1], ref.dbeta, 1e-4, 1e-4), qPrintable(what + ": dβ" + off(sums[1], ref.dbeta)));
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

    // Needs a GPU: nGPT's query/key kernel through ngpt_queries_keys() against the
    // eager ops, at GPT-2 small's heads (d_h 64) with RoPE's real tables and with none.
    void cudaNgptQkMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const auto dev = torch::Device("cuda");
        const int64_t B = 2, T = 128, H = 12, dh = 64, d = H * dh;
        auto inv = torch::pow(10000.0, -torch::arange(0, dh, 2, torch::kDouble) / dh);
        auto freqs = torch::outer(torch::arange(T, torch::kDouble), inv);
        auto emb = torch::cat({freqs, freqs}, -1);
        const auto cos = emb.cos().to(torch::kFloat).to(dev), sin = emb.sin().to(torch::kFloat).to(dev);
        for (auto type : {torch::kFloat, torch::kBFloat16}) {
            for (bool rope : {true, false}) {
                const QString what = QString("%1, %2").arg(type == torch::kFloat ? "fp32" : "bf16").arg(rope ? "RoPE" : "no RoPE");
                const auto proj = torch::randn({B, T, 3 * d}, dev).to(type);
                const auto s = 0.5 + torch::rand({d}, dev);
                const auto gq = torch::randn({B, H, T, dh}, dev).to(type), gk = torch::randn({B, H, T, dh}, dev).to(type);
                auto p = proj.detach().requires_grad_(true);
                auto sg = s.detach().requires_grad_(true);
                torch::Tensor q, k, v;
                set_cuda_kernels(true);
                const bool used = ngpt_queries_keys(p, H, rope ? cos : torch::Tensor(), rope ? sin : torch::Tensor(), sg, 1e-8, q, k, v);
                set_cuda_kernels(false);
                QVERIFY2(used, qPrintable(what + ": the kernel did not apply"));
                QCOMPARE(q.scalar_type(), type);
                // v: the projection's v part as (B, H, T, d_h); its gradient goes into dproj's v part
                // (with RoPE; without, v is not used and that part is 0)
                QVERIFY(torch::equal(v, proj.view({B, T, 3, H, dh}).select(2, 2).permute({0, 2, 1, 3})));
                const auto gv = torch::randn({B, H, T, dh}, dev).to(type);
                const auto g = rope ? torch::autograd::grad({q, k, v}, {p, sg}, {gq, gk, gv})
                                    : torch::autograd::grad({q, k}, {p, sg}, {gq, gk});
                const auto dv = rope ? gv.permute({0, 2, 1, 3}).reshape({B, T, d}) : torch::zeros({B, T, d}, dev).to(type);
                QVERIFY2(torch::equal(g[0].narrow(-1, 2 * d, d), dv), qPrintable(what + ": dproj's v part"));
                const auto ref = test::ref::qk(proj, H, rope ? cos : torch::Tensor(), rope ? sin : torch::Tensor(), s, 1e-8, gq, gk);
                const double rtol = type == torch::kFloat ? 1e-5 : 8e-3;
                QVERIFY2(torch::allclose(q.to(torch::kFloat), ref.q, rtol, 1e-5), qPrintable(what + ": q'" + off(q, ref.q)));
                QVERIFY2(torch::allclose(k.to(torch::kFloat), ref.k, rtol, 1e-5), qPrintable(what + ": k'" + off(k, ref.k)));
                const auto dqk = g[0].narrow(-1, 0, 2 * d), dref = ref.dproj.narrow(-1, 0, 2 * d);
                QVERIFY2(torch::allclose(dqk.to(torch::kFloat), dref, type == torch::kFloat ? 1e-4 : 1e-2, 1e-3),
                         qPrintable(what + ": dproj" + off(dqk, dref)));
                QVERIFY2(torch::allclose(g[1], ref.ds, 1e-3, 1e-3), qPrintable(what + ": ds_qk" + off(g[1], ref.ds)));
            }
        }
    }

    // Needs a GPU: RoPE alone in that kernel (the LayerNorm schemes with rotary
    // positions) through rope_queries_keys() against the eager formula, d_h 64 and 128.
    void cudaRopeQkMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const auto dev = torch::Device("cuda");
        for (const int64_t dh : {64, 128}) {
            const int64_t B = 2, T = 96, H = 768 / dh, d = H * dh;
            const auto cos = torch::randn({T, dh}, dev), sin = torch::randn({T, dh}, dev);
            for (auto type : {torch::kFloat, torch::kBFloat16}) {
                const QString what = QString("d_h %1, %2").arg(dh).arg(type == torch::kFloat ? "fp32" : "bf16");
                const auto proj = torch::randn({B, T, 3 * d}, dev).to(type);
                const auto gq = torch::randn({B, H, T, dh}, dev).to(type), gk = torch::randn({B, H, T, dh}, dev).to(type);
                auto p = proj.detach().requires_grad_(true);
                torch::Tensor q, k, v;
                set_cuda_kernels(true);
                const bool used = rope_queries_keys(p, H, cos, sin, q, k, v);
                set_cuda_kernels(false);
                QVERIFY2(used, qPrintable(what + ": the kernel did not apply"));
                QCOMPARE(q.scalar_type(), type);
                const auto gv = torch::randn({B, H, T, dh}, dev).to(type);
                const auto g = torch::autograd::grad({q, k, v}, {p}, {gq, gk, gv})[0];
                const auto ref = test::ref::qk(proj, H, cos, sin, {}, 0.0, gq, gk, false);
                const double rtol = type == torch::kFloat ? 1e-5 : 8e-3;
                QVERIFY2(torch::allclose(q.to(torch::kFloat), ref.q, rtol, 1e-5), qPrintable(what + ": q" + off(q, ref.q)));
                QVERIFY2(torch::allclose(k.to(torch::kFloat), ref.k, rtol, 1e-5), qPrintable(what + ": k" + off(k, ref.k)));
                const auto dqk = g.narrow(-1, 0, 2 * d), dref = ref.dproj.narrow(-1, 0, 2 * d);
                QVERIFY2(torch::allclose(dqk.to(torch::kFloat), dref, type == torch::kFloat ? 1e-5 : 1e-2, 1e-3),
                         qPrintable(what + ": dproj" + off(dqk, dref)));
                QVERIFY2(torch::equal(g.narrow(-1, 2 * d, d), gv.permute({0, 2, 1, 3}).reshape({B, T, d})),
                         qPrintable(what + ": dproj's v part"));
            }
        }
    }

    // Needs a GPU: NormFormer's FFN LN kernel through gelu_layer_norm() against GELU
    // and LayerNorm eagerly, at GPT-2 small's d_ff and a row shorter than a block.
    void cudaGeluLayerNormMatchesEager() {
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const auto dev = torch::Device("cuda");
        for (auto type : {torch::kFloat, torch::kBFloat16}) {
            for (int64_t n : {3072, 13}) {
                const QString what = QString("n %1, %2").arg(n).arg(type == torch::kFloat ? "fp32" : "bf16");
                auto h = (1.5 * torch::randn({4, 128, n}, dev)).to(type).requires_grad_(true);
                auto gamma = (0.5 + torch::rand({n}, dev)).requires_grad_(true), beta = (0.1 * torch::randn({n}, dev)).requires_grad_(true);
                const auto g = torch::randn({4, 128, n}, dev).to(type);
                const auto ref = torch::layer_norm(torch::gelu(h.to(torch::kFloat)), {n}, gamma, beta, 1e-5);
                const auto rg = torch::autograd::grad({ref}, {h, gamma, beta}, {g.to(torch::kFloat)});
                set_cuda_kernels(true);
                const auto y = gelu_layer_norm(h, gamma, beta, 1e-5);
                set_cuda_kernels(false);
                QVERIFY2(y.defined(), qPrintable(what + ": the kernel did not apply"));
                QCOMPARE(y.scalar_type(), type);
                const auto yg = torch::autograd::grad({y}, {h, gamma, beta}, {g});
                const double rtol = type == torch::kFloat ? 1e-4 : 1e-2;
                QVERIFY2(torch::allclose(y.to(torch::kFloat), ref, rtol, 1e-4), qPrintable(what + ": out" + off(y, ref)));
                for (int i = 0; i < 3; ++i)
                    QVERIFY2(torch::allclose(yg[i].to(torch::kFloat), rg[i].to(torch::kFloat), i == 0 ? rtol : 1e-3, 1e-3),
                             qPrintable(what + QString(": gradient %1").arg(i) + off(yg[i], rg[i])));
            }
        }
    }

    // Needs a GPU: whole models with NormLab's CUDA kernels on and off, in fp32
    // and under bf16 autocast: the same loss and the same gradient for every
    // parameter. nGPT: RoPE, SwiGLU, its queries and keys, its update; Pre-LN
    // with SwiGLU and RoPE: RoPE alone in the queries' and keys' kernel;
    // NormFormer: FFN LN; every LayerNorm scheme: the residual add with the
    // LayerNorm after it (Pre-LN's across blocks and into the final LN).
    void cudaKernelsLeaveModelsUnchanged_data() {
        QTest::addColumn<int>("scheme");
        QTest::addColumn<bool>("res_scale");
        QTest::addColumn<double>("branch");   // BranchNorm's α_t for the forward
        QTest::addColumn<bool>("glu_rope");   // nGPT's SwiGLU MLP and rotary positions
        QTest::newRow("ngpt") << static_cast<int>(Scheme::NGPT) << false << 1.0 << false;
        QTest::newRow("normformer") << static_cast<int>(Scheme::NormFormer) << false << 1.0 << false;
        QTest::newRow("normformer + ResScale") << static_cast<int>(Scheme::NormFormer) << true << 1.0 << false;
        QTest::newRow("pre_ln") << static_cast<int>(Scheme::PreLN) << false << 1.0 << false;
        QTest::newRow("post_ln") << static_cast<int>(Scheme::PostLN) << false << 1.0 << false;
        QTest::newRow("post_ln + ResScale") << static_cast<int>(Scheme::PostLN) << true << 1.0 << false;
        QTest::newRow("deepnorm") << static_cast<int>(Scheme::DeepNorm) << false << 1.0 << false;
        QTest::newRow("branchnorm") << static_cast<int>(Scheme::BranchNorm) << false << 0.4 << false;
        // Pre-LN with nGPT's MLP and rotary positions (bench's pre_ln_glu): RoPE alone in the q/k kernel.
        QTest::newRow("pre_ln_glu") << static_cast<int>(Scheme::PreLN) << false << 1.0 << true;
    }
    void cudaKernelsLeaveModelsUnchanged() {
        QFETCH(int, scheme);
        QFETCH(bool, res_scale);
        QFETCH(double, branch);
        QFETCH(bool, glu_rope);
        if (!cuda_kernels_built()) QSKIP("this build has no CUDA kernels (the LibTorch 2.x build has)");
        if (!torch::cuda::is_available()) QSKIP("no CUDA device here");
        const auto dev = torch::Device("cuda");
        ModelConfig mc = test::tiny(static_cast<Scheme>(scheme)).model;
        mc.d_model = 256, mc.n_layers = 2, mc.n_heads = 4, mc.d_ff = 512, mc.context = 64;
        if (res_scale) mc.normformer.res_scale = true;
        if (glu_rope) mc.activation = Activation::SwiGLU, mc.positions = Positions::RoPE;
        GPT model(mc);
        model->reset_parameters(7);
        model->set_branch_alpha(branch);
        model->to(dev);
        const auto idx = torch::randint(0, 256, {4, 64}, torch::TensorOptions().dtype(torch::kLong).device(dev));
        const auto targets = torch::randint(0, 256, {4, 64}, idx.options());
        for (const std::string precision : {"fp32", "bf16"}) {
            auto run = [&](bool kernels) {
                set_cuda_kernels(kernels);
                const auto r = test::loss_and_grads(model, idx, targets, precision);
                set_cuda_kernels(false);
                return std::make_pair(r.loss, r.grads);
            };
            const auto [l0, g0] = run(false);
            const auto [l1, g1] = run(true);
            const double tol = precision == "fp32" ? 1e-5 : 2e-2;
            QVERIFY2(std::abs(l1 - l0) <= tol * std::abs(l0),
                     qPrintable(QString::fromStdString(precision) + QString(": loss %1 against %2").arg(l1).arg(l0)));
            for (size_t i = 0; i < g0.size(); ++i) {
                const double scale = g0[i].abs().max().item<double>();
                const double diff = (g1[i] - g0[i]).abs().max().item<double>();
                QVERIFY2(diff <= (precision == "fp32" ? 1e-3 : 5e-2) * scale + 1e-6,
                         qPrintable(QString::fromStdString(precision) + QString(": parameter %1's gradient off by %2 of %3")
                                        .arg(i).arg(diff).arg(scale)));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestCudaKernels)
#include "test_cuda_kernels.moc"
