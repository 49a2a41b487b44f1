// NormLab core (internal, LibTorch): the training loop of one claimed run,
// in the stages it goes through (train_run prepares the run and claims it,
// then hands it here):
//
//   begin      resume's truncation, the run's info, the expected-gradient probe
//   per step:  control     pause, cancel (data-parallel: agreed by every rank)
//              compute     batch (gathered ahead: batch_ahead.h) → forward (in the run's precision) → loss → backward → gradient sync
//              probe       gradient, forward, gain and condition probes (before clipping)
//              clip        global gradient norm, clipping
//              record      the step's scalars; divergence
//              update      optimizer step, nGPT's renormalization
//              evaluate / checkpoint / progress, each on its own cadence
//              (with the static step, the next plain step is queued on the device
//              before this one's numbers are read: launch_next)
//   finish     the last gains, the run's end
//   (the stages in train_loop.cpp; checkpoint, progress, finish and fail in train_end.cpp)
//
// A different step — bf16, a captured CUDA graph — is a different compute()
// (and update()), nothing else: static_step() is the CUDA graph's. Every stage reads and writes the loop's
// state below; fail() ends the run with a status at any point.
#pragma once

#include "core/data/data.h"
#include "core/model/gpt.h"
#include "core/store/store.h"
#include "core/train/batch_ahead.h"
#include "core/train/loop_state.h"
#include "core/train/precision.h"
#include "core/train/recorder.h"
#include "core/train/static_step.h"
#include "core/train/trainer.h"

#include <torch/torch.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab {
class Communicator;
class GradSync;

namespace train_detail {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// What preparation made (train_run): the run is claimed and ready to train.
struct Prepared {
    std::string device_name;
    Dataset data;
    GPT model{nullptr};
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    int64_t step = 0;      // updates already done (a resume's checkpoint)
    LoopState st;
};

class TrainLoop {
public:
    TrainLoop(Store& store, const RunInfo& info, const RunConfig& cfg, const TrainOptions& opts, Prepared& p);
    ~TrainLoop();
    // Trains to the end, a divergence, a cancel or a failure; never throws for those.
    RunResult run();

private:
    using Clock = std::chrono::steady_clock;
    void begin();
    std::optional<RunResult> control();
    double compute(int64_t s, ForwardCapture* cap, double& comm_s);
    void probe(int64_t s, const ForwardCapture& cap, bool want_fwd);
    double clip();
    double schedule(int64_t s, bool model = true);
    double static_step(int64_t s, ForwardCapture& cap, bool want_fwd);
    bool probe_due(int64_t s) const;
    bool checkpoint_due_by_time() const;
    void launch_next(int64_t s);
    void update();
    double evaluate();
    void checkpoint();
    void report(RunStatus status);
    RunResult finish();
    RunResult fail(RunStatus status, const std::string& msg);
    torch::Tensor forward(const torch::Tensor& in, ForwardCapture* cap);
    bool cancelled() const;
    std::string stop_message() const;   // what a cancelled run is saved with (RunControl::message)
    double wall() const;

    Store& store_;
    const RunInfo& info_;
    const RunConfig& cfg_;
    const TrainOptions& opts_;
    Prepared& p_;
    GPT& model_;
    int64_t& step_;
    LoopState& st_;
    Communicator* const comm_;
    const int W_, R_;
    const bool writes_;                 // rank 0 keeps the checkpoints
    const torch::Device device_;
    const int B_, T_, Bl_;              // global batch, context, this rank's rows
    const std::string ckpt_dir_;
    std::string current_ckpt_;
    RunResult result_;
    RunWriter writer_;
    SpaceReserve reserve_;
    Recorder rec_;
    std::vector<torch::Tensor> params_;
    std::unique_ptr<GradSync> sync_;
    std::unique_ptr<PrecisionSetting> tf32_;
    std::unique_ptr<BatchAhead> ahead_;   // the next step's batch, gathered while this one trains
    std::unique_ptr<StaticStep> static_;  // train.cuda_graph: the capture-safe step, or none
    std::string graph_state_;
    // The step ahead: with the static step, step s + 1 is queued on the device
    // before step s's loss is read and its row written, so the device does not
    // wait for the host between steps. Only a plain step is launched ahead —
    // not a probe step, nor one after which the run evaluates, checkpoints,
    // ends, pauses or stops — so whatever reads the weights between steps
    // reads those of the step it names. NORMLAB_STEP_AHEAD=0 switches it off.
    struct Launched {
        int64_t step;
        double lr;
    };
    std::optional<Launched> launched_;
    bool step_ahead_ = true;
    int64_t steps_ahead_ = 0;           // launched ahead, for the run's info
    bool multi_tensor_ = false;         // the optimizer, norm and clipping as _foreach kernels (GPUs)
    std::vector<bool> branch_group_;    // per optimizer group: F's parameters (branchnorm.scale_updates)
    double flops_per_token_ = 0, peak_ = 0;
    double max_loss_ = 0, loss_ = 0, lr_ = 0, ckpt_cost_s_ = 0, wall_offset_ = 0;
    int64_t start_step_ = 0, tokens_ = 0;
    int eval_at_ = -1;                  // the validation batch being evaluated, for progress
    Clock::time_point t0_, last_progress_, last_ckpt_;
};

}  // namespace train_detail
}  // namespace normlab
