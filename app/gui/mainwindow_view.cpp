// NormLab app: the main window's export dialog and its languages (the rest
// of the window is mainwindow.cpp and mainwindow_runs.cpp).
#include "app/gui/mainwindow.h"

#include "app/gui/figure_command.h"

#include "app/gui/reportdialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"

#include <cstdio>

#include <QAction>
#include <QChart>
#include <QChartView>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLibraryInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QTranslator>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace normlab {

void MainWindow::exportDialog(bool whole_panel) {
    QDialog dlg(this);
    dlg.setWindowTitle(whole_panel ? tr("Export panel") : tr("Export chart"));
    auto* form = new QFormLayout(&dlg);
    auto* format = new QComboBox(&dlg);
    format->addItem("PNG", "png");
    format->addItem("SVG", "svg");
    format->addItem("PDF", "pdf");
    format->addItem(tr("CSV (the curves shown, every point)"), "csv");
    auto* dpi = new QSpinBox(&dlg);
    dpi->setRange(72, 1200);
    dpi->setValue(QSettings().value("exportDpi", 300).toInt());
    // A print size (what normlab figure draws, for a chart or a whole panel):
    // a column's width in mm, the height the figure needs or a given one,
    // fonts in points.
    auto* preset = new QComboBox(&dlg);
    preset->setObjectName("exportSize");
    preset->addItem(tr("as on screen"), 0.0);
    preset->addItem(tr("single column (89 mm)"), kSingleColumnMm);
    preset->addItem(tr("double column (183 mm)"), kDoubleColumnMm);
    preset->addItem(tr("custom"), -1.0);
    auto* width = new QDoubleSpinBox(&dlg);
    width->setRange(20, 500);
    width->setSuffix(" mm");
    width->setDecimals(0);
    auto* height = new QDoubleSpinBox(&dlg);
    height->setObjectName("exportHeight");
    height->setRange(0, 500);
    height->setSpecialValueText(tr("as the figure needs"));
    height->setSuffix(" mm");
    height->setDecimals(0);
    auto* font = new QDoubleSpinBox(&dlg);
    font->setRange(4, 24);
    font->setSuffix(" pt");
    font->setDecimals(1);
    QSettings st;
    preset->setCurrentIndex(st.value("exportSize", 0).toInt());
    width->setValue(st.value("exportWidthMm", kSingleColumnMm).toDouble());
    height->setValue(st.value("exportHeightMm", 0).toDouble());
    font->setValue(st.value("exportFontPt", 8).toDouble());
    const bool printable = charts_->currentChart() != nullptr;
    auto sync = [=] {
        const double w = preset->currentData().toDouble();
        const bool vector = format->currentData().toString() != "csv";
        preset->setEnabled(printable && vector);
        const bool sized = printable && vector && w != 0;
        if (w > 0) {
            width->setValue(w);
            height->setValue(0);   // as the figure needs: its legend whole, a plot about half as high as wide
        }
        width->setEnabled(sized && w < 0);
        height->setEnabled(sized);
        font->setEnabled(sized);
    };
    connect(preset, qOverload<int>(&QComboBox::currentIndexChanged), &dlg, sync);
    connect(format, qOverload<int>(&QComboBox::currentIndexChanged), &dlg, sync);
    sync();
    form->addRow(tr("Format"), format);
    form->addRow(tr("Resolution (PNG, DPI)"), dpi);
    form->addRow(tr("Size"), preset);
    form->addRow(tr("Width"), width);
    form->addRow(tr("Height"), height);
    form->addRow(tr("Font size"), font);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dlg);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dlg, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dlg, &QDialog::reject);
    if (dlg.exec() != QDialog::Accepted) return;
    const QString fmt = format->currentData().toString();
    const QString path = QFileDialog::getSaveFileName(this, tr("Export"), QString("normlab-figure.%1").arg(fmt),
                                                      QString("*.%1").arg(fmt));
    if (path.isEmpty()) return;
    QSettings().setValue("exportDpi", dpi->value());
    QSettings().setValue("exportSize", preset->currentIndex());
    QSettings().setValue("exportWidthMm", width->value());
    QSettings().setValue("exportHeightMm", height->value());
    QSettings().setValue("exportFontPt", font->value());
    QString err;
    bool ok;
    const bool figure = printable && fmt != "csv" && preset->currentData().toDouble() != 0;
    if (figure) {
        ok = charts_->exportFigure(path, fmt, dpi->value(), whole_panel, width->value(), height->value(), font->value(), &err);
    } else {
        ok = charts_->exportCurrent(path, fmt, dpi->value(), whole_panel, &err);
    }
    if (!ok) {
        QMessageBox::warning(this, tr("Export"), err);
    } else if (const double pt = figure ? charts_->figureTextPt(width->value(), font->value()) : font->value();
               pt < font->value() - 1e-6) {
        statusBar()->showMessage(tr("Wrote %1: the blocks' text at %2 pt, to fit the width").arg(path, QLocale().toString(pt, 'g', 3)), 8000);
    } else {
        statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
    }
}

// Why a language cannot be shown, in English (the language itself would be
// unreadable), or "": its writing system has no font on this machine. A Debian
// without a Chinese font drew 简体中文 as boxes — the whole window, the menu
// entry that would switch back among them.
QString MainWindow::fontMissingFor(const QLocale& loc) {
    QFontDatabase::WritingSystem ws = QFontDatabase::Any;
    switch (loc.script()) {
    case QLocale::SimplifiedHanScript: ws = QFontDatabase::SimplifiedChinese; break;
    case QLocale::TraditionalHanScript: ws = QFontDatabase::TraditionalChinese; break;
    default: return {};
    }
    if (!QFontDatabase::families(ws).isEmpty()) return {};
    return QString("%1 needs a font with its characters, and none is installed: the window stays in English. "
                   "Install one and start NormLab again (Debian: sudo apt install fonts-wqy-microhei; "
                   "scripts/setup.sh installs it).")
        .arg(QLocale::languageToString(loc.language()));   // "Chinese": its own name would be boxes too
}

QString MainWindow::filterHelp() {
    return tr("<p>Shows the runs that match every word, ignoring case (as <code>normlab-cli list</code>):</p>"
              "<ul><li>a text in the name, scheme, status, a tag, the notes, the server, the created time or the store;</li>"
              "<li><b>key op value</b>, op one of <code>= != &lt; &lt;= &gt; &gt;=</code> or <code>:</code> (contains): "
              "<code>id</code>, <code>name</code>, <code>scheme</code>, <code>status</code>, <code>tag</code>, "
              "<code>notes</code>, <code>server</code>, <code>steps</code>, <code>val</code> (the Val loss column) "
              "or a setting, by its path or last part: <code>optim.lr</code>, <code>lr</code>, <code>n_layers</code>.</li></ul>"
              "<p>Examples: <code>ngpt val&lt;3.2</code> · <code>lr&gt;=1e-3 status=finished</code> · "
              "<code>tag:paper n_layers=48</code> · <code>\"seed 2\"</code></p>");
}

bool MainWindow::switchLanguage(const QString& locale) {
    if (!translator_) {
        translator_ = new QTranslator(this);
        qt_translator_ = new QTranslator(this);
    }
    qApp->removeTranslator(translator_);
    qApp->removeTranslator(qt_translator_);
    const QLocale loc = locale.isEmpty() ? QLocale::system() : QLocale(locale);
    if (const QString missing = fontMissingFor(loc); !missing.isEmpty()) {   // English, and why
        std::fprintf(stderr, "normlab: %s\n", qPrintable(missing));
        // until the next message: it explains what the user chose. Shown before the window is (at start),
        // the status bar would not hide its label under it, and the two texts overlapped: once it is shown.
        QTimer::singleShot(0, this, [this, missing] { statusBar()->showMessage(missing); });
        return false;
    }
    // English is the source text, but for its plurals ("1 run", not "1 run(s)"): normlab_en
    const bool english = locale == "en" || loc.language() == QLocale::English || loc.language() == QLocale::C;
    bool ok = locale == "en";
    if (english ? translator_->load(":/i18n/normlab_en") : translator_->load(loc, "normlab", "_", ":/i18n")) {
        qApp->installTranslator(translator_);
        ok = true;
    }
    if (qt_translator_->load(loc, "qtbase", "_", QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        qApp->installTranslator(qt_translator_);
    // numbers in the language's notation too ("1.664 Punkte → 1.664 gezeichnet", not "1,664")
    if (ok) QLocale::setDefault(loc);
    return ok;
}

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    if (e->type() == QEvent::PaletteChange) applyTheme();
    QMainWindow::changeEvent(e);
}

// View → Panels: every panel, so a closed one comes back from here (not only
// from the menu bar's context menu; the actions follow the panels' titles),
// and Reset layout.
void MainWindow::addPanelsMenu(QMenu* view) {
    auto* panels = view->addMenu(tr("&Panels"));
    panels->setObjectName("panelsMenu");
    for (auto* dock : findChildren<QDockWidget*>()) panels->addAction(dock->toggleViewAction());
    panels->addSeparator();
    // every panel back in its place, shown, at the shares a first start gives them
    panels->addAction(tr("&Reset layout"), this, [this] {
        restoreState(default_state_);
        for (auto* dock : findChildren<QDockWidget*>()) dock->show();
        if (auto* runs = findChild<QDockWidget*>("runsDock")) runs->raise();
        fitDocks();
    })->setObjectName("resetLayout");
}

void MainWindow::showEvent(QShowEvent* e) {
    QMainWindow::showEvent(e);
    // A first start: the docks' shares once the window has its size on screen
    // (at 1280×720 their own size hints left the charts a 150-px loss chart).
    if (!layout_restored_ && !docks_fitted_) QTimer::singleShot(0, this, [this] {
        if (!docks_fitted_) fitDocks();
    });
}

bool MainWindow::eventFilter(QObject* watched, QEvent* e) {
    if (watched == diff_ && e->type() == QEvent::Resize) elideDifferenceKeys();
    return QMainWindow::eventFilter(watched, e);
}

// The charts are what the window is for: the run table gets about a quarter
// of the height (a few rows; it scrolls), the settings that differ about a
// quarter of the width (two runs' values beside their keys), within bounds that
// keep both readable on a laptop and not wasteful on a large screen (at
// 1280×720 the charts' view gets ~605 × 490 px, where it had 550 × 375).
void MainWindow::fitDocks() {
    docks_fitted_ = true;
    auto* runs = findChild<QDockWidget*>("runsDock");
    auto* diff = findChild<QDockWidget*>("diffDock");
    if (runs && runs->isVisible() && !runs->isFloating())
        resizeDocks({runs}, {std::clamp(height() / 4, 150, 320)}, Qt::Vertical);
    if (diff && diff->isVisible() && !diff->isFloating())
        resizeDocks({diff}, {std::clamp(width() * 27 / 100, 240, 400)}, Qt::Horizontal);
}

QStringList MainWindow::queueHeaders() const {
    return {tr("Run"), tr("Status"), tr("Progress"), tr("Loss"), tr("Tokens/s"), tr("ETA")};
}

void MainWindow::retranslate() {
    // Rebuild every translated string: the simplest correct way with code-built widgets.
    const QByteArray state = saveState();
    const auto shown = shown_;
    // the old menus go (clear() only takes them off the bar), later: a language action is still in its signal
    const QList<QMenu*> old = menuBar()->findChildren<QMenu*>(Qt::FindDirectChildrenOnly);
    menuBar()->clear();
    for (QMenu* m : old) m->deleteLater();
    buildMenus();
    for (auto* dock : findChildren<QDockWidget*>()) {
        if (dock->objectName() == "designerDock") dock->setWindowTitle(tr("Experiment"));
        if (dock->objectName() == "queueDock") dock->setWindowTitle(tr("Queue"));
        if (dock->objectName() == "runsDock") dock->setWindowTitle(tr("Runs — select several to compare"));
        if (dock->objectName() == "diffDock") dock->setWindowTitle(tr("Settings that differ"));
    }
    restoreState(state);
    for (const RunButton& rb : kRunButtons)
        if (auto* b = findChild<QPushButton*>(QString("run_") + rb.what)) b->setText(tr(rb.label));
    if (auto* b = findChild<QPushButton*>("queueCancel")) b->setText(tr("Cancel"));
    if (auto* b = findChild<QPushButton*>("queuePause")) b->setText(b->isChecked() ? tr("Resume") : tr("Pause"));
    queue_->setHeaderLabels(queueHeaders());
    filter_->setPlaceholderText(tr("Filter runs (name, scheme, status, tags, notes; lr>=1e-3, val<3.2)…"));
    filter_->setToolTip(filterHelp());
    model_->retranslate();
    nameColumnActions();
    if (auto* copy = diff_->findChild<QAction*>("copyDifferences")) copy->setText(tr("Co&py as text"));
    updateDifferences(std::vector<std::pair<Store*, int64_t>>(diff_refs_));   // its hint and grey keys' tooltips
    device_ = deviceText();   // else in the old language until its next reading (5 s)
    showStatus();
}

QString MainWindow::deviceText() const {
    const std::vector<GpuInfo> gpus = gpu_devices();
    if (gpus.empty()) return tr("Trains on the CPU (%n thread(s))", "", default_threads());
    const GpuInfo& g = gpus.front();
    if (g.total_bytes <= 0) return tr("Trains on %1").arg(QString::fromStdString(g.name));
    return tr("Trains on %1 (%2 of %3 GiB free)")
        .arg(QString::fromStdString(g.name))
        .arg(g.free_bytes / 1073741824.0, 0, 'f', 1)
        .arg(g.total_bytes / 1073741824.0, 0, 'f', 1);
}

}  // namespace normlab
