// Tests (internal): running normlab-cli as a user would, and reading the
// store it writes while it runs. Shared by test_cli, test_cli_safety and
// test_neighbours.
#pragma once

#include "core/store/store.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <sys/mount.h>
#include <unistd.h>

#include <fstream>

namespace cli_harness {

struct Result {
    int code;
    QString out, err;
};

// normlab-cli with `args`, from `cwd` when given, with `env`'s NAME=value
// added to this process's environment; -1 on a timeout, -2 on a crash.
inline Result cli(const QStringList& args, const QString& cwd = {}, int timeout_ms = 120000,
                  const QStringList& env = {}) {
    QProcess p;
    if (!cwd.isEmpty()) p.setWorkingDirectory(cwd);
    if (!env.isEmpty()) {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
        p.setProcessEnvironment(e);
    }
    p.start(QStringLiteral(NORMLAB_CLI), args);
    if (!p.waitForFinished(timeout_ms)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timeout"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// A tiny experiment: d 32 × 2 layers on a Markov source, one thread.
inline nlohmann::json tiny(int steps, const nlohmann::json& extra = nlohmann::json::object()) {
    nlohmann::json base = {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                           {"train", {{"steps", steps}, {"batch_size", 4}, {"eval_every", 10}, {"threads", 1}}},
                           {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}};
    base.merge_patch(extra);
    return {{"name", "t"}, {"base", base}};
}

inline QString write_file(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString(), std::ios::binary) << text;
    return path;
}

// Whether a CLI's output has a progress line past step 0.
inline bool trains(const QString& out) { return out.contains(QRegularExpression(" step [1-9]")); }

// Waits until a normlab-cli started with merged channels trains (a progress
// line past step 0), however slow the machine (a fixed 2.5 s was too short
// under the sanitizers beside test_neighbours' load; a signal before
// training starts ends the process by the signal, not as a cancelled run).
// Returns what it printed; check it with trains().
inline QString wait_until_training(QProcess& p) {
    QString out;
    QElapsedTimer waited;
    waited.start();
    while (!trains(out) && p.state() == QProcess::Running && waited.elapsed() < 300000) {
        p.waitForReadyRead(500);
        out += QString::fromUtf8(p.readAll());
    }
    return out;
}

// Starts `program` (normlab-cli, or a wrapper such as nohup whose first argument
// it is) with merged channels and waits until it trains; returns what it printed
// (empty when it did not start). Check it with trains().
inline QString start_training(QProcess& p, const QStringList& args, const QString& program = QStringLiteral(NORMLAB_CLI)) {
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    if (!p.waitForStarted()) return {};
    return wait_until_training(p);
}

// Runs in a store another process writes (0 while it does not exist yet).
inline size_t runs_in(const QString& store) {
    if (!QFileInfo::exists(store)) return 0;
    try {
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        return s.runs().size();
    } catch (const std::exception&) {
        return 0;
    }
}

// The most steps any run of that store has recorded as done (its checkpoints).
inline int64_t steps_in(const QString& store) {
    if (!QFileInfo::exists(store)) return 0;
    try {
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        int64_t most = 0;
        for (auto& r : s.runs()) most = std::max(most, r.steps_done);
        return most;
    } catch (const std::exception&) {
        return 0;
    }
}

// A small tmpfs mounted at `dir` for as long as it lives (a disk that fills).
// mounted() is false without root or CAP_SYS_ADMIN: the caller skips, saying why.
class SmallDisk {
public:
    SmallDisk(const QString& dir, const char* size) : dir_(dir) {
        QDir().mkpath(dir);
        const std::string opts = std::string("size=") + size;
        mounted_ = ::geteuid() == 0 && ::mount("tmpfs", dir.toUtf8().constData(), "tmpfs", 0, opts.c_str()) == 0;
    }
    ~SmallDisk() {
        if (mounted_) ::umount2(dir_.toUtf8().constData(), MNT_DETACH);
    }
    SmallDisk(const SmallDisk&) = delete;
    SmallDisk& operator=(const SmallDisk&) = delete;
    bool mounted() const { return mounted_; }
    static const char* why_not() {
        return ::geteuid() != 0 ? "needs root to mount a small tmpfs (CI runs as root)"
                                : "cannot mount a tmpfs here (a container without CAP_SYS_ADMIN)";
    }

private:
    QString dir_;
    bool mounted_ = false;
};

// The bytes of a file ("" when it cannot be read).
inline QByteArray bytes_of(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

}  // namespace cli_harness
