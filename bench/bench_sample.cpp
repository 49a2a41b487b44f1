// normlab-bench sample: text written with and without the keys and values the
// model has read kept between bytes (core/model/kv_cache.cpp), and with them kept
// past the context too by halving the window when it is full (--slide half),
// the three in turn in one run, so that the machine's drift hits them alike.
//
//   normlab-bench sample [--scheme pre_ln --d 128 --layers 4 --heads 4 --dff 512 --ctx 256]
//                        [--bytes 200 --prompt-bytes 1 --reps 3 --threads 2]
//       → JSON: milliseconds per byte of each write, their medians, the ratios
//         (whole window ÷ cached; cached ÷ slide half, which differs only past the
//         context) and whether the first two wrote the same text
//
// The weights are a random initialisation saved as a checkpoint: what a byte
// costs does not depend on what the model learnt. The prompt is one byte, so
// that --bytes up to --ctx fills the window as `normlab-cli sample` does;
// --prompt-bytes equal to --ctx times only bytes written past the context.
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
    for (int i = 0; i < geti("--prompt-bytes", 1); ++i) s.prompt += "The lab. "[i % 9];   // --ctx of them: every byte past it
    s.bytes = geti("--bytes", 200);
    using clock = std::chrono::steady_clock;
    // three ways, in turn: the cache (past the context the window read whole for every byte),
    // no cache (the window read whole for every byte), and the cache past the context too,
    // the window halved each time it is full (Slide::Half)
    struct Arm {
        bool kv;
        Slide slide;
        std::vector<double> ms;
        std::string text;
    };
    std::vector<Arm> arms{{true, Slide::Window, {}, {}}, {false, Slide::Window, {}, {}}, {true, Slide::Half, {}, {}}};
    for (int r = 0; r < geti("--reps", 3); ++r)
        for (size_t k = 0; k < arms.size(); ++k) {
            Arm& a = arms[(r + k) % arms.size()];
            s.kv_cache = a.kv;
            s.slide = a.slide;
            const auto t0 = clock::now();
            a.text = sampler.write(s);
            a.ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count() / s.bytes);
        }
    const bool same = arms[0].text == arms[1].text;
    std::filesystem::remove(file);
    const double mc = bench::median(arms[0].ms), mw = bench::median(arms[1].ms), mh = bench::median(arms[2].ms);
    std::printf("%s\n", nlohmann::json({{"scheme", scheme_name(c.scheme)}, {"d_model", c.model.d_model},
                                        {"layers", c.model.n_layers}, {"context", c.model.context},
                                        {"parameters", model->parameter_count()}, {"bytes", s.bytes}, {"prompt_bytes", s.prompt.size()},
                                        {"ms_per_byte_cached", arms[0].ms}, {"ms_per_byte_whole_window", arms[1].ms},
                                        {"ms_per_byte_slide_half", arms[2].ms}, {"median_cached", mc},
                                        {"median_whole_window", mw}, {"median_slide_half", mh}, {"ratio", mw / mc},
                                        {"ratio_slide_half", mc / mh}, {"same_text", same}})
                            .dump()
                            .c_str());
    return same ? 0 : 1;
}

}  // namespace normlab
