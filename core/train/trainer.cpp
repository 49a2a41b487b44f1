// NormLab core: a run prepared, claimed and handed to its training loop
// (train_loop.h has the loop's stages; see trainer.h).
//
// Goals: one loop for every scheme; every probe on its own interval and
// cheap enough to leave on (device tensors are gathered and copied to the
// host once per probe, not once per value); the same seed gives the same loss
// trace on the CPU; a failure or divergence ends the run with a status rather
// than an exception; data-parallel ranks (core/dist) that step identically.
// Precision: fp32, TF32 or bf16 autocast with fp32 master weights (precision.h).
// Non-goals: sharded or model-parallel training.
#include "core/train/trainer.h"

#include "core/data/data.h"
#include "core/dist/communicator.h"
#include "core/errors.h"
#include "core/flops.h"
#include "core/model/gpt.h"
#include "core/platform.h"
#include "core/train/io.h"
#include "core/train/loop_state.h"
#include "core/train/precision.h"
#include "core/train/probes.h"
#include "core/train/recorder.h"
#include "core/train/static_step.h"
#include "core/train/train_loop.h"
#include "core/version.h"

#include <spdlog/spdlog.h>
#include <sqlite3.h>
#include <torch/version.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <thread>

namespace normlab {
namespace fs = std::filesystem;
using nlohmann::json;
using namespace train_detail;

RunResult train_run(Store& store, int64_t run_id, const TrainOptions& opts) {
    auto info = store.run(run_id);
    if (!info) throw StoreError("no run " + std::to_string(run_id) + " in " + store.path());
    if (store.read_only()) throw StoreError(store.path() + " is open read-only; runs cannot be trained into it");
    require_trainable(*info, opts.resume);
    const std::string id_text = "run " + std::to_string(run_id);
    RunConfig cfg = run_config_from_json(info->config);
    validate(cfg);
    if (!opts.device.empty()) cfg.train.device = opts.device;
    if (opts.threads >= 0) cfg.train.threads = opts.threads;
    // Data-parallel: W ranks, this one R; rank 0 alone writes checkpoints.
    Communicator* const comm = opts.comm;
    const int W = comm ? comm->world_size() : 1, R = comm ? comm->rank() : 0;
    if (comm && cfg.train.threads == 0)   // the node's cores shared among its ranks
        cfg.train.threads = std::max(1, default_threads() / std::max(1, comm->launch().local_world_size));

    RunResult result;
    result.run_id = run_id;
    auto cancelled = [&] { return !comm && opts.control && opts.control->cancelled(); };

    // ---- Preparation: nothing is written. A resume that cannot start leaves
    // the run's record exactly as it was; a queued run is marked failed, so
    // that it never waits forever.
    Prepared p;
    std::string prep_error;
    bool prep_cancelled = false;
    try {
        if (comm && cfg.train.batch_size % W != 0)
            throw ConfigError("train.batch_size", std::to_string(cfg.train.batch_size) + " cannot be split among " +
                                                      std::to_string(W) + " processes; use a multiple of " + std::to_string(W));
        p.device_name = resolve_device(cfg.train.device);
        if (cfg.train.cuda_graph == "on")
            if (const std::string why = static_step_unsupported(cfg, comm != nullptr); !why.empty())
                throw ConfigError("train.cuda_graph", "\"on\" cannot train this run: " + why + "; use auto or off");
        // Each rank on its own GPU: the one its process group runs on (cuda:LOCAL_RANK).
        if (comm && p.device_name.rfind("cuda", 0) == 0 && comm->device().rfind("cuda", 0) == 0) p.device_name = comm->device();
        if (comm && (p.device_name.rfind("cuda", 0) == 0) != (comm->device().rfind("cuda", 0) == 0))
            throw RunError("the run trains on " + p.device_name + " but its process group (" + comm->backend() +
                           ") was started for " + comm->device() + "; pass --device to choose one for both");
        torch::set_num_threads(cfg.train.threads > 0 ? cfg.train.threads : default_threads());
        p.data = load_dataset(cfg.data, cfg.model.context, cancelled);
        // A resume must see the bytes the run trained on: a changed file would silently change the run.
        if (opts.resume) check_same_data(info->info, p.data, cfg.data);
        p.model = GPT(cfg.model);
        p.model->reset_parameters(cfg.train.seed);
        p.model->to(torch::Device(p.device_name));
        p.optimizer = make_optimizer(cfg.optim, p.model);
        if (opts.resume && !info->checkpoint.empty()) {
            json saved;
            p.step = load_checkpoint(info->checkpoint, p.model, p.optimizer.get(), &saved);
            if (p.step < 0 || p.step > cfg.train.steps)
                throw RunError("checkpoint " + info->checkpoint + " is at step " + std::to_string(p.step) + " of a " +
                               std::to_string(cfg.train.steps) + "-step run");
            p.st = LoopState::from(saved);
        }
    } catch (const Cancelled&) {
        prep_cancelled = true;
    } catch (const std::exception& e) {
        prep_error = dynamic_cast<const c10::Error*>(&e) ? static_cast<const c10::Error&>(e).what_without_backtrace()
                                                         : e.what();
    }
    if (comm) {
        // Rank 0's checkpoint (weights, optimizer state, loop state) to every
        // rank, then every rank says whether it is ready: one that is not
        // stops them all before anything is written.
        try {
            const bool sends = R == 0 && prep_error.empty() && !prep_cancelled && p.step > 0;
            const std::string bytes = comm->share(sends ? read_checkpoint_bytes(info->checkpoint) : std::string());
            if (R > 0 && !bytes.empty() && prep_error.empty()) {
                json saved;
                p.step = load_checkpoint_bytes(bytes, p.model, p.optimizer.get(), &saved);
                p.st = LoopState::from(saved);
            }
        } catch (const std::exception& e) {
            if (prep_error.empty()) prep_error = e.what();
        }
        const bool ready = prep_error.empty() && !prep_cancelled;
        double not_ready = 0;
        try {
            not_ready = comm->sum({ready ? 0.0 : 1.0})[0];
        } catch (const std::exception& e) {
            if (prep_error.empty()) prep_error = e.what();
        }
        if (ready && prep_error.empty() && not_ready > 0)
            prep_error = "another rank of the " + std::to_string(W) + " could not prepare the run; see its log";
    }
    if (prep_cancelled) {
        result.status = RunStatus::Cancelled;
        result.message = "cancelled before training started";
        if (!opts.resume) store.finish_run(run_id, RunStatus::Cancelled, 0, result.message, std::nan(""));
        return result;
    }
    if (!prep_error.empty()) {
        const std::string& msg = prep_error;
        if (opts.resume) throw RunError("cannot resume " + id_text + ": " + msg + "; its record was left as it was");
        store.finish_run(run_id, RunStatus::Failed, 0, msg, std::nan(""));
        store.heartbeat(run_id, 0);
        result.message = msg;
        return result;
    }

    // ---- Claim: an atomic change from the status read above. Of two
    // processes resuming the same run, one wins; the other changes nothing.
    if (!store.claim_run(run_id, info->status, p.device_name, library_versions()))
        throw RunError(id_text + " was claimed by another process meanwhile (it is being trained); nothing was changed");

    // ---- Training, stage by stage (train_loop.h).
    TrainLoop loop(store, *info, cfg, opts, p);
    return loop.run();
}

}  // namespace normlab
