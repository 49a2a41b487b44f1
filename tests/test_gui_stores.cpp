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
#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QStatusBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
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

    // Many runs selected while one of them trains (its row rewritten each second): the selection is one
    // range a stretch of rows, and a reload that changes rows in place leaves it alone, rereading no
    // settings but the changed run's — each row's settings still its own. A run's info written since
    // (followed from a server: its host) is said to have changed, so a table sorted by host sorts it.
    void manyRunsSelectedStayAsTheyAreWhileOneTrains() {
        const QString path = dir_.filePath("many.sqlite");
        std::vector<qint64> ids;
        {
            Store s(path.toStdString());
            for (int i = 0; i < 60; ++i) {
                const int64_t id = s.create_run("run " + std::to_string(i), i % 2 ? "pre_ln" : "post_ln",
                                                nlohmann::json{{"train", {{"seed", i}}}}, static_cast<uint64_t>(i));
                s.finish_run(id, RunStatus::Finished, 10, "", 2.0 + i);
                if (i != 30) ids.push_back(id);
            }
        }
        MainWindow w(path);
        w.selectRuns(ids);
        QCOMPARE(w.selectedRuns(), ids);
        QItemSelectionModel* sel = w.runTable()->selectionModel();
        QCOMPARE(sel->selection().size(), 2);   // rows 1..30 and 32..60: two ranges, not 59
        QSignalSpy changed(sel, &QItemSelectionModel::selectionChanged);
        {
            Store writer(path.toStdString());
            writer.heartbeat(5, 7);
            writer.set_info(7, {{"remote", {{"dest", "gpu1"}, {"store", "/srv/runs.sqlite"}, {"run", 3}}}});
        }
        w.runTable()->sortByColumn(RunTableModel::Host, Qt::DescendingOrder);
        w.reloadRuns();
        w.reloadRuns();
        QCOMPARE(changed.count(), 0);
        QCOMPARE(w.selectedRuns(), ids);
        QCOMPARE(w.runTable()->model()->index(0, RunTableModel::Id).data().toLongLong(), qint64(7));   // sorted again
        QCOMPARE(w.runTable()->model()->index(0, RunTableModel::Host).data().toString(), QString("gpu1"));
        Store plain(path.toStdString(), Store::Mode::ReadOnly);
        for (int row = 0; row < w.runModel()->rowCount(); ++row) {
            const RunInfo* r = w.runModel()->runAt(row);
            const RunInfo stored = *plain.run(r->id);
            QCOMPARE(r->config, stored.config);
            QCOMPARE(r->info, stored.info);
            QCOMPARE(r->steps_done, stored.steps_done);
        }
    }

    // Settings that differ show a number to six significant digits (a random search's learning rate took
    // the panel's width), the value as stored in its tooltip; a short one as it is, without a tooltip.
    void settingsThatDifferShowNumbersShort() {
        const QString path = dir_.filePath("numbers.sqlite");
        const double lr = 0.00018566433578077863;
        {
            Store s(path.toStdString());
            for (double v : {lr, 0.001}) {
                const int64_t id = s.create_run("lr", "pre_ln", nlohmann::json{{"optim", {{"lr", v}}}}, 1);
                s.finish_run(id, RunStatus::Finished, 10, "", 2.0);
            }
        }
        MainWindow w(path);
        w.selectRuns({1, 2});
        auto* diff = w.findChild<QTableWidget*>("differences");
        QVERIFY(diff);
        int row = -1;
        for (int r = 0; r < diff->rowCount(); ++r)
            if (diff->verticalHeaderItem(r)->toolTip() == "optim.lr") row = r;
        QVERIFY(row >= 0);
        QCOMPARE(diff->item(row, 0)->text(), QString("0.000185664"));
        QCOMPARE(diff->item(row, 0)->toolTip(), "As stored: " + QString::fromStdString(nlohmann::json(lr).dump()));
        QCOMPARE(diff->item(row, 1)->text(), QString("0.001"));
        QVERIFY(diff->item(row, 1)->toolTip().isEmpty());
    }

    // A setting only some runs record (the first trained by a version before it) differs: listed with
    // "—" for the run that has none, whichever run comes first; the scheme first, what the schemes
    // imply last.
    void aSettingSomeRunsLackDiffers() {
        const QString path = dir_.filePath("absent.sqlite");
        {
            Store s(path.toStdString());
            for (const nlohmann::json& c : {nlohmann::json{{"scheme", "post_ln"}, {"model", {{"layout", "post"}}}},
                                            nlohmann::json{{"scheme", "pre_ln"}, {"model", {{"layout", "pre"}}},
                                                           {"train", {{"precision", "bf16"}}}}}) {
                const int64_t id = s.create_run("r", c["scheme"], c, 1);
                s.finish_run(id, RunStatus::Finished, 10, "", 2.0);
            }
        }
        MainWindow w(path);
        for (const std::vector<qint64>& order : {std::vector<qint64>{1, 2}, std::vector<qint64>{2, 1}}) {
            w.showRuns(order);
            auto* diff = w.findChild<QTableWidget*>("differences");
            QStringList keys;
            for (int r = 0; r < diff->rowCount(); ++r) keys << diff->verticalHeaderItem(r)->toolTip().section(':', 0, 0);
            QCOMPARE(keys, (QStringList{"scheme", "train.precision", "model.layout"}));
            const int first = order[0] == 1 ? 0 : 1;   // run 1's column
            QCOMPARE(diff->item(1, first)->text(), QString::fromUtf8("—"));
            QCOMPARE(diff->item(1, 1 - first)->text(), QString("bf16"));
        }
    }

    // A run without a final validation loss (training, or ended by a kill) shows its latest one, in
    // italics and said so in its tooltip, and sorts by it; a validation that came out NaN is passed
    // over; the final value, once there, replaces it. A compared store's runs too.
    void valLossWhileTrainingIsTheLatest() {
        const QString path = dir_.filePath("latest.sqlite");
        const QString other = dir_.filePath("latest-other.sqlite");
        auto val = [](Store& s, int64_t run, int64_t step, double v) {
            s.write_batch({{s.series_id(run, "val/loss"), step, v}, {s.series_id(run, "train/loss"), step, 0.5}}, {}, run);
        };
        Store writer(path.toStdString());
        const int64_t done = writer.create_run("done", "pre_ln", nlohmann::json::object(), 1);
        writer.finish_run(done, RunStatus::Finished, 10, "", 3.0);
        const int64_t live = writer.create_run("live", "ngpt", nlohmann::json::object(), 2);
        writer.mark_running(live, "cpu", nlohmann::json::object());
        val(writer, live, 100, 3.5);
        writer.heartbeat(live, 100);
        {
            Store o(other.toStdString());
            const int64_t killed = o.create_run("killed", "post_ln", nlohmann::json::object(), 3);
            o.mark_running(killed, "cpu", nlohmann::json::object());
            val(o, killed, 50, 2.5);
            val(o, killed, 60, std::nan(""));
            o.set_status(killed, RunStatus::Interrupted, "killed");
        }
        MainWindow w(path);
        QString err;
        QVERIFY2(w.compareStore(other, &err), qPrintable(err));
        RunTableModel* m = w.runModel();
        auto cell = [&](int64_t id, Store* store, int role) {
            return m->index(m->rowOf(id, store), RunTableModel::FinalLoss).data(role);
        };
        Store* compared = m->storeAt(m->rowCount() - 1);
        QVERIFY(compared);
        QCOMPARE(cell(done, nullptr, Qt::DisplayRole).toString(), QString("3.0000"));
        QVERIFY(!cell(done, nullptr, Qt::FontRole).isValid());
        QCOMPARE(cell(live, nullptr, Qt::DisplayRole).toString(), QString("3.5000"));
        QVERIFY(cell(live, nullptr, Qt::FontRole).value<QFont>().italic());
        QVERIFY(cell(live, nullptr, Qt::ToolTipRole).toString().contains("step 100"));
        QVERIFY(m->headerData(RunTableModel::FinalLoss, Qt::Horizontal, Qt::ToolTipRole).toString().contains("in italics"));
        QCOMPARE(cell(1, compared, Qt::DisplayRole).toString(), QString("2.5000"));   // its NaN at 60 passed over
        QVERIFY(cell(1, compared, Qt::ToolTipRole).toString().contains("step 50"));
        w.runTable()->sortByColumn(RunTableModel::FinalLoss, Qt::AscendingOrder);
        QCOMPARE(w.runTable()->model()->index(0, RunTableModel::Name).data().toString(), QString("killed"));
        QCOMPARE(w.runTable()->model()->index(2, RunTableModel::Name).data().toString(), QString("live"));
        // the filter reads the Store column where stores are compared, and the Val loss column's latest
        auto* filter = w.findChild<QLineEdit*>("runFilter");
        filter->setText("latest-other");
        QCOMPARE(w.runTable()->model()->rowCount(), 1);
        filter->setText("\"this store\" val<3.6");
        QCOMPARE(w.runTable()->model()->rowCount(), 2);
        filter->setText("val<2.6");
        QCOMPARE(w.runTable()->model()->index(0, RunTableModel::Name).data().toString(), QString("killed"));
        QCOMPARE(w.runTable()->model()->rowCount(), 1);
        filter->clear();

        // A validation written after the step its row says: read at the next reload all the same.
        QSignalSpy changed(m, &QAbstractItemModel::dataChanged);
        val(writer, live, 200, 2.0);
        w.reloadRuns();
        QCOMPARE(cell(live, nullptr, Qt::DisplayRole).toString(), QString("2.0000"));
        QVERIFY(!changed.isEmpty());
        QCOMPARE(w.runTable()->model()->index(0, RunTableModel::Name).data().toString(), QString("live"));   // sorted again
        writer.finish_run(live, RunStatus::Finished, 200, "", 1.75);
        w.reloadRuns();
        QCOMPARE(cell(live, nullptr, Qt::DisplayRole).toString(), QString("1.7500"));
        QVERIFY(!cell(live, nullptr, Qt::FontRole).isValid());
        QVERIFY(!cell(live, nullptr, Qt::ToolTipRole).toString().contains("latest"));
    }
};

QTEST_MAIN(TestGuiStores)
#include "test_gui_stores.moc"
