// The runs table's Write text…: the selected runs' weights continue one prompt side by side,
// each column the text core's TextSampler writes with those options; a run whose weights are
// not here says why in its column and takes a checkpoint file instead; Stop and closing end the writing thread within a byte.
#include "app/gui/mainwindow.h"
#include "app/gui/sampledialog.h"
#include "core/data/data.h"
#include "core/store/store.h"
#include "core/train/sample.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTextEdit>
#include <QToolButton>
#include <QtTest/QtTest>

using namespace normlab;

class TestSampleDialog : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    std::vector<RunInfo> runs_;   // Post-LN and Pre-LN trained on the 8-symbol source; one without weights
    RunInfo slow_;

    // What a column shows of `bytes`: UTF-8, control characters (a line break and a tab aside) as U+FFFD.
    static QString shown(const std::string& bytes) {
        QString s = QString::fromUtf8(bytes.data(), static_cast<qsizetype>(bytes.size()));
        for (QChar& c : s)
            if ((c.unicode() < 0x20 && c != '\n' && c != '\t') || (c.unicode() >= 0x7f && c.unicode() < 0xa0)) c = QChar(0xfffd);
        return s;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        path_ = dir_.filePath("runs.sqlite");
        Store store(path_.toStdString());
        for (Scheme s : {Scheme::PostLN, Scheme::PreLN}) {
            const int64_t id = queue_run(store, test::tiny(s, 60));
            QCOMPARE(train_run(store, id).status, RunStatus::Finished);
            runs_.push_back(*store.run(id));
        }
        const int64_t none = store.create_run("no weights", "pre_ln", to_json(test::tiny(Scheme::PreLN, 60)), 1);
        runs_.push_back(*store.run(none));
        // a run whose bytes take milliseconds each from a full context of 512 (~3 ms here): 5000 of them
        // outlast any pause of the test
        RunConfig wide = test::tiny(Scheme::PreLN, 1);
        wide.model.context = 512;
        wide.model.d_model = 64;
        const int64_t slow = queue_run(store, wide);
        QCOMPARE(train_run(store, slow).status, RunStatus::Finished);
        slow_ = *store.run(slow);
    }

    void eachColumnIsItsRunsText() {
        SampleDialog d(runs_, 0);
        d.prompt()->setText("abc");
        d.bytes()->setValue(40);
        d.temperature()->setValue(0.8);
        d.topK()->setValue(8);
        d.seed()->setValue(4);
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        SampleOptions o;
        o.prompt = "abc";
        o.bytes = 40;
        o.temperature = 0.8;
        o.top_k = 8;
        o.seed = 4;
        for (int i = 0; i < 2; ++i) {
            const std::string text = TextSampler(runs_[static_cast<size_t>(i)]).write(o);
            QCOMPARE(d.textOf(i), "abc" + shown(text));
            QVERIFY2(d.headerOf(i).contains(QString("#%1 ").arg(runs_[static_cast<size_t>(i)].id)) &&
                         d.headerOf(i).contains("weights of step 60"),
                     qPrintable(d.headerOf(i)));
        }
        QVERIFY(d.textOf(0) != d.textOf(1));   // two models, the same draws
        QVERIFY2(d.textOf(2).contains("no weights") && d.textOf(2).contains("has no checkpoint yet") && !d.textOf(2).contains("--"),
                 qPrintable(d.textOf(2)));   // the reason, not the command line's option
        QVERIFY(!d.headerOf(2).contains("weights of step"));
        QVERIFY(d.findChild<QLabel*>("sampleStatus")->text().startsWith("Done"));
        QVERIFY(!d.findChild<QPushButton*>("sampleStop")->isEnabled());
        // again: the same text
        const QString first = d.textOf(0);
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        QCOMPARE(d.textOf(0), first);
        // Keep half the window past the context: past its 16 bytes, the text Slide::Half writes
        QVERIFY(!d.halve()->isChecked());
        d.halve()->setChecked(true);
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        o.slide = Slide::Half;
        for (int i = 0; i < 2; ++i) QCOMPARE(d.textOf(i), "abc" + shown(TextSampler(runs_[static_cast<size_t>(i)]).write(o)));
    }

    // Weights… above a column: a checkpoint file instead of the run's own (what `remote fetch
    // --checkpoint` brings for a run trained on a server). A run without weights here says so
    // and points at it; given a file, the column is the text those weights write, its header
    // names the file; a damaged file says so; the button waits while the thread writes.
    void aColumnWritesWithAFilesWeights() {
        SampleDialog d({runs_[2], runs_[0]}, 0);
        d.prompt()->setText("ab");
        d.bytes()->setValue(30);
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        auto* pick = d.findChild<QToolButton*>("sampleWeights0");
        QVERIFY(pick && pick->isEnabled() && pick->text() == "Weights…");
        QVERIFY2(d.textOf(0).contains("has no checkpoint yet") &&
                     d.textOf(0).endsWith("Weights… above this column writes with the weights of a checkpoint file."),
                 qPrintable(d.textOf(0)));

        const QString fetched = dir_.filePath("fetched.pt");
        QVERIFY(QFile::copy(QString::fromStdString(runs_[1].checkpoint), fetched));
        d.setWeights(0, fetched);
        QCOMPARE(d.weightsOf(0), fetched);
        QVERIFY2(d.headerOf(0).contains("weights from fetched.pt"), qPrintable(d.headerOf(0)));
        d.write();
        QVERIFY(!pick->isEnabled() || !d.writing());
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        QVERIFY(pick->isEnabled());
        SampleOptions o;
        o.prompt = "ab";
        o.bytes = 30;
        QCOMPARE(d.textOf(0), "ab" + shown(TextSampler(runs_[2], fetched.toStdString()).write(o)));
        QCOMPARE(d.textOf(0), "ab" + shown(TextSampler(runs_[1]).write(o)));   // Pre-LN's weights, whichever run they stand for
        QCOMPARE(d.textOf(1), "ab" + shown(TextSampler(runs_[0]).write(o)));  // the other column's own
        QVERIFY2(d.headerOf(0).contains("weights of step 60 from fetched.pt"), qPrintable(d.headerOf(0)));

        const QString bad = dir_.filePath("bad.pt");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not a checkpoint");
        }
        d.setWeights(0, bad);
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        QVERIFY2(d.textOf(0).startsWith("ab") && d.textOf(0).size() > 20 && !d.textOf(0).contains("above this column"),
                 qPrintable(d.textOf(0)));
        d.setWeights(0, dir_.filePath("gone.pt"));
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(!d.writing(), 60000);
        QVERIFY2(d.textOf(0).contains("gone.pt is not a file here") && d.textOf(0).contains("above this column"), qPrintable(d.textOf(0)));
        d.setWeights(0, QString());
        QVERIFY(!d.headerOf(0).contains("weights from"));
    }

    // Stop ends the writing at the byte it is at; so does closing the dialog (and destroying it).
    void stopAndCloseEndTheWriting() {
        SampleDialog d({slow_}, 0);
        d.prompt()->setText(QString(500, 'a'));   // every byte reads the whole context
        d.bytes()->setValue(5000);
        d.write();
        QVERIFY(d.writing());
        QVERIFY(d.findChild<QPushButton*>("sampleStop")->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(d.textOf(0).size() > 505, 60000);
        d.findChild<QPushButton*>("sampleStop")->click();
        QVERIFY(!d.writing());
        const int stopped = static_cast<int>(d.textOf(0).size()) - 500;
        QVERIFY2(stopped < 5000, qPrintable(QString::number(stopped)));
        QTest::qWait(200);
        QCOMPARE(static_cast<int>(d.textOf(0).size()) - 500, stopped);
        QCOMPARE(d.findChild<QLabel*>("sampleStatus")->text(), QString("Stopped."));
        d.write();
        QTRY_VERIFY_WITH_TIMEOUT(d.textOf(0).size() > 505, 60000);
        d.reject();
        QVERIFY(!d.writing());
        auto* later = new SampleDialog({slow_}, 0);
        later->bytes()->setValue(5000);
        later->write();
        delete later;   // joins its thread: nothing writes into a dialog that is gone
    }

    // More runs than fit side by side: the first four, and a line saying how many were left out.
    void moreThanFourRunsAreSaid() {
        std::vector<RunInfo> six(6, runs_[0]);
        SampleDialog d(six, 0);
        QCOMPARE(d.findChildren<QTextEdit*>().size(), qsizetype{4});
        const QString said = d.findChild<QLabel*>("sampleLeftOut")->text();
        QVERIFY2(said.startsWith("2 more selected run") && said.endsWith("left out: the first 4 are shown side by side."), qPrintable(said));
    }

    // The window: select runs, press Write text…: a dialog of their columns writes at once.
    void theWindowOpensItForTheSelection() {
        MainWindow w(path_);
        w.show();
        w.selectRuns({runs_[0].id, runs_[1].id});
        w.findChild<QPushButton*>("run_sample")->click();
        SampleDialog* d = w.findChild<SampleDialog*>();
        QVERIFY(d && d->isVisible());
        QCOMPARE(d->findChildren<QTextEdit*>().size(), qsizetype{2});
        QTRY_VERIFY_WITH_TIMEOUT(!d->writing(), 60000);
        SampleOptions o;   // the dialog's defaults
        o.prompt = "The ";
        QCOMPARE(d->textOf(0), "The " + shown(TextSampler(runs_[0]).write(o)));
        d->close();
        QTRY_VERIFY(!w.findChild<SampleDialog*>());   // deleted on close
    }
};

QTEST_MAIN(TestSampleDialog)
#include "test_sample_dialog.moc"
