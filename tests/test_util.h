// Helpers the test suites share: a tiny run configuration, file bytes, and
// the message of the error an action throws.
#pragma once

#include "core/config.h"
#include "core/errors.h"

#include <fstream>
#include <iterator>
#include <string>

namespace normlab::test {

// A model small enough to train in a fraction of a second: d 32, 2 layers,
// context 16, batch 8, an order-1 Markov source, one thread, no validation.
inline RunConfig tiny(Scheme s, int steps = 1) {
    RunConfig c;
    apply_scheme(c, s);
    c.name = scheme_name(s);
    c.model.d_model = 32;
    c.model.n_layers = 2;
    c.model.n_heads = 4;
    c.model.d_ff = 64;
    c.model.context = 16;
    c.train.steps = steps;
    c.train.batch_size = 8;
    c.train.eval_every = 0;
    c.train.eval_batches = 2;
    c.train.threads = 1;
    c.data.source = DataSource::Markov;
    c.data.markov.order = 1;
    c.data.markov.alphabet = 8;
    c.data.markov.length = 20000;
    c.optim.lr = s == Scheme::NGPT ? 1e-2 : 3e-3;
    c.optim.schedule.warmup = s == Scheme::NGPT ? 0 : 10;
    if (s == Scheme::BranchNorm) c.model.branchnorm.T = 20;
    return c;
}

inline std::string read_bytes(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

// what() of the E that `f` throws ("" if none).
template <class E, class F> std::string error_of(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}
template <class F> std::string config_error(F&& f) { return error_of<ConfigError>(f); }
template <class F> std::string store_error(F&& f) { return error_of<StoreError>(f); }

}  // namespace normlab::test
