// Data sources: Markov entropy rate against an empirical estimate,
// determinism, splits, corpus parsing and the errors for missing data.
#include "core/data/data.h"
#include "core/errors.h"

#include <QtTest/QtTest>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>

using namespace normlab;

class TestData : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void markovEntropyRateMatchesTheSequence() {
        MarkovConfig m;
        m.order = 2;
        m.alphabet = 8;
        m.concentration = 0.5;
        m.length = 2000000;
        const MarkovChain chain = make_markov_chain(m);
        double sum = 0;
        for (double p : chain.stationary) sum += p;
        QVERIFY(std::abs(sum - 1.0) < 1e-9);
        QVERIFY(chain.entropy_rate > 0 && chain.entropy_rate < std::log(8.0));
        // Empirical conditional entropy H(X_t | X_{t-2}, X_{t-1}) of a long sample.
        const auto seq = sample_markov(chain, m.length, m.seed);
        std::map<int, std::map<int, double>> counts;
        for (size_t i = 2; i < seq.size(); ++i) counts[(seq[i - 2] - 97) * 8 + (seq[i - 1] - 97)][seq[i] - 97] += 1;
        double h = 0, n = static_cast<double>(seq.size() - 2);
        for (auto& [s, row] : counts) {
            double tot = 0;
            for (auto& [a, c] : row) tot += c;
            for (auto& [a, c] : row) h -= c / n * std::log(c / tot);
        }
        QVERIFY2(std::abs(h - chain.entropy_rate) < 0.01,
                 qPrintable(QString("empirical %1 vs exact %2").arg(h).arg(chain.entropy_rate)));
    }

    void markovIsDeterministic() {
        DataConfig d;
        d.source = DataSource::Markov;
        d.markov.length = 10000;
        const Dataset a = load_dataset(d, 32), b = load_dataset(d, 32);
        QVERIFY(a.bytes == b.bytes);
        QVERIFY(a.entropy_rate.has_value());
        QCOMPARE(*a.entropy_rate, *b.entropy_rate);
        QCOMPARE(a.train_end, size_t(9000));
        d.markov.seed = 99;
        QVERIFY(load_dataset(d, 32).bytes != a.bytes);
    }

    // Byte frequencies only: train "aaab" (a 3, b 1), validation "ab": add-one smoothed over 256 bytes,
    // p(a) = 4/260, p(b) = 2/260; the loss is the mean of -ln p over the validation bytes.
    void unigramLossIsTheValidationCrossEntropyOfByteFrequencies() {
        Dataset d;
        d.bytes = {'a', 'a', 'a', 'b', 'a', 'b'};
        d.train_end = 4;
        const double want = -(std::log(4.0 / 260) + std::log(2.0 / 260)) / 2;
        QVERIFY(std::abs(unigram_loss(d) - want) < 1e-12);
        // a Markov chain's unigram loss is above its entropy rate, by what its context predicts
        DataConfig m;
        m.source = DataSource::Markov;
        m.markov.length = 100000;
        const Dataset md = load_dataset(m, 32);
        QVERIFY2(unigram_loss(md) > *md.entropy_rate + 0.05 && unigram_loss(md) < std::log(double(m.markov.alphabet)) + 0.01,
                 qPrintable(QString("unigram %1, entropy rate %2").arg(unigram_loss(md)).arg(*md.entropy_rate)));
    }

    void batchesAreDeterministicAndInRange() {
        std::vector<int64_t> a, b, c;
        batch_offsets(1, 5, 16, 32, 100, 1000, a);
        batch_offsets(1, 5, 16, 32, 100, 1000, b);
        batch_offsets(1, 6, 16, 32, 100, 1000, c);
        QVERIFY(a == b);
        QVERIFY(a != c);
        for (int step = 0; step < 200; ++step) {
            batch_offsets(3, step, 8, 32, 100, 1000, a);
            for (auto o : a) QVERIFY(o >= 100 && o + 33 <= 1000);
        }
    }

    void corpusParsesFortuneFiles() {
        QVERIFY(dir_.isValid());
        {
            std::ofstream f(dir_.filePath("jokes").toStdString());
            for (int i = 0; i < 200; ++i) f << "Fortune number " << i << " is here.\n%\n";
            std::ofstream dat(dir_.filePath("jokes.dat").toStdString());
            dat << "binary index";
        }
        DataConfig d;
        d.path = dir_.path().toStdString();
        const Dataset ds = load_dataset(d, 16);
        const std::string text(ds.bytes.begin(), ds.bytes.end());
        QVERIFY(text.find("Fortune number 7 is here.\n") != std::string::npos);
        QVERIFY(text.find("%") == std::string::npos);          // separators removed
        QVERIFY(text.find("binary index") == std::string::npos);  // .dat index files skipped
    }

    void defaultCorpusIsInstalled() {
        // scripts/setup.sh installs Debian's fortunes; the default must load.
        const Dataset ds = load_dataset(DataConfig{}, 128);
        QVERIFY2(ds.bytes.size() > 1000000, ds.description.c_str());
    }

    void missingDataGivesAClearError() {
        DataConfig d;
        d.path = "/nonexistent/corpus";
        try {
            load_dataset(d, 16);
            QFAIL("no error");
        } catch (const DataError& e) {
            QVERIFY(std::string(e.what()).find("scripts/setup.sh") != std::string::npos);
        }
        d.source = DataSource::File;
        d.path = dir_.filePath("tiny.txt").toStdString();
        { std::ofstream(d.path) << "too short"; }
        try {
            load_dataset(d, 16);
            QFAIL("no error");
        } catch (const DataError& e) {
            QVERIFY2(std::string(e.what()).find("too short for context 16") != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestData)
#include "test_data.moc"
