// normlab-bench sample: text written with and without the keys and values the
// model has read kept between bytes (core/model/kv_cache.cpp), alternated in one
// run (cached, whole window, whole window, cached, ...), so that the machine's
// drift hits both alike.
//
//   normlab-bench sample [--scheme pre_ln --d 128 --layers 4 --heads 4 --dff 512 --ctx 256]
//                        [--bytes 200 --reps 3 --threads 2]
//       → JSON: milliseconds per byte of each write, their medians, the ratio
//         (whole window ÷ cached) and whether both wrote the same text
//
// The weights are a random initialisation saved as a checkpoint: what a byte
// costs does not depend on what the model learnt. The prompt is one byte, so
// that --bytes up to --ctx fills the window as `normlab-cli sample` does.
#include "bench/bench_util.h"
#include "core/config.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/sample.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace normlab {

int bench_sample(const bench::Options& o) {
    auto geti = [&o](const std::string& k, int d) { return bench::geti(o, k, d); };
    RunConfig c;
    apply_scheme(c, parse_scheme(o.count("--scheme") ? o.at("--scheme") : "pre_ln"));
    c.model.d_model = geti("--d", 128);
    c.model.n_layers = geti("--layers", 4);
    c.model.n_heads = geti("--heads", 4);
    c.model.d_ff = geti("--dff", 4 * c.model.d_model);
    c.model.context = geti("--ctx", 256);
    validate(c);
    torch::set_num_threads(geti("--threads", 2));
    GPT model(c.model);
    model->reset_parameters(1);
    const std::string file =
        (std::filesystem::temp_directory_path() / ("normlab-sample-bench-" + std::to_string(getpid()) + ".pt")).string();
    save_checkpoint(file, model, nullptr, 0, c);
    RunInfo run;
    run.id = 1;
    run.name = "bench";
    run.config = to_json(c);
    run.checkpoint = file;
    TextSampler sampler(run);
    SampleOptions s;
    s.prompt = "T";
    s.bytes = geti("--bytes", 200);
    using clock = std::chrono::steady_clock;
    std::vector<double> cached, whole;
    std::string text[2];
    bool same = true;
    for (int r = 0; r < geti("--reps", 3); ++r)
        for (int k = 0; k < 2; ++k) {
            s.kv_cache = (r + k) % 2 == 0;
            const auto t0 = clock::now();
            text[s.kv_cache] = sampler.write(s);
            (s.kv_cache ? cached : whole).push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count() / s.bytes);
            if (k == 1) same = same && text[0] == text[1];
        }
    std::filesystem::remove(file);
    const double mc = bench::median(cached), mw = bench::median(whole);
    std::printf("%s\n", nlohmann::json({{"scheme", scheme_name(c.scheme)}, {"d_model", c.model.d_model},
                                        {"layers", c.model.n_layers}, {"context", c.model.context},
                                        {"parameters", model->parameter_count()}, {"bytes", s.bytes},
                                        {"ms_per_byte_cached", cached}, {"ms_per_byte_whole_window", whole},
                                        {"median_cached", mc}, {"median_whole_window", mw}, {"ratio", mw / mc},
                                        {"same_text", same}})
                            .dump()
                            .c_str());
    return same ? 0 : 1;
}

}  // namespace normlab
