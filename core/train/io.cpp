// NormLab core: checkpoints, safetensors, evaluation of stored weights (see io.h).
#include "core/train/io.h"

#include "core/atomic_file.h"
#include "core/data/data.h"
#include "core/errors.h"
#include "core/store/output_guard.h"
#include "core/train/loop_state.h"
#include "core/train/trainer.h"

#include <filesystem>
#include <fstream>
#include <functional>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;

void write_file_atomically(const std::string& file, const std::string& bytes) {
    AtomicFile f(file);
    if (!f.ok()) throw RunError("cannot write " + file + ": " + f.why());
    if (!f.write(bytes) || !f.commit()) throw RunError("cannot write " + file + ": " + f.why());
}

void save_checkpoint(const std::string& file, GPT& model, torch::optim::Optimizer* opt, int64_t step,
                     const RunConfig& cfg, const json& state) {
    std::error_code ec;
    fs::create_directories(fs::path(file).parent_path(), ec);
    if (ec) throw RunError("cannot create the checkpoint folder " + fs::path(file).parent_path().string() + ": " + ec.message());
    torch::serialize::OutputArchive top, m, o;
    model->save(m);
    top.write("model", m);
    if (opt) {
        opt->save(o);
        top.write("optimizer", o);
    }
    top.write("step", torch::tensor(step, torch::kInt64));
    top.write("config", c10::IValue(to_json(cfg).dump()));
    top.write("state", c10::IValue(state.dump()));
    // In memory first: LibTorch's file writer aborts the process when the
    // disk fills (it throws from a destructor); our own write reports it.
    std::string bytes;
    top.save_to([&](const void* data, size_t n) -> size_t {
        bytes.append(static_cast<const char*>(data), n);
        return n;
    });
    write_file_atomically(file, bytes);
}

std::string read_checkpoint_bytes(const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

namespace {

// Reads an opened checkpoint into `model` (and `opt`); `source` names it in errors.
int64_t load_archive(const std::function<void(torch::serialize::InputArchive&)>& open, const std::string& source,
                     GPT& model, torch::optim::Optimizer* opt, json* state) {
    try {
        torch::serialize::InputArchive top, m;
        open(top);
        top.read("model", m);
        model->load(m);
        if (opt) {
            torch::serialize::InputArchive o;
            top.read("optimizer", o);
            opt->load(o);
        }
        torch::Tensor step;
        top.read("step", step);
        if (state) {
            c10::IValue v;
            *state = json::object();
            if (top.try_read("state", v) && v.isString()) *state = json::parse(v.toStringRef(), nullptr, false);
            if (state->is_discarded() || !state->is_object()) *state = json::object();
        }
        return step.item<int64_t>();
    } catch (const c10::Error& e) {
        throw RunError("cannot read " + source + " (damaged or truncated?): " + e.what_without_backtrace());
    } catch (const std::exception& e) {
        throw RunError("cannot read " + source + " (damaged or truncated?): " + e.what());
    }
}

}  // namespace

int64_t load_checkpoint(const std::string& file, GPT& model, torch::optim::Optimizer* opt, json* state) {
    if (file.empty() || !fs::exists(file))
        throw RunError("checkpoint " + (file.empty() ? std::string("(none)") : file) +
                       " is missing; the run has no saved weights to continue from or export");
    return load_archive([&](torch::serialize::InputArchive& top) { top.load_from(file); }, "checkpoint " + file, model,
                        opt, state);
}

// From memory: no temporary file (which a full or unwritable temporary folder
// had left empty, to be reported as a damaged checkpoint).
int64_t load_checkpoint_bytes(const std::string& bytes, GPT& model, torch::optim::Optimizer* opt, json* state) {
    return load_archive([&](torch::serialize::InputArchive& top) { top.load_from(bytes.data(), bytes.size()); },
                        "the checkpoint received from rank 0", model, opt, state);
}

GPT load_run_model(const RunConfig& cfg, const std::string& checkpoint) {
    GPT model(cfg.model);
    load_checkpoint(checkpoint, model, nullptr);
    model->eval();
    return model;
}

namespace {
const char* dtype_name(torch::ScalarType t) {
    switch (t) {
        case torch::kFloat: return "F32";
        case torch::kDouble: return "F64";
        case torch::kInt64: return "I64";
        case torch::kInt32: return "I32";
        case torch::kUInt8: return "U8";
        case torch::kBFloat16: return "BF16";
        case torch::kHalf: return "F16";
        default: throw RunError("safetensors: unsupported tensor type");
    }
}
torch::ScalarType dtype_of(const std::string& s) {
    if (s == "F32") return torch::kFloat;
    if (s == "F64") return torch::kDouble;
    if (s == "I64") return torch::kInt64;
    if (s == "I32") return torch::kInt32;
    if (s == "U8") return torch::kUInt8;
    if (s == "BF16") return torch::kBFloat16;
    if (s == "F16") return torch::kHalf;
    throw RunError("safetensors: unsupported dtype " + s);
}
}  // namespace

void write_safetensors(const std::string& file, const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                       const std::map<std::string, std::string>& metadata) {
    json header = json::object();
    std::vector<torch::Tensor> data;
    size_t offset = 0;
    for (auto& [name, t0] : tensors) {
        auto t = t0.detach().to(torch::kCPU).contiguous();
        const size_t bytes = static_cast<size_t>(t.numel()) * t.element_size();
        header[name] = {{"dtype", dtype_name(t.scalar_type())},
                        {"shape", t.sizes().vec()},
                        {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
        data.push_back(t);
    }
    if (!metadata.empty()) header["__metadata__"] = metadata;
    std::string h = header.dump();
    while ((h.size() + 8) % 8 != 0) h += ' ';
    uint64_t n = h.size();
    std::string bytes;
    for (int i = 0; i < 8; ++i) bytes += static_cast<char>((n >> (8 * i)) & 0xff);
    bytes += h;
    for (auto& t : data)
        bytes.append(static_cast<const char*>(t.data_ptr()), static_cast<size_t>(t.numel() * t.element_size()));
    write_file_atomically(file, bytes);
}

std::map<std::string, torch::Tensor> read_safetensors(const std::string& file) {
    std::ifstream f(file, std::ios::binary);
    if (!f) throw RunError("cannot read " + file);
    unsigned char len[8];
    f.read(reinterpret_cast<char*>(len), 8);
    uint64_t n = 0;
    for (int i = 0; i < 8; ++i) n |= static_cast<uint64_t>(len[i]) << (8 * i);
    if (!f || n > (1u << 30)) throw RunError(file + " is not a safetensors file");
    std::string h(n, '\0');
    f.read(h.data(), static_cast<std::streamsize>(n));
    std::vector<char> rest((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    json header = json::parse(h);
    std::map<std::string, torch::Tensor> out;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        auto shape = it.value()["shape"].get<std::vector<int64_t>>();
        auto off = it.value()["data_offsets"].get<std::vector<size_t>>();
        auto t = torch::empty(shape, torch::TensorOptions().dtype(dtype_of(it.value()["dtype"])));
        if (off[1] > rest.size() || off[1] - off[0] != static_cast<size_t>(t.numel() * t.element_size()))
            throw RunError(file + ": tensor " + it.key() + " has inconsistent offsets");
        std::memcpy(t.data_ptr(), rest.data() + off[0], off[1] - off[0]);
        out[it.key()] = t;
    }
    return out;
}

void export_safetensors(const RunInfo& run, const std::string& file) {
    check_output_file(file, "FILE", {run.checkpoint});
    const RunConfig cfg = run_config_from_json(run.config);
    GPT model = load_run_model(cfg, run.checkpoint);
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (auto& p : model->named_parameters()) tensors.emplace_back(p.key(), p.value());
    write_safetensors(file, tensors,
                      {{"format", "normlab"}, {"config", to_json(cfg).dump()}, {"run_id", std::to_string(run.id)},
                       {"run_name", run.name}});
}

double write_eval_batch(const RunInfo& run, const std::string& file, int batch, uint64_t seed) {
    check_output_file(file, "FILE", {run.checkpoint});
    const RunConfig cfg = run_config_from_json(run.config);
    GPT model = load_run_model(cfg, run.checkpoint);
    const double branch_alpha = branchnorm_alpha(cfg.model.branchnorm, run.steps_done);
    model->set_branch_alpha(branch_alpha);
    const Dataset data = load_dataset(cfg.data, cfg.model.context);
    std::vector<int64_t> offsets;
    batch_offsets(seed, 0, batch, cfg.model.context, data.train_end, data.bytes.size(), offsets);
    const int64_t T = cfg.model.context;
    auto tokens = torch::empty({batch, T + 1}, torch::kInt64);
    auto acc = tokens.accessor<int64_t, 2>();
    for (int b = 0; b < batch; ++b)
        for (int64_t t = 0; t <= T; ++t) acc[b][t] = data.bytes[static_cast<size_t>(offsets[b] + t)];
    torch::NoGradGuard ng;
    auto x = tokens.narrow(1, 0, T), y = tokens.narrow(1, 1, T);
    auto logits = model->forward(x);
    auto loss = GPTImpl::loss(logits, y);
    write_safetensors(file, {{"tokens", tokens}, {"logits", logits}, {"loss", loss.reshape({1})}},
                      {{"format", "normlab-eval"},
                       {"config", to_json(cfg).dump()},
                       {"branch_alpha", json(branch_alpha).dump()},
                       {"steps_done", std::to_string(run.steps_done)}});
    return loss.item<double>();
}

int64_t write_train_batches(const RunInfo& run, const std::string& file, int64_t first, int64_t last) {
    check_output_file(file, "--out", {run.checkpoint});
    const RunConfig cfg = run_config_from_json(run.config);
    const int64_t steps = cfg.train.steps;
    if (first < 0 || last < first || last >= steps)
        throw ConfigError("--steps", std::to_string(first) + ".." + std::to_string(last) + " is outside the run's steps 0.." +
                                         std::to_string(steps - 1) + " (A..B, both included)");
    const int64_t B = cfg.train.batch_size, T = cfg.model.context, n = last - first + 1;
    const double bytes = static_cast<double>(n) * B * (T + 1) * 8;
    if (bytes > 2.0 * (1ull << 30))
        throw ConfigError("--steps", std::to_string(n) + " steps of " + std::to_string(B) + " × " + std::to_string(T + 1) +
                                         " tokens would take " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
                                         " MiB; export at most 2 GiB at once (a shorter range)");
    const Dataset data = load_dataset(cfg.data, cfg.model.context);
    // The tokens are the run's only if the data is: refused when its file changed since.
    train_detail::check_same_data(run.info, data, cfg.data);
    auto tokens = torch::empty({n, B, T + 1}, torch::kInt64);
    auto stepv = torch::empty({n}, torch::kInt64);
    for (int64_t i = 0; i < n; ++i) {
        // What the trainer draws for update `first + i` (trainer.cpp): the same counter-based batch.
        tokens[i].copy_(batch_tokens(data, cfg.train.seed, first + i, static_cast<int>(B), static_cast<int>(T), false));
        stepv[i] = first + i;
    }
    write_safetensors(file, {{"tokens", tokens}, {"steps", stepv}},
                      {{"format", "normlab-batches"},
                       {"config", to_json(cfg).dump()},
                       {"run_id", std::to_string(run.id)},
                       {"run_name", run.name},
                       {"data_hash", train_detail::data_fingerprint(data.bytes)},
                       {"first_step", std::to_string(first)},
                       {"last_step", std::to_string(last)}});
    return n;
}

}  // namespace normlab
