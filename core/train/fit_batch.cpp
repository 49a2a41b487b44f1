// NormLab core: the batch that fills a GPU (see fit_batch.h).
#include "core/train/fit_batch.h"

#include "core/errors.h"
#include "core/model/gpt.h"
#include "core/train/precision.h"
#include "core/train/recorder.h"
#include "core/train/trainer.h"

#include <spdlog/spdlog.h>
#include <torch/version.h>

#include <cmath>

#ifdef NORMLAB_CUDA_GRAPHS
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace normlab {

int choose_batch(double peak1, double peak2, double budget) {
    if (!(peak1 > 0) || peak1 > budget) return 0;
    const double per_row = std::max(0.0, peak2 - peak1);
    int b = 1;
    while (b < 65536 && peak1 + per_row * (2 * b - 1) <= budget) b *= 2;
    return b;
}

BatchFit fit_batch(const RunConfig& cfg, double fraction, const std::function<bool()>& cancelled) {
    BatchFit fit;
    fit.device = resolve_device(cfg.train.device);
    if (fit.device.rfind("cuda", 0) != 0)
        throw ConfigError("train.batch_size", "auto fits the batch to a GPU's memory, and this run trains on " + fit.device +
                                                  "; give a number (or --device cuda on a machine with one)");
#ifndef NORMLAB_CUDA_GRAPHS
    throw ConfigError("train.batch_size", "auto measures the GPU's memory, which this build (LibTorch " TORCH_VERSION
                                          ") cannot; the LibTorch 2.x build can, or give a number");
#else
    const torch::Device dev(fit.device);
    const c10::DeviceIndex index = dev.has_index() ? dev.index() : c10::cuda::current_device();
    namespace cca = c10::cuda::CUDACachingAllocator;
    fit.total_bytes = static_cast<double>(at::cuda::getDeviceProperties(index)->totalGlobalMem);
    fit.budget_bytes = fraction * fit.total_bytes;
    GPT model(cfg.model);
    model->reset_parameters(cfg.train.seed);
    model->to(dev);
    model->train();
    auto opt = make_optimizer(cfg.optim, model);
    std::vector<torch::Tensor> params;
    for (auto& p : model->parameters())
        if (p.requires_grad()) params.push_back(p);
    const int64_t T = cfg.model.context;
    // One training step at batch b: the allocator's peak, or −1 when it runs out of memory.
    auto step_peak = [&](int b) -> double {
        if (cancelled && cancelled()) throw Cancelled();
        clear_grads(params);
        c10::cuda::device_synchronize();
        cca::emptyCache();
        cca::resetPeakStats(index);
        try {
            auto tok = torch::randint(0, cfg.model.vocab_size, {b, T + 1}, torch::TensorOptions().dtype(torch::kLong).device(dev));
            torch::Tensor loss;
            {
                const AutocastScope ac(cfg.train.precision, true);
                loss = GPTImpl::loss(model->forward(tok.narrow(1, 0, T)), tok.narrow(1, 1, T));
            }
            loss.backward();
            optimizer_step(*opt, true);
            c10::cuda::device_synchronize();
        } catch (const c10::OutOfMemoryError&) {
            clear_grads(params);
            cca::emptyCache();
            return -1;
        }
        const double peak = static_cast<double>(cca::getDeviceStats(index).allocated_bytes[0].peak);
        clear_grads(params);
        return peak;
    };
    const double p1 = step_peak(1), p2 = p1 < 0 ? -1 : step_peak(2);
    int b = p1 < 0 ? 0 : p2 < 0 ? 1 : choose_batch(p1, p2, fit.budget_bytes);
    if (b == 0)
        throw ConfigError("train.batch_size", "even a batch of 1 does not fit in " + fit.device + "'s memory at this size; "
                                              "make the model smaller (model.d_model, n_layers, context) or use bf16");
    for (;; b /= 2) {   // confirm: the prediction is linear, attention's workspace need not be
        const double peak = step_peak(b);
        if (peak > 0 && peak <= fit.budget_bytes) {
            fit.batch = b;
            fit.peak_bytes = peak;
            break;
        }
        spdlog::info("batch {} does not fit ({}): trying {}", b, peak < 0 ? "out of memory" : "over the budget", b / 2);
        if (b == 1) throw ConfigError("train.batch_size", "no batch fits in " + fit.device + "'s memory at this size");
    }
    opt.reset();
    model = GPT(nullptr);
    cca::emptyCache();
    return fit;
#endif
}

}  // namespace normlab
