// NormLab widgets: the runs of a store as a table model (Qt Core only).
//
// Columns: id, name, scheme, status, validation loss (the final one; while a run has none — training,
// stopped, interrupted — its latest, in italics), steps, created,
// tags, notes, the server a run trains on (runs followed over ssh), and the store a run comes from (when stores are compared: the
// window's own store first, then the stores opened for comparison). Sorting and filtering go through a QSortFilterProxyModel
// (numbers sort as numbers: Qt::EditRole holds the raw value). reload()
// re-reads the store and keeps rows that did not change, and a store's rows as
// last read while it cannot be read.
#pragma once

#include "core/errors.h"
#include "core/store/store.h"

#include "core/run_filter.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace normlab {

class RunTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Id, Name, Scheme, Status, FinalLoss, Steps, Created, Tags, Notes, Host, Source, ColumnCount };

    explicit RunTableModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}

    void reload(Store& store, const std::vector<Store*>& compared = {});
    const RunInfo* runAt(int row) const;
    // The store of a row: null for the window's own, else a compared store.
    Store* storeAt(int row) const;
    int rowOf(int64_t run_id, Store* store = nullptr) const;   // -1: not in the table
    // A row's colour as the table and every chart show it: its own, unless a
    // run of another store shown here has it (core/palette.h distinct_colors).
    QColor colorAt(int row) const;
    // Whether some run trains on a server (mirrored: the Host column names it).
    bool hasRemote() const;
    // Whether runs of other stores are shown (the Store column).
    bool hasCompared() const { return has_compared_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;
    void retranslate();   // after a language switch: headers and statuses again
    static QString statusText(const RunInfo& r);   // translated; an unknown status as stored
    static QString statusText(const std::string& status);   // the same, of a status as a store writes it
    // What the window says of a store it cannot read now (storeUnreadable), translated.
    static QString unreadableMessage(const StoreError& e);
    // The validation loss a row shows: the run's final one, else its latest measured (step >= 0), else
    // NaN. Raw, as the Val loss column sorts it.
    struct ValLoss {
        double value = std::nan("");
        int64_t step = -1;   // -1: the final value (or none)
    };
    ValLoss valLossAt(int row) const;

Q_SIGNALS:
    // A store reload() could not read (deleted, replaced, unreadable): its rows stay as last read.
    void storeUnreadable(const QString& message);

private:
    std::vector<RunInfo> runs_;
    bool has_compared_ = false;
    std::vector<Store*> sources_;   // per row; null: the window's own store
    std::map<std::pair<Store*, int64_t>, int> row_of_;   // rowOf's answers: a window selecting 2,000 runs asks 2,000 times
    std::vector<std::string> colors_;   // per row, distinct across stores
    // The latest validation loss of runs without a final one, read when its run's steps moved (or
    // it trains): the key is the row's store (null: the window's own) and run id.
    struct Latest {
        int64_t steps_done = -1;
        RunStatus status = RunStatus::Unknown;
        ValLoss val;
    };
    std::map<std::pair<Store*, int64_t>, Latest> latest_;
    void assignColors();
    // After runs_ changed: latest_ read again for rows without a final loss; the rows whose value moved.
    std::vector<int> readLatest(Store& own);
};

// The run table as shown: sorted by a column's raw value (Qt::UserRole), and filtered by the filter
// box's text as `normlab-cli list TEXT` filters (core/run_filter.h: words, and comparisons such as
// lr>=1e-3 or val<3.2, the Val loss column's value); a plain word is found in the Created and Store
// cells too.
class RunTableProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit RunTableProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

private:
    RunFilter filter_;
};

}  // namespace normlab
