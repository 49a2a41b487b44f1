// NormLab core: FLOPs per token and device peaks (see flops.h).
#include "core/flops.h"

#include <algorithm>
#include <cctype>

namespace normlab {

double training_flops_per_token(const ModelConfig& m) {
    const double d = m.d_model, f = m.d_ff, L = m.n_layers, T = m.context, V = m.vocab_size;
    const double mlp_in = m.activation == Activation::SwiGLU ? 2 * d * f : d * f;   // SwiGLU: gate and value
    const double per_layer = 4 * d * d + mlp_in + f * d;                           // q, k, v, out; fc1; fc2
    const double matmul_weights = L * per_layer + V * d;                           // + the output projection (tied or not)
    return 6 * matmul_weights + 12 * L * T * d;
}

double device_peak_flops(const std::string& device_name, const std::string& precision) {
    std::string n = device_name;
    std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    struct Peak {
        const char* has;
        const char* also;   // a second word the name must have ("" for none)
        double fp32, tf32, bf16;   // TFLOP/s, dense
    };
    // NVIDIA's data sheets, dense (no 2:4 sparsity). The first match wins: the PCIe H100 before the SXM one.
    static const Peak table[] = {
        {"H100", "PCIE", 51.2, 378.0, 756.0},
        {"H100", "NVL", 60.0, 417.5, 835.0},
        {"H100", "", 66.9, 494.7, 989.4},   // SXM ("NVIDIA H100 80GB HBM3")
        {"GH200", "", 66.9, 494.7, 989.4},
        {"H200", "", 66.9, 494.7, 989.4},
        {"A100", "", 19.5, 156.0, 312.0},
        {"L40S", "", 91.6, 183.0, 362.0},
    };
    for (const Peak& p : table) {
        if (n.find(p.has) == std::string::npos || (*p.also && n.find(p.also) == std::string::npos)) continue;
        const double t = precision == "bf16" ? p.bf16 : precision == "tf32" ? p.tf32 : precision == "fp32" ? p.fp32 : 0.0;
        return t * 1e12;
    }
    return 0.0;
}

}  // namespace normlab
