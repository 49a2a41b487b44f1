// NormLab core: the process group a data-parallel run trains in, and the
// gradient all-reduce.
//
// Goals: rendezvous through a c10d TCPStore at MASTER_ADDR:MASTER_PORT (rank
// 0 hosts it), Gloo on the CPU and NCCL on CUDA where this LibTorch has it;
// gradients all-reduced in a few flat buckets, launched from gradient hooks
// while the backward pass still runs (DDP's Reducer, in small); every
// failure a RunError that says which rank and what to do. A dead peer breaks
// its sockets, so the others' next collective fails within seconds; a hung
// one is caught by the collective timeout (NORMLAB_DIST_TIMEOUT seconds,
// default 300). Non-goals: elastic membership, sharded optimizers.
//
// The interface keeps LibTorch out except for the tensors the trainer hands
// over (declared, not included).
#pragma once

#include "core/dist/launch.h"

#include <memory>
#include <string>
#include <vector>

namespace at {
class Tensor;
}

namespace normlab {

class Communicator {
public:
    // Joins the group (blocks until every rank has arrived, up to the
    // timeout). `device`: "cpu" → Gloo; "cuda…" → NCCL (a RunError when this
    // build has none).
    static std::unique_ptr<Communicator> connect(const LaunchInfo& launch, const std::string& device);
    ~Communicator();

    int rank() const;
    int world_size() const;
    const LaunchInfo& launch() const;
    std::string backend() const;         // "gloo" or "nccl"
    std::string device() const;          // the device collectives run on

    // Rank 0's `bytes` on every rank (through the rendezvous store); others pass "".
    std::string share(const std::string& bytes);
    // Elementwise sum over the ranks (flags, losses), in float64.
    std::vector<double> sum(const std::vector<double>& values);
    std::vector<double> max(const std::vector<double>& values);   // elementwise maximum
    // Rank 0's values into every rank's tensors (in place).
    void broadcast(const std::vector<at::Tensor>& tensors);
    // Every rank waits for every other.
    void barrier();

    struct Impl;
    Impl& impl() { return *impl_; }

private:
    explicit Communicator(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Averages the parameters' gradients over the ranks. Buckets of about
// `bucket_mb` MiB in reverse registration order (the order the backward pass
// produces them); with `overlap`, a bucket's all-reduce starts from the
// gradient hooks as soon as its last gradient is ready, else all of them
// after the backward pass. Removes its hooks when destroyed.
class GradSync {
public:
    GradSync(Communicator& comm, const std::vector<at::Tensor>& params, double bucket_mb, bool overlap);
    ~GradSync();
    // Before a backward pass whose gradients are to be averaged.
    void arm();
    // After it: waits for every bucket, leaves the averaged gradients in
    // .grad; returns the seconds spent waiting for communication.
    double finish();
    size_t buckets() const;
    size_t bytes() const;          // all-reduced per step
    bool overlap() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace normlab
