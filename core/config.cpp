// NormLab core: configuration JSON, scheme presets, validation, schedules.
//
// Reading and writing share one description of every struct (`visit`), so a
// field cannot be written without also being readable, and the reader can name
// unknown fields with a suggestion.
#include "core/config.h"
#include "core/nearest.h"

#include "core/errors.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>

namespace normlab {
namespace {

using nlohmann::json;

// ---- enum names -------------------------------------------------------------
template <class E> struct EnumNames;
#define NORMLAB_ENUM_NAMES(E, ...)                                             \
    template <> struct EnumNames<E> {                                          \
        static const std::vector<std::pair<E, const char*>>& list() {          \
            static const std::vector<std::pair<E, const char*>> l{__VA_ARGS__}; \
            return l;                                                          \
        }                                                                      \
    };
NORMLAB_ENUM_NAMES(Layout, {Layout::Post, "post"}, {Layout::Pre, "pre"}, {Layout::NGPT, "ngpt"})
NORMLAB_ENUM_NAMES(Activation, {Activation::GELU, "gelu"}, {Activation::ReLU, "relu"},
                   {Activation::SwiGLU, "swiglu"})
NORMLAB_ENUM_NAMES(Positions, {Positions::Learned, "learned"}, {Positions::Sinusoidal, "sinusoidal"},
                   {Positions::RoPE, "rope"}, {Positions::None, "none"})
NORMLAB_ENUM_NAMES(NormKind, {NormKind::LayerNorm, "layernorm"}, {NormKind::RMSNorm, "rmsnorm"})
NORMLAB_ENUM_NAMES(InitKind, {InitKind::Normal, "normal"}, {InitKind::Xavier, "xavier"})
NORMLAB_ENUM_NAMES(HeadScalePlacement, {HeadScalePlacement::BeforeOutProj, "before_out_proj"},
                   {HeadScalePlacement::AfterOutProj, "after_out_proj"})
NORMLAB_ENUM_NAMES(BranchSchedule, {BranchSchedule::Linear, "linear"}, {BranchSchedule::Exp, "exp"},
                   {BranchSchedule::Sigmoid, "sigmoid"})
NORMLAB_ENUM_NAMES(OptimizerKind, {OptimizerKind::Adam, "adam"}, {OptimizerKind::AdamW, "adamw"},
                   {OptimizerKind::SGD, "sgd"})
NORMLAB_ENUM_NAMES(ScheduleKind, {ScheduleKind::Constant, "constant"},
                   {ScheduleKind::InverseSqrt, "inverse_sqrt"}, {ScheduleKind::Linear, "linear"},
                   {ScheduleKind::Cosine, "cosine"}, {ScheduleKind::Ramp, "ramp"})
NORMLAB_ENUM_NAMES(DataSource, {DataSource::Corpus, "corpus"}, {DataSource::File, "file"},
                   {DataSource::Markov, "markov"})
NORMLAB_ENUM_NAMES(Scheme, {Scheme::PostLN, "post_ln"}, {Scheme::PreLN, "pre_ln"},
                   {Scheme::NormFormer, "normformer"}, {Scheme::DeepNorm, "deepnorm"},
                   {Scheme::BranchNorm, "branchnorm"}, {Scheme::NGPT, "ngpt"})
#undef NORMLAB_ENUM_NAMES

template <class E> std::string enum_choices() {
    std::string s;
    for (auto& [e, n] : EnumNames<E>::list()) s += (s.empty() ? "" : ", ") + std::string(n);
    return s;
}
template <class E> const char* enum_name(E v) {
    for (auto& [e, n] : EnumNames<E>::list())
        if (e == v) return n;
    return "?";
}
std::string canonical(std::string s) {
    for (auto& c : s) c = (c == '-' || c == ' ') ? '_' : static_cast<char>(std::tolower(c));
    return s;
}
template <class E> E parse_enum(const std::string& path, const std::string& text) {
    const std::string c = canonical(text);
    for (auto& [e, n] : EnumNames<E>::list())
        if (c == n) return e;
    throw ConfigError(path, "\"" + text + "\" is not one of " + enum_choices<E>());
}

std::string type_name(const json& v) {
    if (v.is_string()) return "the string \"" + v.get<std::string>() + "\"";
    if (v.is_null()) return "null";
    return std::string(v.type_name()) + " " + v.dump();
}

// ---- the two visitors -------------------------------------------------------
struct Writer {
    json& out;
    void operator()(const char* key, const int& v) { out[key] = v; }
    void operator()(const char* key, const int64_t& v) { out[key] = v; }
    void operator()(const char* key, const uint64_t& v) { out[key] = v; }
    void operator()(const char* key, const double& v) { out[key] = v; }
    void operator()(const char* key, const bool& v) { out[key] = v; }
    void operator()(const char* key, const std::string& v) { out[key] = v; }
    void operator()(const char* key, const std::optional<double>& v) {
        out[key] = v ? json(*v) : json(nullptr);
    }
    template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
    void operator()(const char* key, const E& v) { out[key] = enum_name(v); }
    template <class S, class F> void group(const char* key, const S& s, F&& fields) {
        json sub = json::object();
        Writer w{sub};
        fields(w, const_cast<S&>(s));
        out[key] = sub;
    }
};

struct Reader {
    const json& in;
    std::string path;               // of `in`, "" at the top
    std::vector<std::string> known;

    std::string child(const char* key) const { return path.empty() ? key : path + "." + key; }
    const json* find(const char* key) {
        known.emplace_back(key);
        auto it = in.find(key);
        return it == in.end() ? nullptr : &*it;
    }
    void operator()(const char* key, int& v) {
        if (auto* j = find(key)) v = static_cast<int>(integer(key, *j, std::numeric_limits<int>::min(),
                                                              std::numeric_limits<int>::max()));
    }
    void operator()(const char* key, int64_t& v) {
        if (auto* j = find(key)) v = integer(key, *j, std::numeric_limits<int64_t>::min(),
                                             std::numeric_limits<int64_t>::max());
    }
    void operator()(const char* key, uint64_t& v) {
        if (auto* j = find(key)) {
            if (j->is_number_unsigned()) v = j->get<uint64_t>();
            else v = static_cast<uint64_t>(integer(key, *j, 0, std::numeric_limits<int64_t>::max()));
        }
    }
    void operator()(const char* key, double& v) {
        if (auto* j = find(key)) v = number(key, *j);
    }
    void operator()(const char* key, std::optional<double>& v) {
        if (auto* j = find(key)) {
            if (j->is_null()) v.reset();
            else v = number(key, *j);
        }
    }
    void operator()(const char* key, bool& v) {
        if (auto* j = find(key)) {
            if (!j->is_boolean()) throw ConfigError(child(key), "expected true or false, got " + type_name(*j));
            v = j->get<bool>();
        }
    }
    void operator()(const char* key, std::string& v) {
        if (auto* j = find(key)) {
            if (!j->is_string()) throw ConfigError(child(key), "expected a string, got " + type_name(*j));
            v = j->get<std::string>();
        }
    }
    template <class E, class = std::enable_if_t<std::is_enum_v<E>>>
    void operator()(const char* key, E& v) {
        if (auto* j = find(key)) {
            if (!j->is_string())
                throw ConfigError(child(key), "expected one of " + enum_choices<E>() + ", got " + type_name(*j));
            v = parse_enum<E>(child(key), j->get<std::string>());
        }
    }
    template <class S, class F> void group(const char* key, S& s, F&& fields) {
        if (auto* j = find(key)) {
            if (!j->is_object()) throw ConfigError(child(key), "expected an object {...}, got " + type_name(*j));
            Reader r{*j, child(key), {}};
            fields(r, s);
            r.finish();
        }
    }
    int64_t integer(const char* key, const json& j, int64_t lo, int64_t hi) {
        if (j.is_number_integer() || j.is_number_unsigned()) {
            if (j.is_number_unsigned() && j.get<uint64_t>() > static_cast<uint64_t>(hi))
                throw ConfigError(child(key), j.dump() + " is too large");
            int64_t x = j.get<int64_t>();
            if (x < lo || x > hi) throw ConfigError(child(key), j.dump() + " is out of range");
            return x;
        }
        if (j.is_number_float()) {
            // 64.0 is the integer 64; 64.5, 1e300 and -1.0 for a count are not silently made to fit.
            const double d = j.get<double>();
            if (std::isfinite(d) && std::floor(d) == d) {
                if (d < static_cast<double>(lo) || d > static_cast<double>(hi) || std::abs(d) >= 9.007199254740992e15)
                    throw ConfigError(child(key), j.dump() + " is out of range for an integer here (" +
                                                      std::to_string(lo) + " to " + std::to_string(hi) + ")");
                return static_cast<int64_t>(d);
            }
        }
        throw ConfigError(child(key), "expected an integer, got " + type_name(j));
    }
    double number(const char* key, const json& j) {
        if (!j.is_number()) throw ConfigError(child(key), "expected a number, got " + type_name(j));
        const double d = j.get<double>();
        if (!std::isfinite(d)) throw ConfigError(child(key), "must be a finite number");
        return d;
    }
    // Unknown keys are errors: a typo must not silently fall back to a default.
    void finish() {
        for (auto it = in.begin(); it != in.end(); ++it) {
            if (std::find(known.begin(), known.end(), it.key()) != known.end()) continue;
            const std::string best = nearest(it.key(), known);
            std::string msg = "unknown field";
            if (!best.empty()) msg += "; did you mean \"" + best + "\"?";
            else {
                msg += "; known fields here: ";
                for (size_t i = 0; i < known.size(); ++i) msg += (i ? ", " : "") + known[i];
            }
            throw ConfigError(child(it.key().c_str()), msg);
        }
    }
};

// ---- the one description of every struct -----------------------------------
template <class V> void fields(V& v, NormFormerConfig& s) {
    v("head_scale", s.head_scale);
    v("head_scale_placement", s.head_scale_placement);
    v("post_attn_norm", s.post_attn_norm);
    v("ffn_norm", s.ffn_norm);
    v("res_scale", s.res_scale);
}
template <class V> void fields(V& v, DeepNormConfig& s) {
    v("residual", s.residual);
    v("alpha", s.alpha);
    v("init", s.init);
    v("beta", s.beta);
}
template <class V> void fields(V& v, BranchNormConfig& s) {
    v("enabled", s.enabled);
    v("schedule", s.schedule);
    v("T", s.T);
    v("exp_k", s.exp_k);
    v("sigmoid_u", s.sigmoid_u);
    v("scale_updates", s.scale_updates);
}
template <class V> void fields(V& v, NGPTConfig& s) {
    v("qk_norm", s.qk_norm);
    v("eigen_lr", s.eigen_lr);
    v("scalers", s.scalers);
    v("renormalize", s.renormalize);
    v("alpha_init", s.alpha_init);
    v("eps", s.eps);
}
template <class V> void fields(V& v, ModelConfig& s) {
    v("vocab_size", s.vocab_size);
    v("d_model", s.d_model);
    v("n_layers", s.n_layers);
    v("n_heads", s.n_heads);
    v("d_ff", s.d_ff);
    v("context", s.context);
    v("dropout", s.dropout);
    v("activation", s.activation);
    v("positions", s.positions);
    v("tie_embeddings", s.tie_embeddings);
    v("embed_scale", s.embed_scale);
    v("norm", s.norm);
    v("norm_eps", s.norm_eps);
    v("bias", s.bias);
    v("init", s.init);
    v("init_std", s.init_std);
    v("layout", s.layout);
    v("final_norm", s.final_norm);
    v.group("normformer", s.normformer, [](auto& w, auto& x) { fields(w, x); });
    v.group("deepnorm", s.deepnorm, [](auto& w, auto& x) { fields(w, x); });
    v.group("branchnorm", s.branchnorm, [](auto& w, auto& x) { fields(w, x); });
    v.group("ngpt", s.ngpt, [](auto& w, auto& x) { fields(w, x); });
}
template <class V> void fields(V& v, ScheduleConfig& s) {
    v("kind", s.kind);
    v("warmup", s.warmup);
    v("min_lr_ratio", s.min_lr_ratio);
    v("ramp_start", s.ramp_start);
    v("ramp_increment", s.ramp_increment);
}
template <class V> void fields(V& v, OptimConfig& s) {
    v("kind", s.kind);
    v("lr", s.lr);
    v("beta1", s.beta1);
    v("beta2", s.beta2);
    v("eps", s.eps);
    v("weight_decay", s.weight_decay);
    v("momentum", s.momentum);
    v("nesterov", s.nesterov);
    v("grad_clip", s.grad_clip);
    v.group("schedule", s.schedule, [](auto& w, auto& x) { fields(w, x); });
}
template <class V> void fields(V& v, MarkovConfig& s) {
    v("order", s.order);
    v("alphabet", s.alphabet);
    v("concentration", s.concentration);
    v("length", s.length);
    v("seed", s.seed);
}
template <class V> void fields(V& v, DataConfig& s) {
    v("source", s.source);
    v("path", s.path);
    v("val_fraction", s.val_fraction);
    v.group("markov", s.markov, [](auto& w, auto& x) { fields(w, x); });
}
template <class V> void fields(V& v, DivergenceConfig& s) {
    v("max_loss", s.max_loss);
    v("margin", s.margin);
    v("patience", s.patience);
}
template <class V> void fields(V& v, TrainConfig& s) {
    v("steps", s.steps);
    v("batch_size", s.batch_size);
    v("seed", s.seed);
    v("device", s.device);
    v("threads", s.threads);
    v("precision", s.precision);
    v("cuda_graph", s.cuda_graph);
    v("eval_every", s.eval_every);
    v("eval_batches", s.eval_batches);
    v("checkpoint_every", s.checkpoint_every);
    v("checkpoint_seconds", s.checkpoint_seconds);
    v.group("divergence", s.divergence, [](auto& w, auto& x) { fields(w, x); });
}
template <class V> void fields(V& v, ProbeConfig& s) {
    v("grads_every", s.grads_every);
    v("forward_every", s.forward_every);
    v("gains_every", s.gains_every);
    v("cond_every", s.cond_every);
    v("hist_bins", s.hist_bins);
    v("expected_grad_batches", s.expected_grad_batches);
}
// Everything but "scheme", which is read first because it picks the preset.
template <class V> void fields(V& v, RunConfig& s) {
    v("name", s.name);
    v.group("model", s.model, [](auto& w, auto& x) { fields(w, x); });
    v.group("optim", s.optim, [](auto& w, auto& x) { fields(w, x); });
    v.group("data", s.data, [](auto& w, auto& x) { fields(w, x); });
    v.group("train", s.train, [](auto& w, auto& x) { fields(w, x); });
    v.group("probes", s.probes, [](auto& w, auto& x) { fields(w, x); });
}

}  // namespace

const std::vector<Scheme>& all_schemes() {
    static const std::vector<Scheme> s{Scheme::PostLN, Scheme::PreLN, Scheme::NormFormer,
                                       Scheme::DeepNorm, Scheme::BranchNorm, Scheme::NGPT};
    return s;
}
std::string scheme_name(Scheme s) { return enum_name(s); }
std::string scheme_title(Scheme s) {
    switch (s) {
        case Scheme::PostLN: return "Post-LN";
        case Scheme::PreLN: return "Pre-LN";
        case Scheme::NormFormer: return "NormFormer";
        case Scheme::DeepNorm: return "DeepNorm";
        case Scheme::BranchNorm: return "BranchNorm";
        case Scheme::NGPT: return "nGPT";
    }
    return "?";
}
Scheme parse_scheme(const std::string& name) { return parse_enum<Scheme>("scheme", name); }

double deepnorm_alpha_for(int n) { return std::pow(2.0 * n, 0.25); }
double deepnorm_beta_for(int n) { return std::pow(8.0 * n, -0.25); }
double ModelConfig::deepnorm_alpha() const {
    if (!deepnorm.residual) return 1.0;
    return deepnorm.alpha ? *deepnorm.alpha : deepnorm_alpha_for(n_layers);
}
double ModelConfig::deepnorm_beta() const {
    return deepnorm.beta ? *deepnorm.beta : deepnorm_beta_for(n_layers);
}

double branchnorm_alpha(const BranchNormConfig& b, int64_t step) {
    if (!b.enabled) return 1.0;
    if (b.T <= 0 || step >= b.T) return 1.0;
    const double r = std::max<double>(0.0, static_cast<double>(step) / b.T);
    switch (b.schedule) {
        case BranchSchedule::Linear: return std::min(1.0, r);
        case BranchSchedule::Exp:
            return std::min(1.0, (1.0 - std::exp(-b.exp_k * r)) / (1.0 - std::exp(-b.exp_k)));
        case BranchSchedule::Sigmoid: {
            auto sig = [](double z) { return 1.0 / (1.0 + std::exp(-z)); };
            const double lo = sig(-0.5 * b.sigmoid_u), hi = sig(0.5 * b.sigmoid_u);
            return std::clamp((sig(b.sigmoid_u * (r - 0.5)) - lo) / (hi - lo), 0.0, 1.0);
        }
    }
    return 1.0;
}

double learning_rate(const OptimConfig& o, int total_steps, int64_t step) {
    const auto& s = o.schedule;
    const double t = static_cast<double>(std::max<int64_t>(step, 1));
    if (s.kind == ScheduleKind::Ramp) return s.ramp_start + s.ramp_increment * t;
    if (s.warmup > 0 && t <= s.warmup) return o.lr * t / s.warmup;
    const double floor = o.lr * s.min_lr_ratio;
    const double span = std::max(1.0, static_cast<double>(total_steps - s.warmup));
    const double progress = std::clamp((t - s.warmup) / span, 0.0, 1.0);
    switch (s.kind) {
        case ScheduleKind::Constant: return o.lr;
        case ScheduleKind::InverseSqrt: return o.lr * std::sqrt(std::max(1, s.warmup) / t);
        case ScheduleKind::Linear: return floor + (o.lr - floor) * (1.0 - progress);
        case ScheduleKind::Cosine: return floor + (o.lr - floor) * 0.5 * (1.0 + std::cos(M_PI * progress));
        case ScheduleKind::Ramp: break;
    }
    return o.lr;
}

const std::vector<std::string>& preset_fields(Scheme s) {
    static const std::vector<std::string> common{"model.layout",     "model.final_norm", "model.normformer",
                                                 "model.deepnorm",   "model.branchnorm", "model.ngpt"};
    static const std::vector<std::string> ngpt = [] {
        std::vector<std::string> v = common;
        for (const char* p : {"model.activation", "model.positions", "model.bias", "model.tie_embeddings",
                              "model.dropout", "optim.weight_decay", "optim.schedule.warmup", "optim.schedule.kind",
                              "optim.schedule.min_lr_ratio"})
            v.emplace_back(p);
        return v;
    }();
    return s == Scheme::NGPT ? ngpt : common;
}

void apply_scheme(RunConfig& cfg, Scheme s) {
    cfg.scheme = s;
    ModelConfig& m = cfg.model;
    m.normformer = NormFormerConfig{};
    m.deepnorm = DeepNormConfig{};
    m.branchnorm = BranchNormConfig{};
    m.ngpt = NGPTConfig{};
    switch (s) {
        case Scheme::PostLN:
            m.layout = Layout::Post;
            m.final_norm = false;
            break;
        case Scheme::PreLN:
            m.layout = Layout::Pre;
            m.final_norm = true;
            break;
        case Scheme::NormFormer:
            m.layout = Layout::Pre;
            m.final_norm = true;
            m.normformer.head_scale = m.normformer.post_attn_norm = m.normformer.ffn_norm = true;
            break;
        case Scheme::DeepNorm:
            m.layout = Layout::Post;
            m.final_norm = false;
            m.deepnorm.residual = m.deepnorm.init = true;
            break;
        case Scheme::BranchNorm:
            m.layout = Layout::Post;
            m.final_norm = false;
            m.branchnorm.enabled = true;
            m.deepnorm.init = true;  // "initialized following DeepNorm"; residual weight stays 1
            break;
        case Scheme::NGPT:
            m.layout = Layout::NGPT;
            m.final_norm = false;
            m.activation = Activation::SwiGLU;
            m.positions = Positions::RoPE;
            m.bias = false;
            m.tie_embeddings = false;
            m.dropout = 0.0;
            cfg.optim.weight_decay = 0.0;
            cfg.optim.schedule.warmup = 0;
            cfg.optim.schedule.kind = ScheduleKind::Cosine;
            cfg.optim.schedule.min_lr_ratio = 0.0;
            break;
    }
}

nlohmann::json to_json(const RunConfig& cfg) {
    json out = json::object();
    out["scheme"] = scheme_name(cfg.scheme);
    Writer w{out};
    fields(w, const_cast<RunConfig&>(cfg));
    return out;
}

RunConfig run_config_from_json(const nlohmann::json& j) {
    if (!j.is_object()) throw ConfigError("", "a run configuration must be a JSON object {...}");
    RunConfig cfg;
    Scheme s = Scheme::PreLN;
    if (auto it = j.find("scheme"); it != j.end()) {
        if (!it->is_string())
            throw ConfigError("scheme", "expected one of " + enum_choices<Scheme>() + ", got " + type_name(*it));
        s = parse_scheme(it->get<std::string>());
    }
    apply_scheme(cfg, s);
    Reader r{j, "", {"scheme"}};
    fields(r, cfg);
    r.finish();
    return cfg;
}

}  // namespace normlab
