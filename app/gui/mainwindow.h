// NormLab app: the main window.
//
// Designer on the left, charts in the middle, the run queue and the run
// browser below, the configuration differences of compared runs on the
// right. Training runs on a TrainingWorker thread; a 250 ms timer reads new
// rows from the store for the runs on screen (the same path as saved runs).
// A latency monitor measures how late the event loop serves a 10 ms timer.
#pragma once

#include "core/store/store.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QMainWindow>
#include <QPointer>

#include <memory>
#include <set>
#include <vector>

QT_BEGIN_NAMESPACE
class QAction;
class QLabel;
class QLineEdit;
class QMenu;
class QTableView;
class QTableWidget;
class QThread;
class QTimer;
class QTranslator;
class QTreeWidget;
class QTreeWidgetItem;
QT_END_NAMESPACE

namespace normlab {

class ChartsView;
class Designer;
class RemoteControl;
class RemoteDialog;
struct RemoteTarget;
class RunTableModel;
class RunTableProxy;
class TrainingWorker;
struct ProgressInfo;

// Lateness of a periodic timer: how long the event loop kept it waiting.
class LatencyMonitor : public QObject {
    Q_OBJECT
public:
    explicit LatencyMonitor(QObject* parent = nullptr);
    void reset();
    double percentile(double p) const;   // ms
    size_t samples() const { return samples_.size(); }

private:
    QTimer* timer_;
    QElapsedTimer clock_;
    qint64 last_ns_ = 0;
    std::vector<double> samples_;
};

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& store_path = QString(), QWidget* parent = nullptr);
    ~MainWindow() override;

    Designer* designer() const { return designer_; }
    ChartsView* charts() const { return charts_; }
    RunTableModel* runModel() const { return model_; }
    QTableView* runTable() const { return table_; }
    TrainingWorker* worker() const { return worker_; }
    LatencyMonitor* latency() const { return latency_; }
    Store& store() { return *store_; }
    // The docks' first shares of the window (as on a first start, with no
    // layout saved): the charts get most of it, the run table and the
    // settings that differ what a few rows and two runs' values need.
    void fitDocks();

    // Queues the designer's configuration; returns the run id (0 if invalid).
    qint64 runCurrent();
    // Queues every run of the opened experiment.
    std::vector<qint64> runExperiment();
    // Shows these runs (one color each) in every chart.
    void showRuns(const std::vector<qint64>& ids);
    // A stored run's settings into the experiment form (the runs' context menu).
    bool loadRunSettings(qint64 id);
    bool openStore(const QString& path, QString* error);
    // Continues cancelled/interrupted/failed runs from their checkpoints on the worker.
    void resumeRuns(const std::vector<qint64>& ids);
    void reloadRuns();                            // re-reads the run table from the store
    std::vector<qint64> selectedRuns() const;     // ids selected in the run table (of the window's own store)
    // Every selected run with its store (null: the window's own; else a compared store).
    std::vector<std::pair<Store*, int64_t>> selectedRefs() const;
    // Opens another store read-only beside the window's own (mainwindow_compare.cpp):
    // its runs join the run table (column "Store") and can be compared in every chart.
    bool compareStore(const QString& path, QString* error);
    void stopComparing();
    size_t comparedStores() const { return compared_.size(); }
    // Selects these runs in the table (and so shows them); ids not in the store are skipped.
    void selectRuns(const std::vector<qint64>& ids);
    void selectRefs(const std::vector<std::pair<Store*, int64_t>>& refs);   // the window's own runs: a null store
    bool switchLanguage(const QString& locale);   // "" = system, "en", "de", "zh_CN"
    // The window's colours (mainwindow_theme.cpp): "system" (or ""; the platform's palette, as started),
    // "light" or "dark" (Qt's Fusion style with NormLab's palette). False for any other name.
    bool switchTheme(const QString& theme);
    QString theme() const { return theme_; }
    // Why the locale's script cannot be shown here (no font for it), in English; "" when it can.
    static QString fontMissingFor(const QLocale& loc);
    // SIGTERM/SIGINT: cancels the training run (kept as cancelled, with a
    // checkpoint) and quits without asking.
    void stopAndQuit();
    // Run → Train on a server… (mainwindow_remote.cpp).
    void trainOnServer();
    RemoteControl* remote() const { return remote_; }
    // Cancels ("cancel") or resumes ("resume") the runs among `ids` that train
    // on a server, there; returns the others (this machine's).
    std::vector<qint64> remoteAction(const std::vector<qint64>& ids, const QString& action);
    // What a server's `cancel`/`resume` printed, run by run, worded for the status bar under the runs'
    // ids and names here (`here`: its ids → ours); *all_done: every run was stopped (resumed).
    // A `remote fetch --json` progress event for the status bar: "… 250.0 MB of 500.0 MB (50%)…"; "" for another line.
    QString fetchProgressText(const QString& name, const QString& dest, const nlohmann::json& event) const;
    QString serverSaid(const QString& dest, const QString& action, const QString& out, const std::map<QString, qint64>& here,
                       bool* all_done = nullptr);
    // Cancels the Slurm job arrays the runs among `ids` belong to (scancel through the login node).
    void cancelSweeps(const std::vector<qint64>& ids);
    // A mirrored run's latest weights from its server into a file the user picks
    // (`to`: that file, without asking).
    void fetchRemoteWeights(qint64 id, const QString& to = QString());

Q_SIGNALS:
    void remoteDialogOpened(RemoteDialog* dialog);   // for tests: the modal dialog, before it runs
    void remoteFetched(const QString& file);          // a fetch ended: the file written, or "" when it failed

protected:
    void closeEvent(QCloseEvent* e) override;
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;   // the differences panel's resizes

private:
    void buildUi();
    QSize firstSize() const;
    static QString filterHelp();   // the filter box's tooltip: what a word and a comparison pick
    void buildMenus();
    void addPanelsMenu(QMenu* view);   // View → Panels (mainwindow_view.cpp)
    void addThemeMenu(QMenu* view);    // View → Theme (mainwindow_theme.cpp)
    // mainwindow_form.cpp: the experiment form across a quit — unsaved edits
    // asked about (save, discard, or stay), the form as left put back at start.
    bool confirmFormOnQuit();
    void saveFormState();
    void restoreFormState();
    bool saveExperimentAs();   // File → Save experiment: false when cancelled or it failed
    // The Block tab follows the form, and a click on a part of the form's block switches its toggle
    // in the form (as a click on the check box: one step of Edit → Undo).
    void connectFormBlock();
    bool discard_form_ = false;
    void retranslate();
    static QString shownStatus(const QString& worker_status);
    QStringList queueHeaders() const;
    // The run browser's buttons: label (translated when shown) and action.
    struct RunButton { const char* label; const char* what; };
    static constexpr RunButton kRunButtons[] = {{QT_TR_NOOP("Resume"), "resume"}, {QT_TR_NOOP("Rename"), "rename"},
                                                {QT_TR_NOOP("Tags"), "tags"},     {QT_TR_NOOP("Notes"), "notes"},
                                                {QT_TR_NOOP("Write text…"), "sample"}, {QT_TR_NOOP("Delete"), "delete"}};
    void writeText(const std::vector<qint64>& ids);     // the selected runs' weights write from one prompt
    void deleteRuns(const std::vector<qint64>& ids);   // mainwindow_delete.cpp
    void compactStore();
    void onSelectionChanged();
    bool restoring_selection_ = false;   // reloadRuns selecting again what a reset of the table unselected
    void updateDifferences(const std::vector<std::pair<Store*, int64_t>>& runs);
    void fitDifferenceHeaders(const QStringList& headers);   // wrapped where the runs do not fit beside the keys
    void elideDifferenceKeys();                              // to the panel's width, again on each resize
    void onProgress(const ProgressInfo& p);
    void onRunEnded(qint64 run, const QString& status, const QString& message);
    void exportDialog(bool whole_panel);
    void editSelected(const QString& what);
    void showRunMenu(const QPoint& pos);
    // The run table's keys — Delete (asks first), F2 (rename), Ctrl+C (the selected rows as tab-separated
    // text) — and Ctrl+C in the panel of settings that differ.
    void addTableKeys();
    // The filter box's text applied; where it shows no run of those there, the status bar says why a
    // comparison could not have picked any (a key no run has, with the nearest; a value that is no number).
    void filterRuns(const QString& text);
    // The run table's columns (mainwindow_columns.cpp): its header's context menu ticks those shown,
    // kept in QSettings; showColumns() hides what is unticked and the Server/Store columns where empty.
    void addColumnChooser();
    bool columnChosen(int column) const;
    void nameColumnActions();   // the menu's lines in the window's language, Server/Store where they apply
    void showColumns();
    void copyRows(QTableView* view, bool runs);
    std::unique_ptr<Store> openStoreFile(const QString& path);
    QTreeWidgetItem* queueItem(qint64 run, bool create);
    void applyTheme();                 // the charts follow the palette (mainwindow_theme.cpp)
    QString theme_ = "system";
    std::vector<QPointer<QAction>> theme_actions_;   // View → Theme's, as last built
    bool themed_ = false;              // applyTheme has set the charts' theme once
    bool quitting_ = false;
    bool layout_restored_ = false;   // a saved dock layout was put back: fitDocks leaves it
    bool docks_fitted_ = false;
    QByteArray default_state_;       // the docks as built: View → Panels → Reset layout
    void startRemote();
    void onRemoteLaunched(const RemoteTarget& t, const QList<qint64>& runs);
    RemoteControl* remote_ = nullptr;
    QString awaited_dest_;
    QList<qint64> awaited_;
    bool awaited_sweep_ = false;
    std::set<qint64> known_;          // runs in the store before a sweep was submitted

    std::unique_ptr<Store> store_;
    std::vector<std::unique_ptr<Store>> compared_;  // opened read-only for comparison
    std::vector<Store*> comparedPointers() const;
    // The generations of the window's store and the compared ones when the run table was last read
    // on the timer: it is read again only when one changed (2,000 runs took ~70 ms a second).
    std::vector<Store::Generation> table_generations_;
    std::vector<Store::Generation> storeGenerations();
    void addCompareActions(QMenu* file);
    Designer* designer_ = nullptr;
    ChartsView* charts_ = nullptr;
    RunTableModel* model_ = nullptr;
    RunTableProxy* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QTreeWidget* queue_ = nullptr;
    QTableWidget* diff_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* progress_ = nullptr;                    // status bar: the current run's progress and ETA
    QThread* thread_ = nullptr;
    TrainingWorker* worker_ = nullptr;
    QTimer* refresh_ = nullptr;
    LatencyMonitor* latency_ = nullptr;
    QTranslator* translator_ = nullptr;
    QTranslator* qt_translator_ = nullptr;
    std::vector<qint64> shown_;
    std::vector<std::pair<Store*, int64_t>> diff_refs_;   // the runs Settings that differ lists (its store: null, the window's)
    int refresh_ticks_ = 0;
    // Four times a second: the charts' new rows, the run table every second, the status bar.
    void refreshTick();
    void checkStoreFile();
    void showStatus();   // the status bar's device, store and UI latency
    // The charts' rows in slices of a few milliseconds, the event loop running between them
    // (ChartsView::refreshUntil), until a pass over the runs shown has ended.
    void readCharts();
    bool reading_charts_ = false;
    // What `auto` trains on: "Trains on NVIDIA H100 … (78.6 of 79.1 GiB free)", or the CPU.
    QString deviceText() const;
    QString device_;
    QString store_gone_;   // why the store's file is no longer the one open (deleted, replaced), or ""
};

}  // namespace normlab
