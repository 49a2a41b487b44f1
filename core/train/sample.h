// NormLab core: text written by a stored run's weights, a byte at a time
// (normlab-cli sample, the window's Write text dialog).
//
// The model reads bytes, so it writes them: each next byte is drawn from the
// model's distribution over the last `model.context` bytes (the prompt and
// what it wrote so far; until the text fills the window, the keys and values
// of the bytes already read are kept rather than computed again), its logits
// divided by the temperature, among the top_k likeliest bytes where top_k is
// set. Past the window, Slide::Window reads the last model.context bytes
// whole for every byte, as the model was trained to read them; Slide::Half
// keeps the last half of the window and goes on from its cache, so that a
// 124M-class model on a CPU writes past its context at the cached speed. The draws come from the seed
// alone (a counter-based generator of our own, not LibTorch's): one run, one
// checkpoint, one prompt and one seed write the same text on every machine
// and every LibTorch, and two runs given the same seed draw the same random
// numbers, so that what differs between their texts is their models.
// No LibTorch here: the window's dialog includes it.
#pragma once

#include "core/store/store.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

// What the model reads once the text is longer than its window (model.context bytes).
enum class Slide {
    Window,   // the last model.context bytes, read whole again for every byte: as trained; slow for big models
    Half,     // when the window is full, its last half is read again and the cache goes on from there:
              // each byte reads from half a window to a whole one, ~context/4 times less work per byte
};

struct SampleOptions {
    std::string prompt;         // the bytes the text continues; "" continues a line break
    int64_t bytes = 300;        // bytes written after the prompt, 1..100000
    double temperature = 0.8;   // 0: the likeliest byte every time; up to 10
    int top_k = 0;              // draw among the k likeliest bytes (0: all of them)
    uint64_t seed = 1;
    // Keep the keys and values of the bytes the window holds, so that each byte reads one
    // position, not the whole window again (Slide::Window: until the window first slides);
    // false: every byte reads the window from its first byte (the same text to rounding,
    // slower: for tests and bench/).
    bool kv_cache = true;
    Slide slide = Slide::Window;   // past the window (the text the same with and without kv_cache)
};

// "window" or "half" (normlab-cli sample --slide); nullopt for anything else.
std::optional<Slide> parse_slide(const std::string& s);

// Checks `o`, naming the field ("--bytes" …) in a ConfigError: before any model loads.
void check_sample_options(const SampleOptions& o);

// Where a run's weights are not on this machine, why (and, for a run trained on a server, how
// to bring them); "" when its checkpoint (or `checkpoint`, where given) is a file here.
std::string sample_weights_missing(const RunInfo& run, const std::string& checkpoint = "");

// A stored run's weights, loaded once (on the CPU), writing text. Not LibTorch's types here:
// the model lives behind a pointer.
class TextSampler {
public:
    // Loads the run's latest checkpoint, or `checkpoint` where given (e.g. one `normlab-cli
    // remote fetch --checkpoint` brought from a server). Throws ConfigError
    // ("--weights") when the weights are not on this machine, RunError when they are damaged.
    explicit TextSampler(const RunInfo& run, const std::string& checkpoint = "");
    ~TextSampler();
    TextSampler(const TextSampler&) = delete;
    TextSampler& operator=(const TextSampler&) = delete;

    int64_t step() const { return step_; }                       // updates the weights had when saved
    const std::string& checkpoint() const { return checkpoint_; }   // the file they came from
    int64_t context() const;                                     // bytes the model reads at most

    // Writes o.bytes bytes after o.prompt.
    // `on_byte`, when given, is told each byte as it is drawn; returning false stops there.
    // Returns the bytes written. Throws ConfigError for bad options, RunError for logits that
    // are not finite (weights that diverged).
    std::string write(const SampleOptions& o, const std::function<bool(uint8_t)>& on_byte = {});

private:
    struct Model;
    std::unique_ptr<Model> model_;
    int64_t step_ = 0;
    std::string checkpoint_;
};

// The byte drawn from `logits` (one per byte value) at `temperature` and `top_k` with the
// uniform number `u` in [0, 1): the rule TextSampler::write applies, exposed for its tests.
int draw_byte(const std::vector<double>& logits, double temperature, int top_k, double u);
// The i-th uniform number in [0, 1) of `seed` (53 bits; splitmix64 of the pair).
double sample_uniform(uint64_t seed, uint64_t i);

}  // namespace normlab
