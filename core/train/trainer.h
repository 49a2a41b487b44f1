// NormLab core: training runs, without LibTorch in the interface.
//
// A run is created in the store (queue_run) and trained by train_run, which
// reads its configuration from the store and writes every probe back to it.
// The GUI hooks `on_progress` and drives `RunControl` from another thread
// without the core knowing Qt; the CLI does the same from a terminal.
//
// Step convention: step s = 0, 1, ... is the s-th batch; its train loss and
// gradient probes are recorded at step s (before update s+1), the learning
// rate used for that update is lr(s+1) (see learning_rate), BranchNorm's
// α_t uses t = s, and validation losses measured after N updates are
// recorded at step N.
#pragma once

#include "core/config.h"
#include "core/store/store.h"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace normlab {

class Communicator;

struct Progress {
    int64_t run_id = 0;
    std::string run_name;
    int64_t step = 0;            // updates done
    int64_t total = 0;
    double loss = 0;             // latest train loss
    double val_loss = 0;         // latest validation loss (NaN before the first)
    double lr = 0;
    double tokens_per_s = 0;
    double mfu = 0;              // model-FLOPs utilisation over the run so far (0: the device's peak is unknown)
    double elapsed_s = 0;
    double eta_s = 0;
    RunStatus status = RunStatus::Running;
    int eval_batch = -1;         // >= 0: evaluating the validation loss due at `step`, this batch of eval_batches
    int eval_batches = 0;
};

// Cancel and pause from any thread; the trainer checks between steps.
class RunControl {
public:
    void cancel() {
        cancel_ = true;
        cv_.notify_all();
    }
    // Cancels, saying why when it was not its user's own stop ("the terminal
    // it ran in closed"; "": no reason); the first reason given is the one the run keeps.
    void cancel(const std::string& why) {
        {
            std::lock_guard<std::mutex> lock(m_);
            if (why_.empty()) why_ = why;
        }
        cancel();
    }
    // The message a cancelled run is saved with.
    std::string message() const {
        std::lock_guard<std::mutex> lock(m_);
        return why_.empty() ? "cancelled by the user" : "cancelled: " + why_;
    }
    void pause() { pause_ = true; }
    void resume() {
        pause_ = false;
        cv_.notify_all();
    }
    bool cancelled() const { return cancel_; }
    bool paused() const { return pause_; }
    // Blocks while paused; false when cancelled.
    bool wait_while_paused() {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return !pause_ || cancel_; });
        return !cancel_;
    }
    void reset() {
        cancel_ = false;
        pause_ = false;
        std::lock_guard<std::mutex> lock(m_);
        why_.clear();
    }

private:
    std::atomic<bool> cancel_{false}, pause_{false};
    mutable std::mutex m_;
    std::string why_;
    std::condition_variable cv_;
};

struct TrainOptions {
    std::string device;                 // overrides train.device when not empty
    int threads = -1;                   // overrides train.threads when ≥ 0
    std::string checkpoint_dir;         // "" → <store>.checkpoints/
    bool resume = false;                // continue from the run's checkpoint (step 0 when none)
    RunControl* control = nullptr;
    std::function<void(const Progress&)> on_progress;
    // After each update (its argument: updates done), every step, with nothing
    // read or written for it: for tools that act at a given step
    // (normlab-bench --profile-from starts its trace there).
    std::function<void(int64_t)> on_step;
    double progress_interval_s = 0.25;
    double flush_interval_s = 0.5;      // store batching
    // Data-parallel training (core/dist): every rank calls train_run on the
    // same run; rank 0 trains its run from `store`, the others a copy of it
    // in a scratch store of their own (they write no checkpoints). Each rank
    // takes its slice of every global batch; gradients are averaged over
    // the ranks, so all of them step identically.
    Communicator* comm = nullptr;
    double bucket_mb = 4;               // gradient all-reduce bucket size
    bool overlap = true;                // all-reduce buckets from gradient hooks during the backward pass
};

struct RunResult {
    int64_t run_id = 0;
    RunStatus status = RunStatus::Failed;
    int64_t steps = 0;                  // updates done
    double final_loss = 0;              // validation loss at the end (NaN if none)
    std::string message;
};

// Everything that can be checked before a run is created: validate(), the
// device is available, the data source exists and is long enough, the run
// fits in memory (CPU). Throws ConfigError naming the field.
void preflight(const RunConfig& cfg);

// Validates the configuration and adds a queued run; returns its id.
int64_t queue_run(Store& store, const RunConfig& cfg, int64_t experiment_id = 0,
                  const std::vector<std::string>& tags = {});

// Trains a stored run to its end (or divergence, cancel, failure) and records
// everything in the store. Never throws for a training failure: the status
// says what happened. Throws StoreError/ConfigError/RunError when the run
// cannot start — for a resume (opts.resume) with the record left exactly as
// it was. A run is claimed atomically (queued, or for a resume any resumable
// status → running), so two processes never train it at once. A resume
// continues from the checkpoint (or step 0 when there is none), after
// dropping what was recorded after it.
RunResult train_run(Store& store, int64_t run_id, const TrainOptions& opts = {});

// "cpu", "cuda:0", ... for a configured device ("auto" picks CUDA when present).
std::string resolve_device(const std::string& requested);
bool cuda_available();
int cuda_device_count();   // 0 without CUDA
nlohmann::json library_versions();

// A CUDA device (core/train/devices.cpp); none in a CPU-only LibTorch.
struct GpuInfo {
    int index = 0;
    std::string name;                       // "NVIDIA H100 80GB HBM3"
    double total_bytes = 0, free_bytes = 0;   // 0 when unknown
    std::string summary() const;            // "cuda:0 NVIDIA H100 80GB HBM3, 78.6 of 79.1 GiB free"
};
std::vector<GpuInfo> gpu_devices();
// The dense matmul peak (FLOP/s) a run on `device` ("cpu", "cuda:N") is
// measured against for its MFU: $NORMLAB_PEAK_TFLOPS when set, else the GPU's
// data sheet by its name at `precision` (train.precision: fp32, tf32, bf16;
// core/flops.h); 0: unknown, no MFU is recorded.
double device_peak(const std::string& device, const std::string& precision = "fp32");
// Throws ConfigError with the numbers when the run's estimated memory exceeds
// 90% of what is free on `device` ("cuda:N").
void check_gpu_memory(const RunConfig& cfg, const std::string& device);
// Threads LibTorch uses when train.threads is 0.
int default_threads();

// Writes the run's latest weights (from its checkpoint) as safetensors; the
// tensor names are the model's parameter names (docs/WEIGHTS.md).
void export_safetensors(const RunInfo& run, const std::string& file);

// Evaluates the run's weights on `batch` validation windows drawn with
// `seed` and writes tokens (B, T+1, int64), logits (B, T, V, f32) and loss
// (f32 scalar) as safetensors: the cross-implementation check reads it.
double write_eval_batch(const RunInfo& run, const std::string& file, int batch, uint64_t seed);

// Writes the exact tokens training updates `first`..`last` (both included) of
// the run drew — tokens (N, B, T+1, int64) and steps (N, int64) — as
// safetensors, so another framework can replay its training (docs/WEIGHTS.md).
// Throws ConfigError (field --steps) for a range outside the run, and when
// its data changed since it trained. Returns N.
int64_t write_train_batches(const RunInfo& run, const std::string& file, int64_t first, int64_t last);

}  // namespace normlab
