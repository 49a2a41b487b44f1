// normlab-bench: the core's side of the benchmarks (bench/run.py drives it
// next to the PyTorch peer and writes docs/PERFORMANCE.md).
//
//   normlab-bench train (--config RUN.json | --scheme S [--d 128 --layers 4 --heads 4 --dff 512 --ctx 128 --batch 16])
//                       [--steps 30 --warmup 5 --threads 2 --probes off|default|all --device cpu]
//                       [--profile TRACE.json]   (LibTorch 2.x: a Kineto trace of the run)
//                       [--profile-from STEP]    (the trace from the end of that many updates on: a step
//                                                 captured as a CUDA graph at step 3 is traced replayed)
//                       [--cuda-graph auto|on|off] (train.cuda_graph; auto: captured on a GPU)
//                       [--precision fp32|tf32|bf16]
//       → JSON: per-step times (ms) of the timed steps, their median, tokens/s, parameter count
//   normlab-bench ops [--threads 2 --reps 5]
//       → JSON: the fused CPU kernels against the eager LibTorch ops they replace,
//         forward + backward, op by op (bench_ops.cpp)
//   normlab-bench checkpoint [--scheme S --d 128 --layers 4 --heads 4 --dff 512 --reps 7]
//       → JSON: bytes of one checkpoint (weights + optimizer state + trainer state)
//         and the median milliseconds to write it durably (serialize, write,
//         fsync, rename) and commit it with its rows; the share of training
//         time it costs at the default cadence (one per 60 s)
//   normlab-bench sample [--scheme S --d 128 --layers 4 --ctx 256 --bytes 200 --prompt-bytes 1 --reps 3]
//       → JSON: milliseconds per byte of written text with the keys and values kept,
//         with the whole window read for every byte, and kept past the context by
//         halving the window (--slide half), in turn (bench_sample.cpp)
//   normlab-bench store [--points 1000000]
//       → JSON: scalar and per-layer rows written per second, seconds to load one
//         series of --points points
//
// Training is timed through train_run, the path every user's run takes
// (batches, learning rate, forward, backward, clipping, optimizer, store
// writes), from the per-step times it records; the first --warmup steps are
// dropped.
#include "bench/bench_util.h"
#include "core/config.h"
#include "core/platform.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/recorder.h"
#include "core/train/trainer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>

using namespace normlab;
using nlohmann::json;

namespace normlab {
int bench_ops(int threads, int reps);   // bench_ops.cpp
int bench_sample(const bench::Options& o);   // bench_sample.cpp
}

namespace normlab::bench {
void profile_prepare(bool cuda);   // bench_profile.cpp
void profile_start(bool cuda);
void profile_stop(const std::string& path);
}  // namespace normlab::bench

namespace {

std::map<std::string, std::string> options(int argc, char** argv, int from) {
    std::map<std::string, std::string> o;
    for (int i = from; i + 1 < argc; i += 2) o[argv[i]] = argv[i + 1];
    return o;
}
using bench::geti;
using bench::median;
std::string temp_path(const std::string& stem) {
    return (std::filesystem::temp_directory_path() / (stem + "-" + std::to_string(getpid()) + ".sqlite")).string();
}
void remove_store(const std::string& p) {
    for (const char* s : {"", "-wal", "-shm"}) std::filesystem::remove(p + s);
    std::filesystem::remove_all(p + ".checkpoints");
}

int bench_train(std::map<std::string, std::string> o) {
    RunConfig c;
    if (o.count("--config")) {
        // The very file the PyTorch peer reads: the same model, optimizer and batch.
        std::ifstream f(o["--config"]);
        c = run_config_from_json(json::parse(f));
    } else {
        apply_scheme(c, parse_scheme(o.count("--scheme") ? o["--scheme"] : "pre_ln"));
        c.model.d_model = geti(o, "--d", 128);
        c.model.n_layers = geti(o, "--layers", 4);
        c.model.n_heads = geti(o, "--heads", 4);
        c.model.d_ff = geti(o, "--dff", 4 * c.model.d_model);
        c.model.context = geti(o, "--ctx", 128);
        c.train.batch_size = geti(o, "--batch", 16);
    }
    const int warmup = geti(o, "--warmup", 5);
    c.train.steps = warmup + geti(o, "--steps", 30);
    c.train.threads = geti(o, "--threads", 2);
    c.train.device = o.count("--device") ? o["--device"] : "cpu";
    if (o.count("--cuda-graph")) c.train.cuda_graph = o["--cuda-graph"];
    if (o.count("--precision")) c.train.precision = o["--precision"];
    c.train.eval_every = 0;
    c.train.eval_batches = 1;
    c.optim.schedule.warmup = 0;
    c.data.source = DataSource::Corpus;
    const std::string probes = o.count("--probes") ? o["--probes"] : "off";
    if (probes == "off") c.probes = ProbeConfig{0, 0, 0, 0, 32, 0};
    else if (probes == "all") c.probes = ProbeConfig{1, 1, 1, 1, 32, 0};
    validate(c);
    const int64_t profile_from = geti(o, "--profile-from", 0);
    if (profile_from < 0 || profile_from >= c.train.steps) {
        std::fprintf(stderr, "--profile-from %lld: give a step from 0 to %lld (the run's --warmup + --steps, less one)\n",
                     static_cast<long long>(profile_from), static_cast<long long>(c.train.steps - 1));
        return 2;
    }
    const std::string path = temp_path("normlab-bench");
    remove_store(path);
    std::vector<double> ms;
    json info;
    {
        Store store(path);
        const int64_t id = queue_run(store, c);
        const std::string profile = o.count("--profile") ? o["--profile"] : "";
        const bool cuda = c.train.device.rfind("cuda", 0) == 0;
        bool tracing = false;
        TrainOptions topts;
        if (!profile.empty()) {
            normlab::bench::profile_prepare(cuda);
            const auto start = [&] { normlab::bench::profile_start(cuda), tracing = true; };
            if (profile_from == 0) start();
            else   // after the warm-up's eager steps and the capture, in the training thread the profiler follows
                topts.on_step = [&, start](int64_t done) {
                    if (!tracing && done >= profile_from) start();
                };
        }
        RunResult r = train_run(store, id, topts);
        if (tracing) normlab::bench::profile_stop(profile);
        if (r.status != RunStatus::Finished) {
            std::fprintf(stderr, "bench run %s: %s\n", status_name(r.status).c_str(), r.message.c_str());
            return 1;
        }
        const int64_t tps = store.series_id(id, "train/tokens_per_s");
        for (auto& p : store.points(tps))
            if (p.step >= warmup) ms.push_back(1000.0 * c.train.batch_size * c.model.context / p.value);
        info = store.run(id)->info;
    }
    // GPU memory in use once the run is over (the caching allocator keeps what it reserved), as the peer reports it.
    json memory_gib = nullptr;
    if (c.train.device.rfind("cuda", 0) == 0) {
        const int index = c.train.device.size() > 5 ? std::atoi(c.train.device.c_str() + 5) : 0;
        for (const GpuInfo& g : gpu_devices())
            if (g.index == index && g.total_bytes > 0) memory_gib = (g.total_bytes - g.free_bytes) / (1024.0 * 1024 * 1024);
    }
    remove_store(path);
    const double med = median(ms);
    json out = {{"impl", "normlab"},
                {"scheme", scheme_name(c.scheme)},
                {"step_ms", ms},
                {"step_ms_median", med},
                {"tokens_per_s", 1000.0 * c.train.batch_size * c.model.context / med},
                {"parameters", info["parameters"]},
                {"threads", info["threads"]},
                {"probes", probes},
                {"precision", c.train.precision},
                {"cuda_graph", info.value("cuda_graph", c.train.cuda_graph == "off" ? "off" : "not captured")},
                {"steps_launched_ahead", info.value("steps_launched_ahead", int64_t(0))},   // the step ahead (train_loop.h)
                {"memory_gib", memory_gib},
                {"cpu_tuning", cpu_tuning_summary()},
                {"thread_waiting", thread_waiting_summary()},
                {"blas_core", blas_core_name()}};
    std::printf("%s\n", out.dump().c_str());
    return 0;
}

int bench_checkpoint(std::map<std::string, std::string> o) {
    RunConfig c;
    apply_scheme(c, parse_scheme(o.count("--scheme") ? o["--scheme"] : "pre_ln"));
    c.model.d_model = geti(o, "--d", 128);
    c.model.n_layers = geti(o, "--layers", 4);
    c.model.n_heads = geti(o, "--heads", 4);
    c.model.d_ff = geti(o, "--dff", 4 * c.model.d_model);
    validate(c);
    GPT model(c.model);
    model->reset_parameters(1);
    auto opt = make_optimizer(c.optim, model);
    // One optimizer step, so the optimizer state (Adam's moments) exists and is saved.
    auto tok = torch::randint(0, 256, {2, 17}, torch::kInt64);
    GPTImpl::loss(model->forward(tok.narrow(1, 0, 16)), tok.narrow(1, 1, 16)).backward();
    opt->step();
    const std::string path = temp_path("normlab-ckpt-bench");
    remove_store(path);
    using clock = std::chrono::steady_clock;
    std::vector<double> ms;
    uintmax_t bytes = 0;
    {
        Store store(path);
        const int64_t id = store.create_run("bench", scheme_name(c.scheme), to_json(c), 1);
        RunWriter w(store, id);
        const std::string dir = path + ".checkpoints";
        for (int i = 0; i < geti(o, "--reps", 7); ++i) {
            const std::string file = dir + "/run-1-step-" + std::to_string(i) + ".pt";
            for (int k = 0; k < 100; ++k) w.scalar("train/loss", i * 100 + k, 1.0);   // rows committed with it
            const auto t0 = clock::now();
            save_checkpoint(file, model, opt.get(), i, c, json{{"wall_s", 1.0}});
            w.flush_with_checkpoint(file, i);
            ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
            bytes = std::filesystem::file_size(file);
            std::filesystem::remove(file);
        }
    }
    remove_store(path);
    const double med = median(ms);
    std::printf("%s\n", json({{"scheme", scheme_name(c.scheme)}, {"d_model", c.model.d_model}, {"layers", c.model.n_layers},
                              {"parameters", model->parameter_count()}, {"bytes", bytes}, {"ms", ms},
                              {"ms_median", med}, {"share_at_60s", med / 60000.0}})
                            .dump()
                            .c_str());
    return 0;
}

int bench_store(std::map<std::string, std::string> o) {
    const int64_t n = geti(o, "--points", 1000000);
    const std::string path = temp_path("normlab-store-bench");
    remove_store(path);
    using clock = std::chrono::steady_clock;
    auto secs = [](clock::time_point a) { return std::chrono::duration<double>(clock::now() - a).count(); };
    double scalar_rate, layer_rate, load_s;
    {
        Store store(path);
        const int64_t id = store.create_run("bench", "pre_ln", json::object(), 1);
        {
            // Scalar rows through the trainer's batched writer (one flush per 0.5 s).
            RunWriter w(store, id, 0.5);
            auto t0 = clock::now();
            for (int64_t i = 0; i < n; ++i) {
                w.scalar("train/loss", i, 1.0 / (i + 1));
                if ((i & 1023) == 0) w.maybe_flush();
            }
            w.flush();
            scalar_rate = n / secs(t0);
        }
        {
            // Per-layer rows: 12 layers × 8 weights per step, as grad probes write them.
            RunWriter w(store, id, 0.5);
            static const char* names[] = {"grad_l1/q", "grad_l1/k", "grad_l1/v", "grad_l1/o",
                                          "grad_l1/fc1", "grad_l1/fc2", "grad_l2/fc1", "grad_l2/fc2"};
            const int64_t steps = n / 96;
            auto t0 = clock::now();
            for (int64_t s = 0; s < steps; ++s) {
                for (int l = 0; l < 12; ++l)
                    for (const char* name : names) w.layer(name, l, s, 1e-3 * l);
                w.maybe_flush();
            }
            w.flush();
            layer_rate = steps * 96 / secs(t0);
        }
    }
    {
        Store reader(path);   // a fresh connection, as the GUI opens a saved run
        auto t0 = clock::now();
        const int64_t id = reader.runs().at(0).id;
        auto pts = reader.points(reader.series_id(id, "train/loss"));
        load_s = secs(t0);
        if (static_cast<int64_t>(pts.size()) != n) return 1;
    }
    remove_store(path);
    std::printf("%s\n", json({{"points", n},
                              {"scalar_rows_per_s", scalar_rate},
                              {"layer_rows_per_s", layer_rate},
                              {"load_s", load_s}})
                            .dump()
                            .c_str());
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    tune_thread_waiting(argv);   // as normlab-cli and the app do (NORMLAB_OMP_TUNING=0 measures without)
    tune_cpu_kernels();
    if (argc < 2) {
        std::fprintf(stderr, "usage: normlab-bench train|ops|store|checkpoint|sample [--option value]...\n");
        return 2;
    }
    try {
        const std::string what = argv[1];
        if (what == "train") return bench_train(options(argc, argv, 2));
        if (what == "store") return bench_store(options(argc, argv, 2));
        if (what == "checkpoint") return bench_checkpoint(options(argc, argv, 2));
        if (what == "sample") return bench_sample(options(argc, argv, 2));
        if (what == "ops") {
            auto o = options(argc, argv, 2);
            return bench_ops(geti(o, "--threads", 2), geti(o, "--reps", 5));
        }
        std::fprintf(stderr, "normlab-bench: unknown benchmark %s\n", what.c_str());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab-bench: %s\n", e.what());
        return 1;
    }
}
