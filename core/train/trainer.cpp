// NormLab core: the training loop and its probes (see trainer.h).
//
// Goals: one loop for every scheme; every probe on its own interval and
// cheap enough to leave on (device tensors are gathered and copied to the
// host once per probe, not once per value); the same seed gives the same loss
// trace on the CPU; a failure or divergence ends the run with a status rather
// than an exception; data-parallel ranks (core/dist) that step identically.
// Precision: fp32, TF32 or bf16 autocast with fp32 master weights (precision.h).
// Non-goals: sharded or model-parallel training.
#include "core/train/trainer.h"

#include "core/data/data.h"
#include "core/dist/communicator.h"
#include "core/errors.h"
#include "core/flops.h"
#include "core/model/gpt.h"
#include "core/platform.h"
#include "core/train/io.h"
#include "core/train/loop_state.h"
#include "core/train/precision.h"
#include "core/train/probes.h"
#include "core/train/recorder.h"
#include "core/version.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;
using namespace train_detail;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

RunResult train_run(Store& store, int64_t run_id, const TrainOptions& opts) {
    auto info = store.run(run_id);
    if (!info) throw StoreError("no run " + std::to_string(run_id) + " in " + store.path());
    if (store.read_only()) throw StoreError(store.path() + " is open read-only; runs cannot be trained into it");
    require_trainable(*info, opts.resume);
    const std::string id_text = "run " + std::to_string(run_id);
    RunConfig cfg = run_config_from_json(info->config);
    validate(cfg);
    if (!opts.device.empty()) cfg.train.device = opts.device;
    if (opts.threads >= 0) cfg.train.threads = opts.threads;
    // Data-parallel: W ranks, this one R; rank 0 alone writes checkpoints.
    Communicator* const comm = opts.comm;
    const int W = comm ? comm->world_size() : 1, R = comm ? comm->rank() : 0;
    const bool writes = R == 0;
    if (comm && cfg.train.threads == 0)   // the node's cores shared among its ranks
        cfg.train.threads = std::max(1, default_threads() / std::max(1, comm->launch().local_world_size));

    RunResult result;
    result.run_id = run_id;
    // Data-parallel ranks stop together, at the start of a step (the flag is
    // summed over the ranks there), never in the middle of a collective.
    auto cancelled = [&] { return !comm && opts.control && opts.control->cancelled(); };

    // ---- Preparation: nothing is written. A resume that cannot start leaves
    // the run's record exactly as it was; a queued run is marked failed, so
    // that it never waits forever.
    std::string device_name;
    Dataset data;
    GPT model(nullptr);
    std::unique_ptr<torch::optim::Optimizer> optimizer;
    int64_t step = 0;
    LoopState st;
    std::string prep_error;
    bool prep_cancelled = false;
    try {
        if (comm && cfg.train.batch_size % W != 0)
            throw ConfigError("train.batch_size", std::to_string(cfg.train.batch_size) + " cannot be split among " +
                                                      std::to_string(W) + " processes; use a multiple of " + std::to_string(W));
        device_name = resolve_device(cfg.train.device);
        // Each rank on its own GPU: the one its process group runs on (cuda:LOCAL_RANK).
        if (comm && device_name.rfind("cuda", 0) == 0 && comm->device().rfind("cuda", 0) == 0) device_name = comm->device();
        if (comm && (device_name.rfind("cuda", 0) == 0) != (comm->device().rfind("cuda", 0) == 0))
            throw RunError("the run trains on " + device_name + " but its process group (" + comm->backend() +
                           ") was started for " + comm->device() + "; pass --device to choose one for both");
        torch::set_num_threads(cfg.train.threads > 0 ? cfg.train.threads : default_threads());
        data = load_dataset(cfg.data, cfg.model.context, cancelled);
        // A resume must see the bytes the run trained on: a changed file would silently change the run.
        if (opts.resume) check_same_data(info->info, data, cfg.data);
        model = GPT(cfg.model);
        model->reset_parameters(cfg.train.seed);
        model->to(torch::Device(device_name));
        optimizer = make_optimizer(cfg.optim, model);
        if (opts.resume && !info->checkpoint.empty()) {
            json saved;
            step = load_checkpoint(info->checkpoint, model, optimizer.get(), &saved);
            if (step < 0 || step > cfg.train.steps)
                throw RunError("checkpoint " + info->checkpoint + " is at step " + std::to_string(step) + " of a " +
                               std::to_string(cfg.train.steps) + "-step run");
            st = LoopState::from(saved);
        }
    } catch (const Cancelled&) {
        prep_cancelled = true;
    } catch (const std::exception& e) {
        prep_error = dynamic_cast<const c10::Error*>(&e) ? static_cast<const c10::Error&>(e).what_without_backtrace()
                                                         : e.what();
    }
    if (comm) {
        // Rank 0's checkpoint (weights, optimizer state, loop state) to every
        // rank, then every rank says whether it is ready: one that is not
        // stops them all before anything is written.
        try {
            const bool sends = R == 0 && prep_error.empty() && !prep_cancelled && step > 0;
            const std::string bytes = comm->share(sends ? read_checkpoint_bytes(info->checkpoint) : std::string());
            if (R > 0 && !bytes.empty() && prep_error.empty()) {
                json saved;
                step = load_checkpoint_bytes(bytes, model, optimizer.get(), &saved);
                st = LoopState::from(saved);
            }
        } catch (const std::exception& e) {
            if (prep_error.empty()) prep_error = e.what();
        }
        const bool ready = prep_error.empty() && !prep_cancelled;
        double not_ready = 0;
        try {
            not_ready = comm->sum({ready ? 0.0 : 1.0})[0];
        } catch (const std::exception& e) {
            if (prep_error.empty()) prep_error = e.what();
        }
        if (ready && prep_error.empty() && not_ready > 0)
            prep_error = "another rank of the " + std::to_string(W) + " could not prepare the run; see its log";
    }
    if (prep_cancelled) {
        result.status = RunStatus::Cancelled;
        result.message = "cancelled before training started";
        if (!opts.resume) store.finish_run(run_id, RunStatus::Cancelled, 0, result.message, std::nan(""));
        return result;
    }
    if (!prep_error.empty()) {
        const std::string& msg = prep_error;
        if (opts.resume) throw RunError("cannot resume " + id_text + ": " + msg + "; its record was left as it was");
        store.finish_run(run_id, RunStatus::Failed, 0, msg, std::nan(""));
        store.heartbeat(run_id, 0);
        result.message = msg;
        return result;
    }

    // ---- Claim: an atomic change from the status read above. Of two
    // processes resuming the same run, one wins; the other changes nothing.
    if (!store.claim_run(run_id, info->status, device_name, library_versions()))
        throw RunError(id_text + " was claimed by another process meanwhile (it is being trained); nothing was changed");

    const std::string ckpt_dir = opts.checkpoint_dir.empty() ? store.path() + ".checkpoints" : opts.checkpoint_dir;
    std::string current_ckpt = step > 0 ? info->checkpoint : "";
    RunWriter writer(store, run_id, opts.flush_interval_s);
    SpaceReserve reserve(ckpt_dir, writes);
    auto fail = [&](RunStatus status, const std::string& msg) {
        result.status = status;
        result.steps = step;
        result.message = msg;
        result.final_loss = st.val_loss;
        try {
            writer.flush();
        } catch (const std::exception& e) {
            spdlog::error("run {}: could not write its last rows: {}", run_id, e.what());
        }
        // The store itself may be what cannot be written (a full disk): the
        // space kept aside is freed and the end written again.
        for (int attempt = 0; attempt < 2; ++attempt) {
            try {
                store.finish_run(run_id, status, step, msg, st.val_loss);
                store.heartbeat(run_id, step);
                break;
            } catch (const std::exception& e) {
                if (attempt == 0 && reserve.release()) continue;
                // Still not: the run is marked interrupted the next time the store is opened.
                spdlog::error("run {}: could not record its end ({}): {}", run_id, msg, e.what());
                result.message = msg + "; recording it failed too: " + e.what();
            }
        }
        return result;
    };

    try {
        if (opts.resume) {
            std::error_code ec;
            if (fs::is_directory(ckpt_dir, ec)) remove_checkpoints(ckpt_dir, run_id, current_ckpt);
            store.truncate_for_resume(run_id, step);
            if (step == 0)
                spdlog::warn("{}: {}", id_text, info->checkpoint.empty() ? "no checkpoint was saved: training restarts from step 0"
                                                                      : "restarting from step 0");
            else spdlog::info("{}: resuming at step {}", id_text, step);
        }
        const torch::Device device(device_name);
        const std::string& precision = cfg.train.precision;
        const PrecisionSetting tf32(precision, device.is_cuda());
        // The forward pass in the run's precision; the loss upcasts its logits (GPTImpl::loss).
        auto forward = [&](const torch::Tensor& in, ForwardCapture* c) {
            const AutocastScope ac(precision, device.is_cuda());
            return model->forward(in, c);
        };
        const int B = cfg.train.batch_size, T = cfg.model.context;
        const ProbeConfig& pr = cfg.probes;
        std::vector<torch::Tensor> params;
        for (auto& p : model->parameters())
            if (p.requires_grad()) params.push_back(p);
        // This rank's rows of a global batch of B sequences.
        const int Bl = B / W;
        auto shard = [&](const torch::Tensor& tok) { return W == 1 ? tok : tok.narrow(0, static_cast<int64_t>(R) * Bl, Bl); };
        std::unique_ptr<GradSync> sync;
        if (comm) {
            std::vector<torch::Tensor> state;
            for (auto& p : model->parameters()) state.push_back(p);
            for (auto& b : model->buffers()) state.push_back(b);
            comm->broadcast(state);   // rank 0's weights, at the start and after a resume
            sync = std::make_unique<GradSync>(*comm, params, opts.bucket_mb, opts.overlap);
        }

        // MFU against the device's peak, for every rank's device together (core/flops.h)
        const double flops_per_token = training_flops_per_token(cfg.model), peak = device_peak(device_name, precision) * (comm ? W : 1);
        json run_info = {{"parameters", model->parameter_count()},
                         {"data", data.description},
                         {"data_bytes", data.bytes.size()},
                         {"data_hash", data_fingerprint(data.bytes)},
                         {"tokens_per_step", static_cast<int64_t>(B) * T},
                         {"flops_per_token", flops_per_token},
                         {"peak_flops", peak},
                         {"precision", precision},
                         {"threads", torch::get_num_threads()},
                         {"thread_waiting", thread_waiting_summary()}};
        if (comm)
            run_info["distributed"] = {{"world_size", W}, {"backend", comm->backend()},
                                       {"launcher", comm->launch().launcher},
                                       {"processes_per_node", comm->launch().local_world_size},
                                       {"batch_per_rank", Bl}, {"gradient_buckets", sync->buckets()},
                                       {"allreduce_bytes_per_step", sync->bytes()}, {"overlap", sync->overlap()}};
        if (opts.resume) run_info["resumed_at_step"] = step;
        if (data.entropy_rate) run_info["loss_floor"] = *data.entropy_rate;
        if (cfg.model.deepnorm.residual) run_info["deepnorm_alpha"] = cfg.model.deepnorm_alpha();
        if (cfg.model.deepnorm.init) run_info["deepnorm_beta"] = cfg.model.deepnorm_beta();
        store.set_info(run_id, run_info);
        if (data.entropy_rate) writer.scalar("data/loss_floor", 0, *data.entropy_rate);

        // Xiong et al.'s "expected gradient": averaged over batches before the norm.
        if (pr.expected_grad_batches > 0 && step == 0) {
            clear_grads(params);
            model->set_branch_alpha(branchnorm_alpha(cfg.model.branchnorm, 0));
            for (int i = 0; i < pr.expected_grad_batches; ++i) {
                if (cancelled()) throw Cancelled();
                auto tok = shard(batch_tokens(data, cfg.train.seed ^ 0xE6E6ull, i, B, T, false)).to(device);
                auto loss = GPTImpl::loss(forward(tok.narrow(1, 0, T), nullptr), tok.narrow(1, 1, T));
                (loss / pr.expected_grad_batches).backward();
            }
            if (sync) sync->finish();   // the average over every rank's slice
            Recorder{writer}.gradients(model, 0, nullptr, "grad_expected_l2");
            clear_grads(params);
        }

        Recorder rec{writer, comm};
        const auto t0 = std::chrono::steady_clock::now();
        const double wall_offset = st.wall_s;
        auto wall = [&] { return wall_offset + seconds_since(t0); };
        auto last_progress = t0, last_ckpt = t0;
        double loss_v = 0, lr = 0;
        const double max_loss = cfg.train.divergence.max_loss > 0 ? cfg.train.divergence.max_loss
                                                                   : 2.0 * std::log(double(cfg.model.vocab_size));
        const int64_t start_step = step;
        int64_t tokens = static_cast<int64_t>(step) * B * T;

        std::function<void(int)> on_eval_batch;   // progress during a long evaluation (set below)
        auto evaluate = [&]() {
            torch::NoGradGuard ng;
            model->set_branch_alpha(branchnorm_alpha(cfg.model.branchnorm, step));
            model->eval();
            double sum = 0;
            for (int i = 0; i < cfg.train.eval_batches; ++i) {
                if (on_eval_batch) on_eval_batch(i);
                if (cancelled()) throw Cancelled();
                auto tok = shard(batch_tokens(data, cfg.train.seed, i, B, T, true)).to(device);
                sum += GPTImpl::loss(forward(tok.narrow(1, 0, T), nullptr), tok.narrow(1, 1, T)).item<double>();
            }
            model->train();
            if (comm) sum = comm->sum({sum})[0] / W;   // equal slices: the mean of the ranks' means
            return sum / cfg.train.eval_batches;
        };
        // The checkpoint file first, then its pointer and every buffered row
        // in one transaction, then the previous file goes.
        double ckpt_cost_s = 0;   // the last checkpoint's duration: the time cadence keeps it under 2% of training
        auto checkpoint = [&]() {
            const auto c0 = std::chrono::steady_clock::now();
            st.wall_s = wall();
            if (!writes) {   // rank 0 keeps the run's checkpoints
                writer.flush();
                last_ckpt = std::chrono::steady_clock::now();
                return;
            }
            const std::string file = checkpoint_file(ckpt_dir, run_id, step);
            save_checkpoint(file, model, optimizer.get(), step, cfg, st.to_json());
            writer.flush_with_checkpoint(file, step);
            std::error_code ec;
            // Only a file of this store's own: a copy resuming from the
            // original's checkpoint leaves it to the original.
            if (!current_ckpt.empty() && current_ckpt != file && is_checkpoint_of(current_ckpt, run_id) &&
                fs::equivalent(fs::path(current_ckpt).parent_path(), ckpt_dir, ec))
                fs::remove(current_ckpt, ec);
            current_ckpt = file;
            last_ckpt = std::chrono::steady_clock::now();
            ckpt_cost_s = seconds_since(c0);
        };
        int eval_at = -1;   // the validation batch being evaluated, for the progress report
        auto report = [&](RunStatus status) {
            if (!opts.on_progress) return;
            Progress p;
            p.run_id = run_id;
            p.run_name = info->name;
            p.step = step;
            p.total = cfg.train.steps;
            p.loss = loss_v;
            p.val_loss = st.val_loss;
            p.lr = lr;
            p.elapsed_s = seconds_since(t0);
            const double done = static_cast<double>(step - start_step);
            p.tokens_per_s = p.elapsed_s > 0 ? done * B * T / p.elapsed_s : 0;
            p.mfu = mfu(flops_per_token, p.tokens_per_s, peak);
            p.eta_s = done > 0 ? p.elapsed_s / done * (cfg.train.steps - step) : 0;
            p.status = status;
            p.eval_batch = eval_at;
            p.eval_batches = eval_at >= 0 ? cfg.train.eval_batches : 0;
            opts.on_progress(p);
        };
        on_eval_batch = [&](int i) {
            if (!opts.on_progress || seconds_since(last_progress) < opts.progress_interval_s) return;
            eval_at = i;
            report(RunStatus::Running);
            eval_at = -1;
            last_progress = std::chrono::steady_clock::now();
        };

        model->train();
        if (st.val_pending) {   // the evaluation a cancel interrupted, at the step it was due
            st.val_loss = evaluate();
            writer.scalar("val/loss", step, st.val_loss);
            st.val_pending = false;
        }
        // On a GPU the optimizer, the gradient norm and the clipping run as
        // multi-tensor kernels (optim_step.cpp); on the CPU, LibTorch's loops.
        const bool multi_tensor = torch::Device(device_name).is_cuda();
        while (step < cfg.train.steps) {
            if (comm) {
                const bool stop_here = opts.control && opts.control->cancelled();
                if (comm->sum({stop_here ? 1.0 : 0.0})[0] > 0) {
                    checkpoint();
                    return fail(RunStatus::Cancelled, stop_here ? "cancelled by the user"
                                                                : "cancelled by the user (another rank was stopped)");
                }
            } else if (opts.control) {
                if (opts.control->paused()) {
                    writer.flush();
                    report(RunStatus::Running);
                }
                if (!opts.control->wait_while_paused()) {
                    // Keep what was learned: a cancelled run can be exported or resumed.
                    checkpoint();
                    return fail(RunStatus::Cancelled, "cancelled by the user");
                }
            }
            const auto ts = std::chrono::steady_clock::now();
            const int64_t s = step;
            const double alpha_t = branchnorm_alpha(cfg.model.branchnorm, s);
            model->set_branch_alpha(alpha_t);
            lr = learning_rate(cfg.optim, cfg.train.steps, s + 1);
            for (auto& g : optimizer->param_groups()) g.options().set_lr(lr);

            auto tok = shard(batch_tokens(data, cfg.train.seed, s, B, T, false)).to(device);
            // Dropout masks are a function of (seed, step): reproducible, and exact after a resume.
            if (cfg.model.dropout > 0) torch::manual_seed(splitmix64(cfg.train.seed * 0x9E3779B97F4A7C15ull + s));
            const bool want_fwd = pr.forward_every > 0 && s % pr.forward_every == 0;
            ForwardCapture cap;
            auto logits = forward(tok.narrow(1, 0, T), want_fwd ? &cap : nullptr);
            auto loss = GPTImpl::loss(logits, tok.narrow(1, 1, T));
            clear_grads(params);
            if (sync) sync->arm();
            loss.backward();
            double comm_s = 0;
            if (sync) {
                comm_s = sync->finish();   // every rank now holds the gradient of the global batch
                loss_v = comm->sum({loss.item<double>()})[0] / W;
            } else {
                loss_v = loss.item<double>();
            }

            if (pr.grads_every > 0 && s % pr.grads_every == 0) rec.gradients(model, s, "grad_l1", "grad_l2");
            if (want_fwd) rec.forward(cap, s);
            if (pr.gains_every > 0 && s % pr.gains_every == 0) rec.gains(model, s, pr.hist_bins);
            if (pr.cond_every > 0 && s % pr.cond_every == 0) {
                rec.conditions(model, s);
                rec.embedding_spectrum(model, s, pr.hist_bins);
            }

            auto gnorm_t = grad_norm(params, multi_tensor);
            const double gnorm = gnorm_t.item<double>();
            if (cfg.optim.grad_clip > 0 && gnorm > cfg.optim.grad_clip) {
                scale_grads(params, cfg.optim.grad_clip / (gnorm + 1e-6), multi_tensor);
            }
            writer.scalar("train/loss", s, loss_v);
            writer.scalar("train/lr", s, lr);
            writer.scalar("train/grad_norm", s, gnorm);
            if (comm) writer.scalar("dist/allreduce_wait_s", s, comm_s);
            if (cfg.model.branchnorm.enabled) writer.scalar("branchnorm/alpha", s, alpha_t);
            if (cfg.model.deepnorm.residual) writer.scalar("deepnorm/alpha", s, cfg.model.deepnorm_alpha());

            if (const std::string why = st.diverged(loss_v, gnorm, max_loss, cfg.train.divergence); !why.empty()) {
                store.set_info(run_id, {{"diverged_step", s}, {"diverged_lr", lr}});
                spdlog::warn("run {} diverged at step {} (lr {:.3g}): {}", run_id, s, lr, why);
                step = s;
                return fail(RunStatus::Diverged, why + " at step " + std::to_string(s));
            }

            optimizer_step(*optimizer, multi_tensor);
            if (cfg.model.ngpt.renormalize) model->renormalize();
            step = s + 1;
            tokens += static_cast<int64_t>(B) * T;
            const double step_s = seconds_since(ts);
            writer.scalar("train/tokens", s, static_cast<double>(tokens));
            writer.scalar("train/wall_s", s, wall());
            writer.scalar("train/tokens_per_s", s, step_s > 0 ? B * T / step_s : 0);
            if (peak > 0) writer.scalar("train/mfu", s, mfu(flops_per_token, step_s > 0 ? B * T / step_s : 0, peak));
            st.recent.push_back(loss_v);
            if (st.recent.size() > 20) st.recent.pop_front();

            const bool last = step == cfg.train.steps;
            if ((cfg.train.eval_every > 0 && step % cfg.train.eval_every == 0) || last) {
                try {
                    st.val_loss = evaluate();
                } catch (const Cancelled&) {
                    // Stopped inside the evaluation: the weights of this step are kept,
                    // and a resume measures the validation loss it owes first.
                    model->train();
                    st.val_pending = true;
                    checkpoint();
                    return fail(RunStatus::Cancelled, "cancelled by the user");
                }
                writer.scalar("val/loss", step, st.val_loss);
            }
            const bool by_steps = cfg.train.checkpoint_every > 0 && step % cfg.train.checkpoint_every == 0;
            const bool by_time = cfg.train.checkpoint_seconds > 0 &&
                                 seconds_since(last_ckpt) >= std::max(cfg.train.checkpoint_seconds, 50 * ckpt_cost_s);
            if (by_steps || by_time || last) checkpoint();
            if (seconds_since(last_progress) >= opts.progress_interval_s && !last) {
                store.heartbeat(run_id, step);
                report(RunStatus::Running);
                last_progress = std::chrono::steady_clock::now();
            }
            writer.maybe_flush();
        }
        // The learned gains as training left them (step = updates done).
        if (pr.gains_every > 0) rec.gains(model, step, pr.hist_bins);
        writer.flush();
        double recent_mean = 0;
        for (double x : st.recent) recent_mean += x;
        store.set_info(run_id, {{"final_train_loss", st.recent.empty() ? json(nullptr) : json(recent_mean / st.recent.size())},
                                {"wall_s", wall()}});
        store.finish_run(run_id, RunStatus::Finished, step, "", st.val_loss);
        store.heartbeat(run_id, step);
        result.status = RunStatus::Finished;
        result.steps = step;
        result.final_loss = st.val_loss;
        report(RunStatus::Finished);
        return result;
    } catch (const Cancelled&) {
        // Inside an evaluation: the last checkpoint stays; a resume redoes the steps after it.
        return fail(RunStatus::Cancelled, "cancelled by the user");
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

}  // namespace normlab
