// NormLab core: the decoder-only byte language model with switchable normalization.
//
// Covers, as independent components of one model: Post-LN and Pre-LN
// placement (Xiong et al. 2020), NormFormer's HeadScale, post-attention LN,
// FFN LN and ResScale (Shleifer et al.), DeepNorm's residual α and β-gain
// init (Wang et al.), BranchNorm's scheduled branch factor α_t (Liu et al.)
// and nGPT's hypersphere block with eigen learning rates and scalers
// (Loshchilov et al.). Equations, initialization, defaults: docs/SCHEMES.md.
// Parameter names are part of the file formats (checkpoints, safetensors):
// docs/WEIGHTS.md lists them.
//
// Only LibTorch translation units include this header.
#pragma once

#include "core/config.h"
#include "core/model/fused_ops.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace normlab {

// LayerNorm or RMSNorm over the last dimension, with a learned gain γ (and
// bias β for LayerNorm). γ = 1, β = 0 at init.
struct NormImpl : torch::nn::Module {
    NormImpl(int64_t dim, NormKind kind, double eps);
    torch::Tensor forward(const torch::Tensor& x);
    NormKind kind;
    double eps;
    int64_t dim;
    torch::Tensor weight, bias;
};
TORCH_MODULE(Norm);

// What a forward pass records for the probes when asked (0-d tensors, one per
// layer, kept on the device until the trainer reads them in one transfer).
struct ForwardCapture {
    std::vector<torch::Tensor> hidden_norm;     // mean over tokens of ‖x_l‖₂
    std::vector<torch::Tensor> hidden_sq;       // mean over tokens of ‖x_l‖²/d
    std::vector<torch::Tensor> cos_prev;        // mean cos(x_{l-1}, x_l), x_{-1} = embedding output
    std::vector<torch::Tensor> cos_tokens;      // mean over sequences of the mean cos(x_l[t], x_l[t']), t ≠ t'
    std::vector<torch::Tensor> max_logit;       // largest scaled q·k over allowed positions
    std::vector<torch::Tensor> act_active;      // share of MLP activations > 0
    // Post-LN's layouts (Post-LN, DeepNorm, BranchNorm), per block: what enters the
    // LayerNorm after attention (…_attn) and after the MLP (…_mlp), s = λ ⊙ α·x + α_t·F(x).
    // σ: mean over tokens of the divisor the norm applies to s (LayerNorm √(Var s + ε),
    // RMSNorm √(mean s² + ε)); its backward divides the gradient by it, so the first
    // layer's gradient shrinks like the product of the σ above it unless the branch
    // carries it back. cos: mean over tokens of cos(λ ⊙ α·x, α_t·F(x)).
    std::vector<torch::Tensor> norm_sigma_attn, norm_sigma_mlp;
    std::vector<torch::Tensor> branch_cos_attn, branch_cos_mlp;
};

// The keys and values of the positions a model has read, kept from one forward pass to
// the next so that reading one more byte costs that byte's work, not the whole window's
// (the sampler, core/train/sample.cpp). Inference only: no probes, no dropout, no gradient.
// Positions go on from `length`: a cache serves one sequence from its first byte until
// model.context bytes; a forward that threw leaves it unfit for reuse. kv_cache.cpp.
struct KVCache {
    std::vector<torch::Tensor> k, v;   // per layer (B, H, capacity, d_h): keys after RoPE and nGPT's s_qk
    int64_t length = 0;                // positions read so far
    int64_t capacity = 0;              // model.context, set when a model first reads into it
};

// Attention of q (B, H, T, d_h) at positions [kv.length, kv.length + T) over those before
// them and themselves, after k and v (B, H, T, d_h) are written into the layer's cache: (B, H, T, d_h).
torch::Tensor cached_attention(KVCache& kv, size_t layer, const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, double scale);

struct AttentionImpl : torch::nn::Module {
    explicit AttentionImpl(const ModelConfig& cfg);
    // x: (B, T, d); cos/sin: (T, d_h) RoPE tables or undefined. without_post_norm:
    // the output before the post-attention LN, which the caller applies (NormFormer:
    // in the residual add's CUDA kernel, BlockImpl::forward_pre_ln). bias_left
    // (or null): set to the output projection's bias where it was added without
    // gradient, left to the residual add's kernel (residual_layer_norm's f_bias;
    // linear_bias.cpp), else undefined.
    torch::Tensor forward(const torch::Tensor& x, const torch::Tensor& cos, const torch::Tensor& sin,
                          ForwardCapture* cap, bool without_post_norm = false, torch::Tensor* bias_left = nullptr);
    ModelConfig cfg;
    torch::nn::Linear qkv{nullptr}, out{nullptr};   // qkv: (3d, d), rows [q | k | v]
    torch::Tensor head_scale;                       // (H) NormFormer HeadScale
    Norm post_norm{nullptr};                        // NormFormer post-attention LN
    torch::Tensor s_qk;                             // (d) nGPT, viewed (H, d_h)
    KVCache* kv = nullptr;                          // while GPTImpl::forward reads into one: it,
    size_t kv_layer = 0;                            // and this layer's index in it
    // The largest scaled causal logit of q·kᵀ (B, H, T, d_h), without gradient,
    // at most max_logits logits at a time (whole batch rows).
    torch::Tensor max_causal_logit(const torch::Tensor& q, const torch::Tensor& k, double scale,
                                   int64_t max_logits = int64_t(1) << 27);
private:
    torch::Tensor causal_mask(int64_t T, const torch::Device& dev);
    torch::Tensor mask_;                            // (T, T) true above the diagonal, cached
};
TORCH_MODULE(Attention);

struct MLPImpl : torch::nn::Module {
    explicit MLPImpl(const ModelConfig& cfg);
    // bias_left: as the attention's, for FC2's bias.
    torch::Tensor forward(const torch::Tensor& x, ForwardCapture* cap, torch::Tensor* bias_left = nullptr);
    ModelConfig cfg;
    torch::nn::Linear fc1{nullptr}, fc2{nullptr};   // fc1: (d_ff, d), or (2·d_ff, d) rows [u | gate] for SwiGLU
    Norm ffn_norm{nullptr};                         // NormFormer FFN LN over d_ff
    torch::Tensor s_u, s_v;                         // (d_ff) nGPT
};
TORCH_MODULE(MLP);

struct BlockImpl : torch::nn::Module {
    explicit BlockImpl(const ModelConfig& cfg);
    // lin (Post-LN and nGPT; or null): in, x's copy for the first linear layer
    // (bf16 under autocast, or undefined: x); out, the output's, where the CUDA
    // kernel that made it wrote one — the linear layers then need no cast.
    torch::Tensor forward(const torch::Tensor& x, double branch_alpha, const torch::Tensor& cos,
                          const torch::Tensor& sin, ForwardCapture* cap, torch::Tensor* lin = nullptr);
    // Pre-LN and NormFormer with the last residual add left to the caller, who
    // may make it together with the LayerNorm that follows (the next block's
    // LN₁ or the final LN) in one CUDA kernel (GPTImpl::forward). x_normed:
    // LN₁(x) where such an add computed it, else undefined. Returns x₁ (the
    // residual after attention) and F = MLP(LN₂(x₁)); the block's output is
    // residual_sum(x₁, F) = λ ⊙ α·x₁ + α_t·F. f_bias (or null): FC2's bias where
    // F left its gradient to the caller (MLPImpl::forward's bias_left).
    std::pair<torch::Tensor, torch::Tensor> forward_pre_ln(const torch::Tensor& x, const torch::Tensor& x_normed,
                                                           double branch_alpha, const torch::Tensor& cos,
                                                           const torch::Tensor& sin, ForwardCapture* cap,
                                                           torch::Tensor* f_bias = nullptr);
    // f and α_t as branch_of gives them
    torch::Tensor residual_sum(const torch::Tensor& x1, const torch::Tensor& f, double branch_alpha);
    // Post-LN's norm(λ ⊙ α·r + α_t·f), λ undefined: 1; y_type: the output's type.
    // f_bias: f's linear layer's bias where it left its gradient here (or undefined).
    torch::Tensor add_norm(Norm& norm, const torch::Tensor& r, const torch::Tensor& f, const torch::Tensor& lam,
                           double branch_alpha, torch::ScalarType y_type, torch::Tensor* copy = nullptr,
                           const torch::Tensor& f_bias = {});
    // α_t·f as the ops and kernels take it: (f, α_t) by the number, or, where a
    // captured step reads α_t from a device scalar (branch_t: BranchNorm's step
    // in a CUDA graph, core/train/static_step.h), (α_t·f in float32, 1).
    std::pair<torch::Tensor, double> branch_of(const torch::Tensor& f, double branch_alpha) const;
    // The probes of what enters a Post-LN norm (ForwardCapture's norm_sigma_* and
    // branch_cos_*), from the same r, f, λ and α_t as add_norm; gpt_probes.cpp.
    void capture_norm_input(ForwardCapture& cap, const Norm& norm, const torch::Tensor& r, const torch::Tensor& f,
                            const torch::Tensor& f_bias, const torch::Tensor& lam, double branch_alpha,
                            bool after_attention) const;
    ModelConfig cfg;
    double residual_alpha;                          // DeepNorm α (1 when off)
    torch::Tensor branch_t;                         // α_t as a device scalar, or undefined (GPTImpl::use_branch_tensor)
    Norm norm1{nullptr}, norm2{nullptr};            // Post-/Pre-LN norms (absent for nGPT)
    Attention attn{nullptr};
    MLP mlp{nullptr};
    torch::Tensor res_scale;                        // (d) NormFormer ResScale
    torch::Tensor alpha_A, alpha_M;                 // (d) nGPT eigen learning rates (stored θ)
};
TORCH_MODULE(Block);

// A parameter (or a row range of one) that the probes report per layer.
struct ProbeTensor {
    int layer;              // -1: not per layer
    std::string name;       // q, k, v, o, fc1, fc2, norm1, ... / gain names / matrix names
    torch::Tensor param;    // the parameter
    int64_t row_begin = 0;  // rows [row_begin, row_end) of param (q, k, v of the fused qkv)
    int64_t row_end = -1;   // -1: all rows
    torch::Tensor slice(const torch::Tensor& t) const {
        return row_end < 0 ? t : t.narrow(0, row_begin, row_end - row_begin);
    }
};

struct GPTImpl : torch::nn::Module {
    explicit GPTImpl(const ModelConfig& cfg);

    // idx: (B, T) int64 bytes → logits (B, T, V). kv (inference): idx continues the bytes
    // the cache holds (positions kv->length onward), whose keys and values it reuses and extends.
    torch::Tensor forward(const torch::Tensor& idx, ForwardCapture* cap = nullptr, KVCache* kv = nullptr);
    // Mean cross-entropy of next-byte prediction, in nats.
    static torch::Tensor loss(const torch::Tensor& logits, const torch::Tensor& targets);

    // Initializes every parameter from `seed` (on the CPU, so every device starts equal).
    void reset_parameters(uint64_t seed);
    // nGPT: puts every embedding-dimension vector back on the unit sphere.
    void renormalize();
    // BranchNorm's α_t for the steps that follow; into the device scalar too where one is in use.
    void set_branch_alpha(double a);
    // α_t read from `t` (a float32 scalar on the model's device) by every block,
    // so that a captured step follows α_t's schedule; undefined: by the number.
    void use_branch_tensor(const torch::Tensor& t);

    std::vector<ProbeTensor> weights();     // gradient probes: q k v o fc1 fc2 and norm gains per layer
    std::vector<ProbeTensor> gains();       // learned gains and scalers (effective values for nGPT)
    std::vector<ProbeTensor> matrices();    // condition-number probes
    // Parameters that take weight decay (matrices and embeddings) and those that
    // never do (norm gains and biases, HeadScale, ResScale, nGPT scalers).
    void split_decay(std::vector<torch::Tensor>& decay, std::vector<torch::Tensor>& no_decay);
    // The trainable parameters of every block's branches F (attention and MLP, with their own norms
    // and scalers): what BranchNorm's α_t scales the output of (model.branchnorm.scale_updates).
    std::vector<torch::Tensor> branch_parameters();
    int64_t parameter_count(bool trainable_only = true);
    // Points every attention at kv's layers (nullptr: at none), sizing kv for them.
    void attach_cache(KVCache* kv);

    ModelConfig cfg;
    double branch_alpha = 1.0;
    torch::Tensor branch_alpha_t;                   // use_branch_tensor's scalar, or undefined
    double branch_alpha_filled_ = 0;                // the value last written into it
    torch::nn::Embedding tok_emb{nullptr};          // (V, d)
    torch::Tensor pos_emb;                          // (context, d) learned positions
    torch::nn::ModuleList blocks;
    Norm final_norm{nullptr};
    torch::Tensor lm_head;                          // (V, d), absent when tied
    torch::Tensor s_z;                              // (V) nGPT logit scaler

private:
    torch::Tensor positions_table(int64_t T, const torch::Device& dev);   // sinusoidal (T, d)
    void rope_tables(int64_t T, const torch::Device& dev, torch::Tensor& cos, torch::Tensor& sin);
    torch::Tensor rope_cos_, rope_sin_, sinusoid_;
};
TORCH_MODULE(GPT);

// Effective value of an nGPT scaler stored as θ: s = θ · (s_init / s_scale).
inline torch::Tensor ngpt_scaled(const torch::Tensor& theta, double s_init, double s_scale) {
    return theta * (s_init / s_scale);
}

}  // namespace normlab
