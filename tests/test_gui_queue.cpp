// The window's queue when its runs change outside it: the window killed
// outright leaves no run queued with nobody to train it (they read
// interrupted, which its Resume takes); a queued run cancelled (normlab-cli
// cancel), deleted or started by another process before its turn is skipped,
// not failed, and the queue goes on.
#include "app/gui/mainwindow.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/store/store.h"
#include "core/train/trainer.h"
#include "tests/test_util.h"
#include "tests/window_util.h"

#include <QProcess>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

using namespace normlab;

class TestGuiQueue : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    // The window killed outright (kill -9, the OOM killer, a crash) with runs in its queue: they show
    // as interrupted, which its Resume takes, not queued with nobody to train them.
    void aKilledWindowLeavesNoRunQueued() {
        const QString exp = dir_.filePath("two.json");
        test::write_endless_experiment(exp, "two", {{{"scheme", "pre_ln"}}, {{"scheme", "post_ln"}}});
        const QString st = dir_.filePath("killed.sqlite");
        QProcess app;
        QVERIFY(test::start_app_training(app, QStringLiteral(NORMLAB_APP), dir_.path(), st, exp));
        QVERIFY(QTest::qWaitFor([&] { return test::trains_past_step_5(st, 1); }, 60000));
        QCOMPARE(Store(st.toStdString(), Store::Mode::ReadOnly).run(2)->status, RunStatus::Queued);
        app.kill();
        QVERIFY(app.waitForFinished(10000));
        MainWindow w(st);
        for (qint64 id : {1, 2}) QCOMPARE(w.store().run(id)->status, RunStatus::Interrupted);
    }

    void aRunNoLongerQueuedIsSkipped() {
        const QString st = dir_.filePath("skip.sqlite");
        int64_t first, cancelled, deleted, last;
        {
            Store s(st.toStdString());
            first = queue_run(s, test::tiny(Scheme::PreLN, 5));
            cancelled = queue_run(s, test::tiny(Scheme::PostLN, 5));
            deleted = queue_run(s, test::tiny(Scheme::DeepNorm, 5));
            last = queue_run(s, test::tiny(Scheme::NGPT, 5));
        }
        TrainingWorker worker(st);
        QSignalSpy ended(&worker, &TrainingWorker::runEnded);
        for (int64_t id : {first, cancelled, deleted, last}) worker.enqueue(id);
        {
            // As normlab-cli cancel and delete do, before the worker gets to them.
            Store s(st.toStdString());
            QVERIFY(s.cancel_queued(cancelled, "cancelled before it started (normlab-cli cancel)"));
            s.delete_run(deleted);
        }
        QTRY_COMPARE_WITH_TIMEOUT(ended.count(), 4, 120000);
        std::map<qint64, std::pair<QString, QString>> got;
        for (auto& args : ended) got[args.at(0).toLongLong()] = {args.at(1).toString(), args.at(2).toString()};
        QCOMPARE(got[first].first, QString("finished"));
        QCOMPARE(got[cancelled].first, QString("cancelled"));
        QVERIFY2(got[cancelled].second.contains("skipped"), qPrintable(got[cancelled].second));
        QCOMPARE(got[deleted].first, QString("deleted"));
        QCOMPARE(got[last].first, QString("finished"));
        Store s(st.toStdString(), Store::Mode::ReadOnly);
        QCOMPARE(s.run(cancelled)->status, RunStatus::Cancelled);
        QVERIFY2(s.run(cancelled)->message.find("normlab-cli cancel") != std::string::npos, s.run(cancelled)->message.c_str());
    }
};

QTEST_MAIN(TestGuiQueue)
#include "test_gui_queue.moc"
