// NormLab app: MainWindow (see mainwindow.h).
#include "app/gui/mainwindow.h"

#include "app/gui/reportdialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/linechart.h"
#include "widgets/runtable.h"

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
using nlohmann::json;

// ---- LatencyMonitor ------------------------------------------------------------
LatencyMonitor::LatencyMonitor(QObject* parent) : QObject(parent) {
    timer_ = new QTimer(this);
    timer_->setTimerType(Qt::PreciseTimer);
    timer_->setInterval(10);
    clock_.start();
    connect(timer_, &QTimer::timeout, this, [this] {
        const qint64 now = clock_.nsecsElapsed();
        if (last_ns_ > 0) samples_.push_back(std::max(0.0, (now - last_ns_) / 1e6 - 10.0));
        if (samples_.size() > 200000) samples_.erase(samples_.begin(), samples_.begin() + 100000);
        last_ns_ = now;
    });
    timer_->start();
}

void LatencyMonitor::reset() {
    samples_.clear();
    last_ns_ = 0;
}

double LatencyMonitor::percentile(double p) const {
    if (samples_.empty()) return 0;
    std::vector<double> v = samples_;
    const size_t k = std::min(v.size() - 1, static_cast<size_t>(p / 100.0 * (v.size() - 1) + 0.5));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
}

// ---- MainWindow ----------------------------------------------------------------
namespace {

void flatten(const json& j, const std::string& prefix, std::map<std::string, std::string>& out) {
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    } else {
        out[prefix] = j.is_string() ? j.get<std::string>() : j.dump();
    }
}

QString fmt_eta(double s) {
    if (!std::isfinite(s) || s <= 0) return "—";
    const int t = static_cast<int>(s + 0.5);
    return t >= 3600 ? QString("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar('0')).arg(t % 60, 2, 10, QChar('0'))
                     : QString("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
}

}  // namespace

MainWindow::MainWindow(const QString& store_path, QWidget* parent) : QMainWindow(parent) {
    QSettings settings;
    QString path = store_path;
    if (path.isEmpty()) path = settings.value("store", QString::fromStdString(Store::default_path())).toString();
    try {
        store_ = std::make_unique<Store>(path.toStdString());
    } catch (const StoreError& e) {
        QMessageBox::warning(this, tr("Run store"), tr("%1\n\nNormLab opens the default store instead.").arg(e.what()));
        path = QString::fromStdString(Store::default_path());
        store_ = std::make_unique<Store>(path.toStdString());
    }
    buildUi();
    buildMenus();
    thread_ = new QThread(this);
    thread_->setObjectName("training");
    worker_ = new TrainingWorker(QString::fromStdString(store_->path()));
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &TrainingWorker::progress, this, &MainWindow::onProgress, Qt::QueuedConnection);
    connect(worker_, &TrainingWorker::runEnded, this, &MainWindow::onRunEnded, Qt::QueuedConnection);
    connect(worker_, &TrainingWorker::runStarted, this, [this](qint64 id) {
        if (auto* it = queueItem(id, true)) it->setText(1, tr("running"));
        reloadRuns();
    }, Qt::QueuedConnection);
    thread_->start();
    latency_ = new LatencyMonitor(this);
    refresh_ = new QTimer(this);
    refresh_->setInterval(250);
    connect(refresh_, &QTimer::timeout, this, [this] {
        charts_->refresh(*store_);
        if (++refresh_ticks_ % 4 == 0) reloadRuns();
        status_->setText(tr("Store: %1 · UI latency p50 %2 ms, p99 %3 ms")
                             .arg(QString::fromStdString(store_->path()))
                             .arg(latency_->percentile(50), 0, 'f', 1)
                             .arg(latency_->percentile(99), 0, 'f', 1));
    });
    refresh_->start();
    reloadRuns();
    restoreGeometry(settings.value("geometry").toByteArray());
    restoreState(settings.value("windowState").toByteArray());
    applyTheme();
    // Start with the newest saved run on screen, if any.
    if (model_->rowCount() > 0) showRuns({model_->runAt(model_->rowCount() - 1)->id});
}

MainWindow::~MainWindow() {
    worker_->cancelAll();
    thread_->quit();
    thread_->wait();
}

void MainWindow::buildUi() {
    setWindowTitle(tr("NormLab"));
    setWindowIcon(QIcon(":/normlab.svg"));
    charts_ = new ChartsView(this);
    setCentralWidget(charts_);

    designer_ = new Designer(this);
    auto* design_dock = new QDockWidget(tr("Experiment"), this);
    design_dock->setObjectName("designerDock");
    design_dock->setWidget(designer_);
    addDockWidget(Qt::LeftDockWidgetArea, design_dock);
    connect(designer_, &Designer::runRequested, this, [this] { runCurrent(); });
    connect(designer_, &Designer::runExperimentRequested, this, [this] { runExperiment(); });

    // queue
    auto* qw = new QWidget(this);
    auto* qv = new QVBoxLayout(qw);
    qv->setContentsMargins(2, 2, 2, 2);
    queue_ = new QTreeWidget(qw);
    queue_->setObjectName("queue");
    queue_->setRootIsDecorated(false);
    queue_->setHeaderLabels({tr("Run"), tr("Status"), tr("Progress"), tr("Loss"), tr("Tokens/s"), tr("ETA")});
    queue_->setColumnWidth(0, 200);
    queue_->setColumnWidth(2, 160);
    qv->addWidget(queue_, 1);
    auto* qb = new QHBoxLayout();
    auto* cancel = new QPushButton(tr("Cancel"), qw);
    auto* pause = new QPushButton(tr("Pause"), qw);
    pause->setCheckable(true);
    qb->addWidget(cancel);
    qb->addWidget(pause);
    qb->addStretch(1);
    qv->addLayout(qb);
    connect(cancel, &QPushButton::clicked, this, [this] {
        for (auto* it : queue_->selectedItems()) worker_->cancel(it->data(0, Qt::UserRole).toLongLong());
        if (queue_->selectedItems().isEmpty() && worker_->current()) worker_->cancel(worker_->current());
    });
    connect(pause, &QPushButton::toggled, this, [this, pause](bool on) {
        if (on) worker_->pause();
        else worker_->resume();
        pause->setText(on ? tr("Resume") : tr("Pause"));
    });
    auto* queue_dock = new QDockWidget(tr("Queue"), this);
    queue_dock->setObjectName("queueDock");
    queue_dock->setWidget(qw);
    addDockWidget(Qt::BottomDockWidgetArea, queue_dock);

    // run browser
    auto* bw = new QWidget(this);
    auto* bv = new QVBoxLayout(bw);
    bv->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit(bw);
    filter_->setObjectName("runFilter");
    filter_->setPlaceholderText(tr("Filter runs (name, scheme, status, tags, notes)…"));
    filter_->setClearButtonEnabled(true);
    bv->addWidget(filter_);
    model_ = new RunTableModel(this);
    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(Qt::UserRole);
    proxy_->setFilterKeyColumn(-1);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_ = new QTableView(bw);
    table_->setObjectName("runTable");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunTableModel::Id, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    bv->addWidget(table_, 1);
    auto* bb = new QHBoxLayout();
    for (auto [label, what] : {std::pair{tr("Rename"), QString("rename")}, {tr("Tags"), QString("tags")},
                               {tr("Notes"), QString("notes")}, {tr("Delete"), QString("delete")}}) {
        auto* b = new QPushButton(label, bw);
        b->setObjectName("run_" + what);
        connect(b, &QPushButton::clicked, this, [this, what = what] { editSelected(what); });
        bb->addWidget(b);
    }
    bb->addStretch(1);
    bv->addLayout(bb);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::onSelectionChanged);
    auto* runs_dock = new QDockWidget(tr("Runs — select several to compare"), this);
    runs_dock->setObjectName("runsDock");
    runs_dock->setWidget(bw);
    addDockWidget(Qt::BottomDockWidgetArea, runs_dock);
    tabifyDockWidget(queue_dock, runs_dock);
    runs_dock->raise();

    // differences
    diff_ = new QTableWidget(this);
    diff_->setObjectName("differences");
    diff_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* diff_dock = new QDockWidget(tr("Settings that differ"), this);
    diff_dock->setObjectName("diffDock");
    diff_dock->setWidget(diff_);
    addDockWidget(Qt::RightDockWidgetArea, diff_dock);

    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    resize(1500, 950);
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open experiment…"), this, [this] {
        QSettings s;
        const QString p = QFileDialog::getOpenFileName(this, tr("Open experiment"), s.value("lastExperimentDir").toString(),
                                                       tr("Experiments (*.json)"));
        if (p.isEmpty()) return;
        QString err;
        if (!designer_->openExperiment(p, &err)) {
            QMessageBox::warning(this, tr("Experiment"), err);
            return;
        }
        s.setValue("lastExperimentDir", QFileInfo(p).absolutePath());
        QStringList recent = s.value("recentExperiments").toStringList();
        recent.removeAll(p);
        recent.prepend(p);
        s.setValue("recentExperiments", recent.mid(0, 8));
    });
    open->setShortcut(QKeySequence::Open);
    auto* save = file->addAction(tr("&Save experiment…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save experiment"), QString(), tr("Experiments (*.json)"));
        QString err;
        if (!p.isEmpty() && !designer_->saveExperiment(p, &err)) QMessageBox::warning(this, tr("Experiment"), err);
    });
    save->setShortcut(QKeySequence::Save);
    auto* recent = file->addMenu(tr("&Recent experiments"));
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        const QStringList files = QSettings().value("recentExperiments").toStringList();
        for (const QString& f : files)
            recent->addAction(QFileInfo(f).fileName(), this, [this, f] {
                QString err;
                if (!designer_->openExperiment(f, &err)) QMessageBox::warning(this, tr("Experiment"), err);
            })->setToolTip(f);
        if (files.isEmpty()) recent->addAction(tr("(none yet)"))->setEnabled(false);
    });
    file->addAction(tr("Open run &store…"), this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open run store"), QString(), tr("Run stores (*.sqlite *.db);;All files (*)"));
        QString err;
        if (!p.isEmpty() && !openStore(p, &err)) QMessageBox::warning(this, tr("Run store"), err);
    });
    file->addSeparator();
    auto* exp = file->addAction(tr("&Export chart…"), this, [this] { exportDialog(false); });
    exp->setShortcut(QKeySequence(tr("Ctrl+E")));
    auto* expp = file->addAction(tr("Export &panel…"), this, [this] { exportDialog(true); });
    expp->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), this, [this] { runCurrent(); })->setShortcut(QKeySequence(tr("Ctrl+R")));
    run->addAction(tr("Run &experiment"), this, [this] { runExperiment(); })->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    run->addAction(tr("&Stop"), this, [this] {
        if (worker_->current()) worker_->cancel(worker_->current());
    })->setShortcut(QKeySequence(tr("Ctrl+.")));
    run->addSeparator();
    run->addAction(tr("Reproduce paper &findings…"), this, [this] {
        auto* d = new ReportDialog(QString::fromStdString(store_->path()), this);
        d->setAttribute(Qt::WA_DeleteOnClose);
        connect(d, &ReportDialog::reportFinished, this, [this](int) { reloadRuns(); });
        d->show();
    });

    auto* view = menuBar()->addMenu(tr("&View"));
    auto* logy = view->addAction(tr("&Log-scale loss"), this, [this](bool on) { charts_->setLogY(on); });
    logy->setCheckable(true);
    logy->setShortcut(QKeySequence(tr("Ctrl+L")));
    auto* smooth = view->addAction(tr("&Smoothing"), this, [this](bool on) { charts_->setSmoothing(on ? 0.6 : 0.0); });
    smooth->setCheckable(true);
    smooth->setChecked(true);
    smooth->setShortcut(QKeySequence(tr("Ctrl+M")));
    auto* reset = view->addAction(tr("Reset &zoom"), this, [this] {
        if (auto* lc = qobject_cast<LineChart*>(charts_->currentChart())) lc->resetZoom();
    });
    reset->setShortcut(QKeySequence(tr("Ctrl+0")));
    auto* lang = view->addMenu(tr("&Language"));
    for (auto [label, code] : {std::pair{tr("System"), QString()}, {QString("English"), QString("en")},
                               {QString("Deutsch"), QString("de")}, {QString("简体中文"), QString("zh_CN")}})
        lang->addAction(label, this, [this, code = code] {
            QSettings().setValue("language", code);
            switchLanguage(code);
        });

    auto* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About NormLab"), this, [this] {
        const json v = library_versions();
        QMessageBox::about(this, tr("About NormLab"),
                           tr("<h3>NormLab %1</h3><p>A lab for the normalization of Transformer language models:"
                              " Post-LN, Pre-LN, NormFormer, DeepNorm, BranchNorm and nGPT, each component a toggle.</p>"
                              "<p>Qt %2 · LibTorch %3 · SQLite %4 · %5</p>")
                               .arg(NORMLAB_VERSION, qVersion(), QString::fromStdString(v["libtorch"].get<std::string>()),
                                    QString::fromStdString(v["sqlite"].get<std::string>()),
                                    v["cuda"].get<bool>() ? tr("CUDA available") : tr("CPU only")));
    });
}

void MainWindow::applyTheme() {
    // Follow the system: a dark window palette gets dark charts.
    const bool dark = qApp->palette().color(QPalette::Window).lightness() < 128;
    const auto theme = dark ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    for (auto* view : charts_->findChildren<QChartView*>()) view->chart()->setTheme(theme);
    // a theme resets series colors: rebuild the curves with their run colors
    if (store_) charts_->setRuns(std::vector<int64_t>(shown_.begin(), shown_.end()), *store_);
}

bool MainWindow::openStore(const QString& path, QString* error) {
    if (worker_->current() || !worker_->queued().empty()) {
        if (error) *error = tr("Finish or cancel the queued runs before switching stores.");
        return false;
    }
    std::unique_ptr<Store> next;
    try {
        next = std::make_unique<Store>(path.toStdString());
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
    shown_.clear();
    charts_->setRuns({}, *store_);
    reloadRuns();
    return true;
}

qint64 MainWindow::runCurrent() {
    if (!designer_->valid()) {
        statusBar()->showMessage(tr("Cannot run: %1").arg(designer_->error()), 8000);
        return 0;
    }
    try {
        RunConfig cfg = designer_->config();
        const qint64 id = queue_run(*store_, cfg, 0, {"gui"});
        worker_->enqueue(id);
        queueItem(id, true);
        reloadRuns();
        showRuns({id});
        return id;
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Run"), QString::fromUtf8(e.what()));
        return 0;
    }
}

std::vector<qint64> MainWindow::runExperiment() {
    std::vector<qint64> ids;
    const auto& ex = designer_->experiment();
    if (!ex) {
        statusBar()->showMessage(tr("Open an experiment file first (Ctrl+O)."), 8000);
        return ids;
    }
    try {
        const int64_t eid = store_->add_experiment(ex->name, ex->file, ex->spec);
        for (auto& r : ex->runs) {
            const qint64 id = queue_run(*store_, r.config, eid, {ex->name});
            worker_->enqueue(id);
            queueItem(id, true);
            ids.push_back(id);
        }
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Run experiment"), QString::fromUtf8(e.what()));
    }
    reloadRuns();
    showRuns(ids);
    return ids;
}

void MainWindow::showRuns(const std::vector<qint64>& ids) {
    shown_ = ids;
    charts_->setRuns(std::vector<int64_t>(ids.begin(), ids.end()), *store_);
    updateDifferences(ids);
}

void MainWindow::reloadRuns() {
    model_->reload(*store_);
}

std::vector<qint64> MainWindow::selectedRuns() const {
    std::vector<qint64> ids;
    for (const QModelIndex& i : table_->selectionModel()->selectedRows())
        if (const RunInfo* r = model_->runAt(proxy_->mapToSource(i).row())) ids.push_back(r->id);
    std::sort(ids.begin(), ids.end());
    return ids;
}

void MainWindow::onSelectionChanged() {
    auto ids = selectedRuns();
    if (!ids.empty()) showRuns(ids);
}

void MainWindow::updateDifferences(const std::vector<qint64>& ids) {
    diff_->clear();
    std::vector<std::map<std::string, std::string>> flat;
    QStringList headers;
    for (qint64 id : ids)
        if (auto r = store_->run(id)) {
            std::map<std::string, std::string> f;
            flatten(r->config, "", f);
            f.erase("name");
            flat.push_back(std::move(f));
            headers << QString("#%1 %2").arg(id).arg(QString::fromStdString(r->name));
        }
    std::vector<std::string> keys;
    if (!flat.empty())
        for (auto& [k, v] : flat.front()) {
            bool differs = flat.size() == 1;   // a single run: show its normalization components
            for (auto& f : flat) differs = differs || f[k] != v;
            if (flat.size() == 1 && !(k.rfind("model.", 0) == 0 || k == "scheme")) differs = false;
            if (differs) keys.push_back(k);
        }
    diff_->setColumnCount(static_cast<int>(flat.size()));
    diff_->setRowCount(static_cast<int>(keys.size()));
    diff_->setHorizontalHeaderLabels(headers);
    QStringList rows;
    for (size_t k = 0; k < keys.size(); ++k) {
        rows << QString::fromStdString(keys[k]);
        for (size_t c = 0; c < flat.size(); ++c) {
            auto* item = new QTableWidgetItem(QString::fromStdString(flat[c][keys[k]]));
            item->setForeground(run_color(static_cast<int>(c)));
            diff_->setItem(static_cast<int>(k), static_cast<int>(c), item);
        }
    }
    diff_->setVerticalHeaderLabels(rows);
    diff_->resizeColumnsToContents();
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

void MainWindow::onProgress(const ProgressInfo& p) {
    auto* it = queueItem(p.run, true);
    it->setText(1, p.status);
    if (auto* bar = qobject_cast<QProgressBar*>(queue_->itemWidget(it, 2)))
        bar->setValue(p.total > 0 ? static_cast<int>(1000 * p.step / p.total) : 0);
    it->setText(3, std::isfinite(p.loss) ? QString::number(p.loss, 'f', 4) : QString("nan"));
    it->setText(4, QString::number(p.tokens_per_s, 'f', 0));
    it->setText(5, fmt_eta(p.eta_s));
}

void MainWindow::onRunEnded(qint64 run, const QString& status, const QString& message) {
    if (auto r = store_->run(run); r && r->status == RunStatus::Queued && status == "cancelled")
        store_->set_status(run, RunStatus::Cancelled, message.toStdString());
    if (auto* it = queueItem(run, true)) {
        it->setText(1, status);
        it->setToolTip(1, message);
        if (auto* bar = qobject_cast<QProgressBar*>(queue_->itemWidget(it, 2)); bar && status == "finished") bar->setValue(1000);
    }
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
        } else if (what == "delete") {
            for (qint64 id : ids)
                if (id == worker_->current()) {
                    QMessageBox::information(this, tr("Delete"), tr("Run #%1 is training; cancel it first.").arg(id));
                    return;
                }
            if (QMessageBox::question(this, tr("Delete runs"),
                                      tr("Delete %n run(s) and all their data? This cannot be undone.", nullptr,
                                         static_cast<int>(ids.size()))) != QMessageBox::Yes)
                return;
            for (qint64 id : ids) {
                worker_->cancel(id);
                store_->delete_run(id);
            }
            showRuns({});
        }
    } catch (const StoreError& e) {
        QMessageBox::warning(this, tr("Run store"), QString::fromUtf8(e.what()));
    }
    reloadRuns();
}

void MainWindow::exportDialog(bool whole_panel) {
    QDialog dlg(this);
    dlg.setWindowTitle(whole_panel ? tr("Export panel") : tr("Export chart"));
    auto* form = new QFormLayout(&dlg);
    auto* format = new QComboBox(&dlg);
    format->addItem("PNG", "png");
    format->addItem("SVG", "svg");
    format->addItem("PDF", "pdf");
    format->addItem(tr("CSV (the plotted data, every point)"), "csv");
    auto* dpi = new QSpinBox(&dlg);
    dpi->setRange(72, 1200);
    dpi->setValue(QSettings().value("exportDpi", 300).toInt());
    form->addRow(tr("Format"), format);
    form->addRow(tr("Resolution (PNG, DPI)"), dpi);
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
    QString err;
    if (!charts_->exportCurrent(path, fmt, dpi->value(), whole_panel, &err)) QMessageBox::warning(this, tr("Export"), err);
    else statusBar()->showMessage(tr("Wrote %1").arg(path), 6000);
}

bool MainWindow::switchLanguage(const QString& locale) {
    if (!translator_) {
        translator_ = new QTranslator(this);
        qt_translator_ = new QTranslator(this);
    }
    qApp->removeTranslator(translator_);
    qApp->removeTranslator(qt_translator_);
    const QLocale loc = locale.isEmpty() ? QLocale::system() : QLocale(locale);
    bool ok = locale == "en";
    if (!ok && translator_->load(loc, "normlab", "_", ":/i18n")) {
        qApp->installTranslator(translator_);
        ok = true;
    }
    if (qt_translator_->load(loc, "qtbase", "_", QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        qApp->installTranslator(qt_translator_);
    return ok;
}

void MainWindow::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) retranslate();
    if (e->type() == QEvent::PaletteChange) applyTheme();
    QMainWindow::changeEvent(e);
}

void MainWindow::retranslate() {
    // Rebuild every translated string: the simplest correct way with code-built widgets.
    const QByteArray state = saveState();
    const auto shown = shown_;
    menuBar()->clear();
    buildMenus();
    for (auto* dock : findChildren<QDockWidget*>()) {
        if (dock->objectName() == "designerDock") dock->setWindowTitle(tr("Experiment"));
        if (dock->objectName() == "queueDock") dock->setWindowTitle(tr("Queue"));
        if (dock->objectName() == "runsDock") dock->setWindowTitle(tr("Runs — select several to compare"));
        if (dock->objectName() == "diffDock") dock->setWindowTitle(tr("Settings that differ"));
    }
    restoreState(state);
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (worker_->current()) {
        if (QMessageBox::question(this, tr("Quit"), tr("A run is training. Cancel it and quit? Its data so far stays in the store."))
            != QMessageBox::Yes) {
            e->ignore();
            return;
        }
    }
    QSettings s;
    s.setValue("geometry", saveGeometry());
    s.setValue("windowState", saveState());
    s.setValue("store", QString::fromStdString(store_->path()));
    e->accept();
}

}  // namespace normlab
