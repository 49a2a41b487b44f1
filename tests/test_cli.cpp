// normlab-cli end to end on a tiny experiment: run, list, show, export,
// export-weights, resume of an interrupted run, and the exit codes and
// messages of bad input. The help, the usage and the options a command
// refuses are test_cli_front.cpp's.
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QRegularExpression>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <fstream>
#include <map>

using cli_harness::cli;
using cli_harness::Result;
using nlohmann::json;

class TestCli : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;
    QString exp_;

    QString write(const char* name, const json& j) {
        const QString path = dir_.filePath(name);
        std::ofstream(path.toStdString()) << j.dump(2);
        return path;
    }

    // A store in the test's folder with a run of each name: 21 steps of train loss, 3 of validation.
    QString lossStore(const QString& file, std::initializer_list<const char*> names) {
        const QString path = dir_.filePath(file);
        normlab::Store s(path.toStdString());
        for (const char* name : names) {
            const int64_t id = s.create_run(name, "post_ln", nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            normlab::RunWriter w(s, id);
            for (int i = 0; i <= 20; ++i) w.scalar("train/loss", i, 5.0 - 0.1 * i);
            for (int i = 0; i <= 20; i += 10) w.scalar("val/loss", i, 5.1 - 0.1 * i);
            w.flush();
        }
        return path;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = dir_.filePath("cli.sqlite");
        exp_ = write("tiny.json",
                     {{"name", "tiny"},
                      {"base",
                       {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                        {"train", {{"steps", 20}, {"batch_size", 4}, {"eval_every", 10}, {"threads", 1}}},
                        {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}},
                      {"variants", {{{"scheme", "post_ln"}}, {{"scheme", "ngpt"}}}}});
    }

    void runListShowExport() {
        Result r = cli({"run", exp_, "--store", store_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(r.err.contains("[2/2] ngpt: finished after 20 steps"));   // plain lines: stderr is no terminal
        r = cli({"list", "--store", store_});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("post_ln") && r.out.contains("ngpt") && r.out.contains("finished"));
        r = cli({"show", "ngpt", "--store", store_});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("gain_mean/alpha_A") && r.out.contains("cond/q") && r.out.contains("loss_floor"));
        // counts in the singular where there is one ("1 points" read as a slip)
        QVERIFY2(QRegularExpression(R"(data/loss_floor +1 point\n)").match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY2(QRegularExpression(R"(train/loss +20 points\n)").match(r.out).hasMatch(), qPrintable(r.out));
        // of two runs, the settings in which they differ: the scheme first, a column a run
        r = cli({"show", "1", "2", "--store", store_});
        QVERIFY2(QRegularExpression(R"(\nsettings that differ\n +#1 post_ln +#2 ngpt\n  scheme +post_ln +ngpt\n)").match(r.out).hasMatch() &&
                     QRegularExpression(R"(\n  what their schemes imply:\n(  \S+ +\S+ +\S+\n)*  model\.layout +post +ngpt\n)").match(r.out).hasMatch(),
                 qPrintable(r.out));
        // info and versions a key a line, aligned, texts without their quotes
        QVERIFY2(QRegularExpression(R"(\n  info\n(    [a-z_]+ +\S.*\n)*    parameters +\d+\n)").match(r.out).hasMatch(), qPrintable(r.out));
        QVERIFY2(QRegularExpression(R"(\n  versions\n(    [a-z_]+ +\S.*\n)*    normlab +\d+\.\d+\.\d+\n)").match(r.out).hasMatch(),
                 qPrintable(r.out));

        const QString csv = dir_.filePath("run1.csv");
        r = cli({"export", "1", "--csv", "--out", csv, "--store", store_});
        QCOMPARE(r.code, 0);
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString("run_id,run_name,series,layer,step,value"));
        int loss_rows = 0;
        for (auto& l : lines)
            if (l.startsWith("1,post_ln,train/loss,-1,")) ++loss_rows;
        QCOMPARE(loss_rows, 20);                                          // every point, never sampled

        r = cli({"export", "2", "--json", "--store", store_});
        QCOMPARE(r.code, 0);
        json j = json::parse(r.out.toStdString());
        QCOMPARE(j["run"]["scheme"].get<std::string>(), std::string("ngpt"));
        QVERIFY(!j["series"].empty() && !j["distributions"].empty());

        const QString st = dir_.filePath("w.safetensors");
        r = cli({"export-weights", "2", st, "--store", store_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // An output that is a folder, or in a folder that is not there, is refused by name before
        // the model loads (it was "writing DIR failed: Is a directory", exit 1, or "cannot move
        // DIR.tmp into place", exit 4), and nothing lands beside it.
        const QString folder = dir_.filePath("a-folder"), nowhere = dir_.filePath("no-such-folder/w.out");
        QVERIFY(QDir().mkpath(folder));
        for (const QStringList& c : {QStringList{"export", "1", "--csv", "--out", folder},
                                     QStringList{"export", "1", "--json", "--out", nowhere},
                                     QStringList{"export-weights", "2", folder},
                                     QStringList{"export-weights", "2", nowhere},
                                     QStringList{"eval-batch", "2", folder}}) {
            Result e = cli(QStringList(c) << "--store" << store_);
            const bool is_folder = c.last() == folder;
            QVERIFY2(e.code == 2 && e.err.contains(is_folder ? folder + " is a folder" : QString("does not exist")) &&
                         e.err.contains("Nothing was written"),
                     qPrintable(c.join(' ') + QString(": exit %1: ").arg(e.code) + e.err));
        }
        QVERIFY(QDir(folder).isEmpty() && !QFile::exists(folder + ".tmp") && !QFile::exists(dir_.filePath("no-such-folder")));
        QFile w(st);
        QVERIFY(w.open(QIODevice::ReadOnly));
        const QByteArray bytes = w.readAll();
        quint64 n = 0;
        for (int i = 7; i >= 0; --i) n = (n << 8) | static_cast<unsigned char>(bytes[i]);
        json header = json::parse(bytes.mid(8, static_cast<int>(n)).toStdString());
        QVERIFY(header.contains("blocks.0.attn.qkv.weight"));
        QVERIFY(header.contains("blocks.1.alpha_A"));
        QCOMPARE(header["tok_emb.weight"]["shape"], json({256, 32}));
        QCOMPARE(header["__metadata__"]["format"].get<std::string>(), std::string("normlab"));
    }

    void plotsLabelTheirLogAxes() {
        // normlab-cli plot draws with the same ticks as the app (core/axis_ticks.h): the per-layer
        // gradient charts are log-y and must carry at least three labelled y ticks, whatever their span.
        const QString out = dir_.filePath("plots");
        Result r = cli({"plot", "1", "2", "--out", out, "--store", store_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        // --out names a folder: a file there is refused by name and kept, as is a folder that cannot be made.
        const QString file = dir_.filePath("notes.txt");
        { QFile n(file); QVERIFY(n.open(QIODevice::WriteOnly)); n.write("mine\n"); }
        for (const QString& bad : {file, file + "/figures"}) {
            Result e = cli({"plot", "1", "--out", bad, "--store", store_});
            QVERIFY2(e.code == 2 && e.err.contains("--out") && e.err.contains(bad) && e.err.contains("Nothing was written"),
                     qPrintable(QString("exit %1: ").arg(e.code) + e.err));
        }
        { QFile n(file); QVERIFY(n.open(QIODevice::ReadOnly)); QCOMPARE(n.readAll(), QByteArray("mine\n")); }
        // --where: the runs a filter picks, as list reads it; one that picks none writes nothing
        Result w = cli({"plot", "--where", "id=2", "--out", out + "-where", "--store", store_});
        QVERIFY2(w.code == 0 && w.out.contains("grad_l1_fc2_run2.svg") && !w.out.contains("run1.svg"), qPrintable(w.out + w.err));
        w = cli({"plot", "--where", "id>99", "--out", out + "-none", "--store", store_});
        QVERIFY2(w.code == 2 && w.err.contains("--where id>99 picks none") && !QFileInfo::exists(out + "-none"), qPrintable(w.err));
        for (const char* name : {"grad_l1_fc2_run1.svg", "grad_l1_fc2_by_layer.svg"}) {
            QFile f(out + "/" + name);
            QVERIFY2(f.open(QIODevice::ReadOnly), name);
            const QString svg = QString::fromUtf8(f.readAll());
            QVERIFY2(svg.count("text-anchor=\"end\">") >= 3, qPrintable(QString(name) + ": " + svg.left(400)));
        }
        {   // a legend with room for its entries writes each whole, on one line: the first of the
            // default experiment's four ("Post-LN (#1) train") lost its last word to a second line
            // to floating-point rounding
            const QString named = lossStore("legend.sqlite", {"Post-LN", "Pre-LN"});
            Result p = cli({"plot", "1", "2", "--out", out + "-named", "--store", named});
            QVERIFY2(p.code == 0, qPrintable(p.err));
            QFile f(out + "-named/loss.svg");
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString svg = QString::fromUtf8(f.readAll());
            auto it = QRegularExpression("<text x=\"[0-9.]+\" y=\"[0-9.]+\">([^<]+)</text>")
                          .globalMatch(svg.mid(svg.lastIndexOf("<g font-size=\"11\">")));
            int entries = 0;
            while (it.hasNext()) {
                const QString text = it.next().captured(1);
                QVERIFY2(text.endsWith(" train") || text.endsWith(" val"), qPrintable(text));
                ++entries;
            }
            QCOMPARE(entries, 4);
            // and no clip path: ImageMagick's own SVG renderer drew none of the lines inside one
            QVERIFY(!svg.contains("clip-path") && svg.contains("<polyline"));
        }
        {   // the layer index as the window writes it: ‖x_ℓ‖, ℓ a subscript (ₗ beside ‖ read as a third bar)
            QFile f(out + "/hidden_norm_by_layer.svg");
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QString svg = QString::fromUtf8(f.readAll());
            QVERIFY2(svg.contains("mean ‖x<tspan dy=\"4\" font-size=\"10\">ℓ</tspan><tspan dy=\"-4\">‖</tspan></text>"), qPrintable(svg.left(2000)));
        }
        // The legend is never cut at the figure's edge (issue 24 item 15: it sat in 150 px at the right):
        // with an ablation's long run names, every legend text, at a generous 0.62 em a character, ends
        // inside the declared width.
        const QString long_store =
            lossStore("long-names.sqlite", {"NormFormer without post-attention LN seed=1", "NormFormer without FFN LN seed=1"});
        const QString long_out = dir_.filePath("plots-long");
        r = cli({"plot", "1", "2", "--out", long_out, "--store", long_store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QFile f(long_out + "/loss.svg");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(f.readAll());
        const double width = QRegularExpression("<svg[^>]* width=\"([0-9.]+)\"").match(svg).captured(1).toDouble();
        QVERIFY(width > 100);
        const int legend = svg.lastIndexOf("<g font-size=\"11\">");
        QVERIFY(legend > 0);
        auto it = QRegularExpression("<text x=\"([0-9.]+)\" y=\"[0-9.]+\">([^<]+)</text>").globalMatch(svg.mid(legend));
        int texts = 0;
        while (it.hasNext()) {
            const auto m = it.next();
            const double right = m.captured(1).toDouble() + 0.62 * 11 * m.captured(2).size();
            QVERIFY2(right <= width, qPrintable(QString("\"%1\" ends at %2 px of %3").arg(m.captured(2)).arg(right).arg(width)));
            ++texts;
        }
        QVERIFY2(texts >= 4, qPrintable(svg.mid(legend, 600)));   // train and val of both runs
    }

    // --only NAME takes the run of that name alone, though another's name starts with "NAME "
    // ("T=100" and "T=100 no offsets": it took both); with no run of that name, a variant's sweep points.
    void onlyTakesTheRunNamedOrAVariantsSweepPoints() {
        const QString store = dir_.filePath("only.sqlite");
        json two = cli_harness::tiny(1);
        two["name"] = "two";
        two["variants"] = {{{"name", "T=100"}}, {{"name", "T=100 no offsets"}}};
        Result r = cli({"run", write("two.json", two), "--only", "T=100", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        json swept = cli_harness::tiny(1);
        swept["name"] = "swept";
        swept["variants"] = {{{"name", "x"}}, {{"name", "y"}}};
        swept["sweep"] = {{"train.seed", {1, 2}}};
        r = cli({"run", write("swept.json", swept), "--only", "y", "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"list", "--store", store, "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QStringList names;
        for (const auto& run : json::parse(r.out.toStdString())) names << QString::fromStdString(run["name"].get<std::string>());
        names.sort();
        QCOMPARE(names, QStringList({"T=100", "y seed=1", "y seed=2"}));
    }

    void badInputExitsWithTheField() {
        Result r = cli({"run", write("bad.json", {{"base", {{"model", {{"d_model", 128}, {"n_heads", 6}}}}}}),
                        "--store", store_});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("base.model.n_heads: 6 does not divide d_model 128"), qPrintable(r.err));
        r = cli({"run", write("typo.json", {{"base", {{"train", {{"step", 5}}}}}}), "--store", store_});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("base.train.step: unknown field; did you mean \"steps\"?"));
        r = cli({"frobnicate"});
        QCOMPARE(r.code, 2);
        // --batch auto measures a GPU: on the CPU it is refused, naming the field, before anything is written.
        const QString nothing = dir_.filePath("never.sqlite");
        r = cli({"run", exp_, "--batch", "auto", "--device", "cpu", "--store", nothing});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("train.batch_size: auto fits the batch to a GPU's memory") && r.err.contains("give a number"),
                 qPrintable(r.err));
        QVERIFY(!QFile::exists(nothing));
        r = cli({"run", exp_, "--batch", "0", "--store", nothing});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--batch"), qPrintable(r.err));
        QVERIFY(!QFile::exists(nothing));
        r = cli({"run", exp_, "--cuda-graph", "sometimes", "--store", nothing});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("train.cuda_graph: \"sometimes\" is not one of auto, on, off"), qPrintable(r.err));
        QVERIFY(!QFile::exists(nothing));
        // A number overrides every run's batch, as the run records it.
        const QString three = dir_.filePath("batch3.sqlite");
        r = cli({"run", exp_, "--only", "post_ln", "--steps", "2", "--batch", "3", "--store", three});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli({"export", "1", "--json", "--store", three});
        QCOMPARE(json::parse(r.out.toStdString())["run"]["config"]["train"]["batch_size"].get<int>(), 3);
        r = cli({"run", exp_, "--only", "nosuch", "--store", store_});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.contains("post_ln") && r.err.contains("ngpt"));
        r = cli({"show", "999", "--store", store_});
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("no run with id 999"));
        const QString junk = dir_.filePath("junk.db");
        std::ofstream(junk.toStdString()) << "not a database";
        r = cli({"list", "--store", junk});
        QCOMPARE(r.code, 5);
        QVERIFY(r.err.contains("not a NormLab run store"));
    }

    void divergedRunsExitThree() {
        const QString ramp = write(
            "ramp.json",
            {{"base",
              {{"scheme", "post_ln"},
               {"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
               {"optim", {{"kind", "sgd"}, {"grad_clip", 0}, {"schedule", {{"kind", "ramp"}, {"ramp_increment", 0.05}}}}},
               {"train", {{"steps", 400}, {"batch_size", 4}, {"threads", 1}}},
               {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}}});
        Result r = cli({"run", ramp, "--store", store_});
        QCOMPARE(r.code, 3);
        QVERIFY(r.out.contains("diverged"));
    }

    void interruptedRunResumes() {
        // SIGINT cancels cleanly: the run is saved as cancelled with a checkpoint.
        QProcess p;
        const QString slow = write(
            "slow.json", {{"base",
                           {{"model", {{"d_model", 64}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 128}, {"context", 32}}},
                            {"train", {{"steps", 100000}, {"batch_size", 8}, {"threads", 1}}},
                            {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}}});
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral(NORMLAB_CLI), {"run", slow, "--store", store_});
        QVERIFY(p.waitForStarted());
        // Interrupt it once it trains (before, a SIGINT ends the process by the signal, exit code 2).
        const QString out = cli_harness::wait_until_training(p);
        QVERIFY2(cli_harness::trains(out), qPrintable("no progress line: " + out));
        // It trains in the engine the front end became (app/cli/front.cpp): the same pid, named normlab-cli.
        const QString proc = QString("/proc/%1/").arg(p.processId());
        QFile comm(proc + "comm");
        QVERIFY(comm.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(comm.readAll()).trimmed(), QStringLiteral("normlab-cli"));
        const QString exe = QFile::symLinkTarget(proc + "exe");
        QVERIFY2(exe.endsWith("/libexec/normlab/normlab-cli"), qPrintable(exe));
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 130);
        normlab::Store s(store_.toStdString());
        auto runs = s.runs();
        auto last = runs.back();
        QCOMPARE(last.status, normlab::RunStatus::Cancelled);
        QVERIFY(last.steps_done > 0);
        QVERIFY(!last.checkpoint.empty());
        // The terminal says how to go on, on this store (not the default one).
        const QString said = QString::fromUtf8(p.readAll());
        const QString hint = QString("stopped; to go on from where each run stopped: normlab-cli resume %1 --store %2\n")
                                 .arg(last.id)
                                 .arg(QFileInfo(store_).absoluteFilePath());
        QVERIFY2(said.contains(hint), qPrintable(said));
    }

    // `resume --detach` (what `remote resume` runs on a server) of the run the test above cancelled:
    // the run is queued before the command returns, so what follows the store waits for it instead of
    // ending on "cancelled"; a resume its process cannot start ends failed, saying why, with its steps,
    // checkpoint and rows kept; --threads reaches the resuming process.
    void detachedResumeIsQueuedAtOnce() {
        normlab::RunInfo run;
        auto now = [&] {
            run = normlab::Store(store_.toStdString(), normlab::Store::Mode::ReadOnly).runs().back();
            return run.status;
        };
        auto wait_while = [&](normlab::RunStatus s) {
            QElapsedTimer t;
            t.start();
            while (now() == s && t.elapsed() < 60000) QTest::qWait(100);
        };
        QCOMPARE(now(), normlab::RunStatus::Cancelled);
        const normlab::RunInfo cancelled = run;
        const QString id = QString::number(run.id), ckpt = QString::fromStdString(run.checkpoint);
        QFile f(ckpt);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray good = f.readAll();
        f.close();
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));   // a damaged checkpoint: it cannot start
        f.write(good.left(1000));
        f.close();
        Result r = cli({"resume", id, "--detach", "--store", store_});
        QVERIFY2(r.code == 0 && r.out.startsWith(id + "\tresuming\t"), qPrintable(r.out + r.err));
        QVERIFY(now() != normlab::RunStatus::Cancelled);
        wait_while(normlab::RunStatus::Queued);
        QCOMPARE(run.status, normlab::RunStatus::Failed);
        QVERIFY2(QString::fromStdString(run.message).contains("not started: cannot resume run " + id + ": cannot read checkpoint"),
                 run.message.c_str());
        QCOMPARE(run.steps_done, cancelled.steps_done);
        QCOMPARE(run.checkpoint, cancelled.checkpoint);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));   // mended: it resumes from its steps
        f.write(good);
        f.close();
        r = cli({"resume", id, "--detach", "--threads", "1", "--store", store_});
        // A check failing below leaves no process training on: it is cancelled.
        const auto stop = qScopeGuard([&] { cli({"cancel", id, "--store", store_}); });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY(now() == normlab::RunStatus::Queued || run.status == normlab::RunStatus::Running);
        wait_while(normlab::RunStatus::Queued);
        QCOMPARE(run.status, normlab::RunStatus::Running);
        QFile cmdline(QString("/proc/%1/cmdline").arg(run.pid));
        QVERIFY(cmdline.open(QIODevice::ReadOnly));
        QVERIFY2(cmdline.readAll().contains(QByteArray("\0--threads\0" "1\0", 13)), "--threads did not reach the resuming process");
        QTRY_VERIFY_WITH_TIMEOUT(now() != normlab::RunStatus::Running || run.steps_done > cancelled.steps_done, 60000);
        r = cli({"cancel", id, "--store", store_});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        wait_while(normlab::RunStatus::Running);
        QCOMPARE(run.status, normlab::RunStatus::Cancelled);
        QVERIFY(run.steps_done > cancelled.steps_done);
    }

    // Issue 25 item 2: MFU. With the device's peak given ($NORMLAB_PEAK_TFLOPS; a GPU's comes from its data
    // sheet), every step records train/mfu = FLOPs per token × its tokens/s ÷ the peak, the run's info has both
    // numbers, and the progress line shows it. FLOPs per token counted here again, as nanoGPT counts them.
    void mfuIsRecordedWhereThePeakIsKnown() {
        const QString store = dir_.filePath("mfu.sqlite");
        const QString exp = write("mfu.json", {{"name", "mfu"},
                                               {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                                                         {"train", {{"steps", 12}, {"batch_size", 4}, {"eval_every", 0}, {"threads", 1}}},
                                                         {"data", {{"source", "markov"}, {"markov", {{"length", 5000}}}}}}},
                                               {"variants", {{{"scheme", "pre_ln"}}}}});
        Result r = cli({"run", exp, "--store", store}, {}, 120000, {"NORMLAB_PEAK_TFLOPS=0.001"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(" MFU "), qPrintable(r.err));
        const double d = 32, f = 64, L = 2, T = 16, V = 256;
        const double flops = 6 * (L * (4 * d * d + 2 * d * f) + V * d) + 12 * L * T * d;
        normlab::Store s(store.toStdString(), normlab::Store::Mode::ReadOnly);
        const auto run = s.find_run("pre_ln");
        QCOMPARE(run.info.value("flops_per_token", 0.0), flops);
        QCOMPARE(run.info.value("peak_flops", 0.0), 1e9);
        std::map<int64_t, double> tps, mfu;
        for (auto& series : s.series(run.id, false)) {
            if (series.name != "train/tokens_per_s" && series.name != "train/mfu") continue;
            for (auto& p : s.points(series.id, -1)) (series.name == "train/mfu" ? mfu : tps)[p.step] = p.value;
        }
        QCOMPARE(mfu.size(), size_t(12));
        for (auto& [step, m] : mfu) QVERIFY2(std::abs(m - flops * tps[step] / 1e9) <= 1e-9 * m, qPrintable(QString::number(step)));
        // without a known peak (a CPU): no MFU, and nothing claims one
        r = cli({"run", exp, "--store", dir_.filePath("no-mfu.sqlite")});
        QVERIFY2(r.code == 0 && !r.err.contains("MFU"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
