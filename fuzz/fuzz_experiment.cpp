// libFuzzer: an experiment file as a user might write it. Any input must end
// in an experiment or a ConfigError naming the place — never a crash, a hang,
// a sanitizer report or another exception.
#include "core/errors.h"
#include "core/experiment.h"
#include "core/json_input.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 1 << 16) return 0;
    const std::string text(reinterpret_cast<const char*>(data), size);
    try {
        const nlohmann::json spec = normlab::parse_json_strict(text, "fuzz.json");
        normlab::Experiment ex = normlab::parse_experiment(spec, "fuzz");
        for (auto& r : ex.runs) normlab::estimate_memory(r.config);
    } catch (const normlab::ConfigError&) {
    }
    return 0;
}
