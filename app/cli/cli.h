// normlab-cli (internal): what the commands share — arguments, exit codes,
// formatting, the progress printer and the store a command opens.
#pragma once

#include "core/atomic_file.h"
#include "core/store/store.h"
#include "core/train/trainer.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace normlab::cli {

// 0 success (every run finished), 1 an unexpected error, 2 bad usage or
// configuration, 3 a run diverged, 4 a run failed or could not start, 5 a
// store error, 130 interrupted (Ctrl-C/SIGTERM: the run is saved as cancelled).
enum Exit { kOk = 0, kError = 1, kUsage = 2, kDiverged = 3, kFailed = 4, kStore = 5, kInterrupted = 130 };

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

// For a SIGINT/SIGTERM handler: whether this signal is a second stop, which
// ends the process at once. `first_ns` keeps when the first came (0: none
// yet). A signal within half a second of the first is that stop sent twice
// (GNU timeout signals its command and then the command's process group; a
// shell's or Slurm's signal reaches every process of a group or step), not a
// user's second Ctrl-C. Async-signal-safe (clock_gettime and a lock-free atomic).
bool second_stop_signal(std::atomic<long long>& first_ns);

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Args parse_args(int argc, char** argv);
// An integer in [lo, hi], or a UsageError naming the option.
int parse_int(const std::string& what, const std::string& s, int lo = -2147483647, int hi = 2147483647);
std::string format_duration(double s);
std::string format_bytes(uintmax_t bytes);   // "850 kB", "51.0 MB", "1.40 GB"
// One JSON object as a line on stdout, flushed (what --json commands say as it happens).
void print_json_line(const nlohmann::json& e);
std::string fmt_loss(double v);
std::string time_text(double unix_s);
std::string csv_escape(const std::string& s);
// A word as a command line the user may paste takes it: as it is where it is plain, else quoted.
std::string shell_word(const std::string& s);
// " --store FILE" naming this store in a command to paste, "" where it is the default store.
std::string store_option(const Store& store);

// Text on a terminal (text_columns.cpp). The code point at s[i] and its length in bytes (a byte
// that begins none: itself, one byte); the columns a code point takes (East Asian wide and
// full-width ones two); a string's columns; how many of its first bytes are whole characters
// within `width` columns; `text` in lines of at most `width` columns, broken at spaces (a word
// longer than a line is cut between its characters).
std::pair<char32_t, size_t> code_point(const std::string& s, size_t i);
int columns(char32_t c);
int width_of(const std::string& s);
size_t bytes_within(const std::string& s, int width);
std::vector<std::string> wrap_columns(const std::string& text, int width);
// `s` padded to `width` columns, or cut to it with "…" (never inside a character).
std::string fit(const std::string& s, int width);

// The store named by --store (else the default); read-only for commands that only read.
std::string store_path(const Args& args);
// store_path for a command that changes runs already stored but never makes a store (resume,
// cancel): refused, with nothing created, where no file is there yet.
std::string existing_store_path(const Args& args);

// A progress bar on a terminal, plain lines (every 10% or 30 s) otherwise.
class ProgressPrinter {
public:
    ProgressPrinter(size_t index, size_t count);
    void operator()(const Progress& p);
    void finish();   // ends the bar's line before anything else is printed

private:
    size_t index_, count_;
    bool tty_;
    bool drawn_ = false;
    int last_decile_ = -1;
    double last_print_ = 0;
};

// One line of progress on a terminal (stderr), drawn at most four times a second ("merging …: 120 of 400
// series (30%)") and cleared by end(); nothing where stderr is not a terminal. For work that is not
// training (export, merge); training has ProgressPrinter.
class ProgressLine {
public:
    ProgressLine();
    // `done` of `total` units of `what` ("points", "series"), after `head`.
    void show(const std::string& head, int64_t done, int64_t total, const char* what);
    void end();

private:
    bool tty_, drawn_ = false;
    std::chrono::steady_clock::time_point last_{};
};

// A file written whole or not at all (an AtomicFile: FILE.tmp, checked first by check_output_file: never an
// input, fsync'd and renamed into place by commit()); gone without commit (an error, a full disk, a stop). An empty
// path writes standard output. Written with write(2) from a buffer of its own, not stdio: a write blocked on
// a pipe or FIFO nobody reads comes back on a stop signal with what it wrote, where stdio's loop wrote on and
// blocked again for ever. `stop`, set by a signal handler, makes write() or commit() throw Stopped.
class OutputFile {
public:
    struct Stopped {};
    explicit OutputFile(const std::string& path, const std::atomic<bool>* stop = nullptr);
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;
    void write(const std::string& s);
    void commit();
    uintmax_t bytes() const { return bytes_; }

private:
    void drain();
    [[noreturn]] void fail(int err) const;
    bool stopped() const { return stop_ && stop_->load(); }
    std::string out_, buffer_;
    const std::atomic<bool>* stop_;
    std::unique_ptr<AtomicFile> file_;   // none: standard output
    uintmax_t bytes_ = 0;
};

// Writes a file through FILE.tmp and a rename (OutputFile); any write error is a
// std::runtime_error and leaves no temporary file.
void write_output_file(const std::string& path, const std::string& bytes);

// A command: its name, its synopsis and help for the usage text, and what it
// does. Each lives in its own cmd_*.cpp; main.cpp lists them in one table.
struct Command {
    const char* name;       // "run"
    const char* synopsis;   // "run EXPERIMENT.json"
    const char* help;       // what it does, lines ending in \n (the usage text's entry)
    int (*run)(const Args& args);
    const char* details = "";   // more for `normlab-cli COMMAND --help`: options, examples
    // The options it takes besides --store, --verbose, --help and --version, space-separated
    // ("--out --last"); any other is refused before it runs, never silently ignored.
    const char* options = "";
};

// Whether a command trains here (run, resume): the ones whose OpenMP threads are set to
// wait briefly before LibTorch loads (core/platform.h), by the front end or the engine.
inline bool command_trains(const char* command) {
    return command && (std::string(command) == "run" || std::string(command) == "resume");
}
// `normlab-cli COMMAND --help`: its synopsis, help and details on stdout.
void print_command_help(const Command& c);
// Every command (commands.cpp), the engine's with no `run` (main.cpp runs them); null for a
// name none has.
const Command* find_command(const std::string& name);
// The usage text: every command's synopsis and help, the store's default, the exit codes.
std::string usage_text();
// `COMMAND --help`, `help [COMMAND]`, no command (the usage, on stderr: kUsage) or an unknown
// one (a UsageError): answered, its exit code returned; -1 where the command is to run.
int help_or_usage(const Args& args);
// What both of normlab-cli's programs (main.cpp, front.cpp) do around a
// command: the logger, --verbose, the arguments parsed, and each error as its
// message and exit code (usage and configuration 2, store 5, run 4, else 1).
int run_reporting(int argc, char** argv, const std::function<int(const Args&)>& body);
// A UsageError for an option no command knows, or one this command does not take.
void check_flags(const Args& args, const Command& command);
// Refuses, naming what `what` takes, an option given that is not among `allowed`
// (space-separated) or --store, --verbose, --help, --version. Nothing is done before.
void check_options(const Args& args, const std::string& what, const std::string& allowed);

}  // namespace normlab::cli
