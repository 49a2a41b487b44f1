// NormLab core: the launches of the kernels that sum a linear layer's bias
// gradient on the way (cuda_bias_kernels.cu) on LibTorch tensors, for the
// autograd operations of linear_bias.cpp and attention_heads.cpp. Each
// launches on the current stream, so that a CUDA graph captures it with the
// rest of a step (train/static_step.h).
#include "core/model/cuda_host.h"
#include "core/model/cuda_kernels.h"
#include "core/model/cuda_ops.h"

namespace normlab::cuda_ops {
namespace {

using cuda_host::stream;
// On a GPU the kernels were built for (compute capability 8.0 or later), float32 or bfloat16.
bool kernel_tensor(const torch::Tensor& t) {
    return (t.scalar_type() == torch::kFloat || t.scalar_type() == torch::kBFloat16) && cuda_host::kernel_device(t);
}
// The column sums of a chunk of rows each (row_chunks(rows) × n) added over the chunks, in order.
torch::Tensor chunk_sums(const torch::Tensor& partial) { return partial.sum(0); }

}  // namespace

bool gelu_applies(const torch::Tensor& h) {
    return kernel_tensor(h) && h.is_contiguous() && h.dim() >= 1 && h.numel() > 0;
}

torch::Tensor gelu_forward(const torch::Tensor& h) {
    const cuda_host::DeviceGuard guard(h.device());
    const int64_t n = h.size(-1), rows = h.numel() / n;
    auto a = torch::empty_like(h);
    cuda_kernels::gelu_forward(h.data_ptr(), a.data_ptr(), rows, n, h.scalar_type() == torch::kBFloat16, stream());
    NORMLAB_KERNEL_LAUNCH_CHECK();   // a failed launch named here, not at the next kernel
    return a;
}

torch::Tensor gelu_backward(const torch::Tensor& h, const torch::Tensor& da, torch::Tensor* bias_grad) {
    const cuda_host::DeviceGuard guard(h.device());
    TORCH_CHECK(da.sizes() == h.sizes() && da.scalar_type() == h.scalar_type() && da.is_contiguous(),
                "gelu_backward: da must be a contiguous tensor of h's shape and type");
    const int64_t n = h.size(-1), rows = h.numel() / n;
    auto dh = torch::empty_like(h);
    torch::Tensor partial;
    if (bias_grad) partial = torch::empty({cuda_kernels::row_chunks(rows), n}, h.options().dtype(torch::kFloat));
    cuda_kernels::gelu_backward(h.data_ptr(), da.data_ptr(), dh.data_ptr(), bias_grad ? partial.data_ptr<float>() : nullptr,
                                rows, n, h.scalar_type() == torch::kBFloat16, stream());
    NORMLAB_KERNEL_LAUNCH_CHECK();
    if (bias_grad) *bias_grad = chunk_sums(partial);
    return dh;
}

bool heads_backward_applies(const std::vector<torch::Tensor>& grads, torch::ScalarType type) {
    if (grads.size() != 3 || !(type == torch::kFloat || type == torch::kBFloat16)) return false;
    bool any = false;
    for (const auto& g : grads) {
        if (!g.defined()) continue;
        if (!kernel_tensor(g) || g.scalar_type() != type || g.dim() != 4 || g.stride(3) != 1) return false;
        if (any && g.device() != grads[0].device()) return false;
        any = true;
    }
    return any;
}

torch::Tensor heads_backward(const std::vector<torch::Tensor>& grads, at::IntArrayRef proj_sizes, int64_t H,
                             torch::ScalarType type, torch::Tensor* bias_grad) {
    const auto& like = grads[0].defined() ? grads[0] : grads[1].defined() ? grads[1] : grads[2];
    const cuda_host::DeviceGuard guard(like.device());
    cuda_kernels::HeadGrads z{};
    z.B = proj_sizes[0], z.T = proj_sizes[1], z.H = H, z.dh = proj_sizes[2] / 3 / H;
    for (int p = 0; p < 3; ++p) {
        const auto& g = grads[p];
        if (g.defined()) {
            TORCH_CHECK(g.size(0) == z.B && g.size(1) == H && g.size(2) == z.T && g.size(3) == z.dh,
                        "heads_backward: a head's gradient is not (B, H, T, d_h)");
            z.g[p] = g.data_ptr();
            z.sb[p] = g.stride(0), z.sh[p] = g.stride(1), z.st[p] = g.stride(2);
        }
    }
    auto dproj = torch::empty(proj_sizes, like.options().dtype(type));
    const int64_t n = proj_sizes[2];
    torch::Tensor partial;
    if (bias_grad)
        partial = torch::empty({cuda_kernels::row_chunks(z.B * z.T), n}, like.options().dtype(torch::kFloat));
    cuda_kernels::heads_backward(z, dproj.data_ptr(), bias_grad ? partial.data_ptr<float>() : nullptr,
                                 type == torch::kBFloat16, stream());
    NORMLAB_KERNEL_LAUNCH_CHECK();
    if (bias_grad) *bias_grad = chunk_sums(partial);
    return dproj;
}

}  // namespace normlab::cuda_ops
