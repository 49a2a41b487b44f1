// Helpers for the tests that build models (LibTorch).
#pragma once

#include "core/model/gpt.h"

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

}  // namespace normlab::test
