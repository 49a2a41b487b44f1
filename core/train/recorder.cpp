// NormLab core: the pieces of a training step around the loop — optimizers,
// gradient helpers, batches, devices and the probe recorder (see recorder.h).
#include "core/train/recorder.h"

#include "core/dist/communicator.h"

#include "core/data/data.h"
#include "core/errors.h"
#include "core/platform.h"
#include "core/train/probes.h"
#include "core/train/trainer.h"
#include "core/version.h"

#include <sqlite3.h>
#include <torch/version.h>

#include <thread>
#include <unordered_set>

namespace normlab {
using nlohmann::json;

namespace {
std::unordered_set<const void*> branch_set(GPT& model) {
    std::unordered_set<const void*> branch;
    for (auto& p : model->branch_parameters()) branch.insert(p.unsafeGetTensorImpl());
    return branch;
}
}  // namespace

std::vector<bool> branch_groups(torch::optim::Optimizer& opt, GPT& model) {
    std::vector<bool> out;
    if (!model->cfg.branchnorm.enabled || !model->cfg.branchnorm.scale_updates) return out;
    const auto branch = branch_set(model);
    for (auto& g : opt.param_groups())
        out.push_back(!g.params().empty() && branch.count(g.params()[0].unsafeGetTensorImpl()) > 0);
    return out;
}

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const OptimConfig& o, GPT& model) {
    std::vector<torch::Tensor> decay, no_decay;
    model->split_decay(decay, no_decay);
    // model.branchnorm.scale_updates: the branches' parameters in groups of their own, after the others',
    // so that their learning rate can follow α_t (TrainLoop::schedule).
    std::vector<torch::Tensor> branch_decay, branch_no_decay;
    if (model->cfg.branchnorm.enabled && model->cfg.branchnorm.scale_updates) {
        const auto branch = branch_set(model);
        auto split = [&](std::vector<torch::Tensor>& all, std::vector<torch::Tensor>& into) {
            std::vector<torch::Tensor> rest;
            for (auto& p : all) (branch.count(p.unsafeGetTensorImpl()) ? into : rest).push_back(p);
            all.swap(rest);
        };
        split(decay, branch_decay);
        split(no_decay, branch_no_decay);
    }
    std::vector<torch::optim::OptimizerParamGroup> groups;
    auto add = [&](std::vector<torch::Tensor>& params, double wd, auto options) {
        if (params.empty()) return;
        options.weight_decay(wd);
        groups.emplace_back(params, std::make_unique<decltype(options)>(options));
    };
    auto add_all = [&](auto options) {
        add(decay, o.weight_decay, options);
        add(no_decay, 0.0, options);
        add(branch_decay, o.weight_decay, options);
        add(branch_no_decay, 0.0, options);
    };
    switch (o.kind) {
        case OptimizerKind::Adam: {
            auto opts = torch::optim::AdamOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps);
            add_all(opts);
            return std::make_unique<torch::optim::Adam>(std::move(groups), opts);
        }
        case OptimizerKind::AdamW: {
            auto opts = torch::optim::AdamWOptions(o.lr).betas({o.beta1, o.beta2}).eps(o.eps);
            add_all(opts);
            return std::make_unique<torch::optim::AdamW>(std::move(groups), opts);
        }
        case OptimizerKind::SGD: {
            auto opts = torch::optim::SGDOptions(o.lr).momentum(o.momentum).nesterov(o.nesterov);
            add_all(opts);
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

// Per-layer, per-weight gradient L1 (mean |g|) and L2 (Frobenius) norms.
void Recorder::gradients(GPT& model, int64_t step, const char* l1_name, const char* l2_name) {
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
void Recorder::forward(const ForwardCapture& c, int64_t step) {
    const std::pair<const char*, const std::vector<torch::Tensor>*> groups[] = {
        {"hidden/norm", &c.hidden_norm}, {"hidden/sq_over_d", &c.hidden_sq}, {"hidden/cos_prev", &c.cos_prev},
        {"hidden/cos_tokens", &c.cos_tokens},
        {"attn/max_logit", &c.max_logit}, {"mlp/active", &c.act_active},
        {"norm_in/sigma_attn", &c.norm_sigma_attn}, {"norm_in/sigma_mlp", &c.norm_sigma_mlp},
        {"branch/cos_attn", &c.branch_cos_attn}, {"branch/cos_mlp", &c.branch_cos_mlp}};
    std::vector<torch::Tensor> all;
    for (auto& [n, v] : groups) all.insert(all.end(), v->begin(), v->end());
    if (all.empty()) return;
    auto host = torch::stack(all).to(torch::kCPU, torch::kDouble).contiguous();
    std::vector<double> a(host.data_ptr<double>(), host.data_ptr<double>() + host.numel());
    if (comm) {
        // Equal slices: the global mean is the mean of the ranks' means; the
        // largest logit is the largest of the ranks'.
        std::vector<double> means, maxes;
        std::vector<bool> is_max;
        for (auto& [n, v] : groups)
            for (size_t l = 0; l < v->size(); ++l) is_max.push_back(std::string(n) == "attn/max_logit");
        for (size_t i = 0; i < a.size(); ++i) (is_max[i] ? maxes : means).push_back(a[i]);
        if (!means.empty()) means = comm->sum(means);
        if (!maxes.empty()) maxes = comm->max(maxes);
        size_t im = 0, ix = 0;
        for (size_t i = 0; i < a.size(); ++i) a[i] = is_max[i] ? maxes[ix++] : means[im++] / comm->world_size();
    }
    int64_t k = 0;
    for (auto& [n, v] : groups)
        for (size_t l = 0; l < v->size(); ++l) w.layer(n, static_cast<int>(l), step, a[k++]);
}
void Recorder::gains(GPT& model, int64_t step, int bins) {
    for (auto& g : model->gains()) {
        auto t = g.param.to(torch::kCPU, torch::kDouble).contiguous();
        std::vector<double> v(t.data_ptr<double>(), t.data_ptr<double>() + t.numel());
        Distribution d = summarize("gain/" + g.name, g.layer, step, std::move(v), bins);
        w.layer("gain_mean/" + g.name, g.layer, step, d.mean);
        w.distribution(std::move(d));
    }
}
// σ_max/σ_min; q, k, v per head ((d_h, d) slices), reported as the median over heads.
void Recorder::conditions(GPT& model, int64_t step) {
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
void Recorder::embedding_spectrum(GPT& model, int64_t step, int bins) {
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


bool cuda_available() { return torch::cuda::is_available(); }
int cuda_device_count() { return cuda_available() ? static_cast<int>(torch::cuda::device_count()) : 0; }

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

// A run train_run may take: queued, or (resuming) stopped with a checkpoint or without.
void require_trainable(const RunInfo& info, bool resume) {
    const std::string id_text = "run " + std::to_string(info.id);
    if (resume && !resumable(info.status)) {
        if (info.status == RunStatus::Finished) throw RunError(id_text + " already finished; nothing was changed");
        if (info.status == RunStatus::Running)
            throw RunError(id_text + " is being trained by process " + std::to_string(info.pid) + " on " + info.host +
                           "; nothing was changed");
        throw RunError(id_text + " is " + info.status_text + "; only queued, cancelled, interrupted or failed runs"
                       " can be resumed");
    }
    if (!resume && info.status != RunStatus::Queued)
        throw RunError(id_text + " is " + info.status_text + ", not queued; resume it instead");
}

// Before a run: checked, then queued (see trainer.h).
int64_t queue_run(Store& store, const RunConfig& cfg, int64_t experiment_id, const std::vector<std::string>& tags) {
    validate(cfg);
    return store.create_run(cfg.name, scheme_name(cfg.scheme), to_json(cfg), cfg.train.seed, experiment_id, tags);
}


void preflight(const RunConfig& cfg) {
    validate(cfg);
    std::string device;
    try {
        device = resolve_device(cfg.train.device);
    } catch (const RunError& e) {
        std::string m = e.what();
        if (m.rfind("train.device ", 0) == 0) m = m.substr(13);   // the path names the field already
        throw ConfigError("train.device", m);
    }
    check_data_source(cfg.data, cfg.model.context);
    if (device == "cpu") check_memory(cfg);
    else check_gpu_memory(cfg, device);
}

json library_versions() {
    return {{"normlab", NORMLAB_VERSION},
            {"commit", normlab_commit()},
            {"trace", NORMLAB_TRACE_VERSION},
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

}  // namespace normlab
