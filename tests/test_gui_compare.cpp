// The desktop app, offscreen: saved runs compared side by side (each in its own
// colour in every view and across selections, the settings that differ, one
// colour scale for compared heatmaps) and every chart exported as PNG, SVG,
// PDF and CSV, File → Export chart… at a journal's double-column width; runs
// deleted from the run browser, or by another process while shown; the store compacted.
#include "app/gui/mainwindow.h"
#include "core/store/store.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/plot_figure.h"
#include "tests/designer_util.h"
#include "tests/window_util.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QProcess>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTableWidget>
#include <QHeaderView>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <unistd.h>

using namespace normlab;
using test::head;
using test::make_tiny;
using test::wait_idle;

namespace {
// Two finished runs, "without" and "with", of the configurations `cfg(false)` and `cfg(true)`: their ids.
std::vector<qint64> two_runs(const QString& path, const std::function<nlohmann::json(bool)>& cfg) {
    Store s(path.toStdString());
    std::vector<qint64> ids;
    for (bool on : {false, true}) {
        const int64_t id = s.create_run(on ? "with" : "without", "normformer", cfg(on), 1);
        s.mark_running(id, "cpu", nlohmann::json::object());
        s.finish_run(id, RunStatus::Finished, 0, "", 2.5);
        ids.push_back(id);
    }
    return ids;
}
}  // namespace

class TestGuiCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store() { return dir_.filePath("gui.sqlite"); }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        test::isolate_window_settings();
    }

    void comparingTwoRunsOverlaysBoth() {
        MainWindow w(store());
        make_tiny(w.designer(), 20);
        const qint64 a = w.runCurrent();
        wait_idle(w, a);
        // the status bar keeps the current run in view, and its end
        QVERIFY2(w.findChild<QLabel*>("runProgress")->text() == QString("Run #%1: finished").arg(a),
                 qPrintable(w.findChild<QLabel*>("runProgress")->text()));
        // one run: Settings that differ says how to compare instead of listing everything
        w.showRuns({a});
        auto* diff1 = w.findChild<QTableWidget*>("differences");
        QCOMPARE(diff1->rowCount(), 1);
        QVERIFY(diff1->item(0, 0)->text().contains("two or more"));
        w.designer()->setScheme(Scheme::PostLN);
        make_tiny(w.designer(), 20);
        const qint64 b = w.runCurrent();
        wait_idle(w, b);
        w.showRuns({a, b});
        auto& curves = w.charts()->lossChart()->curves();
        int trains = 0;
        QColor ca, cb;
        for (auto& c : curves) {
            // a run's label: its name, with its id only where the names clash
            auto is = [&](qint64 id) {
                const QString name = QString::fromStdString(w.store().run(id)->name);
                return c.label == name + " train" || c.label == QString("%1 (#%2) train").arg(name).arg(id);
            };
            if (is(a)) ++trains, ca = c.color;
            if (is(b)) ++trains, cb = c.color;
        }
        QCOMPARE(trains, 2);
        QVERIFY(ca != cb);
        auto* diff = w.findChild<QTableWidget*>("differences");
        QVERIFY(diff);
        QCOMPARE(diff->columnCount(), 2);
        bool layout_differs = false;
        for (int r = 0; r < diff->rowCount(); ++r)
            layout_differs |= diff->verticalHeaderItem(r)->toolTip().startsWith("model.layout") && diff->verticalHeaderItem(r)->text() == "layout";
        QVERIFY(layout_differs);
        // every row a line high, the first too (the one-run hint's four lines stayed with the scheme's row)
        for (int r = 0; r < diff->rowCount(); ++r)
            QVERIFY2(diff->rowHeight(r) == diff->verticalHeader()->defaultSectionSize(),
                     qPrintable(QString("row %1 (%2): %3 px").arg(r).arg(diff->verticalHeaderItem(r)->text()).arg(diff->rowHeight(r))));

        // A run keeps its colour whatever else is selected, in every view, and
        // a colour the user picks is kept with the run.
        w.designer()->setScheme(Scheme::NGPT);
        make_tiny(w.designer(), 10);
        const qint64 c = w.runCurrent();
        wait_idle(w, c);
        auto color_of = [&](qint64 id) {
            const QString name = QString::fromStdString(w.store().run(id)->name);
            for (auto& cv : w.charts()->lossChart()->curves())
                if (cv.label == name + " train" || cv.label == QString("%1 (#%2) train").arg(name).arg(id)) return cv.color;
            return QColor();
        };
        w.showRuns({b, c});
        QCOMPARE(color_of(b), cb);
        // Settings that differ: the scheme first, then what the runs chose (20 and 10 steps), then what
        // their schemes imply (Post-LN's and nGPT's layouts, norms, ...), those names grey.
        {
            QStringList keys;
            int chosen = -1, first_implied = -1;
            for (int r = 0; r < diff->rowCount(); ++r) {
                const QString tip = diff->verticalHeaderItem(r)->toolTip();
                keys << tip;
                if (tip == "train.steps") chosen = r;
                const bool implied = tip.endsWith("each run has its scheme's value");
                if (implied && first_implied < 0) first_implied = r;
                if (!implied) QVERIFY2(first_implied < 0, qPrintable("a chosen setting after an implied one: " + keys.join(" | ")));
                QCOMPARE(diff->verticalHeaderItem(r)->foreground().style() != Qt::NoBrush, implied);   // grey: a colour of its own
            }
            QCOMPARE(keys.value(0), QString("scheme"));
            QVERIFY2(chosen > 0 && first_implied > chosen, qPrintable(keys.join(" | ")));
            QVERIFY2(keys.contains("model.layout: each run has its scheme's value"), qPrintable(keys.join(" | ")));
        }
        w.showRuns({c, a, b});
        QCOMPARE(color_of(b), cb);
        QCOMPARE(color_of(a), ca);
        QCOMPARE(color_of(b), QColor(QString::fromStdString(w.store().run(b)->color)));
        // compared heatmaps share one colour scale unless asked otherwise
        w.showRuns({a, b});
        w.charts()->tabs()->setCurrentIndex(1);
        QTest::qWait(50);
        auto* h0 = w.charts()->findChild<Heatmap*>("heatmap0");
        auto* h1 = w.charts()->findChild<Heatmap*>("heatmap1");
        QVERIFY(h0 && h1);
        QCOMPARE(h0->minValue(), h1->minValue());
        QCOMPARE(h0->maxValue(), h1->maxValue());
        QCOMPARE(h0->minValue(), std::min(h0->dataMin(), h1->dataMin()));
        w.charts()->findChild<QCheckBox*>("heatShared")->setChecked(false);
        QCOMPARE(h0->maxValue(), h0->dataMax());
        QCOMPARE(h1->maxValue(), h1->dataMax());
        QVERIFY(h0->maxValue() != h1->maxValue());
        w.charts()->findChild<QCheckBox*>("heatShared")->setChecked(true);
        w.charts()->tabs()->setCurrentIndex(0);
        w.store().set_run_color(b, "#112233");
        w.showRuns({a, b});
        QCOMPARE(color_of(b), QColor("#112233"));
    }

    // Eight runs in a laptop's Settings that differ: the runs' headers wrap at their spaces, so that four
    // columns are in view beside the keys (two were, "#1 Post-LN seed=1" a line each); two runs in a wide
    // window keep theirs on one line, and a wrapped header's tooltip is the whole of it.
    void eightRunsShareTheSettingsPanel() {
        const QString path = dir_.filePath("eight.sqlite");
        const std::vector<qint64> ids = test::fill(path, 8, "Post-LN");
        MainWindow w(path);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showRuns(ids);
        QTest::qWait(50);
        auto* diff = w.findChild<QTableWidget*>("differences");
        QVERIFY(diff && diff->isVisible() && diff->width() < 400);
        QCOMPARE(diff->columnCount(), 8);
        const QFontMetrics hm(diff->horizontalHeader()->font());
        int in_view = 0;
        for (int c = 0; c < 8; ++c) {
            const QString text = diff->horizontalHeaderItem(c)->text();
            QVERIFY2(text.contains('\n'), qPrintable(text));
            QCOMPARE(diff->horizontalHeaderItem(c)->toolTip(), QString(text).replace('\n', ' '));
            QVERIFY2(diff->columnWidth(c) <= hm.horizontalAdvance("Post-LN") + 24, qPrintable(QString("%1: %2 px").arg(text).arg(diff->columnWidth(c))));
            if (diff->columnViewportPosition(c) + diff->columnWidth(c) <= diff->viewport()->width()) ++in_view;
        }
        QVERIFY2(in_view >= 4, qPrintable(QString("%1 runs in view of %2 px").arg(in_view).arg(diff->viewport()->width())));
        w.resize(1920, 1080);   // a panel with room: one line each
        w.resizeDocks({w.findChild<QDockWidget*>("diffDock")}, {600}, Qt::Horizontal);
        QTest::qWait(50);
        w.showRuns({ids[0], ids[1]});
        QTest::qWait(50);
        QCOMPARE(diff->horizontalHeaderItem(0)->text(), QString("#%1 Post-LN seed=1").arg(ids[0]));
    }

    // A key is shortened to the room the panel leaves it, and shown whole again when the panel is widened
    // (the keys were cut once, when the runs were chosen, to 160 px at most however wide the panel).
    void settingsKeysFollowThePanelsWidth() {
        const QString path = dir_.filePath("keys.sqlite");
        const std::vector<qint64> ids = two_runs(path, [](bool on) {
            return nlohmann::json{{"model", {{"normformer", {{"post_attn_norm", on}}}}}};
        });
        MainWindow w(path);
        w.resize(1600, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto* dock = w.findChild<QDockWidget*>("diffDock");
        w.resizeDocks({dock}, {240}, Qt::Horizontal);
        QTest::qWait(50);
        w.showRuns(ids);
        QTest::qWait(50);
        auto* diff = w.findChild<QTableWidget*>("differences");
        QCOMPARE(diff->rowCount(), 1);
        auto key = [&] { return diff->verticalHeaderItem(0)->text(); };
        const QString whole = "normformer.post_attn_norm";
        QVERIFY2(key().size() < whole.size() && key().endsWith("_norm"), qPrintable(key()));   // "n.pos…_norm"
        QCOMPARE(diff->verticalHeaderItem(0)->toolTip(), "model." + whole);
        w.resizeDocks({dock}, {600}, Qt::Horizontal);
        QTRY_COMPARE(key(), whole);
        w.resizeDocks({dock}, {240}, Qt::Horizontal);
        QTRY_VERIFY2(key() != whole, qPrintable(key()));
    }

    // Shortened, the keys of two groups that share a first letter stay apart: a NormFormer run beside an
    // nGPT one read "n.post_attn_norm" and "n.qk_norm", one group as far as the panel said.
    void shortenedKeysKeepTheirGroupsApart() {
        const QString path = dir_.filePath("groups.sqlite");
        const std::vector<qint64> ids = two_runs(path, [](bool on) {
            return nlohmann::json{{"model", {{"normformer", {{"post_attn_norm", on}, {"ffn_norm", on}}}, {"ngpt", {{"qk_norm", !on}}},
                                             {"deepnorm", {{"residual", on}}}}},
                                  {"data", {{"source", on ? "markov" : "english"}}},
                                  {"optim", {{"schedule", {{"min_lr_ratio", on ? 0.1 : 0.0}}}}}};
        });
        MainWindow w(path);
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.resizeDocks({w.findChild<QDockWidget*>("diffDock")}, {300}, Qt::Horizontal);
        QTest::qWait(50);
        w.showRuns(ids);
        QTest::qWait(50);
        auto* diff = w.findChild<QTableWidget*>("differences");
        std::map<QString, QString> shown;   // the whole key → as shown
        for (int r = 0; r < diff->rowCount(); ++r)
            shown[diff->verticalHeaderItem(r)->data(Qt::UserRole).toString()] = diff->verticalHeaderItem(r)->text();
        QCOMPARE(shown.size(), size_t(6));
        // each part whole, or a group in its short form (a panel this narrow shortens the longest keys)
        const std::map<QString, QString> short_forms = {{"normformer", "nf"}, {"ngpt", "ngpt"}, {"deepnorm", "dn"},
                                                        {"data", "data"}, {"optim", "o"}, {"schedule", "s"}};
        for (auto& [key, text] : shown) {
            const QStringList whole = (key.startsWith("model.") ? key.mid(6) : key).split('.'), parts = text.split('.');
            QVERIFY2(parts.size() == whole.size() && parts.last() == whole.last(), qPrintable(key + " shown as " + text));
            for (int i = 0; i + 1 < parts.size(); ++i)
                QVERIFY2(parts[i] == whole[i] || parts[i] == short_forms.at(whole[i]), qPrintable(key + " shown as " + text));
        }
        QCOMPARE(shown["model.normformer.post_attn_norm"], QString("nf.post_attn_norm"));
        QCOMPARE(shown["model.normformer.ffn_norm"], QString("nf.ffn_norm"));   // its group as its neighbour writes it, though it fits whole
        // each group written one way, no two groups alike
        std::map<QString, std::set<QString>> groups;   // as shown → the groups it stands for
        for (auto& [key, text] : shown) {
            const QStringList whole = (key.startsWith("model.") ? key.mid(6) : key).split('.');
            const QStringList parts = text.split('.');
            if (parts.size() == whole.size()) groups[parts[0]].insert(whole[0]);
        }
        for (auto& [text, of] : groups) QVERIFY2(of.size() == 1, qPrintable(text + " stands for several groups"));
    }

    void exportsWriteValidFiles() {
        MainWindow w(store());
        w.resize(1200, 800);
        w.show();
        make_tiny(w.designer(), 20);
        const qint64 id = w.runCurrent();
        wait_idle(w, id);
        w.showRuns({id});
        for (int tab : {0, 1, 2}) {
            w.charts()->tabs()->setCurrentIndex(tab);
            QTest::qWait(100);
            for (bool panel : {false, true}) {
                const QString stem = dir_.filePath(QString("fig%1%2").arg(tab).arg(panel ? "p" : "c"));
                QString err;
                QVERIFY2(w.charts()->exportCurrent(stem + ".png", "png", 300, panel, &err), qPrintable(err));
                QImage img(stem + ".png");
                QVERIFY(!img.isNull() && img.width() > 1000);            // 300 DPI: ~3× the screen size
                QVERIFY(w.charts()->exportCurrent(stem + ".svg", "svg", 300, panel, &err));
                QVERIFY(head(stem + ".svg", 400).contains("<svg"));
                QVERIFY(QFileInfo(stem + ".svg").size() > 1000);
                QVERIFY(w.charts()->exportCurrent(stem + ".pdf", "pdf", 300, panel, &err));
                QVERIFY(head(stem + ".pdf", 5) == "%PDF-");
                QVERIFY(QFileInfo(stem + ".pdf").size() > 1000);
            }
            QString err;
            QVERIFY(w.charts()->exportCurrent(dir_.filePath("data.csv"), "csv", 0, false, &err));
            QVERIFY(QFileInfo(dir_.filePath("data.csv")).size() > 50);
            if (tab == 0) {   // the panel's CSV: the loss and the learning rate, a column naming each (the rate had none)
                QVERIFY2(w.charts()->exportCurrent(dir_.filePath("panel.csv"), "csv", 0, true, &err), qPrintable(err));
                QFile f(dir_.filePath("panel.csv"));
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
                QCOMPARE(lines.value(0), QString("chart,curve,step,value"));
                QSet<QString> charts;
                for (int i = 1; i < lines.size(); ++i) charts.insert(lines[i].section(',', 0, 0));
                QCOMPARE(charts, (QSet<QString>{"\"Loss\"", "\"Learning rate\""}));
            }
        }
        QString err;
        QVERIFY(!w.charts()->exportCurrent(dir_.filePath("x.bmp"), "bmp", 300, false, &err));
        QVERIFY(err.contains("unknown format"));

        // File → Export chart… at a print size: double column, PDF; the page is 183 mm wide.
        w.charts()->tabs()->setCurrentIndex(0);
        QTest::qWait(50);
        const QString pdf = dir_.filePath("double-column.pdf");
        QAction* export_chart = nullptr;
        for (QAction* a : w.menuBar()->actions())
            if (a->menu())
                for (QAction* b : a->menu()->actions())
                    if (b->text() == "&Export chart…") export_chart = b;
        QVERIFY(export_chart);
        bool sized = false, saved = false;
        QTimer::singleShot(300, &w, [&] {
            auto* dlg = qobject_cast<QDialog*>(QApplication::activeModalWidget());
            if (!dlg) return;
            auto combos = dlg->findChildren<QComboBox*>();
            auto* size = dlg->findChild<QComboBox*>("exportSize");
            if (!size || combos.isEmpty()) return;
            combos.front()->setCurrentIndex(combos.front()->findData("pdf"));
            size->setCurrentIndex(2);   // double column
            sized = size->isEnabled();
            QTimer::singleShot(400, &w, [&] {
                if (auto* fd = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                    fd->setDirectory(QFileInfo(pdf).absolutePath());
                    if (auto* name = fd->findChild<QLineEdit*>("fileNameEdit")) name->setText(QFileInfo(pdf).fileName());
                    QMetaObject::invokeMethod(fd, "accept", Qt::QueuedConnection);
                    saved = true;
                }
            });
            dlg->accept();
        });
        export_chart->trigger();
        QVERIFY(sized);
        QVERIFY(saved);
        QTRY_VERIFY2_WITH_TIMEOUT(QFileInfo::exists(pdf), qPrintable(w.statusBar()->currentMessage()), 5000);
        QProcess info;
        info.start("pdfinfo", {pdf});
        QVERIFY(info.waitForFinished(30000));
        const QString out = QString::fromUtf8(info.readAllStandardOutput());
        const auto m = QRegularExpression("Page size:\\s+([0-9.]+) x ([0-9.]+) pts").match(out);
        QVERIFY2(m.hasMatch(), qPrintable(out));
        QVERIFY2(std::abs(m.captured(1).toDouble() - 183 / 25.4 * 72) < 1.5, qPrintable(out));
        // as high as the figure needs: its legend whole and a plot default_aspect × as high as wide
        const double h_mm = plot_height_mm(plot_spec(*w.charts()->lossChart()), 183, 8, default_aspect(183));
        QVERIFY2(std::abs(m.captured(2).toDouble() - h_mm / 25.4 * 72) < 1.5, qPrintable(out + QString(" want %1 mm").arg(h_mm)));
    }

    // Delete in the run browser: a run another process trains is refused before any run of the
    // selection is deleted; the others go with their checkpoints, and the status bar says what it freed.
    void deleteRefusesATrainingRunAndFreesCheckpoints() {
        const QString path = dir_.filePath("delete.sqlite");
        int64_t done = 0, live = 0;
        const std::string ckpt = path.toStdString() + ".checkpoints/run-1-step-20.pt";
        {
            Store s(path.toStdString());
            done = s.create_run("done", "pre_ln", nlohmann::json::object(), 1);
            s.finish_run(done, RunStatus::Finished, 20, "", 2.0);
            std::filesystem::create_directories(path.toStdString() + ".checkpoints");
            std::ofstream(ckpt) << std::string(2'000'000, 'x');
            s.set_checkpoint(done, ckpt);
            live = s.create_run("live", "pre_ln", nlohmann::json::object(), 1);
            QVERIFY(s.claim_run(live, RunStatus::Queued, "cpu", nlohmann::json::object()));   // as a normlab-cli would
        }
        MainWindow w(path);
        QVERIFY(w.switchLanguage("en"));   // as main() does: English, with its plurals
        w.show();
        w.reloadRuns();
        auto* table = w.findChild<QTableView*>("runTable");
        auto select = [&](std::vector<int64_t> ids) {
            table->clearSelection();
            for (int r = 0; r < table->model()->rowCount(); ++r)
                if (std::count(ids.begin(), ids.end(), table->model()->index(r, 0).data().toLongLong()))
                    table->selectionModel()->select(table->model()->index(r, 0),
                                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
            QCOMPARE(w.selectedRuns().size(), ids.size());
        };
        // Answers the next message box, whenever it comes up, and keeps what it said.
        QString said;
        auto answer = [&](QMessageBox::StandardButton button) {
            said.clear();
            auto* t = new QTimer(&w);
            connect(t, &QTimer::timeout, &w, [&said, t, button] {
                if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
                    said = box->text();
                    t->stop();
                    t->deleteLater();
                    if (auto* b = box->button(button)) b->click();
                    else box->reject();   // not the box expected: its text fails the check that follows
                }
            });
            t->start(50);
        };
        auto* del = w.findChild<QPushButton*>("run_delete");
        QVERIFY(del);
        select({done, live});
        answer(QMessageBox::Ok);
        del->click();
        QVERIFY2(said.contains(QString("Run #%1 is training in another process (pid %2").arg(live).arg(::getpid())), qPrintable(said));
        QCOMPARE(w.store().runs().size(), size_t(2));
        QVERIFY(std::filesystem::exists(ckpt));
        select({done});
        answer(QMessageBox::Yes);
        del->click();
        QVERIFY2(said.startsWith("Delete 1 run and all its data?"), qPrintable(said));   // not "1 run(s)"
        QVERIFY(!w.store().run(done));
        QVERIFY(!std::filesystem::exists(ckpt));
        QVERIFY2(w.statusBar()->currentMessage() ==
                     QString("Deleted 1 run; its checkpoints freed %1.").arg(QLocale().formattedDataSize(2000000)),
                 qPrintable(w.statusBar()->currentMessage()));
        // A run mirrored from a server (running there): deleted here, and the question says it stays there.
        const int64_t mirrored = w.store().create_run("mirrored", "pre_ln", nlohmann::json::object(), 1);
        w.store().set_status(mirrored, RunStatus::Running);
        w.store().set_info(mirrored, {{"remote", {{"dest", "gpu1"}, {"store", "/srv/runs.sqlite"}, {"run", 4}}}});
        w.reloadRuns();
        select({mirrored});
        answer(QMessageBox::Yes);
        del->click();
        QVERIFY2(said.contains("deleted here only"), qPrintable(said));
        QVERIFY(!w.store().run(mirrored));
        // A run shown in the charts and deleted by another process (normlab-cli delete in a terminal):
        // it leaves the table and the charts at the next refresh.
        const int64_t elsewhere = w.store().create_run("elsewhere", "pre_ln", nlohmann::json::object(), 1);
        w.store().finish_run(elsewhere, RunStatus::Finished, 5, "", 2.0);
        w.reloadRuns();
        select({elsewhere});
        QTRY_COMPARE(w.charts()->runs().size(), size_t(1));
        // a run added (a new row resets the table) keeps the selection
        Store(path.toStdString()).create_run("queued meanwhile", "pre_ln", nlohmann::json::object(), 1);
        w.reloadRuns();
        QCOMPARE(w.selectedRuns(), std::vector<qint64>{elsewhere});
        Store(path.toStdString()).delete_run(elsewhere);
        QTRY_VERIFY_WITH_TIMEOUT(w.charts()->runs().empty(), 5000);
        QTRY_VERIFY(w.selectedRuns().empty());
        // File → Compact store gives back what a deleted run's rows took
        const int64_t bulk = w.store().create_run("bulk", "pre_ln", nlohmann::json::object(), 1);
        {
            RunWriter rw(w.store(), bulk, 1e9);
            for (int step = 0; step < 60000; ++step) rw.scalar("train/loss", step, 1.0 / (step + 1));
        }
        w.store().finish_run(bulk, RunStatus::Finished, 60000, "", 2.0);
        w.reloadRuns();
        select({bulk});
        answer(QMessageBox::Yes);
        del->click();
        QVERIFY(!w.store().run(bulk));
        auto* compact = w.findChild<QAction*>("compactStore");
        QVERIFY(compact);
        auto size = [&] {
            std::error_code ec;
            const auto wal = std::filesystem::file_size(path.toStdString() + "-wal", ec);
            return std::filesystem::file_size(path.toStdString()) + (ec ? 0 : wal);
        };
        const auto before = size();
        answer(QMessageBox::Yes);
        compact->trigger();
        QVERIFY2(said.contains("free in the store's file"), qPrintable(said));
        QVERIFY2(w.statusBar()->currentMessage().startsWith("Store compacted: "), qPrintable(w.statusBar()->currentMessage()));
        QVERIFY2(size() < before / 2, qPrintable(QString("%1 → %2").arg(before).arg(size())));
        compact->trigger();   // again: nothing left to give back, and no question
        QVERIFY2(w.statusBar()->currentMessage().contains("nothing to compact"), qPrintable(w.statusBar()->currentMessage()));
    }
};

QTEST_MAIN(TestGuiCompare)
#include "test_gui_compare.moc"
