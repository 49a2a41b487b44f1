// NormLab core: the model's position tables (gpt.h), made once for the longest
// sequence seen (at least the context) on the device the model runs on, and
// narrowed to each batch's length: the sinusoidal embeddings (Vaswani et al.)
// and RoPE's cos/sin tables of a head's width.
#include "core/model/gpt.h"

#include <algorithm>
#include <cmath>

namespace normlab {

torch::Tensor GPTImpl::positions_table(int64_t T, const torch::Device& dev) {
    if (!sinusoid_.defined() || sinusoid_.size(0) < T || sinusoid_.device() != dev) {
        const int64_t d = cfg.d_model, n = std::max<int64_t>(T, cfg.context);
        auto pos = torch::arange(n, torch::kFloat).unsqueeze(1);                           // (n, 1)
        auto div = torch::exp(torch::arange(0, d, 2, torch::kFloat) * (-std::log(10000.0) / d));  // (ceil(d/2))
        auto pe = torch::zeros({n, d});
        pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(0, torch::indexing::None, 2)},
                      torch::sin(pos * div));
        pe.index_put_({torch::indexing::Slice(), torch::indexing::Slice(1, torch::indexing::None, 2)},
                      torch::cos(pos * div.narrow(0, 0, d / 2)));
        sinusoid_ = pe.to(dev);
    }
    return sinusoid_.narrow(0, 0, T);
}

void GPTImpl::rope_tables(int64_t T, const torch::Device& dev, torch::Tensor& cos, torch::Tensor& sin) {
    if (!rope_cos_.defined() || rope_cos_.size(0) < T || rope_cos_.device() != dev) {
        const int64_t dh = cfg.head_dim(), n = std::max<int64_t>(T, cfg.context);
        auto inv = torch::pow(10000.0, -torch::arange(0, dh, 2, torch::kDouble) / dh);    // (d_h/2)
        auto freqs = torch::outer(torch::arange(n, torch::kDouble), inv);                    // (n, d_h/2)
        auto emb = torch::cat({freqs, freqs}, -1);                                           // (n, d_h)
        rope_cos_ = emb.cos().to(torch::kFloat).to(dev);
        rope_sin_ = emb.sin().to(torch::kFloat).to(dev);
    }
    cos = rope_cos_.narrow(0, 0, T);
    sin = rope_sin_.narrow(0, 0, T);
}

}  // namespace normlab
