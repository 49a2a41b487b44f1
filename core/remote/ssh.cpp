// NormLab core: the system ssh client and child processes (see ssh.h).
#include "core/remote/ssh.h"

#include "core/errors.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace normlab {

std::string shell_quote(const std::string& word) {
    if (word.rfind("~/", 0) == 0) return "\"$HOME\"/" + shell_quote(word.substr(2));
    if (word == "~") return "\"$HOME\"";
    std::string out = "'";
    for (char c : word) {
        if (c == '\'') out += "'\\''";
        else out += c;
    }
    return out + "'";
}

std::string shell_command(const std::vector<std::string>& words) {
    std::string out;
    for (auto& w : words) out += (out.empty() ? "" : " ") + shell_quote(w);
    return out;
}

void check_destination(const std::string& dest) {
    if (dest.empty()) throw ConfigError("destination", "is empty; give a host, user@host or an alias from ~/.ssh/config");
    if (dest[0] == '-')
        throw ConfigError("destination", "\"" + dest + "\" starts with '-', which ssh would read as an option; give a host name");
    for (unsigned char c : dest)
        if (c <= ' ' || c == 0x7f)
            throw ConfigError("destination", "\"" + dest + "\" contains a space or control character; give a host, user@host or an alias");
}

std::vector<std::string> ssh_program() {
    const char* env = std::getenv("NORMLAB_SSH");
    if (!env || !*env) return {"ssh"};
    std::vector<std::string> words;
    std::string cur;
    bool in_word = false;
    char quote = 0;
    for (const char* p = env; *p; ++p) {
        const char c = *p;
        if (quote) {
            if (c == quote) quote = 0;
            else cur += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            in_word = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) words.push_back(cur);
            cur.clear();
            in_word = false;
        } else {
            cur += c;
            in_word = true;
        }
    }
    if (quote) throw ConfigError("NORMLAB_SSH", "has an unclosed quote: " + std::string(env));
    if (in_word) words.push_back(cur);
    if (words.empty()) return {"ssh"};
    return words;
}

namespace {

// The folder of the shared connections' sockets (0700, the user's own).
std::string control_dir() {
    std::string dir;
    if (const char* d = std::getenv("NORMLAB_SSH_CONTROL_DIR"); d && *d) dir = d;
    else if (const char* r = std::getenv("XDG_RUNTIME_DIR"); r && *r) dir = std::string(r) + "/normlab-ssh";
    else dir = "/tmp/normlab-ssh-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat st{};
    // A folder another user owns, or open to others, is not used for sockets.
    if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || (st.st_mode & 077)) return "";
    return dir;
}

}  // namespace

std::vector<std::string> ssh_argv(const std::string& dest, const std::string& remote_command, const SshOptions& opts) {
    check_destination(dest);
    std::vector<std::string> argv = ssh_program();
    auto opt = [&](const std::string& o) {
        argv.push_back("-o");
        argv.push_back(o);
    };
    opt("ConnectTimeout=" + std::to_string(opts.connect_timeout_s));
    // A dropped network is noticed within ~45 s rather than TCP's minutes.
    opt("ServerAliveInterval=15");
    opt("ServerAliveCountMax=3");
    if (opts.batch) opt("BatchMode=yes");
    const char* share_env = std::getenv("NORMLAB_SSH_SHARE");
    const bool share = opts.share && !(share_env && std::string(share_env) == "0");
    if (share) {
        const std::string dir = control_dir();
        // A Unix socket path holds at most 107 bytes; ssh makes the master's as
        // DIR/%C (40 hex digits) plus a temporary ".XXXXXXXXXXXXXXXX" (17). Longer: no sharing.
        if (!dir.empty() && dir.size() + 1 + 40 + 17 < 104) {
            opt("ControlMaster=auto");
            opt("ControlPath=" + dir + "/%C");
            opt("ControlPersist=60");
        }
    }
    argv.push_back("-T");   // no terminal: the stream is bytes
    argv.push_back("--");
    argv.push_back(dest);
    argv.push_back(remote_command);
    return argv;
}

Child::Child(const std::vector<std::string>& argv) {
    int in[2], out[2], err[2];
    if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
        throw RemoteError(std::string("cannot create pipes: ") + std::strerror(errno));
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    const int rc = posix_spawnp(&pid_, args[0], &fa, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    ::close(in[0]);
    ::close(out[1]);
    ::close(err[1]);
    in_ = in[1];
    out_ = out[0];
    err_fd_ = err[0];
    if (rc != 0) {
        ::close(in_);
        ::close(out_);
        ::close(err_fd_);
        in_ = out_ = err_fd_ = -1;
        pid_ = -1;
        throw RemoteError("cannot run " + argv[0] + ": " + std::strerror(rc) +
                          (argv[0] == "ssh" ? " (install an OpenSSH client, or set NORMLAB_SSH)" : " (check NORMLAB_SSH)"));
    }
    ::fcntl(err_fd_, F_SETFL, O_NONBLOCK);
}

Child::~Child() {
    if (pid_ > 0 && status_ < 0) {
        terminate();
        wait(2000);
    }
    for (int fd : {in_, out_, err_fd_})
        if (fd >= 0) ::close(fd);
}

void Child::write(const std::string& bytes) {
    size_t done = 0;
    // A child that has gone away turns SIGPIPE into EPIPE here.
    struct sigaction ign{}, old{};
    ign.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ign, &old);
    while (in_ >= 0 && done < bytes.size()) {
        const ssize_t n = ::write(in_, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    ::sigaction(SIGPIPE, &old, nullptr);
}

void Child::close_stdin() {
    if (in_ >= 0) ::close(in_);
    in_ = -1;
}

void Child::drain_stderr() {
    char b[4096];
    ssize_t n;
    while (err_fd_ >= 0 && (n = ::read(err_fd_, b, sizeof b)) > 0) {
        err_.append(b, static_cast<size_t>(n));
        if (err_.size() > 65536) err_.erase(0, err_.size() - 65536);
    }
}

Child::Read Child::read_line(std::string& line, int timeout_ms) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
        if (auto nl = buf_.find('\n'); nl != std::string::npos) {
            line = buf_.substr(0, nl);
            buf_.erase(0, nl + 1);
            return Read::Line;
        }
        if (eof_) return Read::Eof;
        const int left = static_cast<int>(
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
        if (left <= 0) return Read::Timeout;
        pollfd fds[2] = {{out_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
        const int n = ::poll(fds, 2, left);
        if (n < 0 && errno != EINTR) throw RemoteError(std::string("poll: ") + std::strerror(errno));
        if (fds[1].revents) drain_stderr();
        if (fds[0].revents) {
            char b[65536];
            const ssize_t r = ::read(out_, b, sizeof b);
            if (r > 0) buf_.append(b, static_cast<size_t>(r));
            else if (r == 0 || errno != EINTR) eof_ = true;
        }
    }
}

bool Child::read_bytes(std::string& chunk, const std::function<bool()>& stop) {
    chunk.clear();
    if (!buf_.empty()) {
        chunk.swap(buf_);
        return true;
    }
    while (!eof_) {
        if (stop && stop()) return false;
        pollfd fds[2] = {{out_, POLLIN, 0}, {err_fd_, POLLIN, 0}};
        if (::poll(fds, 2, stop ? 200 : 1000) < 0 && errno != EINTR) throw RemoteError(std::string("poll: ") + std::strerror(errno));
        if (fds[1].revents) drain_stderr();
        if (!fds[0].revents) continue;
        char b[1 << 16];
        const ssize_t r = ::read(out_, b, sizeof b);
        if (r > 0) {
            chunk.assign(b, static_cast<size_t>(r));
            return true;
        }
        if (r == 0 || errno != EINTR) eof_ = true;
    }
    return false;
}

void Child::terminate() {
    if (pid_ > 0 && status_ < 0) ::kill(pid_, SIGTERM);
}

int Child::wait(int timeout_ms) {
    if (pid_ <= 0) return -1;
    const auto start = std::chrono::steady_clock::now();
    while (status_ < 0) {
        int st = 0;
        const pid_t r = ::waitpid(pid_, &st, WNOHANG);
        if (r == pid_) {
            status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            break;
        }
        drain_stderr();
        if (timeout_ms >= 0 && std::chrono::steady_clock::now() - start > std::chrono::milliseconds(timeout_ms)) {
            ::kill(pid_, SIGKILL);
            timeout_ms = -1;
        }
        ::usleep(10000);
    }
    drain_stderr();
    return status_;
}

std::string ssh_failure(const std::string& dest, const std::string& err) {
    // ssh's own last lines say what failed (resolve, refuse, time out, key).
    std::string lines, e = err;
    while (!e.empty() && (e.back() == '\n' || e.back() == '\r')) e.pop_back();
    size_t from = e.size();
    for (int i = 0; i < 3 && from != std::string::npos && from > 0; ++i) from = e.rfind('\n', from - 1);
    lines = from == std::string::npos ? e : e.substr(from + 1);
    std::string hint;
    if (lines.find("Permission denied") != std::string::npos)
        hint = "the server refused the login: check that `ssh " + dest + "` works in a terminal (key, agent, user)";
    else if (lines.find("Could not resolve") != std::string::npos)
        hint = "no such host: check the name, or add it to ~/.ssh/config";
    else if (lines.find("timed out") != std::string::npos || lines.find("Connection refused") != std::string::npos)
        hint = "the server did not answer: check the host, its port and the network";
    else if (lines.find("Host key verification failed") != std::string::npos)
        hint = "the server's host key is unknown or changed: connect once with `ssh " + dest + "` in a terminal to check it";
    return "ssh to " + dest + " failed" + (lines.empty() ? "" : ": " + lines) + (hint.empty() ? "" : " — " + hint);
}

RemoteOutput run_remote(const std::string& dest, const std::string& remote_command, const std::string& input,
                        int timeout_ms, const SshOptions& opts) {
    Child c(ssh_argv(dest, remote_command, opts));
    c.write(input);
    c.close_stdin();
    RemoteOutput out;
    std::string line;
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
        const int left = timeout_ms - static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                           std::chrono::steady_clock::now() - start)
                                                           .count());
        if (left <= 0) {
            c.terminate();
            c.wait(2000);
            throw RemoteError("ssh to " + dest + " gave no answer within " + std::to_string(timeout_ms / 1000) + " s");
        }
        const Child::Read r = c.read_line(line, left);
        if (r == Child::Read::Line) out.out += line + "\n";
        else if (r == Child::Read::Eof) break;
    }
    out.out += c.partial();
    out.exit_code = c.wait(5000);
    out.err = c.stderr_text();
    if (out.exit_code == 255) throw RemoteError(ssh_failure(dest, out.err));
    return out;
}

}  // namespace normlab
