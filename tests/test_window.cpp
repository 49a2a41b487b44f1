// The window as a user sizes and drives it (issue 24, items 6, 7, 9): it never
// resizes itself whatever it shows, at a laptop's 1280×720 and at 1920×1080,
// in English, German and Chinese; axis labels never collapse to "…"; a pinned
// readout never outlives what it described; every run shown has its own
// colour, across stores.
#include "app/gui/mainwindow.h"
#include "core/store/store.h"
#include "core/train/probes.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/heatmap.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"
#include "tests/window_util.h"

#include <QApplication>
#include <QTimer>
#include <QSettings>
#include <QPushButton>
#include <QMessageBox>
#include <QLineEdit>
#include <QFileDialog>
#include <QChart>
#include <QCheckBox>
#include <QChartView>
#include <QComboBox>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QLegend>
#include <QLegendMarker>
#include <QDockWidget>
#include <QMouseEvent>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <set>

using namespace normlab;
using normlab::test::fill;

namespace {

void settle() {
    for (int i = 0; i < 8; ++i) QApplication::processEvents(QEventLoop::AllEvents, 20);
    QTest::qWait(50);
}

// A first start: no window geometry or panel layout remembered.
void forgetLayout() {
    QSettings().remove("geometry");
    QSettings().remove("windowState");
}

// `w` in English at a laptop's 1280×720 showing `ids` on the Gradients tab; the tab's scroll area
// (null where English could not be chosen).
QScrollArea* laptopGradients(MainWindow& w, const std::vector<qint64>& ids) {
    if (!w.switchLanguage("en")) return nullptr;
    w.resize(1280, 720);
    w.show();
    settle();
    w.showRuns(ids);
    w.charts()->tabs()->setCurrentIndex(1);
    settle();
    return qobject_cast<QScrollArea*>(w.charts()->tabs()->widget(1));
}

}  // namespace

class TestWindow : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QSettings().clear();   // no form or layout left by an earlier run of these tests
    }

    // Item 7: opening every view with 1 to 8 runs leaves the window the size the user gave it; the
    // run table and the status bar stay in it; the heatmaps keep their axes.
    void theWindowNeverResizesItself() {
        const QString path = dir_.filePath("grow.sqlite");
        const auto ids = fill(path, 8, "Pre-LN");
        for (const QSize size : {QSize(1280, 720), QSize(1920, 1080)})
            for (const char* lang : {"en", "de", "zh_CN"}) {
                MainWindow w(path);
                QVERIFY(w.switchLanguage(lang));
                w.resize(size);
                w.show();
                settle();
                const QSize start = w.size();
                for (int n : {1, 4, 8}) {
                    w.showRuns(std::vector<qint64>(ids.begin(), ids.begin() + n));
                    for (int tab = 0; tab < w.charts()->tabs()->count(); ++tab) {
                        w.charts()->tabs()->setCurrentIndex(tab);
                        settle();
                        const QString what = QString("%1 at %2×%3, %4 runs, tab %5").arg(lang).arg(size.width()).arg(size.height()).arg(n).arg(tab);
                        QVERIFY2(w.size() == start, qPrintable(what + QString(": grew to %1×%2").arg(w.width()).arg(w.height())));
                        QVERIFY2(w.statusBar()->isVisible() && w.statusBar()->geometry().bottom() <= w.height(), qPrintable(what));
                        QVERIFY2(w.runTable()->isVisible() && w.runTable()->height() >= 60, qPrintable(what + QString(": run table %1 px").arg(w.runTable()->height())));
                        if (qEnvironmentVariableIsSet("NORMLAB_SCREENSHOTS") && n == 4)   // to look at: tests/test_window with it set
                            w.grab().save(QString("%1/window-%2-%3x%4-tab%5.png").arg(qEnvironmentVariable("NORMLAB_SCREENSHOTS"), lang)
                                              .arg(size.width()).arg(size.height()).arg(tab));
                        if (tab == 1)
                            for (auto* h : w.charts()->findChildren<Heatmap*>())
                                if (h->isVisible()) QVERIFY2(h->height() >= 110, qPrintable(what + QString(": heatmap %1 px high").arg(h->height())));
                    }
                }
            }
    }

    // Item 6: axis labels in the window — never "…", 3 or more on every axis of every chart at 1280×720
    // and 1600×1000, in one notation on log axes, none left behind by a change of selection.
    void axisLabelsStayReadable() {
        const QString own = dir_.filePath("labels.sqlite"), other = dir_.filePath("labels-other.sqlite");
        const auto ids = fill(own, 2, "Post-LN");
        fill(other, 2, "Pre-LN", 30.0);
        for (const QSize size : {QSize(1280, 720), QSize(1600, 1000)}) {
            MainWindow w(own);
            QVERIFY(w.switchLanguage("en"));
            w.resize(size);
            w.show();
            QString err;
            QVERIFY2(w.compareStore(other, &err), qPrintable(err));
            auto check = [&](const QString& what) {
                for (int tab : {0, 1, 3, 4}) {
                    w.charts()->tabs()->setCurrentIndex(tab);
                    settle();
                    for (auto* c : w.charts()->findChildren<LineChart*>()) {
                        if (!c->isVisible() || c->curves().empty()) continue;
                        // what Qt Charts draws on the axes, after its own eliding: the scene's text items outside the legend
                        auto in_legend = [&](QGraphicsItem* item) {
                            for (QGraphicsItem* p = item; p; p = p->parentItem())
                                if (p == c->chart()->legend()) return true;
                            return false;
                        };
                        int drawn = 0;
                        for (QGraphicsItem* item : c->chart()->scene()->items())
                            if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && !in_legend(item) && ++drawn)
                                QVERIFY2(!t->toPlainText().contains(QString::fromUtf8("…")) && !t->toPlainText().contains("..."),
                                         qPrintable(QString("%1, %2×%3, tab %4, %5 draws \"%6\"").arg(what).arg(size.width()).arg(size.height())
                                                        .arg(tab).arg(c->objectName(), t->toPlainText())));
                        QVERIFY2(drawn >= 6, qPrintable(QString("%1: %2 texts on the axes").arg(c->objectName()).arg(drawn)));   // labels and titles
                        for (const QStringList& labels : {c->xTickLabels(), c->yTickLabels()}) {
                            const QString where = QString("%1, %2×%3, tab %4, %5: %6").arg(what).arg(size.width()).arg(size.height()).arg(tab)
                                                      .arg(c->objectName(), labels.join(" "));
                            QVERIFY2(labels.size() >= 3, qPrintable(where));
                            QVERIFY2(!labels.join("").contains("…"), qPrintable(where));
                            QVERIFY2(QSet<QString>(labels.begin(), labels.end()).size() == labels.size(), qPrintable(where));   // none twice
                            bool e = false, plain = false;
                            for (auto& l : labels) (l.contains('e') ? e : plain) = true;
                            QVERIFY2(!(e && plain), qPrintable(where));   // not 0.0001 beside 1e-05
                        }
                    }
                }
            };
            w.showRuns({ids[0]});
            check("own run");
            w.charts()->setRuns(std::vector<std::pair<Store*, int64_t>>{}, w.store());
            for (int i = 0; i < 2; ++i) w.runTable()->selectAll();
            settle();
            check("all runs, both stores");
            w.showRuns({ids[1]});
            check("one run again");
        }
    }

    // Item 9: two stores whose runs have the same stored colours (both stores' run 1 is blue): every run
    // shown has its own colour, the same in the table, the charts and the settings that differ.
    void coloursAreDistinctAcrossStores() {
        const QString own = dir_.filePath("colours.sqlite"), other = dir_.filePath("colours-other.sqlite");
        fill(own, 3, "Post-LN");
        fill(other, 3, "Pre-LN");
        MainWindow w(own);
        w.resize(1280, 720);
        w.show();
        QString err;
        QVERIFY2(w.compareStore(other, &err), qPrintable(err));
        settle();
        w.runTable()->selectAll();
        settle();
        w.charts()->tabs()->setCurrentIndex(0);
        settle();
        std::set<QString> colours;
        size_t train = 0;
        for (auto& c : w.charts()->lossChart()->curves())
            if (c.part == "train") colours.insert(c.color.name()), ++train;
        QCOMPARE(train, size_t(6));
        QCOMPARE(colours.size(), size_t(6));
        std::set<QString> table;
        for (int row = 0; row < w.runModel()->rowCount(); ++row) {
            const QColor c = w.runModel()->data(w.runModel()->index(row, RunTableModel::Name), Qt::DecorationRole).value<QColor>();
            table.insert(c.name());
        }
        QVERIFY2(table == colours, "the table shows each run in its chart colour");
    }

    // Item 8: a run resumed by another process (normlab-cli resume) is drawn live, without reselecting it.
    void aResumedRunIsDrawnLive() {
        const QString path = dir_.filePath("resumed.sqlite");
        int64_t id = 0;
        {
            Store s(path.toStdString());
            id = s.create_run("Pre-LN", "pre_ln", nlohmann::json::object(), 1);
            s.mark_running(id, "cpu", nlohmann::json::object());
            RunWriter w(s, id);
            for (int i = 0; i <= 100; ++i) w.scalar("train/loss", i, 5.0 - 0.01 * i);
            w.flush();
            s.finish_run(id, RunStatus::Interrupted, 100, "killed", 4.0);
        }
        MainWindow w(path);
        w.resize(1280, 720);
        w.show();
        w.showRuns({id});
        settle();
        QCOMPARE(w.charts()->lossChart()->curves().at(0).x.back(), 100.0);
        Store s(path.toStdString());   // the resume, as normlab-cli resume writes it
        s.mark_running(id, "cpu", nlohmann::json::object());
        RunWriter writer(s, id);
        for (int i = 101; i <= 150; ++i) writer.scalar("train/loss", i, 4.0 - 0.01 * (i - 100));
        writer.flush();
        QTRY_VERIFY_WITH_TIMEOUT(!w.charts()->lossChart()->curves().empty() && w.charts()->lossChart()->curves().at(0).x.back() == 150.0, 10000);
    }

    // Item 14: Quit with form edits not saved asks; Cancel keeps the window and the edits, Save writes
    // the experiment, and the next start shows the form as it was left; Discard forgets the edits.
    void quitAsksAboutUnsavedFormEditsAndTheFormComesBack() {
        const QString path = dir_.filePath("form.sqlite");
        const QString saved = dir_.filePath("edited.json");
        auto answer = [](QMessageBox::StandardButton button, const QString& file = {}) {
            QTimer::singleShot(200, [=] {
                auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
                if (!box || box->objectName() != "unsavedForm") return;
                if (!file.isEmpty())
                    QTimer::singleShot(300, [=] {
                        if (auto* fd = qobject_cast<QFileDialog*>(QApplication::activeModalWidget())) {
                            fd->setDirectory(QFileInfo(file).absolutePath());
                            if (auto* name = fd->findChild<QLineEdit*>("fileNameEdit")) name->setText(QFileInfo(file).fileName());
                            QMetaObject::invokeMethod(fd, "accept", Qt::QueuedConnection);
                        }
                    });
                box->button(button)->click();
            });
        };
        {
            MainWindow w(path);
            w.show();
            auto* lr = qobject_cast<QLineEdit*>(w.designer()->field("optim.lr"));
            lr->setText("0.0042");
            QVERIFY(w.designer()->isModified());
            answer(QMessageBox::Cancel);
            QVERIFY(!w.close());                       // asked, and stayed
            QVERIFY(w.isVisible());
            QCOMPARE(lr->text(), QString("0.0042"));
            answer(QMessageBox::Save, saved);
            QVERIFY(w.close());
            QVERIFY(QFileInfo::exists(saved));
        }
        {
            MainWindow again(path);
            QCOMPARE(again.designer()->experimentPath(), saved);
            QCOMPARE(qobject_cast<QLineEdit*>(again.designer()->field("optim.lr"))->text(), QString("0.0042"));
            QVERIFY(!again.designer()->isModified());
            qobject_cast<QLineEdit*>(again.designer()->field("optim.lr"))->setText("0.005");   // an edit never saved ...
            again.show();
            answer(QMessageBox::Discard);
            QVERIFY(again.close());
        }
        MainWindow third(path);   // ... is forgotten when the user says so; the file stays as saved
        QVERIFY(third.designer()->experimentPath().isEmpty());
        QVERIFY(!third.designer()->isModified());
        QFile f(saved);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("0.0042"));
        // A form state of other types (hand-edited, another version's) opens a window with its form
        // as it can: nlohmann's value() threw out of the constructor, at every start.
        QSettings().setValue("form", R"({"form": {}, "path": 3, "variant": "x", "saved": 7})");
        MainWindow odd(path);
        QVERIFY(odd.designer()->experimentPath().isEmpty());
        QSettings().remove("form");
    }

    // A first start (no saved geometry) opens a window inside the screen's work area, with room for
    // a frame: it opened at 1500×950 whatever the screen, so on a laptop the runs table and the status
    // bar lay below its edge. (The offscreen platform's screen is 800×600.)
    void aFirstStartFitsTheScreen() {
        QSettings().remove("geometry");
        QSettings().remove("windowState");
        MainWindow w(dir_.filePath("first.sqlite"));
        const QRect room = w.screen()->availableGeometry();
        QVERIFY2(w.width() < room.width() && w.height() < room.height(),
                 qPrintable(QString("%1×%2 on a %3×%4 screen").arg(w.width()).arg(w.height()).arg(room.width()).arg(room.height())));
        QVERIFY(w.width() >= room.width() - 40 && w.height() >= room.height() - 80);   // and uses it
        w.show();
        settle();
        QVERIFY(w.statusBar()->isVisible() && w.runTable()->isVisible() && w.runTable()->height() >= 60);
    }

    // A first start at a laptop's 1280×720: the charts get most of the window (the docks' own size
    // hints left them 550×375 px, the loss chart a plot 60 px high, the learning rate two labels),
    // no view scrolls sideways in any language, the Loss tab shows the loss and the learning rate
    // without scrolling. View → Panels → Reset layout puts it back after the user moved the panels.
    void aLaptopWindowGivesTheChartsTheRoom() {
        const QString path = dir_.filePath("laptop.sqlite");
        const auto ids = fill(path, 4, "Pre-LN");
        for (const char* lang : {"en", "de", "zh_CN"}) {
            QSettings().remove("geometry");
            QSettings().remove("windowState");
            MainWindow w(path);
            QVERIFY(w.switchLanguage(lang));
            // numbers in the language's notation, as a chart's footer writes them ("1.664 Punkte" in German)
            QCOMPARE(QString("%L1").arg(1664), QString(QString(lang) == "de" ? "1.664" : "1,664"));
            w.resize(1280, 720);
            w.show();
            settle();
            w.showRuns(ids);
            auto check = [&](const QString& when) {
                const QString what = QString("%1, %2").arg(lang, when);
                QVERIFY2(w.charts()->height() >= 720 * 6 / 10 && w.charts()->width() >= 1280 * 45 / 100,
                         qPrintable(what + QString(": charts %1×%2").arg(w.charts()->width()).arg(w.charts()->height())));
                QVERIFY2(w.runTable()->isVisible() && w.runTable()->height() >= 60, qPrintable(what));
                auto* diff = w.findChild<QDockWidget*>("diffDock");
                QVERIFY2(diff->isVisible() && diff->width() >= 240, qPrintable(what + QString(": settings %1 px").arg(diff->width())));
                for (int tab = 0; tab < w.charts()->tabs()->count(); ++tab) {
                    w.charts()->tabs()->setCurrentIndex(tab);
                    settle();
                    auto* area = qobject_cast<QScrollArea*>(w.charts()->tabs()->widget(tab));
                    QVERIFY(area);
                    const QString where = what + QString(", tab %1: page %2×%3 in %4×%5").arg(tab)
                                              .arg(area->widget()->minimumSizeHint().width()).arg(area->widget()->minimumSizeHint().height())
                                              .arg(area->viewport()->width()).arg(area->viewport()->height());
                    QVERIFY2(!area->horizontalScrollBar()->isVisible(), qPrintable(where + " scrolls sideways"));
                    if (tab == 0) QVERIFY2(!area->verticalScrollBar()->isVisible(), qPrintable(where + " scrolls"));
                }
                // the Gains tab's box plots (a chart of Qt's own, not a LineChart): no label drawn as "…"
                w.charts()->tabs()->setCurrentIndex(2);
                settle();
                auto* box = w.findChild<QChartView*>("boxChart");
                QVERIFY(box && box->isVisible());
                int texts = 0;
                for (QGraphicsItem* item : box->chart()->scene()->items())
                    if (auto* t = dynamic_cast<QGraphicsTextItem*>(item); t && t->isVisible() && ++texts)
                        QVERIFY2(!t->toPlainText().contains(QString::fromUtf8("…")) && !t->toPlainText().contains("..."),
                                 qPrintable(what + QString(": the box plots draw \"%1\" at %2 px").arg(t->toPlainText()).arg(box->height())));
                QVERIFY2(texts >= 8, qPrintable(what + QString(": %1 texts").arg(texts)));
                // Two runs' Gradients tab: the line chart and both heatmaps without scrolling (stacked,
                // they asked for 590 px in a 435-px view, and the page's preferred height scrolled it
                // whatever the room), every heatmap whole inside the view and tall enough to read.
                w.showRuns({ids[0], ids[1]});
                w.charts()->tabs()->setCurrentIndex(1);
                settle();
                auto* grad = qobject_cast<QScrollArea*>(w.charts()->tabs()->widget(1));
                const QString where = what + QString(", two runs' Gradients: page %1 px in %2")
                                          .arg(grad->widget()->height()).arg(grad->viewport()->height());
                QVERIFY2(!grad->verticalScrollBar()->isVisible() && !grad->horizontalScrollBar()->isVisible(),
                         qPrintable(where + " scrolls"));
                for (const char* name : {"heatmap0", "heatmap1", "gradChart"}) {
                    auto* part = w.charts()->findChild<QWidget*>(name);
                    QVERIFY2(part && part->isVisible(), qPrintable(where + ": no " + name));
                    const QRect in_view(part->mapTo(grad->viewport(), QPoint(0, 0)), part->size());
                    QVERIFY2(grad->viewport()->rect().contains(in_view) && part->height() >= part->minimumHeight(),
                             qPrintable(where + QString(": %1 at %2,%3 %4×%5").arg(name).arg(in_view.x()).arg(in_view.y())
                                                    .arg(in_view.width()).arg(in_view.height())));
                }
                // the legend lists each run once, and their layers in the window's language (they were
                // in English: the figures' strings were never extracted for translation)
                QStringList entries;
                entries = w.charts()->findChild<LineChart*>("gradChart")->legendShown();
                const QString layers = QString::fromUtf8(QString(lang) == "de" ? "Schichten 0–5" : QString(lang) == "zh_CN" ? "第 0–5 层" : "layers 0–5");
                QVERIFY2(entries.size() == 3 && entries[2] == layers,
                         qPrintable(where + ": the legend lists " + entries.join(" | ")));
                w.showRuns(ids);
            };
            check("first start");
            // the user closes the run table, floats the settings, drags the charts small: Reset layout
            w.findChild<QDockWidget*>("runsDock")->hide();
            w.findChild<QDockWidget*>("diffDock")->setFloating(true);
            w.resizeDocks({w.findChild<QDockWidget*>("designerDock")}, {700}, Qt::Horizontal);
            settle();
            QVERIFY(w.charts()->width() < 1280 * 45 / 100);
            auto* reset = w.findChild<QAction*>("resetLayout");
            QVERIFY(reset);
            reset->trigger();
            settle();
            check("after Reset layout");
        }
    }

    // Two runs' heatmaps follow the room as the window is resized: side by side in a laptop's window,
    // stacked (each the whole width for its steps) where the view is tall enough, never scrolling.
    void gradientHeatmapsFollowTheRoom() {
        const QString path = dir_.filePath("heat.sqlite");
        const auto ids = fill(path, 2, "Pre-LN");
        forgetLayout();
        MainWindow w(path);
        QScrollArea* area = laptopGradients(w, ids);
        auto* h0 = w.charts()->findChild<Heatmap*>("heatmap0");
        auto* h1 = w.charts()->findChild<Heatmap*>("heatmap1");
        QVERIFY(area && h0 && h1);
        // each heatmap is titled by its run and what the line chart shows, not by the store's series name
        const QString shown = w.charts()->gradChart()->title();
        QVERIFY2(shown.contains("fc2") && !shown.contains("grad_"), qPrintable(shown));
        QVERIFY2(h0->title().endsWith(": " + shown) && h0->title() != h1->title(), qPrintable(h0->title() + " | " + h1->title()));
        QCOMPARE(h0->toolTip(), h0->title());
        for (const QSize size : {QSize(1280, 720), QSize(1600, 1000), QSize(1280, 720)}) {
            w.resize(size);
            settle();
            const bool tall = size.height() == 1000;
            const QString what = QString("%1×%2: heatmaps at %3,%4 and %5,%6, page %7 px in %8")
                                     .arg(size.width()).arg(size.height()).arg(h0->x()).arg(h0->y()).arg(h1->x()).arg(h1->y())
                                     .arg(area->widget()->height()).arg(area->viewport()->height());
            QVERIFY2(tall ? h1->y() > h0->y() && h1->x() == h0->x() : h1->y() == h0->y() && h1->x() > h0->x(), qPrintable(what));
            QVERIFY2(!area->verticalScrollBar()->isVisible(), qPrintable(what + " scrolls"));
        }
    }

    // Four runs' heatmaps on one colour scale are small multiples in one row of a laptop's window (two
    // rows, each heatmap with its own colour bar and layer axis, scrolled the tab): one colour bar, at
    // the row's end; one layer axis, at its start; cells as wide in each; step labels that do not run
    // into each other; each titled by its run. Scales of their own, or depths that differ, bring back
    // every heatmap's bar or axis.
    void fourHeatmapsShareOneRow() {
        const QString path = dir_.filePath("four.sqlite");
        auto ids = fill(path, 4, "Pre-LN");
        const qint64 deep = fill(path, 1, "Deep", 1.0, 8).front();
        forgetLayout();
        MainWindow w(path);
        QScrollArea* area = laptopGradients(w, ids);
        QVERIFY(area);
        std::vector<Heatmap*> maps;
        for (int i = 0; i < 4; ++i) maps.push_back(w.charts()->findChild<Heatmap*>(QString("heatmap%1").arg(i)));
        for (Heatmap* h : maps) QVERIFY(h && h->isVisible());
        auto where = [&] {
            QString s = QString("page %1 px in %2:").arg(area->widget()->height()).arg(area->viewport()->height());
            for (Heatmap* h : maps)
                s += QString(" %1,%2 %3×%4 cells %5%6%7;").arg(h->x()).arg(h->y()).arg(h->width()).arg(h->height()).arg(h->cellArea().width())
                         .arg(h->hasLayerAxis() ? " axis" : "").arg(h->hasColourBar() ? " bar" : "");
            return s;
        };
        QVERIFY2(!area->verticalScrollBar()->isVisible() && !area->horizontalScrollBar()->isVisible(), qPrintable(where() + " scrolls"));
        const QFontMetrics fm(maps[0]->labelFont());
        for (int i = 0; i < 4; ++i) {
            Heatmap* h = maps[static_cast<size_t>(i)];
            QVERIFY2(h->y() == maps[0]->y() && (i == 0 || h->x() > maps[static_cast<size_t>(i) - 1]->x()), qPrintable(where()));
            QVERIFY2(h->hasLayerAxis() == (i == 0) && h->hasColourBar() == (i == 3), qPrintable(where()));
            QVERIFY2(std::abs(h->cellArea().width() - maps[0]->cellArea().width()) <= 1 && h->cellArea().width() >= Heatmap::kMinCells,
                     qPrintable(where()));
            const QRect in_view(h->mapTo(area->viewport(), QPoint(0, 0)), h->size());
            QVERIFY2(area->viewport()->rect().contains(in_view), qPrintable(where()));
            // the step labels a space apart at least (they were "0 50 100150")
            const QStringList labels = h->xTickLabels();
            const std::vector<QRectF> boxes = h->xTickLabelRects();
            QVERIFY2(labels.size() >= 2 && boxes.size() == size_t(labels.size()), qPrintable(labels.join(" ")));
            for (size_t k = 1; k < boxes.size(); ++k)
                QVERIFY2(boxes[k].left() >= boxes[k - 1].right() + fm.horizontalAdvance(' '),
                         qPrintable(where() + " " + labels.join(" ") + QString(": %1 runs into %2").arg(labels[int(k) - 1], labels[int(k)])));
            QVERIFY2(h->toolTip().startsWith(QString("Pre-LN seed=%1: ").arg(i + 1)), qPrintable(h->toolTip()));
            // the readout reads a compact heatmap's cells where they are drawn
            QCOMPARE(h->cellAt(h->cellArea().center()).second >= 0, true);
        }
        // each run its own scale: each heatmap its own colour bar
        auto* shared = w.charts()->findChild<QCheckBox*>("heatShared");
        QVERIFY(shared);
        shared->setChecked(false);
        settle();
        for (Heatmap* h : maps) QVERIFY2(h->hasColourBar(), qPrintable(where()));
        shared->setChecked(true);
        settle();
        QVERIFY2(!maps[0]->hasColourBar() && maps[3]->hasColourBar(), qPrintable(where()));
        // a run with other depth: every heatmap its layer axis
        ids.push_back(deep);
        w.showRuns(ids);
        settle();
        maps.clear();
        for (int i = 0; i < 5; ++i) maps.push_back(w.charts()->findChild<Heatmap*>(QString("heatmap%1").arg(i)));
        for (Heatmap* h : maps) QVERIFY2(h && h->hasLayerAxis(), qPrintable(where()));
    }

    // Item 15: "Settings that differ" keeps a readable width through resizes (it shrank to ~60 px).
    void settingsThatDifferKeepTheirWidth() {
        MainWindow w(dir_.filePath("diff.sqlite"));
        w.resize(1920, 1080);
        w.show();
        settle();
        for (const QSize size : {QSize(1280, 720), QSize(1000, 700), QSize(860, 600), QSize(1600, 900)}) {
            w.resize(size);
            settle();
            auto* dock = w.findChild<QDockWidget*>("diffDock");
            QVERIFY(dock);
            QVERIFY2(dock->width() >= 200, qPrintable(QString("%1×%2: %3 px").arg(size.width()).arg(size.height()).arg(dock->width())));
        }
    }
};

QTEST_MAIN(TestWindow)
#include "test_window.moc"
