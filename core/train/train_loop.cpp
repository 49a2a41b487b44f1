// NormLab core: the training loop of a claimed run, stage by stage (see train_loop.h).
#include "core/train/train_loop.h"

#include "core/dist/communicator.h"
#include "core/errors.h"
#include "core/flops.h"
#include "core/model/fused_ops.h"
#include "core/model/profile_scope.h"
#include "core/platform.h"
#include "core/train/io.h"
#include "core/train/probes.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>

namespace normlab::train_detail {
namespace fs = std::filesystem;
using nlohmann::json;

TrainLoop::TrainLoop(Store& store, const RunInfo& info, const RunConfig& cfg, const TrainOptions& opts, Prepared& p)
    : store_(store), info_(info), cfg_(cfg), opts_(opts), p_(p), model_(p.model), step_(p.step), st_(p.st),
      comm_(opts.comm), W_(comm_ ? comm_->world_size() : 1), R_(comm_ ? comm_->rank() : 0), writes_(R_ == 0),
      device_(p.device_name), B_(cfg.train.batch_size), T_(cfg.model.context), Bl_(B_ / W_),
      ckpt_dir_(opts.checkpoint_dir.empty() ? store.path() + ".checkpoints" : opts.checkpoint_dir),
      current_ckpt_(p.step > 0 ? info.checkpoint : ""), writer_(store, info.id, opts.flush_interval_s),
      reserve_(ckpt_dir_, writes_), rec_{writer_, comm_} {
    result_.run_id = info.id;
}

TrainLoop::~TrainLoop() = default;

bool TrainLoop::cancelled() const { return !comm_ && opts_.control && opts_.control->cancelled(); }
std::string TrainLoop::stop_message() const { return opts_.control ? opts_.control->message() : "cancelled by the user"; }
double TrainLoop::wall() const { return wall_offset_ + seconds_since(t0_); }

// The forward pass in the run's precision; the loss upcasts its logits (GPTImpl::loss).
torch::Tensor TrainLoop::forward(const torch::Tensor& in, ForwardCapture* cap) {
    const AutocastScope ac(cfg_.train.precision, device_.is_cuda());
    return model_->forward(in, cap);
}

RunResult TrainLoop::run() {
    try {
        begin();
        while (step_ < cfg_.train.steps) {
            // (a step launched ahead was launched because no pause or stop was asked for then)
            if (!launched_)
                if (auto stopped = control()) return *stopped;
            // one training step in a profile's trace (bench/trace_ops.py: the GPU's time between steps)
            const ProfileScope step_scope("normlab::step");
            const auto ts = Clock::now();
            const int64_t s = step_;
            const bool want_fwd = cfg_.probes.forward_every > 0 && s % cfg_.probes.forward_every == 0;
            ForwardCapture cap;
            double comm_s = 0, gnorm = 0;
            if (static_) {
                gnorm = static_step(s, cap, want_fwd);   // compute, probe, clip and update in one
            } else {
                loss_ = compute(s, want_fwd ? &cap : nullptr, comm_s);
                probe(s, cap, want_fwd);
                gnorm = clip();
            }
            const double alpha_t = branchnorm_alpha(cfg_.model.branchnorm, s);
            writer_.scalar("train/loss", s, loss_);
            writer_.scalar("train/lr", s, lr_);
            writer_.scalar("train/grad_norm", s, gnorm);
            if (comm_) writer_.scalar("dist/allreduce_wait_s", s, comm_s);
            if (cfg_.model.branchnorm.enabled) writer_.scalar("branchnorm/alpha", s, alpha_t);
            if (cfg_.model.deepnorm.residual) writer_.scalar("deepnorm/alpha", s, cfg_.model.deepnorm_alpha());
            if (const std::string why = st_.diverged(loss_, gnorm, max_loss_, cfg_.train.divergence); !why.empty()) {
                store_.set_info(info_.id, {{"diverged_step", s}, {"diverged_lr", lr_}});
                spdlog::warn("run {} diverged at step {} (lr {:.3g}): {}", info_.id, s, lr_, why);
                step_ = s;
                return fail(RunStatus::Diverged, why + " at step " + std::to_string(s));
            }
            if (!static_) update();
            step_ = s + 1;
            tokens_ += static_cast<int64_t>(B_) * T_;
            const double step_s = seconds_since(ts), tps = step_s > 0 ? B_ * T_ / step_s : 0;
            writer_.scalar("train/tokens", s, static_cast<double>(tokens_));
            writer_.scalar("train/wall_s", s, wall());
            writer_.scalar("train/tokens_per_s", s, tps);
            if (peak_ > 0) writer_.scalar("train/mfu", s, mfu(flops_per_token_, tps, peak_));
            st_.recent.push_back(loss_);
            if (st_.recent.size() > 20) st_.recent.pop_front();

            const bool last = step_ == cfg_.train.steps;
            if ((cfg_.train.eval_every > 0 && step_ % cfg_.train.eval_every == 0) || last) {
                try {
                    st_.val_loss = evaluate();
                } catch (const Cancelled&) {
                    // Stopped inside the evaluation: the weights of this step are kept,
                    // and a resume measures the validation loss it owes first.
                    model_->train();
                    st_.val_pending = true;
                    checkpoint();
                    return fail(RunStatus::Cancelled, stop_message());
                }
                writer_.scalar("val/loss", step_, st_.val_loss);
            }
            const bool by_steps = cfg_.train.checkpoint_every > 0 && step_ % cfg_.train.checkpoint_every == 0;
            const bool by_time = !launched_ && checkpoint_due_by_time();   // else after the step in flight
            if (by_steps || by_time || last) checkpoint();
            if (seconds_since(last_progress_) >= opts_.progress_interval_s && !last) {
                store_.heartbeat(info_.id, step_);
                report(RunStatus::Running);
                last_progress_ = Clock::now();
            }
            writer_.maybe_flush();
            if (opts_.on_step) opts_.on_step(step_);
        }
        return finish();
    } catch (const Cancelled&) {
        // Inside an evaluation: the last checkpoint stays; a resume redoes the steps after it.
        return fail(RunStatus::Cancelled, stop_message());
    } catch (const StoreError& e) {
        if ((e.code() & 0xff) == SQLITE_BUSY)   // resumable: nothing is wrong with the run itself
            return fail(RunStatus::Interrupted, "the run store stayed locked by another process for more than " +
                                                    std::to_string(static_cast<int>(Store::lock_timeout_seconds())) +
                                                    " s (NORMLAB_LOCK_TIMEOUT); resume it when that process has finished: " + e.what());
        return fail(RunStatus::Failed, std::string("the run store could not be written: ") + e.what());
    } catch (const c10::Error& e) {
        return fail(RunStatus::Failed, e.what_without_backtrace());
    } catch (const std::exception& e) {
        return fail(RunStatus::Failed, e.what());
    }
}

// ---- begin: a resume's truncation, the run's info, the expected-gradient probe
void TrainLoop::begin() {
    const std::string id_text = "run " + std::to_string(info_.id);
    if (opts_.resume) {
        std::error_code ec;
        if (fs::is_directory(ckpt_dir_, ec)) remove_checkpoints(ckpt_dir_, info_.id, current_ckpt_);
        store_.truncate_for_resume(info_.id, step_);
        // (A run that never trained — a detached start, one stopped before its turn — just starts.)
        if (step_ == 0 && (info_.steps_done > 0 || !info_.checkpoint.empty()))
            spdlog::warn("{}: {}", id_text, info_.checkpoint.empty() ? "no checkpoint was saved: training restarts from step 0"
                                                                   : "restarting from step 0");
        else spdlog::info("{}: resuming at step {}", id_text, step_);
    }
    tf32_ = std::make_unique<PrecisionSetting>(cfg_.train.precision, device_.is_cuda());
    for (auto& p : model_->parameters())
        if (p.requires_grad()) params_.push_back(p);
    if (comm_) {
        std::vector<torch::Tensor> state;
        for (auto& p : model_->parameters()) state.push_back(p);
        for (auto& b : model_->buffers()) state.push_back(b);
        comm_->broadcast(state);   // rank 0's weights, at the start and after a resume
        sync_ = std::make_unique<GradSync>(*comm_, params_, opts_.bucket_mb, opts_.overlap);
    }
    // MFU against the device's peak at the run's precision, for every rank's device together (core/flops.h)
    flops_per_token_ = training_flops_per_token(cfg_.model);
    peak_ = device_peak(p_.device_name, cfg_.train.precision) * (comm_ ? W_ : 1);
    const Dataset& data = p_.data;
    json run_info = {{"parameters", model_->parameter_count()},
                     {"data", data.description},
                     {"data_bytes", data.bytes.size()},
                     {"data_hash", data_fingerprint(data.bytes)},
                     {"tokens_per_step", static_cast<int64_t>(B_) * T_},
                     {"flops_per_token", flops_per_token_},
                     {"peak_flops", peak_},
                     {"precision", cfg_.train.precision},
                     {"threads", torch::get_num_threads()},
                     {"thread_waiting", thread_waiting_summary()}};
    if (comm_)
        run_info["distributed"] = {{"world_size", W_}, {"backend", comm_->backend()},
                                   {"launcher", comm_->launch().launcher},
                                   {"processes_per_node", comm_->launch().local_world_size},
                                   {"batch_per_rank", Bl_}, {"gradient_buckets", sync_->buckets()},
                                   {"allreduce_bytes_per_step", sync_->bytes()}, {"overlap", sync_->overlap()}};
    // NormLab's own CUDA kernels (core/model/cuda_kernels.cu), on unless NORMLAB_CUDA_KERNELS=0
    if (device_.is_cuda()) run_info["cuda_kernels"] = cuda_kernels_enabled() ? "on" : "off (NORMLAB_CUDA_KERNELS=0)";
    if (opts_.resume) run_info["resumed_at_step"] = step_;
    if (data.entropy_rate) run_info["loss_floor"] = *data.entropy_rate;
    run_info["unigram_loss"] = unigram_loss(data);   // byte frequencies only: where a stalled run sits
    if (cfg_.model.deepnorm.residual) run_info["deepnorm_alpha"] = cfg_.model.deepnorm_alpha();
    if (cfg_.model.deepnorm.init) run_info["deepnorm_beta"] = cfg_.model.deepnorm_beta();
    store_.set_info(info_.id, run_info);
    if (data.entropy_rate) writer_.scalar("data/loss_floor", 0, *data.entropy_rate);

    // Xiong et al.'s "expected gradient": averaged over batches before the norm.
    const ProbeConfig& pr = cfg_.probes;
    if (pr.expected_grad_batches > 0 && step_ == 0) {
        clear_grads(params_);
        model_->set_branch_alpha(branchnorm_alpha(cfg_.model.branchnorm, 0));
        for (int i = 0; i < pr.expected_grad_batches; ++i) {
            if (cancelled()) throw Cancelled();
            auto tok = batch_tokens(data, cfg_.train.seed ^ 0xE6E6ull, i, B_, T_, false);
            if (W_ > 1) tok = tok.narrow(0, static_cast<int64_t>(R_) * Bl_, Bl_);
            tok = tok.to(device_);
            auto loss = GPTImpl::loss(forward(tok.narrow(1, 0, T_), nullptr), tok.narrow(1, 1, T_));
            (loss / pr.expected_grad_batches).backward();
        }
        if (sync_) sync_->finish();   // the average over every rank's slice
        Recorder{writer_}.gradients(model_, 0, nullptr, "grad_expected_l2");
        clear_grads(params_);
    }
    t0_ = last_progress_ = last_ckpt_ = Clock::now();
    wall_offset_ = st_.wall_s;
    max_loss_ = cfg_.train.divergence.max_loss > 0 ? cfg_.train.divergence.max_loss
                                                  : 2.0 * std::log(double(cfg_.model.vocab_size));
    start_step_ = step_;
    tokens_ = static_cast<int64_t>(step_) * B_ * T_;
    // On a GPU the optimizer, the gradient norm and the clipping run as
    // multi-tensor kernels (optim_step.cpp); on the CPU, LibTorch's loops.
    multi_tensor_ = device_.is_cuda();
    branch_group_ = branch_groups(*p_.optimizer, model_);
    ahead_ = std::make_unique<BatchAhead>(p_.data, cfg_.train.seed, B_, T_, cfg_.train.steps, device_.is_cuda(),
                                          /*ahead=*/device_.is_cuda());
    // The step as a CUDA graph (static_step.h): train.cuda_graph "auto" on a
    // CUDA device when the run allows it; "on" always (trainer.cpp refused
    // what cannot), eagerly on a CPU.
    const std::string& graph_mode = cfg_.train.cuda_graph;
    if (graph_mode == "on" || (graph_mode == "auto" && device_.is_cuda() && cuda_graphs_built() &&
                               static_step_unsupported(cfg_, comm_ != nullptr).empty()))
        static_ = std::make_unique<StaticStep>(model_, *p_.optimizer, params_, cfg_, device_, device_.is_cuda(),
                                               graph_mode == "on",
                                               [this](const torch::Tensor& in, ForwardCapture* cap) { return forward(in, cap); });
    if (static_) static_->set_before_capture([this] { ahead_->settle(); });
    if (const char* v = std::getenv("NORMLAB_STEP_AHEAD")) step_ahead_ = std::string(v) != "0";
    model_->train();
    if (st_.val_pending) {   // the evaluation a cancel interrupted, at the step it was due
        st_.val_loss = evaluate();
        writer_.scalar("val/loss", step_, st_.val_loss);
        st_.val_pending = false;
    }
}

// ---- control: pause and cancel (data-parallel ranks stop together, at the start of a step)
std::optional<RunResult> TrainLoop::control() {
    if (comm_) {
        const bool stop_here = opts_.control && opts_.control->cancelled();
        if (comm_->sum({stop_here ? 1.0 : 0.0})[0] > 0) {
            checkpoint();
            return fail(RunStatus::Cancelled, stop_here ? "cancelled by the user"
                                                        : "cancelled by the user (another rank was stopped)");
        }
    } else if (opts_.control) {
        if (opts_.control->paused()) {
            writer_.flush();
            report(RunStatus::Running);
        }
        if (!opts_.control->wait_while_paused()) {
            // Keep what was learned: a cancelled run can be exported or resumed.
            checkpoint();
            return fail(RunStatus::Cancelled, stop_message());
        }
    }
    return std::nullopt;
}

// Step s's schedules: the learning rate (into the optimizer, which a
// checkpoint keeps) and BranchNorm's α_t (into the model, unless model is false); returns α_t.
// With model.branchnorm.scale_updates the branches' groups take lr·α_t.
double TrainLoop::schedule(int64_t s, bool model) {
    const double alpha = branchnorm_alpha(cfg_.model.branchnorm, s);
    if (model) model_->set_branch_alpha(alpha);
    lr_ = learning_rate(cfg_.optim, cfg_.train.steps, s + 1);
    auto& groups = p_.optimizer->param_groups();
    for (size_t i = 0; i < groups.size(); ++i)
        groups[i].options().set_lr(i < branch_group_.size() && branch_group_[i] ? lr_ * alpha : lr_);
    return alpha;
}

// ---- compute: batch → forward → loss → backward → gradient sync; returns the (global) loss
double TrainLoop::compute(int64_t s, ForwardCapture* cap, double& comm_s) {
    schedule(s);
    auto tok = ahead_->get(s);
    if (W_ > 1) tok = tok.narrow(0, static_cast<int64_t>(R_) * Bl_, Bl_);   // this rank's rows of the global batch
    tok = tok.to(device_, /*non_blocking=*/true);   // pinned on a GPU: queued behind the step before
    // Dropout masks are a function of (seed, step): reproducible, and exact after a resume.
    if (cfg_.model.dropout > 0) torch::manual_seed(splitmix64(cfg_.train.seed * 0x9E3779B97F4A7C15ull + s));
    auto loss = GPTImpl::loss(forward(tok.narrow(1, 0, T_), cap), tok.narrow(1, 1, T_));
    clear_grads(params_);
    if (sync_) sync_->arm();
    loss.backward();
    if (!sync_) return loss.item<double>();
    comm_s = sync_->finish();   // every rank now holds the gradient of the global batch
    return comm_->sum({loss.item<double>()})[0] / W_;
}

// ---- the static step (static_step.h): a replayed CUDA graph, or on probe
// steps the same arithmetic eagerly with the probes between backward and
// update; returns the gradient norm, sets the loss
double TrainLoop::static_step(int64_t s, ForwardCapture& cap, bool want_fwd) {
    double gnorm = 0;
    if (launched_ && launched_->step == s) {   // queued while the step before was read
        lr_ = launched_->lr;
        launched_.reset();
        launch_next(s);
        std::tie(loss_, gnorm) = static_->collect();
    } else if (probe_due(s)) {
        const double alpha = schedule(s);
        loss_ = static_->forward_backward(ahead_->get(s), alpha, want_fwd ? &cap : nullptr);
        probe(s, cap, want_fwd);
        gnorm = static_->clip_update(lr_, alpha);
        launch_next(s);
    } else {
        const double alpha = schedule(s);
        static_->launch(ahead_->get(s), lr_, alpha, s);
        launch_next(s);
        std::tie(loss_, gnorm) = static_->collect();
    }
    if (static_->state() != graph_state_) {
        graph_state_ = static_->state();
        store_.set_info(info_.id, {{"cuda_graph", graph_state_}});
    }
    return gnorm;
}

// Whether step s reads activations or gradients mid-step (an eager step of the static step).
bool TrainLoop::probe_due(int64_t s) const {
    const ProbeConfig& pr = cfg_.probes;
    const auto due = [s](int every) { return every > 0 && s % every == 0; };
    return due(pr.forward_every) || due(pr.grads_every) || due(pr.gains_every) || due(pr.cond_every);
}

bool TrainLoop::checkpoint_due_by_time() const {
    return cfg_.train.checkpoint_seconds > 0 &&
           seconds_since(last_ckpt_) >= std::max(cfg_.train.checkpoint_seconds, 50 * ckpt_cost_s_);
}

// The step ahead (train_loop.h): step s + 1 queued behind step s, before s is
// read, where nothing between the two reads the weights or stops the run.
void TrainLoop::launch_next(int64_t s) {
    const int64_t n = s + 1;
    const auto at = [n](int every) { return every > 0 && n % every == 0; };
    if (!step_ahead_ || n >= cfg_.train.steps || probe_due(n) || at(cfg_.train.eval_every) ||
        at(cfg_.train.checkpoint_every) || checkpoint_due_by_time())
        return;
    if (opts_.control && (opts_.control->cancelled() || opts_.control->paused())) return;
    const double lr = lr_;   // step s's, which its row records
    // α_t reaches the model's device scalar inside launch(), on the step's stream: schedule() would
    // write it on the current stream, under the feet of step s still running.
    const double alpha = schedule(n, /*model=*/false);
    static_->launch(ahead_->get(n), lr_, alpha, n);
    launched_ = Launched{n, lr_};
    lr_ = lr;
    ++steps_ahead_;
}

// ---- probe: what the gradients, activations and gains look like at this step (before clipping)
void TrainLoop::probe(int64_t s, const ForwardCapture& cap, bool want_fwd) {
    const ProbeConfig& pr = cfg_.probes;
    if (pr.grads_every > 0 && s % pr.grads_every == 0) rec_.gradients(model_, s, "grad_l1", "grad_l2");
    if (want_fwd) rec_.forward(cap, s);
    if (pr.gains_every > 0 && s % pr.gains_every == 0) rec_.gains(model_, s, pr.hist_bins);
    if (pr.cond_every > 0 && s % pr.cond_every == 0) {
        rec_.conditions(model_, s);
        rec_.embedding_spectrum(model_, s, pr.hist_bins);
    }
}

// ---- clip: the global gradient norm, and clipping to optim.grad_clip
double TrainLoop::clip() {
    const double gnorm = grad_norm(params_, multi_tensor_).item<double>();
    if (cfg_.optim.grad_clip > 0 && gnorm > cfg_.optim.grad_clip)
        scale_grads(params_, cfg_.optim.grad_clip / (gnorm + 1e-6), multi_tensor_);
    return gnorm;
}

// ---- update: the optimizer's step, then nGPT's weights back onto the sphere
void TrainLoop::update() {
    optimizer_step(*p_.optimizer, multi_tensor_);
    if (cfg_.model.ngpt.renormalize) model_->renormalize();
}

// ---- evaluate: the validation loss, averaged over ranks
double TrainLoop::evaluate() {
    torch::NoGradGuard ng;
    model_->set_branch_alpha(branchnorm_alpha(cfg_.model.branchnorm, step_));
    model_->eval();
    double sum = 0;
    for (int i = 0; i < cfg_.train.eval_batches; ++i) {
        if (opts_.on_progress && seconds_since(last_progress_) >= opts_.progress_interval_s) {
            eval_at_ = i;   // progress during a long evaluation
            report(RunStatus::Running);
            eval_at_ = -1;
            last_progress_ = Clock::now();
        }
        if (cancelled()) throw Cancelled();
        auto tok = batch_tokens(p_.data, cfg_.train.seed, i, B_, T_, true);
        if (W_ > 1) tok = tok.narrow(0, static_cast<int64_t>(R_) * Bl_, Bl_);
        tok = tok.to(device_);
        sum += GPTImpl::loss(forward(tok.narrow(1, 0, T_), nullptr), tok.narrow(1, 1, T_)).item<double>();
    }
    model_->train();
    if (comm_) sum = comm_->sum({sum})[0] / W_;   // equal slices: the mean of the ranks' means
    return sum / cfg_.train.eval_batches;
}

}  // namespace normlab::train_detail
