// NormLab core: training on a server over ssh (see remote.h).
#include "core/counted.h"
#include "core/remote/remote.h"

#include "core/atomic_file.h"
#include "core/config.h"
#include "core/errors.h"
#include "core/version.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <sstream>
#include <thread>

namespace normlab {
using nlohmann::json;

namespace {

// A remote command's failure for a person: exit 127 is a missing program.
[[noreturn]] void remote_failed(const Server& s, const RemoteOutput& o, const std::string& what) {
    std::string err = o.err;
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    if (o.exit_code == 127 || err.find("not found") != std::string::npos)
        throw RemoteError("NormLab is not installed on " + s.dest + " where looked for (\"" + s.cli +
                          "\" was not found by its non-interactive shell). Install it there, or give the full path of its"
                          " normlab-cli (--remote-cli, or the dialog's \"NormLab on the server\")");
    throw RemoteError(what + " on " + s.dest + " failed (exit " + std::to_string(o.exit_code) + ")" +
                      (err.empty() ? "" : ": " + err));
}

bool sleep_unless_stopped(const FollowEvents& ev, double seconds) {
    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < end) {
        if (ev.stop && ev.stop()) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return true;
}

// server-info's fields that NormLab reads: strings and booleans, where present.
bool string_fields(const json& info) {
    for (const char* k : {"normlab", "host", "libtorch", "store", "store_error"})
        if (info.contains(k) && !info[k].is_string()) return false;
    for (const char* k : {"store_exists", "cuda"})
        if (info.contains(k) && !info[k].is_boolean()) return false;
    return true;
}

}  // namespace

std::string Server::command(std::vector<std::string> args) const {
    args.insert(args.begin(), cli.empty() ? "normlab-cli" : cli);
    if (!store.empty()) {
        args.push_back("--store");
        args.push_back(store);
    }
    return shell_command(args);
}

std::string ServerCheck::summary() const {
    std::ostringstream o;
    o << "NormLab " << info.value("normlab", std::string("?")) << " on " << info.value("host", std::string("?"))
      << " (LibTorch " << info.value("libtorch", std::string("?")) << "); store " << info.value("store", std::string("?"));
    if (!info.value("store_exists", false)) o << " (created by the first run)";
    if (gpus.empty()) o << "; no CUDA GPU: runs train on its CPU";
    else {
        o << "; " << gpus.size() << " GPU" << (gpus.size() > 1 ? "s" : "") << ":";
        for (auto& g : gpus) o << " " << g.name << ", " << g.total_mib << " MiB (" << g.free_mib << " MiB free);";
        if (!info.value("cuda", false)) o << " but its LibTorch has no CUDA: runs train on its CPU";
    }
    return o.str();
}

json ServerCheck::to_json() const {
    json g = json::array();
    for (const Gpu& x : gpus) g.push_back({{"name", x.name}, {"total_mib", x.total_mib}, {"free_mib", x.free_mib}});
    return {{"info", info}, {"gpus", g}};
}

ServerCheck check_server(const Server& s) {
    const std::string cmd = s.command({"server-info"}) +
                            "; echo '--- gpus'; nvidia-smi --query-gpu=name,memory.total,memory.free"
                            " --format=csv,noheader,nounits 2>/dev/null || true";
    const RemoteOutput o = run_remote(s.dest, cmd, "", (s.ssh.connect_timeout_s + 60) * 1000, s.ssh);
    const auto sep = o.out.find("--- gpus\n");
    const std::string head = o.out.substr(0, sep);
    ServerCheck c;
    // The first line that parses (a login banner may come first).
    std::istringstream lines(head);
    std::string line;
    bool found = false;
    while (std::getline(lines, line)) {
        try {
            c.info = json::parse(line);
            if (c.info.is_object() && c.info.contains("protocol")) {
                found = true;
                break;
            }
        } catch (...) {
        }
    }
    if (!found) {
        RemoteOutput failed = o;
        if (failed.exit_code == 0) failed.exit_code = 127;
        if (head.find("unknown command") != std::string::npos || o.err.find("unknown command") != std::string::npos)
            throw RemoteError("the NormLab on " + s.dest + " is too old to be driven from here (it has no server-info"
                              " command); install NormLab " NORMLAB_VERSION " there");
        remote_failed(s, failed, "normlab-cli server-info");
    }
    // server-info's fields, read as the types NormLab writes them; another
    // program's JSON line with a "protocol" is not NormLab's.
    if (!c.info["protocol"].is_number_integer() || !string_fields(c.info))
        throw RemoteError("the answer of normlab-cli server-info on " + s.dest + " is not NormLab's (" +
                          printable_name(c.info.dump().substr(0, 80)) + "): is the remote command normlab-cli?");
    const int protocol = c.info.value("protocol", 0);
    if (protocol != kStreamProtocol)
        throw RemoteError("the NormLab on " + s.dest + " (" + c.info.value("normlab", std::string("?")) +
                          ") speaks stream protocol " + std::to_string(protocol) + "; this one (" NORMLAB_VERSION
                          ") speaks " + std::to_string(kStreamProtocol) + ": install the same version on both");
    if (c.info.value("store_error", std::string()) != "")
        throw RemoteError("the store on " + s.dest + " cannot be used: " + c.info.value("store_error", std::string()));
    if (sep != std::string::npos) {
        std::istringstream g(o.out.substr(sep + 9));
        while (std::getline(g, line)) {
            std::vector<std::string> f;
            std::stringstream ls(line);
            std::string part;
            while (std::getline(ls, part, ',')) {
                part.erase(0, part.find_first_not_of(' '));
                f.push_back(part);
            }
            if (f.size() == 3) c.gpus.push_back({f[0], f[1], f[2]});
        }
    }
    return c;
}

// Sends the experiment over stdin into ~/.normlab/experiments/ there and runs
// the server's normlab-cli with `args`, where "$FILE" stands for that file.
static RemoteOutput with_experiment(const Server& s, const std::string& experiment_name, const std::string& experiment_json,
                             const std::string& run) {
    // A file name the remote shell cannot misread: letters, digits, - and _ only.
    std::string stem;
    for (char c : experiment_name) stem += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
    if (stem.empty()) stem = "experiment";
    stem = stem.substr(0, 64) + "-" + std::to_string(static_cast<long long>(now_seconds() * 1000));
    // "$FILE" stays a variable: the only word not quoted as a literal.
    std::string cmd = run;
    const std::string quoted_file = shell_quote("$FILE");
    cmd.replace(cmd.find(quoted_file), quoted_file.size(), "\"$d/" + stem + ".json\"");
    cmd = "d=\"$HOME/.normlab/experiments\" && mkdir -p \"$d\" && cat > \"$d/" + stem + ".json\" && " + cmd;
    return run_remote(s.dest, cmd, experiment_json, (s.ssh.connect_timeout_s + 300) * 1000, s.ssh);
}

std::string submit_sweep(const Server& s, const std::string& experiment_name, const std::string& experiment_json,
                         const std::vector<std::string>& extra) {
    std::vector<std::string> args{"sweep", "$FILE", "--slurm", "--submit", "--dir", s.sweep};
    args.insert(args.end(), extra.begin(), extra.end());
    Server plain = s;
    plain.store.clear();   // a sweep's stores are its tasks'
    const RemoteOutput o = with_experiment(s, experiment_name, experiment_json, plain.command(args));
    if (o.exit_code != 0) remote_failed(s, o, "submitting the sweep");
    std::string job = o.out;
    while (!job.empty() && (job.back() == '\n' || job.back() == '\r')) job.pop_back();
    if (job.empty() || job.find_first_not_of("0123456789_") != std::string::npos)
        throw RemoteError("the server submitted no job (its answer: " + o.out.substr(0, 200) + ")");
    return job;
}

void cancel_sweep(const Server& s) {
    Server plain = s;
    plain.store.clear();
    const RemoteOutput o = run_remote(s.dest, plain.command({"sweep", "--cancel", s.sweep}), "", 60000, s.ssh);
    if (o.exit_code != 0) remote_failed(s, o, "cancelling the sweep in " + s.sweep);
}

std::vector<int64_t> launch_remote(const Server& s, const std::string& experiment_name, const std::string& experiment_json,
                                   const std::vector<std::string>& extra) {
    std::vector<std::string> args{"run", "$FILE", "--detach"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RemoteOutput o = with_experiment(s, experiment_name, experiment_json, s.command(args));
    if (o.exit_code != 0) remote_failed(s, o, "starting the experiment");
    std::vector<int64_t> ids;
    std::istringstream lines(o.out);
    std::string line;
    while (std::getline(lines, line)) {
        long long id = 0;
        char status[32] = {};
        if (std::sscanf(line.c_str(), "%lld\t%31s", &id, status) == 2 && id > 0) ids.push_back(id);
    }
    if (ids.empty()) throw RemoteError("the server started no run (its answer: " + o.out.substr(0, 200) + ")");
    return ids;
}

std::string cancel_remote(const Server& s, int64_t run) {
    const RemoteOutput o = run_remote(s.dest, s.command({"cancel", std::to_string(run)}), "", 60000, s.ssh);
    if (o.exit_code != 0) remote_failed(s, o, "cancelling run " + std::to_string(run));
    return o.out;
}

std::string resume_remote(const Server& s, int64_t run) {
    const RemoteOutput o = run_remote(s.dest, s.command({"resume", std::to_string(run), "--detach"}), "", 120000, s.ssh);
    if (o.exit_code != 0) remote_failed(s, o, "resuming run " + std::to_string(run));
    return o.out;
}

int64_t fetch_remote(const Server& s, int64_t run, const std::string& checkpoint, const std::string& out,
                     const FetchEvents& ev) {
    // Its size first (a line of digits: `wc -c`, POSIX, so that a BSD server answers too), then its bytes.
    std::string cmd;
    if (checkpoint.empty()) {
        // Exported there into a temporary file, sent, removed.
        cmd = s.command({"export-weights", std::to_string(run), "$T"});
        const std::string q = shell_quote("$T");
        cmd.replace(cmd.find(q), q.size(), "\"$t\"");
        cmd = "t=$(mktemp) && " + cmd + " >/dev/null && wc -c < \"$t\" && cat \"$t\"; rc=$?; rm -f \"$t\"; exit $rc";
    } else {
        cmd = "f=" + shell_quote(checkpoint) + " && wc -c < \"$f\" && cat -- \"$f\"";
    }
    const std::string what = checkpoint.empty() ? "the weights of run " + std::to_string(run) : checkpoint;
    Child c(ssh_argv(s.dest, cmd, s.ssh));
    c.close_stdin();
    AtomicFile f(out);
    if (!f.ok()) throw RemoteError("cannot write " + out + ": " + f.why());
    int64_t bytes = 0, size = -1;
    std::string chunk, head;
    while (c.read_bytes(chunk, ev.stop)) {
        if (size < 0) {   // the size's line, then the file
            head += chunk;
            const auto nl = head.find('\n');
            if (nl == std::string::npos) {
                if (head.size() > 64) break;
                continue;
            }
            std::string digits = head.substr(0, nl);
            digits.erase(0, digits.find_first_not_of(" \t"));
            if (digits.empty() || digits.size() > 18 || digits.find_first_not_of("0123456789") != std::string::npos) break;
            size = std::stoll(digits);
            chunk = head.substr(nl + 1);
        }
        f.write(chunk);   // on a failure, read on to the end: ssh is not left blocked on a full pipe
        bytes += static_cast<int64_t>(chunk.size());
        if (ev.progress) ev.progress(bytes, size);
    }
    if (ev.stop && ev.stop()) {
        c.terminate();
        c.wait(3000);
        return -1;   // f, not committed, leaves nothing behind
    }
    const bool junk = size < 0 && !head.empty();   // not the answer looked for: it is not read to its end
    if (junk) c.terminate();
    const int code = c.wait(10000);
    if (!f.ok()) throw RemoteError("writing " + out + " failed (" + f.why() + "); nothing was kept");
    if (junk)
        throw RemoteError("the server's answer does not start with the size of " + what + " (\"" + printable_name(head.substr(0, 40)) +
                          "\"): does a login script there print to standard output? Nothing was kept");
    if (code == 255) throw RemoteError(ssh_failure(s.dest, c.stderr_text()));
    if (code != 0) remote_failed(s, RemoteOutput{code, "", c.stderr_text()}, checkpoint.empty() ? "exporting " + what : "reading " + what);
    if (size <= 0) throw RemoteError(what + " is empty on " + s.dest + "; nothing was kept");
    if (bytes != size)
        throw RemoteError("the server sent " + std::to_string(bytes) + " of the " + std::to_string(size) + " bytes of " + what +
                          "; nothing was kept");
    if (!f.commit()) throw RemoteError("writing " + out + " failed (" + f.why() + "); nothing was kept");
    return bytes;
}

FollowEnd follow_remote(const Server& s, Store& local, const std::vector<int64_t>& runs, int retries,
                        const FollowEvents& ev) {
    auto note = [&](FollowNote::Kind kind, std::string text, long long count = 0, std::string why = "", int in_s = 0) {
        FollowNote n;
        n.kind = kind;
        n.text = std::move(text);
        n.count = count;
        n.why = std::move(why);
        n.in_s = in_s;
        if (ev.note) ev.note(n);
    };
    auto stopped = [&] { return ev.stop && ev.stop(); };
    Mirror mirror(local, s.dest, s.cli);
    int failures = 0;
    for (;;) {
        if (stopped()) return FollowEnd::Stopped;
        std::string why;
        {
            Server plain = s;
            if (!s.sweep.empty()) plain.store.clear();
            Child c(ssh_argv(s.dest,
                             plain.command(s.sweep.empty() ? std::vector<std::string>{"stream", "--follow"}
                                                           : std::vector<std::string>{"stream", "--follow", "--sweep", s.sweep}),
                             s.ssh));
            std::string line;
            Child::Read r;
            // The hello: ssh's login first (a prompt may wait for the user).
            const auto t0 = std::chrono::steady_clock::now();
            while ((r = c.read_line(line, 200)) == Child::Read::Timeout) {
                if (stopped()) return FollowEnd::Stopped;
                if (std::chrono::steady_clock::now() - t0 > std::chrono::seconds(s.ssh.connect_timeout_s + 120)) break;
            }
            if (r != Child::Read::Line) {
                c.terminate();
                const int code = c.wait(3000);
                RemoteOutput o{code, c.partial(), c.stderr_text()};
                if (code == 255 || code >= 128 || r == Child::Read::Timeout) {
                    why = r == Child::Read::Timeout ? "no answer" : ssh_failure(s.dest, o.err);
                } else {
                    remote_failed(s, o, "following");
                }
            } else {
                mirror.hello(line);
                std::vector<int64_t> want = runs;
                for (int64_t id : mirror.unfinished())
                    if (std::find(want.begin(), want.end(), id) == want.end()) want.push_back(id);
                if (want.empty() && !mirror.sweep()) return FollowEnd::Nothing;
                c.write(mirror.request(want).to_json().dump() + "\n");
                c.close_stdin();
                if (failures == 0 && mirror.sweep()) {
                    const auto n = static_cast<long long>(mirror.task_stores().size());
                    note(FollowNote::Kind::FollowingSweep,
                         "following the sweep in " + s.sweep + " on " + s.dest + " (" + counted(n, "task store") + ")", n);
                } else if (failures == 0) {
                    const auto n = static_cast<long long>(want.size());
                    note(FollowNote::Kind::Following, "following " + counted(n, "run") + " on " + s.dest, n);
                } else {
                    note(FollowNote::Kind::Reconnected, "reconnected to " + s.dest + "; following again from the last row held");
                }
                for (;;) {
                    r = c.read_line(line, 200);
                    if (stopped()) return FollowEnd::Stopped;
                    // The server syncs every half second; a stalled connection is ended by
                    // ssh's keep-alives (ServerAliveInterval) within ~45 s.
                    if (r == Child::Read::Timeout) continue;
                    if (r == Child::Read::Eof) break;
                    const Mirror::Got got = mirror.apply(line);
                    if (got == Mirror::Got::Synced) {
                        failures = 0;
                        if (ev.synced) ev.synced(mirror);
                    } else if (got == Mirror::Got::Ended) {
                        if (ev.synced) ev.synced(mirror);
                        return FollowEnd::Ended;
                    }
                }
                mirror.drop_pending();
                const int code = c.wait(3000);
                if (code != 255 && code != 0 && code < 128) {
                    // The server's normlab-cli stopped with an error of its own.
                    std::string err = c.stderr_text();
                    while (!err.empty() && err.back() == '\n') err.pop_back();
                    why = "the server's stream ended (exit " + std::to_string(code) + (err.empty() ? "" : ": " + err) + ")";
                } else {
                    why = code == 255 ? ssh_failure(s.dest, c.stderr_text()) : "the connection ended";
                }
            }
        }
        if (++failures > retries)
            throw RemoteError("lost " + s.dest + " " + counted(failures, "time") + " in a row (" + why +
                              "). Every row received is kept; follow again to continue from it");
        const double wait = std::min(30.0, 0.5 * (1 << std::min(failures, 6)));
        const int in_s = static_cast<int>(wait + 0.5);
        note(FollowNote::Kind::Retrying, why + "; reconnecting in " + std::to_string(in_s) + " s", 0, why, in_s);
        if (!sleep_unless_stopped(ev, wait)) return FollowEnd::Stopped;
    }
}

}  // namespace normlab
