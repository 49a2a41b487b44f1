// NormLab app: MainWindow (see mainwindow.h).
#include "app/gui/mainwindow.h"
#include "app/gui/remote.h"
#include "app/gui/report.h"
#include "app/gui/reportdialog.h"
#include "app/gui/worker.h"
#include "core/errors.h"
#include "core/train/trainer.h"
#include "core/version.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"
#include "widgets/linechart.h"
#include "widgets/rundata.h"
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
#include <QScreen>
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

MainWindow::MainWindow(const QString& store_path, QWidget* parent) : QMainWindow(parent) {
    QSettings settings;
    QString path = store_path;
    if (path.isEmpty()) path = settings.value("store", QString::fromStdString(Store::default_path())).toString();
    try {
        store_ = openStoreFile(path);
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
    connect(refresh_, &QTimer::timeout, this, &MainWindow::refreshTick);
    refresh_->start();
    device_ = deviceText();
    showStatus();   // from the start, not a tick later
    reloadRuns();
    startRemote();
    restoreGeometry(settings.value("geometry").toByteArray());
    layout_restored_ = restoreState(settings.value("windowState").toByteArray());
    applyTheme();
    restoreFormState();
    // The runs shown when the window last closed on this store, selected in
    // the table too; else the newest run.
    std::vector<qint64> last;
    if (settings.value("shownStore").toString() == QString::fromStdString(store_->path()))
        for (const QVariant& v : settings.value("shownRuns").toList())
            if (model_->rowOf(v.toLongLong()) >= 0) last.push_back(v.toLongLong());
    if (last.empty() && model_->rowCount() > 0) last = {model_->runAt(model_->rowCount() - 1)->id};
    selectRuns(last);
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
    connectFormBlock();

    // queue
    auto* qw = new QWidget(this);
    auto* qv = new QVBoxLayout(qw);
    qv->setContentsMargins(2, 2, 2, 2);
    queue_ = new QTreeWidget(qw);
    queue_->setObjectName("queue");
    queue_->setRootIsDecorated(false);
    queue_->setHeaderLabels(queueHeaders());
    queue_->setColumnWidth(0, 200);
    queue_->setColumnWidth(2, 160);
    qv->addWidget(queue_, 1);
    auto* qb = new QHBoxLayout();
    auto* cancel = new QPushButton(tr("Cancel"), qw);
    cancel->setObjectName("queueCancel");
    auto* pause = new QPushButton(tr("Pause"), qw);
    pause->setObjectName("queuePause");
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
    filter_->setPlaceholderText(tr("Filter runs (name, scheme, status, tags, notes; lr>=1e-3, val<3.2)…"));
    filter_->setToolTip(filterHelp());
    filter_->setClearButtonEnabled(true);
    bv->addWidget(filter_);
    model_ = new RunTableModel(this);
    // A compared store deleted or replaced meanwhile: its runs stay as last read, and the window says why.
    auto unreadable = [this](const QString& message) { statusBar()->showMessage(message, 10000); };
    connect(model_, &RunTableModel::storeUnreadable, this, unreadable);
    connect(charts_, &ChartsView::storeUnreadable, this, unreadable);
    // the charts colour each run as the table does: distinct across the stores shown
    // (only where the table gave a run another colour: else the run's own, as fresh as the charts' data)
    charts_->setColorSource([this](const RunData& r) {
        const int row = model_->rowOf(r.id(), r.source());
        const RunInfo* shown = model_->runAt(row);
        const QColor c = model_->colorAt(row);
        return shown && c.isValid() && c != QColor(QString::fromStdString(shown->color)) ? c : QColor();
    });
    proxy_ = new RunTableProxy(this);
    proxy_->setSourceModel(model_);
    table_ = new QTableView(bw);
    table_->setObjectName("runTable");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(RunTableModel::Id, Qt::DescendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setColumnWidth(RunTableModel::Name, 190);
    table_->setColumnWidth(RunTableModel::Created, 125);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    bv->addWidget(table_, 1);
    auto* bb = new QHBoxLayout();
    for (const RunButton& rb : kRunButtons) {
        const QString what = rb.what;
        auto* b = new QPushButton(tr(rb.label), bw);
        b->setObjectName("run_" + what);
        connect(b, &QPushButton::clicked, this, [this, what] { editSelected(what); });
        bb->addWidget(b);
    }
    bb->addStretch(1);
    bv->addLayout(bb);
    connect(filter_, &QLineEdit::textChanged, this, &MainWindow::filterRuns);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &MainWindow::onSelectionChanged);
    table_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(table_, &QWidget::customContextMenuRequested, this, &MainWindow::showRunMenu);
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
    diff_->setMinimumWidth(200);   // a key and a value readable through any resize (it shrank to ~60 px)
    diff_->installEventFilter(this);
    auto* diff_dock = new QDockWidget(tr("Settings that differ"), this);
    diff_dock->setObjectName("diffDock");
    diff_dock->setWidget(diff_);
    addDockWidget(Qt::RightDockWidgetArea, diff_dock);
    updateDifferences({});   // its hint from the start, not an empty panel until runs are chosen
    addTableKeys();
    addColumnChooser();

    status_ = new QLabel(this);
    statusBar()->addWidget(status_, 1);
    progress_ = new QLabel(this);   // the current run, always in view
    progress_->setObjectName("runProgress");
    statusBar()->addPermanentWidget(progress_);
    resize(firstSize());
    default_state_ = saveState();
}

// The size of a first start (no saved geometry): 1500×950 where the screen
// has room, else what its work area leaves beside the window manager's
// frame — a 1366×768 laptop got a window whose runs table and status bar lay
// below the screen's edge.
QSize MainWindow::firstSize() const {
    const QSize wanted(1500, 950);
    const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!s) return wanted;
    const QSize room = s->availableGeometry().size() - QSize(16, 48);   // a frame's borders and title bar
    return room.isValid() ? wanted.boundedTo(room) : wanted;
}

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    auto* open = file->addAction(tr("&Open experiment…"), this, [this] {
        QSettings s;
        // where the last one was; at first, the experiments NormLab ships (installed: share/normlab/experiments)
        const QString p = QFileDialog::getOpenFileName(this, tr("Open experiment"),
                                                       s.value("lastExperimentDir", shipped_experiments_dir()).toString(),
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
    auto* save = file->addAction(tr("&Save experiment…"), this, [this] { saveExperimentAs(); });
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
    addCompareActions(file);
    file->addAction(tr("Compac&t store…"), this, [this] { compactStore(); })->setObjectName("compactStore");
    file->addSeparator();
    auto* exp = file->addAction(tr("&Export chart…"), this, [this] { exportDialog(false); });
    exp->setShortcut(QKeySequence(tr("Ctrl+E")));
    auto* expp = file->addAction(tr("Export &panel…"), this, [this] { exportDialog(true); });
    expp->setShortcut(QKeySequence(tr("Ctrl+Shift+E")));
    file->addSeparator();
    file->addAction(tr("&Quit"), this, &QWidget::close)->setShortcut(QKeySequence::Quit);

    auto* edit = menuBar()->addMenu(tr("&Edit"));   // the experiment form's undo/redo (a focused text field keeps its own)
    edit->addAction(tr("&Undo"), this, [this] { designer_->undo(); })->setShortcut(QKeySequence::Undo);
    edit->addAction(tr("&Redo"), this, [this] { designer_->redo(); })->setShortcut(QKeySequence::Redo);

    auto* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(tr("&Run"), this, [this] { runCurrent(); })->setShortcut(QKeySequence(tr("Ctrl+R")));
    run->addAction(tr("Run &experiment"), this, [this] { runExperiment(); })->setShortcut(QKeySequence(tr("Ctrl+Shift+R")));
    run->addAction(tr("&Stop"), this, [this] {
        if (worker_->current()) worker_->cancel(worker_->current());
    })->setShortcut(QKeySequence(tr("Ctrl+.")));
    run->addAction(tr("Train on a &server…"), this, [this] { trainOnServer(); })->setObjectName("trainOnServer");
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
    addPanelsMenu(view);
    auto* lang = view->addMenu(tr("&Language"));
    // 简体中文 drawn as boxes, where no font has its characters, would name nothing: then in English too
    const QString chinese = fontMissingFor(QLocale("zh_CN")).isEmpty() ? QString("简体中文")
                                                                        : QString("简体中文 (Chinese, no font installed)");
    for (auto [label, code] : {std::pair{tr("System"), QString()}, {QString("English"), QString("en")},
                               {QString("Deutsch"), QString("de")}, {chinese, QString("zh_CN")}})
        lang->addAction(label, this, [this, code = code] {
            QSettings().setValue("language", code);
            switchLanguage(code);
        });

    addThemeMenu(view);

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

// Writable when possible; a store the user cannot write (a read-only file or
// folder) is opened read-only, and the window says so.
qint64 MainWindow::runCurrent() {
    if (!designer_->valid()) {
        statusBar()->showMessage(tr("Cannot run: %1").arg(designer_->error()), 8000);
        return 0;
    }
    if (store_->read_only()) {
        statusBar()->showMessage(tr("This store is open read-only: open a writable store to train (File → Open run store)."), 8000);
        return 0;
    }
    try {
        RunConfig cfg = designer_->config();
        preflight(cfg);   // data source, device, memory: refused before a run is created
        const qint64 id = queue_run(*store_, cfg, 0, {"gui"});
        store_->own_queued(id);   // this window trains it: should it be killed first, the run shows as interrupted
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
    if (store_->read_only()) {
        statusBar()->showMessage(tr("This store is open read-only: open a writable store to train (File → Open run store)."), 8000);
        return ids;
    }
    try {
        for (auto& r : ex->runs) {
            try {
                preflight(r.config);
            } catch (const ConfigError& e) {
                throw ConfigError(e.path(), e.message() + " (run \"" + r.name + "\")");
            }
        }
        const int64_t eid = store_->add_experiment(ex->name, ex->file, ex->spec);
        for (auto& r : ex->runs) {
            const qint64 id = queue_run(*store_, r.config, eid, {ex->name});
            store_->own_queued(id);
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

void MainWindow::stopAndQuit() {
    quitting_ = true;
    worker_->cancelAll();
    QApplication::quit();   // closes the window; ~MainWindow waits for the worker
}

void MainWindow::closeEvent(QCloseEvent* e) {
    if (worker_->current() && !quitting_) {
        if (QMessageBox::question(this, tr("Quit"), tr("A run is training. Cancel it and quit? Its data so far stays in the store."))
            != QMessageBox::Yes) {
            e->ignore();
            return;
        }
    }
    if (!confirmFormOnQuit()) {
        e->ignore();
        return;
    }
    saveFormState();
    QSettings s;
    s.setValue("geometry", saveGeometry());
    s.setValue("windowState", saveState());
    s.setValue("store", QString::fromStdString(store_->path()));
    QVariantList shown;
    for (qint64 id : shown_) shown << id;
    s.setValue("shownRuns", shown);
    s.setValue("shownStore", QString::fromStdString(store_->path()));
    remote_->stopAll();   // the runs go on on their servers; reopened, the window follows them again
    e->accept();
}

}  // namespace normlab
