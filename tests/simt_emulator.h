// NormLab's CUDA kernels on the CPU: enough of CUDA's execution model to run
// core/model/cuda_kernels.cu as it is, launches included, where CI has no GPU.
//
// Include this, then the .cu file. A launch runs its grid's blocks one after
// another; a block's threads run as that many CPU threads at once, so that a
// warp's shuffle and a block's barrier wait for each other as on a GPU:
//   __shfl_xor_sync   exchanges among the warp's 32 lanes, once all have come;
//   __syncthreads     waits for every thread of the block still running;
//   __shared__        one array per kernel, which the blocks take in turn.
// What a GPU leaves undefined is reported instead (errors()): a shuffle that
// a lane of its warp has left by returning, or with a mask other than the full
// warp, or whose lanes ask for different partners. Lanes returning early is
// otherwise as on a GPU. A wait that lasts a minute aborts (a barrier
// deadlocked). Memory is the host's: the tests pass pointers to CPU tensors.
#pragma once

#include <c10/util/BFloat16.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

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
    std::mutex m;
    std::condition_variable cv;
    int live = 0, arrived = 0, lanes = 0;
    uint64_t generation = 0;
    float in[kWarp] = {}, out[kWarp] = {};
    int partner[kWarp] = {};
};

struct Block {
    std::mutex m;
    std::condition_variable cv;
    int live = 0, arrived = 0;
    uint64_t generation = 0;
    std::vector<std::unique_ptr<Warp>> warps;
};

// Where the calling CPU thread is in the grid.
struct Here {
    dim3 thread, block, block_dim, grid_dim;
    Block* b = nullptr;
    Warp* w = nullptr;
    int lane = 0;
    bool alone = false;   // the block's threads one after another, on one CPU thread
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

template <class Done>
void wait(std::condition_variable& cv, std::unique_lock<std::mutex>& lock, Done done, const char* what) {
    if (!cv.wait_for(lock, std::chrono::seconds(60), done)) {
        std::fprintf(stderr, "simt_emulator: a %s waited a minute: the kernel deadlocks\n", what);
        std::abort();
    }
}

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
    w.cv.notify_all();
}

// Thrown where a thread run alone meets a shuffle or a barrier: its block runs again on threads.
struct NeedsThreads {};

inline float shfl_xor(unsigned mask, float v, int offset) {
    if (here.alone) throw NeedsThreads{};
    if (mask != 0xffffffffu) report("a shuffle with a mask other than the full warp");
    Warp& w = *here.w;
    std::unique_lock<std::mutex> lock(w.m);
    w.in[here.lane] = v;
    w.partner[here.lane] = offset;
    const uint64_t g = w.generation;
    if (++w.arrived == w.live) complete_shuffle(w);
    else wait(w.cv, lock, [&] { return w.generation != g; }, "shuffle");
    return w.out[here.lane];
}

inline void complete_barrier(Block& b) {
    b.arrived = 0;
    ++b.generation;
    b.cv.notify_all();
}

inline void sync_block() {
    if (here.alone) throw NeedsThreads{};
    Block& b = *here.b;
    std::unique_lock<std::mutex> lock(b.m);
    const uint64_t g = b.generation;
    if (++b.arrived == b.live) complete_barrier(b);
    else wait(b.cv, lock, [&] { return b.generation != g; }, "__syncthreads");
}

// A thread returns: the warp's shuffle and the block's barrier stop waiting for it.
inline void leave() {
    {
        Warp& w = *here.w;
        const std::lock_guard<std::mutex> lock(w.m);
        --w.live;
        if (w.arrived > 0 && w.arrived == w.live) complete_shuffle(w);
    }
    Block& b = *here.b;
    const std::lock_guard<std::mutex> lock(b.m);
    --b.live;
    if (b.arrived > 0 && b.arrived == b.live) complete_barrier(b);
}

// CPU threads that stay between blocks (a launch of a few hundred blocks would
// otherwise start tens of thousands): run(n, task) calls task(t) for t < n, each
// on its own thread, and returns when all have.
class Pool {
public:
    ~Pool() {
        {
            const std::lock_guard<std::mutex> lock(m_);
            quit_ = true;
        }
        go_.notify_all();
        for (auto& w : workers_) w.join();
    }
    void run(int n, const std::function<void(int)>& task) {
        while (static_cast<int>(workers_.size()) < n) {
            const int t = static_cast<int>(workers_.size());
            workers_.emplace_back([this, t] { work(t); });
        }
        std::unique_lock<std::mutex> lock(m_);
        task_ = &task;
        needed_ = n;
        finished_ = 0;
        ++job_;
        go_.notify_all();
        done_.wait(lock, [&] { return finished_ == needed_; });
    }

private:
    void work(int t) {
        uint64_t seen = 0;
        std::unique_lock<std::mutex> lock(m_);
        for (;;) {
            go_.wait(lock, [&] { return quit_ || job_ != seen; });
            if (quit_) return;
            seen = job_;
            if (t >= needed_) continue;
            const auto* task = task_;
            lock.unlock();
            (*task)(t);
            lock.lock();
            if (++finished_ == needed_) done_.notify_one();
        }
    }
    std::vector<std::thread> workers_;
    std::mutex m_;
    std::condition_variable go_, done_;
    const std::function<void(int)>* task_ = nullptr;
    int needed_ = 0, finished_ = 0;
    uint64_t job_ = 0;
    bool quit_ = false;
};

// Runs body for every thread of the grid, blocks in turn. A block's threads
// first run one after another on this thread (a kernel of columns, which
// neither shuffles nor waits, runs so in a fraction of the time); at the
// first shuffle or barrier the block runs again with its threads together,
// as do the launch's blocks after it. Running a thread again is safe: the
// kernels write what they compute from inputs they do not write.
inline void run(dim3 grid, dim3 block, const std::function<void()>& body) {
    static Pool pool;
    const int threads = static_cast<int>(block.x * block.y * block.z);
    bool alone = true;
    for (unsigned bz = 0; bz < grid.z; ++bz)
        for (unsigned by = 0; by < grid.y; ++by)
            for (unsigned bx = 0; bx < grid.x; ++bx) {
                Block b;
                b.live = threads;
                for (int t = 0; t < threads; t += kWarp) {
                    b.warps.push_back(std::make_unique<Warp>());
                    b.warps.back()->live = b.warps.back()->lanes = std::min(kWarp, threads - t);
                }
                auto thread = [&](int t, bool on_its_own) {
                    here.thread = dim3(t % block.x, t / block.x % block.y, t / (block.x * block.y));
                    here.block = dim3(bx, by, bz);
                    here.block_dim = block;
                    here.grid_dim = grid;
                    here.b = &b;
                    here.w = b.warps[t / kWarp].get();
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
                pool.run(threads, [&](int t) {
                    thread(t, false);
                    leave();
                });
            }
}

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
