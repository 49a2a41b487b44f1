// NormLab core: data sources (see data.h).
#include "core/data/data.h"

#include "core/errors.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace normlab {
namespace fs = std::filesystem;

uint64_t splitmix64(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

namespace {

// A small deterministic generator (same stream on every platform and
// standard library, unlike std::gamma_distribution).
struct Rng {
    uint64_t state;
    explicit Rng(uint64_t seed) : state(splitmix64(seed ^ 0x6E6F726D6C6162ull)) {}
    uint64_t next() { return state = splitmix64(state); }
    double uniform() { return (next() >> 11) * 0x1.0p-53; }                  // [0, 1)
    double uniform_pos() { double u; do u = uniform(); while (u <= 0.0); return u; }
    double normal() { return std::sqrt(-2.0 * std::log(uniform_pos())) * std::cos(2.0 * M_PI * uniform()); }
    double gamma(double a) {                                                   // Marsaglia & Tsang
        if (a < 1.0) return gamma(a + 1.0) * std::pow(uniform_pos(), 1.0 / a);
        const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x, v;
            do { x = normal(); v = 1.0 + c * x; } while (v <= 0.0);
            v = v * v * v;
            const double u = uniform_pos();
            if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
        }
    }
};

// Reads a regular file in chunks, so a cancel is seen within a chunk.
std::vector<uint8_t> read_file(const fs::path& p, const std::function<bool()>& cancelled) {
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) throw DataError(p.string() + " is not a regular file");
    const auto size = fs::file_size(p, ec);
    if (ec) throw DataError("cannot read " + p.string() + ": " + ec.message());
    if (size > kMaxDataBytes) throw DataError(p.string() + " is larger than the 4 GiB a run loads into memory");
    std::ifstream f(p, std::ios::binary);
    if (!f) throw DataError("cannot read " + p.string() + "; check that it exists and is readable");
    std::vector<uint8_t> out(static_cast<size_t>(size));
    constexpr size_t kChunk = 8u << 20;
    for (size_t off = 0; off < out.size(); off += kChunk) {
        if (cancelled && cancelled()) throw Cancelled();
        const size_t n = std::min(kChunk, out.size() - off);
        f.read(reinterpret_cast<char*>(out.data() + off), static_cast<std::streamsize>(n));
        if (static_cast<size_t>(f.gcount()) != n) throw DataError("reading " + p.string() + " failed (it changed while being read?)");
    }
    return out;
}

std::vector<fs::path> corpus_files(const fs::path& dir) {
    std::error_code ec;
    std::vector<fs::path> files;
    for (auto& e : fs::directory_iterator(dir, ec)) {
        const auto ext = e.path().extension().string();
        if (e.is_regular_file() && ext != ".dat" && ext != ".u8" && ext != ".txt.dat") files.push_back(e.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::string human_size(size_t n) {
    std::ostringstream s;
    s.precision(3);
    if (n >= 1000000) s << n / 1e6 << " MB";
    else if (n >= 1000) s << n / 1e3 << " kB";
    else s << n << " bytes";
    return s.str();
}

}  // namespace

std::string default_corpus_dir() {
    if (const char* env = std::getenv("NORMLAB_CORPUS_DIR"); env && *env) return env;
    return "/usr/share/games/fortunes";
}

MarkovChain make_markov_chain(const MarkovConfig& cfg) {
    MarkovChain c;
    c.order = cfg.order;
    c.alphabet = cfg.alphabet;
    const int A = cfg.alphabet;
    size_t states = 1;
    for (int i = 0; i < cfg.order; ++i) states *= static_cast<size_t>(A);
    Rng rng(cfg.seed);
    c.transition.assign(states * A, 0.0);
    // Dirichlet rows, mixed with 1% of the uniform distribution so the chain
    // is irreducible and aperiodic (a unique stationary distribution).
    for (size_t s = 0; s < states; ++s) {
        double sum = 0.0;
        double* row = &c.transition[s * A];
        for (int a = 0; a < A; ++a) sum += row[a] = rng.gamma(cfg.concentration) + 1e-300;
        for (int a = 0; a < A; ++a) row[a] = 0.99 * row[a] / sum + 0.01 / A;
    }
    // Stationary distribution over states (the last `order` symbols), by
    // power iteration: state s = (x_{t-k+1}, ..., x_t) in base A, newest last.
    std::vector<double> pi(states, 1.0 / states), next(states);
    for (int it = 0; it < 100000; ++it) {
        std::fill(next.begin(), next.end(), 0.0);
        for (size_t s = 0; s < states; ++s) {
            const size_t shifted = (s * A) % states;
            for (int a = 0; a < A; ++a) next[shifted + a] += pi[s] * c.transition[s * A + a];
        }
        double diff = 0.0;
        for (size_t s = 0; s < states; ++s) diff += std::abs(next[s] - pi[s]);
        pi.swap(next);
        if (diff < 1e-13) break;
    }
    c.stationary = pi;
    double h = 0.0;
    for (size_t s = 0; s < states; ++s)
        for (int a = 0; a < A; ++a) {
            const double p = c.transition[s * A + a];
            if (p > 0) h -= pi[s] * p * std::log(p);
        }
    c.entropy_rate = h;
    return c;
}

std::vector<uint8_t> sample_markov(const MarkovChain& c, int64_t length, uint64_t seed,
                                   const std::function<bool()>& cancelled) {
    const int A = c.alphabet;
    const size_t states = c.stationary.size();
    Rng rng(seed ^ 0x5A5A5A5A12345ull);
    size_t s = static_cast<size_t>(rng.next() % states);
    // Grown chunk by chunk (not zero-filled up front: 2 GB of that cannot be
    // interrupted), with a cancel check per chunk.
    std::vector<uint8_t> out;
    out.reserve(static_cast<size_t>(length));
    constexpr size_t kChunk = 1u << 20;
    while (out.size() < static_cast<size_t>(length)) {
        if (cancelled && cancelled()) throw Cancelled();
        const size_t begin = out.size(), end = std::min(static_cast<size_t>(length), begin + kChunk);
        out.resize(end);
        for (size_t i = begin; i < end; ++i) {
            const double u = rng.uniform();
            const double* row = &c.transition[s * A];
            int a = 0;
            double acc = row[0];
            while (a + 1 < A && u >= acc) acc += row[++a];
            out[i] = markov_symbol_byte(a);
            s = (s * A + a) % states;
        }
    }
    return out;
}

void batch_offsets(uint64_t seed, int64_t step, int batch, int context, size_t lo, size_t hi,
                   std::vector<int64_t>& out) {
    out.resize(static_cast<size_t>(batch));
    const uint64_t span = hi - lo - static_cast<size_t>(context);  // windows of context+1 bytes
    for (int b = 0; b < batch; ++b) {
        const uint64_t r = splitmix64(splitmix64(seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(step)) + b);
        out[b] = static_cast<int64_t>(lo + r % span);
    }
}

void check_data_source(const DataConfig& cfg, int context) {
    std::error_code ec;
    const size_t need = static_cast<size_t>(context) + 2;
    auto check_length = [&](uint64_t n, const std::string& field, const std::string& what) {
        const uint64_t val = static_cast<uint64_t>(std::llround(static_cast<double>(n) * cfg.val_fraction));
        if (n - val < need || val < need)
            throw ConfigError(field, what + " has " + std::to_string(n) + " bytes: too short for model.context " +
                                         std::to_string(context) + " with data.val_fraction " +
                                         std::to_string(cfg.val_fraction) + " (each split needs at least " +
                                         std::to_string(need) + " bytes); use a longer file or a smaller context");
    };
    switch (cfg.source) {
        case DataSource::File: {
            const fs::path p(cfg.path);
            const auto st = fs::status(p, ec);
            if (ec || !fs::exists(st))
                throw ConfigError("data.path", cfg.path + " does not exist; give the path of a text or binary file" +
                                                   (p.filename() == "english.txt" && p.parent_path().filename() == "normlab-data"
                                                        ? std::string(" (the English corpus: python3 scripts/make_corpus.py makes"
                                                                      " it in the project's folder, docs/CORPUS.md)")
                                                        : std::string()));
            if (fs::is_directory(st))
                throw ConfigError("data.path", cfg.path + " is a folder; give a file (or data.source \"corpus\" for a folder of texts)");
            if (!fs::is_regular_file(st))
                throw ConfigError("data.path", cfg.path + " is not a regular file (a device or pipe has no end to split"
                                               " into train and validation); give a file");
            std::ifstream f(p, std::ios::binary);
            if (!f) throw ConfigError("data.path", cfg.path + " cannot be read; check its permissions");
            const uint64_t size = fs::file_size(p, ec);
            if (size > kMaxDataBytes)
                throw ConfigError("data.path", cfg.path + " has " + std::to_string(size >> 20) +
                                                   " MiB; a run loads its data into memory and takes at most 4096 MiB");
            check_length(size, "data.path", cfg.path);
            break;
        }
        case DataSource::Corpus: {
            const fs::path dir = cfg.path.empty() ? fs::path(default_corpus_dir()) : fs::path(cfg.path);
            const std::string field = cfg.path.empty() ? "data.source" : "data.path";
            if (!fs::is_directory(dir, ec))
                throw ConfigError(field, "corpus: " + dir.string() + " is missing; install the default corpus with"
                                         " scripts/setup.sh (Debian package 'fortunes'), or set data.source to"
                                         " \"file\" or \"markov\"");
            uint64_t total = 0;
            const auto files = corpus_files(dir);
            for (auto& f : files) total += fs::file_size(f, ec);
            if (files.empty()) throw ConfigError(field, "corpus: no text files in " + dir.string());
            if (total > kMaxDataBytes) throw ConfigError(field, "corpus: " + dir.string() + " holds more than 4096 MiB");
            check_length(total, field, "the corpus " + dir.string());
            break;
        }
        case DataSource::Markov:
            break;   // validate() bounds its length; it is generated, never read
    }
}

Dataset load_dataset(const DataConfig& cfg, int context, const std::function<bool()>& cancelled) {
    Dataset d;
    switch (cfg.source) {
        case DataSource::Corpus: {
            const fs::path dir = cfg.path.empty() ? fs::path(default_corpus_dir()) : fs::path(cfg.path);
            std::error_code ec;
            if (!fs::is_directory(dir, ec))
                throw DataError("data.source corpus: " + dir.string() +
                                " is missing; install the default corpus with scripts/setup.sh"
                                " (Debian package 'fortunes'), or set data.source to \"file\" or \"markov\"");
            const std::vector<fs::path> files = corpus_files(dir);
            if (files.empty()) throw DataError("data.source corpus: no text files in " + dir.string());
            for (auto& f : files) {
                auto bytes = read_file(f, cancelled);
                // Fortune files separate entries with a line holding "%".
                std::string text(bytes.begin(), bytes.end());
                std::string clean;
                clean.reserve(text.size());
                std::istringstream in(text);
                std::string line;
                while (std::getline(in, line)) clean += (line == "%" ? std::string() : line) + "\n";
                d.bytes.insert(d.bytes.end(), clean.begin(), clean.end());
            }
            d.description = "fortunes corpus, " + std::to_string(files.size()) + " files (" +
                            human_size(d.bytes.size()) + ")";
            break;
        }
        case DataSource::File: {
            d.bytes = read_file(cfg.path, cancelled);
            d.description = fs::path(cfg.path).filename().string() + " (" + human_size(d.bytes.size()) + ")";
            break;
        }
        case DataSource::Markov: {
            const MarkovChain chain = make_markov_chain(cfg.markov);
            d.bytes = sample_markov(chain, cfg.markov.length, cfg.markov.seed, cancelled);
            d.entropy_rate = chain.entropy_rate;
            std::ostringstream s;
            s.precision(4);
            s << "markov order " << cfg.markov.order << ", " << cfg.markov.alphabet << " symbols, entropy rate "
              << chain.entropy_rate << " nats/byte";
            d.description = s.str();
            break;
        }
    }
    const size_t n = d.bytes.size();
    d.train_end = n - static_cast<size_t>(std::llround(static_cast<double>(n) * cfg.val_fraction));
    const size_t need = static_cast<size_t>(context) + 2;
    if (d.train_end < need || n - d.train_end < need)
        throw DataError("data: " + d.description + " is too short for context " + std::to_string(context) +
                        ": each split needs at least " + std::to_string(need) + " bytes (train has " +
                        std::to_string(d.train_end) + ", validation " + std::to_string(n - d.train_end) +
                        "); use a longer file, a smaller model.context or another data.val_fraction");
    return d;
}

double unigram_loss(const Dataset& d) {
    std::array<uint64_t, 256> train{}, val{};
    for (size_t i = 0; i < d.train_end; ++i) ++train[d.bytes[i]];
    for (size_t i = d.train_end; i < d.bytes.size(); ++i) ++val[d.bytes[i]];
    const double total = static_cast<double>(d.train_end) + 256.0;
    const double n_val = static_cast<double>(d.bytes.size() - d.train_end);
    double h = 0;
    for (int b = 0; b < 256; ++b)
        if (val[b]) h -= static_cast<double>(val[b]) / n_val * std::log((static_cast<double>(train[b]) + 1.0) / total);
    return h;
}

}  // namespace normlab
