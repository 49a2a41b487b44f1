// NormLab core (internal, LibTorch): checkpoints and safetensors.
//
// Checkpoint: a LibTorch archive holding "model" (the module's parameters),
// "optimizer" (its state), "step" (updates done), "config" (RunConfig JSON)
// and "state" (the trainer's own state as JSON: wall time, divergence
// tracking, the recent losses — what a resumed run needs to continue the
// same trace). Serialized in memory, then written to a temporary file,
// fsynced and renamed: a crash or a full disk never leaves a half-written
// checkpoint under the final name, and a failed write removes its temporary
// file and throws RunError (never aborts).
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
                     const RunConfig& cfg, const nlohmann::json& state = nlohmann::json::object());
// Loads into `model` (and `opt` when given); returns the step and, when
// `state` is given, the trainer state ({} for older checkpoints). Throws RunError.
int64_t load_checkpoint(const std::string& file, GPT& model, torch::optim::Optimizer* opt,
                        nlohmann::json* state = nullptr);

// A checkpoint's bytes (another rank's, received through the process group):
// loaded as load_checkpoint loads a file, from memory.
int64_t load_checkpoint_bytes(const std::string& bytes, GPT& model, torch::optim::Optimizer* opt,
                              nlohmann::json* state);
// The bytes of a checkpoint file ("" when it cannot be read).
std::string read_checkpoint_bytes(const std::string& file);

// Writes `bytes` to `file` through FILE.tmp + fsync + rename; removes the
// temporary file and throws RunError on any error (ENOSPC included).
void write_file_atomically(const std::string& file, const std::string& bytes);

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
