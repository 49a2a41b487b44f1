// NormLab's CUDA kernels on the CPU: enough of CUDA's execution model to run
// core/model/cuda_kernels.cu as it is, launches included, where CI has no GPU.
//
// Include this, then the .cu file. A launch runs its grid's blocks one after
// another; a block's threads run as that many fibers (ucontext) on the calling
// CPU thread, so that a warp's shuffle and a block's barrier wait for each
// other as on a GPU, each fiber running until it waits or returns:
//   __shfl_xor_sync   exchanges among the warp's 32 lanes, once all have come;
//   __syncthreads     waits for every thread of the block still running;
//   __shared__        one array per kernel, which the blocks take in turn.
// The fibers take turns in rising and falling thread order, and each phase
// between barriers of a launch of two blocks or more runs in both orders, so
// a thread that reads what another wrote without a barrier between them reads
// it unwritten in one of the blocks: a missing barrier is a wrong result, not
// luck. What a GPU leaves undefined is reported instead (errors()): a
// shuffle that a lane of its warp has left by returning, or with a mask other
// than the full warp, or whose lanes ask for different partners. Lanes
// returning early is otherwise as on a GPU. Threads that all wait and can never
// be released (a barrier some threads never reach) abort with a message.
// Memory is the host's: the tests pass pointers to CPU tensors.
//
// Fibers, not CPU threads: a block of 256 threads waking at every barrier took
// most of the time of the emulated suites on 2 cores.
#pragma once

#include <c10/util/BFloat16.h>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define NORMLAB_SIMT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NORMLAB_SIMT_ASAN 1
#endif
#endif
#ifdef NORMLAB_SIMT_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#define NORMLAB_SIMT 1

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
using cudaStream_t = void*;

// CUDA's bfloat16: its own type (as on a GPU), rounded as __float2bfloat16_rn (to nearest even).
struct __nv_bfloat16 {
    uint16_t bits;
};
inline float __bfloat162float(__nv_bfloat16 v) { return static_cast<float>(c10::BFloat16(v.bits, c10::BFloat16::from_bits())); }
inline __nv_bfloat16 __float2bfloat16_rn(float f) { return {c10::BFloat16(f).x}; }

namespace normlab::simt {

constexpr int kWarp = 32;

struct Warp {
    int live = 0, arrived = 0, lanes = 0;
    uint64_t generation = 0;
    float in[kWarp] = {}, out[kWarp] = {};
    int partner[kWarp] = {};
};

struct Block {
    int live = 0, arrived = 0;
    uint64_t generation = 0;
    std::vector<Warp> warps;
};

// Where the calling thread is in the grid.
struct Here {
    dim3 thread, block, block_dim, grid_dim;
    Block* b = nullptr;
    Warp* w = nullptr;
    int lane = 0;
    bool alone = false;   // the block's threads one after another, none waiting
};
inline thread_local Here here;

inline std::mutex& errors_mutex() {
    static std::mutex m;
    return m;
}
inline std::vector<std::string>& errors() {   // what a GPU would have left undefined, since the last clear
    static std::vector<std::string> e;
    return e;
}
inline void report(const std::string& what) {
    const std::lock_guard<std::mutex> lock(errors_mutex());
    if (errors().size() < 20) errors().push_back(what);
}
// What was reported since the last call, each followed by "; " ("" when nothing); clears it.
inline std::string take_errors() {
    const std::lock_guard<std::mutex> lock(errors_mutex());
    std::string all;
    for (const auto& e : errors()) all += e + "; ";
    errors().clear();
    return all;
}

// A block's threads as fibers on one CPU thread. A fiber runs until it waits at
// a shuffle or a barrier (recording which phase it waits for) or returns; the
// block takes turns over the fibers that can go on until all have returned.
// The fibers live as long as the CPU thread: the next block's thread t runs on
// fiber t again (under ASan a fiber made and ended per thread of every block,
// each with its own fake stack mapped and unmapped, took 4 times as long).
class Fibers {
public:
    // A kernel's frames take a few KiB (16 KiB ran every suite under ASan). Not more: ASan
    // clears the shadow of a fiber's whole stack at each switch to it (256 KiB took the
    // sanitized suites 30 s, 64 KiB 7 s).
    static constexpr size_t kStack = 64 * 1024;

    ~Fibers() {   // the fibers wait in to_scheduler; their stacks go with the thread
        for (auto& f : fibers_) ::munmap(f->map, kStack + page());
    }

    // Runs task(t) for t < n, each on its own fiber, until all have returned.
    void run(int n, const std::function<void(int)>& task) {
        while (static_cast<int>(fibers_.size()) < n) fibers_.push_back(make_fiber(static_cast<int>(fibers_.size())));
        task_ = &task;
        for (int t = 0; t < n; ++t) fibers_[t]->done = false, fibers_[t]->waits_on = nullptr;
        int left = n;
        // The pass after a barrier starts with the thread that completed it, then the others in
        // the other direction: a block's phases alternate between falling and rising thread
        // order. The next block starts the other way, so each phase of a launch of two blocks
        // or more runs in both orders.
        const bool first = start_reverse_;
        start_reverse_ = !start_reverse_;
        for (bool reverse = first; left > 0; reverse = !reverse) {
            bool moved = false;
            for (int k = 0; k < n; ++k) {
                Fiber& f = *fibers_[reverse ? n - 1 - k : k];
                if (f.done || (f.waits_on && *f.waits_on == f.seen)) continue;
                f.waits_on = nullptr;
                resume(f);
                moved = true;
                if (f.done) --left;
            }
            if (!moved) {
                std::fprintf(stderr, "simt_emulator: every thread of the block waits at a shuffle or a barrier that"
                                     " the others never reach: the kernel deadlocks\n");
                std::abort();
            }
        }
        task_ = nullptr;
    }

    // The running fiber waits until *generation is no longer its value now.
    void wait(const uint64_t* generation) {
        Fiber& f = *current_;
        f.waits_on = generation;
        f.seen = *generation;
        const Here mine = here;
        to_scheduler(f);
        here = mine;
    }

    static Fibers& mine() {   // the calling CPU thread's
        static thread_local Fibers f;
        return f;
    }

private:
    struct Fiber {
        ucontext_t ctx;   // points into itself: a Fiber never moves
        int index = 0;
        void* map = nullptr;
        char* stack = nullptr;
        bool done = true;
        const uint64_t* waits_on = nullptr;
        uint64_t seen = 0;
        void* fake_stack = nullptr;   // ASan's, for stack-use-after-return
    };

    static size_t page() { return static_cast<size_t>(::sysconf(_SC_PAGESIZE)); }

    std::unique_ptr<Fiber> make_fiber(int index) {
        auto f = std::make_unique<Fiber>();
        f->index = index;
        // A guard page below the stack: an overflow is a crash, not another fiber's frames.
        f->map = ::mmap(nullptr, kStack + page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (f->map == MAP_FAILED) {
            std::fprintf(stderr, "simt_emulator: cannot map a fiber's stack\n");
            std::abort();
        }
        ::mprotect(f->map, page(), PROT_NONE);
        f->stack = static_cast<char*>(f->map) + page();
        ::getcontext(&f->ctx);
        f->ctx.uc_stack.ss_sp = f->stack;
        f->ctx.uc_stack.ss_size = kStack;
        f->ctx.uc_link = nullptr;
        const auto self = reinterpret_cast<uintptr_t>(this);
        ::makecontext(&f->ctx, reinterpret_cast<void (*)()>(&Fibers::entry), 3, static_cast<unsigned>(self >> 32),
                      static_cast<unsigned>(self & 0xffffffffu), index);
        return f;
    }

    // A fiber's life: thread `index` of each block it is given, returning to the scheduler between.
    static void entry(unsigned hi, unsigned lo, int index) {
        auto* self = reinterpret_cast<Fibers*>((static_cast<uintptr_t>(hi) << 32) | lo);
        self->switched_in(nullptr);
        for (;;) {
            (*self->task_)(index);
            Fiber& f = *self->fibers_[index];
            f.done = true;
            self->to_scheduler(f);
        }
    }

    void resume(Fiber& f) {
        current_ = &f;
#ifdef NORMLAB_SIMT_ASAN
        void* fake = nullptr;
        __sanitizer_start_switch_fiber(&fake, f.stack, kStack);
#endif
        ::swapcontext(&scheduler_, &f.ctx);
#ifdef NORMLAB_SIMT_ASAN
        __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#endif
        current_ = nullptr;
    }

    // From the running fiber back to the scheduler, until it is resumed.
    void to_scheduler(Fiber& f) {
#ifdef NORMLAB_SIMT_ASAN
        __sanitizer_start_switch_fiber(&f.fake_stack, scheduler_bottom_, scheduler_size_);
#endif
        ::swapcontext(&f.ctx, &scheduler_);
        switched_in(&f);
    }

    // A fiber has been switched to: its first start (f null), or back from the scheduler.
    void switched_in(Fiber* f) {
#ifdef NORMLAB_SIMT_ASAN
        __sanitizer_finish_switch_fiber(f ? f->fake_stack : nullptr, &scheduler_bottom_, &scheduler_size_);
#else
        (void)f;
#endif
    }

    std::vector<std::unique_ptr<Fiber>> fibers_;
    ucontext_t scheduler_{};
    const std::function<void(int)>* task_ = nullptr;
    Fiber* current_ = nullptr;
    bool start_reverse_ = false;
    const void* scheduler_bottom_ = nullptr;
    size_t scheduler_size_ = 0;
};

// The shuffle's phase completes once every lane still running has come.
inline void complete_shuffle(Warp& w) {
    if (w.live != w.lanes) report("a shuffle over a warp that some lanes have left (undefined on a GPU)");
    for (int i = 0; i < w.lanes; ++i) {
        const int j = i ^ w.partner[i];
        if (w.partner[i] != w.partner[0]) report("a shuffle whose lanes ask for different offsets");
        w.out[i] = j < w.lanes ? w.in[j] : w.in[i];
    }
    w.arrived = 0;
    ++w.generation;
}

// Thrown where a thread run alone meets a shuffle or a barrier: its block runs again on fibers.
struct NeedsThreads {};

inline float shfl_xor(unsigned mask, float v, int offset) {
    if (here.alone) throw NeedsThreads{};
    if (mask != 0xffffffffu) report("a shuffle with a mask other than the full warp");
    Warp& w = *here.w;
    w.in[here.lane] = v;
    w.partner[here.lane] = offset;
    if (++w.arrived == w.live) complete_shuffle(w);
    else Fibers::mine().wait(&w.generation);
    return w.out[here.lane];
}

inline void complete_barrier(Block& b) {
    b.arrived = 0;
    ++b.generation;
}

inline void sync_block() {
    if (here.alone) throw NeedsThreads{};
    Block& b = *here.b;
    if (++b.arrived == b.live) complete_barrier(b);
    else Fibers::mine().wait(&b.generation);
}

// A thread returns: the warp's shuffle and the block's barrier stop waiting for it.
inline void leave() {
    Warp& w = *here.w;
    --w.live;
    if (w.arrived > 0 && w.arrived == w.live) complete_shuffle(w);
    Block& b = *here.b;
    --b.live;
    if (b.arrived > 0 && b.arrived == b.live) complete_barrier(b);
}

// Runs body for every thread of the grid, blocks in turn. A block's threads
// first run one after another on this thread (a kernel of columns, which
// neither shuffles nor waits, runs so in a fraction of the time); at the
// first shuffle or barrier the block runs again on fibers, as do the launch's
// blocks after it. Running a thread again is safe: the kernels write what they
// compute from inputs they do not write.
inline void run(dim3 grid, dim3 block, const std::function<void()>& body) {
    const int threads = static_cast<int>(block.x * block.y * block.z);
    bool alone = true;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                Block b;
                b.live = threads;
                b.warps.resize(static_cast<size_t>((threads + kWarp - 1) / kWarp));
                for (size_t i = 0; i < b.warps.size(); ++i)
                    b.warps[i].live = b.warps[i].lanes = std::min(kWarp, threads - static_cast<int>(i) * kWarp);
                auto thread = [&](int t, bool on_its_own) {
                    here.thread = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
                    here.block = dim3(bx, by, bz);
                    here.block_dim = block;
                    here.grid_dim = grid;
                    here.b = &b;
                    here.w = &b.warps[t / kWarp];
                    here.lane = t % kWarp;
                    here.alone = on_its_own;
                    body();
                };
                if (alone) {
                    try {
                        for (int t = 0; t < threads; ++t) thread(t, true);
                        continue;
                    } catch (const NeedsThreads&) {
                        alone = false;
                    }
                }
                Fibers::mine().run(threads, [&](int t) {
                    thread(t, false);
                    leave();
                });
            }
}

// The GPU's multiprocessors, as cuda_kernels.cu's launchers ask for them (the backward kernels
// that sum columns launch as many blocks as the GPU holds at once, each taking several groups of
// rows): 2 unless a test sets another, so that a block takes several groups even at a test's
// few rows.
inline int& multiprocessors_setting() {
    static int n = 2;
    return n;
}
inline int multiprocessors() { return multiprocessors_setting(); }

// How many kernels have been launched (tests/test_cuda_model_emulated.cpp: that a model's
// operations took the kernels' path, not the eager one).
inline std::atomic<int64_t>& launches() {
    static std::atomic<int64_t> n{0};
    return n;
}

// NORMLAB_LAUNCH(grid, block, stream, kernel)(args...): the kernel over the grid, now.
template <class Kernel>
auto launch(dim3 grid, dim3 block, Kernel kernel) {
    return [=](auto... args) {
        ++launches();
        run(grid, block, [&] { kernel(args...); });
    };
}

}  // namespace normlab::simt

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)   // registers a thread: nothing to bound on the CPU
#define __shared__ static
#define threadIdx (::normlab::simt::here.thread)
#define blockIdx (::normlab::simt::here.block)
#define blockDim (::normlab::simt::here.block_dim)
#define gridDim (::normlab::simt::here.grid_dim)
#define __syncthreads() ::normlab::simt::sync_block()
#define __shfl_xor_sync(mask, v, offset) ::normlab::simt::shfl_xor(mask, v, offset)
#define NORMLAB_LAUNCH(grid, block, stream, ...) \
    ::normlab::simt::launch(grid, block, [](auto... a) { __VA_ARGS__(a...); })
