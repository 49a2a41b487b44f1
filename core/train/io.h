// NormLab core (internal, LibTorch): checkpoints and safetensors.
//
// Checkpoint: a LibTorch archive holding "model" (the module's parameters),
// "optimizer" (its state), "step" (updates done) and "config" (RunConfig
// JSON). Written to a temporary file and renamed, so a crash never leaves a
// half-written checkpoint behind.
// safetensors: 8-byte little-endian header length, a JSON header
// {name: {dtype, shape, data_offsets}}, "__metadata__" with the config, then
// the raw little-endian tensor data (https://github.com/huggingface/safetensors).
#pragma once

#include "core/config.h"
#include "core/model/gpt.h"

#include <torch/torch.h>

#include <map>
#include <string>

namespace normlab {

void save_checkpoint(const std::string& file, GPT& model, torch::optim::Optimizer* opt, int64_t step,
                     const RunConfig& cfg);
// Loads into `model` (and `opt` when given); returns the step. Throws RunError.
int64_t load_checkpoint(const std::string& file, GPT& model, torch::optim::Optimizer* opt);

void write_safetensors(const std::string& file, const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                       const std::map<std::string, std::string>& metadata);
std::map<std::string, torch::Tensor> read_safetensors(const std::string& file);

// Builds a model from a stored run and loads its checkpoint (on the CPU).
GPT load_run_model(const RunConfig& cfg, const std::string& checkpoint);

}  // namespace normlab

namespace normlab {
struct Dataset;
// Windows of context+1 bytes for batch `step`: (B, T+1) int64 on the CPU.
// Training batches come from the train split; validation batches from the
// validation split (with the seed mixed so they never coincide).
torch::Tensor batch_tokens(const Dataset& data, uint64_t seed, int64_t step, int batch, int context, bool validation);
}  // namespace normlab
