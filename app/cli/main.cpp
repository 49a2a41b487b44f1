// normlab-cli: NormLab without a desktop, for GPU servers, clusters and scripts.
//
//   normlab-cli run EXPERIMENT.json [--store FILE] [--device cpu|cuda] [--only NAME]... [--threads N] [--steps N]
//                                   [--scale NAME]
//   normlab-cli validate EXPERIMENT.json [--scale NAME]
//   normlab-cli list | show RUN | export RUN --csv|--json [--out FILE]
//   normlab-cli export-weights RUN FILE.safetensors | eval-batch RUN FILE.safetensors [--batch N] [--seed S]
//   normlab-cli resume RUN | preset SCHEME | schemes
//   normlab-cli plot [RUN...] [--last N] --out DIR
//
// Exit codes: 0 success (every run finished), 1 an unexpected error, 2 bad
// usage or configuration, 3 a run diverged, 4 a run failed, 5 a store error,
// 130 interrupted (Ctrl-C: the run is saved as cancelled).
#include "core/config.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/platform.h"
#include "core/store/store.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "app/cli/svg_plot.h"
#include "core/series.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

using namespace normlab;
using nlohmann::json;

namespace {

enum Exit { kOk = 0, kError = 1, kUsage = 2, kDiverged = 3, kFailed = 4, kStore = 5, kInterrupted = 130 };

std::atomic<bool> g_interrupted{false};
void on_sigint(int) { g_interrupted = true; }

const char* kUsageText =
    "usage: normlab-cli COMMAND [ARGS] [--store FILE]\n"
    "\n"
    "commands:\n"
    "  run EXPERIMENT.json      train every run of an experiment (--only NAME to pick some,\n"
    "                           --device cpu|cuda|auto, --threads N, --steps N to override)\n"
    "  validate EXPERIMENT.json check an experiment and list the runs it expands to\n"
    "  list                     the runs in the store\n"
    "  show RUN                 one run: configuration, status, info, recorded series\n"
    "  export RUN --csv|--json  the run's data (--out FILE, default stdout)\n"
    "  export-weights RUN FILE  the run's latest weights as safetensors (docs/WEIGHTS.md)\n"
    "  eval-batch RUN FILE      logits and loss on a validation batch, as safetensors\n"
    "                           (--batch N, --seed S)\n"
    "  resume RUN               continue an interrupted or cancelled run from its checkpoint\n"
    "  plot [RUN...] --out DIR  SVG figures of runs (default: the last 2; --last N)\n"
    "  preset SCHEME            the full configuration a scheme preset gives, as JSON\n"
    "  schemes                  the schemes and their components\n"
    "\n"
    "The paper reproductions' report (figures drawn by the app's charts) is `normlab report`,\n"
    "which reuses runs trained here: normlab-cli run FILE --scale gpu, then normlab report FILE --scale gpu.\n"
    "RUN is an id or a unique name. The store defaults to $NORMLAB_STORE or\n"
    "~/.local/share/normlab/runs.sqlite.\n"
    "exit codes: 0 ok, 1 error, 2 usage/configuration, 3 diverged, 4 failed, 5 store, 130 interrupted\n";

struct Args {
    std::string command;
    std::vector<std::string> positional;
    std::multimap<std::string, std::string> options;
    std::vector<std::string> flags;
    bool has_flag(const std::string& f) const {
        return std::find(flags.begin(), flags.end(), f) != flags.end();
    }
    std::string opt(const std::string& k, const std::string& def = "") const {
        auto it = options.find(k);
        return it == options.end() ? def : it->second;
    }
};

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Args parse_args(int argc, char** argv) {
    static const std::vector<std::string> with_value{"--store", "--device", "--only", "--threads", "--steps",
                                                     "--out",   "--batch",  "--seed",  "--last", "--scale"};
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        if (s.rfind("--", 0) == 0) {
            std::string key = s, value;
            if (auto eq = s.find('='); eq != std::string::npos) {
                key = s.substr(0, eq);
                value = s.substr(eq + 1);
                a.options.emplace(key, value);
            } else if (std::find(with_value.begin(), with_value.end(), s) != with_value.end()) {
                if (i + 1 >= argc) throw UsageError(s + " needs a value");
                a.options.emplace(s, argv[++i]);
            } else {
                a.flags.push_back(s);
            }
        } else if (s == "-h") {
            a.flags.push_back("--help");
        } else if (a.command.empty()) {
            a.command = s;
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

int parse_int(const std::string& what, const std::string& s) {
    try {
        size_t pos = 0;
        int v = std::stoi(s, &pos);
        if (pos != s.size()) throw std::invalid_argument(s);
        return v;
    } catch (...) {
        throw UsageError(what + " expects an integer, got \"" + s + "\"");
    }
}

std::string format_duration(double s) {
    if (!std::isfinite(s) || s < 0) return "--:--";
    const int t = static_cast<int>(s + 0.5);
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
    return buf;
}

std::string fmt_loss(double v) {
    if (std::isnan(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

std::string time_text(double unix_s) {
    if (unix_s <= 0) return "-";
    std::time_t t = static_cast<std::time_t>(unix_s);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M", std::localtime(&t));
    return buf;
}

// A progress bar on a terminal, plain lines (every 10% or 30 s) otherwise.
class ProgressPrinter {
public:
    ProgressPrinter(size_t index, size_t count) : index_(index), count_(count), tty_(isatty(2)) {}
    void operator()(const Progress& p) {
        const double frac = p.total > 0 ? static_cast<double>(p.step) / p.total : 0;
        char head[64];
        std::snprintf(head, sizeof head, "[%zu/%zu]", index_, count_);
        char tail[160];
        std::snprintf(tail, sizeof tail, "step %lld/%lld loss %s val %s %.0f tok/s ETA %s",
                      static_cast<long long>(p.step), static_cast<long long>(p.total), fmt_loss(p.loss).c_str(),
                      fmt_loss(p.val_loss).c_str(), p.tokens_per_s, format_duration(p.eta_s).c_str());
        if (tty_) {
            const int width = 24, filled = static_cast<int>(frac * width);
            std::string bar(static_cast<size_t>(filled), '=');
            if (filled < width) bar += '>' + std::string(static_cast<size_t>(width - filled - 1), ' ');
            std::fprintf(stderr, "\r%s %-20.20s [%s] %s\033[K", head, p.run_name.c_str(), bar.c_str(), tail);
            drawn_ = true;
        } else {
            const int decile = static_cast<int>(frac * 10);
            if (decile != last_decile_ || p.elapsed_s - last_print_ > 30 || p.status != RunStatus::Running) {
                std::fprintf(stderr, "%s %s %s\n", head, p.run_name.c_str(), tail);
                last_decile_ = decile;
                last_print_ = p.elapsed_s;
            }
        }
        std::fflush(stderr);
    }

    // Ends the bar's line before anything else is printed.
    void finish() {
        if (tty_ && drawn_) std::fprintf(stderr, "\n");
        drawn_ = false;
    }

private:
    size_t index_, count_;
    bool tty_;
    bool drawn_ = false;
    int last_decile_ = -1;
    double last_print_ = 0;
};

int exit_for(const std::vector<RunResult>& results) {
    int code = kOk;
    for (auto& r : results) {
        if (r.status == RunStatus::Cancelled) return kInterrupted;
        if (r.status == RunStatus::Failed) code = kFailed;
        else if (r.status == RunStatus::Diverged && code == kOk) code = kDiverged;
    }
    return code;
}

std::vector<RunResult> train_all(Store& store, const std::vector<std::pair<int64_t, std::string>>& queued,
                                 const Args& args) {
    TrainOptions opts;
    opts.device = args.opt("--device");
    if (!opts.device.empty() && opts.device != "cpu" && opts.device != "auto" && opts.device.rfind("cuda", 0) != 0)
        throw UsageError("--device must be cpu, cuda, cuda:N or auto, got \"" + opts.device + "\"");
    if (args.options.count("--threads")) opts.threads = parse_int("--threads", args.opt("--threads"));
    opts.resume = args.command == "resume";
    RunControl control;
    opts.control = &control;
    std::signal(SIGINT, on_sigint);
    std::signal(SIGTERM, on_sigint);
    std::vector<RunResult> results;
    for (size_t i = 0; i < queued.size(); ++i) {
        ProgressPrinter printer(i + 1, queued.size());
        opts.on_progress = [&](const Progress& p) {
            if (g_interrupted) control.cancel();
            printer(p);
        };
        if (g_interrupted) break;
        RunResult r = train_run(store, queued[i].first, opts);
        printer.finish();
        results.push_back(r);
        const char* mark = r.status == RunStatus::Finished ? "finished" : status_name(r.status).c_str();
        std::fprintf(stderr, "[%zu/%zu] %s: %s after %lld steps, val loss %s%s%s\n", i + 1, queued.size(),
                     queued[i].second.c_str(), mark, static_cast<long long>(r.steps), fmt_loss(r.final_loss).c_str(),
                     r.message.empty() ? "" : " — ", r.message.c_str());
        if (r.status == RunStatus::Cancelled) break;
    }
    return results;
}

int cmd_run(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("run needs one experiment file: normlab-cli run EXPERIMENT.json");
    Experiment ex = load_experiment(args.positional[0], args.opt("--scale"));
    std::vector<std::string> only;
    for (auto [it, end] = args.options.equal_range("--only"); it != end; ++it) only.push_back(it->second);
    std::vector<ExperimentRun> chosen;
    for (auto& r : ex.runs) {
        bool keep = only.empty();
        for (auto& o : only)
            keep = keep || r.name == o || r.name.rfind(o + " ", 0) == 0;
        if (keep) chosen.push_back(r);
    }
    if (chosen.empty()) {
        std::string names;
        for (auto& r : ex.runs) names += "\n  " + r.name;
        throw UsageError("--only matches no run of " + ex.name + "; its runs are:" + names);
    }
    if (args.options.count("--steps")) {
        const int steps = parse_int("--steps", args.opt("--steps"));
        if (steps < 1) throw UsageError("--steps must be at least 1");
        for (auto& r : chosen) r.config.train.steps = steps;
    }
    Store store(args.opt("--store", Store::default_path()));
    const int64_t exp_id = store.add_experiment(ex.name, ex.file, ex.spec);
    std::vector<std::pair<int64_t, std::string>> queued;
    for (auto& r : chosen) queued.emplace_back(queue_run(store, r.config, exp_id, {ex.name}), r.name);
    std::fprintf(stderr, "%s: %zu run(s) queued in %s\n", ex.name.c_str(), queued.size(), store.path().c_str());
    auto results = train_all(store, queued, args);
    for (auto& r : results) std::printf("%lld\t%s\n", static_cast<long long>(r.run_id), status_name(r.status).c_str());
    return exit_for(results);
}

int cmd_resume(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("resume needs one run: normlab-cli resume RUN");
    Store store(args.opt("--store", Store::default_path()));
    RunInfo run = store.find_run(args.positional[0]);
    if (run.status == RunStatus::Finished) throw UsageError("run " + std::to_string(run.id) + " already finished");
    if (run.status == RunStatus::Running)
        throw UsageError("run " + std::to_string(run.id) + " is running in process " + std::to_string(run.pid));
    return exit_for(train_all(store, {{run.id, run.name}}, args));
}

int cmd_validate(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("validate needs one experiment file");
    Experiment ex = load_experiment(args.positional[0], args.opt("--scale"));
    std::printf("%s%s: %zu run(s)\n", ex.name.c_str(), ex.scale.empty() ? "" : (" (scale " + ex.scale + ")").c_str(),
                ex.runs.size());
    for (auto& r : ex.runs)
        std::printf("  %-40s %-10s d=%d L=%d H=%d steps=%d lr=%g\n", r.name.c_str(), scheme_name(r.config.scheme).c_str(),
                    r.config.model.d_model, r.config.model.n_layers, r.config.model.n_heads, r.config.train.steps,
                    r.config.optim.lr);
    return kOk;
}

int cmd_list(const Args& args) {
    Store store(args.opt("--store", Store::default_path()));
    auto runs = store.runs();
    std::printf("%-5s %-32s %-11s %-11s %9s %10s  %s\n", "id", "name", "scheme", "status", "steps", "val loss", "created");
    for (auto& r : runs)
        std::printf("%-5lld %-32.32s %-11s %-11s %9lld %10s  %s\n", static_cast<long long>(r.id), r.name.c_str(),
                    r.scheme.c_str(), status_name(r.status).c_str(), static_cast<long long>(r.steps_done),
                    fmt_loss(r.final_loss).c_str(), time_text(r.created_at).c_str());
    if (runs.empty()) std::printf("(no runs in %s)\n", store.path().c_str());
    return kOk;
}

int cmd_show(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("show needs one run: normlab-cli show RUN");
    Store store(args.opt("--store", Store::default_path()));
    RunInfo r = store.find_run(args.positional[0]);
    std::printf("run %lld: %s\n", static_cast<long long>(r.id), r.name.c_str());
    std::printf("  scheme      %s\n  status      %s", r.scheme.c_str(), status_name(r.status).c_str());
    if (r.status_step >= 0 && r.status != RunStatus::Finished) std::printf(" at step %lld", static_cast<long long>(r.status_step));
    std::printf("\n");
    if (!r.message.empty()) std::printf("  message     %s\n", r.message.c_str());
    std::printf("  steps       %lld\n  val loss    %s\n  device      %s\n  seed        %llu\n  created     %s\n",
                static_cast<long long>(r.steps_done), fmt_loss(r.final_loss).c_str(), r.device.c_str(),
                static_cast<unsigned long long>(r.seed), time_text(r.created_at).c_str());
    if (r.ended_at > 0 && r.started_at > 0) std::printf("  duration    %s\n", format_duration(r.ended_at - r.started_at).c_str());
    std::string tags;
    for (auto& t : r.tags) tags += (tags.empty() ? "" : ", ") + t;
    std::printf("  tags        %s\n  notes       %s\n  checkpoint  %s\n", tags.c_str(), r.notes.c_str(),
                r.checkpoint.empty() ? "-" : r.checkpoint.c_str());
    std::printf("  versions    %s\n  info        %s\n", r.versions.dump().c_str(), r.info.dump().c_str());
    std::map<std::string, std::pair<int, int64_t>> grouped;  // name -> (layers, points)
    for (auto& s : store.series(r.id)) {
        auto& g = grouped[s.name];
        g.first += s.layer >= 0 ? 1 : 0;
        g.second += s.count;
    }
    std::printf("  series      %zu\n", grouped.size());
    for (auto& [name, g] : grouped)
        std::printf("    %-28s %s%lld points\n", name.c_str(),
                    g.first ? (std::to_string(g.first) + " layers, ").c_str() : "", static_cast<long long>(g.second));
    std::map<std::string, size_t> dists;
    for (auto& d : store.distributions(r.id)) dists[d.name]++;
    for (auto& [name, n] : dists) std::printf("    %-28s %zu distributions\n", name.c_str(), n);
    std::printf("  config      %s\n", r.config.dump(2).c_str());
    return kOk;
}

std::string csv_escape(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

int cmd_export(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("export needs one run: normlab-cli export RUN --csv|--json");
    const bool csv = args.has_flag("--csv"), js = args.has_flag("--json");
    if (csv == js) throw UsageError("export needs exactly one of --csv or --json");
    Store store(args.opt("--store", Store::default_path()));
    RunInfo r = store.find_run(args.positional[0]);
    std::ofstream file;
    const std::string out = args.opt("--out");
    if (!out.empty()) {
        file.open(out);
        if (!file) throw UsageError("--out " + out + ": cannot write there");
    }
    std::ostream& os = out.empty() ? std::cout : file;
    os.precision(9);
    auto series = store.series(r.id);
    if (csv) {
        // Long format: one row per point, every point (never sampled).
        os << "run_id,run_name,series,layer,step,value\n";
        for (auto& s : series)
            for (auto& p : store.points(s.id))
                os << r.id << ',' << csv_escape(r.name) << ',' << s.name << ',' << s.layer << ',' << p.step << ','
                   << (std::isnan(p.value) ? std::string("nan") : (std::ostringstream() << std::setprecision(9) << p.value).str())
                   << '\n';
    } else {
        json j;
        j["run"] = {{"id", r.id},           {"name", r.name},         {"scheme", r.scheme},
                    {"status", status_name(r.status)}, {"status_step", r.status_step}, {"message", r.message},
                    {"config", r.config},   {"info", r.info},         {"versions", r.versions},
                    {"seed", r.seed},       {"tags", r.tags},         {"notes", r.notes},
                    {"steps_done", r.steps_done}, {"created_at", r.created_at}, {"started_at", r.started_at},
                    {"ended_at", r.ended_at}, {"device", r.device}};
        j["run"]["final_loss"] = std::isnan(r.final_loss) ? json(nullptr) : json(r.final_loss);
        json arr = json::array();
        for (auto& s : series) {
            json pts = json::array();
            for (auto& p : store.points(s.id))
                pts.push_back({p.step, std::isfinite(p.value) ? json(p.value) : json(nullptr)});
            arr.push_back({{"name", s.name}, {"layer", s.layer}, {"points", pts}});
        }
        j["series"] = arr;
        json dists = json::array();
        for (auto& d : store.distributions(r.id))
            dists.push_back({{"name", d.name}, {"layer", d.layer}, {"step", d.step}, {"count", d.count},
                             {"min", d.min}, {"q1", d.q1}, {"median", d.median}, {"q3", d.q3}, {"max", d.max},
                             {"mean", d.mean}, {"std", d.std}, {"hist_lo", d.hist_lo}, {"hist_hi", d.hist_hi},
                             {"hist", d.hist}});
        j["distributions"] = dists;
        os << j.dump(1) << '\n';
    }
    return kOk;
}

int cmd_export_weights(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("export-weights needs a run and a file: normlab-cli export-weights RUN FILE.safetensors");
    Store store(args.opt("--store", Store::default_path()));
    RunInfo r = store.find_run(args.positional[0]);
    export_safetensors(r, args.positional[1]);
    std::fprintf(stderr, "wrote %s (run %lld)\n", args.positional[1].c_str(), static_cast<long long>(r.id));
    return kOk;
}

int cmd_eval_batch(const Args& args) {
    if (args.positional.size() != 2) throw UsageError("eval-batch needs a run and a file: normlab-cli eval-batch RUN FILE.safetensors");
    Store store(args.opt("--store", Store::default_path()));
    RunInfo r = store.find_run(args.positional[0]);
    const int batch = args.options.count("--batch") ? parse_int("--batch", args.opt("--batch")) : 4;
    const int seed = args.options.count("--seed") ? parse_int("--seed", args.opt("--seed")) : 7;
    if (batch < 1) throw UsageError("--batch must be at least 1");
    const double loss = write_eval_batch(r, args.positional[1], batch, static_cast<uint64_t>(seed));
    std::printf("%.9g\n", loss);
    return kOk;
}

// Series of a run as (x, y) vectors; layer -1 for global series.
std::pair<std::vector<double>, std::vector<double>> xy(Store& store, int64_t run, const std::string& name, int layer = -1) {
    std::pair<std::vector<double>, std::vector<double>> out;
    for (auto& s : store.series(run))
        if (s.name == name && s.layer == layer)
            for (auto& p : store.points(s.id)) {
                out.first.push_back(static_cast<double>(p.step));
                out.second.push_back(p.value);
            }
    return out;
}

int layers_of(Store& store, int64_t run, const std::string& name) {
    int n = 0;
    for (auto& s : store.series(run))
        if (s.name == name) n = std::max(n, s.layer + 1);
    return n;
}

int cmd_plot(const Args& args) {
    const std::string out = args.opt("--out");
    if (out.empty()) throw UsageError("plot needs --out DIR");
    Store store(args.opt("--store", Store::default_path()));
    std::vector<RunInfo> runs;
    for (auto& key : args.positional) runs.push_back(store.find_run(key));
    if (runs.empty()) {
        auto all = store.runs();
        const int last = args.options.count("--last") ? parse_int("--last", args.opt("--last")) : 2;
        for (size_t i = all.size() > size_t(last) ? all.size() - last : 0; i < all.size(); ++i)
            if (all[i].status != RunStatus::Queued) runs.push_back(all[i]);
    }
    if (runs.empty()) throw UsageError("no runs to plot in " + store.path());
    std::filesystem::create_directories(out);
    std::vector<std::string> written;
    auto save = [&](const plot::Chart& c, const std::string& file) {
        plot::write_svg(c, out + "/" + file);
        written.push_back(out + "/" + file);
    };
    auto label = [](const RunInfo& r) { return r.name + " (#" + std::to_string(r.id) + ")"; };

    plot::Chart loss{"Training loss", "step", "loss (nats/byte)"};
    double floor = std::nan("");
    for (size_t i = 0; i < runs.size(); ++i) {
        auto [x, y] = xy(store, runs[i].id, "train/loss");
        loss.series.push_back({"", x, y, plot::palette(i), 1.0, 0.25});
        loss.series.push_back({label(runs[i]) + " train", x, debiased_ema(y, 0.9), plot::palette(i), 1.8});
        auto [vx, vy] = xy(store, runs[i].id, "val/loss");
        if (!vx.empty()) loss.series.push_back({label(runs[i]) + " val", vx, vy, plot::palette(i), 1.4, 1.0, true, true});
        if (runs[i].info.contains("loss_floor")) floor = runs[i].info["loss_floor"].get<double>();
    }
    if (std::isfinite(floor)) loss.hlines.push_back({floor, "loss floor (entropy rate)"});
    save(loss, "loss.svg");

    // The Pre-LN vs Post-LN picture: FC2 gradient size per layer, early in training.
    plot::Chart layers{"Mean |dL/dW_FC2| per layer, first probes", "layer", "mean |gradient|"};
    layers.log_y = true;
    layers.integer_x = true;
    plot::Chart hidden{"Hidden-state norm per layer, last probe", "layer", "mean ||x_l||"};
    hidden.integer_x = true;
    for (size_t i = 0; i < runs.size(); ++i) {
        const int L = layers_of(store, runs[i].id, "grad_l1/fc2");
        plot::Series s{label(runs[i]), {}, {}, plot::palette(i), 1.8, 1.0, false, true};
        plot::Series h{label(runs[i]), {}, {}, plot::palette(i), 1.8, 1.0, false, true};
        for (int l = 0; l < L; ++l) {
            auto [x, y] = xy(store, runs[i].id, "grad_l1/fc2", l);
            const size_t n = std::min<size_t>(y.size(), 5);
            double mean = 0;
            for (size_t k = 0; k < n; ++k) mean += y[k] / n;
            s.x.push_back(l);
            s.y.push_back(n ? mean : std::nan(""));
            auto [hx, hy] = xy(store, runs[i].id, "hidden/norm", l);
            h.x.push_back(l);
            h.y.push_back(hy.empty() ? std::nan("") : hy.back());
        }
        layers.series.push_back(s);
        hidden.series.push_back(h);

        plot::Chart per{"Mean |dL/dW_FC2| per layer: " + runs[i].name, "step", "mean |gradient|"};
        per.log_y = true;
        for (int l = 0; l < L; ++l) {
            auto [x, y] = xy(store, runs[i].id, "grad_l1/fc2", l);
            per.series.push_back({"layer " + std::to_string(l), x, y, plot::sequential(L > 1 ? double(l) / (L - 1) : 0)});
        }
        if (L > 0) save(per, "grad_l1_fc2_run" + std::to_string(runs[i].id) + ".svg");
    }
    save(layers, "grad_l1_fc2_by_layer.svg");
    save(hidden, "hidden_norm_by_layer.svg");
    for (auto& w : written) std::printf("%s\n", w.c_str());
    return kOk;
}

int cmd_preset(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("preset needs a scheme name");
    RunConfig cfg;
    apply_scheme(cfg, parse_scheme(args.positional[0]));
    std::printf("%s\n", to_json(cfg).dump(2).c_str());
    return kOk;
}

int cmd_schemes() {
    for (Scheme s : all_schemes()) {
        RunConfig cfg;
        apply_scheme(cfg, s);
        const auto& m = cfg.model;
        std::printf("%-11s %-10s layout=%s final_norm=%d headscale=%d post_attn_norm=%d ffn_norm=%d res_scale=%d "
                    "deepnorm.residual=%d deepnorm.init=%d branchnorm=%d\n",
                    scheme_name(s).c_str(), scheme_title(s).c_str(), to_json(cfg)["model"]["layout"].get<std::string>().c_str(),
                    m.final_norm, m.normformer.head_scale, m.normformer.post_attn_norm, m.normformer.ffn_norm,
                    m.normformer.res_scale, m.deepnorm.residual, m.deepnorm.init, m.branchnorm.enabled);
    }
    return kOk;
}

}  // namespace

int main(int argc, char** argv) {
    tune_cpu_kernels();   // before any LibTorch work
    auto logger = spdlog::stderr_color_mt("normlab");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%^%l%$: %v");
    spdlog::set_level(spdlog::level::warn);
    try {
        Args args = parse_args(argc, argv);
        if (args.has_flag("--verbose")) spdlog::set_level(spdlog::level::info);
        if (args.has_flag("--version")) {
            std::printf("normlab-cli %s\n%s\n", NORMLAB_VERSION, library_versions().dump().c_str());
            return kOk;
        }
        if (args.command.empty() || args.has_flag("--help") || args.command == "help") {
            std::fputs(kUsageText, args.command.empty() && !args.has_flag("--help") ? stderr : stdout);
            return args.command.empty() && !args.has_flag("--help") ? kUsage : kOk;
        }
        static const std::vector<std::string> known_flags{"--csv", "--json", "--verbose", "--help", "--version"};
        for (auto& f : args.flags)
            if (std::find(known_flags.begin(), known_flags.end(), f) == known_flags.end())
                throw UsageError("unknown option " + f + " (see normlab-cli --help)");
        const std::string& c = args.command;
        if (c == "run") return cmd_run(args);
        if (c == "resume") return cmd_resume(args);
        if (c == "validate") return cmd_validate(args);
        if (c == "list") return cmd_list(args);
        if (c == "show") return cmd_show(args);
        if (c == "export") return cmd_export(args);
        if (c == "export-weights") return cmd_export_weights(args);
        if (c == "eval-batch") return cmd_eval_batch(args);
        if (c == "preset") return cmd_preset(args);
        if (c == "plot") return cmd_plot(args);
        if (c == "schemes") return cmd_schemes();
        throw UsageError("unknown command \"" + c + "\" (see normlab-cli --help)");
    } catch (const UsageError& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kUsage;
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "normlab-cli: configuration error: %s\n", e.what());
        return kUsage;
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab-cli: store error: %s\n", e.what());
        return kStore;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", e.what());
        return kError;
    }
}
