// NormLab widgets: RunTableModel (see runtable.h).
#include "widgets/runtable.h"

#include "core/errors.h"
#include "core/palette.h"

#include "core/remote/mirror.h"

#include <QBrush>
#include <QColor>
#include <QDateTime>
#include <QFileInfo>
#include <QFont>

#include <algorithm>
#include <cmath>

namespace normlab {

void RunTableModel::reload(Store& store, const std::vector<Store*>& compared) {
    std::vector<RunInfo> fresh;
    std::vector<Store*> sources;
    auto read = [&](Store& s, Store* source) {
        try {
            // The rows read from `s` before give their parsed JSON to those not changed since
            // (Store::runs): a run training is read each second, the others' settings not parsed again.
            std::vector<RunInfo*> before;
            for (size_t i = 0; i < runs_.size(); ++i)
                if (sources_[i] == source) before.push_back(&runs_[i]);
            for (auto& r : s.runs(before)) {
                fresh.push_back(std::move(r));
                sources.push_back(source);
            }
        } catch (const StoreError& e) {
            for (size_t i = 0; i < runs_.size(); ++i)
                if (sources_[i] == source) {
                    fresh.push_back(runs_[i]);
                    sources.push_back(source);
                }
            Q_EMIT storeUnreadable(unreadableMessage(e));
        }
    };
    read(store, nullptr);
    for (Store* c : compared) read(*c, c);
    bool same_rows = fresh.size() == runs_.size() && sources == sources_;
    for (size_t i = 0; same_rows && i < fresh.size(); ++i) same_rows = fresh[i].id == runs_[i].id;
    if (!same_rows) {
        beginResetModel();
        runs_ = std::move(fresh);
        sources_ = std::move(sources);
        has_compared_ = std::any_of(sources_.begin(), sources_.end(), [](const Store* s) { return s != nullptr; });
        row_of_.clear();
        for (size_t i = 0; i < runs_.size(); ++i) row_of_.emplace(std::make_pair(sources_[i], runs_[i].id), static_cast<int>(i));
        colors_.clear();
        assignColors();
        readLatest(store);
        endResetModel();
        return;
    }
    // Every row in place before any is said to have changed: the proxy sorting one (by its host) reads
    // the others, whose JSON the read may have taken.
    std::vector<char> changed(fresh.size());
    for (size_t i = 0; i < fresh.size(); ++i) {
        const RunInfo& a = runs_[i];
        const RunInfo& b = fresh[i];
        changed[i] = a.status != b.status || a.steps_done != b.steps_done || a.name != b.name || a.color != b.color ||
                     a.tags != b.tags || a.notes != b.notes || a.json_digest != 0 ||   // 0: its JSON unchanged, taken
                     !(a.final_loss == b.final_loss || (std::isnan(a.final_loss) && std::isnan(b.final_loss)));
        runs_[i] = std::move(fresh[i]);
    }
    for (int row : readLatest(store)) changed[static_cast<size_t>(row)] = 1;
    for (size_t i = 0; i < changed.size(); ++i)
        if (changed[i]) Q_EMIT dataChanged(index(static_cast<int>(i), 0), index(static_cast<int>(i), ColumnCount - 1));
    assignColors();
}

std::vector<int> RunTableModel::readLatest(Store& own) {
    std::map<std::pair<Store*, int64_t>, Latest> kept;
    std::vector<int> moved;
    for (size_t i = 0; i < runs_.size(); ++i) {
        const RunInfo& r = runs_[i];
        if (!std::isnan(r.final_loss)) continue;
        const auto key = std::make_pair(sources_[i], r.id);
        const auto it = latest_.find(key);
        Latest l = it == latest_.end() ? Latest{} : it->second;
        // A run training is asked each reload (a validation may land after the step that its row
        // says); the others only when their steps or status moved.
        if (it == latest_.end() || r.status == RunStatus::Running || l.steps_done != r.steps_done || l.status != r.status) {
            Store& s = sources_[i] ? *sources_[i] : own;
            try {
                const std::optional<Point> p = s.last_point(r.id, "val/loss");
                const ValLoss v = p ? ValLoss{p->value, p->step} : ValLoss{};
                if (it != latest_.end() && !(v.step == l.val.step && v.value == l.val.value)) moved.push_back(static_cast<int>(i));
                l = Latest{r.steps_done, r.status, v};
            } catch (const StoreError&) {
                // As last read: reload() has said the store cannot be read.
            }
        }
        kept.emplace(key, l);
    }
    latest_ = std::move(kept);
    return moved;
}

RunTableModel::ValLoss RunTableModel::valLossAt(int row) const {
    const RunInfo* r = runAt(row);
    if (!r) return {};
    if (!std::isnan(r->final_loss)) return {r->final_loss, -1};
    const auto it = latest_.find({sources_[static_cast<size_t>(row)], r->id});
    return it == latest_.end() ? ValLoss{} : it->second.val;
}

QString RunTableModel::unreadableMessage(const StoreError& e) {
    QString why = QString::fromUtf8(e.what()).trimmed();
    while (why.endsWith('.')) why.chop(1);
    return tr("Cannot read a run store: %1. Its runs are shown as they were last read.").arg(why);
}

void RunTableModel::assignColors() {
    std::vector<std::string> stored;
    size_t own = 0;
    for (size_t i = 0; i < runs_.size(); ++i) {
        stored.push_back(runs_[i].color);
        own += sources_[i] == nullptr;   // the window's own rows come first
    }
    const std::vector<std::string> before = colors_;
    colors_ = distinct_colors(stored, own);
    if (before.size() == colors_.size() && before != colors_)
        Q_EMIT dataChanged(index(0, Name), index(static_cast<int>(runs_.size()) - 1, Name), {Qt::DecorationRole});
}

QColor RunTableModel::colorAt(int row) const {
    return row >= 0 && row < static_cast<int>(colors_.size()) ? QColor(QString::fromStdString(colors_[static_cast<size_t>(row)])) : QColor();
}

const RunInfo* RunTableModel::runAt(int row) const {
    return row >= 0 && row < static_cast<int>(runs_.size()) ? &runs_[static_cast<size_t>(row)] : nullptr;
}

Store* RunTableModel::storeAt(int row) const {
    return row >= 0 && row < static_cast<int>(sources_.size()) ? sources_[static_cast<size_t>(row)] : nullptr;
}

int RunTableModel::rowOf(int64_t run_id, Store* store) const {
    const auto it = row_of_.find({store, run_id});
    return it == row_of_.end() ? -1 : it->second;
}

bool RunTableModel::hasRemote() const {
    for (const RunInfo& r : runs_)
        if (remote_ref(r).run > 0) return true;
    return false;
}

int RunTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(runs_.size())) return {};
    const RunInfo& r = runs_[static_cast<size_t>(index.row())];
    if (role == Qt::UserRole) {   // raw values, for sorting
        switch (index.column()) {
            case Id: return QVariant::fromValue<qlonglong>(r.id);
            case FinalLoss: {
                const double v = valLossAt(index.row()).value;
                return std::isnan(v) ? QVariant(1e300) : QVariant(v);
            }
            case Steps: return QVariant::fromValue<qlonglong>(r.steps_done);
            case Created: return r.created_at;
            default: break;
        }
    }
    if (role == Qt::DisplayRole || role == Qt::EditRole || role == Qt::UserRole) {
        switch (index.column()) {
            case Id: return QVariant::fromValue<qlonglong>(r.id);
            case Name: return QString::fromStdString(r.name);
            case Scheme: return QString::fromStdString(r.scheme);
            case Status: {
                QString s = statusText(r);
                if (r.status == RunStatus::Diverged && r.status_step >= 0) s += tr(" @%1").arg(r.status_step);
                return s;
            }
            case FinalLoss: {
                const double v = valLossAt(index.row()).value;
                return std::isnan(v) ? QString("—") : QString::number(v, 'f', 4);
            }
            case Steps: {
                // A run short of its steps (training, queued, stopped, diverged) says how far it got:
                // "1085 / 2500", as normlab-cli list does.
                const int64_t total = r.steps_total();
                if (total > r.steps_done)
                    return QString("%1 / %2").arg(r.steps_done).arg(total);
                return QVariant::fromValue<qlonglong>(r.steps_done);
            }
            case Created: return QDateTime::fromSecsSinceEpoch(static_cast<qint64>(r.created_at)).toString("yyyy-MM-dd hh:mm");
            case Tags: {
                QStringList t;
                for (auto& s : r.tags) t << QString::fromStdString(s);
                return t.join(", ");
            }
            case Notes: return QString::fromStdString(r.notes);
            case Host: {
                const RemoteRef ref = remote_ref(r);
                return ref.run > 0 ? QString::fromStdString(ref.dest) : QString();
            }
            case Source: {
                const Store* s = sources_[static_cast<size_t>(index.row())];
                return s ? QFileInfo(QString::fromStdString(s->path())).fileName() : tr("this store");
            }
            default: break;
        }
    }
    if (role == Qt::ToolTipRole && index.column() == Source && sources_[static_cast<size_t>(index.row())])
        return tr("Opened for comparison, read-only: %1").arg(QString::fromStdString(sources_[static_cast<size_t>(index.row())]->path()));
    if (role == Qt::ToolTipRole && index.column() == Host) {
        const RemoteRef ref = remote_ref(r);
        if (ref.run > 0)
            return tr("Trains on %1 (run %2 of %3 there); followed live into this store over ssh")
                .arg(QString::fromStdString(ref.dest))
                .arg(ref.run)
                .arg(QString::fromStdString(ref.store));
    }
    if (index.column() == FinalLoss && (role == Qt::FontRole || role == Qt::ToolTipRole)) {
        const ValLoss v = valLossAt(index.row());
        if (v.step >= 0) {   // not final: in italics, and said so
            if (role == Qt::ToolTipRole)
                return tr("The latest validation loss, measured at step %1: the run has no final one yet.").arg(v.step);
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
    }
    if (role == Qt::DecorationRole && index.column() == Name) return colorAt(index.row());   // its colour in every chart
    if (role == Qt::ForegroundRole && index.column() == Status) {
        switch (r.status) {
            case RunStatus::Diverged:
            case RunStatus::Failed: return QBrush(QColor(214, 39, 40));
            case RunStatus::Running: return QBrush(QColor(31, 119, 180));
            case RunStatus::Interrupted:
            case RunStatus::Cancelled: return QBrush(QColor(200, 120, 0));
            default: break;
        }
    }
    if (role == Qt::ToolTipRole && !r.message.empty()) return QString::fromStdString(r.message);
    return {};
}

// An unknown status (a newer NormLab's) is shown as the store has it.
QString RunTableModel::statusText(const RunInfo& r) {
    static const char* const kStatuses[] = {QT_TR_NOOP("queued"),   QT_TR_NOOP("running"),   QT_TR_NOOP("finished"),
                                            QT_TR_NOOP("diverged"), QT_TR_NOOP("failed"),    QT_TR_NOOP("cancelled"),
                                            QT_TR_NOOP("interrupted")};
    if (r.status == RunStatus::Unknown) return QString::fromStdString(r.status_text);
    const std::string name = status_name(r.status);
    for (const char* s : kStatuses)
        if (name == s) return tr(s);
    return QString::fromStdString(name);
}

QString RunTableModel::statusText(const std::string& status) {
    RunInfo r;
    try {
        r.status = parse_status(status);
    } catch (const StoreError&) {
        r.status = RunStatus::Unknown;
        r.status_text = status;
    }
    return statusText(r);
}

void RunTableModel::retranslate() {
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
    if (!runs_.empty()) Q_EMIT dataChanged(index(0, Status), index(rowCount() - 1, Status));
}

QVariant RunTableModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o == Qt::Horizontal && role == Qt::ToolTipRole) {
        if (section == FinalLoss)
            return tr("The validation loss at the run's end; in italics, the latest of a run that has none yet (training, stopped)");
        if (section == Steps) return tr("Steps trained; a run short of its steps shows them as done / total");
        return {};
    }
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Id: return tr("#");
        case Name: return tr("Name");
        case Scheme: return tr("Scheme");
        case Status: return tr("Status");
        case FinalLoss: return tr("Val loss");
        case Steps: return tr("Steps");
        case Created: return tr("Created");
        case Tags: return tr("Tags");
        case Notes: return tr("Notes");
        case Host: return tr("Server");
        case Source: return tr("Store");
        default: return {};
    }
}

RunTableProxy::RunTableProxy(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(Qt::UserRole); }

void RunTableProxy::setFilterText(const QString& text) {
    filter_ = RunFilter(text.toStdString());
    invalidateFilter();
}

bool RunTableProxy::filterAcceptsRow(int source_row, const QModelIndex&) const {
    if (filter_.empty()) return true;
    const auto* m = static_cast<const RunTableModel*>(sourceModel());
    const RunInfo* r = m->runAt(source_row);
    if (!r) return false;
    std::vector<std::string> cells{m->index(source_row, RunTableModel::Created).data().toString().toStdString()};
    if (m->hasCompared())   // the Store column, where it is shown
        cells.push_back(m->index(source_row, RunTableModel::Source).data().toString().toStdString());
    return filter_.matches(*r, m->valLossAt(source_row).value, cells);
}

}  // namespace normlab
