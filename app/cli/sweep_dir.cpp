// normlab-cli (internal): a Slurm sweep's folder and the programs it runs (sweep_dir.h).
#include "app/cli/sweep_dir.h"

#include "app/cli/cli.h"
#include "core/errors.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace normlab::cli {
namespace fs = std::filesystem;
using nlohmann::json;

std::string run_command(const std::vector<std::string>& argv) {
    int out[2], err[2];
    if (::pipe(out) != 0 || ::pipe(err) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::dup2(out[1], 1);
        ::dup2(err[1], 2);
        ::close(out[0]);
        ::close(err[0]);
        std::vector<char*> a;
        for (auto& s : argv) a.push_back(const_cast<char*>(s.c_str()));
        a.push_back(nullptr);
        ::execvp(a[0], a.data());
        std::fprintf(stderr, "cannot run %s", a[0]);
        ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    auto drain = [](int fd) {
        std::string s;
        char buf[4096];
        ssize_t n;
        while ((n = ::read(fd, buf, sizeof buf)) > 0) s.append(buf, static_cast<size_t>(n));
        ::close(fd);
        return s;
    };
    std::string o = drain(out[0]), e = drain(err[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw RunError(argv[0] + " failed" + (e.empty() ? std::string() : ": " + e) +
                       (WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (is Slurm installed here?)" : ""));
    return o;
}

std::pair<SlurmSweep, json> read_sweep(const std::string& dir, const std::string& option) {
    std::ifstream in(fs::path(dir) / "sweep.json");
    if (!in) throw UsageError(option + " " + dir + ": no sweep.json there; give the folder normlab-cli sweep --dir wrote");
    json j;
    try {
        in >> j;
    } catch (const std::exception& e) {
        throw UsageError(dir + "/sweep.json cannot be read: " + e.what());
    }
    SlurmSweep s = SlurmSweep::from_json(j);
    try {
        check_sweep(s);
    } catch (const ConfigError& e) {
        throw UsageError(dir + "/sweep.json is not a sweep this version can read: " + e.what());
    }
    // The stores are where sweep.json is now, wherever the folder was moved.
    s.dir = fs::absolute(dir).lexically_normal().string();
    return {s, j};
}

}  // namespace normlab::cli
