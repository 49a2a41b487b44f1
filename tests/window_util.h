// Helpers for the tests that drive the main window (Qt, offscreen).
#pragma once

#include "app/gui/mainwindow.h"
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/probes.h"

#include <QFile>
#include <QProcess>
#include <QString>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>
#include <QtTest/QtTest>

namespace normlab::test {

// Waits until run `id` has left the queue and ended, then one refresh tick more.
inline void wait_idle(MainWindow& w, qint64 id) {
    QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->status != RunStatus::Queued && w.store().run(id)->status != RunStatus::Running,
                             120000);
    QTest::qWait(400);
}

// `n` finished runs with every view's data: loss, learning rate, per-layer gradients (`layers` of them), gains.
inline std::vector<qint64> fill(const QString& path, int n, const std::string& prefix, double scale = 1.0, int layers = 6) {
    Store s(path.toStdString());
    std::vector<qint64> ids;
    for (int k = 0; k < n; ++k) {
        const std::string name = prefix + " seed=" + std::to_string(k + 1);
        const int64_t id = s.create_run(name, "pre_ln", nlohmann::json{{"variant", prefix}, {"train", {{"seed", k + 1}}}}, 1);
        s.mark_running(id, "cpu", nlohmann::json::object());
        RunWriter w(s, id);
        for (int i = 0; i <= 200; ++i) {
            w.scalar("train/loss", i, 2.5 + 3 * std::exp(-i / 30.0) + 0.05 * k);
            w.scalar("train/lr", i, 2.095e-3 * std::min(1.0, (i + 1) / 20.0) * (0.5 + 0.5 * std::cos(M_PI * i / 200)) + 5e-6);
            if (i % 10 == 0)
                for (int l = 0; l < layers; ++l) w.layer("grad_l1/fc2", l, i, scale * 1e-7 * std::pow(10.0, l) * (1 + 0.1 * k));
        }
        for (int l = 0; l < layers; ++l) {
            std::vector<double> v(32, 1.0 + 0.01 * l);
            w.distribution(summarize("gain/norm2", l, 200, v, 8));
        }
        w.flush();
        s.finish_run(id, RunStatus::Finished, 200, "", 2.5);
        ids.push_back(id);
    }
    return ids;
}

// The first `n` bytes of a file ("" when it cannot be read).
inline QByteArray head(const QString& path, int n) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.read(n);
}

// Writes an experiment of a tiny model trained for 1,000,000 steps (one run, or
// these variants) to `path`: the app trains it until it is stopped.
inline void write_endless_experiment(const QString& path, const std::string& name,
                                     const nlohmann::json& variants = nlohmann::json()) {
    nlohmann::json e{{"name", name},
                     {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                               {"train", {{"steps", 1000000}, {"batch_size", 4}, {"threads", 1}}},
                               {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}}};
    if (!variants.is_null()) e["variants"] = variants;
    std::ofstream(path.toStdString()) << e.dump();
}

// Starts the app `program` offscreen (its HOME in `home`) on `store`, training `experiment` at once.
inline bool start_app_training(QProcess& app, const QString& program, const QString& home, const QString& store,
                               const QString& experiment) {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("HOME", home);
    app.setProcessEnvironment(env);
    app.start(program, {"--store", store, "--experiment", experiment, "--run"});
    return app.waitForStarted();
}

// Whether run `id` of a store another process writes is training past step 5.
inline bool trains_past_step_5(const QString& store, qint64 id) {
    try {
        auto r = Store(store.toStdString(), Store::Mode::ReadOnly).run(id);
        return r && r->status == RunStatus::Running && r->steps_done > 5;
    } catch (const StoreError&) {
        return false;
    }
}

}  // namespace normlab::test
