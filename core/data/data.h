// NormLab core: byte-level data sources.
//
// Three sources, all reduced to one byte array with a deterministic split
// (the last `val_fraction` of the bytes is validation):
//  - corpus: the English fortunes that `scripts/setup.sh` installs from
//    Debian's `fortunes` package (/usr/share/games/fortunes);
//  - file:   any text or binary file;
//  - markov: a random order-k Markov chain generated from a seed, whose
//    entropy rate is known exactly, so charts can draw the loss floor.
// Batches are drawn by a counter-based generator: batch `step` of seed `s` is
// the same on every run, device and resume, without any saved RNG state.
#pragma once

#include "core/config.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace normlab {

struct Dataset {
    std::vector<uint8_t> bytes;
    size_t train_end = 0;                 // [0, train_end) train, [train_end, size) validation
    std::string description;              // "fortunes corpus (2.4 MB)", "markov order 2, 16 symbols"
    std::optional<double> entropy_rate;   // nats per byte: the loss floor, when known
};

// The loss of a model that has learned byte frequencies and nothing else: the
// validation split's cross-entropy, in nats per byte, under the training
// split's byte frequencies (add-one smoothed). A deep stack that stops learning
// early sits on it (a "plateau" in the loss chart; docs/REPRODUCTION-GPU.md,
// finding 9).
double unigram_loss(const Dataset& d);

// Throws DataError with a hint (missing corpus → run scripts/setup.sh, ...).
// `cancelled`, polled while reading and generating, throws Cancelled when it returns true.
Dataset load_dataset(const DataConfig& cfg, int context, const std::function<bool()>& cancelled = {});

// Checks a data source without loading it (exists, a regular file, readable,
// long enough for the context in both splits, not larger than memory allows).
// Throws ConfigError naming data.path / data.source.
void check_data_source(const DataConfig& cfg, int context);

constexpr uint64_t kMaxDataBytes = uint64_t{4} << 30;

// Where the default corpus lives; NORMLAB_CORPUS_DIR overrides it.
std::string default_corpus_dir();

struct MarkovChain {
    int order = 0, alphabet = 0;
    std::vector<double> transition;       // [states × alphabet], rows sum to 1
    std::vector<double> stationary;       // [states]
    double entropy_rate = 0.0;            // nats per symbol
};
MarkovChain make_markov_chain(const MarkovConfig& cfg);
std::vector<uint8_t> sample_markov(const MarkovChain& chain, int64_t length, uint64_t seed,
                                   const std::function<bool()>& cancelled = {});
inline uint8_t markov_symbol_byte(int symbol) { return static_cast<uint8_t>((97 + symbol) % 256); }

// Start offsets of the `batch` windows of length context+1 for training step
// `step`, uniform in [lo, hi - context - 1]. Pure function of its arguments.
void batch_offsets(uint64_t seed, int64_t step, int batch, int context, size_t lo, size_t hi,
                   std::vector<int64_t>& out);

uint64_t splitmix64(uint64_t x);

}  // namespace normlab
