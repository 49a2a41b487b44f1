// Text written by a stored run's weights (core/train/sample.h, normlab-cli sample): the draw
// follows the temperature and top-k exactly; the same seed writes the same text; the first
// greedy byte is the model's own argmax; only the last model.context bytes are read; a model
// trained on an 8-symbol source writes those symbols; weights that are not here, or diverged,
// are refused with what to do; the keys and values kept between bytes change no logit.
#include "core/data/data.h"
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/io.h"
#include "core/train/sample.h"
#include "core/train/trainer.h"
#include "tests/cli_harness.h"
#include "tests/test_util.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

using namespace normlab;

class TestSample : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<Store> store_;
    std::map<Scheme, RunInfo> runs_;   // trained on the 8-symbol Markov source

    // A run's weights as they are, and its model built from them.
    GPT model_of(const RunInfo& r) { return load_run_model(run_config_from_json(r.config), r.checkpoint); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = std::make_unique<Store>(dir_.filePath("sample.sqlite").toStdString());
        for (Scheme s : {Scheme::PostLN, Scheme::PreLN, Scheme::NGPT, Scheme::BranchNorm}) {
            RunConfig c = test::tiny(s, 150);
            const int64_t id = queue_run(*store_, c);
            QCOMPARE(train_run(*store_, id).status, RunStatus::Finished);
            runs_[s] = *store_->run(id);
            QVERIFY(!runs_[s].checkpoint.empty());
        }
    }

    // The draw: the likeliest byte at temperature 0 and with top-k 1; else the softmax of
    // logits / temperature split [0, 1) in byte order, bytes outside the top k left out.
    void theDrawFollowsTemperatureAndTopK() {
        std::vector<double> l(256, -1e9);
        l[10] = 0;
        l[20] = std::log(3.0);   // p(20) = 3/4 at temperature 1
        l[30] = -1;
        QCOMPARE(draw_byte(l, 0, 0, 0.99), 20);
        QCOMPARE(draw_byte(l, 1.0, 1, 0.01), 20);
        const double p10 = 1 / (1 + 3 + std::exp(-1.0));
        QCOMPARE(draw_byte(l, 1.0, 0, p10 * 0.999), 10);
        QCOMPARE(draw_byte(l, 1.0, 0, p10 * 1.001), 20);
        QCOMPARE(draw_byte(l, 1.0, 0, 0.999), 30);
        QCOMPARE(draw_byte(l, 1.0, 2, 0.999), 20);   // byte 30 is not among the top 2
        // at temperature 2 the weights are 1, √3, e^-½: byte 10 takes more of [0, 1)
        const double q10 = 1 / (1 + std::sqrt(3.0) + std::exp(-0.5));
        QCOMPARE(draw_byte(l, 2.0, 0, q10 * 0.999), 10);
        QCOMPARE(draw_byte(l, 2.0, 0, q10 * 1.001), 20);
        // ties at temperature 0: the lowest byte
        std::vector<double> flat(256, 0.0);
        QCOMPARE(draw_byte(flat, 0, 0, 0.5), 0);
        QCOMPARE(draw_byte(flat, 1.0, 0, 0.5), 128);
        std::vector<double> bad(l);
        bad[7] = std::nan("");
        QVERIFY_THROWS_EXCEPTION(RunError, draw_byte(bad, 1.0, 0, 0.5));
    }

    // The seed's uniform numbers: in [0, 1), each seed its own stream, evenly spread.
    void theSeedsNumbersAreUniform() {
        double sum = 0;
        int below_tenth = 0;
        for (uint64_t i = 0; i < 20000; ++i) {
            const double u = sample_uniform(7, i);
            QVERIFY(u >= 0 && u < 1);
            sum += u;
            below_tenth += u < 0.1;
        }
        QVERIFY2(std::abs(sum / 20000 - 0.5) < 0.01, qPrintable(QString::number(sum / 20000)));
        QVERIFY(std::abs(below_tenth - 2000) < 200);
        QCOMPARE(sample_uniform(7, 3), sample_uniform(7, 3));
        QVERIFY(sample_uniform(7, 3) != sample_uniform(8, 3));
        QVERIFY(sample_uniform(7, 3) != sample_uniform(7, 4));
    }

    // Every scheme: the first greedy byte is the argmax of the model's logits after the prompt;
    // the same seed writes the same text, another seed another; its 8 likeliest bytes are the
    // source's 8 symbols (the model learnt them), which an untrained model's are not.
    void aTrainedModelWritesItsSource() {
        std::set<int> alphabet;
        for (int a = 0; a < 8; ++a) alphabet.insert(markov_symbol_byte(a));
        for (auto& [scheme, run] : runs_) {
            const QString name = QString::fromStdString(scheme_name(scheme));
            TextSampler sampler(run);
            QCOMPARE(sampler.step(), int64_t{150});
            QCOMPARE(sampler.checkpoint(), run.checkpoint);
            SampleOptions o;
            o.prompt = "abcab";
            o.temperature = 0;
            o.bytes = 1;
            const std::string greedy = sampler.write(o);
            GPT m = model_of(run);
            m->set_branch_alpha(branchnorm_alpha(run_config_from_json(run.config).model.branchnorm, 150));
            torch::NoGradGuard ng;
            auto idx = torch::tensor(std::vector<int64_t>{'a', 'b', 'c', 'a', 'b'}).reshape({1, 5});
            QCOMPARE(static_cast<int>(static_cast<unsigned char>(greedy[0])), m->forward(idx)[0][4].argmax().item<int>());

            o.temperature = 0.8;
            o.top_k = 8;   // the model's 8 likeliest bytes: the source's, where it learnt them
            o.bytes = 200;
            o.seed = 5;
            const std::string a = sampler.write(o), b = sampler.write(o);
            QCOMPARE(a, b);
            QCOMPARE(a.size(), size_t(200));
            o.seed = 6;
            QVERIFY2(sampler.write(o) != a, qPrintable(name));
            int outside = 0;
            for (unsigned char c : a) outside += !alphabet.count(c);
            QVERIFY2(outside <= 2, qPrintable(QString("%1: %2 of 200 bytes outside the source's symbols: %3")
                                                  .arg(name).arg(outside).arg(QString::fromLatin1(a.data(), 200))));
        }
        RunConfig untrained = test::tiny(Scheme::PreLN, 1);
        GPT m(untrained.model);
        m->reset_parameters(1);
        const std::string file = dir_.filePath("untrained.pt").toStdString();
        save_checkpoint(file, m, nullptr, 0, untrained);
        SampleOptions o;
        o.top_k = 8;
        o.bytes = 200;
        int outside = 0;
        for (unsigned char c : TextSampler(runs_.at(Scheme::PreLN), file).write(o)) outside += !alphabet.count(c);
        QVERIFY2(outside > 150, qPrintable(QString::number(outside)));
    }

    // Only the last model.context (16) bytes are read: a prompt longer than that writes what
    // its tail writes; a byte handler returning false stops the text there.
    void onlyTheContextIsRead() {
        TextSampler sampler(runs_.at(Scheme::PostLN));
        QCOMPARE(sampler.context(), int64_t{16});
        SampleOptions o;
        o.bytes = 40;
        o.prompt = std::string(50, 'z') + "abcabcdabcdeabcd";
        const std::string long_prompt = sampler.write(o);
        o.prompt = o.prompt.substr(o.prompt.size() - 16);
        QCOMPARE(sampler.write(o), long_prompt);
        int told = 0;
        const std::string stopped = sampler.write(o, [&told](uint8_t) { return ++told < 7; });
        QCOMPARE(told, 7);
        QCOMPARE(stopped, long_prompt.substr(0, 7));
    }

    // The keys and values kept between forward passes (gpt.h's KVCache) give the logits the
    // whole window gives, for every scheme and every kind of positions, a batch of two, read
    // 5 bytes, then 1 at a time; the cache ends at model.context; the model reads without it after.
    void theCacheGivesTheWindowsLogits() {
        torch::NoGradGuard ng;
        for (Scheme s : {Scheme::PostLN, Scheme::PreLN, Scheme::NormFormer, Scheme::DeepNorm, Scheme::BranchNorm, Scheme::NGPT})
            for (Positions p : {Positions::Learned, Positions::Sinusoidal, Positions::RoPE, Positions::None}) {
                RunConfig c = test::tiny(s);
                c.model.positions = p;
                GPT m(c.model);
                m->reset_parameters(7);
                {   // positions and gains away from their init, so that a wrong offset or a skipped one shows
                    torch::manual_seed(3);
                    for (auto& t : m->parameters()) t.add_(torch::randn_like(t) * 0.05);
                }
                if (s == Scheme::BranchNorm) m->set_branch_alpha(0.4);
                m->eval();
                const auto idx = torch::randint(256, {2, 16}, torch::kInt64);
                const auto whole = m->forward(idx);                   // (2, 16, 256)
                KVCache kv;
                std::vector<torch::Tensor> parts{m->forward(idx.narrow(1, 0, 5), nullptr, &kv)};
                for (int64_t t = 5; t < 16; ++t) parts.push_back(m->forward(idx.narrow(1, t, 1), nullptr, &kv));
                const auto cached = torch::cat(parts, 1);
                const QString what = QString("%1, positions %2").arg(QString::fromStdString(scheme_name(s))).arg(int(p));
                const double diff = (cached - whole).abs().max().item<double>(), size = whole.abs().max().item<double>();
                QVERIFY2(diff <= 1e-5 * size, qPrintable(what + QString(": %1 of %2").arg(diff).arg(size)));
                QCOMPARE(kv.length, int64_t{16});
                QVERIFY(test::error_of<c10::Error>([&] { m->forward(idx.narrow(1, 0, 1), nullptr, &kv); }).find("exceeds model.context") !=
                        std::string::npos);
                QVERIFY(torch::equal(m->forward(idx), whole));        // no attention still points at the cache
                for (size_t i = 0; i < m->blocks->size(); ++i) QVERIFY(!m->blocks[i]->as<Block>()->attn->kv);
            }
    }

    // The sampler with and without its cache writes the same text, across the point where the
    // text fills the window (16 bytes) and slides.
    void theCacheWritesTheSameText() {
        for (auto& [scheme, run] : runs_) {
            TextSampler sampler(run);
            SampleOptions o;
            o.prompt = "abcab";
            o.bytes = 40;
            o.seed = 11;
            const std::string cached = sampler.write(o);
            o.kv_cache = false;
            QVERIFY2(sampler.write(o) == cached, qPrintable(QString::fromStdString(scheme_name(scheme))));
            o.slide = Slide::Half;   // and past the window, keeping its last half
            const std::string whole_half = sampler.write(o);
            o.kv_cache = true;
            QVERIFY2(sampler.write(o) == whole_half, qPrintable(QString::fromStdString(scheme_name(scheme))));
        }
    }

    // Past the window (16 bytes), Slide::Window reads the last 16 bytes for every byte;
    // Slide::Half reads a prompt longer than the window whole first, then, each time the
    // window would hold 17, only its last 8 and goes on from there. Untrained weights (their
    // logits depend on every byte and position read, unlike the Markov source's), greedy
    // bytes: each one the model's argmax (to rounding) over exactly those bytes, read whole
    // without a cache.
    void pastTheWindowEachSlideReadsItsBytes() {
        for (Scheme scheme : {Scheme::PreLN, Scheme::NGPT}) {
            const RunConfig c = test::tiny(scheme, 1);
            GPT m(c.model);
            m->reset_parameters(3);
            m->eval();
            const std::string file = dir_.filePath(QString("untrained-%1.pt").arg(int(scheme))).toStdString();
            save_checkpoint(file, m, nullptr, 0, c);
            RunInfo run;
            run.id = 99;
            run.name = "untrained";
            run.config = to_json(c);
            run.checkpoint = file;
            TextSampler sampler(run);
            QCOMPARE(sampler.context(), int64_t{16});
            torch::NoGradGuard ng;
            for (const std::string& prompt : {std::string("abcab"), std::string(20, 'a') + "bcdabc"})
                for (Slide slide : {Slide::Window, Slide::Half}) {
                    SampleOptions o;
                    o.prompt = prompt;
                    o.temperature = 0;
                    o.bytes = 45;
                    o.slide = slide;
                    const std::string text = sampler.write(o);
                    const QString what = QString("%1, %2-byte prompt, slide %3")
                                             .arg(QString::fromStdString(scheme_name(scheme)))
                                             .arg(prompt.size())
                                             .arg(slide == Slide::Window ? "window" : "half");
                    QCOMPARE(text.size(), size_t(45));
                    std::vector<int64_t> tokens(prompt.begin(), prompt.end());
                    int64_t start = std::max<int64_t>(0, static_cast<int64_t>(tokens.size()) - 16);
                    int moves = 0;
                    for (size_t i = 0; i < text.size(); ++i) {
                        const auto have = static_cast<int64_t>(tokens.size());
                        if (have - start > 16) {
                            start = slide == Slide::Window ? have - 16 : have - 8;
                            ++moves;
                        }
                        auto idx = torch::tensor(std::vector<int64_t>(tokens.begin() + start, tokens.end())).reshape({1, -1});
                        const auto logits = m->forward(idx)[0][have - start - 1];
                        const int b = static_cast<unsigned char>(text[i]);
                        const double gap = (logits.max() - logits[b]).item<double>();
                        QVERIFY2(gap <= 1e-4, qPrintable(what + QString(": byte %1 (%2) is %3 below the likeliest of bytes %4…%5")
                                                                  .arg(i).arg(b).arg(gap).arg(start).arg(have)));
                        tokens.push_back(b);
                    }
                    QVERIFY2(moves >= (slide == Slide::Window ? 30 : 4), qPrintable(what + QString(": %1 moves").arg(moves)));
                }
        }
        QCOMPARE(parse_slide("half"), std::optional<Slide>(Slide::Half));
        QCOMPARE(parse_slide("window"), std::optional<Slide>(Slide::Window));
        QVERIFY(!parse_slide("Half").has_value());
    }

    // Options out of range are refused by name; weights that are not here say how to get them;
    // weights that diverged say so.
    void badInputSaysWhatToDo() {
        SampleOptions o;
        o.bytes = 0;
        QVERIFY(test::config_error([&] { check_sample_options(o); }).find("--bytes") == 0);
        o = SampleOptions();
        o.temperature = -0.1;
        QVERIFY(test::config_error([&] { check_sample_options(o); }).find("--temperature") == 0);
        o = SampleOptions();
        o.top_k = 257;
        QVERIFY(test::config_error([&] { check_sample_options(o); }).find("--top-k") == 0);

        RunInfo r = runs_.at(Scheme::PreLN);
        r.checkpoint.clear();
        QVERIFY(test::config_error([&] { TextSampler s(r); }).find("no checkpoint yet") != std::string::npos);
        r.info["remote"] = {{"dest", "gpu-box"}, {"run", 12}};
        const std::string remote = test::config_error([&] { TextSampler s(r); });
        QVERIFY2(remote.find("normlab-cli remote fetch gpu-box 12 --checkpoint --out FILE.pt") != std::string::npos, remote.c_str());
        QVERIFY(test::config_error([&] { TextSampler s(r, "/nonexistent/x.pt"); }).find("/nonexistent/x.pt is not a file here") !=
                std::string::npos);

        RunConfig c = run_config_from_json(r.config);
        GPT m = model_of(runs_.at(Scheme::PreLN));
        {
            torch::NoGradGuard ng;
            m->tok_emb->weight.fill_(std::nan(""));
        }
        const std::string nan_file = dir_.filePath("nan.pt").toStdString();
        save_checkpoint(nan_file, m, nullptr, 99, c);
        TextSampler diverged(runs_.at(Scheme::PreLN), nan_file);
        QVERIFY(test::error_of<RunError>([&] { diverged.write(SampleOptions()); }).find("diverged") != std::string::npos);
    }

    // normlab-cli sample: the header, the prompt and the text; several runs from one prompt;
    // control bytes escaped; a run whose weights are missing refused before any text.
    void theCommandPrintsTheText() {
        const QString store = QString::fromStdString(store_->path());
        cli_harness::Result r = cli_harness::cli({"sample", "1", "2", "--prompt", "ab\x01", "--bytes", "30", "--seed", "3", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList parts = r.out.split("\n\n");
        QCOMPARE(parts.size(), 2);
        QVERIFY2(parts[0].startsWith("run 1 · post_ln · post_ln · step 150 · temperature 0.8 · seed 3\nab\\x01"), qPrintable(r.out));
        QVERIFY2(parts[1].startsWith("run 2 · pre_ln · pre_ln · step 150"), qPrintable(r.out));
        SampleOptions o;
        o.prompt = "ab\x01";
        o.bytes = 30;
        o.seed = 3;
        const std::string text = TextSampler(runs_.at(Scheme::PostLN)).write(o);
        auto shown = [](const std::string& bytes) {   // as the command prints them: outside printable ASCII as \xNN
            QString s;
            for (unsigned char c : bytes)
                s += (c >= 0x20 && c < 0x7f) || c == '\n' || c == '\t' ? QString(QChar(c)) : QString("\\x%1").arg(c, 2, 16, QChar('0'));
            return s;
        };
        QVERIFY2(parts[0].endsWith(shown(text)), qPrintable(r.out));

        // --slide half: said in the header, the text Slide::Half writes
        r = cli_harness::cli({"sample", "1", "--prompt", "ab", "--bytes", "40", "--seed", "3", "--slide", "half", "--store", store});
        QVERIFY2(r.code == 0 && r.out.startsWith("run 1 · post_ln · post_ln · step 150 · temperature 0.8 · seed 3 · slide half\nab"),
                 qPrintable(r.out + r.err));
        o.prompt = "ab";
        o.bytes = 40;
        o.slide = Slide::Half;
        QCOMPARE(r.out, "run 1 · post_ln · post_ln · step 150 · temperature 0.8 · seed 3 · slide half\nab" +
                            shown(TextSampler(runs_.at(Scheme::PostLN)).write(o)) + "\n");
        r = cli_harness::cli({"sample", "1", "--slide", "halves", "--store", store});
        QVERIFY2(r.code == 2 && r.err.contains("--slide expects window or half, got \"halves\"") && r.out.isEmpty(), qPrintable(r.err));

        r = cli_harness::cli({"sample", "1", "--temperature", "hot", "--store", store});
        QVERIFY(r.code == 2 && r.err.contains("--temperature expects a number"));
        r = cli_harness::cli({"sample", "1", "2", "--weights", dir_.filePath("nan.pt"), "--store", store});
        QVERIFY(r.code == 2 && r.err.contains("--weights gives one run's weights"));
        QFile::remove(QString::fromStdString(runs_.at(Scheme::NGPT).checkpoint));
        r = cli_harness::cli({"sample", "1", "3", "--store", store});
        QVERIFY2(r.code == 2 && r.err.contains("is not on this machine") && r.err.contains("with --weights FILE") && r.out.isEmpty(),
                 qPrintable(r.err + r.out));
    }
};

QTEST_GUILESS_MAIN(TestSample)
#include "test_sample.moc"
