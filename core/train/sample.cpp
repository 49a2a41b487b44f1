// NormLab core: text written by a stored run's weights (see sample.h).
#include "core/train/sample.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/model/gpt.h"
#include "core/remote/mirror.h"
#include "core/train/io.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace normlab {
namespace fs = std::filesystem;

void check_sample_options(const SampleOptions& o) {
    if (o.bytes < 1 || o.bytes > 100000) throw ConfigError("--bytes", std::to_string(o.bytes) + " is out of range; use 1 to 100000");
    if (!std::isfinite(o.temperature) || o.temperature < 0 || o.temperature > 10)
        throw ConfigError("--temperature", "must be a number from 0 (always the likeliest byte) to 10; 0.8 is usual");
    if (o.top_k < 0 || o.top_k > 256) throw ConfigError("--top-k", std::to_string(o.top_k) + " is out of range; use 0 (every byte) to 256");
    if (o.prompt.size() > 100000) throw ConfigError("--prompt", "is longer than 100000 bytes; the model reads only its last model.context bytes");
}

std::string sample_weights_missing(const RunInfo& run, const std::string& checkpoint) {
    std::error_code ec;
    if (!checkpoint.empty()) return fs::is_regular_file(checkpoint, ec) ? "" : checkpoint + " is not a file here";
    const std::string who = "run " + std::to_string(run.id) + " (" + run.name + ")";
    if (run.checkpoint.empty()) {
        if (const RemoteRef r = remote_ref(run); r.run > 0)   // followed from a server: its store there named
            return who + " trained on " + r.dest + ", and its weights are there: `normlab-cli remote fetch " + r.dest + " " +
                   std::to_string(r.run) + (r.store.empty() ? "" : " --remote-store " + r.store) +
                   " --checkpoint --out FILE.pt` brings them";
        return who + " has no checkpoint yet: one is saved every train.checkpoint_seconds and when a run ends";
    }
    if (!fs::is_regular_file(run.checkpoint, ec))
        return who + "'s checkpoint " + run.checkpoint + " is not on this machine (moved or deleted?)";
    return "";
}

double sample_uniform(uint64_t seed, uint64_t i) {
    // splitmix64 of (seed, i): a stream per seed whose i-th number needs none before it
    uint64_t z = seed * 0xD1B54A32D192ED03ull + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<double>(z >> 11) * 0x1.0p-53;
}

int draw_byte(const std::vector<double>& logits, double temperature, int top_k, double u) {
    const int n = static_cast<int>(logits.size());
    for (double l : logits)
        if (!std::isfinite(l))
            throw RunError("the model's next-byte logits are not finite (NaN or infinite): its weights diverged");
    int best = 0;   // the likeliest; the lowest byte among equals
    for (int i = 1; i < n; ++i)
        if (logits[static_cast<size_t>(i)] > logits[static_cast<size_t>(best)]) best = i;
    if (temperature == 0) return best;
    double cut = -INFINITY;   // top_k: the k-th largest logit; bytes below it are left out
    if (top_k > 0 && top_k < n) {
        std::vector<double> sorted(logits);
        std::nth_element(sorted.begin(), sorted.begin() + (top_k - 1), sorted.end(), std::greater<double>());
        cut = sorted[static_cast<size_t>(top_k - 1)];
    }
    std::vector<double> w(logits.size(), 0.0);
    const double top = logits[static_cast<size_t>(best)];
    double total = 0;
    for (size_t i = 0; i < w.size(); ++i)
        if (logits[i] >= cut) total += w[i] = std::exp((logits[i] - top) / temperature);
    double at = u * total;
    for (size_t i = 0; i < w.size(); ++i) {
        if (w[i] == 0) continue;
        if (at < w[i]) return static_cast<int>(i);
        at -= w[i];
    }
    return best;   // u·total rounded past the last weight
}

std::optional<Slide> parse_slide(const std::string& s) {
    if (s == "window") return Slide::Window;
    if (s == "half") return Slide::Half;
    return std::nullopt;
}

struct TextSampler::Model {
    explicit Model(const ModelConfig& cfg) : gpt(cfg) {}
    GPT gpt;
};

TextSampler::TextSampler(const RunInfo& run, const std::string& checkpoint) {
    const std::string missing = sample_weights_missing(run, checkpoint);
    if (!missing.empty()) throw ConfigError("--weights", missing);
    const RunConfig cfg = run_config_from_json(run.config);
    checkpoint_ = checkpoint.empty() ? run.checkpoint : checkpoint;
    model_ = std::make_unique<Model>(cfg.model);
    step_ = load_checkpoint(checkpoint_, model_->gpt, nullptr);
    model_->gpt->eval();
    model_->gpt->set_branch_alpha(branchnorm_alpha(cfg.model.branchnorm, step_));   // α_t as it stood when saved
}

TextSampler::~TextSampler() = default;

int64_t TextSampler::context() const { return model_->gpt->cfg.context; }

std::string TextSampler::write(const SampleOptions& o, const std::function<bool(uint8_t)>& on_byte) {
    check_sample_options(o);
    torch::NoGradGuard ng;
    GPT& model = model_->gpt;
    std::vector<int64_t> tokens;
    for (unsigned char c : o.prompt.empty() ? std::string("\n") : o.prompt) tokens.push_back(c);
    const int64_t window = context();
    std::vector<double> logits(static_cast<size_t>(model->cfg.vocab_size));
    std::string text;
    // `start`: the first byte the window holds. While the bytes fit in it they hold their
    // positions, and the next forward pass reads only those the cache has not. Past it,
    // Slide::Window moves it on a byte at a time: every position moves, and the window is
    // read whole, as the model was trained to read it. Slide::Half moves it on by half a
    // window at once (a prompt longer than the window is still read whole first): that half
    // is read again, and the cache goes on from there.
    const int64_t keep = window - window / 2;
    int64_t start = 0;
    KVCache kv;
    for (int64_t i = 0; i < o.bytes; ++i) {
        const int64_t have = static_cast<int64_t>(tokens.size());
        const bool moved = have - start > window;
        if (moved) start = have - (o.slide == Slide::Half && i > 0 ? keep : window);
        const bool cached = o.kv_cache && (o.slide == Slide::Half || start == 0);
        if (moved && cached) kv.length = 0;                  // the cache starts again at the window's first byte
        if (!cached && kv.capacity > 0) kv = KVCache();      // slid past it a byte at a time: its memory back
        const int64_t n = have - start - (cached ? kv.length : 0);   // bytes this pass reads
        auto idx = torch::from_blob(tokens.data() + (have - n), {1, n}, torch::kInt64).clone();
        auto last = model->forward(idx, nullptr, cached ? &kv : nullptr).select(1, n - 1).squeeze(0).to(torch::kDouble).contiguous();
        std::copy(last.data_ptr<double>(), last.data_ptr<double>() + last.numel(), logits.begin());
        const int b = draw_byte(logits, o.temperature, o.top_k, sample_uniform(o.seed, static_cast<uint64_t>(i)));
        tokens.push_back(b);
        text += static_cast<char>(b);
        if (on_byte && !on_byte(static_cast<uint8_t>(b))) break;
    }
    return text;
}

}  // namespace normlab
