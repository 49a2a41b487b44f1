// normlab-cli list over a store of many runs: picked by a text (as the
// window's filter), by status and --last, sorted by any column, as a table
// whose names are whole characters and as JSON; bad choices refused by name.
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

#include <cmath>

using cli_harness::cli;
using cli_harness::Result;

class TestCliList : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

    // The ids `list` printed, in its order (the table's first column).
    static QList<int> ids(const Result& r) {
        QList<int> out;
        for (const QString& line : r.out.split('\n')) {
            bool ok = false;
            const int id = line.section(' ', 0, 0).toInt(&ok);
            if (ok) out << id;
        }
        return out;
    }
    Result list(QStringList args) { return cli(QStringList{"list"} << args << "--store" << store_); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        store_ = dir_.filePath("many.sqlite");
        normlab::Store s(store_.toStdString());
        struct R {
            const char* name;
            const char* scheme;
            normlab::RunStatus status;
            double val;
        };
        const R runs[] = {
            {"Post-LN seed=1", "post_ln", normlab::RunStatus::Finished, 3.30},                 // 1
            {"Pre-LN seed=1", "pre_ln", normlab::RunStatus::Finished, 3.10},                   // 2
            {"nGPT seed=1", "ngpt", normlab::RunStatus::Finished, 2.90},                       // 3
            {"Post-LN lr=8e-3", "post_ln", normlab::RunStatus::Diverged, std::nan("")},        // 4
            {"nGPT seed=2", "ngpt", normlab::RunStatus::Failed, std::nan("")},                 // 5
            {"PRE-LN seed=2", "pre_ln", normlab::RunStatus::Finished, 3.05},                   // 6
            {"归一化 对比实验 第一组 很长的名字 用来测试 截断 是否 保持 完整的 字符", "pre_ln",  // 7
             normlab::RunStatus::Finished, 3.20},
        };
        for (const R& r : runs) {
            const int64_t id = s.create_run(r.name, r.scheme, nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            s.finish_run(id, r.status, 100, r.status == normlab::RunStatus::Failed ? "out of memory" : "", r.val);
        }
        s.set_tags(2, {"baseline", "paper"});
        s.set_notes(3, "the one to beat");
    }

    // TEXT as the window's filter: in the name, scheme, status, a tag or the notes, ignoring case.
    void aTextPicksAsTheWindowsFilter() {
        QCOMPARE(ids(list({"pre-ln"})), (QList<int>{2, 6}));
        QCOMPARE(ids(list({"pre_ln"})), (QList<int>{2, 6, 7}));      // the scheme
        QCOMPARE(ids(list({"PAPER"})), (QList<int>{2}));             // a tag
        QCOMPARE(ids(list({"to", "beat"})), (QList<int>{3}));        // the notes; several words are one text
        QCOMPARE(ids(list({"diverged"})), (QList<int>{4}));          // the status
        const Result r = list({"pre-ln"});
        QVERIFY2(r.code == 0 && r.out.contains("(2 of 7 runs)"), qPrintable(r.out));
        QVERIFY2(r.out.contains("baseline,paper"), qPrintable(r.out));   // the tags column
        const Result none = list({"zzz"});
        QVERIFY2(none.code == 0 && none.out.contains("none of the 7 runs"), qPrintable(none.out));
        QVERIFY(!list({}).out.contains(" of 7 runs)"));              // nothing picked: no count
    }

    // Comparisons, as the window's filter reads them: a column, the loss shown, a setting.
    void comparisonsPickBySettingsAndLoss() {
        QCOMPARE(ids(list({"val<3.15"})), (QList<int>{2, 3, 6}));
        QCOMPARE(ids(list({"val<3.15", "pre-ln"})), (QList<int>{2, 6}));                   // every word
        QCOMPARE(ids(list({"status!=finished"})), (QList<int>{4, 5}));
        QCOMPARE(ids(list({"id>=6"})), (QList<int>{6, 7}));
        QCOMPARE(ids(list({"tag=paper"})), (QList<int>{2}));
        QCOMPARE(ids(list({"lr=8e-3"})), (QList<int>{4}));                                 // its name says it
        QCOMPARE(ids(list({"\"to beat\""})), (QList<int>{3}));
        // a comparison that could not pick any says why, on stderr
        const Result none = list({"val<abc", "valu<3"});
        QVERIFY2(none.code == 0 && none.out.contains("none of the 7 runs"), qPrintable(none.out));
        QVERIFY2(none.err.contains("val<abc: <, <=, > and >= compare numbers, and \"abc\" is not one"), qPrintable(none.err));
        QVERIFY2(none.err.contains("valu<3: no run has a column or setting \"valu\"; did you mean val?"), qPrintable(none.err));
        const Result r = list({"val<3.15", "--json"});
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).array().size(), 3);
    }

    void statusLastAndSort() {
        QCOMPARE(ids(list({"--status", "failed,diverged"})), (QList<int>{4, 5}));
        QCOMPARE(ids(list({"--last", "3"})), (QList<int>{5, 6, 7}));
        QCOMPARE(ids(list({"ngpt", "--last", "1"})), (QList<int>{5}));                      // the newest of those picked
        QCOMPARE(ids(list({"--sort", "val"})), (QList<int>{3, 6, 2, 7, 1, 4, 5}));          // no loss: last
        QCOMPARE(ids(list({"--sort", "-val"})), (QList<int>{1, 7, 2, 6, 3, 4, 5}));         // and last descending too
        QCOMPARE(ids(list({"--sort=-id", "--status", "finished"})), (QList<int>{7, 6, 3, 2, 1}));
        QCOMPARE(ids(list({"--sort", "name", "--last", "4"})), (QList<int>{5, 4, 6, 7}));   // case ignored
    }

    void jsonForScripts() {
        const Result r = list({"--status", "finished,failed", "--sort", "val", "--json"});
        QCOMPARE(r.code, 0);
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8(), &err);
        QVERIFY2(err.error == QJsonParseError::NoError && doc.isArray(), qPrintable(err.errorString()));
        const QJsonArray a = doc.array();
        QCOMPARE(a.size(), 6);
        QCOMPARE(a.first().toObject()["name"].toString(), QString("nGPT seed=1"));
        QCOMPARE(a.first().toObject()["val_loss"].toDouble(), 2.90);
        QCOMPARE(a.first().toObject()["notes"].toString(), QString("the one to beat"));
        const QJsonObject failed = a.last().toObject();
        QCOMPARE(failed["id"].toInt(), 5);
        QVERIFY(failed["val_loss"].isNull());
        QCOMPARE(failed["status"].toString(), QString("failed"));
        QCOMPARE(failed["message"].toString(), QString("out of memory"));
        QVERIFY(failed["created"].toString().endsWith('Z'));
        QCOMPARE(a[2].toObject()["tags"].toArray(), (QJsonArray{"baseline", "paper"}));
        QVERIFY(QRegularExpression("^#[0-9a-f]{6}$").match(failed["color"].toString()).hasMatch());
        // no store yet: an empty array, and none made
        const QString nowhere = dir_.filePath("nowhere.sqlite");
        const Result empty = cli({"list", "--json", "--store", nowhere});
        QVERIFY(empty.code == 0 && empty.out.trimmed() == "[]");
        QVERIFY(!QFile::exists(nowhere));
    }

    // A name longer than the column is cut with "…" between characters, never inside one (the
    // table was cut at 32 bytes: mid-character for Chinese names); the columns after it stay aligned.
    void longNamesAreCutBetweenCharacters() {
        const Result r = list({"--sort", "id"});
        QCOMPARE(r.code, 0);
        const QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY(!r.out.contains(QChar::ReplacementCharacter));
        QString cjk;
        for (const QString& l : lines)
            if (l.startsWith("7 ")) cjk = l;
        QVERIFY2(cjk.contains(QString::fromUtf8("…")) && cjk.contains(QString::fromUtf8("归一化")), qPrintable(cjk));
        // "pre_ln" starts in the same terminal column on every row: wide characters count two
        auto column_of = [](const QString& line, const QString& what) {
            const int at = line.indexOf(what);
            int w = 0;
            for (int i = 0; i < at; ++i) w += line[i].unicode() >= 0x2E80 ? 2 : 1;
            return w;
        };
        QCOMPARE(column_of(cjk, "pre_ln"), column_of(lines[2], "pre_ln"));
    }

    // A run short of its steps shows how far it is: "1200/5000"; the JSON says both. Without a final
    // validation loss it shows its latest as "~3.1000" (a NaN measured since passed over), sorts by it,
    // and the JSON gives it with its step; a finished run's is its final one.
    void aRunShortOfItsStepsShowsHowFar() {
        const QString path = dir_.filePath("training.sqlite");
        {
            normlab::Store s(path.toStdString());
            const int64_t id = s.create_run("long run", "ngpt", nlohmann::json{{"train", {{"steps", 5000}}}}, 1);
            s.mark_running(id, "cuda", nlohmann::json::object());
            const int64_t val = s.series_id(id, "val/loss");
            s.write_batch({{val, 1000, 3.1}, {val, 1200, std::nan("")}}, {}, id);
            s.heartbeat(id, 1200);
            const int64_t done = s.create_run("short run", "pre_ln", nlohmann::json{{"train", {{"steps", 100}}}}, 1);
            s.mark_running(done, "cpu", nlohmann::json::object());
            s.write_batch({{s.series_id(done, "val/loss"), 100, 3.5}}, {}, done);
            s.heartbeat(done, 100);
            s.finish_run(done, normlab::RunStatus::Finished, 100, "", 3.5);
        }
        Result r = cli({"list", "--store", path});
        QVERIFY2(r.code == 0 && r.out.contains(QRegularExpression("running +1200/5000 +~3.1000  ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression("finished +100 +3.5000  ")), qPrintable(r.out));
        QVERIFY2(r.out.contains("(~: the latest validation loss"), qPrintable(r.out));
        QCOMPARE(ids(cli({"list", "--sort", "val", "--store", path})), (QList<int>{1, 2}));
        QCOMPARE(ids(cli({"list", "--sort", "-val", "--store", path})), (QList<int>{2, 1}));
        QVERIFY(!list({}).out.contains("(~:"));   // no run without a final loss: no footnote
        r = cli({"show", "1", "2", "--store", path});   // show says the same, with the step
        QVERIFY2(r.out.contains("val loss    ~3.1000 (the latest, at step 1000; no final one yet)\n"), qPrintable(r.out));
        QVERIFY2(r.out.contains("val loss    3.5000\n"), qPrintable(r.out));
        r = cli({"list", "--json", "--store", path});
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        const QJsonObject o = a.first().toObject();
        QCOMPARE(o["steps"].toInt(), 1200);
        QCOMPARE(o["steps_total"].toInt(), 5000);
        QCOMPARE(o["device"].toString(), QString("cuda"));
        QVERIFY(o["val_loss"].isNull());
        QCOMPARE(o["val_loss_latest"].toObject()["step"].toInt(), 1000);
        QCOMPARE(o["val_loss_latest"].toObject()["value"].toDouble(), 3.1);
        QCOMPARE(a[1].toObject()["val_loss"].toDouble(), 3.5);
        QVERIFY(a[1].toObject()["val_loss_latest"].isNull());
    }

    // A store holding runs mirrored from a server (remote follow) lists where each trains, as the
    // window's Server column does; a store of local runs has no such column.
    void mirroredRunsNameTheirServer() {
        const QString path = dir_.filePath("mixed.sqlite");
        {
            normlab::Store s(path.toStdString());
            s.create_run("here", "pre_ln", nlohmann::json::object(), 1);
            const int64_t there = s.create_run("there", "ngpt", nlohmann::json::object(), 1);
            s.set_info(there, {{"remote", {{"dest", "gpu1"}, {"store", "/srv/runs.sqlite"}, {"run", 4}}}});
        }
        Result r = cli({"list", "--store", path});
        QStringList lines = r.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(r.code == 0 && lines.size() == 3 && lines[0].endsWith("created           server  tags"), qPrintable(r.out));
        QVERIFY2(lines[2].startsWith("2 ") && lines[2].endsWith("  gpu1"), qPrintable(r.out));
        QVERIFY2(!lines[1].contains("gpu1"), qPrintable(r.out));
        r = cli({"list", "--json", "--store", path});
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QVERIFY(a[0].toObject()["server"].isNull());
        const QJsonObject server = a[1].toObject()["server"].toObject();
        QCOMPARE(server["dest"].toString(), QString("gpu1"));
        QCOMPARE(server["run"].toInt(), 4);
        QCOMPARE(server["store"].toString(), QString("/srv/runs.sqlite"));
        QVERIFY(!list({}).out.contains("server"));   // local runs only
    }

    void badChoicesAreRefusedByName() {
        Result r = list({"--status", "finished,done"});
        QVERIFY2(r.code == 2 && r.err.contains("\"done\" is not a status") && r.err.contains("interrupted"), qPrintable(r.err));
        r = list({"--sort", "loss"});
        QVERIFY2(r.code == 2 && r.err.contains("--sort loss: give one of id, name, scheme, status, steps, val, created"),
                 qPrintable(r.err));
        r = list({"--last", "0"});
        QVERIFY2(r.code == 2 && r.err.contains("--last"), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }
};

QTEST_MAIN(TestCliList)
#include "test_cli_list.moc"
