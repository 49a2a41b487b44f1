// `normlab-cli remote follow`'s progress line: a followed run's step, losses, speed, MFU and
// time left, read from what the mirror wrote into the local store — fresh after every sync,
// and read again from the start when a resume there rewrites the run's rows.
#include "app/cli/follow_progress.h"
#include "core/remote/mirror.h"
#include "core/store/store.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace normlab;
using nlohmann::json;

class TestFollowProgress : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void theLineIsTheMirroredRows() {
        Store local(dir_.filePath("mirror.sqlite").toStdString());
        Mirror m(local, "gpu1", "normlab-cli");
        m.hello(json{{"t", "hello"}, {"protocol", kStreamProtocol}, {"store", "/srv/runs.sqlite"}, {"host", "gpu1"}}.dump());
        auto run = [&](int64_t steps_done) {
            m.apply(json{{"t", "run"},
                         {"id", 7},
                         {"row",
                          {{"name", "Pre-LN"},
                           {"scheme", "pre_ln"},
                           {"status", "running"},
                           {"steps_done", steps_done},
                           {"config", {{"train", {{"steps", 1000}}}}},
                           {"info", {{"tokens_per_step", 512}, {"flops_per_token", 1e6}, {"peak_flops", 1e12}}}}}}
                        .dump());
        };
        auto point = [&](const char* name, int64_t step, double v) {
            m.apply(json{{"t", "points"}, {"run", 7}, {"name", name}, {"layer", -1}, {"p", {{step, v}}}}.dump());
        };
        // A step's loss, tokens so far and wall time, then the sync that applies them.
        auto step_rows = [&](int64_t step, double loss, double tokens, double wall) {
            point("train/loss", step, loss);
            point("train/tokens", step, tokens);
            point("train/wall_s", step, wall);
            return m.apply(R"({"t":"sync"})") == Mirror::Got::Synced;
        };
        run(250);
        QVERIFY(step_rows(249, 2.5, 128000, 10));
        QCOMPARE(m.statuses().at("run 7"), std::string("running"));
        const int64_t id = m.local_ids().at("run 7");
        QCOMPARE(local.run(id)->name, std::string("Pre-LN"));

        QCOMPARE(remote_ref(*local.run(id)).dest, std::string("gpu1"));
        QCOMPARE(remote_ref(*local.run(id)).run, int64_t{7});
        RunInfo odd = *local.run(id);   // edited by hand: read as nothing, never thrown (the run table asks every run)
        odd.info["remote"] = {{"dest", 3}, {"run", "7"}, {"store", nullptr}};
        QCOMPARE(remote_ref(odd).dest, std::string());
        QCOMPARE(remote_ref(odd).run, int64_t{0});

        cli::FollowProgress fp(local, "gpu1");
        cli::MirroredProgress p = fp.progress(id);
        QCOMPARE(p.step, int64_t{250});
        QCOMPARE(p.total, int64_t{1000});
        QCOMPARE(p.loss, 2.5);
        QVERIFY(std::isnan(p.val_loss));   // no evaluation yet
        QCOMPARE(p.tokens_per_s, 12800.0);   // the run's average: tokens over its wall time
        QCOMPARE(p.eta_s, 750 * 512 / 12800.0);
        QCOMPARE(fp.line("run 7", p), std::string("gpu1 run 7: step 250/1000 loss 2.5000 val - 12800 tok/s MFU 1.3% ETA 0:30"));

        // The next sync's rows, the validation's first among them.
        run(500);
        point("val/loss", 500, 2.25);
        QVERIFY(step_rows(499, 2.0, 256000, 16));
        p = fp.progress(id);
        QCOMPARE(fp.line("run 7", p), std::string("gpu1 run 7: step 500/1000 loss 2.0000 val 2.2500 16000 tok/s MFU 1.6% ETA 0:16"));

        // Rows ahead of the run's row (its steps_done is written once a second or so): the rows say the step.
        QVERIFY(step_rows(549, 1.875, 281600, 17.6));
        p = fp.progress(id);
        QCOMPARE(fp.line("run 7", p), std::string("gpu1 run 7: step 550/1000 loss 1.8750 val 2.2500 16000 tok/s MFU 1.6% ETA 0:14"));

        // Resumed there from its checkpoint at step 300: its rows from there on are dropped and come again.
        m.apply(R"({"t":"reset","run":7})");
        run(320);
        QVERIFY(step_rows(319, 2.375, 163840, 8.192));
        p = fp.progress(id);
        QCOMPARE(p.step, int64_t{320});
        QCOMPARE(fp.line("run 7", p), std::string("gpu1 run 7: step 320/1000 loss 2.3750 val - 20000 tok/s MFU 2.0% ETA 0:17"));

        // The same as `remote follow --json` writes it: the run's id and name here, NaN as null.
        const json e = json::parse(fp.event("run 7", id, p).dump(-1, ' ', false, json::error_handler_t::replace));
        QCOMPARE(e.at("event"), json("progress"));
        QCOMPARE(e.at("dest"), json("gpu1"));
        QCOMPARE(e.at("local_id"), json(id));
        QCOMPARE(e.at("name"), json("Pre-LN"));
        QCOMPARE(e.at("step"), json(320));
        QCOMPARE(e.at("total"), json(1000));
        QCOMPARE(e.at("loss"), json(2.375));
        QVERIFY(e.at("val_loss").is_null());
        QCOMPARE(e.at("tokens_per_s"), json(20000.0));
        QCOMPARE(e.at("mfu"), json(0.02));

        // A CPU run (no peak known) says no MFU; a run with no rows yet, no speed and no time left.
        QCOMPARE(fp.line("run 8", cli::MirroredProgress{3, 10, std::nan(""), std::nan(""), 0, 0, 0}),
                 std::string("gpu1 run 8: step 3/10 loss - val -"));
        // What the server names reaches the terminal escaped, as a stored name does.
        QCOMPARE(fp.line("run\x1b[2J", cli::MirroredProgress{3, 10, std::nan(""), std::nan(""), 0, 0, 0}),
                 std::string("gpu1 run\\x1B[2J: step 3/10 loss - val -"));
    }

    // remote fetch's line: how much of how much, the rate once it means something, and the time left.
    void aFetchSaysHowFarItIs() {
        QCOMPARE(cli::FetchProgress::line(812'300'000, 1'523'900'000, 16.9),
                 std::string("812.3 MB of 1.52 GB (53%), 48.1 MB/s, ETA 0:15"));
        QCOMPARE(cli::FetchProgress::line(65'536, 1'523'900'000, 0.1), std::string("66 kB of 1.52 GB (0%)"));
        QCOMPARE(cli::FetchProgress::line(5'000'000, -1, 2), std::string("5.0 MB, 2.5 MB/s"));   // its size not known
    }
};

QTEST_MAIN(TestFollowProgress)
#include "test_follow_progress.moc"
