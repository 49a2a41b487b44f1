// Bad input refused before anything is created (issue: "nothing lost,
// nothing hangs"): integers that would wrap, numbers out of range, JSON
// nested too deep or with duplicate keys, sweeps too large to count, fields
// out of range, runs that cannot fit in memory, data sources that cannot
// work. Every refusal is a ConfigError naming the field.
#include "core/config.h"
#include "core/data/data.h"
#include "core/errors.h"
#include "core/train/fit_batch.h"
#include "core/experiment.h"
#include "tests/test_util.h"
#include "core/json_input.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

using namespace normlab;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
using test::config_error;
RunConfig parse_and_validate(const json& j) {
    RunConfig c = run_config_from_json(j);
    validate(c);
    return c;
}
bool starts(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
}  // namespace

class TestInput : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string file(const char* name, const std::string& text) {
        const std::string p = dir_.filePath(name).toStdString();
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }

private Q_SLOTS:
    void integersNeverWrap() {
        const std::pair<json, std::string> cases[] = {
            {{{"model", {{"d_model", 4294967360.0}}}}, "model.d_model"},
            {{{"train", {{"steps", 4294967297.0}}}}, "train.steps"},
            {{{"model", {{"n_layers", -4294967294.0}}}}, "model.n_layers"},
            {{{"train", {{"seed", -1.0}}}}, "train.seed"},
            {{{"train", {{"seed", -1}}}}, "train.seed"},
            {{{"model", {{"d_model", 64.5}}}}, "model.d_model"},
            {{{"train", {{"batch_size", 1e300}}}}, "train.batch_size"},
        };
        for (auto& [j, field] : cases) {
            const std::string e = config_error([&] { parse_and_validate(j); });
            QVERIFY2(starts(e, field + ":"), (j.dump() + " -> " + e).c_str());
        }
        QCOMPARE(run_config_from_json({{"model", {{"d_model", 64.0}}}}).model.d_model, 64);   // 64.0 is 64
        QCOMPARE(run_config_from_json({{"train", {{"seed", 18446744073709551615ull}}}}).train.seed,
                 uint64_t(18446744073709551615ull));
    }

    void fieldsOutOfRangeAreRefused() {
        const std::pair<json, std::string> cases[] = {
            {{{"model", {{"d_ff", 2e9}}}}, "model.d_ff"},
            {{{"train", {{"batch_size", 1e9}}}}, "train.batch_size"},
            {{{"train", {{"eval_batches", 2e9}}}}, "train.eval_batches"},
            {{{"train", {{"threads", 100000}}}}, "train.threads"},
            {{{"model", {{"init_std", 1e300}}}}, "model.init_std"},
            {{{"optim", {{"schedule", {{"kind", "ramp"}, {"ramp_increment", 1e300}}}}}}, "optim.schedule.ramp_increment"},
            {{{"train", {{"checkpoint_seconds", -1}}}}, "train.checkpoint_seconds"},
            {{{"train", {{"divergence", {{"margin", 0}}}}}}, "train.divergence.margin"},
        };
        for (auto& [j, field] : cases) {
            const std::string e = config_error([&] { parse_and_validate(j); });
            QVERIFY2(starts(e, field + ":"), (j.dump() + " -> " + e).c_str());
        }
        json nan_doc = {{"optim", {{"lr", std::nan("")}}}};
        QVERIFY(starts(config_error([&] { parse_and_validate(nan_doc); }), "optim.lr: must be a finite number"));
    }

    void jsonIsReadStrictly() {
        std::string deep(100000, '[');
        deep += std::string(100000, ']');
        std::string e = config_error([&] { parse_json_strict(deep); });
        QVERIFY2(e.find("nested more than 64 levels") != std::string::npos, e.c_str());
        e = config_error([&] { parse_json_strict(R"({"base": {"model": {"d_model": 64, "d_model": 128}}})"); });
        QVERIFY2(starts(e, "base.model.d_model: this key appears twice"), e.c_str());
        e = config_error([&] { parse_json_strict(R"({"variants": [{"scheme": "pre_ln"}, {"scheme": "x", "scheme": "y"}]})"); });
        QVERIFY2(starts(e, "variants[1].scheme: this key appears twice"), e.c_str());
        e = config_error([&] { parse_json_strict(R"({"base": {"optim": {"lr": 1e400}}})"); });
        QVERIFY2(starts(e, "base.optim.lr:") && e.find("out of range") != std::string::npos, e.c_str());
        e = config_error([&] { parse_json_strict("{\"a\": 1,\n \"b\": }", "x.json"); });
        QVERIFY2(e.find("x.json:2:7") != std::string::npos, e.c_str());
    }

    void experimentFilesAreCheckedBeforeReading() {
        std::string e = config_error([&] { load_experiment(dir_.path().toStdString()); });
        QVERIFY2(e.find("is a folder") != std::string::npos, e.c_str());
        e = config_error([&] { load_experiment("/dev/zero"); });
        QVERIFY2(e.find("not a regular file") != std::string::npos, e.c_str());
        const std::string big = dir_.filePath("big.json").toStdString();
        { std::ofstream f(big); }
        fs::resize_file(big, 20u << 20);                       // sparse: instant, no disk used
        e = config_error([&] { load_experiment(big); });
        QVERIFY2(e.find("MiB") != std::string::npos, e.c_str());
    }

    void hugeSweepsAreCountedWithoutWrapping() {
        json sweep = json::object();
        for (int i = 0; i < 64; ++i) sweep["train.seed_" + std::to_string(i)] = {1, 2};
        std::string e = config_error([&] { parse_experiment({{"sweep", sweep}}); });
        QVERIFY2(starts(e, "sweep: expands to more than 10000 runs"), e.c_str());
    }

    void runsThatCannotFitAreRefused() {
        RunConfig c;
        c.model.d_model = 16384;
        c.model.n_heads = 16;
        c.model.d_ff = 65536;
        c.model.n_layers = 512;
        std::string e = config_error([&] { check_memory(c); });
        QVERIFY2(starts(e, "model.d_model: the run would need about") && e.find("GiB") != std::string::npos, e.c_str());
        RunConfig b;
        b.train.batch_size = 65536;
        b.model.context = 4096;
        e = config_error([&] { check_memory(b, 8.0 * (1u << 30)); });
        QVERIFY2(starts(e, "train.batch_size:"), e.c_str());
        QVERIFY(config_error([&] { check_memory(RunConfig{}, 8.0 * (1u << 30)); }).empty());   // the default fits
        QVERIFY(estimate_memory(RunConfig{}).total() < 1e9);
        // On a GPU (fused attention) no (B, H, T, T) probabilities; bf16 halves a
        // LayerNorm scheme's activations, not nGPT's. GPT-2 small's shape at batch
        // 128 in bf16 (~50 GiB in use measured from batch 32 on an H100) fits 80 GiB.
        RunConfig g;
        g.model.d_model = 768;
        g.model.n_layers = 12;
        g.model.n_heads = 12;
        g.model.d_ff = 3072;
        g.model.context = 1024;
        g.train.batch_size = 128;
        g.train.precision = "bf16";
        const double gib = 1024.0 * 1024 * 1024;
        QVERIFY(estimate_memory(g, true).total() < 72 * gib);
        QVERIFY(estimate_memory(g, false).total() > 150 * gib);   // the explicit attention keeps its probabilities
        QVERIFY(config_error([&] { check_memory(g, 0.9 * 79 * gib, true); }).empty());
        RunConfig f = g;
        f.train.precision = "fp32";
        QCOMPARE(estimate_memory(f, true).activations - 4 * 3.0 * 128 * 1024 * 256,
                 2 * (estimate_memory(g, true).activations - 4 * 3.0 * 128 * 1024 * 256));
    }

    // --batch auto's choice from the peaks of a step at batch 1 and 2
    // (core/train/fit_batch.h): the largest power of two predicted to fit.
    void theFittedBatchIsTheLargestPowerOfTwoUnderTheBudget() {
        QCOMPARE(choose_batch(10, 12, 100), 32);      // 10 + 2·31 = 72 fits, 10 + 2·63 = 136 does not
        QCOMPARE(choose_batch(90, 100, 100), 2);
        QCOMPARE(choose_batch(120, 130, 100), 0);     // not even one row
        QCOMPARE(choose_batch(10, 10, 100), 65536);   // rows cost nothing measurable: the field's maximum
        QCOMPARE(choose_batch(0, 5, 100), 0);         // nothing measured
    }

    void dataSourcesAreCheckedWithoutLoading() {
        DataConfig d;
        d.source = DataSource::File;
        auto err = [&](const std::string& path) {
            d.path = path;
            return config_error([&] { check_data_source(d, 128); });
        };
        QVERIFY(starts(err(dir_.filePath("none.txt").toStdString()), "data.path:"));
        QVERIFY(err(dir_.path().toStdString()).find("is a folder") != std::string::npos);
        QVERIFY(err("/dev/zero").find("not a regular file") != std::string::npos);
        QVERIFY(err(file("empty.txt", "")).find("too short") != std::string::npos);
        QVERIFY(err(file("short.txt", std::string(500, 'x'))).find("too short") != std::string::npos);
        QVERIFY(err(file("ok.txt", std::string(5000, 'x'))).empty());
        d.source = DataSource::Corpus;
        d.path = dir_.filePath("no-corpus").toStdString();
        QVERIFY(starts(config_error([&] { check_data_source(d, 128); }), "data.path: corpus:"));
    }
};

QTEST_GUILESS_MAIN(TestInput)
#include "test_input.moc"
