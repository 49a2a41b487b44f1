// NormLab core: the run configuration.
//
// One plain struct per concern (model, optimizer, data, training, probes),
// gathered in RunConfig, which travels with the run: it is stored as JSON in
// the run row and in every checkpoint. Normalization is a set of independent
// components; a *scheme* (Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm,
// nGPT) is only a named preset of them, applied before the user's own values,
// so any single component can be changed afterwards (the papers' ablations).
//
// Equations, initializations and defaults: docs/SCHEMES.md
// and docs/CONFIG.md. No LibTorch here, so the GUI can include it freely.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

enum class Scheme { PostLN, PreLN, NormFormer, DeepNorm, BranchNorm, NGPT };
enum class Layout { Post, Pre, NGPT };              // where normalization sits in a block
enum class Activation { GELU, ReLU, SwiGLU };
enum class Positions { Learned, Sinusoidal, RoPE, None };
enum class NormKind { LayerNorm, RMSNorm };
enum class InitKind { Normal, Xavier };             // GPT-2 N(0, 0.02) or Xavier (Vaswani/Xiong)
enum class HeadScalePlacement { BeforeOutProj, AfterOutProj };
enum class BranchSchedule { Linear, Exp, Sigmoid };
enum class OptimizerKind { Adam, AdamW, SGD };
enum class ScheduleKind { Constant, InverseSqrt, Linear, Cosine, Ramp };
enum class DataSource { Corpus, File, Markov };

const std::vector<Scheme>& all_schemes();
std::string scheme_name(Scheme s);                  // "post_ln", "pre_ln", ...
std::string scheme_title(Scheme s);                 // "Post-LN", "Pre-LN", ...
Scheme parse_scheme(const std::string& name);       // throws ConfigError("scheme", ...)

// NormFormer's four extra operations (Shleifer et al.), each its own toggle.
struct NormFormerConfig {
    bool head_scale = false;        // γ ∈ R^H, init 1, per attention head
    HeadScalePlacement head_scale_placement = HeadScalePlacement::BeforeOutProj;
    bool post_attn_norm = false;    // LN over d after the attention output projection
    bool ffn_norm = false;          // LN over d_ff after the FC1 activation
    bool res_scale = false;         // λ ∈ R^d, init 1, on the MLP residual: x ← λ⊙x + f
};

// DeepNorm (Wang et al.): x ← LN(α·x + F(x)), β-gain Xavier init of W_v, W_O, FC1, FC2.
struct DeepNormConfig {
    bool residual = false;          // multiply the residual by α
    std::optional<double> alpha;    // unset: (2N)^(1/4)
    bool init = false;              // β-scaled init
    std::optional<double> beta;     // unset: (8N)^(-1/4)
};

// BranchNorm (Liu et al.): x ← LN(x + α_t·F(x)), α_t rising from 0 to 1 over T steps.
struct BranchNormConfig {
    bool enabled = false;
    BranchSchedule schedule = BranchSchedule::Linear;
    int T = 4000;                   // steps until α_t = 1
    double exp_k = 5.0;             // sharpness of the (lab-defined) exponential schedule
    double sigmoid_u = 10.0;        // slope of the (lab-defined) sigmoid schedule
    // Lab-defined: the optimizer's step of F's parameters (each block's attention and MLP) scaled
    // by α_t too. The paper scales F's output, and so its gradient, by α_t, which slows SGD's step
    // but not Adam's (its step does not shrink with the gradient); this makes Adam's shrink alike.
    bool scale_updates = false;
};

// nGPT (Loshchilov et al.): the unit-hypersphere transformer.
struct NGPTConfig {
    bool qk_norm = true;            // q, k ← s_qk ⊙ norm(q|k); off keeps s_qk without norm
    bool eigen_lr = true;           // α_A, α_M learned; off: fixed at their init 0.05
    bool scalers = true;            // s_qk, s_u, s_v, s_z learned; off: fixed at 1
    bool renormalize = true;        // renormalize weights after every optimizer step
    double alpha_init = 0.05;       // s_init of α_A and α_M
    double eps = 1e-8;              // added to ‖x‖ in norm(x) (the reference has none)
};

struct ModelConfig {
    int vocab_size = 256;           // bytes
    int d_model = 128;
    int n_layers = 4;
    int n_heads = 4;
    int d_ff = 512;
    int context = 128;
    double dropout = 0.0;
    Activation activation = Activation::GELU;
    Positions positions = Positions::Learned;
    bool tie_embeddings = true;
    bool embed_scale = false;       // token embeddings × √d (Vaswani §3.4; fairseq, which Xiong et al. used)
    NormKind norm = NormKind::LayerNorm;
    double norm_eps = 1e-5;
    bool bias = true;
    InitKind init = InitKind::Normal;
    double init_std = 0.02;

    Layout layout = Layout::Pre;
    bool final_norm = true;         // LN before the output layer (Pre-LN family)
    NormFormerConfig normformer;
    DeepNormConfig deepnorm;
    BranchNormConfig branchnorm;
    NGPTConfig ngpt;

    int head_dim() const { return d_model / n_heads; }
    double deepnorm_alpha() const;  // resolved α (1 when the residual toggle is off)
    double deepnorm_beta() const;   // resolved β
};

struct ScheduleConfig {
    ScheduleKind kind = ScheduleKind::Cosine;
    int warmup = 50;                // linear warm-up steps (0: none)
    double min_lr_ratio = 0.1;      // floor of linear/cosine decay, as a fraction of lr
    double ramp_start = 0.0;        // LR stability ramp: lr(t) = ramp_start + t·ramp_increment
    double ramp_increment = 5e-5;
};

struct OptimConfig {
    OptimizerKind kind = OptimizerKind::AdamW;
    double lr = 1e-3;
    double beta1 = 0.9;
    double beta2 = 0.98;
    double eps = 1e-8;
    double weight_decay = 0.01;     // never applied to norms, biases, scalers, gains
    double momentum = 0.9;          // SGD
    bool nesterov = false;          // SGD
    double grad_clip = 1.0;         // global L2 norm; 0 disables
    ScheduleConfig schedule;
};

struct MarkovConfig {
    int order = 2;                  // k: next symbol depends on the previous k
    int alphabet = 16;              // symbols, written as bytes 'a', 'b', ...
    double concentration = 0.3;     // Dirichlet concentration of each transition row
    int64_t length = 1000000;       // bytes generated
    uint64_t seed = 1234;           // chain seed (independent of the training seed)
};

struct DataConfig {
    DataSource source = DataSource::Corpus;
    std::string path;               // file source: the file; corpus: a directory override
    double val_fraction = 0.1;      // the last fraction of the bytes is validation
    MarkovConfig markov;
};

struct DivergenceConfig {
    double max_loss = 0.0;          // 0: 2·ln(vocab_size)
    double margin = 3.0;            // nats above the best loss seen ...
    int patience = 20;              // ... for this many consecutive steps
};

struct TrainConfig {
    int steps = 500;
    int batch_size = 16;
    uint64_t seed = 1;
    std::string device = "auto";    // auto | cpu | cuda | cuda:N
    int threads = 0;                // 0: all cores
    std::string precision = "fp32"; // fp32 | tf32 | bf16 (core/train/precision.h)
    std::string cuda_graph = "auto"; // auto | on | off: the step captured as a CUDA graph (core/train/static_step.h);
                                     // auto: on a CUDA device when the run allows it and memory suffices
                                     // (measured on an H200: docs/GPU.md); on: always that step (on a CPU
                                     // run eagerly: what the tests compare); off: the ordinary step
    int eval_every = 100;           // validation loss interval (0: only at the end)
    int eval_batches = 4;
    int checkpoint_every = 0;       // also every N steps (0: by time alone)
    double checkpoint_seconds = 60; // a checkpoint this often in wall time (0: off), stretched so that writing
                                    // checkpoints costs at most 2% of training; always one at the end
    DivergenceConfig divergence;
};

// Probe intervals in steps; 0 switches a probe off. Train loss, learning rate,
// tokens/s and the global gradient norm are recorded every step regardless.
struct ProbeConfig {
    int grads_every = 10;           // per-layer, per-weight gradient L1 (mean |g|) and L2 norms
    int forward_every = 10;         // hidden-state norms, attention max logit, sparsity, cosine
    int gains_every = 50;           // distributions of every learned gain and scaler
    int cond_every = 100;           // condition numbers (SVD)
    int hist_bins = 32;
    int expected_grad_batches = 0;  // >0: at step 0, gradient averaged over this many batches
};

struct RunConfig {
    std::string name = "run";
    Scheme scheme = Scheme::PreLN;
    ModelConfig model;
    OptimConfig optim;
    DataConfig data;
    TrainConfig train;
    ProbeConfig probes;
};

// Sets the normalization components (and the few training defaults a paper
// prescribes, e.g. nGPT's no weight decay and no warm-up) of a scheme.
// Sets what the scheme's preset defines — exactly the fields preset_fields(s)
// names (docs/CONFIG.md) — and nothing else.
void apply_scheme(RunConfig& cfg, Scheme s);
// The JSON paths apply_scheme(cfg, s) sets (whole groups for the components).
const std::vector<std::string>& preset_fields(Scheme s);
// The scheme's title and every component switched against its preset:
// "NormFormer −HeadScale", "Pre-LN +ResScale" (core/run_name.cpp).
std::string run_name_from_differences(const RunConfig& cfg);

// Full JSON of a configuration: every field, so a stored run is self-describing.
nlohmann::json to_json(const RunConfig& cfg);

// Defaults → scheme preset (the "scheme" field, default pre_ln) → the fields
// given. Unknown fields and wrong types throw ConfigError with the field path.
RunConfig run_config_from_json(const nlohmann::json& j);

// Throws ConfigError naming the field and what is allowed.
// Every field's type was checked when it was read; this checks ranges and
// combinations, naming the field. Throws ConfigError.
void validate(const RunConfig& cfg);

// The first character of `s` that must not be in a name a user gives (run,
// experiment, variant, tag): a control character (newline, ESC, NUL, DEL,
// C1) or an invisible direction override (U+202A-U+202E, U+2066-U+2069,
// U+200E/F, U+061C) - described as "a newline (U+000A) at byte 3"; "" if none.
std::string unsafe_name_character(const std::string& s);
// Throws ConfigError(field, ...) when unsafe_name_character(value) finds one.
void require_safe_name(const std::string& field, const std::string& value);
// `s` with every such character written as \xNN or \u{NNNN}: safe to print on a terminal.
std::string printable_name(const std::string& s);
// The same, keeping newlines and tabs: for a message of several lines (an error's).
std::string printable_text(const std::string& s);

// Memory a training run needs (bytes, float32), for refusing runs that
// cannot fit before anything is created.
struct MemoryEstimate {
    double parameters = 0, gradients = 0, optimizer = 0, activations = 0, data = 0;
    double total() const { return parameters + gradients + optimizer + activations + data; }
};
// fused_attention: the attention keeps no (B, H, T, T) probabilities (a GPU
// with LibTorch ≥ 2.1).
MemoryEstimate estimate_memory(const RunConfig& cfg, bool fused_attention = false);
// Bytes of memory available to a new process (MemAvailable, else physical memory).
double available_memory();
// Throws ConfigError naming the field to reduce when the estimate exceeds
// `budget` bytes (available_memory() when negative).
void check_memory(const RunConfig& cfg, double budget = -1, bool fused_attention = false);

// DeepNorm constants for an N-layer decoder.
double deepnorm_alpha_for(int n_layers);  // (2N)^(1/4)
double deepnorm_beta_for(int n_layers);   // (8N)^(-1/4)

// BranchNorm α_t after `step` optimizer steps (step 0 is the first forward).
double branchnorm_alpha(const BranchNormConfig& b, int64_t step);

// Learning rate for optimizer step `step` (1-based: the first update is step 1).
double learning_rate(const OptimConfig& o, int total_steps, int64_t step);

}  // namespace normlab
