// NormLab core: the training loop and its probes (see trainer.h).
//
// Goals: one loop for every scheme; every probe on its own interval and
// cheap enough to leave on (device tensors are gathered and copied to the
// host once per probe, not once per value); the same seed gives the same loss
// trace on the CPU; a failure or divergence ends the run with a status rather
// than an exception. Non-goals: multi-GPU, mixed precision on the CPU.
#include "core/train/trainer.h"

#include "core/data/data.h"
#include "core/errors.h"
#include "core/model/gpt.h"
#include "core/platform.h"
#include "core/train/io.h"
#include "core/train/probes.h"
#include "core/version.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <filesystem>
#include <thread>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimConfig& o, GPT& model) {
    std::vector<torch::Tensor> decay, no_decay;
    model->split_decay(decay, no_decay);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    auto add = [&](std::vector<torch::Tensor>& params, double wd, auto options) {
        if (params.empty()) return;
        options.weight_decay(wd);
        groups.emplace_back(params, std::make_unique<decltype(options)>(options));
    };
    switch (o.kind) {
        case OptimizerKind::Adam: {
            auto opts = torch::optim::AdamOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps);
            add(decay, o.weight_decay, opts);
            add(no_decay, 0.0, opts);
            return std::make_unique<torch::optim::Adam>(std::move(groups), opts);
        }
        case OptimizerKind::AdamW: {
            auto opts = torch::optim::AdamWOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps);
            add(decay, o.weight_decay, opts);
            add(no_decay, 0.0, opts);
            return std::make_unique<torch::optim::AdamW>(std::move(groups), opts);
        }
        case OptimizerKind::SGD: {
            auto opts = torch::optim::SGDOptions(o.lr).momentum(o.momentum).nesterov(o.nesterov);
            add(decay, o.weight_decay, opts);
            add(no_decay, 0.0, opts);
            return std::make_unique<torch::optim::SGD>(std::move(groups), opts);
        }
    }
    throw RunError("unknown optimizer");
}

// Drops the gradients (LibTorch 1.13's zero_grad() zeroes them in place,
// which costs a memset and makes backward accumulate instead of assign).
void clear_grads(const std::vector<torch::Tensor>& params) {
    for (auto p : params) p.mutable_grad() = torch::Tensor();
}

// Global L2 norm of all gradients (a device scalar; no host sync).
torch::Tensor grad_norm(const std::vector<torch::Tensor>& params) {
    std::vector<torch::Tensor> norms;
    for (auto& p : params)
        if (p.grad().defined()) norms.push_back(p.grad().norm(2).to(torch::kFloat));
    if (norms.empty()) return torch::zeros({});
    return torch::stack(norms).norm(2);
}

struct Recorder {
    RunWriter& w;
    // Per-layer, per-weight gradient L1 (mean |g|) and L2 (Frobenius) norms.
    void gradients(GPT& model, int64_t step, const char* l1_name, const char* l2_name) {
        auto ws = model->weights();
        std::vector<torch::Tensor> vals;
        std::vector<const ProbeTensor*> which;
        for (auto& p : ws) {
            if (!p.param.grad().defined()) continue;
            auto g = p.slice(p.param.grad());
            vals.push_back(g.abs().mean().to(torch::kFloat));
            vals.push_back(g.norm(2).to(torch::kFloat));
            which.push_back(&p);
        }
        if (vals.empty()) return;
        auto host = torch::stack(vals).to(torch::kCPU, torch::kDouble);
        auto a = host.accessor<double, 1>();
        for (size_t i = 0; i < which.size(); ++i) {
            if (l1_name) w.layer(std::string(l1_name) + "/" + which[i]->name, which[i]->layer, step, a[2 * i]);
            w.layer(std::string(l2_name) + "/" + which[i]->name, which[i]->layer, step, a[2 * i + 1]);
        }
    }
    void forward(const ForwardCapture& c, int64_t step) {
        const std::pair<const char*, const std::vector<torch::Tensor>*> groups[] = {
            {"hidden/norm", &c.hidden_norm}, {"hidden/sq_over_d", &c.hidden_sq}, {"hidden/cos_prev", &c.cos_prev},
            {"attn/max_logit", &c.max_logit}, {"mlp/active", &c.act_active}};
        std::vector<torch::Tensor> all;
        for (auto& [n, v] : groups) all.insert(all.end(), v->begin(), v->end());
        if (all.empty()) return;
        auto host = torch::stack(all).to(torch::kCPU, torch::kDouble);
        auto a = host.accessor<double, 1>();
        int64_t k = 0;
        for (auto& [n, v] : groups)
            for (size_t l = 0; l < v->size(); ++l) w.layer(n, static_cast<int>(l), step, a[k++]);
    }
    void gains(GPT& model, int64_t step, int bins) {
        for (auto& g : model->gains()) {
            auto t = g.param.to(torch::kCPU, torch::kDouble).contiguous();
            std::vector<double> v(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
            Distribution d = summarize("gain/" + g.name, g.layer, step, std::move(v), bins);
            w.layer("gain_mean/" + g.name, g.layer, step, d.mean);
            w.distribution(std::move(d));
        }
    }
    // σ_max/σ_min; q, k, v per head ((d_h, d) slices), reported as the median over heads.
    void conditions(GPT& model, int64_t step) {
        torch::NoGradGuard ng;
        const int64_t H = model->cfg.n_heads, dh = model->cfg.head_dim();
        for (auto& m : model->matrices()) {
            auto W = m.slice(m.param.detach()).to(torch::kCPU, torch::kDouble);
            double value;
            if (m.name == "q" || m.name == "k" || m.name == "v") {
                auto s = torch::linalg_svdvals(W.view({H, dh, W.size(1)}));      // (H, d_h)
                auto c = s.select(1, 0) / s.select(1, dh - 1);
                value = median(std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + H));
            } else {
                auto s = torch::linalg_svdvals(W);
                value = (s[0] / s[s.size(0) - 1]).item<double>();
            }
            w.layer("cond/" + m.name, m.layer, step, value);
        }
    }
    // nGPT Fig. 4: eigenvalues of each embedding's covariance, divided by their median.
    void embedding_spectrum(GPT& model, int64_t step, int bins) {
        torch::NoGradGuard ng;
        std::vector<std::pair<std::string, torch::Tensor>> embs{{"tok_emb", model->tok_emb->weight}};
        if (model->lm_head.defined()) embs.emplace_back("lm_head", model->lm_head);
        for (auto& [name, E0] : embs) {
            auto E = E0.detach().to(torch::kCPU, torch::kDouble);
            auto Ec = E - E.mean(0, true);
            auto ev = torch::linalg_eigvalsh(torch::matmul(Ec.t(), Ec) / E.size(0)).contiguous();   // (d)
            std::vector<double> v(ev.data_ptr<double>(), ev.data_ptr<double>() + ev.numel());
            const double med = median(v);
            for (auto& x : v) x /= med;
            w.distribution(summarize("emb_eig/" + name, -1, step, std::move(v), bins));
        }
    }
};

}  // namespace

bool cuda_available() { return torch::cuda::is_available(); }

std::string resolve_device(const std::string& requested) {
    if (requested == "cpu") return "cpu";
    if (requested == "auto" || requested.empty()) return cuda_available() ? "cuda:0" : "cpu";
    if (requested.rfind("cuda", 0) == 0) {
        if (!cuda_available())
            throw RunError("train.device " + requested + ": no CUDA device is available to this LibTorch"
                           " (it may be a CPU-only build); use \"cpu\" or \"auto\"");
        return requested == "cuda" ? "cuda:0" : requested;
    }
    throw RunError("train.device \"" + requested + "\" is not one of auto, cpu, cuda, cuda:N");
}

int default_threads() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

json library_versions() {
    return {{"normlab", NORMLAB_VERSION},
            {"libtorch", TORCH_VERSION},
            {"sqlite", sqlite3_libversion()},
            {"compiler", __VERSION__},
            {"cuda", cuda_available()},
            {"blas_core", blas_core_name()},
            {"cpu_tuning", cpu_tuning_summary()}};
}

torch::Tensor batch_tokens(const Dataset& data, uint64_t seed, int64_t step, int batch, int context, bool validation) {
    std::vector<int64_t> offsets;
    if (validation)
        batch_offsets(splitmix64(seed ^ 0x76616C6964ull), step, batch, context, data.train_end, data.bytes.size(), offsets);
    else
        batch_offsets(seed, step, batch, context, 0, data.train_end, offsets);
    auto out = torch::empty({batch, context + 1}, torch::kInt64);
    int64_t* p = out.data_ptr<int64_t>();
    for (int b = 0; b < batch; ++b)
        for (int t = 0; t <= context; ++t) *p++ = data.bytes[static_cast<size_t>(offsets[b] + t)];
    return out;
}

int64_t queue_run(Store& store, const RunConfig& cfg, int64_t experiment_id, const std::vector<std::string>& tags) {
    validate(cfg);
    return store.create_run(cfg.name, scheme_name(cfg.scheme), to_json(cfg), cfg.train.seed, experiment_id, tags);
}

RunResult train_run(Store& store, int64_t run_id, const TrainOptions& opts) {
    auto info = store.run(run_id);
    if (!info) throw StoreError("no run " + std::to_string(run_id) + " in " + store.path());
    RunConfig cfg = run_config_from_json(info->config);
    validate(cfg);
    if (!opts.device.empty()) cfg.train.device = opts.device;
    if (opts.threads >= 0) cfg.train.threads = opts.threads;

    RunResult result;
    result.run_id = run_id;
    int64_t step = 0;
    RunWriter writer(store, run_id, opts.flush_interval_s);
    auto fail = [&](RunStatus status, const std::string& msg, double final_loss) {
        try {
            writer.flush();
        } catch (const std::exception& e) {
            spdlog::error("run {}: could not flush its last rows: {}", run_id, e.what());
        }
        store.finish_run(run_id, status, step, msg, final_loss);
        store.heartbeat(run_id, step);
        result.status = status;
        result.steps = step;
        result.message = msg;
        result.final_loss = final_loss;
        return result;
    };

    try {
        const std::string device_name = resolve_device(cfg.train.device);
        const torch::Device device(device_name);
        torch::set_num_threads(cfg.train.threads > 0 ? cfg.train.threads : default_threads());
        const Dataset data = load_dataset(cfg.data, cfg.model.context);
        const int B = cfg.train.batch_size, T = cfg.model.context;
        const ProbeConfig& pr = cfg.probes;

        GPT model(cfg.model);
        model->reset_parameters(cfg.train.seed);
        model->to(device);
        auto optimizer = make_optimizer(cfg.optim, model);
        std::vector<torch::Tensor> params;
        for (auto& p : model->parameters())
            if (p.requires_grad()) params.push_back(p);

        const std::string ckpt_dir =
            opts.checkpoint_dir.empty() ? store.path() + ".checkpoints" : opts.checkpoint_dir;
        const std::string ckpt = (fs::path(ckpt_dir) / ("run-" + std::to_string(run_id) + ".pt")).string();
        if (opts.resume) {
            step = load_checkpoint(info->checkpoint.empty() ? ckpt : info->checkpoint, model, optimizer.get());
            store.truncate_after(run_id, step - 1);
            spdlog::info("run {}: resuming at step {}", run_id, step);
        }
        store.mark_running(run_id, device_name, library_versions());
        json run_info = {{"parameters", model->parameter_count()},
                         {"data", data.description},
                         {"data_bytes", data.bytes.size()},
                         {"tokens_per_step", static_cast<int64_t>(B) * T},
                         {"threads", torch::get_num_threads()}};
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
                auto tok = batch_tokens(data, cfg.train.seed ^ 0xE6E6ull, i, B, T, false).to(device);
                auto loss = GPTImpl::loss(model->forward(tok.narrow(1, 0, T)), tok.narrow(1, 1, T));
                (loss / pr.expected_grad_batches).backward();
            }
            Recorder{writer}.gradients(model, 0, nullptr, "grad_expected_l2");
            clear_grads(params);
        }

        Recorder rec{writer};
        const auto t0 = std::chrono::steady_clock::now();
        auto last_progress = t0;
        double val_loss = std::nan(""), best = std::numeric_limits<double>::infinity(), loss_v = 0, lr = 0;
        int above = 0;
        const double max_loss = cfg.train.divergence.max_loss > 0 ? cfg.train.divergence.max_loss
                                                                   : 2.0 * std::log(double(cfg.model.vocab_size));
        const int64_t start_step = step;
        int64_t tokens = static_cast<int64_t>(step) * B * T;
        std::deque<double> recent;

        auto evaluate = [&]() {
            torch::NoGradGuard ng;
            model->set_branch_alpha(branchnorm_alpha(cfg.model.branchnorm, step));
            model->eval();
            double sum = 0;
            for (int i = 0; i < cfg.train.eval_batches; ++i) {
                auto tok = batch_tokens(data, cfg.train.seed, i, B, T, true).to(device);
                sum += GPTImpl::loss(model->forward(tok.narrow(1, 0, T)), tok.narrow(1, 1, T)).item<double>();
            }
            model->train();
            return sum / cfg.train.eval_batches;
        };
        auto report = [&](RunStatus status) {
            if (!opts.on_progress) return;
            Progress p;
            p.run_id = run_id;
            p.run_name = info->name;
            p.step = step;
            p.total = cfg.train.steps;
            p.loss = loss_v;
            p.val_loss = val_loss;
            p.lr = lr;
            p.elapsed_s = seconds_since(t0);
            const double done = static_cast<double>(step - start_step);
            p.tokens_per_s = p.elapsed_s > 0 ? done * B * T / p.elapsed_s : 0;
            p.eta_s = done > 0 ? p.elapsed_s / done * (cfg.train.steps - step) : 0;
            p.status = status;
            opts.on_progress(p);
        };

        model->train();
        while (step < cfg.train.steps) {
            if (opts.control) {
                if (opts.control->paused()) {
                    writer.flush();
                    report(RunStatus::Running);
                }
                if (!opts.control->wait_while_paused()) {
                    // Keep what was learned: a cancelled run can be exported or resumed.
                    save_checkpoint(ckpt, model, optimizer.get(), step, cfg);
                    store.set_checkpoint(run_id, ckpt);
                    return fail(RunStatus::Cancelled, "cancelled by the user", val_loss);
                }
            }
            const auto ts = std::chrono::steady_clock::now();
            const int64_t s = step;
            const double alpha_t = branchnorm_alpha(cfg.model.branchnorm, s);
            model->set_branch_alpha(alpha_t);
            lr = learning_rate(cfg.optim, cfg.train.steps, s + 1);
            for (auto& g : optimizer->param_groups()) g.options().set_lr(lr);

            auto tok = batch_tokens(data, cfg.train.seed, s, B, T, false).to(device);
            // Dropout masks are a function of (seed, step): reproducible, and exact after a resume.
            if (cfg.model.dropout > 0) torch::manual_seed(splitmix64(cfg.train.seed * 0x9E3779B97F4A7C15ull + s));
            const bool want_fwd = pr.forward_every > 0 && s % pr.forward_every == 0;
            ForwardCapture cap;
            auto logits = model->forward(tok.narrow(1, 0, T), want_fwd ? &cap : nullptr);
            auto loss = GPTImpl::loss(logits, tok.narrow(1, 1, T));
            clear_grads(params);
            loss.backward();

            if (pr.grads_every > 0 && s % pr.grads_every == 0) rec.gradients(model, s, "grad_l1", "grad_l2");
            if (want_fwd) rec.forward(cap, s);
            if (pr.gains_every > 0 && s % pr.gains_every == 0) rec.gains(model, s, pr.hist_bins);
            if (pr.cond_every > 0 && s % pr.cond_every == 0) {
                rec.conditions(model, s);
                rec.embedding_spectrum(model, s, pr.hist_bins);
            }

            auto gnorm_t = grad_norm(params);
            const double gnorm = gnorm_t.item<double>();
            loss_v = loss.item<double>();
            if (cfg.optim.grad_clip > 0 && gnorm > cfg.optim.grad_clip) {
                torch::NoGradGuard ng;
                const double scale = cfg.optim.grad_clip / (gnorm + 1e-6);
                for (auto& p : params)
                    if (p.grad().defined()) p.grad().mul_(scale);
            }
            writer.scalar("train/loss", s, loss_v);
            writer.scalar("train/lr", s, lr);
            writer.scalar("train/grad_norm", s, gnorm);
            if (cfg.model.branchnorm.enabled) writer.scalar("branchnorm/alpha", s, alpha_t);
            if (cfg.model.deepnorm.residual) writer.scalar("deepnorm/alpha", s, cfg.model.deepnorm_alpha());

            // Divergence: non-finite loss or gradients, a loss above max_loss,
            // or a loss `margin` above the best for `patience` steps.
            std::string why;
            if (!std::isfinite(loss_v)) why = "the loss became non-finite";
            else if (!std::isfinite(gnorm)) why = "the gradients became non-finite";
            else if (loss_v > max_loss) why = "the loss exceeded " + std::to_string(max_loss) + " nats";
            else if (loss_v > best + cfg.train.divergence.margin) {
                if (++above >= cfg.train.divergence.patience)
                    why = "the loss stayed " + std::to_string(cfg.train.divergence.margin) + " nats above its best for " +
                          std::to_string(above) + " steps";
            } else {
                above = 0;
            }
            best = std::min(best, loss_v);
            if (!why.empty()) {
                store.set_info(run_id, {{"diverged_step", s}, {"diverged_lr", lr}});
                spdlog::warn("run {} diverged at step {} (lr {:.3g}): {}", run_id, s, lr, why);
                step = s;
                return fail(RunStatus::Diverged, why + " at step " + std::to_string(s), val_loss);
            }

            optimizer->step();
            model->renormalize();
            step = s + 1;
            tokens += static_cast<int64_t>(B) * T;
            const double step_s = seconds_since(ts);
            writer.scalar("train/tokens", s, static_cast<double>(tokens));
            writer.scalar("train/wall_s", s, seconds_since(t0));
            writer.scalar("train/tokens_per_s", s, step_s > 0 ? B * T / step_s : 0);
            recent.push_back(loss_v);
            if (recent.size() > 20) recent.pop_front();

            const bool last = step == cfg.train.steps;
            if ((cfg.train.eval_every > 0 && step % cfg.train.eval_every == 0) || last) {
                val_loss = evaluate();
                writer.scalar("val/loss", step, val_loss);
            }
            if ((cfg.train.checkpoint_every > 0 && step % cfg.train.checkpoint_every == 0) || last) {
                save_checkpoint(ckpt, model, optimizer.get(), step, cfg);
                store.set_checkpoint(run_id, ckpt);
            }
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
        for (double x : recent) recent_mean += x;
        store.set_info(run_id, {{"final_train_loss", recent.empty() ? 0.0 : recent_mean / recent.size()},
                                {"wall_s", seconds_since(t0)}});
        store.finish_run(run_id, RunStatus::Finished, step, "", val_loss);
        store.heartbeat(run_id, step);
        result.status = RunStatus::Finished;
        result.steps = step;
        result.final_loss = val_loss;
        report(RunStatus::Finished);
        return result;
    } catch (const StoreError&) {
        throw;  // the store itself failed: nothing can be recorded
    } catch (const c10::Error& e) {
        return fail(RunStatus::Failed, e.what_without_backtrace(), std::nan(""));
    } catch (const std::exception& e) {
        return fail(RunStatus::Failed, e.what(), std::nan(""));
    }
}

}  // namespace normlab
