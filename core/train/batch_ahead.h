// NormLab core (internal, LibTorch): the training batches one step ahead.
//
// On a GPU, while step s trains, step s+1's batch is gathered on a helper
// thread into page-locked (pinned) host memory, so that its
// copy to the device is asynchronous and a captured step's input buffer is
// filled without a synchronous transfer. The batches are batch_tokens'
// (recorder.h) whatever the order of requests: a request for another step
// than the one prepared (a resume) is gathered on the spot.
#pragma once

#include "core/data/data.h"
#include "core/train/io.h"

#include <torch/torch.h>

#include <future>

namespace normlab::train_detail {

class BatchAhead {
public:
    // ahead = false gathers each batch when asked (a CPU run: a helper thread
    // would take a core from LibTorch's own threads for microseconds of work).
    BatchAhead(const Dataset& data, uint64_t seed, int batch, int context, int64_t steps, bool pinned, bool ahead = true)
        : data_(data), seed_(seed), batch_(batch), context_(context), steps_(steps), pinned_(pinned), ahead_(ahead) {}
    ~BatchAhead() {
        if (next_.valid()) next_.wait();
    }
    BatchAhead(const BatchAhead&) = delete;
    BatchAhead& operator=(const BatchAhead&) = delete;

    // Step s's (batch, context + 1) tokens on the host; starts gathering s + 1's.
    torch::Tensor get(int64_t s) {
        torch::Tensor t;
        if (next_.valid()) {
            if (next_step_ == s) t = next_.get();
            else next_.wait();   // not the one wanted: dropped
        }
        if (!t.defined()) t = make(s);
        next_ = {};
        if (ahead_ && s + 1 < steps_) {
            next_step_ = s + 1;
            next_ = std::async(std::launch::async, [this, n = s + 1] { return make(n); });
        }
        return t;
    }

    // Waits until the batch being gathered is ready (kept for get()): the
    // helper thread makes no CUDA calls after this until the next get() —
    // what a CUDA graph's capture needs (pinning host memory is a call that
    // would invalidate a capture in CUDA's global capture mode).
    void settle() {
        if (next_.valid()) next_.wait();
    }

private:
    torch::Tensor make(int64_t s) const {
        auto t = batch_tokens(data_, seed_, s, batch_, context_, false);
        return pinned_ ? t.pin_memory() : t;
    }

    const Dataset& data_;
    const uint64_t seed_;
    const int batch_, context_;
    const int64_t steps_;
    const bool pinned_, ahead_;
    std::future<torch::Tensor> next_;
    int64_t next_step_ = -1;
};

}  // namespace normlab::train_detail
