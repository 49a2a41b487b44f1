// normlab-cli: what run, resume and validate share — choosing the runs of an
// experiment, checking them all before anything is written (preflight), and
// training a list of runs with a progress bar, stopping cleanly on Ctrl-C.
#include "app/cli/training.h"

#include "app/stop_signals.h"

#include "core/errors.h"
#include "core/train/fit_batch.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <map>
#include <thread>
#include <unistd.h>

namespace normlab::cli {
namespace {


// Ctrl-C / SIGTERM / SIGHUP: the first asks the run to stop (it is saved as
// cancelled within a second); a second one, half a second or more later, ends
// the process at once (the store stays consistent and the run becomes
// `interrupted`). g_cause keeps the first stop's signal, for the run's message.
std::atomic<int> g_signals{0};
std::atomic<int> g_cause{0};
std::atomic<long long> g_first_signal{0};
void note_cause(int sig) {
    int none = 0;
    g_cause.compare_exchange_strong(none, sig);
}
void on_signal(int sig) {
    if (second_stop_signal(g_first_signal)) ::_exit(kInterrupted);
    note_cause(sig);
    g_signals = 1;
}
// SIGPIPE: what read the progress (a pipe, `| head`, an ssh channel) has gone.
// A stop like the others, never a second one: every later write raises it again.
void on_pipe(int sig) {
    note_cause(sig);
    g_signals = 1;
}
// Why the run stopped when no user stopped it by hand (RunControl::message).
std::string cause_text() { return app::stop_cause(g_cause.load()); }
// SIGUSR1 (`normlab-cli cancel RUN`): stop the run being trained (saved as
// cancelled, with a checkpoint) and go on with the next one.
std::atomic<int> g_skip{0};
void on_skip(int) { g_skip = 1; }

// Polls the signal flag and cancels the run from a normal thread (a signal
// handler may not take locks), so a long data load or evaluation sees it too.
class SignalWatcher {
public:
    explicit SignalWatcher(RunControl& control) : control_(control) {
        std::signal(SIGINT, on_signal);
        std::signal(SIGTERM, on_signal);
        app::stop_on_hangup(on_signal);
        std::signal(SIGPIPE, on_pipe);
        std::signal(SIGUSR1, on_skip);
        thread_ = std::thread([this] {
            while (!stop_) {
                if (g_signals > 0) control_.cancel(cause_text());
                else if (g_skip > 0) control_.cancel();
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~SignalWatcher() {
        stop_ = true;
        thread_.join();
    }

private:
    RunControl& control_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

}  // namespace

int exit_for(const std::vector<RunResult>& results) {
    int code = kOk;
    for (auto& r : results) {
        if (r.status == RunStatus::Cancelled) return kInterrupted;
        if (r.status == RunStatus::Failed || r.status == RunStatus::Interrupted) code = kFailed;
        else if (r.status == RunStatus::Diverged && code == kOk) code = kDiverged;
    }
    return code;
}

TrainOptions train_options(const Args& args) {
    TrainOptions opts;
    opts.device = args.opt("--device");
    if (!opts.device.empty() && opts.device != "cpu" && opts.device != "auto" && opts.device.rfind("cuda", 0) != 0)
        throw UsageError("--device must be cpu, cuda, cuda:N or auto, got \"" + opts.device + "\"");
    if (args.options.count("--threads")) opts.threads = parse_int("--threads", args.opt("--threads"), 0, 1024);
    opts.resume = args.command == "resume";
    return opts;
}

// Runs that a stop left queued are marked cancelled, so none waits forever;
// `normlab-cli resume ID` starts one.
void cancel_rest(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued, size_t from) {
    for (size_t i = from; i < queued.size(); ++i) {
        auto r = store.run(queued[i].first);
        if (r && r->status == RunStatus::Queued)
            store.finish_run(r->id, RunStatus::Cancelled, 0,
                             "not started: the experiment was stopped; 'normlab-cli resume " + std::to_string(r->id) +
                                 "' starts it", std::nan(""));
    }
}

namespace {

// A detached launch's run that its process could not start is queued no longer:
// the store says why, where the window and `remote follow` look (its log alone
// would leave them waiting for it). Its steps, checkpoint and rows are kept.
void unstarted(Store& store, int64_t run, RunStatus status, std::string why) {
    const std::string kept = "; its record was left as it was";   // so it was, until now
    if (why.size() > kept.size() && why.compare(why.size() - kept.size(), kept.size(), kept) == 0)
        why.resize(why.size() - kept.size());
    const std::string resume = "'normlab-cli resume " + std::to_string(run) + "'";
    if (status == RunStatus::Failed) store.fail_queued(run, "not started: " + why + "; " + resume + " tries again");
    else store.cancel_queued(run, (why.empty() ? std::string("cancelled before training started") : why) + "; " + resume + " starts it");
}

// After a Ctrl-C (or SIGTERM): the command that goes on with what it stopped, the run it
// cancelled from its checkpoint and those it left unstarted, on this store.
void say_how_to_go_on(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued) {
    std::string ids;
    for (auto& [id, name] : queued)
        if (auto r = store.run(id); r && r->status == RunStatus::Cancelled) ids += " " + std::to_string(id);
    if (ids.empty()) return;
    std::fprintf(stderr, "stopped; to go on from where each run stopped: normlab-cli resume%s%s\n", ids.c_str(),
                 store_option(store).c_str());
}

}  // namespace

std::vector<RunResult> train_all(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued,
                                 TrainOptions opts, bool quiet, bool only_queued) {
    RunControl control;
    opts.control = &control;
    SignalWatcher watcher(control);
    std::vector<RunResult> results;
    size_t i = 0;
    try {
        for (; i < queued.size(); ++i) {
            if (g_signals > 0) break;
            // A run deleted (the window's Delete, normlab-cli delete), cancelled (normlab-cli cancel) or
            // started elsewhere (a resume) before its turn is skipped, not the rest of the experiment
            // cancelled; so is a run to resume that another process resumed, finished or is training
            // by its turn (checked when the command started: resume refuses those before anything).
            const std::optional<RunInfo> now = store.run(queued[i].first);
            // (Data-parallel ranks, each with its own copy of the runs, go on together: not there.)
            const bool gone_elsewhere =
                now && (only_queued ? now->status != RunStatus::Queued
                        : opts.comm ? false
                        : !opts.resume ? now->status != RunStatus::Queued
                                       : !resumable(now->status));
            if (!now || gone_elsewhere) {
                const std::string what = !now ? "deleted before it started"
                                         : now->status == RunStatus::Running
                                             ? "started by another process (pid " + std::to_string(now->pid) + " on " + now->host + ")"
                                         : opts.resume && !only_queued ? now->status_text + " by another process before its turn"
                                                                       : now->status_text + " before it started";
                std::fprintf(stderr, "[%zu/%zu] %s: %s; skipped\n", i + 1, queued.size(), queued[i].second.c_str(), what.c_str());
                // A run this resume was asked for, which another process is training now, could not be started
                // here: exit 4, as when the other process claims it a moment later (train_run's RunError) or
                // earlier (resume refuses a running run). Two resumes of one run at once: one trains, one fails,
                // whichever check the second meets (it exited 0 when it met this one).
                if (now && opts.resume && !only_queued && now->status == RunStatus::Running)
                    results.push_back(RunResult{queued[i].first, RunStatus::Failed, 0, std::nan(""), what});
                continue;
            }
            g_skip = 0;
            control.reset();
            ProgressPrinter printer(i + 1, queued.size());
            if (!quiet) opts.on_progress = [&](const Progress& p) { printer(p); };
            RunResult r;
            bool deleted = false;
            try {
                r = train_run(store, queued[i].first, opts);
            } catch (const std::exception& e) {
                deleted = !store.run(queued[i].first);   // deleted while it was prepared: as above
                if (!deleted) {
                    if (only_queued) unstarted(store, queued[i].first, RunStatus::Failed, e.what());
                    throw;
                }
            }
            if (deleted) {
                printer.finish();
                std::fprintf(stderr, "[%zu/%zu] %s: deleted before it started; skipped\n", i + 1, queued.size(),
                             queued[i].second.c_str());
                continue;
            }
            if (only_queued && r.status == RunStatus::Cancelled) unstarted(store, queued[i].first, RunStatus::Cancelled, r.message);
            printer.finish();
            results.push_back(r);
            if (quiet) {
                if (r.status == RunStatus::Failed) std::fprintf(stderr, "%s: failed — %s\n", queued[i].second.c_str(), r.message.c_str());
                if (r.status == RunStatus::Cancelled || r.status == RunStatus::Failed) break;
                continue;
            }
            const std::string mark = status_name(r.status);
            std::fprintf(stderr, "[%zu/%zu] %s: %s after %lld steps, val loss %s%s%s\n", i + 1, queued.size(),
                         queued[i].second.c_str(), mark.c_str(), static_cast<long long>(r.steps),
                         fmt_loss(r.final_loss).c_str(), r.message.empty() ? "" : " — ", r.message.c_str());
            // `normlab-cli cancel` stopped this run only: the next one trains.
            if (r.status == RunStatus::Cancelled && g_skip > 0 && g_signals == 0 && !opts.comm) continue;
            // Data-parallel: a failure is usually a lost rank, which the next run would meet too.
            if (r.status == RunStatus::Cancelled || (opts.comm && r.status == RunStatus::Failed)) {
                ++i;
                break;
            }
        }
    } catch (...) {
        cancel_rest(store, queued, i + 1);
        throw;
    }
    cancel_rest(store, queued, i);
    // (Data-parallel ranks go on only under their launcher: torchrun, srun.)
    if (g_signals > 0 && !quiet && !opts.comm) say_how_to_go_on(store, queued);
    if (g_signals > 0 && results.empty()) results.push_back(RunResult{0, RunStatus::Cancelled, 0, 0, ""});
    return results;
}

// Every chosen run checked (fields, device, data, memory) before the store is opened.
void preflight_all(const std::vector<ExperimentRun>& runs) {
    for (auto& r : runs) {
        try {
            preflight(r.config);
        } catch (const ConfigError& e) {
            throw ConfigError(e.path(), e.message() + (runs.size() > 1 ? " (run \"" + r.name + "\")" : std::string()));
        }
    }
}

std::vector<ExperimentRun> chosen_runs(const Experiment& ex, const Args& args) {
    std::vector<std::string> only;
    for (auto [it, end] = args.options.equal_range("--only"); it != end; ++it) only.push_back(it->second);
    // --index I or I-J: the experiment's runs by position (0-based, inclusive), as a sweep's array task picks them.
    int first = 0, last = static_cast<int>(ex.runs.size()) - 1;
    if (args.options.count("--index")) {
        const std::string v = args.opt("--index");
        const auto dash = v.find('-', 1);
        const int n = static_cast<int>(ex.runs.size());
        first = parse_int("--index", v.substr(0, dash), 0, n - 1);
        last = dash == std::string::npos ? first : parse_int("--index", v.substr(dash + 1), 0, n - 1);
        if (last < first)
            throw UsageError("--index " + v + " ends before it starts; give I-J with I <= J (positions 0 to " +
                             std::to_string(n - 1) + ")");
    }
    // --only NAME: the run named NAME where there is one; otherwise the runs whose names start with "NAME "
    // (a variant's sweep points). So the variant "T=100" is not taken with "T=100 no offsets" beside it.
    std::vector<bool> exact(only.size(), false);
    for (size_t o = 0; o < only.size(); ++o)
        for (auto& r : ex.runs) exact[o] = exact[o] || r.name == only[o];
    std::vector<ExperimentRun> chosen;
    for (int idx = 0; idx < static_cast<int>(ex.runs.size()); ++idx) {
        const auto& r = ex.runs[idx];
        if (idx < first || idx > last) continue;
        bool keep = only.empty();
        for (size_t o = 0; o < only.size(); ++o)
            keep = keep || r.name == only[o] || (!exact[o] && r.name.rfind(only[o] + " ", 0) == 0);
        if (keep) chosen.push_back(r);
    }
    if (chosen.empty()) {
        std::string names;
        for (auto& r : ex.runs) names += "\n  " + r.name;
        throw UsageError("--only matches no run of " + ex.name + "; its runs are:" + names);
    }
    if (args.options.count("--steps")) {
        const int steps = parse_int("--steps", args.opt("--steps"), 1, 1000000000);
        for (auto& r : chosen) r.config.train.steps = steps;
    }
    const std::string device = args.opt("--device");
    for (auto& r : chosen) {
        if (!device.empty()) r.config.train.device = device;
        if (args.options.count("--threads")) r.config.train.threads = parse_int("--threads", args.opt("--threads"), 0, 1024);
        if (args.options.count("--precision")) r.config.train.precision = args.opt("--precision");   // validated with the run
        if (args.options.count("--cuda-graph")) r.config.train.cuda_graph = args.opt("--cuda-graph");
    }
    if (args.options.count("--batch")) {
        const std::string v = args.opt("--batch");
        if (v != "auto") {
            const int b = parse_int("--batch", v, 1, 65536);
            for (auto& r : chosen) r.config.train.batch_size = b;
        } else {
            // Measured on each run's device; runs that differ only in what does
            // not change memory (learning rate, seed, steps) share one measurement.
            std::map<std::string, int> fitted;
            for (auto& r : chosen) {
                validate(r.config);
                nlohmann::json key = to_json(r.config);
                key.erase("name");
                for (const char* k : {"steps", "seed", "eval_every", "checkpoint_every", "checkpoint_seconds", "batch_size"})
                    key["train"].erase(k);
                key["optim"].erase("lr");
                key.erase("probes");
                auto [it, fresh] = fitted.emplace(key.dump(), 0);
                if (fresh) {
                    const BatchFit f = fit_batch(r.config, 0.85, [] { return g_signals > 0; });
                    it->second = f.batch;
                    std::fprintf(stderr, "--batch auto: %s: batch %d on %s (a step's peak %.1f GiB of the %.1f GiB allowed, "
                                         "85%% of %.1f GiB)\n", r.name.c_str(), f.batch, f.device.c_str(),
                                 f.peak_bytes / (1 << 30), f.budget_bytes / (1 << 30), f.total_bytes / (1 << 30));
                }
                r.config.train.batch_size = it->second;
            }
        }
    }
    return chosen;
}

}  // namespace normlab::cli
