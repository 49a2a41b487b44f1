// The window's stores changed under it by other processes: a store compared
// while a terminal's normlab-cli writes into it, deletes runs and compacts it
// shows what it holds now, and, replaced by another file, its runs as last
// read, saying why; its own store's file deleted or replaced is said at once,
// and once back, the window goes on.
#include "app/gui/mainwindow.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"
#include "tests/designer_util.h"

#include <QFile>
#include <QLabel>
#include <QStatusBar>
#include <QTableView>
#include <QtTest/QtTest>

using namespace normlab;

class TestGuiStores : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
    }

    // A store compared while no process had it open, then written by one (a
    // terminal's normlab-cli): its new run joins the table, and its curves are
    // its own, not a mix of the file's two states. Replaced meanwhile by
    // something that is not a store, its runs stay as last read and the status
    // bar says why; the window goes on.
    void aComparedStoreFollowsItsWritersAndOutlivesItsFile() {
        const QString own = dir_.filePath("cmp-own.sqlite"), other = dir_.filePath("cmp-other.sqlite");
        auto add = [](const QString& path, const char* name, double offset, int n) {
            Store s(path.toStdString());
            const int64_t id = s.create_run(name, "pre_ln", nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            {
                RunWriter rw(s, id, 1e9);
                for (int i = 0; i < n; ++i) rw.scalar("train/loss", i, offset + 1.0 / (i + 1));
            }
            s.finish_run(id, RunStatus::Finished, n, "", offset);
            return id;
        };
        add(own, "mine", 0.0, 10);
        const int64_t first = add(other, "first", 1.0, 20000);
        MainWindow w(own);
        QString err;
        QVERIFY2(w.compareStore(other, &err), qPrintable(err));
        QCOMPARE(w.runModel()->rowCount(), 2);
        {
            Store writer(other.toStdString());   // the first run deleted, another trained, the file compacted
            writer.delete_run(first);
            writer.compact();
        }
        const int64_t later = add(other, "later", 2.0, 30000);
        w.reloadRuns();
        QCOMPARE(w.runModel()->rowCount(), 2);
        const int row = w.runModel()->rowOf(later, w.runModel()->storeAt(1));
        QCOMPARE(row, 1);
        QCOMPARE(w.runModel()->runAt(row)->name, std::string("later"));
        w.runTable()->selectAll();
        QTest::qWait(50);
        auto last_of = [&](const QString& name) {
            for (auto& c : w.charts()->lossChart()->curves())
                if (c.label.startsWith(name + " ")) return std::make_pair(c.y.size(), c.y.back());
            return std::make_pair(size_t(0), 0.0);
        };
        QCOMPARE(last_of("later").second, 2.0 + 1.0 / 30000);
        QVERIFY(QFile::rename(other, other + ".away"));
        {
            QFile junk(other);
            QVERIFY(junk.open(QIODevice::WriteOnly));
            junk.write("not a run store");
        }
        w.reloadRuns();
        w.charts()->refresh(w.store());
        QCOMPARE(w.runModel()->rowCount(), 2);
        QCOMPARE(w.runModel()->runAt(1)->name, std::string("later"));
        QCOMPARE(w.charts()->runs().size(), size_t(2));
        QCOMPARE(last_of("later").second, 2.0 + 1.0 / 30000);
        const QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.startsWith("Cannot read a run store: ") && said.contains(other) &&
                     said.endsWith("Its runs are shown as they were last read."),
                 qPrintable(said));
        QVERIFY(QFile::remove(other));
        QVERIFY(QFile::rename(other + ".away", other));
        add(other, "after", 3.0, 5);   // back, and written again: read as it is
        w.reloadRuns();
        QCOMPARE(w.runModel()->rowCount(), 3);
    }

    // Its own store's file moved away (or deleted, or another file put in its place) while the
    // window has it open: what the window would save goes nowhere, and the status bar says so
    // within seconds, not at the next edit; the file back, the notice goes.
    void itsOwnStoresFileGoneIsSaid() {
        const QString path = dir_.filePath("own-gone.sqlite");
        {
            Store s(path.toStdString());
            s.create_run("kept", "pre_ln", nlohmann::json::object(), 1);
        }
        MainWindow w(path);
        w.show();
        QLabel* status = nullptr;
        for (auto* l : w.statusBar()->findChildren<QLabel*>())
            if (l->text().contains("Store: ")) status = l;
        QVERIFY(status);
        QVERIFY(!status->text().contains("deleted"));
        QVERIFY(QFile::rename(path, path + ".moved"));
        QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().startsWith("The run store " + path + " was deleted after this process opened it"),
                                 10000);
        QVERIFY2(status->text().contains("(its file was deleted or replaced)"), qPrintable(status->text()));
        QVERIFY(QFile::rename(path + ".moved", path));
        QTRY_VERIFY_WITH_TIMEOUT(w.statusBar()->currentMessage().isEmpty(), 10000);
        QTRY_VERIFY(!status->text().contains("deleted"));
        w.store().rename_run(1, "renamed");   // saved again
        QCOMPARE(Store(path.toStdString(), Store::Mode::ReadOnly).run(1)->name, std::string("renamed"));
    }
};

QTEST_MAIN(TestGuiStores)
#include "test_gui_stores.moc"
