// normlab-cli: arguments, formatting, progress and output files (see cli.h).
#include "app/cli/cli.h"
#include "core/nearest.h"

#include "core/errors.h"
#include "core/remote/ssh.h"
#include "core/store/output_guard.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <sstream>
#include <fcntl.h>
#include <unistd.h>

namespace normlab::cli {

Args parse_args(int argc, char** argv) {
    static const std::vector<std::string> with_value{"--store", "--device", "--only", "--threads", "--steps",
                                                     "--out",   "--batch",  "--seed",  "--last", "--scale",
                                                     "--index", "--into",   "--dir",   "--partition", "--time",
                                                     "--cpus-per-task", "--gpus-per-task", "--max-parallel",
                                                     "--runs-per-task", "--status", "--remote-cli", "--remote-store", "--runs",
                                                     "--retries", "--interval", "--connect-timeout",
                                                     "--cancel", "--sweep", "--precision", "--cuda-graph", "--sort",
                                                     "--prompt", "--bytes", "--temperature", "--top-k", "--weights", "--slide", "--where"};
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

int parse_int(const std::string& what, const std::string& s, int lo, int hi) {
    int v = 0;
    try {
        size_t pos = 0;
        v = std::stoi(s, &pos);
        if (pos != s.size()) throw std::invalid_argument(s);
    } catch (...) {
        throw UsageError(what + " expects an integer, got \"" + s + "\"");
    }
    if (v < lo || v > hi)
        throw UsageError(what + " " + s + " is out of range; use " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

void print_json_line(const nlohmann::json& e) {
    std::printf("%s\n", e.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());   // NaN: null
    std::fflush(stdout);
}

std::string format_bytes(uintmax_t bytes) {
    char buf[32];
    if (bytes < 1000 * 1000) std::snprintf(buf, sizeof buf, "%.0f kB", bytes / 1e3);
    else if (bytes < uintmax_t{1000} * 1000 * 1000) std::snprintf(buf, sizeof buf, "%.1f MB", bytes / 1e6);
    else std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
    return buf;
}

std::string format_duration(double s) {
    if (!std::isfinite(s) || s < 0) return "--:--";
    const int t = static_cast<int>(s + 0.5);
    char buf[32];
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
    return buf;
}

std::string shell_word(const std::string& s) {
    const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("/._-+:,@=", c);
    });
    return plain ? s : shell_quote(s);
}

std::string store_option(const Store& store) {
    std::error_code ec;
    const auto normal = std::filesystem::absolute(Store::default_path(), ec).lexically_normal();
    return normal == std::filesystem::path(store.path()).lexically_normal() ? "" : " --store " + shell_word(store.path());
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

std::string csv_escape(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string o = "\"";
    for (char c : s) o += c == '"' ? std::string("\"\"") : std::string(1, c);
    return o + "\"";
}

std::string store_path(const Args& args) { return args.opt("--store", Store::default_path()); }

std::string existing_store_path(const Args& args) {
    const std::string path = store_path(args);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        throw StoreError("no run store at " + std::filesystem::absolute(path, ec).lexically_normal().string() +
                         "; nothing was created. Give the store the runs are in with --store ('normlab-cli list --store FILE'"
                         " shows its runs).");
    return path;
}

ProgressPrinter::ProgressPrinter(size_t index, size_t count) : index_(index), count_(count), tty_(isatty(2)) {}

void ProgressPrinter::operator()(const Progress& p) {
    const double frac = p.total > 0 ? static_cast<double>(p.step) / p.total : 0;
    char head[64];
    std::snprintf(head, sizeof head, "[%zu/%zu]", index_, count_);
    char tail[192], mfu[32] = "";
    if (p.mfu > 0) std::snprintf(mfu, sizeof mfu, " MFU %.1f%%", 100 * p.mfu);   // where the device's peak is known
    std::snprintf(tail, sizeof tail, "step %lld/%lld loss %s val %s %.0f tok/s%s ETA %s",
                  static_cast<long long>(p.step), static_cast<long long>(p.total), fmt_loss(p.loss).c_str(),
                  fmt_loss(p.val_loss).c_str(), p.tokens_per_s, mfu, format_duration(p.eta_s).c_str());
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

ProgressLine::ProgressLine() : tty_(isatty(2)) {}

void ProgressLine::show(const std::string& head, int64_t done, int64_t total, const char* what) {
    const auto now = std::chrono::steady_clock::now();
    if (!tty_ || now - last_ < std::chrono::milliseconds(250)) return;
    last_ = now;
    std::fprintf(stderr, "\r%s: %lld of %lld %s (%.0f%%)\033[K", head.c_str(), static_cast<long long>(done),
                 static_cast<long long>(total), what, total > 0 ? 100.0 * done / total : 100.0);
    drawn_ = true;
}

void ProgressLine::end() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
}

void ProgressPrinter::finish() {
    if (tty_ && drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
}


namespace {
constexpr size_t kOutputChunk = 1 << 20;
}

OutputFile::OutputFile(const std::string& path, const std::atomic<bool>* stop) : out_(path), stop_(stop) {
    buffer_.reserve(kOutputChunk + 4096);
    if (out_.empty()) return;
    check_output_file(out_, "--out");
    file_ = std::make_unique<AtomicFile>(out_, std::chrono::milliseconds(0));
    if (file_->busy()) {   // another export, a window: its turn first, said so, and Ctrl-C stops the wait
        std::fprintf(stderr, "normlab-cli: another program is writing %s; waiting until it has finished (Ctrl-C stops)\n",
                     out_.c_str());
        file_ = std::make_unique<AtomicFile>(out_);
    }
    if (!file_->ok()) {
        if (stopped()) throw Stopped{};
        throw UsageError("--out " + out_ + ": cannot write it: " + file_->why());
    }
}

OutputFile::~OutputFile() = default;   // not committed: nothing stays (AtomicFile; what is buffered is dropped)

void OutputFile::write(const std::string& s) {
    if (stopped()) throw Stopped{};
    buffer_ += s;
    bytes_ += s.size();
    if (buffer_.size() >= kOutputChunk) drain();
}

void OutputFile::drain() {
    const int fd = file_ ? file_->fd() : 1;
    for (size_t off = 0; off < buffer_.size();) {
        const ssize_t n = ::write(fd, buffer_.data() + off, buffer_.size() - off);
        if (n > 0) off += static_cast<size_t>(n);
        if (stopped()) throw Stopped{};
        if (n < 0 && errno != EINTR) fail(errno);   // (the AtomicFile, never committed, goes with this)
    }
    buffer_.clear();
}

void OutputFile::commit() {
    drain();
    if (file_ && !file_->commit()) fail(file_->error());
}

void OutputFile::fail(int err) const {
    if (out_.empty()) throw std::runtime_error(std::string("writing the export to standard output failed: ") + std::strerror(err));
    throw std::runtime_error("writing " + out_ + " failed: " + std::strerror(err) + "; nothing was written");
}

void write_output_file(const std::string& path, const std::string& bytes) {
    OutputFile f(path);
    f.write(bytes);
    f.commit();
}

bool second_stop_signal(std::atomic<long long>& first_ns) {
    static_assert(std::atomic<long long>::is_always_lock_free, "used in a signal handler");
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    const long long now = static_cast<long long>(ts.tv_sec) * 1000000000LL + ts.tv_nsec + 1;   // never 0
    long long first = 0;
    if (first_ns.compare_exchange_strong(first, now)) return false;   // the first stop
    return now - first >= 500000000LL;
}

void print_command_help(const Command& c) {
    std::printf("usage: normlab-cli %s [--store FILE]\n\n%s%s%s", c.synopsis, c.help, *c.details ? "\n" : "", c.details);
}

int run_reporting(int argc, char** argv, const std::function<int(const Args&)>& body) {
    auto logger = spdlog::stderr_color_mt("normlab");
    spdlog::set_default_logger(logger);
    spdlog::set_pattern("%^%l%$: %v");
    spdlog::set_level(spdlog::level::warn);
    try {
        Args args = parse_args(argc, argv);
        if (args.has_flag("--verbose")) spdlog::set_level(spdlog::level::info);
        return body(args);
    } catch (const UsageError& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", printable_text(e.what()).c_str());
        return kUsage;
    } catch (const ConfigError& e) {
        std::fprintf(stderr, "normlab-cli: configuration error: %s\n", printable_text(e.what()).c_str());
        return kUsage;
    } catch (const StoreError& e) {
        std::fprintf(stderr, "normlab-cli: store error: %s\n", printable_text(e.what()).c_str());
        return kStore;
    } catch (const RunError& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", printable_text(e.what()).c_str());
        return kFailed;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "normlab-cli: %s\n", printable_text(e.what()).c_str());
        return kError;
    }
}

void check_flags(const Args& args, const Command& command) {
    static const std::vector<std::string> known{"--csv", "--json", "--verbose", "--help", "--version", "--slurm", "--submit",
                                                "--detach", "--follow", "--if-queued", "--checkpoint", "--yes"};
    for (auto& f : args.flags)
        if (std::find(known.begin(), known.end(), f) == known.end()) {
            // The nearest option this command takes, else the nearest of any ("--stor FILE": --store).
            std::vector<std::string> takes{"--store", "--verbose", "--help", "--version"};
            std::istringstream words(command.options);
            for (std::string w; words >> w;) takes.push_back(w);
            std::string best = nearest(f, takes);
            if (best.empty()) best = nearest(f, known);
            const std::string cmd = command.name;
            throw UsageError("unknown option " + f + (best.empty() ? "" : "; did you mean " + best + "?") +
                             " (see normlab-cli " + cmd + " --help)");
        }
    check_options(args, command.name, command.options);
}

void check_options(const Args& args, const std::string& what, const std::string& allowed) {
    std::vector<std::string> takes;
    std::istringstream words(allowed);
    for (std::string w; words >> w;) takes.push_back(w);
    auto refuse = [&](const std::string& option) {
        std::string list;
        for (const std::string& t : takes) list += (list.empty() ? "" : ", ") + t;
        const std::string command = what.substr(0, what.find(' '));
        throw UsageError(what + " does not take " + option + (list.empty() ? "; it takes no option but --store" : "; it takes " + list) +
                         " (normlab-cli " + command + " --help). Nothing was done.");
    };
    auto check = [&](const std::string& option) {
        for (const char* global : {"--store", "--verbose", "--help", "--version"})
            if (option == global) return;
        if (std::find(takes.begin(), takes.end(), option) == takes.end()) refuse(option);
    };
    for (const std::string& f : args.flags) check(f);
    for (const auto& [key, value] : args.options) check(key);
}

}  // namespace normlab::cli
