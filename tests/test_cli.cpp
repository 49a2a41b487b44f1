// normlab-cli end to end on a tiny experiment: run, list, show, export,
// export-weights, resume of an interrupted run, and the exit codes and
// messages of bad input.
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

    // An option a command does not take is refused before it does anything, naming what it
    // takes; it was ignored: `resume 1 --steps 500` trained to the run's own steps, `sweep
    // --precision bf16` checked bf16 but wrote tasks that train in the experiment's precision,
    // `list --last 1` listed every run.
    void optionsACommandDoesNotTakeAreRefused() {
        const QString store = dir_.filePath("options.sqlite");
        QVERIFY(cli({"run", exp_, "--only", "post_ln", "--steps", "5", "--store", store}).code == 0);
        QVERIFY(cli({"list", "--store", store}).out.contains("finished"));
        const QByteArray before = [&] { QFile f(store); f.open(QIODevice::ReadOnly); return f.readAll(); }();
        const std::vector<std::pair<QStringList, QString>> cases = {
            {{"resume", "1", "--steps", "500"}, "resume does not take --steps; it takes --device, --threads, --detach, --if-queued"},
            {{"resume", "1", "--precision", "bf16"}, "resume does not take --precision"},
            {{"sweep", exp_, "--slurm", "--precision", "bf16", "--dir", dir_.filePath("sw")}, "sweep does not take --precision"},
            {{"list", "--steps", "1"}, "list does not take --steps; it takes --status, --last, --sort, --json"},
            {{"schemes", "--json"}, "schemes does not take --json; it takes no option but --store"},
            {{"export", "1", "--csv", "--into", dir_.filePath("x.csv")}, "export does not take --into; it takes --csv, --json, --out"},
            {{"validate", exp_, "--detach"}, "validate does not take --detach"},
            {{"remote", "list", "gpu-box", "--steps", "3"}, "remote list does not take --steps"},
            {{"remote", "run", "gpu-box", exp_, "--dir", "sw"}, "remote run does not take --dir"},
        };
        for (const auto& [args, says] : cases) {
            Result r = cli(QStringList(args) << "--store" << store);
            QVERIFY2(r.code == 2 && r.err.contains(says) && r.err.contains("Nothing was done"),
                     qPrintable(args.join(' ') + QString(": exit %1: ").arg(r.code) + r.err));
        }
        QVERIFY(!QDir(dir_.filePath("sw")).exists() && !QFile::exists(dir_.filePath("x.csv")));
        QFile f(store);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(f.readAll() == before, "a refused command changed the store");
        // --index I-J picks runs by position: one that ends before it starts says so (it said
        // "--index 0 is out of range; use 1 to 1").
        Result r = cli({"validate", exp_, "--index", "1-0"});
        QVERIFY2(r.code == 2 && r.err.contains("--index 1-0 ends before it starts"), qPrintable(r.err));
        r = cli({"validate", exp_, "--index", "1-1"});
        QVERIFY2(r.code == 0 && r.out.contains(": 1 run\n"), qPrintable(r.out + r.err));
    }

    // validate says what an experiment is for, as its file describes it, before the runs it
    // expands to: wrapped to 80 columns (a Chinese character two), the file's line breaks made
    // spaces, a control character written as \xNN (an ESC would have coloured the terminal).
    void validateSaysWhatTheExperimentIsFor() {
        const std::string zh = "层归一化的位置决定训练是否有效，";
        std::string words;
        for (int i = 0; i < 6; ++i) words += "Post-LN needs warm-up at a large rate; Pre-LN does not. " + zh;
        const std::string description = "\x1b[31mred\nline " + words;
        const QString exp = write("described.json",
                                  {{"name", "described"},
                                   {"description", description},
                                   {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                                             {"data", {{"source", "markov"}}}}}});
        Result r = cli({"validate", exp});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList lines = r.out.split('\n');
        QCOMPARE(lines.at(0), QString("described: 1 run"));
        int blank = lines.indexOf(QString());
        QVERIFY2(blank > 2, qPrintable(r.out));
        QStringList said;
        for (int i = 1; i < blank; ++i) {
            const QString& line = lines.at(i);
            int width = 0;
            for (QChar c : line) width += c.unicode() >= 0x2E80 ? 2 : 1;
            QVERIFY2(line.startsWith("  ") && line.at(2) != ' ' && width <= 78, qPrintable(QString("%1 columns: %2").arg(width).arg(line)));
            said << line.mid(2);
        }
        QCOMPARE(said.join(' '), QString::fromStdString("\\x1B[31mred line " + words).trimmed());
        QVERIFY2(!r.out.contains('\x1b'), qPrintable(r.out));
        QVERIFY2(lines.at(blank + 1).startsWith("  run ") && lines.at(blank + 1).contains("pre_ln"), qPrintable(r.out));
        // An experiment without a description goes straight to its runs.
        r = cli({"validate", exp_});
        QVERIFY2(r.code == 0 && r.out.startsWith("tiny: 2 runs\n  post_ln "), qPrintable(r.out));
    }

    // resume, cancel and delete change the runs of a store and never make one: a store that is not
    // there (a mistyped --store) is refused with nothing created; each made an empty store, and
    // its folder, and then found no run 1 in it.
    void resumeAndCancelMakeNoStore() {
        const QString missing = dir_.filePath("typo/runs.sqlite");
        for (const char* c : {"resume", "cancel", "delete"}) {
            Result r = cli({c, "1", "--store", missing});
            QVERIFY2(r.code == 5 && r.err.contains("no run store at " + missing) && r.err.contains("nothing was created"),
                     qPrintable(QString("%1: exit %2: %3").arg(c).arg(r.code).arg(r.err)));
            QVERIFY2(!QFileInfo::exists(dir_.filePath("typo")), c);
        }
    }

    // The usage text is made from the command table: every command appears in
    // it, and each answers --help with its own usage.
    void everyCommandHasItsHelp() {
        Result all = cli({"--help"});
        QCOMPARE(all.code, 0);
        const QStringList commands{"run", "validate", "list", "show", "export", "export-weights", "eval-batch",
                                   "resume", "plot", "preset", "schemes", "sample"};
        QMap<QString, QString> helps;
        for (const QString& c : commands) {
            QVERIFY2(all.out.contains("\n  " + c + " ") || all.out.contains("\n  " + c + "\n"), qPrintable(c));
            Result one = cli({c, "--help"});
            QCOMPARE(one.code, 0);
            helps[c] = one.out;
            QVERIFY2(one.out.startsWith("usage: normlab-cli " + c), qPrintable(one.out));
            for (const QString& line : one.out.split('\n'))
                QVERIFY2(line.size() <= 100, qPrintable(QString("%1 --help: %2 characters: %3").arg(c).arg(line.size()).arg(line)));
            QCOMPARE(cli({"help", c}).out, one.out);
        }
        QVERIFY(cli({"run", "--help"}).out.contains("--only NAME"));
        // The descriptions form one column: a synopsis too long for its column
        // has a line of its own (export-batches, merge, remote), not a ragged edge.
        const QString list = all.out.section("commands:\n", 1).section("\n\n", 0, 0);
        int lines = 0;
        for (const QString& line : list.split('\n')) {
            const bool synopsis_alone = line.size() > 27 && line.size() <= 72 && line.at(26) != ' ';
            QVERIFY2(line.size() <= 100, qPrintable(line));
            QVERIFY2(synopsis_alone || (line.size() > 27 && line.at(26) == ' ' && line.at(27) != ' '), qPrintable(line));
            ++lines;
        }
        QVERIFY2(lines >= 30, qPrintable(list));
        // Every command's own help, and the list's footer, in lines of 100 characters at most
        // (remote's, validate's and others' ran to 130 in a terminal of 100).
        QStringList names;
        for (const QString& line : list.split('\n'))
            if (line.size() > 2 && line.at(2) != ' ') names << line.mid(2).section(' ', 0, 0);
        names.removeDuplicates();
        QVERIFY2(names.size() >= 18, qPrintable(names.join(" ")));
        for (const QString& line : all.out.split('\n')) QVERIFY2(line.size() <= 100, qPrintable(line));
        for (const QString& c : names) {
            if (commands.contains(c)) continue;   // checked above
            Result one = cli({c, "--help"});
            QVERIFY2(one.code == 0 && one.out.startsWith("usage: normlab-cli " + c), qPrintable(c + ": " + one.out + one.err));
            helps[c] = one.out;
            for (const QString& line : one.out.split('\n'))
                QVERIFY2(line.size() <= 100, qPrintable(QString("%1 --help: %2 characters: %3").arg(c).arg(line.size()).arg(line)));
        }
        Result none = cli({});
        QCOMPARE(none.code, 2);
        QVERIFY(none.err.contains("commands:"));

        // Every option a command's help offers, it takes (its table of what it takes,
        // app/cli/cmd_*.cpp, against its text): none is refused as one it does not take.
        // Options the texts name for another command or program, and those every command takes:
        const QStringList elsewhere{"run --no-python", "sweep --array", "sweep --into", "stream --dir", "sample --checkpoint",
                                    "sample --out"};   // sample: remote fetch's
        const QStringList everywhere{"--help", "--version", "--store"};
        int checked = 0;
        for (auto h = helps.cbegin(); h != helps.cend(); ++h) {
            QStringList options;
            for (auto o = QRegularExpression("--[a-z][a-z-]*").globalMatch(h.value()); o.hasNext();) {
                const QString option = o.next().captured(0);
                if (!options.contains(option) && !elsewhere.contains(h.key() + " " + option) && !everywhere.contains(option))
                    options << option;
            }
            // Before a command does anything it checks its options, refusing the first it does not
            // take; so all of them in one call, each with a value (a flag leaves it as an operand).
            // With no store there and no file named, each command then stops at its own first check.
            QStringList call{h.key()};
            for (const QString& option : options) call << option << dir_.filePath("none/value");
            Result r = cli(call << "--store" << dir_.filePath("none/none.sqlite"), {}, 20000);
            QVERIFY2(!r.err.contains("does not take") && !r.err.contains("unknown option"), qPrintable(call.join(' ') + ": " + r.err));
            QVERIFY2(!QFileInfo::exists(dir_.filePath("none")), qPrintable(call.join(' ')));
            checked += options.size();
        }
        QVERIFY2(helps.size() >= 18 && checked >= 60, qPrintable(QString("%1 commands, %2 options").arg(helps.size()).arg(checked)));
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

    // The front end answers the commands that need no LibTorch itself: a copy of it with no engine beside
    // it lists a store, shows any command's help, lists the schemes, refuses a remote action's wrong option
    // or an experiment's wrong field and answers a follower (the server's side of `remote follow`, which
    // must start at once); what needs LibTorch (a run, server-info asking it for the GPUs) says which file
    // is missing and how to get it.
    void storeCommandsNeedNoEngine() {
        const QString bin = dir_.filePath("alone/bin"), front = bin + "/normlab-cli";
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(QFile::copy(QStringLiteral(NORMLAB_CLI), front));
        QVERIFY(QFile::setPermissions(front, QFile::permissions(QStringLiteral(NORMLAB_CLI))));
        auto alone = [&](const QStringList& args) {
            QProcess p;
            p.start(front, args);
            const bool done = p.waitForFinished(60000);
            return Result{done ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
                                       QString::fromUtf8(p.readAllStandardError())};
        };
        Result r = alone({"list", "--store", dir_.filePath("none.sqlite")});
        QVERIFY2(r.code == 0 && r.out.contains("no runs"), qPrintable(r.out + r.err));
        r = alone({"export", "--help"});
        QVERIFY2(r.code == 0 && r.out.contains("usage: normlab-cli export"), qPrintable(r.out + r.err));
        r = alone({"schemes"});
        QVERIFY2(r.code == 0 && r.out.contains("ngpt") && r.out.contains("branchnorm=1"), qPrintable(r.out + r.err));
        r = alone({"preset", "deepnorm"});
        QVERIFY2(r.code == 0 && json::parse(r.out.toStdString())["model"]["deepnorm"]["residual"] == true, qPrintable(r.out + r.err));
        r = alone({"remote", "list", "nohost.invalid", "--steps", "3"});
        QVERIFY2(r.code == 2 && r.err.contains("remote list does not take --steps"), qPrintable(r.err));
        r = alone({"stream", "--store", dir_.filePath("none.sqlite")});
        QVERIFY2(r.code == 5 && r.out.contains("there is no store at"), qPrintable(r.out + r.err));
        // The engine's commands' help, the usage, an option refused and an experiment refused: no engine needed.
        r = alone({"run", "--help"});
        QVERIFY2(r.code == 0 && r.out.startsWith("usage: normlab-cli run") && r.out.contains("--only NAME"), qPrintable(r.out + r.err));
        r = alone({"help", "sample"});
        QVERIFY2(r.code == 0 && r.out.startsWith("usage: normlab-cli sample"), qPrintable(r.out + r.err));
        r = alone({});
        QVERIFY2(r.code == 2 && r.err.contains("usage: normlab-cli COMMAND") && r.err.contains("  eval-batch RUN FILE"), qPrintable(r.err));
        r = alone({"resume", "1", "--only", "x"});
        QVERIFY2(r.code == 2 && r.err.contains("resume does not take --only"), qPrintable(r.err));
        r = alone({"validate", write("huge.json", {{"base", {{"model", {{"d_model", 4294967360.0}}}}}})});
        QVERIFY2(r.code == 2 && r.err.contains("base.model.d_model"), qPrintable(r.err));
        for (const QStringList& args : {QStringList{"run", exp_}, QStringList{"--version"}, QStringList{"list", "--version"},
                                        QStringList{"server-info"}}) {
            r = alone(args);
            QVERIFY2(r.code == 1 && r.err.contains("cannot start the engine") &&
                         r.err.contains(QFileInfo(bin).canonicalFilePath() + "/../libexec/normlab/normlab-cli") && r.err.contains("scripts/setup.sh"),
                     qPrintable(args.join(' ') + ": " + r.err));
        }
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
