// NormLab app: other run stores opened beside the window's own, read-only, so
// that runs of several stores (another machine's, a sweep's task stores) are
// compared in one table and every chart (see mainwindow.h).
#include "app/gui/mainwindow.h"

#include "widgets/chartsview.h"
#include "widgets/runtable.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QTableView>

#include <filesystem>

namespace normlab {

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
    table_->clearSelection();
    compared_.clear();
    reloadRuns();
    std::vector<qint64> ids;
    for (auto& r : own) ids.push_back(r.second);
    selectRuns(ids);
}

}  // namespace normlab
