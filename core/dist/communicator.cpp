// NormLab core: the process group and the bucketed gradient all-reduce (see communicator.h).
#include "core/dist/communicator.h"

#include "core/errors.h"

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif
#include <torch/version.h>

#include <chrono>
#include <cstdlib>
#include <future>
#include <mutex>
#include <thread>

namespace normlab {
namespace {

#if TORCH_VERSION_MAJOR >= 2
using Group = c10d::Backend;          // 2.x: Gloo and NCCL are backends of a ProcessGroup
#else
using Group = c10d::ProcessGroup;
#endif

std::chrono::milliseconds dist_timeout() {
    const char* v = std::getenv("NORMLAB_DIST_TIMEOUT");
    double s = 300.0;
    if (v && *v) {
        char* end = nullptr;
        s = std::strtod(v, &end);
        if (!end || *end || !(s >= 1 && s <= 86400))
            throw ConfigError("NORMLAB_DIST_TIMEOUT", std::string("is \"") + v + "\"; give seconds from 1 to 86400, e.g. 300");
    }
    return std::chrono::milliseconds(static_cast<int64_t>(s * 1000));
}

std::string what_of(const std::exception& e) {
    if (auto* c = dynamic_cast<const c10::Error*>(&e)) return c->what_without_backtrace();
    return e.what();
}

}  // namespace

struct Communicator::Impl {
    LaunchInfo launch;
    std::string backend, device;
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<Group> group;
    int64_t shares = 0;

    // A collective's failure, said so that a user knows what happened.
    [[noreturn]] void fail(const char* what, const std::exception& e) const {
        throw RunError("data-parallel " + std::string(what) + " failed on rank " + std::to_string(launch.rank) + " of " +
                       std::to_string(launch.world_size) + " (" + backend + "): " + what_of(e) +
                       " — another rank has probably stopped; see its log");
    }
    void wait(const c10::intrusive_ptr<c10d::Work>& w, const char* what) const {
        try {
            w->wait();
        } catch (const std::exception& e) {
            fail(what, e);
        }
    }
};

Communicator::Communicator(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Communicator::~Communicator() {
#if TORCH_VERSION_MAJOR >= 2
    // NCCL's communicators are torn down before exit (else PyTorch warns of leaked resources).
    if (impl_ && impl_->group && impl_->backend == "nccl") {
        try {
            impl_->group->shutdown();
        } catch (...) {
        }
    }
#endif
}

std::unique_ptr<Communicator> Communicator::connect(const LaunchInfo& launch, const std::string& device) {
    auto impl = std::make_unique<Impl>();
    impl->launch = launch;
    const auto timeout = dist_timeout();
    const std::string where = launch.master_addr + ":" + std::to_string(launch.master_port);
    const std::string secs = std::to_string(timeout.count() / 1000) + " s (NORMLAB_DIST_TIMEOUT)";
    // The rendezvous, bounded on every rank. A client whose "server" is some
    // other program holding MASTER_PORT would wait in TCPStore forever, so it
    // runs on a helper thread that is abandoned (the process then exits with
    // the error) when the time is up. Each rank announces itself; rank 0
    // waits for all of them once, naming any that never came.
    const std::string arrived = "normlab/arrived/";
    auto meet = [launch, timeout, arrived]() -> c10::intrusive_ptr<c10d::Store> {
        c10d::TCPStoreOptions o;
        o.port = static_cast<uint16_t>(launch.master_port);
        o.isServer = launch.rank == 0;
        o.numWorkers = static_cast<size_t>(launch.world_size);
        o.waitWorkers = false;
        o.timeout = timeout;
        auto store = c10::make_intrusive<c10d::TCPStore>(launch.master_addr, o);
        store->set(arrived + std::to_string(launch.rank), std::vector<uint8_t>{1});
        // An answer from rank 0's store itself, not just an open port.
        if (launch.rank > 0) store->wait({arrived + "0"}, timeout);
        return store;
    };
    try {
        auto task = std::make_shared<std::packaged_task<c10::intrusive_ptr<c10d::Store>()>>(meet);
        auto met = task->get_future();
        std::thread([task] { (*task)(); }).detach();
        if (met.wait_for(timeout + std::chrono::seconds(1)) != std::future_status::ready)
            throw RunError("no NormLab rank 0 answered at " + where + " within " + secs);
        impl->store = met.get();
    } catch (const std::exception& e) {
        throw RunError("rank " + std::to_string(launch.rank) + " could not meet the others at " + where +
                       " (MASTER_ADDR:MASTER_PORT) within " + secs + ": " + what_of(e) +
                       (launch.rank == 0 ? "; is the port in use? choose another MASTER_PORT"
                                         : "; is rank 0 running, is the address reachable from here, and does no other"
                                           " program hold that port?"));
    }
    if (launch.rank == 0) {
        std::vector<std::string> keys;
        for (int r = 0; r < launch.world_size; ++r) keys.push_back(arrived + std::to_string(r));
        try {
            impl->store->wait(keys, timeout);
        } catch (const std::exception& e) {
            std::string missing;
            int n = 0;
            for (int r = 1; r < launch.world_size; ++r) {
                bool here = false;
                try {
                    here = impl->store->check({keys[static_cast<size_t>(r)]});
                } catch (...) {
                }
                if (!here) missing += (n++ ? ", " : "") + std::to_string(r);
            }
            throw RunError("rank 0 waited " + secs + " at " + where + " for the other ranks; " +
                           (n ? "rank" + std::string(n > 1 ? "s " : " ") + missing + " of " +
                                    std::to_string(launch.world_size) + " never arrived (did they start, with"
                                    " MASTER_ADDR and MASTER_PORT pointing here?)"
                              : "they arrived but the store failed: " + what_of(e)));
        }
    }
    try {
        if (device.rfind("cuda", 0) == 0) {
#ifdef USE_C10D_NCCL
            auto opts = c10d::ProcessGroupNCCL::Options::create();
            opts->timeout = timeout;
            impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(impl->store, launch.rank, launch.world_size, opts);
            impl->backend = "nccl";
            impl->device = "cuda:" + std::to_string(launch.local_rank);   // one GPU per rank on a node
#else
            throw RunError("this build of NormLab has no NCCL (its LibTorch was built without it), so it cannot"
                           " train data-parallel on " + device + "; build against a CUDA LibTorch"
                           " (scripts/setup-torch2.sh) or use --device cpu");
#endif
        } else {
            auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
            if (const char* ifname = std::getenv("GLOO_SOCKET_IFNAME"); ifname && *ifname)
                opts->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(ifname));
            else
                opts->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
            impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl->store, launch.rank, launch.world_size, opts);
            impl->backend = "gloo";
            impl->device = "cpu";
        }
    } catch (const RunError&) {
        throw;
    } catch (const std::exception& e) {
        throw RunError("rank " + std::to_string(launch.rank) + " could not join the process group at " + where + ": " +
                       what_of(e));
    }
    return std::unique_ptr<Communicator>(new Communicator(std::move(impl)));
}

int Communicator::rank() const { return impl_->launch.rank; }
int Communicator::world_size() const { return impl_->launch.world_size; }
const LaunchInfo& Communicator::launch() const { return impl_->launch; }
std::string Communicator::backend() const { return impl_->backend; }
std::string Communicator::device() const { return impl_->device; }

std::string Communicator::share(const std::string& bytes) {
    const std::string key = "normlab/share/" + std::to_string(impl_->shares++);
    try {
        if (rank() == 0) {
            impl_->store->set(key, std::vector<uint8_t>(bytes.begin(), bytes.end()));
            return bytes;
        }
        const std::vector<uint8_t> v = impl_->store->get(key);
        return std::string(v.begin(), v.end());
    } catch (const std::exception& e) {
        impl_->fail("exchange through the rendezvous store", e);
    }
}

namespace {
std::vector<double> reduce(Communicator::Impl& impl, const std::vector<double>& values, c10d::ReduceOp op) {
    auto t = torch::tensor(values, torch::dtype(torch::kFloat64)).to(torch::Device(impl.device));
    std::vector<at::Tensor> v{t};
    c10d::AllreduceOptions o;
    o.reduceOp = op;
    try {
        impl.wait(impl.group->allreduce(v, o), "all-reduce");
    } catch (const RunError&) {
        throw;
    } catch (const std::exception& e) {
        impl.fail("all-reduce", e);
    }
    auto c = t.cpu();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}
}  // namespace

std::vector<double> Communicator::sum(const std::vector<double>& values) { return reduce(*impl_, values, c10d::ReduceOp::SUM); }
std::vector<double> Communicator::max(const std::vector<double>& values) { return reduce(*impl_, values, c10d::ReduceOp::MAX); }

void Communicator::broadcast(const std::vector<at::Tensor>& tensors) {
    // One flat buffer per dtype: c10d's vector argument means one tensor per device.
    std::map<c10::ScalarType, std::vector<at::Tensor>> by_type;
    for (auto& t : tensors) by_type[t.scalar_type()].push_back(t);
    for (auto& [type, ts] : by_type) {
        std::vector<at::Tensor> flat_parts;
        for (auto& t : ts) flat_parts.push_back(t.detach().reshape(-1));
        std::vector<at::Tensor> flat{torch::cat(flat_parts).to(torch::Device(impl_->device))};
        try {
            impl_->wait(impl_->group->broadcast(flat), "broadcast of the parameters");
        } catch (const RunError&) {
            throw;
        } catch (const std::exception& e) {
            impl_->fail("broadcast of the parameters", e);
        }
        torch::NoGradGuard ng;
        int64_t off = 0;
        for (auto& t : ts) {
            t.copy_(flat[0].narrow(0, off, t.numel()).view_as(t));
            off += t.numel();
        }
    }
}

void Communicator::barrier() { sum({0.0}); }

// ---- GradSync

struct GradSync::Impl {
    Communicator::Impl* comm = nullptr;
    std::vector<at::Tensor> params;
    struct Slot {
        size_t bucket = 0;
        int64_t offset = 0;
        bool got = false;
        unsigned hook = 0;
    };
    struct Bucket {
        at::Tensor flat;
        std::vector<size_t> members;
        size_t pending = 0;
        bool launched = false;
        c10::intrusive_ptr<c10d::Work> work;
    };
    std::vector<Slot> slots;
    std::vector<Bucket> buckets;
    size_t next_launch = 0, total_bytes = 0;
    bool overlap = true, armed = false;
    std::mutex m;

    void launch(Bucket& b) {
        std::vector<at::Tensor> v{b.flat};
        try {
            b.work = comm->group->allreduce(v);
        } catch (const std::exception& e) {
            comm->fail("gradient all-reduce", e);
        }
        b.launched = true;
    }
    // Buckets start in order on every rank (c10d matches collectives by order).
    void launch_ready() {
        while (next_launch < buckets.size() && buckets[next_launch].pending == 0) launch(buckets[next_launch++]);
    }
    void on_grad(size_t i, const at::Tensor& g) {
        std::lock_guard<std::mutex> lock(m);
        if (!armed) return;
        Slot& s = slots[i];
        if (s.got) return;
        Bucket& b = buckets[s.bucket];
        b.flat.narrow(0, s.offset, params[i].numel()).copy_(g.reshape(-1));
        s.got = true;
        --b.pending;
        launch_ready();
    }
};

GradSync::GradSync(Communicator& comm, const std::vector<at::Tensor>& params, double bucket_mb, bool overlap)
    : impl_(std::make_unique<Impl>()) {
    auto& I = *impl_;
    I.comm = &comm.impl();
    I.params = params;
    I.overlap = overlap;
    I.slots.resize(params.size());
    const double cap = std::max(bucket_mb, 0.0) * 1024 * 1024;
    // Reverse registration order: the output layers' gradients come first.
    double in_bucket = 0;   // bytes in the last bucket
    for (size_t k = params.size(); k-- > 0;) {
        const auto& p = params[k];
        const double bytes = static_cast<double>(p.numel()) * p.element_size();
        bool fresh = I.buckets.empty();
        if (!fresh) {
            const auto& last = params[I.buckets.back().members.front()];
            fresh = last.scalar_type() != p.scalar_type() || last.device() != p.device() || in_bucket + bytes > cap;
        }
        if (fresh) {
            I.buckets.emplace_back();
            in_bucket = 0;
        }
        in_bucket += bytes;
        I.buckets.back().members.push_back(k);
        I.slots[k].bucket = I.buckets.size() - 1;
    }
    for (auto& b : I.buckets) {
        int64_t n = 0;
        for (size_t m : b.members) {
            I.slots[m].offset = n;
            n += params[m].numel();
        }
        const auto& first = params[b.members.front()];
        b.flat = torch::zeros({n}, first.options().requires_grad(false));
        b.pending = b.members.size();
        I.total_bytes += static_cast<size_t>(n) * first.element_size();
    }
    if (overlap)
        for (size_t i = 0; i < params.size(); ++i) {
            Impl* self = impl_.get();
            I.slots[i].hook = params[i].register_hook([self, i](const at::Tensor& g) { self->on_grad(i, g); });
        }
}

GradSync::~GradSync() {
    if (impl_->overlap)
        for (size_t i = 0; i < impl_->params.size(); ++i) {
            try {
                impl_->params[i].remove_hook(impl_->slots[i].hook);
            } catch (...) {
            }
        }
    // An all-reduce still in flight (a failure mid-step) must end before its buffer goes.
    for (auto& b : impl_->buckets)
        if (b.launched && b.work) {
            try {
                b.work->wait();
            } catch (...) {
            }
        }
}

void GradSync::arm() {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->armed = impl_->overlap;
}

double GradSync::finish() {
    auto& I = *impl_;
    std::lock_guard<std::mutex> lock(I.m);
    I.armed = false;
    torch::NoGradGuard ng;
    // Gradients no hook delivered (overlap off, or a parameter this step did not use).
    for (size_t i = 0; i < I.params.size(); ++i) {
        auto& s = I.slots[i];
        if (s.got) continue;
        auto& b = I.buckets[s.bucket];
        auto view = b.flat.narrow(0, s.offset, I.params[i].numel());
        const auto& g = I.params[i].grad();
        if (g.defined()) view.copy_(g.reshape(-1));
        else view.zero_();
        s.got = true;
        --b.pending;
    }
    I.launch_ready();
    const auto t0 = std::chrono::steady_clock::now();
    for (auto& b : I.buckets) I.comm->wait(b.work, "gradient all-reduce");
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double w = I.comm->launch.world_size;
    for (auto& b : I.buckets) {
        b.flat.div_(w);
        for (size_t m : b.members) {
            auto& p = I.params[m];
            // The averaged gradient is a view of its bucket until the next step clears it.
            p.mutable_grad() = b.flat.narrow(0, I.slots[m].offset, p.numel()).view_as(p);
        }
        b.pending = b.members.size();
        b.launched = false;
        b.work.reset();
    }
    for (auto& s : I.slots) s.got = false;
    I.next_launch = 0;
    return waited;
}

size_t GradSync::buckets() const { return impl_->buckets.size(); }
size_t GradSync::bytes() const { return impl_->total_bytes; }
bool GradSync::overlap() const { return impl_->overlap; }

}  // namespace normlab
