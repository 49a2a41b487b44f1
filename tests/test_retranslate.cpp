// Switching the window's language while it runs shows what starting in that
// language shows: every widget's text, tooltip, placeholder, combo items and
// tab titles, and every action's, compared one by one between a window that
// switched (en → de → zh_CN → en) and a window built in the language.
#include "app/gui/mainwindow.h"
#include "app/gui/remote.h"
#include "tests/window_util.h"
#include "widgets/chart_legend.h"

#include <QAbstractButton>
#include <QAction>
#include <QComboBox>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QMenu>
#include <QRegularExpression>
#include <QTabWidget>
#include <QHeaderView>
#include <QTableWidget>
#include <QtTest/QtTest>

using namespace normlab;

namespace {

// One line per widget and action that shows text, in the order Qt keeps them; a window built the
// same way lists the same objects in the same order.
QStringList shown_texts(const QWidget& root) {
    QStringList out;
    auto add = [&](const QObject* o, const QString& what, const QString& text) {
        static const QRegularExpression number("[0-9]+([.,][0-9]+)?");   // live figures (UI latency) differ
        if (!text.isEmpty())
            out << QString("%1 %2 %3: %4").arg(o->metaObject()->className(), o->objectName(), what, QString(text).replace(number, "#"));
    };
    for (const QWidget* w : root.findChildren<QWidget*>()) {
        if (w->inherits("QCalendarWidget") || w->inherits("QAbstractItemView")) continue;   // locale- and data-driven
        add(w, "tip", w->toolTip());
        add(w, "status", w->statusTip());
        add(w, "whatsThis", w->whatsThis());
        if (auto* l = qobject_cast<const QLabel*>(w)) add(w, "text", l->text());
        if (auto* b = qobject_cast<const QAbstractButton*>(w)) add(w, "text", b->text());
        if (auto* g = qobject_cast<const QGroupBox*>(w)) add(w, "title", g->title());
        if (auto* e = qobject_cast<const QLineEdit*>(w)) add(w, "placeholder", e->placeholderText());
        if (auto* c = qobject_cast<const QComboBox*>(w))
            for (int i = 0; i < c->count(); ++i) add(w, QString("item %1").arg(i), c->itemText(i));
        if (auto* t = qobject_cast<const QTabWidget*>(w))
            for (int i = 0; i < t->count(); ++i) add(w, QString("tab %1").arg(i), t->tabText(i) + " | " + t->tabToolTip(i));
        if (auto* m = qobject_cast<const QMenu*>(w)) add(w, "title", m->title());
    }
    for (const QAction* a : root.findChildren<QAction*>()) {
        if (a->isSeparator()) continue;
        add(a, "text", a->text());
        add(a, "tip", a->toolTip() == QString(a->text()).remove('&') ? QString() : a->toolTip());
        add(a, "status", a->statusTip());
    }
    return out;
}

}  // namespace

class TestRetranslate : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void switchingShowsWhatStartingShows() {
        const QString path = dir_.filePath("store.sqlite");
        test::fill(path, 2, "Pre-LN");
        MainWindow switched(path);
        for (const char* lang : {"de", "zh_CN", "en"}) {
            QVERIFY(switched.switchLanguage(lang));
            QCoreApplication::processEvents();
            MainWindow fresh(path);   // built with the language now installed
            QCoreApplication::processEvents();

            QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
            // compared as multisets: a rebuilt widget comes later in Qt's order than in a fresh window
            QStringList a = shown_texts(switched), b = shown_texts(fresh);
            a.sort();
            b.sort();
            QStringList stale, missing;
            int i = 0, k = 0;
            while (i < a.size() || k < b.size()) {
                if (k == b.size() || (i < a.size() && a[i] < b[k])) stale << a[i++];
                else if (i == a.size() || b[k] < a[i]) missing << b[k++];
                else ++i, ++k;
            }
            for (const QString& d : stale) qWarning().noquote() << "only after switching:" << d;
            for (const QString& d : missing) qWarning().noquote() << "only when started:  " << d;
            QVERIFY2(stale.isEmpty() && missing.isEmpty(),
                     qPrintable(QString("%1: %2 shown only after switching, %3 only when started in it (above)")
                                    .arg(lang).arg(stale.size()).arg(missing.size())));
        }
    }

    // Settings that differ says how to compare from the start (it was an empty panel until runs were
    // chosen), and in the language switched to (its hint stayed in the language it was written in; the
    // comparison above leaves item views out).
    void settingsPanelHintFollowsTheLanguage() {
        MainWindow w(dir_.filePath("empty.sqlite"));
        auto* diff = w.findChild<QTableWidget*>("differences");
        auto hint = [&] { return diff->rowCount() == 1 && diff->item(0, 0) ? diff->item(0, 0)->text() : QString(); };
        QVERIFY2(hint().startsWith("Select two or more runs"), qPrintable(hint()));
        QVERIFY(diff->horizontalHeader()->isHidden() && diff->verticalHeader()->isHidden());   // no empty header strip
        QVERIFY(w.switchLanguage("de"));
        QCoreApplication::processEvents();
        QVERIFY2(hint().startsWith("Zwei oder mehr Läufe"), qPrintable(hint()));
        QVERIFY(w.switchLanguage("en"));
        QCoreApplication::processEvents();
        QVERIFY2(hint().startsWith("Select two or more runs"), qPrintable(hint()));
    }
    // The server's dialog, its followers' news and the legend's tips in the language of the
    // window: their strings were translated but filed under contexts tr() never looks up (lupdate
    // wrote RemoteControl, not normlab::RemoteControl), so a German window showed them in English.
    void serverDialogAndNewsFollowTheLanguage() {
        const QString path = dir_.filePath("remote.sqlite");
        MainWindow w(path);
        const nlohmann::json progress = {{"event", "progress"}, {"dest", "gpu1"}, {"run", "run 4"},   {"local_id", 7},
                                         {"name", "nGPT"},      {"step", 1200},   {"total", 2500},     {"loss", 2.71134},
                                         {"val_loss", nullptr}, {"tokens_per_s", 388210.4}, {"mfu", 0.441}, {"eta_s", 190}};
        const nlohmann::json ended = {{"event", "status"}, {"dest", "gpu1"}, {"run", "run 4"},  {"local_id", 7},
                                      {"name", "nGPT"},    {"status", "finished"}, {"steps", 2500}, {"val_loss", 2.72591}};
        const nlohmann::json retry = {{"event", "note"}, {"dest", "gpu1"}, {"kind", "retrying"}, {"why", "the connection ended"},
                                      {"in_s", 4}, {"text", "the connection ended; reconnecting in 4 s"}};
        const char* legend_tip = "Hidden. Click to show it; double-click to show only it.";
        QVERIFY(w.switchLanguage("en"));   // its plurals ("2500 steps")
        QCOMPARE(RemoteControl::describe(progress),
                 QString("Run #7 nGPT on gpu1: step 1200/2500 (48%) · loss 2.7113 · 388210 tokens/s · MFU 44.1% · ETA 3:10"));
        QCOMPARE(RemoteControl::describe(ended), QString("Run #7 nGPT on gpu1: finished after 2500 steps, validation loss 2.7259"));
        QCOMPARE(RemoteControl::describe(retry), QString("Connection to gpu1 lost (the connection ended); reconnecting in 4 s"));
        QCOMPARE(RemoteControl::describe({{"event", "a newer one"}}), QString());   // what this NormLab does not know: nothing
        RemoteControl follower_check(path);
        // A line of another shape is never trusted: read, it throws nothing (nlohmann's value() threw
        // type_error on {"event": 3}, out of a Qt slot: the window ended).
        for (const nlohmann::json& odd : {nlohmann::json{{"event", 3}}, nlohmann::json{{"event", "progress"}, {"step", "x"}},
                                          nlohmann::json{{"event", "status"}, {"status", nullptr}, {"local_id", "7"}},
                                          nlohmann::json{{"event", "note"}, {"kind", {1, 2}}}, nlohmann::json::array()}) {
            (void)RemoteControl::describe(odd);
            (void)follower_check.heard("odd", odd);
        }
        QVERIFY(RemoteControl::describe({{"event", "progress"}, {"step", "x"}}).isEmpty());
        QVERIFY(RemoteDialog::describeCheck({{"info", 5}}).isEmpty());
        QVERIFY(RemoteDialog::describeCheck(nlohmann::json::array()).isEmpty());
        // A sweep's runs training side by side: the first one's progress, and how many more run.
        RemoteControl follower(path);
        nlohmann::json other = progress;
        other["local_id"] = 9;
        other["name"] = "Pre-LN";
        QCOMPARE(follower.heard("k", other), RemoteControl::describe(other));
        QCOMPARE(follower.heard("k", progress), RemoteControl::describe(progress) + " (+1 more running)");
        QCOMPARE(follower.heard("k", other), RemoteControl::describe(progress) + " (+1 more running)");
        nlohmann::json done = ended;
        QCOMPARE(follower.heard("k", done), RemoteControl::describe(ended));
        QCOMPARE(follower.heard("k", other), RemoteControl::describe(other));   // run 7 has ended
        QCOMPARE(follower.heard("another server", progress), RemoteControl::describe(progress));

        QVERIFY(w.switchLanguage("de"));
        QCoreApplication::processEvents();
        QCOMPARE(RemoteControl::describe(progress),
                 QString("Lauf #7 nGPT auf gpu1: Schritt 1200/2500 (48 %) · Verlust 2.7113 · 388210 Tokens/s · MFU 44.1 % · Restzeit 3:10"));
        QCOMPARE(RemoteControl::describe(ended),
                 QString("Lauf #7 nGPT auf gpu1: %1 nach 2500 Schritten, Validierungsverlust 2.7259")
                     .arg(QCoreApplication::translate("normlab::RunTableModel", "finished")));
        QVERIFY(!QCoreApplication::translate("normlab::RunTableModel", "finished").startsWith("finished"));
        RemoteControl remote(path);
        RemoteDialog dialog(&remote, path, QString(), [](bool, QString*) { return QString(); });
        QCOMPARE(dialog.checkButton()->text(), QString("Server &prüfen"));
        QCOMPARE(dialog.windowTitle(), QString("Auf einem Server trainieren"));
        QCOMPARE(QCoreApplication::translate(ChartLegend::staticMetaObject.className(), legend_tip),
                 QString("Ausgeblendet. Klicken zeigt es; Doppelklick zeigt nur es."));
        // The server's check, as `remote check --json` answers it.
        nlohmann::json check = {{"info", {{"normlab", "0.1.0"}, {"host", "gpu1"}, {"libtorch", "2.11.0"}, {"store", "/srv/runs.sqlite"},
                                          {"store_exists", false}, {"cuda", true}}},
                                {"gpus", {{{"name", "NVIDIA H100 80GB HBM3"}, {"total_mib", "81559"}, {"free_mib", "81000"}}}}};
        QCOMPARE(RemoteDialog::describeCheck(check),
                 QString("NormLab 0.1.0 auf gpu1 (LibTorch 2.11.0); Speicher /srv/runs.sqlite (wird beim ersten Lauf angelegt); "
                         "1 GPU: NVIDIA H100 80GB HBM3, 81559 MiB (81000 MiB frei)"));
        check["info"]["cuda"] = false;
        check["info"]["store_exists"] = true;
        QCOMPARE(RemoteDialog::describeCheck(check),
                 QString("NormLab 0.1.0 auf gpu1 (LibTorch 2.11.0); Speicher /srv/runs.sqlite; 1 GPU: NVIDIA H100 80GB HBM3, "
                         "81559 MiB (81000 MiB frei); aber seine LibTorch hat kein CUDA: Läufe trainieren auf seiner CPU"));
        check["gpus"] = nlohmann::json::array();
        QVERIFY(RemoteDialog::describeCheck(check).endsWith("; keine CUDA-GPU: Läufe trainieren auf seiner CPU"));
        // What a server did with runs stopped from the window (a run this store does not hold: its id there).
        QCOMPARE(w.serverSaid("gpu1", "cancel", "4\tfinished\tnGPT (nothing to cancel)\n5\tcancelled\tPre-LN\n", {}),
                 QString("Auf gpu1 angehalten: Lauf 5 dort; Lauf 4 dort ist %1: nichts anzuhalten")
                     .arg(QCoreApplication::translate("normlab::RunTableModel", "finished")));

        QVERIFY(w.switchLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QCOMPARE(RemoteControl::describe(retry), QString("与 gpu1 的连接已断开（the connection ended）；4 秒后重新连接"));
        QVERIFY(w.switchLanguage("en"));
        QCoreApplication::processEvents();
        QCOMPARE(QCoreApplication::translate(ChartLegend::staticMetaObject.className(), legend_tip), QString(legend_tip));
    }
};

QTEST_MAIN(TestRetranslate)
#include "test_retranslate.moc"
