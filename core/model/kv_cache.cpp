// NormLab core: the keys and values a model has read, reused by the next forward
// pass (gpt.h's KVCache). Writing a byte after n others then costs one position
// through every layer and n dot products per head, not a whole window's forward
// pass: what the sampler (core/train/sample.cpp) needs to write text with a
// 124M-class model on a CPU.
//
// The cache holds each layer's keys and values at positions [0, length), written
// into buffers of model.context positions made at the first read (no copy of
// what is there on each step). The attention over them is the explicit
// softmax(q·kᵀ·scale)·v of AttentionImpl::forward, masked causally from the
// queries' own positions on; everything else in the model works per position
// and is unchanged.
#include "core/model/gpt.h"

#include <limits>

namespace normlab {

torch::Tensor cached_attention(KVCache& kv, size_t layer, const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, double scale) {
    const int64_t B = k.size(0), H = k.size(1), T = k.size(2), dh = k.size(3), P = kv.length;
    TORCH_CHECK(layer < kv.k.size() && P + T <= kv.capacity, "cached_attention: the cache has no room for ", T,
                " more positions after ", P);
    auto& K = kv.k[layer];
    auto& V = kv.v[layer];
    if (!K.defined() || K.size(0) != B || K.scalar_type() != k.scalar_type()) {
        TORCH_CHECK(P == 0, "cached_attention: layer ", layer, "'s cache was made for another batch");
        K = torch::empty({B, H, kv.capacity, dh}, k.options());
        V = torch::empty({B, H, kv.capacity, dh}, v.options());
    }
    K.narrow(2, P, T).copy_(k);
    V.narrow(2, P, T).copy_(v);
    const auto keys = K.narrow(2, 0, P + T), values = V.narrow(2, 0, P + T);
    auto att = torch::matmul(q * scale, keys.transpose(-2, -1));   // (B, H, T, P + T)
    if (T > 1)   // query i (position P + i) reads keys 0 … P + i
        att.masked_fill_(torch::ones({T, P + T}, torch::TensorOptions().dtype(torch::kBool).device(q.device())).triu(P + 1),
                         -std::numeric_limits<float>::infinity());
    return torch::matmul(torch::softmax(att, -1), values);
}

void GPTImpl::attach_cache(KVCache* kv) {
    if (kv) {
        kv->capacity = cfg.context;
        kv->k.resize(blocks->size());
        kv->v.resize(blocks->size());
    }
    for (size_t i = 0; i < blocks->size(); ++i) {
        auto attn = blocks[i]->as<Block>()->attn;
        attn->kv = kv;
        attn->kv_layer = i;
    }
}

}  // namespace normlab
