// normlab-bench ops: the fused CPU kernels (core/model/cpu_kernels.h) against
// the LibTorch eager ops they replace, forward + backward, op by op, in one
// process: alternated repetitions, median times and the median paired speed-up.
#include "bench/bench_util.h"
#include "core/model/gpt.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace normlab {
namespace {

using bench::median;

// Mean ms of one forward + backward over `iters` calls (after a few unmeasured ones).
double time_ms(const std::function<void()>& step, int iters) {
    for (int i = 0; i < 3; ++i) step();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) step();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / iters;
}

struct Op {
    std::string name, shape;
    std::function<void()> eager, fused;
};

std::vector<Op> ops() {
    std::vector<Op> out;
    for (int64_t H : {4, 8}) {   // the small and medium benchmark models' attention
        const int64_t B = 16, T = 128, dh = 32, d = H * dh;
        auto qkv = torch::randn({B, T, 3 * d}).requires_grad_(true);
        auto dy = torch::randn({B, T, d});
        auto mask = torch::ones({T, T}, torch::kBool).triu(1);
        const double scale = 1.0 / std::sqrt(double(dh));
        out.push_back({"causal attention", "B 16, H " + std::to_string(H) + ", T 128, d_h 32",
                       [=] {   // the model's eager path (and the PyTorch peer's without SDPA)
                           auto p = qkv.view({B, T, 3, H, dh}).permute({2, 0, 3, 1, 4});
                           auto att = torch::matmul(p[0] * scale, p[1].transpose(-2, -1));
                           att.masked_fill_(mask, -INFINITY);
                           torch::matmul(torch::softmax(att, -1), p[2]).transpose(1, 2).reshape({B, T, d}).backward(dy);
                       },
                       [=] { fused_causal_attention_packed(qkv, H, scale).backward(dy); }});
    }
    for (int64_t f : {512, 1024}) {   // NormFormer's FFN LN at both sizes
        auto h = torch::randn({16, 128, f}).requires_grad_(true);
        auto g = torch::randn({16, 128, f});
        auto gamma = torch::ones({f}).requires_grad_(true), beta = torch::zeros({f}).requires_grad_(true);
        out.push_back({"GELU + LayerNorm", "(2048, " + std::to_string(f) + ")",
                       [=] { torch::layer_norm(torch::gelu(h), {f}, gamma, beta, 1e-5).backward(g); },
                       [=] { fused_gelu_layer_norm(h, gamma, beta, 1e-5).backward(g); }});
    }
    for (bool scaled : {false, true}) {   // pre_ln_glu's MLP, and nGPT's with its scalers s_u, s_v
        const int64_t f = 512;
        auto h = torch::randn({16, 128, 2 * f}).requires_grad_(true);
        auto g = torch::randn({16, 128, f});
        auto su = torch::ones({f}).requires_grad_(true), sv = torch::ones({f}).requires_grad_(true);
        out.push_back({scaled ? "SwiGLU with nGPT's scalers" : "SwiGLU", "(2048, 2 × 512)",
                       [=] {
                           auto p = h.chunk(2, -1);
                           auto u = scaled ? p[0] * su : p[0], gate = scaled ? p[1] * (sv * 11.3) : p[1];
                           (u * torch::silu(gate)).backward(g);
                       },
                       [=] { fused_swiglu(h, scaled ? su : torch::Tensor(), scaled ? sv * 11.3 : torch::Tensor()).backward(g); }});
    }
    for (auto shape : {std::vector<int64_t>{16, 128, 128}, std::vector<int64_t>{16, 4, 128, 32}}) {   // nGPT
        auto x = torch::randn(shape).requires_grad_(true);
        auto g = torch::randn(shape);
        out.push_back({"unit normalization", shape.size() == 3 ? "(2048, 128) hidden states" : "(16, 4, 128, 32) q or k",
                       [=] { (x / (x.norm(2, -1, true) + 1e-6)).backward(g); },
                       [=] { fused_unit_norm(x, 1e-6).backward(g); }});
    }
    return out;
}

}  // namespace

int bench_ops(int threads, int reps) {
    torch::set_num_threads(threads);
    torch::manual_seed(1);
    nlohmann::json rows = nlohmann::json::array();
    for (auto& op : ops()) {
        std::vector<double> eager, fused, ratio;
        for (int r = 0; r < reps; ++r) {
            double e, f;
            if (r % 2 == 0) {
                e = time_ms(op.eager, 30);
                f = time_ms(op.fused, 30);
            } else {
                f = time_ms(op.fused, 30);
                e = time_ms(op.eager, 30);
            }
            eager.push_back(e);
            fused.push_back(f);
            ratio.push_back(e / f);
        }
        rows.push_back({{"op", op.name}, {"shape", op.shape}, {"eager_ms", median(eager)}, {"fused_ms", median(fused)},
                        {"speedup", median(ratio)}});
    }
    std::printf("%s\n", nlohmann::json({{"threads", threads}, {"ops", rows}}).dump().c_str());
    return 0;
}

}  // namespace normlab
