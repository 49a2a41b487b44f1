// Helpers for the tests that build models (LibTorch).
#pragma once

#include "core/data/data.h"
#include "core/model/gpt.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/trainer.h"

#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <string>

namespace normlab::test {

// Relative difference, safe at zero.
inline double rel(double a, double b) {
    return std::abs(a - b) / std::max(1e-12, std::max(std::abs(a), std::abs(b)));
}

// The parameter called `name` ("blocks.0.attn.qkv.weight"); fails the test when absent.
inline torch::Tensor param(GPT& m, const std::string& name) {
    for (auto& p : m->named_parameters())
        if (p.key() == name) return p.value();
    qFatal("no parameter %s", name.c_str());
    return {};
}

// Trains c into `store` (the test fails unless it finishes) and rebuilds what the
// run started from: its model at initialization and the tokens of its batch at `step`.
struct Rebuilt {
    int64_t id;
    GPT model;
    torch::Tensor tokens;   // (batch, context + 1)
};
inline Rebuilt train_and_rebuild(Store& store, const RunConfig& c, int64_t step) {
    const int64_t id = queue_run(store, c);
    if (train_run(store, id).status != RunStatus::Finished) qFatal("run %lld did not finish", static_cast<long long>(id));
    GPT m(c.model);
    m->reset_parameters(c.train.seed);
    const Dataset data = load_dataset(c.data, c.model.context);
    return {id, m, batch_tokens(data, c.train.seed, step, c.train.batch_size, c.model.context, false)};
}

}  // namespace normlab::test
