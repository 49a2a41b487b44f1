// NormLab's CUDA kernels as they are, on the CPU: core/model/cuda_kernels.cu
// compiled here with tests/simt_emulator.h, so that its launch functions run
// their grids, warp shuffles and block barriers on fibers, against the
// eager formulas (tests/kernel_references.h). The bodies' tests
// (test_cuda_kernels, test_cuda_residual_ln) check the arithmetic one thread
// at a time; these check what only a launch has: the grids and their
// indexing, a warp's sums by shuffles, the kernels that hold a row in a
// warp's registers, the choice between those and the block-a-row kernels by
// the row's width, and lanes that leave early. CI has no GPU; a GPU runs the
// same kernels through the model's operations (scripts/gpu_session.sh graph).
//
// This test does not link normlab_core: the launch functions it calls are the
// .cu files' own, compiled once with the emulator into normlab_emulated_kernels
// (tests/emulated_kernels.cpp), which test_cuda_model_emulated links too.
#ifndef Q_MOC_RUN   // moc reads the test class alone: LibTorch's headers cost it ~10 s
#include "tests/kernel_bodies_cpu.h"
#include "tests/kernel_references.h"
#endif

#include <QtTest/QtTest>

#ifndef Q_MOC_RUN
#include "tests/simt_emulator.h"
// after the emulator, which stands in for CUDA: the launch functions' declarations,
// and SwiGLU's bodies' kernels, launched here beside the launch functions' choice
#include "core/model/cuda_kernels.h"
#include "core/model/cuda_launch.cuh"
#include "core/model/cuda_columns.cuh"
#include "tests/emulated_residual_ln.h"
#endif

using normlab::test::off;
namespace ck = normlab::cuda_kernels;
namespace ref = normlab::test::ref;
namespace simt = normlab::simt;
using namespace normlab::test::emu;

namespace {

const char* type_name(torch::ScalarType t) { return t == torch::kFloat ? "fp32" : "bf16"; }

// What the emulator found a GPU would leave undefined, as a failure's text ("" when nothing).
QString emulator_errors() { return QString::fromStdString(simt::take_errors()); }

// A column sum over many rows (got) against another order's (want): within float32's rounding
// of the sum of the magnitudes (mag, the column's Σ|x|), or the test fails naming what.
void close_sums(const QString& what, const torch::Tensor& got, const torch::Tensor& want, const torch::Tensor& mag) {
    const bool ok = ((got - want).abs() <= 1e-5 + 1e-6 * mag).all().item<bool>();
    QVERIFY2(ok, qPrintable(what + off(got, want)));
}

// The same bits, or the test fails naming what.
void same(const QString& what, const torch::Tensor& got, const torch::Tensor& want) {
    QVERIFY2(torch::equal(got, want), qPrintable(what + " differs" + off(got.to(torch::kFloat), want.to(torch::kFloat))));
}

}  // namespace

// Fails with what the emulator reported since the last check.
#define VERIFY_EMULATOR_QUIET(what)                                         \
    do {                                                                    \
        const QString reported = emulator_errors();                         \
        QVERIFY2(reported.isEmpty(), qPrintable((what) + ": " + reported)); \
    } while (0)

class TestCudaEmulated : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // nGPT's update: a warp a row for rows up to 1,024 wide (4, 8, 24 and 32
    // floats a lane at 100, 256, 768 and 1,024; 13 leaves most lanes without
    // an element), a block a row past it (1,100); 37 rows a warp each, so the
    // last block's warps past the rows add zeros to its share of dα (the
    // block's warps meet in shared memory). h in float32 and bfloat16.
    void ngptUpdate() {
        torch::manual_seed(21);
        for (int64_t n : {13, 100, 256, 768, 1024, 1100})
            for (auto ht : {torch::kFloat, torch::kBFloat16}) {
                const int64_t rows = n > 1024 ? 5 : 37;   // a block a row: 256 fibers each
                const QString what = QString("n %1, h %2").arg(n).arg(type_name(ht));
                const auto x = torch::nn::functional::normalize(torch::randn({rows, n}), torch::nn::functional::NormalizeFuncOptions().dim(-1));
                const auto h = (3 * torch::randn({rows, n})).to(ht);
                const auto alpha = 0.05 + 0.2 * torch::rand({n});
                const auto gy = torch::randn({rows, n});
                auto y = nans({rows, n}), rh = nans({rows}), rz = nans({rows});
                auto dx = nans({rows, n}), dh = nans({rows, n}, ht), da = nans({ck::ngpt_update_alpha_rows(rows, n), n});
                const float eps = 1e-6f;
                auto y_copy = nans({rows, n}, ht);   // y for the next linear layer, in h's type
                ck::ngpt_update_forward(fp(x), ptr(h), fp(alpha), eps, wp(y), wp(rh), wp(rz), rows, n,
                                        ht == torch::kBFloat16, nullptr, ptr(y_copy));
                ck::ngpt_update_backward(fp(x), ptr(h), fp(alpha), fp(rh), fp(rz), fp(gy), eps, wp(dx), ptr(dh), wp(da),
                                         rows, n, ht == torch::kBFloat16, nullptr);
                VERIFY_EMULATOR_QUIET(what);
                const auto r = ref::update(x, h, alpha, eps, gy);
                const auto nh = h.to(torch::kFloat).norm(2, -1);
                const double dh_tol = ht == torch::kFloat ? 1e-4 : 1e-2;
                QVERIFY2(torch::allclose(rh, nh, 1e-5, 1e-6), qPrintable(what + ": ‖h‖" + off(rh, nh)));
                QVERIFY2(torch::allclose(y, r.y, 1e-5, 1e-6), qPrintable(what + ": y" + off(y, r.y)));
                QVERIFY2(torch::equal(y_copy, y.to(ht)), qPrintable(what + ": y's copy is not y cast"));
                QVERIFY2(torch::allclose(dx, r.dx, 1e-4, 1e-5), qPrintable(what + ": dx" + off(dx, r.dx)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), r.dh, dh_tol, 1e-5), qPrintable(what + ": dh" + off(dh, r.dh)));
                QVERIFY2(torch::allclose(da.sum(0), r.dalpha, 1e-4, 1e-4), qPrintable(what + ": dα" + off(da.sum(0), r.dalpha)));
                if (!ck::copy_grad_in_kernel(n)) continue;
                // y read twice (as the next residual, and as its copy by the next linear layer): the copy's
                // gradient added by the kernel as it reads gy gives the bits of the sum made first
                const auto g_copy = torch::randn({rows, n}).to(ht);
                auto dx2 = nans({rows, n}), dh2 = nans({rows, n}, ht), da2 = nans(da.sizes());
                ck::ngpt_update_backward(fp(x), ptr(h), fp(alpha), fp(rh), fp(rz), fp(gy), eps, wp(dx2), ptr(dh2),
                                         wp(da2), rows, n, ht == torch::kBFloat16, nullptr, ptr(g_copy));
                // against the kernel's own dx without the copy's gradient (dx, still the run above's)
                QVERIFY2(!torch::equal(dx2, dx), qPrintable(what + ": the copy's gradient changed nothing"));
                const auto g_sum = gy + g_copy;   // with_copy_grad's sum (cuda_ops.cpp)
                ck::ngpt_update_backward(fp(x), ptr(h), fp(alpha), fp(rh), fp(rz), fp(g_sum), eps, wp(dx), ptr(dh), wp(da),
                                         rows, n, ht == torch::kBFloat16, nullptr);
                VERIFY_EMULATOR_QUIET(what + ", the copy's gradient");
                same(what + ", the copy's gradient in the kernel: dx", dx2, dx);
                same(what + ", the copy's gradient in the kernel: dh", dh2, dh);
                same(what + ", the copy's gradient in the kernel: dα", da2, da);
            }
    }

    // The residual add and its LayerNorm: a warp a row at 13 and 768, a block a
    // row at 1,536; the storage pairs a model meets (float32 y with its bf16
    // copy for the next linear layer, Post-LN's); λ; DeepNorm's and
    // BranchNorm's scalars with b read from the device (the argument b is
    // wrong on purpose); s's own gradient; dγ, dβ, dλ summed by each block's
    // eight rows where a warp takes a row (37 rows: the last block's warps past
    // them give zeros), by the column grid after the block-a-row kernel. A lane
    // holds its elements four neighbours an access at 768 (a multiple of 4, the
    // tensors aligned), one at a time at 13; 1,536 takes the block-a-row kernel.
    void residualLayerNorm() {
        torch::manual_seed(22);
        for (int64_t n : {13, 768, 1536})
            for (const auto& [ft, yt] : ref::kResLnStorages)
                for (bool lam : {false, true})
                    for (bool on_device : {false, true}) {
                        const bool gs = lam == on_device;   // each of λ and b's source with and without gs
                        const int64_t rows = n > 1024 ? 5 : 37;
                        const QString what = QString("n %1, f %2, y %3%4%5%6").arg(n).arg(type_name(ft)).arg(type_name(yt))
                                                 .arg(lam ? ", λ" : "").arg(on_device ? ", b on the device" : "")
                                                 .arg(gs ? ", s's own gradient" : "");
                        const auto in = ref::res_ln_inputs(torch::kCPU, {rows, n}, ft, yt, lam, true, gs);
                        // Post-LN's float32 y comes with its copy in the branch's bf16 for the next linear layer.
                        const bool copy = ft == torch::kBFloat16 && yt == torch::kFloat;
                        const ResLnRun got = run_res_ln(in, on_device, copy);
                        if (copy) QVERIFY2(torch::equal(got.y_copy, got.y.to(ft)), qPrintable(what + ": y's copy is not y cast"));
                        else QVERIFY2(torch::isnan(got.y_copy).all().item<bool>(), qPrintable(what + ": a copy written unasked"));
                        VERIFY_EMULATOR_QUIET(what);
                        compare_res_ln(what, got, ref::res_ln(in, kEps), in);
                        if (QTest::currentTestFailed()) return;
                        if (!copy || !ck::copy_grad_in_kernel(n)) continue;
                        // y read as the next residual and as its copy: the copy's gradient added by the
                        // kernel as it reads gy gives the bits of the sum made first (with_copy_grad's)
                        const auto g_copy = torch::randn({rows, n}).to(ft);
                        auto summed = in;
                        summed.gy = in.gy + g_copy;
                        const ResLnRun split = run_res_ln(in, on_device, copy, g_copy), first = run_res_ln(summed, on_device, copy);
                        VERIFY_EMULATOR_QUIET(what + ", the copy's gradient");
                        const QString w = what + ", the copy's gradient in the kernel: ";
                        same(w + "dx", split.dx, first.dx);
                        same(w + "df", split.df, first.df);
                        same(w + "dγ", split.pg, first.pg);
                        same(w + "dβ", split.pb, first.pb);
                        same(w + "df's column sums", split.pfb, first.pfb);
                        if (lam) same(w + "dλ", split.pl, first.pl);
                        QVERIFY2(!torch::equal(split.dx, got.dx), qPrintable(what + ": the copy's gradient changed nothing"));
                        if (QTest::currentTestFailed()) return;
                    }
    }

    // With the branch's own LayerNorm before the add (NormFormer's post-attention
    // LN), which only the warp-a-row kernels take: the storage pairs, λ, b from the
    // device, s's own gradient; dγ_f and dβ_f summed by each block's rows.
    void residualLayerNormWithBranchLn() {
        torch::manual_seed(26);
        QVERIFY(ck::residual_branch_ln_fits(13) && ck::residual_branch_ln_fits(768) && ck::residual_branch_ln_fits(1024));
        QVERIFY(!ck::residual_branch_ln_fits(1025));
        const int64_t rows = 37;
        for (int64_t n : {13, 768})
            for (const auto& [ft, yt] : ref::kResLnStorages)
                for (bool lam : {false, true}) {
                    const bool on_device = lam, gs = !lam;
                    const QString what = QString("n %1, f %2, y %3%4, branch LN").arg(n).arg(type_name(ft)).arg(type_name(yt))
                                             .arg(lam ? ", λ, b on the device" : ", s's own gradient");
                    auto in = ref::res_ln_inputs(torch::kCPU, {rows, n}, ft, yt, lam, true, gs);
                    in.f = (3 * in.f.to(torch::kFloat) + 0.7).to(ft);
                    in.f_gamma = 0.5 + torch::rand({n}), in.f_beta = 0.1 * torch::randn({n}), in.f_eps = 1e-5;
                    const ResLnRun got = run_res_ln(in, on_device, false);
                    VERIFY_EMULATOR_QUIET(what);
                    const auto ff = in.f.to(torch::kFloat);
                    close(what + ": f's mean", got.fmean, ff.mean(-1), 1e-5);
                    close(what + ": f's rstd", got.frstd, 1 / (ff.var(-1, false) + 1e-5).sqrt(), 1e-4);
                    compare_res_ln(what, got, ref::res_ln(in, kEps), in);
                    if (QTest::currentTestFailed()) return;
                }
    }

    // The residual LayerNorm's backward launches as many blocks as the GPU holds at once, each
    // keeping its column sums (dγ, dβ, dλ, …) over the groups of 8 rows it takes (g ≡ block mod
    // blocks) and writing one row of each: here with 1 multiprocessor (2 blocks at d ≤ 768, 1
    // wider), 3, and more than the groups (a block a group). 300 rows: 38 groups, the last of 4
    // rows. dx and df keep their bits whatever the blocks (each row taken once, the same
    // arithmetic); the column sums match eager. At d 1,000 the branch's LayerNorm with λ and the
    // bias (6 sums) do not fit in a block's shared memory with 32 floats a lane, so there a block
    // takes a group and writes its sums.
    void columnSumsOverGroups() {
        torch::manual_seed(27);
        struct Restore {   // the emulator's 2 again, however the test ends
            int saved = simt::multiprocessors_setting();
            ~Restore() { simt::multiprocessors_setting() = saved; }
        } restore;
        const int64_t rows = 300, groups = 38;
        for (int64_t n : {768, 1000})
            for (bool branch : {false, true}) {
                auto in = ref::res_ln_inputs(torch::kCPU, {rows, n}, torch::kBFloat16, torch::kBFloat16, branch, true, true);
                if (branch) in.f_gamma = 0.5 + torch::rand({n}), in.f_beta = 0.1 * torch::randn({n});
                const bool kept = !(n > 768 && branch);
                const auto r = ref::res_ln(in, kEps);
                ResLnRun first;
                for (int mp : {1, 3, 1000}) {
                    simt::multiprocessors_setting() = mp;
                    const QString what = QString("n %1%2, %3 multiprocessors").arg(n).arg(branch ? ", λ, branch LN" : "").arg(mp);
                    const int64_t blocks = mp == 1000 || !kept ? groups : mp * (n > 768 ? 1 : 2);
                    const ResLnRun got = run_res_ln(in, false, false);
                    VERIFY_EMULATOR_QUIET(what);
                    QCOMPARE(got.pg.size(0), blocks);
                    compare_res_ln(what, got, r, in);
                    if (mp == 1) {
                        first = got;
                    } else {
                        same(what + ": dx", got.dx, first.dx);
                        same(what + ": df", got.df, first.df);
                    }
                    if (QTest::currentTestFailed()) break;
                }
            }
    }

    // SwiGLU over its column grid: fewer columns than a block, a second block of
    // columns, one chunk of rows and many; with nGPT's scalers and without. Even
    // f takes two columns a thread (cuda_swiglu_pairs.cuh), which must give the
    // bodies' kernels' bits (the same arithmetic, each column's rows in order).
    void swiglu() {
        torch::manual_seed(23);
        struct Case {
            int64_t rows, f;
            bool scalers;
        };
        for (auto c : {Case{7, 13, true}, Case{300, 40, true}, Case{40, 300, false}, Case{5, 514, true}})
            for (auto t : {torch::kFloat, torch::kBFloat16}) {
                const QString what = QString("rows %1, f %2, %3").arg(c.rows).arg(c.f).arg(type_name(t));
                const auto h = (2 * torch::randn({c.rows, 2 * c.f})).to(t), da = torch::randn({c.rows, c.f}).to(t);
                torch::Tensor su, sv;
                if (c.scalers) su = 0.5 + torch::rand({c.f}), sv = 3 * torch::rand({c.f});
                auto a = nans({c.rows, c.f}, t), dh = nans({c.rows, 2 * c.f}, t);
                const int64_t chunks = ck::row_chunks(c.rows);
                auto psu = nans({chunks, c.f}), psv = nans({chunks, c.f});
                const bool bf16 = t == torch::kBFloat16;
                ck::swiglu_forward(ptr(h), fp(su), fp(sv), ptr(a), c.rows, c.f, bf16, nullptr);
                ck::swiglu_backward(ptr(h), fp(su), fp(sv), ptr(da), ptr(dh), wp(psu), wp(psv), c.rows, c.f, bf16, nullptr);
                VERIFY_EMULATOR_QUIET(what);
                const auto r = ref::swiglu(h, su, sv, da);
                const double rtol = bf16 ? 8e-3 : 1e-5;
                QVERIFY2(torch::allclose(a.to(torch::kFloat), r.a, rtol, 1e-5), qPrintable(what + ": a" + off(a, r.a)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), r.dh, rtol, 1e-5), qPrintable(what + ": dh" + off(dh, r.dh)));
                if (c.scalers) {
                    QVERIFY2(torch::allclose(psu.sum(0), r.dsu, 1e-4, 1e-4), qPrintable(what + ": ds_u" + off(psu.sum(0), r.dsu)));
                    QVERIFY2(torch::allclose(psv.sum(0), r.dsv, 1e-4, 1e-4), qPrintable(what + ": ds_v" + off(psv.sum(0), r.dsv)));
                }
                if (c.f % 2) continue;
                auto a0 = nans({c.rows, c.f}, t), dh0 = nans({c.rows, 2 * c.f}, t);
                auto psu0 = nans({chunks, c.f}), psv0 = nans({chunks, c.f});
                auto launch_bodies = [&](auto tag) {
                    using T = decltype(tag);
                    const auto hp = static_cast<const T*>(ptr(h));
                    NORMLAB_LAUNCH(ck::columns::grid(c.rows, c.f), ck::columns::kThreads, nullptr, ck::columns::swiglu_forward)(
                        hp, fp(su), fp(sv), static_cast<T*>(ptr(a0)), c.rows, c.f);
                    NORMLAB_LAUNCH(ck::columns::grid(c.rows, c.f), ck::columns::kThreads, nullptr, ck::columns::swiglu_backward)(
                        hp, fp(su), fp(sv), static_cast<const T*>(ptr(da)), static_cast<T*>(ptr(dh0)), wp(psu0), wp(psv0),
                        c.rows, c.f);
                };
                if (bf16) launch_bodies(__nv_bfloat16{});
                else launch_bodies(float{});
                VERIFY_EMULATOR_QUIET(what);
                QVERIFY2(torch::equal(a, a0) && torch::equal(dh, dh0), qPrintable(what + ": not the bodies' bits"));
                QVERIFY2(torch::equal(psu, psu0) && torch::equal(psv, psv0), qPrintable(what + ": sums not the bodies' bits"));
            }
    }

    // nGPT's queries and keys, and RoPE alone (the LayerNorm schemes with rotary
    // positions): d_h = 32·P (32, 64, 128) in the vector kernels of
    // cuda_qk_rows.cuh, a warp a (b, t, h) row forward and a warp a head and a
    // chunk of 16 (b, t) rows backward, RoPE's partner from lane l ^ 16; heads of
    // 8 (lanes idle) and 96 (three elements a lane) in the bodies' kernels; B·T
    // within one chunk and across several, not a multiple of 16; RoPE and none;
    // the v part of the gradient left alone.
    void ngptQueriesKeys() {
        torch::manual_seed(24);
        struct Case {
            int64_t B, T, H, dh;
            bool rope;
        };
        for (auto c : {Case{2, 5, 3, 8, true}, Case{2, 21, 2, 64, false}, Case{1, 19, 2, 96, true}, Case{2, 20, 2, 64, true},
                       Case{1, 17, 2, 32, true}, Case{1, 11, 2, 128, true}, Case{1, 5, 1, 256, true}})
            for (auto t : {torch::kFloat, torch::kBFloat16})
                for (bool unit : {true, false}) {
                    if (!unit && !c.rope) continue;   // RoPE alone needs RoPE
                    const QString what = QString("B %1, T %2, H %3, d_h %4, %5, %6, %7").arg(c.B).arg(c.T).arg(c.H)
                                             .arg(c.dh).arg(c.rope ? "RoPE" : "no RoPE").arg(type_name(t))
                                             .arg(unit ? "nGPT" : "RoPE alone");
                    const int64_t d = c.H * c.dh, bt = c.B * c.T;
                    const auto proj = torch::randn({c.B, c.T, 3 * d}).to(t);
                    torch::Tensor cos, sin;
                    if (c.rope) cos = torch::randn({c.T, c.dh}), sin = torch::randn({c.T, c.dh});
                    const auto s = unit ? 0.5 + torch::rand({d}) : torch::Tensor();
                    const auto gq = torch::randn({c.B, c.H, c.T, c.dh}).to(t), gk = torch::randn({c.B, c.H, c.T, c.dh}).to(t);
                    ck::QkDims z{c.B, c.T, c.H, c.dh, 3 * d, 1e-6f};
                    z.unit = unit;
                    auto q = nans({c.B, c.H, c.T, c.dh}, t), k = nans({c.B, c.H, c.T, c.dh}, t);
                    auto nq = nans({unit ? bt * c.H : 0}), nk = nans({unit ? bt * c.H : 0});
                    auto dproj = torch::full({c.B, c.T, 3 * d}, 7.0, t);
                    auto ps = nans({unit ? ck::qk_chunks(bt) : 0, d});
                    const bool bf16 = t == torch::kBFloat16;
                    ck::ngpt_qk_forward(ptr(proj), fp(cos), fp(sin), fp(s), ptr(q), ptr(k), wp(nq), wp(nk), z, bf16, nullptr);
                    ck::ngpt_qk_backward(ptr(proj), fp(cos), fp(sin), fp(s), ptr(gq), ptr(gk), fp(nq), fp(nk), ptr(dproj),
                                         wp(ps), z, bf16, nullptr);
                    VERIFY_EMULATOR_QUIET(what);
                    const auto r = ref::qk(proj, c.H, cos, sin, s, 1e-6, gq, gk, unit);
                    const double rtol = bf16 ? 8e-3 : 1e-5, grad_tol = bf16 ? 1e-2 : 1e-4;
                    QVERIFY2(torch::allclose(q.to(torch::kFloat), r.q, rtol, 1e-5), qPrintable(what + ": q'" + off(q, r.q)));
                    QVERIFY2(torch::allclose(k.to(torch::kFloat), r.k, rtol, 1e-5), qPrintable(what + ": k'" + off(k, r.k)));
                    const auto got = dproj.narrow(-1, 0, 2 * d).to(torch::kFloat), want = r.dproj.narrow(-1, 0, 2 * d);
                    QVERIFY2(torch::allclose(got, want, grad_tol, grad_tol), qPrintable(what + ": dq, dk" + off(got, want)));
                    QVERIFY2((dproj.narrow(-1, 2 * d, d) == 7).all().item<bool>(), qPrintable(what + ": v's part written"));
                    if (unit)
                        QVERIFY2(torch::allclose(ps.sum(0), r.ds, 1e-4, 1e-4), qPrintable(what + ": ds_qk" + off(ps.sum(0), r.ds)));
                }
    }

    // NormFormer's FFN LN, LayerNorm(GELU(h)): the row in registers, 8 elements
    // an access (a block of 128 a row each way, dγ and dβ over the column grid,
    // two columns a thread) for rows of one vector a thread, of a part of one,
    // of three with the last partly past the row (2,056), GPT-2 small's d_ff
    // and 4,096; the bodies' kernels (a block a row, an element an access) where
    // n is not a multiple of 8 or is past 4,096. With FC1's bias, the column kernel's Σ dh
    // (dh recomputed from the row's two sums the row kernel keeps) where the row kernel runs,
    // nothing where it does not; dh, dγ and dβ the same either way. 778 rows: the column
    // kernel's chunks of 4 rows, loaded before any is used, but the last (the 2 left over).
    void geluLayerNorm() {
        torch::manual_seed(25);
        struct Case {
            int64_t rows, n;
        };
        for (auto c : {Case{6, 13}, Case{21, 300}, Case{9, 64}, Case{4, 1024}, Case{3, 2056}, Case{3, 3072}, Case{2, 4096},
                       Case{3, 4100}, Case{778, 16}})
            for (auto t : {torch::kFloat, torch::kBFloat16}) {
                const int64_t rows = c.rows, n = c.n;
                const QString what = QString("n %1, %2").arg(n).arg(type_name(t));
                const auto h = (1.5 * torch::randn({rows, n}) + 0.3).to(t), g = torch::randn({rows, n}).to(t);
                const auto gamma = 0.5 + torch::rand({n}), beta = 0.1 * torch::randn({n});
                auto out = nans({rows, n}, t), dh = nans({rows, n}, t), mean = nans({rows}), rstd = nans({rows});
                const int64_t chunks = ck::gelu_layer_norm_chunks(rows, n);
                QCOMPARE(chunks, ck::row_chunks(rows));
                auto pg = nans({chunks, n}), pb = nans({chunks, n});
                const bool bf16 = t == torch::kBFloat16;
                ck::gelu_layer_norm_forward(ptr(h), fp(gamma), fp(beta), kEps, ptr(out), wp(mean), wp(rstd), rows, n, bf16,
                                            nullptr);
                ck::gelu_layer_norm_backward(ptr(h), fp(gamma), ptr(g), fp(mean), fp(rstd), ptr(dh), wp(pg), wp(pb), rows, n,
                                             bf16, nullptr);
                VERIFY_EMULATOR_QUIET(what);
                const auto r = ref::gelu_ln(h, gamma, beta, kEps, g);
                QVERIFY2(torch::allclose(out.to(torch::kFloat), r.out, bf16 ? 8e-3 : 1e-4, 1e-4), qPrintable(what + ": out" + off(out, r.out)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), r.dh, bf16 ? 1e-2 : 1e-4, 1e-4), qPrintable(what + ": dh" + off(dh, r.dh)));
                QVERIFY2(torch::allclose(pg.sum(0), r.dgamma, 1e-4, 1e-4), qPrintable(what + ": dγ" + off(pg.sum(0), r.dgamma)));
                QVERIFY2(torch::allclose(pb.sum(0), r.dbeta, 1e-4, 1e-4), qPrintable(what + ": dβ" + off(pb.sum(0), r.dbeta)));
                auto dh2 = nans({rows, n}, t), pg2 = nans({chunks, n}), pb2 = nans({chunks, n}), pd = nans({chunks, n});
                auto row_m = nans({rows, 2});
                const bool summed = ck::gelu_layer_norm_backward(ptr(h), fp(gamma), ptr(g), fp(mean), fp(rstd), ptr(dh2),
                                                                 wp(pg2), wp(pb2), rows, n, bf16, nullptr, wp(pd), wp(row_m));
                VERIFY_EMULATOR_QUIET(what + ", with the bias");
                QCOMPARE(summed, n % 8 == 0 && n <= 4096);
                QVERIFY2(torch::equal(dh2, dh), qPrintable(what + ": dh with the bias" + off(dh2, dh)));
                QVERIFY2(torch::allclose(pg2, pg, 1e-5, 1e-6) && torch::allclose(pb2, pb, 1e-5, 1e-6), qPrintable(what + ": dγ, dβ with the bias"));
                if (summed) {
                    // against the float reference's Σ dh; bf16 h and g are the same inputs to both
                    const auto want = r.dh.sum(0), got = pd.sum(0);
                    const double tol = 1e-4 * (r.dh.abs().sum(0).max().item<double>() + 1);
                    QVERIFY2((got - want).abs().max().item<double>() <= tol, qPrintable(what + ": Σ dh" + off(got, want)));
                } else {
                    QVERIFY2(torch::isnan(pd).all().item<bool>(), qPrintable(what + ": pd written without the row kernel"));
                }
            }
    }

    // GELU after the MLP's first layer, and its bias's gradient summed by the kernel that
    // writes dh (cuda_bias_kernels.cu). The forward is a flat pass, 16 bytes an access, where
    // rows·n is a multiple of 8 bf16 or 4 floats (300 × 40: two blocks, the second partial;
    // 260 × 30; 2,600 × 12; 5 × 12 and 2,100 × 13 in float), and the column kernel otherwise
    // (7 × 13; 5 × 12 and 2,100 × 13 in bf16). The backward: in bf16 eight columns an access
    // where n allows (40, 16: blocks of 128 threads, batches of 4 rows), four otherwise (12);
    // in float four where n allows (12, 40, 16); one column otherwise (13, 30 — not a multiple
    // of 4); rows within one chunk and across several (300: chunks of 2 rows; 2,600 and 2,100:
    // chunks of 11 and 9, a batch of 8 rows, or 4, loaded together and the rest one by one, and
    // empty chunks past the rows).
    void geluBiasColumns() {
        torch::manual_seed(26);
        struct Case {
            int64_t rows, n;
        };
        for (auto c : {Case{5, 12}, Case{300, 40}, Case{7, 13}, Case{260, 30}, Case{2600, 12}, Case{2100, 13},
                       Case{2600, 16}})
            for (auto t : {torch::kFloat, torch::kBFloat16}) {
                const QString what = QString("rows %1, n %2, %3").arg(c.rows).arg(c.n).arg(type_name(t));
                const auto h = (2 * torch::randn({c.rows, c.n})).to(t), da = torch::randn({c.rows, c.n}).to(t);
                auto a = nans({c.rows, c.n}, t), dh = nans({c.rows, c.n}, t), pb = nans({ck::row_chunks(c.rows), c.n});
                const bool bf16 = t == torch::kBFloat16;
                ck::gelu_forward(ptr(h), ptr(a), c.rows, c.n, bf16, nullptr);
                ck::gelu_backward(ptr(h), ptr(da), ptr(dh), wp(pb), c.rows, c.n, bf16, nullptr);
                VERIFY_EMULATOR_QUIET(what);
                auto hf = h.to(torch::kFloat).requires_grad_(true);
                const auto ra = torch::gelu(hf);
                const auto rdh = torch::autograd::grad({ra}, {hf}, {da.to(torch::kFloat)})[0];
                const double rtol = bf16 ? 8e-3 : 1e-5;
                QVERIFY2(torch::allclose(a.to(torch::kFloat), ra, rtol, 1e-5), qPrintable(what + ": a" + off(a, ra)));
                QVERIFY2(torch::allclose(dh.to(torch::kFloat), rdh, rtol, 1e-5), qPrintable(what + ": dh" + off(dh, rdh)));
                // the bias's gradient: the column sums of dh as stored, in any order of the rows
                const auto db = dh.to(torch::kFloat).sum(0);
                close_sums(what + ": db", pb.sum(0), db, dh.to(torch::kFloat).abs().sum(0));
                // without pb: dh alone, the same bits
                auto dh0 = nans({c.rows, c.n}, t);
                ck::gelu_backward(ptr(h), ptr(da), ptr(dh0), nullptr, c.rows, c.n, bf16, nullptr);
                VERIFY_EMULATOR_QUIET(what);
                QVERIFY2(torch::equal(dh0, dh), qPrintable(what + ": dh without the sums"));
            }
    }

    // The attention heads' gradients packed into the q/k/v projection's, with its bias's
    // gradient: heads contiguous (B, H, T, d_h) or views of a (B, T, H, d_h) tensor (the
    // projection's own layout), a head without gradient (zeros), d_h a multiple of 4 (four
    // columns an access) and not (6); a chunk of rows a row (B·T ≤ 256) and of two rows,
    // one of which crosses from a sequence into the next (T = 101: rows 100 and 101); chunks
    // of 12 and 9 rows, a batch of 8 loaded together that crosses into the next sequence
    // (T = 1,501: rows 1,500–1,507; T = 1,100: rows 1,098–1,105), then the rest one by one.
    void headsBackward() {
        torch::manual_seed(27);
        struct Case {
            int64_t B, T, H, dh;
        };
        for (auto c : {Case{2, 3, 2, 8}, Case{3, 101, 2, 4}, Case{2, 5, 3, 6}, Case{2, 1501, 2, 4}, Case{2, 1100, 1, 6}})
            for (auto t : {torch::kFloat, torch::kBFloat16})
                for (int layout = 0; layout < 2; ++layout) {
                    const QString what = QString("B %1, T %2, H %3, d_h %4, %5, %6")
                                             .arg(c.B).arg(c.T).arg(c.H).arg(c.dh).arg(type_name(t))
                                             .arg(layout ? "heads of a (B, T, H, d_h) tensor" : "contiguous heads");
                    std::vector<torch::Tensor> g;
                    for (int p = 0; p < 3; ++p) {
                        const auto x = torch::randn({c.B, c.T, c.H, c.dh}).to(t);
                        g.push_back(layout ? x.permute({0, 2, 1, 3}) : x.permute({0, 2, 1, 3}).contiguous());
                    }
                    const int64_t rows = c.B * c.T, n = 3 * c.H * c.dh;
                    for (int absent = -1; absent < 3; absent += 2) {   // all three, then k without gradient
                        ck::HeadGrads z{};
                        for (int p = 0; p < 3; ++p) {
                            z.g[p] = p == absent ? nullptr : g[p].data_ptr();
                            z.sb[p] = g[p].stride(0), z.sh[p] = g[p].stride(1), z.st[p] = g[p].stride(2);
                        }
                        z.B = c.B, z.T = c.T, z.H = c.H, z.dh = c.dh;
                        auto dproj = nans({rows, n}, t), pb = nans({ck::row_chunks(rows), n});
                        ck::heads_backward(z, ptr(dproj), wp(pb), t == torch::kBFloat16, nullptr);
                        VERIFY_EMULATOR_QUIET(what);
                        std::vector<torch::Tensor> parts;
                        for (int p = 0; p < 3; ++p)
                            parts.push_back(p == absent ? torch::zeros({rows, n / 3}, t)
                                                        : g[p].permute({0, 2, 1, 3}).reshape({rows, n / 3}));
                        const auto want = torch::cat(parts, 1);
                        QVERIFY2(torch::equal(dproj, want), qPrintable(what + QString(", absent %1: dproj").arg(absent)));
                        const auto db = want.to(torch::kFloat).sum(0);
                        close_sums(what + ": db", pb.sum(0), db, want.to(torch::kFloat).abs().sum(0));
                    }
                }
    }
};

QTEST_APPLESS_MAIN(TestCudaEmulated)
#include "test_cuda_emulated.moc"
