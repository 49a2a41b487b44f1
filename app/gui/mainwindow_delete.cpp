// NormLab app: deleting runs from the run browser (with their checkpoints;
// refused for a run another process trains) and compacting the store to give
// the space of deleted runs back to the disk (see mainwindow.h).
#include "app/gui/mainwindow.h"

#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/remote/mirror.h"

#include <QApplication>
#include <QLocale>
#include <QMessageBox>
#include <QStatusBar>

namespace normlab {

// Every refusal said before any run is deleted; throws StoreError where the store cannot be written.
void MainWindow::deleteRuns(const std::vector<qint64>& ids) {
    for (qint64 id : ids)
        if (id == worker_->current()) {
            QMessageBox::information(this, tr("Delete"), tr("Run #%1 is training; cancel it first.").arg(id));
            return;
        }
    // Trained by another process (a normlab-cli): refused before any is deleted.
    for (qint64 id : ids)
        if (const auto r = store_->run(id); r && !Store::delete_refusal(*r).empty()) {
            QMessageBox::information(this, tr("Delete"),
                                     tr("Run #%1 is training in another process (pid %2 on %3): stop it there first "
                                        "(normlab-cli cancel %1), then delete it.")
                                         .arg(id)
                                         .arg(r->pid)
                                         .arg(QString::fromStdString(r->host)));
            return;
        }
    bool mirrored = false;
    for (qint64 id : ids)
        if (const auto r = store_->run(id); r && remote_ref(*r).run > 0) mirrored = true;
    QString question = tr("Delete %n run(s) and all their data? This cannot be undone.", nullptr, static_cast<int>(ids.size()));
    if (mirrored) question += "\n\n" + tr("A run mirrored from a server is deleted here only: it stays on the server (and trains on there, if it is training).");
    if (QMessageBox::question(this, tr("Delete runs"), question) != QMessageBox::Yes) return;
    Store::Deleted freed;
    for (qint64 id : ids) {
        worker_->cancel(id);
        const Store::Deleted d = store_->delete_run(id);
        freed.files += d.files;
        freed.bytes += d.bytes;
    }
    showRuns({});
    statusBar()->showMessage(
        freed.files > 0 ? tr("Deleted %n run(s); their checkpoints freed %1.", nullptr, static_cast<int>(ids.size()))
                              .arg(QLocale().formattedDataSize(static_cast<qint64>(freed.bytes)))
                        : tr("Deleted %n run(s).", nullptr, static_cast<int>(ids.size())),
        8000);
}

// File → Compact store: the free pages deleted runs left go back to the disk (SQLite's VACUUM,
// one transaction); the window waits, as a run training meanwhile does.
void MainWindow::compactStore() {
    if (store_->read_only()) {
        statusBar()->showMessage(tr("This store is open read-only: it cannot be compacted."), 8000);
        return;
    }
    try {
        const uintmax_t free = store_->free_bytes();
        if (free < (1u << 20)) {
            statusBar()->showMessage(tr("The store has %1 free: nothing to compact.").arg(QLocale().formattedDataSize(static_cast<qint64>(free))), 8000);
            return;
        }
        if (QMessageBox::question(this, tr("Compact store"),
                                  tr("Deleted runs left %1 free in the store's file. Give it back to the disk now? "
                                     "The store is rewritten in one step; a run training meanwhile waits for it.")
                                      .arg(QLocale().formattedDataSize(static_cast<qint64>(free)))) != QMessageBox::Yes)
            return;
        QApplication::setOverrideCursor(Qt::WaitCursor);
        Store::Compacted c;
        try {
            c = store_->compact();
        } catch (...) {
            QApplication::restoreOverrideCursor();
            throw;
        }
        QApplication::restoreOverrideCursor();
        statusBar()->showMessage(tr("Store compacted: %1 → %2.")
                                     .arg(QLocale().formattedDataSize(static_cast<qint64>(c.before)),
                                          QLocale().formattedDataSize(static_cast<qint64>(c.after))),
                                 10000);
    } catch (const StoreError& e) {
        QMessageBox::warning(this, tr("Run store"), QString::fromUtf8(e.what()));
    }
}

}  // namespace normlab
