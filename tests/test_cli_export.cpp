// normlab-cli export written a series at a time: the same bytes as a whole
// document dumped at once (JSON) and every point (CSV), while a stop —
// SIGTERM on an export blocked on a full pipe, a hang-up — ends it with exit
// 130 and leaves nothing at --out.
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <csignal>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using cli_harness::cli;
using cli_harness::Result;
using nlohmann::json;

class TestCliExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;
    int64_t points_ = 0;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = dir_.filePath("export.sqlite");
        normlab::Store s(store_.toStdString());
        // a run of per-layer series (a NaN among them), a loss, and gains' distributions
        const int64_t id = s.create_run("big \"quoted\", run", "pre_ln", json{{"scheme", "pre_ln"}}, 1);
        s.mark_running(id, "cpu", json::object());
        {
            normlab::RunWriter w(s, id, 1e9);
            for (int step = 0; step < 4000; ++step) {
                w.scalar("train/loss", step, 5.0 / (1 + step));
                ++points_;
                if (step % 2 == 0)
                    for (const char* name : {"grad_l1/fc1", "grad_l1/fc2", "hidden/norm"})
                        for (int l = 0; l < 24; ++l) {
                            w.layer(name, l, step, step == 100 && l == 3 ? std::nan("") : 1e-3 * (l + 1) / (step + 1));
                            ++points_;
                        }
            }
        }
        s.finish_run(id, normlab::RunStatus::Finished, 4000, "", std::nan(""));
        // a second, small run: the one whose JSON is checked against a whole-document dump with distributions
        const int64_t small = s.create_run("small", "normformer", json{{"scheme", "normformer"}}, 2);
        s.mark_running(small, "cpu", json::object());
        {
            normlab::RunWriter w(s, small, 1e9);
            for (int step = 0; step < 30; ++step) w.scalar("train/loss", step, 4.0 - 0.01 * step);
            w.scalar("val/loss", 29, 3.5);
            normlab::Distribution d;
            d.name = "gain/ffn_norm";
            d.layer = 1;
            d.step = 20;
            d.count = 4;
            d.min = 0.9, d.q1 = 0.95, d.median = 1.0, d.q3 = 1.05, d.max = 1.1, d.mean = 1.0, d.std = 0.07;
            d.hist_lo = 0.9, d.hist_hi = 1.1;
            d.hist = {1, 0, 2, 1};
            w.distribution(d);
        }
        s.finish_run(small, normlab::RunStatus::Finished, 30, "", 3.5);
    }

    // The JSON written in parts is what dumping the whole document at once writes, byte for byte.
    void jsonIsTheWholeDocumentsDump() {
        for (const char* run : {"1", "2"}) {
            const QString out = dir_.filePath(QString("run%1.json").arg(run));
            const Result r = cli({"export", run, "--json", "--out", out, "--store", store_});
            QVERIFY2(r.code == 0, qPrintable(r.err));
            QFile f(out);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const std::string text = f.readAll().toStdString();
            const json j = json::parse(text);
            QCOMPARE(QString::fromStdString(j.dump(1) + "\n"), QString::fromStdString(text));
            if (std::string(run) == "1") {
                QCOMPARE(j["run"]["name"].get<std::string>(), std::string("big \"quoted\", run"));
                QVERIFY(j["run"]["final_loss"].is_null());
                QCOMPARE(j["series"].size(), size_t(1 + 3 * 24));
                QVERIFY(j["distributions"].empty());
                int64_t n = 0;
                bool nan_is_null = false;
                for (auto& s : j["series"]) {
                    n += static_cast<int64_t>(s["points"].size());
                    for (auto& p : s["points"]) nan_is_null = nan_is_null || p[1].is_null();
                }
                QCOMPARE(n, points_);
                QVERIFY(nan_is_null);
                QVERIFY2(r.err.contains(QString("run 1, %1 points").arg(points_)), qPrintable(r.err));
            } else {
                QCOMPARE(j["distributions"].size(), size_t(1));
                QCOMPARE(j["distributions"][0]["hist"], json({1, 0, 2, 1}));
            }
        }
    }

    void csvHasEveryPoint() {
        const Result r = cli({"export", "1", "--csv", "--store", store_});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), points_ + 1);
        QCOMPARE(lines.front(), QString("run_id,run_name,series,layer,step,value"));
        QVERIFY(lines.contains("1,\"big \"\"quoted\"\", run\",grad_l1/fc1,3,100,nan"));
        QVERIFY(lines.contains("1,\"big \"\"quoted\"\", run\",train/loss,-1,1,2.5"));
    }

    // An export blocked on a full pipe (nobody reads it) and sent SIGTERM, or SIGHUP, stops: exit 130, said so.
    void aStopEndsItAndLeavesNothing() {
        for (int sig : {SIGTERM, SIGHUP}) {
            QProcess p;
            p.start(QStringLiteral(NORMLAB_CLI), {"export", "1", "--csv", "--store", store_});
            QVERIFY(p.waitForStarted());
            QThread::msleep(1500);   // no events processed: the pipe fills (64 KiB) and the export blocks on it
            QCOMPARE(p.state(), QProcess::Running);
            ::kill(static_cast<pid_t>(p.processId()), sig);
            QVERIFY(p.waitForFinished(10000));
            QCOMPARE(p.exitStatus(), QProcess::NormalExit);
            QCOMPARE(p.exitCode(), 130);
            QVERIFY(p.readAllStandardError().contains("export stopped"));
        }
        // with --out, stopped mid-write: nothing at FILE, its FILE.tmp removed. FILE.tmp is made a FIFO here, read a
        // little and then not at all, so that the export blocks in the middle of writing it
        const QString out = dir_.filePath("stopped.csv");
        QVERIFY(::mkfifo(QFile::encodeName(out + ".tmp").constData(), 0644) == 0);
        QProcess p;
        p.start(QStringLiteral(NORMLAB_CLI), {"export", "1", "--csv", "--out", out, "--store", store_});
        QVERIFY(p.waitForStarted());
        const int fd = ::open(QFile::encodeName(out + ".tmp").constData(), O_RDONLY);   // until the export opens it
        QVERIFY(fd >= 0);
        char buf[4096];
        QVERIFY(::read(fd, buf, sizeof buf) > 0);   // the header and the first rows: it is writing
        QThread::msleep(500);                       // the pipe fills, the export blocks
        QCOMPARE(p.state(), QProcess::Running);
        ::kill(static_cast<pid_t>(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(10000));
        ::close(fd);
        QCOMPARE(p.exitCode(), 130);
        QVERIFY2(p.readAllStandardError().contains("export stopped; nothing was written to " + out.toUtf8()), "message");
        QVERIFY(!QFile::exists(out));
        QVERIFY(!QFileInfo::exists(out + ".tmp"));
        // refused before anything is written: a folder that is not there, the store itself
        Result r = cli({"export", "1", "--csv", "--out", dir_.filePath("no/such/folder/x.csv"), "--store", store_});
        QVERIFY2(r.code == 2, qPrintable(r.err));
        r = cli({"export", "1", "--csv", "--out", store_, "--store", store_});
        QVERIFY2(r.code == 2 && !QFile::exists(store_ + ".tmp"), qPrintable(r.err));
    }
};

QTEST_MAIN(TestCliExport)
#include "test_cli_export.moc"
