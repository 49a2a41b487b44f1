// A language whose characters no installed font has (简体中文 on a Debian
// without a Chinese font) is not switched to: the window drew every label, and
// the menu entry that would switch back, as boxes. It stays in English, says
// why and what to install, in English, and names the entry so it can be read.
// Run on a fontconfig that knows only DejaVu, as such a machine has.
#include "app/gui/mainwindow.h"

#include <QApplication>
#include <QFile>
#include <QFontDatabase>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace normlab;

class TestLanguageFont : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static QAction* languageEntry(MainWindow& w, const QString& starts) {
        for (QAction* a : w.findChildren<QAction*>())
            if (a->text().startsWith(starts)) return a;
        return nullptr;
    }

private Q_SLOTS:
    void chineseWithoutAFontStaysEnglishAndSaysWhy() {
        QVERIFY2(QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty(),
                 "this test's fontconfig should know no Chinese font");
        MainWindow w(dir_.filePath("store.sqlite"));
        QVERIFY(!MainWindow::fontMissingFor(QLocale("zh_CN")).isEmpty());
        QVERIFY(MainWindow::fontMissingFor(QLocale("de")).isEmpty());
        QVERIFY(!w.switchLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QCOMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
        const QString said = w.statusBar()->currentMessage();
        QVERIFY2(said.contains("stays in English") && said.contains("sudo apt install fonts-wqy-microhei"), qPrintable(said));
        // View → Language names the entry in letters this machine can draw
        QVERIFY(languageEntry(w, QString::fromUtf8("简体中文 (Chinese, no font installed)")));
        // from German too: back to English, not left in German with a message about Chinese
        QVERIFY(w.switchLanguage("de"));
        QCoreApplication::processEvents();
        QCOMPARE(w.menuBar()->actions().first()->text(), QString("&Datei"));
        QVERIFY(!w.switchLanguage("zh_CN"));
        QCoreApplication::processEvents();
        QCOMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
    }
};

int main(int argc, char** argv) {
    QTemporaryDir fonts;
    const QString conf = fonts.filePath("fonts.conf");
    QFile f(conf);
    if (!f.open(QIODevice::WriteOnly)) return 2;
    f.write(QString("<?xml version=\"1.0\"?>\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir>"
                    "<cachedir>%1</cachedir></fontconfig>\n").arg(fonts.filePath("cache")).toUtf8());
    f.close();
    qputenv("FONTCONFIG_FILE", conf.toLocal8Bit());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("normlab-test-language-font");
    TestLanguageFont t;
    return QTest::qExec(&t, argc, argv);
}

#include "test_language_font.moc"
