// normlab-cli: data-parallel runs (see training.h). Rank 0 owns the store;
// the others learn the runs from it and train them in step.
#include "app/cli/training.h"

#include "core/counted.h"
#include "core/dist/communicator.h"
#include "core/errors.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace normlab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A rank's scratch folder (its copy of the runs) is locked while the rank lives; a rank
// killed outright (SIGKILL, the OOM killer, a node's job killed) leaves it behind, and
// the next rank to start on this machine removes every such folder whose lock is free.
// A lock, not a process id: a /tmp shared between containers sees other pid spaces.
constexpr const char* kScratchPrefix = "normlab-rank";

// normlab-rank<rank>-<pid>[-<n>], nothing else
bool is_scratch_name(const std::string& name) {
    const std::string prefix = kScratchPrefix;
    if (name.rfind(prefix, 0) != 0) return false;
    int groups = 0;
    for (size_t a = prefix.size(); a <= name.size(); ++groups) {
        const size_t b = std::min(name.find('-', a), name.size());
        if (b == a || !std::all_of(name.begin() + a, name.begin() + b, [](char c) { return c >= '0' && c <= '9'; }))
            return false;
        a = b + 1;
    }
    return groups >= 2;
}

void remove_abandoned_scratch(const fs::path& tmp) {
    std::error_code ec;
    for (fs::directory_iterator it(tmp, ec), end; !ec && it != end; it.increment(ec)) {
        if (!is_scratch_name(it->path().filename().string())) continue;
        const int fd = ::open((it->path() / ".lock").c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0) continue;   // not ours to judge (another user's, or made before locks)
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {
            std::error_code rm;
            fs::remove_all(it->path(), rm);
            if (!rm) spdlog::info("removed {}, left by a rank that was killed", it->path().string());
        }
        ::close(fd);
    }
}

struct ScratchDir {
    fs::path path;
    int lock = -1;
    explicit ScratchDir(int rank) {
        const fs::path tmp = fs::temp_directory_path();
        remove_abandoned_scratch(tmp);
        const std::string name = kScratchPrefix + std::to_string(rank) + "-" + std::to_string(::getpid());
        // Made and locked under a name the sweep ignores, then renamed: no other rank ever
        // sees it unlocked.
        const fs::path staging = tmp / ("." + name);
        fs::remove_all(staging);
        fs::create_directories(staging);
        auto give_up = [&](const std::string& why) {
            if (lock >= 0) ::close(lock);
            std::error_code ec;
            fs::remove_all(staging, ec);
            throw std::runtime_error("cannot make the scratch folder " + staging.string() + ": " + why);
        };
        lock = ::open((staging / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (lock < 0 || ::flock(lock, LOCK_EX) != 0) give_up(std::strerror(errno));
        // A folder of this name still locked is a live rank's in another pid space.
        for (int n = 0;; ++n) {
            path = tmp / (n ? name + "-" + std::to_string(n) : name);
            std::error_code ec;
            fs::rename(staging, path, ec);
            if (!ec) break;
            if (!fs::exists(path) || n == 100) give_up(ec.message());
        }
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
        if (lock >= 0) ::close(lock);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace

std::string data_parallel_device(const std::string& requested, const LaunchInfo& launch) {
    const int gpus = cuda_device_count();
    std::string d = requested.empty() ? "auto" : requested;
    if (d == "auto") {
        // Every rank decides alike: CUDA only when each process on this node has a GPU of its own.
        d = gpus >= launch.local_world_size ? "cuda" : "cpu";
        if (gpus > 0 && d == "cpu" && launch.rank == 0)
            std::fprintf(stderr, "data-parallel: %d processes per node but %s: training on the CPU (Gloo);"
                                 " start at most %d per node to train on the GPUs\n",
                         launch.local_world_size, counted(gpus, "GPU").c_str(), gpus);
    }
    if (d.rfind("cuda", 0) == 0) {
        if (d != "cuda")
            throw ConfigError("train.device", "\"" + d + "\" names one GPU, but each data-parallel process takes its own"
                                              " (cuda:LOCAL_RANK); use \"cuda\" or \"auto\"");
        if (gpus < launch.local_world_size)
            throw ConfigError("train.device", std::to_string(launch.local_world_size) + " processes on this node but " +
                                                  counted(gpus, "GPU") + ": each process needs a GPU of its own (NCCL);"
                                                  " start at most " + std::to_string(gpus) + " per node, or use --device cpu");
        return "cuda:" + std::to_string(launch.local_rank);
    }
    return "cpu";
}

int train_data_parallel(const LaunchInfo& launch, const std::string& requested_device, TrainOptions opts,
                        const std::function<std::vector<std::pair<int64_t, std::string>>(std::unique_ptr<Store>&)>& prepare) {
    spdlog::set_pattern("%^%l%$ [rank " + std::to_string(launch.rank) + "]: %v");
    const std::string device = data_parallel_device(requested_device, launch);
    opts.device = device;   // every run of this launch on the group's device
    std::unique_ptr<Communicator> comm = Communicator::connect(launch, device);
    if (launch.rank == 0)
        std::fprintf(stderr, "data-parallel: %d processes (%s, launched by %s), rendezvous at %s:%d\n", launch.world_size,
                     comm->backend().c_str(), launch.launcher.c_str(), launch.master_addr.c_str(), launch.master_port);
    std::unique_ptr<Store> store;
    std::unique_ptr<ScratchDir> scratch;
    std::vector<std::pair<int64_t, std::string>> queued;
    if (launch.rank == 0) {
        json manifest = json::array();
        try {
            queued = prepare(store);
            for (auto& [id, name] : queued) {
                auto r = store->run(id);
                manifest.push_back({{"id", id}, {"name", r->name}, {"scheme", r->scheme}, {"config", r->config},
                                    {"seed", r->seed}});
            }
        } catch (const std::exception& e) {
            comm->share(json{{"error", e.what()}}.dump());
            throw;
        }
        comm->share(manifest.dump());
    } else {
        const json manifest = json::parse(comm->share(""));
        if (manifest.is_object() && manifest.contains("error"))
            throw RunError("rank 0 could not start: " + manifest["error"].get<std::string>());
        scratch = std::make_unique<ScratchDir>(launch.rank);
        store = std::make_unique<Store>((scratch->path / "runs.sqlite").string());
        for (auto& m : manifest)
            queued.emplace_back(store->create_run(m["name"], m["scheme"], m["config"], m["seed"].get<uint64_t>(), 0, {}),
                                m["name"].get<std::string>());
        opts.resume = false;   // rank 0's checkpoint reaches this rank through the group
    }
    opts.comm = comm.get();
    if (const char* v = std::getenv("NORMLAB_DIST_BUCKET_MB"); v && *v) opts.bucket_mb = std::atof(v);
    if (const char* v = std::getenv("NORMLAB_DIST_OVERLAP"); v && *v) opts.overlap = std::string(v) != "0";
    auto results = train_all(*store, queued, opts, launch.rank != 0);
    if (launch.rank == 0)
        for (auto& r : results)
            if (r.run_id > 0) std::printf("%lld\t%s\n", static_cast<long long>(r.run_id), status_name(r.status).c_str());
    return exit_for(results);
}

}  // namespace normlab::cli
