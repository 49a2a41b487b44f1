// normlab-cli remote: training on a GPU server over the user's own ssh —
// check it, start an experiment there detached, follow its runs live into a
// local store (the mirror), list, cancel and resume them (docs/REMOTE.md).
#include "app/cli/cli.h"
#include "app/cli/follow_progress.h"
#include "app/stop_signals.h"

#include "core/counted.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/remote/remote.h"
#include "core/store/output_guard.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <memory>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace normlab::cli {
namespace {

std::atomic<int> g_stop{0};
std::atomic<long long> g_first_stop{0};
void on_stop(int) {
    if (second_stop_signal(g_first_stop)) ::_exit(kInterrupted);
    g_stop = 1;
}

// What every action takes (its server, server_of), and what each action takes besides;
// kRemoteOptions is every one of them (remote's entry in the command table).
constexpr const char* kServerOptions = "--remote-cli --remote-store --sweep --connect-timeout";
const std::map<std::string, std::string> kActionOptions = {
    {"check", "--json"},
    {"run", "--scale --steps --device --threads --precision --cuda-graph --batch --index --only --detach --retries"},
    {"sweep", "--dir --scale --steps --device --partition --time --cpus-per-task --gpus-per-task --max-parallel"
              " --runs-per-task --detach --retries"},
    {"follow", "--runs --retries --json"},
    {"list", "--status --last --sort --json"},
    {"fetch", "--out --checkpoint --json"},
    {"cancel", ""},
    {"resume", ""}};
const std::string kRemoteOptions = [] {
    std::set<std::string> seen;
    std::string out;
    auto add = [&](const std::string& options) {
        std::istringstream words(options);
        for (std::string w; words >> w;)
            if (seen.insert(w).second) out += (out.empty() ? "" : " ") + w;
    };
    add(kServerOptions);
    for (const auto& [action, options] : kActionOptions) add(options);
    return out;
}();

Server server_of(const Args& args, const std::string& dest) {
    Server s;
    s.dest = dest;
    check_destination(dest);
    if (args.options.count("--remote-cli")) s.cli = args.opt("--remote-cli");
    if (s.cli.empty()) throw UsageError("--remote-cli is empty; give the server's normlab-cli (a path or a name on its PATH)");
    s.store = args.opt("--remote-store");
    s.sweep = args.opt("--sweep");
    if (args.options.count("--connect-timeout"))
        s.ssh.connect_timeout_s = parse_int("--connect-timeout", args.opt("--connect-timeout"), 1, 600);
    return s;
}

std::vector<int64_t> parse_runs(const std::string& list) {
    std::vector<int64_t> out;
    std::stringstream ss(list);
    std::string part;
    while (std::getline(ss, part, ',')) out.push_back(parse_int("--runs", part, 1));
    return out;
}

const char* note_kind(FollowNote::Kind k) {
    switch (k) {
        case FollowNote::Kind::Following: return "following";
        case FollowNote::Kind::FollowingSweep: return "following_sweep";
        case FollowNote::Kind::Reconnected: return "reconnected";
        case FollowNote::Kind::Retrying: return "retrying";
    }
    return "";
}

// Follows until every run has ended, printing each run's status as it changes. With --json,
// what it says goes to standard output as JSON lines (docs/REMOTE.md); errors stay on stderr.
int follow(const Args& args, const Server& s, const std::vector<int64_t>& runs) {
    Store local(store_path(args));
    int retries = 20;
    if (args.options.count("--retries")) retries = parse_int("--retries", args.opt("--retries"), 0, 1000000);
    const bool json = args.has_flag("--json");
    std::signal(SIGINT, on_stop);
    std::signal(SIGTERM, on_stop);
    app::stop_on_hangup(on_stop);
    std::map<std::string, std::string> shown;
    FollowProgress progress(local, s.dest, json ? FollowProgress::Mode::Json : FollowProgress::Mode::Auto);
    FollowEvents ev;
    ev.note = [&](const FollowNote& n) {
        if (json) {
            nlohmann::json e = {{"event", "note"}, {"dest", s.dest}, {"kind", note_kind(n.kind)}, {"text", n.text}};
            if (n.kind == FollowNote::Kind::Following || n.kind == FollowNote::Kind::FollowingSweep) e["count"] = n.count;
            if (n.kind == FollowNote::Kind::FollowingSweep) e["sweep"] = s.sweep;
            if (n.kind == FollowNote::Kind::Retrying) {
                e["why"] = n.why;
                e["in_s"] = n.in_s;
            }
            return print_json_line(e);
        }
        progress.clear();
        std::fprintf(stderr, "%s\n", printable_text(n.text).c_str());   // ssh's words and the server's: never raw
    };
    ev.stop = [] { return g_stop > 0; };
    ev.synced = [&](const Mirror& m) {
        for (auto& [rid, status] : m.statuses()) {
            if (shown[rid] == status) continue;
            shown[rid] = status;
            progress.clear();
            std::optional<RunInfo> r;   // an ended run: how far it got, and its validation loss
            if (const auto id = m.local_ids().find(rid); id != m.local_ids().end()) r = local.run(id->second);
            const bool ended = status != "running" && status != "queued" && r && r->steps_done > 0;
            if (json) {
                nlohmann::json e = {{"event", "status"}, {"dest", s.dest}, {"run", rid}, {"status", status}};
                if (r) {
                    e["local_id"] = r->id;
                    e["name"] = r->name;
                }
                if (ended) {
                    e["steps"] = r->steps_done;
                    e["val_loss"] = r->final_loss;   // null where none was measured
                }
                print_json_line(e);
                continue;
            }
            std::string how;
            if (ended) {
                how = " after " + std::to_string(r->steps_done) + " steps";
                if (std::isfinite(r->final_loss)) how += ", val loss " + fmt_loss(r->final_loss);
            }
            std::fprintf(stderr, "%s %s: %s%s\n", printable_name(s.dest).c_str(), printable_name(rid).c_str(),
                         printable_name(status).c_str(), how.c_str());
        }
        progress.update(m.statuses(), m.local_ids());
    };
    const FollowEnd end = follow_remote(s, local, runs, retries, ev);
    progress.clear();
    auto said = [&](const char* what, const std::string& text) {
        if (json) print_json_line({{"event", "end"}, {"dest", s.dest}, {"how", what}, {"text", text}});
        else std::fprintf(stderr, "%s\n", printable_text(text).c_str());
    };
    if (end == FollowEnd::Nothing) {
        said("nothing", "nothing to follow: " + local.path() + " mirrors no unfinished run of " + s.dest +
                            " (--runs ID,... picks some)");
        return kOk;
    }
    if (end == FollowEnd::Stopped) {
        said("stopped", "stopped following; the runs go on on " + s.dest + " ('normlab-cli remote follow " + s.dest +
                            "' picks them up again)");
        return kInterrupted;
    }
    // Exit code as for local runs: 0 when every followed run finished.
    int code = kOk;
    for (auto& [what, status] : shown) {
        if (status == "failed" || status == "interrupted") code = kFailed;
        else if (status == "diverged" && code == kOk) code = kDiverged;
        else if (status == "cancelled" && code == kOk) code = kInterrupted;
    }
    said("ended", "every run followed has ended; they are in " + local.path());
    return code;
}

}  // namespace

static int cmd_remote(const Args& args) {
    const auto& p = args.positional;
    if (p.size() < 2)
        throw UsageError("remote needs an action and a server: normlab-cli remote check|run|sweep|follow|list|cancel|resume|fetch DEST ...");
    const std::string action = p[0];
    if (auto it = kActionOptions.find(action); it != kActionOptions.end())
        check_options(args, "remote " + action, std::string(kServerOptions) + " " + it->second);
    const Server s = server_of(args, p[1]);
    if (action == "check") {
        const ServerCheck c = check_server(s);
        // --json: for scripts and the window's dialog (which words it in its language).
        std::printf("%s\n", args.has_flag("--json") ? c.to_json().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str()
                                                     : c.summary().c_str());
        return kOk;
    }
    if (action == "run") {
        if (p.size() != 3) throw UsageError("remote run needs a server and an experiment: normlab-cli remote run DEST EXPERIMENT.json");
        // Checked here first: a bad experiment is refused before anything reaches the server.
        const Experiment ex = load_experiment(p[2], args.opt("--scale"));
        std::ifstream f(p[2], std::ios::binary);
        std::stringstream text;
        text << f.rdbuf();
        std::vector<std::string> extra;
        for (const char* o : {"--scale", "--steps", "--device", "--threads", "--precision", "--cuda-graph", "--batch", "--index"})
            if (args.options.count(o)) extra.insert(extra.end(), {o, args.opt(o)});
        for (auto [it, end] = args.options.equal_range("--only"); it != end; ++it) extra.insert(extra.end(), {"--only", it->second});
        check_server(s);
        const std::vector<int64_t> ids = launch_remote(s, ex.name, text.str(), extra);
        std::string list;
        for (int64_t id : ids) list += (list.empty() ? "" : ",") + std::to_string(id);
        std::fprintf(stderr, "%s: %s started on %s (%s %s there), training detached\n", ex.name.c_str(),
                     counted(static_cast<long long>(ids.size()), "run").c_str(), s.dest.c_str(),
                     ids.size() == 1 ? "run" : "runs", list.c_str());
        if (args.has_flag("--detach")) {
            std::printf("%s\n", list.c_str());
            std::fprintf(stderr, "follow them with: normlab-cli remote follow %s --runs %s\n", s.dest.c_str(), list.c_str());
            return kOk;
        }
        return follow(args, s, ids);
    }
    if (action == "sweep") {
        if (p.size() != 3 || !args.options.count("--dir"))
            throw UsageError("remote sweep needs a server, an experiment and the sweep's folder there: normlab-cli remote sweep"
                             " DEST EXPERIMENT.json --dir DIR");
        const Experiment ex = load_experiment(p[2], args.opt("--scale"));
        std::ifstream f(p[2], std::ios::binary);
        std::stringstream text;
        text << f.rdbuf();
        std::vector<std::string> extra;
        for (const char* o : {"--scale", "--steps", "--device", "--partition", "--time", "--cpus-per-task", "--gpus-per-task",
                              "--max-parallel", "--runs-per-task"})
            if (args.options.count(o)) extra.insert(extra.end(), {o, args.opt(o)});
        Server sw = s;
        sw.sweep = args.opt("--dir");
        check_server(sw);
        const std::string job = submit_sweep(sw, ex.name, text.str(), extra);
        std::fprintf(stderr, "%s: %s submitted on %s as Slurm job %s (folder %s there)\n", ex.name.c_str(),
                     counted(static_cast<long long>(ex.runs.size()), "run").c_str(),
                     s.dest.c_str(), job.c_str(), sw.sweep.c_str());
        if (args.has_flag("--detach")) {
            std::printf("%s\n", job.c_str());
            std::fprintf(stderr, "follow it with: normlab-cli remote follow %s --sweep %s\n", s.dest.c_str(), sw.sweep.c_str());
            return kOk;
        }
        return follow(args, sw, {});
    }
    if (action == "follow") {
        if (p.size() != 2) throw UsageError("remote follow takes one server: normlab-cli remote follow DEST [--runs ID,...]");
        return follow(args, s, args.options.count("--runs") ? parse_runs(args.opt("--runs")) : std::vector<int64_t>{});
    }
    if (action == "list") {   // the server's list, picked and sorted there as `list` does here
        std::vector<std::string> words{"list"};
        words.insert(words.end(), p.begin() + 2, p.end());
        for (const char* o : {"--status", "--last", "--sort"})
            if (args.options.count(o)) words.insert(words.end(), {o, args.opt(o)});
        if (args.has_flag("--json")) words.push_back("--json");
        const RemoteOutput o = run_remote(s.dest, s.command(words), "", 60000, s.ssh);
        std::fputs(o.out.c_str(), stdout);
        if (o.exit_code != 0) std::fputs(o.err.c_str(), stderr);
        return o.exit_code;
    }
    if (action == "fetch") {
        if (p.size() != 3 || !args.options.count("--out"))
            throw UsageError("remote fetch needs a server, a run (its id there) and --out FILE: normlab-cli remote fetch DEST RUN"
                             " --out FILE [--checkpoint]");
        const int64_t id = parse_int("RUN", p[2], 1);
        const std::string out = args.opt("--out");
        std::string checkpoint;
        // The local store is opened (read-only) so that --out can never be it or its companions.
        std::error_code ec;
        std::unique_ptr<Store> mirror;
        if (std::filesystem::exists(store_path(args), ec)) mirror = std::make_unique<Store>(store_path(args), Store::Mode::ReadOnly);
        if (args.has_flag("--checkpoint")) {
            if (!mirror) throw UsageError("--checkpoint: " + store_path(args) + " does not exist; follow the run first");
            // Its path there, as the mirror last heard it.
            Store& local = *mirror;
            for (const RunInfo& r : local.runs()) {
                const RemoteRef ref = remote_ref(r);
                if (ref.dest == s.dest && ref.run == id && (s.store.empty() || ref.store == s.store))
                    checkpoint = r.info["remote"].value("checkpoint", "");
            }
            if (checkpoint.empty())
                throw UsageError("run " + std::to_string(id) + " of " + s.dest + " has no checkpoint in " + local.path() +
                                 " (follow it first, or fetch its weights without --checkpoint)");
        }
        // The server's store and checkpoint are inputs too: a server that shares this file system
        // (a cluster's home folders, ssh to this machine) would have them destroyed by an --out onto them.
        if (!s.store.empty()) protect_store(s.store);
        check_output_file(out, "--out", checkpoint.empty() ? std::vector<std::string>{} : std::vector<std::string>{checkpoint});
        std::signal(SIGINT, on_stop);
        std::signal(SIGTERM, on_stop);
        app::stop_on_hangup(on_stop);
        FetchProgress shown("run " + std::to_string(id) + (checkpoint.empty() ? "'s weights" : "'s checkpoint") + " from " + s.dest,
                            args.has_flag("--json"));
        FetchEvents ev;
        ev.progress = [&](int64_t got, int64_t total) { shown.update(got, total); };
        ev.stop = [] { return g_stop > 0; };
        const int64_t bytes = fetch_remote(s, id, checkpoint, out, ev);
        shown.clear();
        if (bytes < 0) {
            std::fprintf(stderr, "stopped; nothing was written to %s\n", out.c_str());
            return kInterrupted;
        }
        std::fprintf(stderr, "wrote %s (%lld bytes, run %lld of %s)\n", out.c_str(), static_cast<long long>(bytes),
                     static_cast<long long>(id), s.dest.c_str());
        return kOk;
    }
    if (action == "cancel" && !s.sweep.empty()) {
        cancel_sweep(s);
        std::printf("%s\tcancelled\n", s.sweep.c_str());
        return kOk;
    }
    if (action == "cancel" || action == "resume") {
        if (p.size() < 3) throw UsageError("remote " + action + " needs a server and runs (their ids there): normlab-cli remote " + action + " DEST RUN ...");
        for (size_t i = 2; i < p.size(); ++i) {
            const int64_t id = parse_int("RUN", p[i], 1);
            // The server's own answer: what it did, or why there was nothing to do (a run that had finished).
            std::string said = action == "cancel" ? cancel_remote(s, id) : resume_remote(s, id);
            while (!said.empty() && (said.back() == '\n' || said.back() == '\r')) said.pop_back();
            if (said.empty()) said = std::to_string(id) + "\t" + (action == "cancel" ? "cancelled" : "resumed");
            // (Its fields printed safely: a run's name is the user's text; the tabs between them kept.)
            std::string line;
            for (size_t at = 0; at <= said.size();) {
                const size_t end = std::min(said.find_first_of("\t\n", at), said.size());
                line += printable_name(said.substr(at, end - at));
                if (end < said.size()) line += said[end];
                at = end + 1;
            }
            std::printf("%s\n", line.c_str());
        }
        return kOk;
    }
    throw UsageError("unknown remote action \"" + action + "\"; use check, run, sweep, follow, list, cancel, resume or fetch");
}

extern const Command kRemoteCommand{"remote", "remote check|run|sweep|follow|list|cancel|resume|fetch DEST ...",
    "train on a server over your own ssh: start an experiment there,\n"
    "follow its runs live into the local store, stop and resume them\n",
    cmd_remote,
    "  remote check DEST [--json]          NormLab there, its version, store and GPUs\n"
    "  remote run DEST EXPERIMENT.json     start its runs there (detached) and follow them here\n"
    "  remote sweep DEST EXP.json --dir D  submit it as a Slurm job array there (a login node),\n"
    "                                      follow every task\n"
    "  remote follow DEST [--runs ID,...]  follow (again) until every run followed has ended\n"
    "  remote follow DEST --sweep D        follow a sweep's task stores until its job has ended\n"
    "  remote cancel DEST --sweep D        cancel the sweep's job array (scancel)\n"
    "  remote list DEST [TEXT]             the server's runs; as list: TEXT, --status, --last N,\n"
    "                                      --sort COLUMN, --json\n"
    "  remote cancel DEST RUN ...          stop runs there (kept with a checkpoint)\n"
    "  remote fetch DEST RUN --out F       its latest weights (safetensors),\n"
    "                                      or with --checkpoint its checkpoint\n"
    "                                      (--json: its progress as JSON lines)\n"
    "  remote resume DEST RUN ...          resume them there (detached)\n"
    "DEST: a host, user@host or an alias of ~/.ssh/config;\n"
    "ssh is the system's ($NORMLAB_SSH overrides it).\n"
    "  --store FILE          the local store the runs are mirrored into (default: the usual store)\n"
    "  --remote-cli PATH     the server's normlab-cli (default: the one on its PATH)\n"
    "  --remote-store PATH   the server's store (default: its usual store)\n"
    "  --detach              remote run: start the runs and return without following\n"
    "  --retries N           reconnections in a row without progress before giving up (default 20)\n"
    "  --json                remote follow: what it says as JSON lines on standard output\n"
    "                        (status, progress, note, end events; docs/REMOTE.md)\n"
    "  --only, --steps, --device, --threads, --precision, --cuda-graph, --batch, --scale, --index:\n"
    "                        as for run, on the server\n"
    "  --partition, --time, --cpus-per-task, --gpus-per-task, --max-parallel, --runs-per-task:\n"
    "                        as for sweep\n"
    "RUN ids are the server's (remote list shows them). Ctrl-C stops following, not the runs.\n",
    kRemoteOptions.c_str()};

}  // namespace normlab::cli
