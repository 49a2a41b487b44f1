// NormLab core: a linear layer's bias gradient summed by the operation after
// the layer, while it writes the layer's output gradient (fused_ops.h,
// bias_grads_after). The GEMM adds the bias in its epilogue either way; what
// changes is who sums its gradient: autograd's addmm backward reads the whole
// output gradient again for it (about half of the card's bandwidth, 3.2 ms of
// Pre-LN's 57 ms step at GPT-2 small's shape on the H100, four layers a
// block), where the kernel writing that gradient keeps each column's sum in a
// register (cuda_bias_kernels.cu). The model detaches the bias in the linear
// layer and hands it to the next operation: GELU here, the attention heads'
// split in attention_heads.cpp.
#include "core/model/fused_ops.h"
#include "core/model/profile_scope.h"

#ifdef NORMLAB_CUDA_KERNELS
#include "core/model/cuda_ops.h"
#endif

#include <atomic>

namespace normlab {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

std::atomic<bool> g_on_cpu{false};
std::atomic<int64_t> g_summed{0};

#ifdef NORMLAB_CUDA_KERNELS
bool gelu_kernel(const torch::Tensor& h) { return cuda_kernels_enabled() && cuda_ops::gelu_applies(h); }
#endif

// GELU with its linear layer's bias (empty: none) as an input for the gradient only:
// forward the bias is already in h.
struct GeluBiasFn : torch::autograd::Function<GeluBiasFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& h_in, const torch::Tensor& bias) {
        const FunctionScope scope("normlab::gelu", h_in);
        const auto h = h_in.contiguous();
        ctx->save_for_backward({h});
        ctx->saved_data["bias"] = bias.numel() > 0;
        ctx->saved_data["bias_dtype"] = static_cast<int64_t>(bias.scalar_type());
#ifdef NORMLAB_CUDA_KERNELS
        if (gelu_kernel(h)) return {cuda_ops::gelu_forward(h)};
#endif
        return {torch::gelu(h)};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto h = ctx->get_saved_variables()[0];
        const bool with_bias = ctx->saved_data["bias"].toBool() && ctx->needs_input_grad(1);
        const auto da = grads[0].to(h.scalar_type()).contiguous();
        torch::Tensor dh, dbias;
#ifdef NORMLAB_CUDA_KERNELS
        if (gelu_kernel(h)) dh = cuda_ops::gelu_backward(h, da, with_bias ? &dbias : nullptr);
#endif
        if (!dh.defined()) {
            dh = torch::gelu_backward(da, h);
            if (with_bias) dbias = dh.reshape({-1, dh.size(-1)}).sum(0, false, torch::kFloat);
        }
        if (dbias.defined()) dbias = bias_grad_of(dbias, ctx->saved_data["bias_dtype"].toInt());
        return {dh, dbias};
    }
};

// f unchanged; its gradient's column sums to the bias (autograd's own sum: the eager path).
struct BiasGradFn : torch::autograd::Function<BiasGradFn> {
    static variable_list forward(AutogradContext* ctx, const torch::Tensor& f, const torch::Tensor& bias) {
        ctx->saved_data["bias_dtype"] = static_cast<int64_t>(bias.scalar_type());
        return {f};
    }
    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        const auto& g = grads[0];
        torch::Tensor dbias;
        if (ctx->needs_input_grad(1)) {
            dbias = bias_grad_of(g.reshape({-1, g.size(-1)}).sum(0, false, torch::kFloat), ctx->saved_data["bias_dtype"].toInt());
        }
        return {g, dbias};
    }
};

}  // namespace

torch::Tensor with_bias_grad(const torch::Tensor& f, const torch::Tensor& bias) {
    if (!bias.defined() || !bias.requires_grad()) return f;
    TORCH_CHECK(bias.numel() == f.size(-1), "with_bias_grad: the bias must have f's last dimension");
    return BiasGradFn::apply(f, bias)[0];
}

bool bias_grads_after(const torch::Tensor& x) {
    if (x.is_cuda()) return cuda_kernels_enabled();
    return g_on_cpu.load();
}

void set_bias_grads_after_on_cpu(bool on) { g_on_cpu.store(on); }
int64_t bias_grads_summed() { return g_summed.load(); }
torch::Tensor bias_grad_of(const torch::Tensor& column_sums, int64_t bias_dtype) {
    ++g_summed;
    return column_sums.to(static_cast<torch::ScalarType>(bias_dtype));
}

torch::Tensor gelu_bias_grad(const torch::Tensor& h, const torch::Tensor& bias) {
    TORCH_CHECK(!bias.defined() || bias.numel() == h.size(-1), "gelu_bias_grad: the bias must have h's last dimension");
    // Autograd functions take defined tensors: an absent bias travels as an empty one.
    const bool bias_grad = bias.defined() && bias.requires_grad();
    return GeluBiasFn::apply(h, bias_grad ? bias : torch::empty({0}, h.options()))[0];
}

}  // namespace normlab
