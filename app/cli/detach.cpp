// normlab-cli: training in a process that outlives the command that started
// it (`run --detach`, `resume --detach`): what a launch over ssh needs, so
// that the runs survive the window closing, the laptop sleeping and the
// network dropping.
#include "app/cli/training.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace normlab::cli {
namespace fs = std::filesystem;

std::string train_detached(const std::string& store, const std::vector<int64_t>& runs, const std::vector<std::string>& options) {
    const fs::path logs = fs::path(store + ".logs");
    std::error_code ec;
    fs::create_directories(logs, ec);
    if (ec) throw std::runtime_error("cannot create " + logs.string() + " for the detached run's log: " + ec.message());
    std::string ids;
    for (int64_t id : runs) ids += (ids.empty() ? "" : "-") + std::to_string(id);
    if (ids.size() > 60) ids = std::to_string(runs.front()) + "-to-" + std::to_string(runs.back());
    const std::string log = (logs / ("run-" + ids + "-" + std::to_string(::time(nullptr)) + ".log")).string();
    std::vector<std::string> argv{"normlab-cli", "resume", "--if-queued"};
    argv.insert(argv.end(), options.begin(), options.end());
    argv.push_back("--store");
    argv.push_back(store);
    for (int64_t id : runs) argv.push_back(std::to_string(id));
    std::vector<char*> args;
    for (auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // Everything the children need is prepared before fork(): between fork and
    // exec only async-signal-safe calls (this process may have threads).
    char self[4096];
    const ssize_t n = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) throw std::runtime_error(std::string("cannot find this program (/proc/self/exe): ") + std::strerror(errno));
    self[n] = '\0';
    const int out = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (out < 0) throw std::runtime_error("cannot write " + log + ": " + std::strerror(errno));
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    std::fflush(nullptr);
    const pid_t first = ::fork();
    if (first < 0) {
        ::close(out);
        ::close(null);
        throw std::runtime_error(std::string("cannot start the detached run: ") + std::strerror(errno));
    }
    if (first == 0) {
        // A session of its own (no terminal, no ssh session's hang-up), then
        // a second fork so it is no session leader and is reparented to init.
        ::setsid();
        if (::fork() != 0) ::_exit(0);
        ::signal(SIGHUP, SIG_IGN);
        ::dup2(null, 0);
        ::dup2(out, 1);
        ::dup2(out, 2);
        ::execv(self, args.data());
        ::_exit(127);
    }
    ::close(out);
    ::close(null);
    int status = 0;
    while (::waitpid(first, &status, 0) < 0 && errno == EINTR) {
    }
    return log;
}

int detach_and_report(const Store& store, const std::vector<std::pair<int64_t, std::string>>& runs, const char* word,
                      const std::vector<std::string>& options) {
    std::vector<int64_t> ids;
    for (auto& r : runs) ids.push_back(r.first);
    const std::string log = train_detached(store.path(), ids, options);
    for (auto& r : runs) std::printf("%lld\t%s\t%s\n", static_cast<long long>(r.first), word, r.second.c_str());
    std::fprintf(stderr, "training detached; its output goes to %s\n", log.c_str());
    return kOk;
}

}  // namespace normlab::cli
