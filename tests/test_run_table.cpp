// The run table used by hand. Its filter box picks runs by words and by
// comparisons of settings and loss (core/run_filter.h). From the keyboard: Ctrl+C
// copies the selected rows as a spreadsheet pastes them (the columns and rows in
// the order shown, whole keys and values where the panel shortens them), F2
// renames, Delete deletes after asking — and Delete typed in the filter deletes
// text, never runs.
#include "app/gui/mainwindow.h"
#include "core/store/store.h"
#include "widgets/runtable.h"
#include "widgets/table_copy.h"
#include "tests/designer_util.h"

#include <QApplication>
#include <QAbstractButton>
#include <QAction>
#include <QClipboard>
#include <QHeaderView>
#include <QInputDialog>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QtTest/QtTest>

using namespace normlab;

class TestRunTable : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Acts on the next modal dialog, whenever it comes up; `seen` gets its text.
    static void whenModal(QObject* owner, std::function<void(QWidget*)> act) {
        auto* t = new QTimer(owner);
        QObject::connect(t, &QTimer::timeout, owner, [t, act] {
            if (QWidget* w = QApplication::activeModalWidget()) {
                t->stop();
                t->deleteLater();
                act(w);
            }
        });
        t->start(30);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
    }

    void copyRenameDelete() {
        const QString path = dir_.filePath("keys.sqlite");
        const double lr = 0.00018566433578077863;
        {
            Store s(path.toStdString());
            const int64_t a = s.create_run("Post-LN", "post_ln", nlohmann::json{{"optim", {{"lr", 0.001}}}}, 1);
            s.finish_run(a, RunStatus::Finished, 10, "", 3.25);
            const int64_t b = s.create_run("Pre-LN", "pre_ln", nlohmann::json{{"optim", {{"lr", lr}}}}, 2);
            s.finish_run(b, RunStatus::Finished, 10, "", 3.5);
            s.set_notes(b, "two\tparts\nand a line");
            s.set_tags(b, {"paper", "seed 2"});
            const int64_t c = s.create_run("nGPT", "ngpt", nlohmann::json::object(), 3);
            s.finish_run(c, RunStatus::Finished, 10, "", 3.0);
        }
        MainWindow w(path);
        QVERIFY(w.switchLanguage("en"));   // as main() does: English, with its plurals
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTableView* table = w.runTable();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.selectRuns({1, 2});
        table->setFocus();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(table));
        QApplication::clipboard()->clear();

        // Ctrl+C: the header and the two rows, sorted as shown (by id, descending: the window's default)
        table->sortByColumn(RunTableModel::FinalLoss, Qt::DescendingOrder);
        QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
        QStringList lines = QApplication::clipboard()->text().split('\n');
        QCOMPARE(lines.size(), 4);   // header, two runs, and the last line's end
        QVERIFY(lines[3].isEmpty());
        QVERIFY2(lines[0].startsWith("#\tName\tScheme\tStatus\tVal loss\tSteps\tCreated\tTags\tNotes"), qPrintable(lines[0]));
        QVERIFY2(!lines[0].contains("Server") && !lines[0].contains("Store"), qPrintable(lines[0]));   // hidden here
        QVERIFY2(lines[1].startsWith("2\tPre-LN\tpre_ln\tfinished\t3.5000\t0\t"), qPrintable(lines[1]));
        QVERIFY2(lines[1].endsWith("\tpaper, seed 2\ttwo parts and a line"), qPrintable(lines[1]));   // no tab or line break inside
        QVERIFY2(lines[2].startsWith("1\tPost-LN\tpost_ln\tfinished\t3.2500\t0\t"), qPrintable(lines[2]));
        QCOMPARE(lines[1].count('\t'), lines[0].count('\t'));
        QCOMPARE(w.statusBar()->currentMessage(), QString("Copied 2 runs as tab-separated text"));

        // the panel of settings that differ: whole keys and values (it shows "lr" and 0.000185664)
        auto* diff = w.findChild<QTableWidget*>("differences");
        QVERIFY(diff);
        diff->setFocus();
        diff->selectAll();
        QTest::keyClick(diff, Qt::Key_C, Qt::ControlModifier);
        lines = QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.size() == 2 && lines[0] == "\t#1 Post-LN\t#2 Pre-LN", qPrintable(lines.join('|')));
        QString lr_line;
        for (const QString& l : lines)
            if (l.startsWith("optim.lr\t")) lr_line = l;
        QVERIFY2(!lr_line.isEmpty(), qPrintable(lines.join('|')));
        const QString stored = QString::fromStdString(nlohmann::json(lr).dump());
        QVERIFY2(lr_line.contains(stored) && lr_line.contains("\t0.001"), qPrintable(lr_line));
        QVERIFY2(w.statusBar()->currentMessage().startsWith("Copied "), qPrintable(w.statusBar()->currentMessage()));
        // its context menu's Copy, nothing selected: all of it
        QCOMPARE(diff->contextMenuPolicy(), Qt::ActionsContextMenu);
        auto* copy = diff->findChild<QAction*>("copyDifferences");
        QVERIFY(copy && copy->text() == "Co&py as text" && diff->actions().contains(copy));
        diff->clearSelection();
        QApplication::clipboard()->clear();
        copy->trigger();
        QCOMPARE(QApplication::clipboard()->text().split('\n', Qt::SkipEmptyParts), lines);

        // F2 renames the selected run
        w.selectRuns({3});
        table->setFocus();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(table));
        whenModal(&w, [](QWidget* d) {
            auto* input = qobject_cast<QInputDialog*>(d);
            if (!input) return static_cast<QDialog*>(d)->reject();
            input->setTextValue("nGPT, renamed");
            input->accept();
        });
        QTest::keyClick(table, Qt::Key_F2);
        QTRY_COMPARE(w.store().run(3)->name, std::string("nGPT, renamed"));

        // Delete typed in the filter deletes text: no question, no run gone
        auto* filter = w.findChild<QLineEdit*>();
        for (QLineEdit* e : w.findChildren<QLineEdit*>())
            if (e->placeholderText().startsWith("Filter runs")) filter = e;
        QVERIFY(filter);
        filter->setFocus();
        QTest::keyClicks(filter, "ng");
        QTest::keyClick(filter, Qt::Key_Home);
        QTest::keyClick(filter, Qt::Key_Delete);
        QCOMPARE(filter->text(), QString("g"));
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(w.store().runs().size(), size_t(3));
        filter->clear();

        // Delete in the table asks; No keeps the run, Yes deletes it
        w.activateWindow();   // again, after the rename's dialog: keys go to the focused table of the active window
        QVERIFY(QTest::qWaitForWindowActive(&w));
        w.selectRuns({3});
        table->setFocus();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget*>(table));
        QString asked;
        whenModal(&w, [&asked](QWidget* d) {
            auto* box = qobject_cast<QMessageBox*>(d);
            if (!box) return static_cast<QDialog*>(d)->reject();
            asked = box->text();
            box->button(QMessageBox::No)->click();
        });
        QTest::keyClick(table, Qt::Key_Delete);
        QVERIFY2(asked.startsWith("Delete 1 run and all its data?"), qPrintable(asked));
        QVERIFY(w.store().run(3));
        w.activateWindow();   // after the question
        QVERIFY(QTest::qWaitForWindowActive(&w));
        table->setFocus();
        whenModal(&w, [](QWidget* d) {
            auto* box = qobject_cast<QMessageBox*>(d);
            if (!box) return static_cast<QDialog*>(d)->reject();
            box->button(QMessageBox::Yes)->click();
        });
        QTest::keyClick(table, Qt::Key_Delete);
        QTRY_VERIFY(!w.store().run(3));
        QCOMPARE(w.store().runs().size(), size_t(2));
    }

    // The filter box: every word, a text or a comparison of a column or a setting; val reads the Val
    // loss column (a training run's latest); rows a reload adds are filtered too.
    void theFilterPicksBySettingsAndLoss() {
        const QString path = dir_.filePath("filter.sqlite");
        Store s(path.toStdString());
        auto add = [&](const char* name, const char* scheme, double lr, double val) {
            const int64_t id = s.create_run(name, scheme, nlohmann::json{{"optim", {{"lr", lr}}}, {"model", {{"n_layers", 4}}}}, 1);
            s.finish_run(id, RunStatus::Finished, 10, "", val);
            return id;
        };
        add("Pre-LN lr=3e-4", "pre_ln", 3e-4, 3.4);
        add("Pre-LN lr=1e-3", "pre_ln", 1e-3, 3.1);
        add("nGPT", "ngpt", 3e-3, 2.9);
        const int64_t live = s.create_run("nGPT long", "ngpt", nlohmann::json{{"optim", {{"lr", 3e-3}}}}, 2);
        s.mark_running(live, "cpu", nlohmann::json::object());
        s.write_batch({{s.series_id(live, "val/loss"), 100, 3.0}}, {}, live);
        s.set_tags(live, {"paper"});
        MainWindow w(path);
        auto* filter = w.findChild<QLineEdit*>("runFilter");
        QVERIFY(filter);
        QVERIFY(filter->toolTip().contains("lr&gt;=1e-3"));
        QAbstractItemModel* shown = w.runTable()->model();
        auto names = [&] {
            QStringList out;
            for (int r = 0; r < shown->rowCount(); ++r) out << shown->index(r, RunTableModel::Name).data().toString();
            out.sort();
            return out;
        };
        filter->setText("lr>=1e-3");
        QCOMPARE(names(), (QStringList{"Pre-LN lr=1e-3", "nGPT", "nGPT long"}));
        filter->setText("ngpt val<3.05");   // the running run's latest, 3.0, as its Val loss cell shows
        QCOMPARE(names(), (QStringList{"nGPT", "nGPT long"}));
        filter->setText("val<3.05 status=running");
        QCOMPARE(names(), (QStringList{"nGPT long"}));
        filter->setText("tag:pap");
        QCOMPARE(names(), (QStringList{"nGPT long"}));
        filter->setText("lr=3e-4");         // the name says it, and so does the setting
        QCOMPARE(names(), (QStringList{"Pre-LN lr=3e-4"}));
        filter->setText("n_layers=4 pre");
        QCOMPARE(names(), (QStringList{"Pre-LN lr=1e-3", "Pre-LN lr=3e-4"}));
        filter->setText("n_layer=4");       // shows nothing, and the status bar says why
        QCOMPARE(names(), QStringList{});
        QCOMPARE(w.statusBar()->currentMessage(), QString("n_layer=4: no run has a column or setting \"n_layer\"; did you mean n_layers?"));
        filter->setText("this store");      // the Store cell's text: here only where stores are compared
        QCOMPARE(names(), QStringList{});
        add("Pre-LN lr=2e-3", "pre_ln", 2e-3, 3.0);
        filter->setText("lr>1e-3 pre_ln");
        w.reloadRuns();
        QCOMPARE(names(), (QStringList{"Pre-LN lr=2e-3"}));
        filter->clear();
        QCOMPARE(shown->rowCount(), 5);
    }

    // The header's context menu ticks the columns shown: one unticked is hidden, in this window and the
    // next (QSettings), and left out of a copy; the name cannot be hidden; the Server column is offered
    // only where a run trains on a server.
    void columnsChosenFromTheHeader() {
        const QString path = dir_.filePath("columns.sqlite");
        {
            Store s(path.toStdString());
            const int64_t id = s.create_run("Pre-LN", "pre_ln", nlohmann::json::object(), 1);
            s.set_notes(id, "a note");
        }
        {
            MainWindow w(path);
            QHeaderView* header = w.runTable()->horizontalHeader();
            QCOMPARE(header->contextMenuPolicy(), Qt::ActionsContextMenu);
            auto* notes = header->findChild<QAction*>("column_notes");
            auto* name = header->findChild<QAction*>("column_name");
            auto* server = header->findChild<QAction*>("column_server");
            QVERIFY(notes && name && server);
            QCOMPARE(notes->text(), QString("Notes"));
            QVERIFY(notes->isChecked() && !name->isEnabled() && !server->isVisible());
            QVERIFY(!w.runTable()->isColumnHidden(RunTableModel::Notes));
            notes->trigger();   // unticked
            QVERIFY(w.runTable()->isColumnHidden(RunTableModel::Notes));
            w.selectRuns({1});
            w.runTable()->setFocus();
            QApplication::clipboard()->clear();
            w.findChild<QAction*>("copyRuns")->trigger();
            QVERIFY2(!QApplication::clipboard()->text().contains("Notes") && !QApplication::clipboard()->text().contains("a note"),
                     qPrintable(QApplication::clipboard()->text()));
            w.store().set_info(1, {{"remote", {{"dest", "gpu1"}, {"store", "/srv/runs.sqlite"}, {"run", 4}}}});
            w.reloadRuns();
            QVERIFY(server->isVisible() && !w.runTable()->isColumnHidden(RunTableModel::Host));
            server->trigger();   // the user's choice holds even where the column says something
            w.reloadRuns();
            QVERIFY(w.runTable()->isColumnHidden(RunTableModel::Host));
            server->trigger();
        }
        MainWindow again(path);
        QVERIFY(again.runTable()->isColumnHidden(RunTableModel::Notes));   // kept
        QVERIFY(!again.runTable()->isColumnHidden(RunTableModel::Host));
        again.runTable()->horizontalHeader()->findChild<QAction*>("column_notes")->trigger();
        QVERIFY(!again.runTable()->isColumnHidden(RunTableModel::Notes));
        QVERIFY(QSettings().value("runTable/hiddenColumns").toStringList().isEmpty());
    }

    // selectRowsText on its own: nothing selected is nothing; a view selecting cells copies the
    // selected columns only, a row hidden (filtered) is left out.
    void onlyWhatIsSelectedAndShown() {
        QTableWidget t(3, 3);
        t.setHorizontalHeaderLabels({"a", "b\nwrapped", "c"});
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) t.setItem(r, c, new QTableWidgetItem(QString("%1%2").arg(r).arg(c)));
        t.item(0, 2)->setData(kCopyRole, "whole");
        int rows = -1;
        QCOMPARE(selectedRowsText(t, &rows), QString());
        QCOMPARE(rows, 0);
        t.setSelectionBehavior(QAbstractItemView::SelectItems);
        t.verticalHeader()->hide();
        t.setRangeSelected(QTableWidgetSelectionRange(0, 1, 2, 2), true);
        t.setRowHidden(1, true);
        QCOMPARE(selectedRowsText(t, &rows), QString("b wrapped\tc\n01\twhole\n21\t22\n"));
        QCOMPARE(rows, 2);
        t.horizontalHeader()->moveSection(2, 0);   // columns in the order shown
        QCOMPARE(selectedRowsText(t), QString("c\tb wrapped\nwhole\t01\n22\t21\n"));
    }
};

QTEST_MAIN(TestRunTable)
#include "test_run_table.moc"
