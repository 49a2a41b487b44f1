// NormLab app: the main window's run browser and queue — showing, selecting,
// comparing, editing and resuming runs, and the progress of the ones training
// (the rest of the window is mainwindow.cpp).
#include "app/gui/mainwindow.h"

#include "app/gui/remote.h"
#include "app/gui/reportdialog.h"
#include "app/gui/sampledialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/experiment.h"
#include "core/remote/mirror.h"
#include "core/run_filter.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/elided_label.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"
#include "widgets/sweep.h"
#include "widgets/table_copy.h"

#include <QAction>
#include <QHeaderView>
#include <QItemSelection>
#include <QChart>
#include <QChartView>
#include <QApplication>
#include <QClipboard>
#include <QGuiApplication>
#include <QCloseEvent>
#include <QColorDialog>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFormLayout>
#include <QHBoxLayout>
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
using nlohmann::json;

void MainWindow::showRuns(const std::vector<qint64>& ids) {
    shown_ = ids;
    std::vector<std::pair<Store*, int64_t>> refs;
    for (qint64 id : ids) refs.emplace_back(nullptr, id);
    charts_->setRuns(refs, *store_);
    updateDifferences(refs);
}

std::vector<qint64> MainWindow::selectedRuns() const {
    std::vector<qint64> ids;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows()) {
        const int row = proxy_->mapToSource(i).row();
        if (const RunInfo* r = model_->runAt(row); r && !model_->storeAt(row)) ids.push_back(r->id);
    }
    std::sort(ids.begin(), ids.end());
    return ids;
}

std::vector<std::pair<Store*, int64_t>> MainWindow::selectedRefs() const {
    std::vector<std::pair<Store*, int64_t>> refs;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows()) {
        const int row = proxy_->mapToSource(i).row();
        if (const RunInfo* r = model_->runAt(row)) refs.emplace_back(model_->storeAt(row), r->id);
    }
    // the window's own runs first, by id; then each compared store's
    std::sort(refs.begin(), refs.end(), [&](const auto& a, const auto& b) {
        auto rank = [&](Store* s) {
            if (!s) return size_t(0);
            for (size_t k = 0; k < compared_.size(); ++k)
                if (compared_[k].get() == s) return k + 1;
            return compared_.size() + 1;
        };
        return std::make_pair(rank(a.first), a.second) < std::make_pair(rank(b.first), b.second);
    });
    return refs;
}

void MainWindow::selectRuns(const std::vector<qint64>& ids) {
    std::vector<std::pair<Store*, int64_t>> refs;
    for (qint64 id : ids) refs.emplace_back(nullptr, id);
    selectRefs(refs);
}

// Rows next to each other in the table are one range of the selection: a range a row made the
// selection model's every question (selectedRows, isRowSelected) go through thousands of them.
void MainWindow::selectRefs(const std::vector<std::pair<Store*, int64_t>>& refs) {
    std::vector<int> rows;
    for (const auto& [source, id] : refs)
        if (const int row = model_->rowOf(id, source); row >= 0)
            if (const QModelIndex at = proxy_->mapFromSource(model_->index(row, 0)); at.isValid()) rows.push_back(at.row());
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    QItemSelection sel;
    for (size_t i = 0; i < rows.size();) {
        size_t j = i + 1;
        while (j < rows.size() && rows[j] == rows[j - 1] + 1) ++j;
        sel.select(proxy_->index(rows[i], 0), proxy_->index(rows[j - 1], 0));
        i = j;
    }
    table_->selectionModel()->select(sel, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void MainWindow::onSelectionChanged() {
    if (restoring_selection_) return;   // the same runs, selected again after the table's reset
    const auto refs = selectedRefs();
    if (refs.empty()) return;
    shown_ = selectedRuns();
    charts_->setRuns(refs, *store_);
    updateDifferences(refs);
}

QTreeWidgetItem* MainWindow::queueItem(qint64 run, bool create) {
    for (int i = 0; i < queue_->topLevelItemCount(); ++i)
        if (queue_->topLevelItem(i)->data(0, Qt::UserRole).toLongLong() == run) return queue_->topLevelItem(i);
    if (!create) return nullptr;
    auto* it = new QTreeWidgetItem(queue_);
    it->setData(0, Qt::UserRole, run);
    auto r = store_->run(run);
    it->setText(0, QString("#%1 %2").arg(run).arg(r ? QString::fromStdString(r->name) : QString()));
    it->setText(1, tr("queued"));
    auto* bar = new QProgressBar(queue_);
    bar->setRange(0, 1000);
    bar->setValue(0);
    queue_->setItemWidget(it, 2, bar);
    return it;
}

// A worker status ("running", "paused", ...) as the queue shows it, translated.
QString MainWindow::shownStatus(const QString& s) {
    if (s == "paused") return tr("paused");
    return RunTableModel::statusText(s.toStdString());
}

void MainWindow::onProgress(const ProgressInfo& p) {
    auto* it = queueItem(p.run, true);
    it->setText(1, shownStatus(p.status));
    if (auto* bar = qobject_cast<QProgressBar*>(queue_->itemWidget(it, 2)))
        bar->setValue(p.total > 0 ? static_cast<int>(1000 * p.step / p.total) : 0);
    it->setText(3, std::isfinite(p.loss) ? QString::number(p.loss, 'f', 4) : QString("nan"));
    it->setText(4, QString::number(p.tokens_per_s, 'f', 0));
    const bool paused = p.status == "paused";
    it->setText(5, paused ? tr("paused") : format_eta(p.eta_s));
    const int pct = p.total > 0 ? static_cast<int>(100 * p.step / p.total) : 0;
    progress_->setText(tr("Run #%1 %2: step %3/%4 (%5%) · loss %6 · ETA %7")
                           .arg(p.run)
                           .arg(p.name)
                           .arg(p.step)
                           .arg(p.total)
                           .arg(pct)
                           .arg(std::isfinite(p.loss) ? QString::number(p.loss, 'f', 3) : QString("nan"))
                           .arg(paused ? tr("paused") : format_eta(p.eta_s)) +
                       (p.mfu > 0 ? tr(" · MFU %1%").arg(100 * p.mfu, 0, 'f', 1) : QString()));   // where the device's peak is known
}

void MainWindow::refreshTick() {
    if (!reading_charts_) readCharts();
    if (++refresh_ticks_ % 4 == 0) {
        std::vector<Store::Generation> now = storeGenerations();
        if (now != table_generations_) {
            table_generations_ = std::move(now);
            reloadRuns();
        }
    }
    if (refresh_ticks_ % 20 == 1) {
        device_ = deviceText();   // a GPU's free memory, every 5 s
        checkStoreFile();
    }
    showStatus();
}

void MainWindow::showStatus() {
    const QString mode = !store_gone_.isEmpty() ? tr(" (its file was deleted or replaced)")
                         : store_->read_only()  ? tr(" (read-only)")
                                                : QString();
    status_->setText(device_ + " · " + tr("Store: %1 · UI latency p50 %2 ms, p99 %3 ms")
                         .arg(QString::fromStdString(store_->path()) + mode)
                         .arg(latency_->percentile(50), 0, 'f', 1)
                         .arg(latency_->percentile(99), 0, 'f', 1));
}

// A fast run's rows (10^5 points a second: ~50,000 a refresh) took 10-24 ms to read in one
// block here; in 4 ms slices the window's timers and paints run between them.
void MainWindow::readCharts() {
    reading_charts_ = !charts_->refreshUntil(*store_, std::chrono::steady_clock::now() + std::chrono::milliseconds(4));
    if (reading_charts_) QTimer::singleShot(1, Qt::PreciseTimer, this, &MainWindow::readCharts);
}

void MainWindow::onRunEnded(qint64 run, const QString& status, const QString& message) {
    if (auto r = store_->run(run); r && r->status == RunStatus::Queued && status == "cancelled")
        store_->set_status(run, RunStatus::Cancelled, message.toStdString());
    if (auto* it = queueItem(run, true)) {
        it->setText(1, shownStatus(status));
        it->setToolTip(1, message);
        if (auto* bar = qobject_cast<QProgressBar*>(queue_->itemWidget(it, 2)); bar && status == "finished") bar->setValue(1000);
        it->setText(5, "—");   // no time left for an ended run
    }
    progress_->setText(tr("Run #%1: %2").arg(run).arg(shownStatus(status)));
    charts_->refresh(*store_);
    reloadRuns();
    if (status != "finished" && !message.isEmpty())
        statusBar()->showMessage(tr("Run #%1 %2: %3").arg(run).arg(status, message), 10000);
}

void MainWindow::editSelected(const QString& what) {
    const auto ids = selectedRuns();
    if (ids.empty()) return;
    const RunInfo* first = model_->runAt(model_->rowOf(ids.front()));
    if (!first) return;
    try {
        if (what == "rename") {
            bool ok = false;
            const QString name = QInputDialog::getText(this, tr("Rename run"), tr("Name"), QLineEdit::Normal,
                                                       QString::fromStdString(first->name), &ok);
            if (ok && !name.trimmed().isEmpty()) store_->rename_run(first->id, name.trimmed().toStdString());
        } else if (what == "tags") {
            QStringList cur;
            for (auto& t : first->tags) cur << QString::fromStdString(t);
            bool ok = false;
            const QString text = QInputDialog::getText(this, tr("Tags"), tr("Comma-separated tags"), QLineEdit::Normal, cur.join(", "), &ok);
            if (ok) {
                std::vector<std::string> tags;
                for (auto& t : text.split(',', Qt::SkipEmptyParts)) tags.push_back(t.trimmed().toStdString());
                for (qint64 id : ids) store_->set_tags(id, tags);
            }
        } else if (what == "notes") {
            bool ok = false;
            const QString text = QInputDialog::getMultiLineText(this, tr("Notes"), tr("Notes on run #%1").arg(first->id),
                                                                QString::fromStdString(first->notes), &ok);
            if (ok) store_->set_notes(first->id, text.toStdString());
        } else if (what == "color") {
            const QColor c = QColorDialog::getColor(run_color(*first), this, tr("Colour of run #%1").arg(first->id));
            if (c.isValid())
                for (qint64 id : ids) store_->set_run_color(id, c.name().toStdString());
            showRuns(ids);   // redraw with the new colour
        } else if (what == "resume") {
            resumeRuns(ids);
        } else if (what == "load") {
            loadRunSettings(first->id);
        } else if (what == "delete") {
            deleteRuns(ids);
        } else if (what == "sample") {
            writeText(ids);
            return;   // nothing in the store changed
        }
    } catch (const StoreError& e) {
        QMessageBox::warning(this, tr("Run store"), QString::fromUtf8(e.what()));
    }
    reloadRuns();
}

// Resume: a cancelled, interrupted or failed run continues from its
// checkpoint on the worker (from step 0 when it has none); the worker claims
// it atomically, so a run resumed elsewhere meanwhile is left alone.
void MainWindow::resumeRuns(const std::vector<qint64>& all) {
    if (store_->read_only()) {
        statusBar()->showMessage(tr("This store is open read-only: runs cannot be resumed into it."), 8000);
        return;
    }
    const std::vector<qint64> ids = remoteAction(all, "resume");   // a server's runs resume there
    QStringList skipped;
    for (qint64 id : ids) {
        auto r = store_->run(id);
        const auto queued = worker_->queued();
        if (!r || !resumable(r->status) || r->status == RunStatus::Queued || id == worker_->current() ||
            std::find(queued.begin(), queued.end(), id) != queued.end()) {
            skipped << QString("#%1").arg(id);
            continue;
        }
        if (auto* it = queueItem(id, true)) it->setText(1, tr("resuming"));
        worker_->enqueue(id, true);
    }
    if (!skipped.isEmpty())
        statusBar()->showMessage(tr("Not resumed (finished, training or queued): %1").arg(skipped.join(", ")), 8000);
}

bool MainWindow::loadRunSettings(qint64 id) {
    auto r = store_->run(id);
    if (!r) return false;
    // To change one thing and train again; Edit → Undo takes the form back.
    designer_->setConfig(run_config_from_json(r->config));
    statusBar()->showMessage(tr("Settings of run #%1 loaded into the form").arg(id), 6000);
    return true;
}

// Write text: the selected runs (by id, the first SampleDialog::kMaxRuns side
// by side) continue one prompt with the same draws, in a dialog of their own that the window
// goes on beside; it reads their checkpoints, never the store.
void MainWindow::writeText(const std::vector<qint64>& ids) {
    std::vector<RunInfo> runs;
    for (qint64 id : ids)
        if (const RunInfo* r = model_->runAt(model_->rowOf(id))) runs.push_back(*r);
    if (runs.empty()) return;
    auto* d = new SampleDialog(std::move(runs), 0, this);   // it leaves out what does not fit, and says so
    d->setAttribute(Qt::WA_DeleteOnClose);
    d->show();
    d->write();
}

void MainWindow::filterRuns(const QString& text) {
    proxy_->setFilterText(text);
    if (proxy_->rowCount() > 0 || model_->rowCount() == 0) return;
    std::vector<RunInfo> runs;
    for (int r = 0; r < model_->rowCount(); ++r) runs.push_back(*model_->runAt(r));
    QStringList why;
    for (const RunFilter::Note& n : RunFilter(text.toStdString()).notes(runs)) {
        const QString word = QString::fromStdString(n.word), key = QString::fromStdString(n.key);
        if (n.kind == RunFilter::Note::Kind::NotANumber)
            why << tr("%1: <, <=, > and >= compare numbers, and \"%2\" is not one").arg(word, QString::fromStdString(n.value));
        else if (n.suggestion.empty())
            why << tr("%1: no run has a column or setting \"%2\"").arg(word, key);
        else
            why << tr("%1: no run has a column or setting \"%2\"; did you mean %3?").arg(word, key, QString::fromStdString(n.suggestion));
    }
    if (!why.isEmpty()) statusBar()->showMessage(why.join(" · "), 10000);
}

void MainWindow::addTableKeys() {
    auto key = [](QTableView* view, const QKeySequence& keys, const char* name, auto slot) {
        auto* a = new QAction(view);   // only while the table has the focus: Delete in the filter deletes text
        a->setObjectName(name);
        a->setShortcut(keys);
        a->setShortcutContext(Qt::WidgetShortcut);
        QObject::connect(a, &QAction::triggered, view, slot);
        view->addAction(a);
        return a;
    };
    key(table_, QKeySequence::Delete, "deleteKey", [this] { editSelected("delete"); });
    key(table_, QKeySequence(Qt::Key_F2), "renameKey", [this] { editSelected("rename"); });
    key(table_, QKeySequence::Copy, "copyRuns", [this] { copyRows(table_, true); });
    // the panel's context menu is its actions: Copy, with its key beside it (retranslate() names it again)
    key(diff_, QKeySequence::Copy, "copyDifferences", [this] {
        if (diff_refs_.size() < 2) return;   // its hint, no settings
        if (diff_->selectionModel() && !diff_->selectionModel()->hasSelection()) diff_->selectAll();   // from the menu: all of it
        copyRows(diff_, false);
    })->setText(tr("Co&py as text"));
    diff_->setContextMenuPolicy(Qt::ActionsContextMenu);
}

// Copies what the view shows of its selected rows (widgets/table_copy.h), and says so.
void MainWindow::copyRows(QTableView* view, bool runs) {
    int rows = 0;
    const QString text = selectedRowsText(*view, &rows);
    if (rows == 0) return;
    QGuiApplication::clipboard()->setText(text);
    statusBar()->showMessage(runs ? tr("Copied %n run(s) as tab-separated text", nullptr, rows)
                                  : tr("Copied %n setting(s) as tab-separated text", nullptr, rows),
                             5000);
}

void MainWindow::showRunMenu(const QPoint& pos) {
    if (!table_->indexAt(pos).isValid()) return;
    QMenu menu(this);
    const auto ids = selectedRuns();
    bool can_resume = false;
    for (qint64 id : ids)
        if (auto r = store_->run(id); r && resumable(r->status) && r->status != RunStatus::Queued) can_resume = true;
    auto* resume = menu.addAction(tr("&Resume from checkpoint"), this, [this] { editSelected("resume"); });
    resume->setEnabled(can_resume && !store_->read_only());
    bool on_server = false;
    for (qint64 id : ids)
        if (auto r = store_->run(id); r && remote_ref(*r).run > 0 && (r->status == RunStatus::Running || r->status == RunStatus::Queued))
            on_server = true;
    if (on_server)
        menu.addAction(tr("Stop on the &server"), this, [this] {
                // Those still training or queued there: a finished run has nothing to stop.
                std::vector<qint64> live;
                for (qint64 id : selectedRuns())
                    if (auto r = store_->run(id); r && (r->status == RunStatus::Running || r->status == RunStatus::Queued)) live.push_back(id);
                remoteAction(live, "cancel");
            })->setObjectName("stopOnServer");
    if (ids.size() == 1)
        if (auto r = store_->run(ids.front()); r && remote_ref(*r).run > 0)
            menu.addAction(tr("&Fetch weights from the server…"), this, [this, id = ids.front()] { fetchRemoteWeights(id); })
                ->setObjectName("fetchWeights");
    bool in_sweep = false;
    for (qint64 id : ids)
        if (auto r = store_->run(id); r && !remote_ref(*r).sweep.empty() && !follow_ended(r->status)) in_sweep = true;
    if (in_sweep)
        menu.addAction(tr("Cancel the Slurm &job"), this, [this] { cancelSweeps(selectedRuns()); })->setObjectName("cancelSweep");
    menu.addAction(tr("&Load settings into the form"), this, [this] { editSelected("load"); })->setObjectName("loadSettings");
    menu.addAction(tr("&Write text with the weights…"), this, [this] { editSelected("sample"); })->setObjectName("writeText");
    QAction* copy = menu.addAction(tr("Co&py as text"), this, [this] { copyRows(table_, true); });
    copy->setShortcut(QKeySequence::Copy);   // shown beside it: the table's own key (addTableKeys)
    menu.addSeparator();
    QAction* rename = menu.addAction(tr("Re&name…"), this, [this] { editSelected("rename"); });
    rename->setShortcut(QKeySequence(Qt::Key_F2));
    menu.addAction(tr("&Tags…"), this, [this] { editSelected("tags"); });
    menu.addAction(tr("N&otes…"), this, [this] { editSelected("notes"); });
    menu.addAction(tr("&Colour…"), this, [this] { editSelected("color"); });
    menu.addSeparator();
    menu.addAction(tr("&Delete…"), this, [this] { editSelected("delete"); })->setShortcut(QKeySequence::Delete);
    if (ids.empty()) {   // only runs of compared stores: they are shown, never changed
        for (QAction* a : menu.actions())
            if (a != copy) a->setEnabled(false);
        menu.addSeparator();
        menu.addAction(tr("Runs of a compared store are read-only"))->setEnabled(false);
    }
    menu.exec(table_->viewport()->mapToGlobal(pos));
}

}  // namespace normlab
