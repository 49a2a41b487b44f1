// normlab-cli's front end as a user meets it before anything trains: every command's help and the
// usage made from one table, options a command does not take refused with the store unchanged,
// `validate` describing an experiment, resume/cancel/delete never making a store, and the front
// end answering what needs no LibTorch with no engine beside it. (Split from test_cli.cpp, which
// trains, lists, exports and resumes.)
#include "tests/cli_harness.h"

#include <QRegularExpression>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

using cli_harness::cli;
using cli_harness::Result;
using nlohmann::json;

class TestCliFront : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString exp_;

    QString write(const char* name, const json& j) { return cli_harness::write_file(dir_.filePath(name), j.dump(2)); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        json tiny = cli_harness::tiny(20);   // d 32 × 2 layers, 20 steps on a Markov source
        tiny["name"] = "tiny";
        tiny["variants"] = {{{"scheme", "post_ln"}}, {{"scheme", "ngpt"}}};
        exp_ = write("tiny.json", tiny);
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
        // A mistyped option or command: the one meant, where one is near (the option among those
        // the command takes first: `--stor FILE` is --store, `remote follow --jsn` --json).
        const std::vector<std::pair<QStringList, QString>> typos = {
            {{"list", "--stor", store}, "unknown option --stor; did you mean --store? (see normlab-cli list --help)"},
            {{"run", exp_, "--step", "5"}, "unknown option --step; did you mean --steps?"},
            {{"remote", "follow", "gpu-box", "--jsn"}, "unknown option --jsn; did you mean --json?"},
            {{"list", "--nonsense-xyz"}, "unknown option --nonsense-xyz (see normlab-cli list --help)"},
            {{"lsit"}, "unknown command \"lsit\"; did you mean \"list\"?"},
            {{"qqqq"}, "unknown command \"qqqq\" (see normlab-cli --help)"},
        };
        for (const auto& [args, says] : typos) {
            Result r = cli(QStringList(args) << "--store" << store);
            QVERIFY2(r.code == 2 && r.err.contains(says), qPrintable(args.join(' ') + QString(": exit %1: ").arg(r.code) + r.err));
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
};

QTEST_GUILESS_MAIN(TestCliFront)
#include "test_cli_front.moc"
