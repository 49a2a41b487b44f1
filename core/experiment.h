// NormLab core: experiments as files.
//
// An experiment is a JSON document: a base run configuration plus variants
// and/or sweep axes, expanding to a list of runs:
//
//   { "name": "pre-vs-post", "description": "...",
//     "base":     { "scheme": "pre_ln", "model": { "n_layers": 6 }, ... },
//     "variants": [ { "name": "post", "scheme": "post_ln" }, { "name": "pre" } ],
//     "sweep":    { "optim.lr": [1e-3, 3e-3], "train.seed": [1, 2] } }
//
// Each variant is merged over the base (objects merge key by key, anything
// else replaces); every variant is then crossed with every sweep point.
// Errors name the field where it was written: `variants[2].model.n_heads: 6
// does not divide d_model 128; ...`. Format reference: docs/EXPERIMENTS.md.
#pragma once

#include "core/config.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace normlab {

struct ExperimentRun {
    std::string name;        // unique within the experiment
    RunConfig config;        // validated
    nlohmann::json resolved; // to_json(config)
};

struct Experiment {
    std::string name;
    std::string description;
    std::string file;        // where it was loaded from ("" when parsed from memory)
    nlohmann::json spec;     // the document as written
    std::vector<ExperimentRun> runs;
};

// Throws ConfigError with the path of the bad field; `name_hint` names an
// experiment that has no "name" of its own.
Experiment parse_experiment(const nlohmann::json& spec, const std::string& name_hint = "experiment");
// Reads and parses a file; a JSON syntax error reports the line and column.
Experiment load_experiment(const std::string& path);

// Deep merge: objects key by key, anything else replaced by `over`.
nlohmann::json merge_json(const nlohmann::json& base, const nlohmann::json& over);

}  // namespace normlab
