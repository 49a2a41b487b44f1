// Configuration: scheme presets, JSON round trip, field-path errors,
// DeepNorm constants, BranchNorm schedules, learning-rate schedules,
// experiment expansion.
#include "core/config.h"
#include "core/flops.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <QDirIterator>
#include <QTemporaryDir>

#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace normlab;
using nlohmann::json;

namespace {
using test::config_error;
RunConfig preset(Scheme s) {
    RunConfig c;
    apply_scheme(c, s);
    return c;
}
}  // namespace

class TestConfig : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void presetsSetTheirComponents() {
        auto post = preset(Scheme::PostLN).model;
        QCOMPARE(post.layout, Layout::Post);
        QVERIFY(!post.final_norm);
        auto pre = preset(Scheme::PreLN).model;
        QCOMPARE(pre.layout, Layout::Pre);
        QVERIFY(pre.final_norm);
        QVERIFY(!pre.normformer.head_scale && !pre.normformer.ffn_norm);
        auto nf = preset(Scheme::NormFormer).model;
        QCOMPARE(nf.layout, Layout::Pre);
        QVERIFY(nf.final_norm && nf.normformer.head_scale && nf.normformer.post_attn_norm && nf.normformer.ffn_norm);
        QVERIFY(!nf.normformer.res_scale);  // optional, off by default
        QCOMPARE(nf.normformer.head_scale_placement, HeadScalePlacement::BeforeOutProj);
        auto dn = preset(Scheme::DeepNorm).model;
        QCOMPARE(dn.layout, Layout::Post);
        QVERIFY(dn.deepnorm.residual && dn.deepnorm.init && !dn.final_norm);
        auto bn = preset(Scheme::BranchNorm).model;
        QCOMPARE(bn.layout, Layout::Post);
        QVERIFY(bn.branchnorm.enabled && bn.deepnorm.init && !bn.deepnorm.residual);
        QCOMPARE(bn.branchnorm.T, 4000);
        QCOMPARE(bn.branchnorm.schedule, BranchSchedule::Linear);
        RunConfig ng = preset(Scheme::NGPT);
        QCOMPARE(ng.model.layout, Layout::NGPT);
        QCOMPARE(ng.model.activation, Activation::SwiGLU);
        QCOMPARE(ng.model.positions, Positions::RoPE);
        QVERIFY(!ng.model.bias && !ng.model.tie_embeddings && !ng.model.final_norm);
        QCOMPARE(ng.optim.weight_decay, 0.0);
        QCOMPARE(ng.optim.schedule.warmup, 0);
        for (Scheme s : all_schemes()) validate(preset(s));   // every preset is valid as it is
    }

    void jsonRoundTrip() {
        for (Scheme s : all_schemes()) {
            RunConfig c = preset(s);
            c.model.n_layers = 7;
            c.model.deepnorm.alpha = 1.5;
            c.optim.lr = 3e-4;
            c.train.seed = 42;
            const json j = to_json(c);
            const RunConfig back = run_config_from_json(j);
            QCOMPARE(to_json(back).dump(), j.dump());
            QCOMPARE(back.scheme, s);
        }
    }

    void schemeThenOverrides() {
        // The preset comes first; a single component can be switched afterwards.
        RunConfig c = run_config_from_json({{"scheme", "normformer"}, {"model", {{"normformer", {{"head_scale", false}}}}}});
        QVERIFY(!c.model.normformer.head_scale);
        QVERIFY(c.model.normformer.ffn_norm && c.model.normformer.post_attn_norm);
        QCOMPARE(c.scheme, Scheme::NormFormer);
        QCOMPARE(run_config_from_json({{"scheme", "Post-LN"}}).scheme, Scheme::PostLN);
    }

    void fieldErrorsNameThePath() {
        auto e = config_error([] { run_config_from_json({{"model", {{"n_head", 4}}}}); });
        QVERIFY2(e.find("model.n_head: unknown field; did you mean \"n_heads\"?") != std::string::npos, e.c_str());
        e = config_error([] { run_config_from_json({{"model", {{"d_model", "big"}}}}); });
        QVERIFY2(e.find("model.d_model: expected an integer") != std::string::npos, e.c_str());
        e = config_error([] { run_config_from_json({{"model", {{"activation", "tanh"}}}}); });
        QVERIFY2(e.find("model.activation: \"tanh\" is not one of gelu, relu, swiglu") != std::string::npos, e.c_str());
        e = config_error([] { run_config_from_json({{"scheme", "layernorm"}}); });
        QVERIFY2(e.find("scheme:") == 0, e.c_str());
        e = config_error([] { run_config_from_json({{"optim", {{"schedule", 3}}}}); });
        QVERIFY2(e.find("optim.schedule: expected an object") != std::string::npos, e.c_str());
    }

    // A run is named from what it changes in its scheme's preset.
    void runsAreNamedFromTheirDifferences() {
        RunConfig c = preset(Scheme::NormFormer);
        QCOMPARE(QString::fromStdString(run_name_from_differences(c)), QString("NormFormer"));
        c.model.normformer.head_scale = false;
        QCOMPARE(QString::fromStdString(run_name_from_differences(c)), QString("NormFormer −HeadScale"));
        c.model.normformer.res_scale = true;
        QCOMPARE(QString::fromStdString(run_name_from_differences(c)), QString("NormFormer −HeadScale +ResScale"));
        RunConfig d = preset(Scheme::PreLN);
        d.model.layout = Layout::Post;
        QCOMPARE(QString::fromStdString(run_name_from_differences(d)), QString("Pre-LN post layout"));
    }

    void impossibleConfigurationsAreRefused() {
        RunConfig c;
        c.model.d_model = 128;
        c.model.n_heads = 6;
        auto e = config_error([&] { validate(c); });
        QVERIFY2(e == "model.n_heads: 6 does not divide d_model 128; choose n_heads 4 or 8, or d_model 126 or 132",
                 e.c_str());
        c.model.d_model = 65;  // prime factors 5 and 13: the nearest head count above is 5
        c.model.n_heads = 4;
        e = config_error([&] { validate(c); });
        QVERIFY2(e == "model.n_heads: 4 does not divide d_model 65; choose n_heads 1 or 5, or d_model 64 or 68", e.c_str());
        c.model.d_model = 8;  // more heads than width: no head count above, no width below
        c.model.n_heads = 12;
        e = config_error([&] { validate(c); });
        QVERIFY2(e == "model.n_heads: 12 does not divide d_model 8; choose n_heads 8, or d_model 12", e.c_str());
        c.model.d_model = 128;
        c.model.n_heads = 4;

        RunConfig n = preset(Scheme::NGPT);
        n.model.normformer.ffn_norm = true;
        e = config_error([&] { validate(n); });
        QVERIFY2(e.find("model.normformer.ffn_norm") == 0 && e.find("nGPT has no LayerNorm") != std::string::npos, e.c_str());
        n = preset(Scheme::NGPT);
        n.model.final_norm = true;
        QVERIFY(config_error([&] { validate(n); }).find("model.final_norm") == 0);

        RunConfig b = preset(Scheme::BranchNorm);
        b.model.branchnorm.T = -5;
        e = config_error([&] { validate(b); });
        QVERIFY2(e.find("model.branchnorm.T: -5 must be a positive number of steps") == 0, e.c_str());

        RunConfig r;
        r.model.positions = Positions::RoPE;
        r.model.d_model = 12;
        r.model.n_heads = 4;   // d_h = 3: odd
        QVERIFY(config_error([&] { validate(r); }).find("model.positions: RoPE needs an even head dimension") == 0);

        RunConfig d;
        d.train.device = "tpu";
        QVERIFY(config_error([&] { validate(d); }).find("train.device") == 0);
        RunConfig f;
        f.data.source = DataSource::File;
        QVERIFY(config_error([&] { validate(f); }).find("data.path") == 0);
        RunConfig lr;
        lr.optim.lr = -1;
        QVERIFY(config_error([&] { validate(lr); }).find("optim.lr") == 0);
    }

    void deepNormConstants() {
        QCOMPARE(deepnorm_alpha_for(6), std::pow(12.0, 0.25));
        QVERIFY(std::abs(deepnorm_alpha_for(6) - 1.861) < 1e-3);
        QVERIFY(std::abs(deepnorm_beta_for(6) - 0.380) < 1e-3);
        QVERIFY(std::abs(deepnorm_alpha_for(12) - 2.213) < 1e-3);
        QVERIFY(std::abs(deepnorm_beta_for(12) - 0.320) < 1e-3);
        for (int n : {1, 2, 18, 100}) {
            QCOMPARE(deepnorm_alpha_for(n), std::pow(2.0 * n, 0.25));
            QCOMPARE(deepnorm_beta_for(n), std::pow(8.0 * n, -0.25));
        }
        RunConfig c = preset(Scheme::DeepNorm);
        c.model.n_layers = 18;
        QCOMPARE(c.model.deepnorm_alpha(), deepnorm_alpha_for(18));
        c.model.deepnorm.alpha = 3.0;          // overridable
        c.model.deepnorm.beta = 0.5;
        QCOMPARE(c.model.deepnorm_alpha(), 3.0);
        QCOMPARE(c.model.deepnorm_beta(), 0.5);
        c.model.deepnorm.residual = false;     // toggle off → plain residual
        QCOMPARE(c.model.deepnorm_alpha(), 1.0);
    }

    void branchNormSchedules() {
        BranchNormConfig b;
        b.enabled = true;
        b.T = 100;
        for (auto sched : {BranchSchedule::Linear, BranchSchedule::Exp, BranchSchedule::Sigmoid}) {
            b.schedule = sched;
            QCOMPARE(branchnorm_alpha(b, 0), 0.0);
            QCOMPARE(branchnorm_alpha(b, 100), 1.0);
            QCOMPARE(branchnorm_alpha(b, 5000), 1.0);
            double prev = -1;
            for (int t = 0; t <= 100; ++t) {   // monotone, within [0, 1]
                const double a = branchnorm_alpha(b, t);
                QVERIFY(a >= prev && a >= 0 && a <= 1);
                prev = a;
            }
        }
        b.schedule = BranchSchedule::Linear;
        QCOMPARE(branchnorm_alpha(b, 25), 0.25);
        b.schedule = BranchSchedule::Exp;
        QVERIFY(std::abs(branchnorm_alpha(b, 50) - (1 - std::exp(-2.5)) / (1 - std::exp(-5.0))) < 1e-12);
        b.schedule = BranchSchedule::Sigmoid;
        QVERIFY(std::abs(branchnorm_alpha(b, 50) - 0.5) < 1e-12);
        QVERIFY(branchnorm_alpha(b, 10) < 0.05);
        b.enabled = false;
        QCOMPARE(branchnorm_alpha(b, 0), 1.0);
    }

    void learningRateSchedules() {
        OptimConfig o;
        o.lr = 1e-3;
        o.schedule.warmup = 10;
        o.schedule.min_lr_ratio = 0.1;
        o.schedule.kind = ScheduleKind::Cosine;
        QCOMPARE(learning_rate(o, 110, 1), 1e-4);
        QCOMPARE(learning_rate(o, 110, 10), 1e-3);
        QVERIFY(std::abs(learning_rate(o, 110, 60) - (1e-4 + 0.9e-3 * 0.5)) < 1e-12);
        QVERIFY(std::abs(learning_rate(o, 110, 110) - 1e-4) < 1e-12);
        o.schedule.kind = ScheduleKind::Linear;
        QVERIFY(std::abs(learning_rate(o, 110, 60) - (1e-4 + 0.9e-3 * 0.5)) < 1e-12);
        o.schedule.kind = ScheduleKind::InverseSqrt;
        QVERIFY(std::abs(learning_rate(o, 1000, 40) - 1e-3 * std::sqrt(10.0 / 40.0)) < 1e-12);
        o.schedule.kind = ScheduleKind::Constant;
        QCOMPARE(learning_rate(o, 1000, 500), 1e-3);
        o.schedule.kind = ScheduleKind::Ramp;
        o.schedule.ramp_start = 0;
        o.schedule.ramp_increment = 5e-5;
        QVERIFY(std::abs(learning_rate(o, 1000, 400) - 0.02) < 1e-12);   // NormFormer §4: lr 0.02 at step 400
    }

    void experimentExpansion() {
        json spec = {{"name", "e"},
                     {"base", {{"model", {{"d_model", 64}, {"n_heads", 4}}}, {"train", {{"steps", 10}}}}},
                     {"variants", {{{"name", "post"}, {"scheme", "post_ln"}}, {{"scheme", "pre_ln"}}}},
                     {"sweep", {{"optim.lr", {1e-3, 3e-3}}, {"train.seed", {1, 2, 3}}}}};
        Experiment ex = parse_experiment(spec);
        QCOMPARE(ex.runs.size(), size_t(12));
        QCOMPARE(ex.runs[0].name, std::string("post lr=0.001 seed=1"));
        QCOMPARE(ex.runs[0].config.scheme, Scheme::PostLN);
        QCOMPARE(ex.runs[11].config.scheme, Scheme::PreLN);
        QCOMPARE(ex.runs[11].config.optim.lr, 3e-3);
        QCOMPARE(ex.runs[11].config.train.seed, uint64_t(3));
        QCOMPARE(ex.runs[11].config.model.d_model, 64);
    }

    void experimentErrorsPointAtTheirSource() {
        json spec = {{"base", {{"model", {{"d_model", 128}}}}},
                     {"variants", {{{"name", "a"}}, {{"name", "b"}}, {{"name", "c"}, {"model", {{"n_heads", 6}}}}}}};
        auto e = config_error([&] { parse_experiment(spec); });
        QVERIFY2(e.find("variants[2].model.n_heads: 6 does not divide d_model 128") == 0, e.c_str());
        json base_bad = {{"base", {{"model", {{"n_heads", 6}}}}}};
        e = config_error([&] { parse_experiment(base_bad); });
        QVERIFY2(e.find("base.model.n_heads: 6 does not divide") == 0, e.c_str());
        json sweep_bad = {{"sweep", {{"model.n_layers", {2, 0}}}}};
        e = config_error([&] { parse_experiment(sweep_bad); });
        QVERIFY2(e.find("sweep.model.n_layers[1]: 0 is out of range") == 0, e.c_str());
        // a scheme that is no string (found by the fuzzer: it threw a JSON type error)
        e = config_error([&] { parse_experiment({{"base", {{"scheme", {1, 2}}}}}); });
        QVERIFY2(e.find("base.scheme") == 0, e.c_str());
        // a sweep key that is no field path (found by the fuzzer: "" replaced the whole run)
        for (const char* k : {"", ".lr", "optim.", "optim..lr"}) {
            e = config_error([&] { parse_experiment({{"sweep", {{k, {2, 2}}}}}); });
            QVERIFY2(e.find("sweep: \"") == 0 && e.find("is not a field path") != std::string::npos, e.c_str());
        }
        json typo = {{"base", {{"optim", {{"lr_max", 1}}}}}};
        e = config_error([&] { parse_experiment(typo); });
        QVERIFY2(e.find("base.optim.lr_max: unknown field") == 0, e.c_str());
        json top = {{"model", json::object()}};
        e = config_error([&] { parse_experiment(top); });
        QVERIFY2(e.find("model: unknown field") == 0, e.c_str());
        json dup = {{"variants", {{{"name", "x"}}, {{"name", "x"}}}}};
        QVERIFY(config_error([&] { parse_experiment(dup); }).find("variants[1].name") == 0);
    }

    void experimentFileSyntaxErrorGivesLineAndColumn() {
        const QString path = QDir::temp().filePath("normlab_bad_experiment.json");
        {
            std::ofstream f(path.toStdString());
            f << "{\n  \"base\": {\n    \"model\": { \"d_model\": 64, }\n  }\n}\n";
        }
        auto e = config_error([&] { load_experiment(path.toStdString()); });
        QVERIFY2(e.find(":3:") != std::string::npos && e.find("not valid JSON") != std::string::npos, e.c_str());
        QVERIFY(config_error([] { load_experiment("/nonexistent/x.json"); }).find("cannot open") != std::string::npos);
    }

    void shippedExperimentsLoad() {
        QDir dir(QStringLiteral(NORMLAB_SOURCE_DIR "/experiments"));
        const auto files = dir.entryList({"*.json"}, QDir::Files);
        QVERIFY(!files.isEmpty());
        for (const auto& f : files) {
            Experiment ex = load_experiment(dir.filePath(f).toStdString());
            QVERIFY2(!ex.runs.empty(), qPrintable(f));
        }
    }

    // Every scale a shipped experiment offers (experiments/ and experiments/reproduction/) expands to
    // valid runs: a GPU scale is checked here, on a machine that cannot train it.
    void shippedExperimentsLoadAtEveryScale() {
        int checked = 0;
        for (const char* sub : {"/experiments", "/experiments/reproduction"}) {
            QDir dir(QStringLiteral(NORMLAB_SOURCE_DIR) + sub);
            for (const auto& f : dir.entryList({"*.json"}, QDir::Files)) {
                const std::string path = dir.filePath(f).toStdString();
                for (const auto& scale : load_experiment(path).scales) {
                    Experiment ex = load_experiment(path, scale);
                    QVERIFY2(!ex.runs.empty(), qPrintable(f + " --scale " + QString::fromStdString(scale)));
                    for (auto& r : ex.runs) validate(r.config);
                    ++checked;
                }
            }
        }
        QVERIFY(checked >= 8);   // the reproduction experiments' and gpt2_small's gpu scales
    }

    // At the gpu scale every reproduction run reads the English corpus (the fortunes would be memorized at
    // that size), and whatever trains past its first step does so in bf16.
    void gpuScalesReadTheCorpusInBf16() {
        QDirIterator it(NORMLAB_SOURCE_DIR "/experiments/reproduction", {"*.json"}, QDir::Files);
        int files = 0;
        while (it.hasNext()) {
            const std::string path = it.next().toStdString();
            ++files;
            for (auto& r : load_experiment(path, "gpu").runs) {
                const std::string& dp = r.config.data.path;   // absolute where the corpus was made (load_experiment finds it)
                QVERIFY2(r.config.data.source == DataSource::File && dp.size() >= 24 &&
                             dp.compare(dp.size() - 24, 24, "normlab-data/english.txt") == 0,
                         (path + ": " + r.name + " does not read normlab-data/english.txt").c_str());
                QVERIFY2(r.config.train.steps <= 1 || r.config.train.precision == "bf16",
                         (path + ": " + r.name + " trains in " + r.config.train.precision).c_str());
            }
        }
        QVERIFY(files >= 8);
    }

    // A relative data.path missing from the working directory is found beside the experiment file or in
    // a folder above it (the window's report started from the home folder refused every gpu-scale run);
    // one that exists from the working directory, and the file as written, are left as they are.
    void relativeDataPathsAreFoundAboveTheExperiment() {
        QTemporaryDir tmp;
        const std::string root = tmp.path().toStdString();
        QVERIFY(QDir().mkpath(tmp.filePath("proj/experiments/reproduction")) && QDir().mkpath(tmp.filePath("proj/normlab-data")) &&
                QDir().mkpath(tmp.filePath("elsewhere/normlab-data")));
        std::ofstream(root + "/proj/normlab-data/english.txt") << std::string(4000, 'a');
        std::ofstream(root + "/proj/normlab-data/other.txt") << std::string(4000, 'b');
        std::ofstream(root + "/elsewhere/normlab-data/here.txt") << std::string(4000, 'c');
        const std::string exp = root + "/proj/experiments/reproduction/e.json";
        std::ofstream(exp) << R"({"base": {"model": {"d_model": 16, "n_layers": 1, "n_heads": 2, "d_ff": 32, "context": 8},
            "data": {"source": "file", "path": "normlab-data/english.txt"}},
          "variants": [{"name": "a"}, {"name": "here", "data": {"path": "normlab-data/here.txt"}},
                       {"name": "nowhere", "data": {"path": "normlab-data/none.txt"}}]})";
        const std::string swept_exp = root + "/proj/experiments/swept.json";
        std::ofstream(swept_exp) << R"({"base": {"model": {"d_model": 16, "n_layers": 1, "n_heads": 2, "d_ff": 32, "context": 8},
            "data": {"source": "file"}},
          "sweep": {"data.path": ["normlab-data/english.txt", "normlab-data/other.txt"]}})";
        const QString was = QDir::currentPath();
        QVERIFY(QDir::setCurrent(tmp.filePath("elsewhere")));
        Experiment ex, sw;
        try {
            ex = load_experiment(exp);
            sw = load_experiment(swept_exp);
        } catch (const std::exception& e) {
            QDir::setCurrent(was);
            QFAIL(e.what());
        }
        QDir::setCurrent(was);
        std::map<std::string, std::string> path_of;
        for (auto& r : ex.runs) path_of[r.name] = r.config.data.path;
        QCOMPARE(ex.runs.size(), size_t(3));
        QCOMPARE(path_of["a"], root + "/proj/normlab-data/english.txt");
        QCOMPARE(path_of["here"], std::string("normlab-data/here.txt"));   // exists from the working directory
        QCOMPARE(path_of["nowhere"], std::string("normlab-data/none.txt"));   // found nowhere: as written, refused later
        QCOMPARE(ex.spec["base"]["data"]["path"].get<std::string>(), std::string("normlab-data/english.txt"));
        std::set<std::string> swept;
        for (auto& r : sw.runs) swept.insert(r.config.data.path);
        QCOMPARE(swept, (std::set<std::string>{root + "/proj/normlab-data/english.txt", root + "/proj/normlab-data/other.txt"}));
        QCOMPARE(sw.spec["sweep"]["data.path"][1].get<std::string>(), std::string("normlab-data/other.txt"));
    }

    // normformer_early.json: at the default scale normformer.json's own runs (a report reuses them); at
    // the gpu scale the first 101 steps of its runs (finding 5, trained without a GPU): the same model,
    // optimizer, data and seeds, and in every step the learning rate the long run has at that step.
    // Only the batch, the precision, the probes and the length may differ there.
    void earlyNormFormerRunsAreTheFirstStepsOfTheLongOnes() {
        const std::string dir = std::string(NORMLAB_SOURCE_DIR) + "/experiments/";
        for (const std::string scale : {"", "gpu"}) {
            const Experiment early = load_experiment(dir + "normformer_early.json", scale);
            const Experiment full = load_experiment(dir + "reproduction/normformer.json", scale);
            QCOMPARE(early.runs.size(), size_t(6));   // Post-LN, Pre-LN, NormFormer × 2 seeds
            for (const auto& e : early.runs) {
                const ExperimentRun* match = nullptr;
                for (const auto& f : full.runs) match = f.name == e.name ? &f : match;
                QVERIFY2(match, (e.name + " is not a run of normformer.json").c_str());
                json a = to_json(e.config), b = to_json(match->config);
                QVERIFY2(a["model"] == b["model"], (scale + " " + e.name).c_str());
                QVERIFY2(a["optim"] == b["optim"], (scale + " " + e.name).c_str());
                QVERIFY2(a["data"] == b["data"], (scale + " " + e.name).c_str());
                QCOMPARE(e.config.scheme, match->config.scheme);
                QCOMPARE(e.config.train.seed, match->config.train.seed);
                QVERIFY(e.config.train.steps >= 101 && e.config.train.steps <= match->config.train.steps);
                if (scale.empty()) {   // the very runs: same configuration but for the run's name
                    a.erase("name"), b.erase("name");
                    QVERIFY2(a == b, e.name.c_str());
                }
                for (int64_t s = 0; s < e.config.train.steps; ++s)
                    QCOMPARE(learning_rate(e.config.optim, e.config.train.steps, s),
                             learning_rate(match->config.optim, match->config.train.steps, s));
            }
        }
    }

    // FLOPs per token (nanoGPT's estimate_mfu, PaLM Appendix B) and device peaks from the data sheets.
    void flopsAndPeaks() {
        ModelConfig m;   // d 128 × 4 layers, d_ff 512, context 128, GELU
        const double d = 128, f = 512, L = 4, T = 128, V = 256;
        QCOMPARE(training_flops_per_token(m), 6 * (L * (4 * d * d + 2 * d * f) + V * d) + 12 * L * T * d);
        m.activation = Activation::SwiGLU;   // gate and value: fc1 is 2f × d
        QCOMPARE(training_flops_per_token(m), 6 * (L * (4 * d * d + 3 * d * f) + V * d) + 12 * L * T * d);
        QCOMPARE(device_peak_flops("NVIDIA H100 80GB HBM3", "bf16"), 989.4e12);
        QCOMPARE(device_peak_flops("NVIDIA H100 PCIe", "bf16"), 756e12);
        QCOMPARE(device_peak_flops("NVIDIA H200", "fp32"), 66.9e12);
        QCOMPARE(device_peak_flops("NVIDIA A100-SXM4-80GB", "tf32"), 156e12);
        QCOMPARE(device_peak_flops("Tesla T4", "fp32"), 0.0);        // not in the table: no MFU rather than a wrong one
        QCOMPARE(mfu(1e9, 1e5, 1e15), 0.1);
        QCOMPARE(mfu(1e9, 1e5, 0), 0.0);
    }
};

QTEST_GUILESS_MAIN(TestConfig)
#include "test_config.moc"
