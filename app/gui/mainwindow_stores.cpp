// NormLab app: the window's run stores — opening one (File → Open run store),
// and others opened beside it, read-only, so that runs of several stores
// (another machine's, a sweep's task stores) are compared in one table and
// every chart; the run table reloaded from them (see mainwindow.h); its own
// store's file watched for being deleted or replaced.
#include "app/gui/mainwindow.h"

#include "app/gui/worker.h"
#include "core/errors.h"
#include "widgets/chartsview.h"
#include "widgets/runtable.h"

#include <QFileDialog>
#include <QSettings>
#include <QThread>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableView>

#include <filesystem>
#include <utility>

namespace normlab {

void MainWindow::reloadRuns() {
    // Rows added or gone reset the table, and its selection with it: the selection comes back
    // by run, without its runs read again. It is taken only then, as the reset begins: a reload
    // that changes rows in place (a run training: each second) leaves the selection as it is, and
    // reading it (selectedRows over 2,000 selected runs) stalled the window.
    std::vector<std::pair<Store*, int64_t>> selected;
    const QMetaObject::Connection before =
        connect(model_, &QAbstractItemModel::modelAboutToBeReset, this, [&] { selected = selectedRefs(); });
    model_->reload(*store_, comparedPointers());
    disconnect(before);
    showColumns();
    // A run shown that is no longer in the store (deleted by another process: normlab-cli delete)
    // leaves the selection and the charts.
    std::vector<std::pair<Store*, int64_t>> shown;
    bool gone = false;
    for (const auto& r : charts_->runs()) {
        if (model_->rowOf(r->id(), r->source()) >= 0) shown.emplace_back(r->source(), r->id());
        else gone = true;
    }
    if (!selected.empty() && !table_->selectionModel()->hasSelection()) {
        const bool restoring = std::exchange(restoring_selection_, true);
        selectRefs(selected);
        restoring_selection_ = restoring;
    }
    if (gone) {
        shown_.clear();
        for (const auto& [source, id] : shown)
            if (!source) shown_.push_back(id);
        charts_->setRuns(shown, *store_);
        updateDifferences(shown);
    }
}

// The store's file deleted or replaced while the window has it open (rm, mv, a backup copied over):
// edits and runs would go to the removed file, and the store refuses them; the window says so at once
// and for as long as it lasts, not at the next edit.
void MainWindow::checkStoreFile() {
    QString gone;
    if (!store_->read_only()) {
        try {
            store_->check_still_there();
        } catch (const StoreError& e) {
            gone = QString::fromUtf8(e.what());
            if (!gone.isEmpty()) gone[0] = gone[0].toUpper();   // a sentence of the status bar
        }
    }
    if (gone == store_gone_) return;
    store_gone_ = gone;
    if (!gone.isEmpty()) statusBar()->showMessage(gone);   // until it is back, or another store is opened
    else statusBar()->clearMessage();
}

std::unique_ptr<Store> MainWindow::openStoreFile(const QString& path) {
    std::unique_ptr<Store> s;
    try {
        s = std::make_unique<Store>(path.toStdString());
    } catch (const StoreError& e) {
        if ((e.code() & 0xff) != 8 /* SQLITE_READONLY */ && (e.code() & 0xff) != 14 /* SQLITE_CANTOPEN */) throw;
        s = std::make_unique<Store>(path.toStdString(), Store::Mode::ReadOnly);
    }
    setWindowTitle(s->read_only() ? tr("NormLab — %1 (read-only)").arg(QFileInfo(path).fileName()) : tr("NormLab"));
    return s;
}

bool MainWindow::openStore(const QString& path, QString* error) {
    if (worker_->current() || !worker_->queued().empty()) {
        if (error) *error = tr("Finish or cancel the queued runs before switching stores.");
        return false;
    }
    std::unique_ptr<Store> next;
    try {
        next = openStoreFile(path);
    } catch (const StoreError& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    // the worker gets a new connection to the new store
    worker_->cancelAll();
    thread_->quit();
    thread_->wait();
    store_ = std::move(next);
    thread_ = new QThread(this);
    worker_ = new TrainingWorker(QString::fromStdString(store_->path()));
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &TrainingWorker::progress, this, &MainWindow::onProgress, Qt::QueuedConnection);
    connect(worker_, &TrainingWorker::runEnded, this, &MainWindow::onRunEnded, Qt::QueuedConnection);
    thread_->start();
    QSettings().setValue("store", QString::fromStdString(store_->path()));
    checkStoreFile();
    shown_.clear();
    charts_->setRuns(std::vector<int64_t>{}, *store_);
    reloadRuns();
    return true;
}

std::vector<Store::Generation> MainWindow::storeGenerations() {
    std::vector<Store::Generation> out{store_->generation()};
    for (Store* c : comparedPointers()) out.push_back(c->generation());
    return out;
}

std::vector<Store*> MainWindow::comparedPointers() const {
    std::vector<Store*> out;
    for (auto& s : compared_) out.push_back(s.get());
    return out;
}

void MainWindow::addCompareActions(QMenu* file) {
    file->addAction(tr("&Compare with another store…"), this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Compare with run stores"), QString(),
                                                                tr("Run stores (*.sqlite *.db);;All files (*)"));
        for (const QString& p : paths) {
            QString err;
            if (!compareStore(p, &err)) QMessageBox::warning(this, tr("Run store"), err);
        }
    })->setObjectName("compareStore");
    auto* stop = file->addAction(tr("Stop comparing stores"), this, [this] { stopComparing(); });
    stop->setObjectName("stopComparing");
    connect(file, &QMenu::aboutToShow, stop, [this, stop] { stop->setEnabled(!compared_.empty()); });
}

bool MainWindow::compareStore(const QString& path, QString* error) {
    std::error_code ec;
    const std::filesystem::path p(path.toStdString());
    auto same = [&](const std::string& other) { return std::filesystem::equivalent(p, other, ec); };
    if (!std::filesystem::exists(p, ec)) {
        if (error) *error = tr("%1 does not exist.").arg(path);
        return false;
    }
    if (same(store_->path())) {
        if (error) *error = tr("%1 is the store this window has open.").arg(path);
        return false;
    }
    for (auto& s : compared_)
        if (same(s->path())) {
            if (error) *error = tr("%1 is already open for comparison.").arg(path);
            return false;
        }
    try {
        compared_.push_back(std::make_unique<Store>(path.toStdString(), Store::Mode::ReadOnly));
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    reloadRuns();
    statusBar()->showMessage(tr("Comparing with %1 (read-only): its runs are in the run table").arg(QFileInfo(path).fileName()), 8000);
    return true;
}

void MainWindow::stopComparing() {
    if (compared_.empty()) return;
    // The charts let go of the compared stores' runs before the stores close.
    std::vector<std::pair<Store*, int64_t>> own;
    for (auto& [src, id] : selectedRefs())
        if (!src) own.emplace_back(nullptr, id);
    charts_->setRuns(own, *store_);
    updateDifferences(own);   // nor does Settings that differ keep them (it listed them until runs were chosen again)
    table_->clearSelection();
    compared_.clear();
    reloadRuns();
    std::vector<qint64> ids;
    for (auto& r : own) ids.push_back(r.second);
    selectRuns(ids);
}

}  // namespace normlab
