// tests/simt_emulator.h itself, the stand-in for CUDA on which CI runs the
// kernels (test_cuda_emulated, test_cuda_model_emulated): a warp's shuffles; a
// shuffle that lanes have left, reported as the undefined behaviour it is on a
// GPU; a read of another thread's write with no barrier between them, a wrong
// result in one of the two orders the threads take turns in; a kernel whose
// threads wait for each other forever, stopped at once with a message.
#include <QtTest/QtTest>

#include "tests/simt_emulator.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>

namespace simt = normlab::simt;

namespace {

// Sums its lane numbers over the warp by a butterfly of shuffles, into out[warp];
// with `leave_early`, lane 5 of each warp returns first.
__global__ void lane_sums(float* out, bool leave_early) {
    const int lane = threadIdx.x % 32;
    if (leave_early && lane == 5) return;
    float s = static_cast<float>(lane);
    for (int o = 16; o > 0; o /= 2) s += __shfl_xor_sync(0xffffffffu, s, o);
    if (lane == 0) out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] = s;
}

// Each thread writes shared[t] = t + 1, then reads its neighbour's into out,
// with or without the barrier that orders the write before the read. The
// neighbour: t ^ 1 (the pair's other thread), or t + 1 (the last thread its own).
__global__ void neighbours(float* out, bool barrier, bool next) {
    __shared__ float shared[64];
    const int t = static_cast<int>(threadIdx.x), n = static_cast<int>(blockDim.x);
    shared[t] = 0.f;
    __syncthreads();
    shared[t] = static_cast<float>(t + 1);
    if (barrier) __syncthreads();
    out[blockIdx.x * blockDim.x + t] = shared[next ? std::min(t + 1, n - 1) : t ^ 1];
}

// Half of a warp's lanes wait at a shuffle, the other half at a barrier: each
// waits for the other, on a GPU and here.
__global__ void divergent_wait(float* out) {
    if (threadIdx.x < 16) out[threadIdx.x] = __shfl_xor_sync(0xffffffffu, 1.f, 1);
    else __syncthreads();
}

QString emulator_errors() { return QString::fromStdString(simt::take_errors()); }

}  // namespace

class TestSimtEmulator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void shufflesSumAWarp() {
        emulator_errors();
        std::array<float, 3 * 8> out;
        out.fill(-1.f);
        const int64_t before = simt::launches();
        NORMLAB_LAUNCH(3, 256, nullptr, lane_sums)(out.data(), false);
        QCOMPARE(simt::launches() - before, int64_t{1});
        QCOMPARE(emulator_errors(), QString());
        for (float v : out) QCOMPARE(v, 496.f);   // 0 + 1 + … + 31
        NORMLAB_LAUNCH(1, 64, nullptr, lane_sums)(out.data(), true);
        QVERIFY(emulator_errors().contains("some lanes have left"));
    }

    // Without the barrier some thread reads its neighbour's slot unwritten (0), whichever
    // neighbour: the next thread's write comes first in falling order, the previous
    // thread's in rising order, and of two blocks one runs each phase in each. With the
    // barrier, none does.
    void aMissingBarrierGivesAWrongResult() {
        constexpr int kThreads = 64;
        std::array<float, 2 * kThreads> out;
        for (bool next : {false, true})
            for (bool barrier : {true, false}) {
                out.fill(-1.f);
                NORMLAB_LAUNCH(2, kThreads, nullptr, neighbours)(out.data(), barrier, next);
                int wrong = 0;
                for (int i = 0; i < static_cast<int>(out.size()); ++i) {
                    const int t = i % kThreads, partner = next ? std::min(t + 1, kThreads - 1) : t ^ 1;
                    wrong += out[i] != static_cast<float>(partner + 1);
                }
                const QString what = QString(next ? "t + 1" : "t ^ 1") + (barrier ? " after a barrier" : " with no barrier");
                if (barrier) QVERIFY2(wrong == 0, qPrintable(what + QString(": %1 wrong").arg(wrong)));
                else QVERIFY2(wrong > 0, qPrintable(what + ": every thread read its neighbour's write"));
            }
        QCOMPARE(emulator_errors(), QString());
    }

    // A kernel that can never go on ends the process at once (not after a timeout), saying why.
    void aDeadlockAbortsWithAMessage() {
        int pipe_fds[2];
        QVERIFY(::pipe(pipe_fds) == 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            ::dup2(pipe_fds[1], 2);
            ::signal(SIGABRT, SIG_DFL);   // QtTest's handler would print a stack trace first, slowly
            ::alarm(30);                  // a deadlock not found ends it otherwise
            std::array<float, 32> out{};
            NORMLAB_LAUNCH(1, 32, nullptr, divergent_wait)(out.data());
            ::_exit(0);
        }
        ::close(pipe_fds[1]);
        QString said;
        char buf[512];
        for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) said += QString::fromUtf8(buf, static_cast<int>(n));
        ::close(pipe_fds[0]);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, qPrintable("the child ended otherwise: " + said));
        QVERIFY2(said.contains("the kernel deadlocks"), qPrintable(said));
    }
};

QTEST_GUILESS_MAIN(TestSimtEmulator)
#include "test_simt_emulator.moc"
