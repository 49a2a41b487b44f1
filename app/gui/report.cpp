// normlab report (see report.h).
#include "app/gui/report.h"

#include "app/gui/offscreen.h"
#include "app/stop_signals.h"

#include "core/counted.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/report/report.h"
#include "core/store/output_guard.h"
#include "core/store/store.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "widgets/figure.h"
#include "widgets/reportfigure.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <thread>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

namespace normlab {
namespace {

std::atomic<bool> g_stop{false};
std::atomic<int> g_cause{0};   // the first signal that stopped it
pid_t g_parent = 0;            // who started it
bool g_window_death = false;   // its end sends SIGTERM here (started by the window)
void on_signal(int sig) {
    int none = 0;
    g_cause.compare_exchange_strong(none, sig);
    g_stop = true;
}
// Why the run stopped when no user stopped it by hand (RunControl::message).
// The window's Stop sends SIGTERM; so does the kernel when the window that started it ends
// outright (app/gui/child_process.h), which leaves this process another parent.
std::string cause_text() {
    const int sig = g_cause.load();
    if (sig == SIGTERM && g_window_death && ::getppid() != g_parent) return "the window that started it ended";
    return app::stop_cause(sig);
}

// The notes' relative links and images (a figure beside NOTES.md), made relative to the Markdown
// file that takes the notes in, in another folder: they pointed at nothing there.
QString relinked(const QString& notes, const QDir& notes_dir, const QDir& markdown_dir) {
    static const QRegularExpression link(R"((!?\[[^\]]*\]\()([^()\s]+)\))");
    QString out;
    qsizetype last = 0;
    for (auto it = link.globalMatch(notes); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        QString target = m.captured(2);
        if (!target.contains("://") && !target.startsWith('/') && !target.startsWith('#') && !target.startsWith("mailto:"))
            target = markdown_dir.relativeFilePath(notes_dir.absoluteFilePath(target));
        out += notes.mid(last, m.capturedStart() - last) + m.captured(1) + target + ")";
        last = m.capturedEnd();
    }
    return out + notes.mid(last);
}

struct Options {
    QStringList experiments;
    QString out, markdown, notes, store, scale, device, generated_by;
    int threads = -1, dpi = 150;
    bool retrain = false, no_train = false, accept_stopped = false, trained_only = false;
};

struct Usage : std::runtime_error {
    using std::runtime_error::runtime_error;
};

const char* kUsage =
    "usage: normlab report EXPERIMENT.json... --out DIR [--markdown FILE] [--notes FILE.md]\n"
    "                      [--store FILE] [--scale NAME] [--retrain] [--no-train] [--accept-stopped]\n"
    "                      [--trained-only] [--device cpu|cuda|auto] [--threads N] [--dpi N] [--generated-by TEXT]\n"
    "Trains the experiments' runs (finished runs with the same configuration are reused from the\n"
    "store unless --retrain), measures the findings each experiment's \"report\" names and writes\n"
    "DIR/report.md, DIR/index.html, DIR/report.json and DIR/figures/*.png|svg. A finding that several of\n"
    "the experiments name is measured once, on the runs of all of them (their set-ups must agree in what\n"
    "none of them varies).\n"
    "--accept-stopped reuses a run that stopped before its last step (cancelled or interrupted, with its\n"
    "data: a GPU lease's time limit) where no finished one matches, and then compares all the runs of its\n"
    "experiment over the steps every one of them reached; a seed stopped short of 90 % of its steps, where\n"
    "another seed of the same run got that far, is left out instead. The report names both.\n"
    "--trained-only reports what the store holds and trains nothing: a run of an experiment that is not in\n"
    "the store is left out and named in the \"Runs:\" line of its findings (a sweep trained a GPU lease at\n"
    "a time).\n";

// Each finding the experiments name → where: (experiment, entry), in the order given.
std::map<int, std::vector<std::pair<size_t, size_t>>> named_findings(const std::vector<Experiment>& exps) {
    std::map<int, std::vector<std::pair<size_t, size_t>>> out;
    for (size_t e = 0; e < exps.size(); ++e)
        for (size_t i = 0; i < exps[e].report.size(); ++i) out[exps[e].report[i]["finding"].get<int>()].push_back({e, i});
    return out;
}

Options parse(const QStringList& args) {
    Options o;
    auto value = [&](int& i) {
        if (i + 1 >= args.size()) throw Usage(args[i].toStdString() + " needs a value");
        return args[++i];
    };
    auto number = [&](int& i) {
        const QString flag = args[i];
        bool ok = false;
        const int v = value(i).toInt(&ok);
        if (!ok || v < 0) throw Usage(flag.toStdString() + " needs a non-negative integer, got \"" + args[i].toStdString() + "\"");
        return v;
    };
    for (int i = 0; i < args.size(); ++i) {
        const QString a = args[i];
        if (a == "--out") o.out = value(i);
        else if (a == "--markdown") o.markdown = value(i);
        else if (a == "--notes") o.notes = value(i);
        else if (a == "--store") o.store = value(i);
        else if (a == "--generated-by") o.generated_by = value(i);
        else if (a == "--scale") o.scale = value(i);
        else if (a == "--device") o.device = value(i);
        else if (a == "--threads") o.threads = number(i);
        else if (a == "--dpi") o.dpi = std::max(72, number(i));
        else if (a == "--help" || a == "-h") throw Usage("");
        else if (a == "--retrain") o.retrain = true;
        else if (a == "--no-train") o.no_train = true;
        else if (a == "--accept-stopped") o.accept_stopped = true;
        else if (a == "--trained-only") o.trained_only = o.no_train = true;
        else if (a.startsWith("--")) throw Usage("unknown option " + a.toStdString());
        else o.experiments << a;
    }
    if (o.experiments.isEmpty()) {
        // where this NormLab's own are: relative to here in a checkout, absolute where installed
        QString dir = shipped_experiments_dir();
        if (dir.isEmpty()) dir = "experiments";
        else if (const QString rel = QDir::current().relativeFilePath(dir); !rel.startsWith("..")) dir = rel;
        throw Usage("name at least one experiment file, e.g. " + dir.toStdString() + "/reproduction/*.json");
    }
    if (o.out.isEmpty()) throw Usage("--out DIR is required (where the report and its figures go)");
    if (o.retrain && o.trained_only) throw Usage("--retrain and --trained-only contradict each other; pick one");
    if (o.retrain && o.no_train) throw Usage("--retrain and --no-train contradict each other; pick one");
    if (o.retrain && o.accept_stopped) throw Usage("--retrain and --accept-stopped contradict each other; pick one");
    return o;
}

std::string machine_text(const std::string& device) {
    std::string cpu;
    std::ifstream f("/proc/cpuinfo");
    for (std::string line; std::getline(f, line);)
        if (line.rfind("model name", 0) == 0) {
            cpu = line.substr(line.find(':') + 2);
            break;
        }
    std::string s = (cpu.empty() ? std::string("unknown CPU") : cpu) + ", " +
                    std::to_string(std::thread::hardware_concurrency()) + " hardware threads, LibTorch threads " +
                    std::to_string(default_threads()) + ", device " + device;
    return s;
}

std::string versions_text() {
    const auto v = library_versions();
    std::string s = std::string("NormLab ") + NORMLAB_VERSION;
    for (auto it = v.begin(); it != v.end(); ++it)
        if (it.key() != "normlab" && it.value().is_string()) s += ", " + it.key() + " " + it.value().get<std::string>();
    return s;
}

}  // namespace

QString shipped_experiments_dir(const QString& app_dir, const QString& cwd) {
    for (const QString& d : {QDir(cwd).filePath("experiments"), app_dir + "/../share/normlab/experiments",
                             app_dir + "/../../experiments"})
        if (!QDir(d + "/reproduction").entryList({"*.json"}, QDir::Files).isEmpty())
            return QDir::cleanPath(QDir(d).absolutePath());
    return {};
}

QString shipped_experiments_dir() {
    const QString app = QCoreApplication::applicationDirPath();
    QString found = shipped_experiments_dir(app, QDir::currentPath());
#ifdef NORMLAB_BUILD_SOURCE_DIR
    // a build outside the checkout (cmake -B /elsewhere), started from anywhere: the checkout it was built from
    if (found.isEmpty()) found = shipped_experiments_dir(app, QStringLiteral(NORMLAB_BUILD_SOURCE_DIR));
#endif
    return found;
}

int run_report(const QStringList& args) {
    quiet_offscreen_notes();
    Options o;
    try {
        o = parse(args);
    } catch (const Usage& e) {
        if (!*e.what()) {   // --help
            std::printf("%s", kUsage);
            return 0;
        }
        std::fprintf(stderr, "normlab report: %s\n%s", e.what(), kUsage);
        return 2;
    }
    // Load and check everything before training anything.
    std::vector<Experiment> exps;
    std::map<int, std::vector<std::pair<size_t, size_t>>> named;   // finding → (experiment, entry)
    try {
        for (auto& file : o.experiments) {
            Experiment ex = load_experiment(file.toStdString(), o.scale.toStdString());
            if (!ex.report.is_array() || ex.report.empty())
                throw ConfigError("report", ex.file + " names no findings; add \"report\": [{\"finding\": N}] or drop the file");
            for (size_t i = 0; i < ex.report.size(); ++i)
                if (!report::known_finding(ex.report[i]["finding"].get<int>()))
                    throw ConfigError("report[" + std::to_string(i) + "].finding",
                                      std::to_string(ex.report[i]["finding"].get<int>()) + " is not a finding NormLab measures; use 1 to " +
                                          std::to_string(report::finding_count()));
            exps.push_back(std::move(ex));
        }
        named = named_findings(exps);
        for (auto& [number, where] : named) {
            std::vector<report::FindingSource> sources;
            for (auto [e, i] : where) {
                report::FindingSource s{exps[e].file, i, exps[e].report[i], {}};
                for (auto& r : exps[e].runs) s.configs.push_back(r.resolved);
                sources.push_back(std::move(s));
            }
            report::check_shared_finding(number, sources);
        }
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "normlab report: %s\n", e.what());
        return 2;
    }

    std::unique_ptr<Store> store;
    try {
        store = std::make_unique<Store>(o.store.isEmpty() ? Store::default_path() : o.store.toStdString());
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab report: %s\n", e.what());
        return 5;
    }
    // Nothing the report writes may land on the store, its log or checkpoints, or an experiment file.
    try {
        std::vector<std::string> inputs;
        for (auto& ex : exps) inputs.push_back(ex.file);
        check_output_folder(o.out.toStdString(), "--out");
        for (const char* name : {"report.md", "index.html", "report.json", "figures"})
            check_output_path(QDir(o.out).filePath(name).toStdString(), "--out", inputs);
        if (!o.markdown.isEmpty()) check_output_file(o.markdown.toStdString(), "--markdown", inputs);
        if (!o.notes.isEmpty()) check_output_path(o.markdown.isEmpty() ? QDir(o.out).filePath("report.md").toStdString()
                                                                      : o.markdown.toStdString(), "--markdown", {o.notes.toStdString()});
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "normlab report: %s\n", e.what());
        return 2;
    }

    int code = 0;
    std::vector<report::Finding> findings;
    // Ctrl-C / SIGTERM (the app's Stop button, or the window ended) / SIGHUP / a closed pipe: the run
    // in progress is kept as cancelled, saying why; finished runs stay in the store for the next report.
    RunControl control;
    g_stop = false;
    g_cause = 0;
    g_parent = ::getppid();
#ifdef __linux__
    int death_signal = 0;
    g_window_death = ::prctl(PR_GET_PDEATHSIG, &death_signal) == 0 && death_signal == SIGTERM;
#endif
    auto old_int = std::signal(SIGINT, on_signal);
    auto old_term = std::signal(SIGTERM, on_signal);
    auto old_pipe = std::signal(SIGPIPE, on_signal);   // `normlab report | head`: a stop, not a death mid-step
    struct sigaction old_hup {};
    ::sigaction(SIGHUP, nullptr, &old_hup);
    normlab::app::stop_on_hangup(on_signal);   // the terminal it was started from closed
    struct Restore {
        decltype(old_int) i, t, p;
        struct sigaction h;
        ~Restore() { std::signal(SIGINT, i), std::signal(SIGTERM, t), std::signal(SIGPIPE, p), ::sigaction(SIGHUP, &h, nullptr); }
    } restore{old_int, old_term, old_pipe, old_hup};
    TrainOptions topts;
    topts.device = o.device.toStdString();
    topts.threads = o.threads;
    topts.control = &control;
    int last_decile = -1;
    topts.on_progress = [&](const Progress& p) {
        if (g_stop) control.cancel(cause_text());
        const int decile = p.total > 0 ? static_cast<int>(10 * p.step / p.total) : 0;
        if (decile != last_decile && decile > 0 && decile < 10) {   // a line per 10% for logs and the app's dialog
            std::fprintf(stderr, "  %s: step %lld/%lld, loss %.4f, %.0f tokens/s\n", p.run_name.c_str(),
                         static_cast<long long>(p.step), static_cast<long long>(p.total), p.loss, p.tokens_per_s);
        }
        last_decile = decile;
    };
    std::string device_used = resolve_device(o.device.isEmpty() ? "auto" : o.device.toStdString());
    report::CompletedRuns completed(*store, o.accept_stopped);
    std::vector<std::vector<report::RunData>> exp_runs(exps.size());
    std::vector<std::string> exp_left_out(exps.size());
    for (size_t e = 0; e < exps.size(); ++e) {
        const Experiment& ex = exps[e];
        std::vector<report::RunData>& runs = exp_runs[e];
        int64_t exp_id = 0;
        size_t reused = 0, trained = 0;
        std::vector<std::string> left_out;   // --trained-only: not in the store
        for (size_t i = 0; i < ex.runs.size(); ++i) {
            const auto& er = ex.runs[i];
            int64_t id = o.retrain ? 0 : completed.find(er.resolved);
            if (id) {
                ++reused;
            } else if (o.trained_only) {
                left_out.push_back(er.name);
                continue;
            } else if (o.no_train) {
                std::fprintf(stderr, "normlab report: %s: run \"%s\" is not in %s and --no-train was given\n",
                             ex.name.c_str(), er.name.c_str(), store->path().c_str());
                return 1;
            } else {
                if (!exp_id) exp_id = store->add_experiment(ex.name, ex.file, ex.spec);
                if (g_stop) return 130;
                id = queue_run(*store, er.config, exp_id, {ex.name, "report"});
                const RunResult r = train_run(*store, id, topts);
                ++trained;
                std::fprintf(stderr, "%s [%zu/%zu] %s: %s after %lld steps\n", ex.name.c_str(), i + 1, ex.runs.size(),
                             er.name.c_str(), status_name(r.status).c_str(), static_cast<long long>(r.steps));
                if (r.status == RunStatus::Failed || r.status == RunStatus::Cancelled) {
                    std::fprintf(stderr, "normlab report: %s: run \"%s\" %s: %s\n", ex.name.c_str(), er.name.c_str(),
                                 status_name(r.status).c_str(), r.message.c_str());
                    return r.status == RunStatus::Cancelled ? 130 : 1;
                }
                completed.add(id, er.resolved);   // another file may ask for the same run
            }
            report::RunData rd = report::load_run(*store, *store->run(id));
            rd.name = er.name;   // the experiment's name for it, whatever it was renamed to
            rd.variant = report::variant_of(er.name);
            runs.push_back(std::move(rd));
        }
        std::fprintf(stderr, "%s: %s reused from the store, %zu trained\n", ex.name.c_str(),
                     counted(static_cast<long long>(reused), "run").c_str(), trained);
        std::string not_trained;
        for (auto& n : left_out) not_trained += (not_trained.empty() ? "" : ", ") + n;
        if (!left_out.empty()) {
            std::fprintf(stderr, "%s: %s not in the store, left out (--trained-only): %s\n", ex.name.c_str(),
                         counted(static_cast<long long>(left_out.size()), "run").c_str(), not_trained.c_str());
            exp_left_out[e] = "not trained yet, left out: " + not_trained;
        }
        if (runs.empty()) std::fprintf(stderr, "%s: none of its runs is in the store: its findings are left out\n", ex.name.c_str());
    }
    // Each finding once, on the runs of every experiment that names it (checked above: their set-ups agree).
    for (auto& [number, where] : named) {
        std::vector<size_t> from;   // the experiments, each once (a file may name a finding twice)
        for (auto [e, i] : where)
            if (std::find(from.begin(), from.end(), e) == from.end()) from.push_back(e);
        std::vector<const std::vector<report::RunData>*> sets;
        std::vector<std::string> names;
        std::string left_out;
        for (size_t e : from) {
            names.push_back(exps[e].name);
            if (!exp_runs[e].empty()) sets.push_back(&exp_runs[e]);
            if (!exp_left_out[e].empty())
                left_out += (left_out.empty() ? "" : "; ") + (from.size() > 1 ? exps[e].name + ": " : "") + exp_left_out[e];
        }
        if (sets.empty()) continue;   // said above
        // A copy only where the runs of several experiments are joined or cut to equal steps.
        std::vector<report::RunData> joined;
        const bool copy = sets.size() > 1 || o.accept_stopped;
        if (copy) joined = report::union_of_runs(sets);
        const std::vector<report::RunData>& runs = copy ? joined : *sets.front();
        std::string label;
        for (auto& n : names) label += (label.empty() ? "" : ", ") + n;
        if (names.size() > 1)
            std::fprintf(stderr, "finding %d: measured once, on the %zu runs of %s\n", number, runs.size(), label.c_str());
        const std::string aligned = o.accept_stopped ? report::align_runs(joined) : "";
        if (!aligned.empty()) std::fprintf(stderr, "%s: %s\n", label.c_str(), aligned.c_str());
        const auto [e, i] = where.front();
        try {
            findings.push_back(report::analyze(exps[e].report[i], runs, label));
            if (!aligned.empty()) findings.back().setup += "; " + aligned;
            if (!left_out.empty()) findings.back().setup += "; " + left_out;
        } catch (const ConfigError& err) {
            std::fprintf(stderr, "normlab report: %s: report[%zu]: %s\n", exps[e].file.c_str(), i, err.what());
            report::Finding f;
            f.number = number;
            f.title = report::finding_title(f.number);
            f.experiment = label;
            f.verdict = report::Verdict::Inconclusive;
            f.result = std::string("Could not be measured: ") + err.what();
            findings.push_back(f);
            code = 1;
        }
        if (names.size() > 1) findings.back().experiments = names;
    }
    QDir out(o.out);
    if (!out.mkpath("figures")) {
        std::fprintf(stderr, "normlab report: cannot create %s/figures; check the path and permissions\n", qPrintable(o.out));
        return 1;
    }
    for (auto& f : findings)
        for (auto& fig : f.figures) {
            QString err;
            if (!write_report_figure(fig, out.filePath("figures/" + QString::fromStdString(fig.id)), o.dpi, &err)) {
                std::fprintf(stderr, "normlab report: figure %s: %s\n", fig.id.c_str(), qPrintable(err));
                code = 1;
            }
        }

    report::ReportMeta meta;
    meta.command = o.generated_by.isEmpty() ? "normlab report " + args.join(' ').toStdString() : o.generated_by.toStdString();
    meta.date = QDateTime::currentDateTime().toString("yyyy-MM-dd HH:mm").toStdString();
    meta.machine = machine_text(device_used);
    meta.versions = versions_text();
    meta.scale = o.scale.toStdString();
    if (!o.notes.isEmpty()) {
        QFile nf(o.notes);
        if (!nf.open(QIODevice::ReadOnly | QIODevice::Text)) {
            std::fprintf(stderr, "normlab report: cannot read --notes %s\n", qPrintable(o.notes));
            return 2;
        }
        meta.notes = QString::fromUtf8(nf.readAll()).toStdString();
    }
    auto write = [&](const QString& path, const std::string& text) {   // whole or not at all: the last report stays on a failure
        if (const QString why = write_whole(path, QByteArray::fromStdString(text)); !why.isEmpty()) {
            std::fprintf(stderr, "normlab report: cannot write %s: %s\n", qPrintable(path), qPrintable(why));
            code = 1;
        }
    };
    const QString md_path = o.markdown.isEmpty() ? out.filePath("report.md") : o.markdown;
    if (!meta.notes.empty())
        meta.notes = relinked(QString::fromStdString(meta.notes), QFileInfo(o.notes).absoluteDir(),
                              QFileInfo(md_path).absoluteDir()).toStdString();
    const QString fig_rel = QFileInfo(md_path).absoluteDir().relativeFilePath(out.absoluteFilePath("figures"));
    write(md_path, report::to_markdown(findings, meta, fig_rel.toStdString()));
    write(out.filePath("index.html"), report::to_html(findings, meta, "figures"));
    write(out.filePath("report.json"), report::to_json(findings, meta).dump(2) + "\n");
    std::fprintf(stderr, "normlab report: %s → %s\n", counted(static_cast<long long>(findings.size()), "finding").c_str(),
                 qPrintable(md_path));
    for (auto& f : findings)
        std::printf("%2d  %-20s %s\n", f.number, report::verdict_name(f.verdict).c_str(), f.title.c_str());
    return code;
}

}  // namespace normlab
