// NormLab core: the training loop's saving and ending (see train_loop.h): a
// checkpoint and its pointer, the progress a caller sees, a run finished or
// failed with its end recorded even where the store was what failed.
#include "core/train/train_loop.h"
#include "core/flops.h"
#include "core/train/io.h"

#include <spdlog/spdlog.h>

#include <filesystem>

namespace normlab::train_detail {
namespace fs = std::filesystem;
using nlohmann::json;

// ---- checkpoint: the file first, then its pointer and every buffered row in
// one transaction, then the previous file goes.
void TrainLoop::checkpoint() {
    const auto c0 = Clock::now();
    st_.wall_s = wall();
    if (!writes_) {   // rank 0 keeps the run's checkpoints
        writer_.flush();
        last_ckpt_ = Clock::now();
        return;
    }
    const std::string file = checkpoint_file(ckpt_dir_, info_.id, step_);
    save_checkpoint(file, model_, p_.optimizer.get(), step_, cfg_, st_.to_json());
    std::error_code ec;
    try {
        writer_.flush_with_checkpoint(file, step_);
    } catch (...) {   // not recorded (the run deleted meanwhile, the disk full): nothing points at the file
        if (file != current_ckpt_) fs::remove(file, ec);
        throw;
    }
    // Only a file of this store's own: a copy resuming from the
    // original's checkpoint leaves it to the original.
    if (!current_ckpt_.empty() && current_ckpt_ != file && is_checkpoint_of(current_ckpt_, info_.id) &&
        fs::equivalent(fs::path(current_ckpt_).parent_path(), ckpt_dir_, ec))
        fs::remove(current_ckpt_, ec);
    current_ckpt_ = file;
    last_ckpt_ = Clock::now();
    ckpt_cost_s_ = seconds_since(c0);
}

void TrainLoop::report(RunStatus status) {
    if (!opts_.on_progress) return;
    Progress p;
    p.run_id = info_.id;
    p.run_name = info_.name;
    p.step = step_;
    p.total = cfg_.train.steps;
    p.loss = loss_;
    p.val_loss = st_.val_loss;
    p.lr = lr_;
    p.elapsed_s = seconds_since(t0_);
    const double done = static_cast<double>(step_ - start_step_);
    p.tokens_per_s = p.elapsed_s > 0 ? done * B_ * T_ / p.elapsed_s : 0;
    p.mfu = mfu(flops_per_token_, p.tokens_per_s, peak_);
    p.eta_s = done > 0 ? p.elapsed_s / done * (cfg_.train.steps - step_) : 0;
    p.status = status;
    p.eval_batch = eval_at_;
    p.eval_batches = eval_at_ >= 0 ? cfg_.train.eval_batches : 0;
    opts_.on_progress(p);
}

// ---- finish: the learned gains as training left them (step = updates done), the run's end
RunResult TrainLoop::finish() {
    if (cfg_.probes.gains_every > 0) rec_.gains(model_, step_, cfg_.probes.hist_bins);
    writer_.flush();
    double recent_mean = 0;
    for (double x : st_.recent) recent_mean += x;
    json end = {{"final_train_loss", st_.recent.empty() ? json(nullptr) : json(recent_mean / st_.recent.size())},
                {"wall_s", wall()}};
    if (static_) end["steps_launched_ahead"] = steps_ahead_;   // the step ahead (train_loop.h)
    store_.set_info(info_.id, end);
    store_.finish_run(info_.id, RunStatus::Finished, step_, "", st_.val_loss);
    store_.heartbeat(info_.id, step_);
    result_.status = RunStatus::Finished;
    result_.steps = step_;
    result_.final_loss = st_.val_loss;
    report(RunStatus::Finished);
    return result_;
}

RunResult TrainLoop::fail(RunStatus status, const std::string& msg) {
    if (static_) {   // a step launched ahead (a divergence, a store error): finished, its numbers dropped
        try {
            static_->drain();
        } catch (const std::exception& e) {
            spdlog::error("run {}: the step in flight failed: {}", info_.id, e.what());
        }
        launched_.reset();
    }
    result_.status = status;
    result_.steps = step_;
    result_.message = msg;
    result_.final_loss = st_.val_loss;
    try {
        writer_.flush();
    } catch (const std::exception& e) {
        spdlog::error("run {}: could not write its last rows: {}", info_.id, e.what());
    }
    // The store itself may be what cannot be written (a full disk): the
    // space kept aside is freed and the end written again.
    for (int attempt = 0; attempt < 2; ++attempt) {
        try {
            store_.finish_run(info_.id, status, step_, msg, st_.val_loss);
            store_.heartbeat(info_.id, step_);
            break;
        } catch (const std::exception& e) {
            if (attempt == 0 && reserve_.release()) continue;
            // Still not: the run is marked interrupted the next time the store is opened.
            spdlog::error("run {}: could not record its end ({}): {}", info_.id, msg, e.what());
            result_.message = msg + "; recording it failed too: " + e.what();
        }
    }
    return result_;
}

}  // namespace normlab::train_detail
