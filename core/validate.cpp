// NormLab core: validation of a run configuration and its memory estimate
// (see config.h). Every message names the field and says what is allowed.
#include "core/config.h"

#include "core/errors.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace normlab {
namespace {

constexpr int kMaxThreads = 1024;

void require(bool ok, const std::string& path, const std::string& message) {
    if (!ok) throw ConfigError(path, message);
}
std::string fmt(double x) {
    std::ostringstream s;
    s << x;
    return s.str();
}
std::string gib(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
    return buf;
}

}  // namespace

namespace {
// The code point at s[i] (UTF-8) and its length; invalid bytes are themselves.
std::pair<uint32_t, size_t> code_point(const std::string& s, size_t i) {
    const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char c = b(i);
    if (c < 0x80) return {c, 1};
    const size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    if (n == 1 || i + n > s.size()) return {c, 1};
    uint32_t cp = c & (0x7F >> n);
    for (size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return {c, 1};
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    return {cp, n};
}
bool unsafe(uint32_t cp) {
    return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x061C || cp == 0x200E || cp == 0x200F ||
           (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}
}  // namespace

std::string unsafe_name_character(const std::string& s) {
    for (size_t i = 0; i < s.size();) {
        auto [cp, n] = code_point(s, i);
        if (unsafe(cp)) {
            const char* what = cp == '\n' ? "a newline" : cp == '\r' ? "a carriage return" : cp == 0 ? "a NUL byte"
                               : cp == 0x1B ? "an escape (ESC)" : cp == '\t' ? "a tab" : cp >= 0x200E ? "an invisible text-direction mark"
                                                                                 : "a control character";
            char buf[96];
            std::snprintf(buf, sizeof buf, "%s (U+%04X) at byte %zu", what, static_cast<unsigned>(cp), i);
            return buf;
        }
        i += n;
    }
    return "";
}

void require_safe_name(const std::string& field, const std::string& value) {
    if (const std::string bad = unsafe_name_character(value); !bad.empty())
        throw ConfigError(field, "holds " + bad + "; a name is printed in tables and written into scripts, so it may"
                                 " hold no control or text-direction characters. Remove it.");
}

namespace {
std::string printable(const std::string& s, bool keep_lines) {
    std::string o;
    for (size_t i = 0; i < s.size();) {
        auto [cp, n] = code_point(s, i);
        if (unsafe(cp) && !(keep_lines && (cp == '\n' || cp == '\t'))) {
            char buf[16];
            if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(cp));
            else std::snprintf(buf, sizeof buf, "\\u{%04X}", static_cast<unsigned>(cp));
            o += buf;
        } else {
            o.append(s, i, n);
        }
        i += n;
    }
    return o;
}
}  // namespace

std::string printable_name(const std::string& s) { return printable(s, false); }
std::string printable_text(const std::string& s) { return printable(s, true); }

void validate(const RunConfig& c) {
    require_safe_name("name", c.name);
    const ModelConfig& m = c.model;
    require(m.vocab_size == 256, "model.vocab_size",
            std::to_string(m.vocab_size) + " is not supported; NormLab models bytes, so it must be 256");
    require(m.d_model >= 1 && m.d_model <= 16384, "model.d_model",
            std::to_string(m.d_model) + " is out of range; use 1 to 16384");
    require(m.n_heads >= 1, "model.n_heads", std::to_string(m.n_heads) + " must be at least 1");
    if (m.d_model % m.n_heads != 0) {
        // The nearest head counts that divide d_model, and the nearest widths n_heads divides.
        int below = 1, above = 0;
        for (int h = m.n_heads - 1; h >= 1; --h)
            if (m.d_model % h == 0) { below = h; break; }
        for (int h = m.n_heads + 1; h <= m.d_model; ++h)
            if (m.d_model % h == 0) { above = h; break; }
        std::string heads = std::to_string(below);
        if (above != 0) heads += " or " + std::to_string(above);
        const int lower = m.d_model / m.n_heads * m.n_heads, upper = lower + m.n_heads;
        std::string widths = lower >= m.n_heads ? std::to_string(lower) + " or " : std::string();
        widths += std::to_string(upper);
        throw ConfigError("model.n_heads", std::to_string(m.n_heads) + " does not divide d_model " +
                                               std::to_string(m.d_model) + "; choose n_heads " + heads +
                                               ", or d_model " + widths);
    }
    require(m.n_layers >= 1 && m.n_layers <= 512, "model.n_layers",
            std::to_string(m.n_layers) + " is out of range; use 1 to 512");
    require(m.d_ff >= 1 && m.d_ff <= 262144, "model.d_ff", std::to_string(m.d_ff) + " is out of range; use 1 to 262144");
    require(m.context >= 2 && m.context <= 65536, "model.context",
            std::to_string(m.context) + " is out of range; use 2 to 65536");
    require(m.dropout >= 0.0 && m.dropout < 1.0, "model.dropout", fmt(m.dropout) + " must be in [0, 1)");
    require(m.norm_eps > 0.0 && m.norm_eps <= 1.0, "model.norm_eps", fmt(m.norm_eps) + " must be in (0, 1]");
    require(m.init_std > 0.0 && m.init_std <= 10.0, "model.init_std",
            fmt(m.init_std) + " must be in (0, 10]; weights drawn wider than that overflow at once");
    if (m.positions == Positions::RoPE)
        require(m.head_dim() % 2 == 0, "model.positions",
                "RoPE needs an even head dimension; d_model/n_heads is " + std::to_string(m.head_dim()));
    if (m.deepnorm.alpha)
        require(*m.deepnorm.alpha > 0.0 && *m.deepnorm.alpha <= 1e3, "model.deepnorm.alpha",
                fmt(*m.deepnorm.alpha) + " must be in (0, 1000] (or null for (2N)^(1/4))");
    if (m.deepnorm.beta)
        require(*m.deepnorm.beta > 0.0 && *m.deepnorm.beta <= 1e3, "model.deepnorm.beta",
                fmt(*m.deepnorm.beta) + " must be in (0, 1000] (or null for (8N)^(-1/4))");
    require(m.branchnorm.T >= 1, "model.branchnorm.T",
            std::to_string(m.branchnorm.T) + " must be a positive number of steps");
    require(m.branchnorm.exp_k > 0.0 && m.branchnorm.exp_k <= 100.0, "model.branchnorm.exp_k",
            fmt(m.branchnorm.exp_k) + " must be in (0, 100]");
    require(m.branchnorm.sigmoid_u > 0.0 && m.branchnorm.sigmoid_u <= 1000.0, "model.branchnorm.sigmoid_u",
            fmt(m.branchnorm.sigmoid_u) + " must be in (0, 1000]");

    if (m.layout == Layout::NGPT) {
        const std::string why = " nGPT has no LayerNorm: every vector lives on the unit sphere; turn this off";
        require(!m.final_norm, "model.final_norm", "must be false with layout ngpt;" + why);
        require(!m.embed_scale, "model.embed_scale",
                "must be false with layout ngpt; its embeddings are unit vectors, scaling them leaves the sphere");
        require(!m.normformer.post_attn_norm, "model.normformer.post_attn_norm", "must be false with layout ngpt;" + why);
        require(!m.normformer.ffn_norm, "model.normformer.ffn_norm", "must be false with layout ngpt;" + why);
        require(!m.normformer.head_scale, "model.normformer.head_scale",
                "must be false with layout ngpt; nGPT scales queries and keys with s_qk instead");
        require(!m.normformer.res_scale, "model.normformer.res_scale",
                "must be false with layout ngpt; nGPT's residual is weighted by the eigen learning rates");
        require(!m.deepnorm.residual, "model.deepnorm.residual", "must be false with layout ngpt;" + why);
        require(!m.branchnorm.enabled, "model.branchnorm.enabled", "must be false with layout ngpt;" + why);
        require(!m.deepnorm.init, "model.deepnorm.init",
                "must be false with layout ngpt; nGPT initializes N(0, 1/sqrt(d)) and normalizes");
        require(m.activation == Activation::SwiGLU, "model.activation",
                "nGPT uses the gated MLP with s_u and s_v; set \"swiglu\"");
        require(m.positions == Positions::RoPE || m.positions == Positions::None, "model.positions",
                "nGPT has no absolute positions (they would leave the sphere); use \"rope\" or \"none\"");
        require(!m.bias, "model.bias", "nGPT has no biases; set false");
        require(m.dropout == 0.0, "model.dropout", "nGPT uses no dropout; set 0");
        require(m.ngpt.alpha_init > 0.0 && m.ngpt.alpha_init <= 10.0, "model.ngpt.alpha_init",
                fmt(m.ngpt.alpha_init) + " must be in (0, 10]");
        require(m.ngpt.eps > 0.0 && m.ngpt.eps < 1e-2, "model.ngpt.eps", fmt(m.ngpt.eps) + " must be in (0, 0.01)");
    }

    const OptimConfig& o = c.optim;
    const ScheduleConfig& s = o.schedule;
    if (s.kind == ScheduleKind::Ramp) {
        require(s.ramp_start >= 0.0 && s.ramp_start < 100.0, "optim.schedule.ramp_start",
                fmt(s.ramp_start) + " must be in [0, 100)");
        require(s.ramp_increment > 0.0 && s.ramp_increment <= 1.0, "optim.schedule.ramp_increment",
                fmt(s.ramp_increment) + " must be in (0, 1] (the rate grows by it every step)");
    } else {
        require(o.lr > 0.0 && o.lr < 100.0, "optim.lr", fmt(o.lr) + " must be in (0, 100)");
    }
    require(s.warmup >= 0, "optim.schedule.warmup", std::to_string(s.warmup) + " must be ≥ 0");
    require(s.min_lr_ratio >= 0.0 && s.min_lr_ratio <= 1.0, "optim.schedule.min_lr_ratio",
            fmt(s.min_lr_ratio) + " must be in [0, 1]");
    require(o.beta1 >= 0.0 && o.beta1 < 1.0, "optim.beta1", fmt(o.beta1) + " must be in [0, 1)");
    require(o.beta2 >= 0.0 && o.beta2 < 1.0, "optim.beta2", fmt(o.beta2) + " must be in [0, 1)");
    require(o.eps > 0.0 && o.eps <= 1.0, "optim.eps", fmt(o.eps) + " must be in (0, 1]");
    require(o.weight_decay >= 0.0 && o.weight_decay <= 100.0, "optim.weight_decay", fmt(o.weight_decay) + " must be in [0, 100]");
    require(o.momentum >= 0.0 && o.momentum < 1.0, "optim.momentum", fmt(o.momentum) + " must be in [0, 1)");
    require(o.grad_clip >= 0.0 && o.grad_clip <= 1e6, "optim.grad_clip",
            fmt(o.grad_clip) + " must be in [0, 1e6] (0 disables clipping)");

    const DataConfig& d = c.data;
    require(d.val_fraction > 0.0 && d.val_fraction <= 0.5, "data.val_fraction",
            fmt(d.val_fraction) + " must be in (0, 0.5]");
    if (d.source == DataSource::File)
        require(!d.path.empty(), "data.path", "is empty; the file source needs the path of a file to train on");
    if (d.source == DataSource::Markov) {
        const MarkovConfig& mk = d.markov;
        require(mk.order >= 1 && mk.order <= 8, "data.markov.order", std::to_string(mk.order) + " must be 1 to 8");
        require(mk.alphabet >= 2 && mk.alphabet <= 256, "data.markov.alphabet",
                std::to_string(mk.alphabet) + " must be 2 to 256");
        require(std::pow(static_cast<double>(mk.alphabet), mk.order) <= (1 << 20), "data.markov.alphabet",
                "alphabet^order is above 2^20 states; use a smaller alphabet or order");
        require(mk.concentration > 0.0 && mk.concentration <= 1e6, "data.markov.concentration",
                fmt(mk.concentration) + " must be in (0, 1e6]");
        require(mk.length >= 10 * static_cast<int64_t>(m.context) && mk.length <= (int64_t{1} << 31),
                "data.markov.length", std::to_string(mk.length) + " must be between 10×context and 2^31");
    }

    const TrainConfig& t = c.train;
    require(t.steps >= 1 && t.steps <= 1000000000, "train.steps", std::to_string(t.steps) + " must be 1 to 10^9");
    require(t.batch_size >= 1 && t.batch_size <= 65536, "train.batch_size",
            std::to_string(t.batch_size) + " must be 1 to 65536");
    const std::string& dev = t.device;
    require(dev == "auto" || dev == "cpu" || dev == "cuda" || dev.rfind("cuda:", 0) == 0, "train.device",
            "\"" + dev + "\" is not one of auto, cpu, cuda, cuda:N");
    require(t.threads >= 0 && t.threads <= kMaxThreads, "train.threads",
            std::to_string(t.threads) + " must be 0 to " + std::to_string(kMaxThreads) + " (0: all cores)");
    require(t.precision == "fp32" || t.precision == "tf32" || t.precision == "bf16", "train.precision",
            "\"" + t.precision + "\" is not one of fp32, tf32, bf16 (bf16: mixed precision with fp32 weights)");
    require(t.cuda_graph == "auto" || t.cuda_graph == "on" || t.cuda_graph == "off", "train.cuda_graph",
            "\"" + t.cuda_graph + "\" is not one of auto, on, off");
    require(t.cuda_graph != "on" || c.model.dropout == 0, "train.cuda_graph",
            "\"on\" needs model.dropout 0 (its masks are reseeded every step); use auto or off, or set dropout to 0");
    require(t.cuda_graph != "on" || c.optim.kind != OptimizerKind::SGD, "train.cuda_graph",
            "\"on\" needs Adam or AdamW (optim.kind is sgd); use auto or off");
    require(t.eval_every >= 0, "train.eval_every", std::to_string(t.eval_every) + " must be ≥ 0");
    require(t.eval_batches >= 1 && t.eval_batches <= 10000, "train.eval_batches",
            std::to_string(t.eval_batches) + " must be 1 to 10000");
    require(t.checkpoint_every >= 0, "train.checkpoint_every", std::to_string(t.checkpoint_every) + " must be ≥ 0");
    require(t.checkpoint_seconds >= 0.0 && t.checkpoint_seconds <= 86400.0, "train.checkpoint_seconds",
            fmt(t.checkpoint_seconds) + " must be 0 to 86400 seconds (0: by steps alone)");
    require(t.divergence.max_loss >= 0.0 && t.divergence.max_loss <= 1e6, "train.divergence.max_loss",
            fmt(t.divergence.max_loss) + " must be in [0, 1e6] (0: 2·ln(vocab))");
    require(t.divergence.margin > 0.0 && t.divergence.margin <= 1e6, "train.divergence.margin",
            fmt(t.divergence.margin) + " must be in (0, 1e6]");
    require(t.divergence.patience >= 1, "train.divergence.patience",
            std::to_string(t.divergence.patience) + " must be at least 1");

    const ProbeConfig& p = c.probes;
    for (auto [name, v] : std::array<std::pair<const char*, int>, 5>{
             {{"grads_every", p.grads_every}, {"forward_every", p.forward_every}, {"gains_every", p.gains_every},
              {"cond_every", p.cond_every}, {"expected_grad_batches", p.expected_grad_batches}}})
        require(v >= 0, std::string("probes.") + name, std::to_string(v) + " must be ≥ 0 (0 switches it off)");
    require(p.expected_grad_batches <= 10000, "probes.expected_grad_batches",
            std::to_string(p.expected_grad_batches) + " must be 0 to 10000");
    require(p.hist_bins >= 2 && p.hist_bins <= 1024, "probes.hist_bins",
            std::to_string(p.hist_bins) + " must be 2 to 1024");
}


MemoryEstimate estimate_memory(const RunConfig& c, bool fused_attention) {
    const ModelConfig& m = c.model;
    const double d = m.d_model, L = m.n_layers, ff = m.d_ff, T = m.context, V = m.vocab_size, H = m.n_heads;
    const double B = c.train.batch_size;
    const double fc1 = m.activation == Activation::SwiGLU ? 2 * ff : ff;
    const double per_layer = 4 * d * d + d * fc1 + ff * d + 16 * d + 2 * ff;
    const double params = L * per_layer + V * d * (m.tie_embeddings ? 1 : 2) + (m.positions == Positions::Learned ? T * d : 0);
    MemoryEstimate e;
    e.parameters = 4 * params;
    e.gradients = 4 * params;
    e.optimizer = 4 * params * (c.optim.kind == OptimizerKind::SGD ? 1 : 2);
    // Saved for the backward pass per layer: the residual stream, norms,
    // q/k/v, attention output, MLP input and hidden activations, and the
    // attention probabilities; plus logits and their gradient.
    // Fused attention (a GPU's scaled_dot_product_attention) keeps no
    // probabilities. In bf16 the matrix products' saved inputs are half as
    // wide: about half the activations of the LayerNorm schemes, measured on
    // an H100 at GPT-2 small's shape (13 GiB in use at batch 32 against 29
    // estimated for Pre-LN); nGPT's normalizations and updates stay fp32.
    const double tokens = B * T;
    const double attention = fused_attention ? 0 : 2 * B * H * T * T;
    const double narrow = c.train.precision == "bf16" && m.layout != Layout::NGPT ? 0.5 : 1.0;
    e.activations = 4 * (L * (narrow * tokens * (12 * d + 3 * fc1) + attention) + 3 * tokens * V);
    if (c.data.source == DataSource::Markov) e.data = static_cast<double>(c.data.markov.length);
    return e;
}

double available_memory() {
    std::ifstream f("/proc/meminfo");
    std::string key;
    double kb = 0;
    while (f >> key >> kb) {
        if (key == "MemAvailable:") return kb * 1024.0;
        f.ignore(256, '\n');
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<double>(pages) * page : 8.0 * (1u << 30);
}

void check_memory(const RunConfig& c, double budget, bool fused_attention) {
    if (budget < 0) budget = 0.9 * available_memory();
    const MemoryEstimate e = estimate_memory(c, fused_attention);
    if (e.total() <= budget) return;
    const double weights = e.parameters + e.gradients + e.optimizer;
    const std::string field = e.activations > weights ? "train.batch_size" : "model.d_model";
    throw ConfigError(field, "the run would need about " + gib(e.total()) + " (parameters " + gib(e.parameters) +
                                 ", gradients " + gib(e.gradients) + ", optimizer state " + gib(e.optimizer) +
                                 ", activations " + gib(e.activations) + ") but " + gib(budget) +
                                 " of memory is available; lower train.batch_size, model.context, model.d_model,"
                                 " model.d_ff or model.n_layers");
}

}  // namespace normlab
