// NormLab core: experiments as files.
//
// An experiment is a JSON document: a base run configuration plus variants
// and/or sweep axes, expanding to a list of runs:
//
//   { "name": "pre-vs-post", "description": "...",
//     "base":     { "scheme": "pre_ln", "model": { "n_layers": 6 }, ... },
//     "variants": [ { "name": "post", "scheme": "post_ln" }, { "name": "pre" } ],
//     "sweep":    { "optim.lr": [1e-3, 3e-3], "train.seed": [1, 2] },
//     "scales":   { "gpu": { "base": { "model": { "d_model": 512 } } } },
//     "report":   [ { "finding": 1 } ] }
//
// A scale is a partial experiment merged over the document when it is chosen
// by name (`--scale gpu`): the default is the preset that fits two CPU cores.
// "report" lists what `normlab report` measures on the runs (core/report).
//
// Each variant is merged over the base (objects merge key by key, anything
// else replaces); every variant is then crossed with every sweep point.
// Errors name the field where it was written: `variants[2].model.n_heads: 6
// does not divide d_model 128; ...`. Format reference: docs/EXPERIMENTS.md.
#pragma once

#include "core/config.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace normlab {

struct ExperimentRun {
    std::string name;        // unique within the experiment
    RunConfig config;        // validated
    nlohmann::json resolved; // to_json(config)
    int variant = -1;        // index into the document's "variants"; -1: the base alone
};

struct Experiment {
    std::string name;
    std::string description;
    std::string file;        // where it was loaded from ("" when parsed from memory)
    nlohmann::json spec;     // the document as written
    std::string scale;       // the scale chosen ("" = the default preset)
    std::vector<std::string> scales;  // the scales the file offers
    nlohmann::json report;   // the "report" array (null when absent), scale applied
    std::vector<ExperimentRun> runs;
};

// Throws ConfigError with the path of the bad field; `name_hint` names an
// experiment that has no "name" of its own.
// `scale` picks one of the document's "scales" ("" = none).
Experiment parse_experiment(const nlohmann::json& spec, const std::string& name_hint = "experiment",
                            const std::string& scale = "");
// Reads and parses a file; a JSON syntax error reports the line and column.
Experiment load_experiment(const std::string& path, const std::string& scale = "");

// The experiment's document with `changes` (dotted path → value) made to its
// run `run` (an index into ex.runs): written into the variant that makes the
// run, or into "base" when there are no variants. Description, the other
// variants, sweeps, scales and report entries stay as written. A path that
// a sweep sets cannot be changed this way: it is left out and listed in
// `swept`.
nlohmann::json with_run_changes(const Experiment& ex, size_t run,
                                const std::vector<std::pair<std::string, nlohmann::json>>& changes,
                                std::vector<std::string>* swept = nullptr);

// The value at a dotted path ("optim.schedule.warmup"); nullptr when absent.
const nlohmann::json* find_path(const nlohmann::json& j, const std::string& dotted);
// Every leaf of a document by its dotted path ("model.d_model" → 128; an array is one leaf): the settings
// of configurations compared key by key (a shared finding's set-ups, the differences and sweep panels).
std::map<std::string, nlohmann::json> dotted_leaves(const nlohmann::json& j);
// Sets the value at a dotted path, creating objects on the way.
void set_path(nlohmann::json& j, const std::string& dotted, const nlohmann::json& value);

// Deep merge: objects key by key, anything else replaced by `over`.
nlohmann::json merge_json(const nlohmann::json& base, const nlohmann::json& over);

}  // namespace normlab
