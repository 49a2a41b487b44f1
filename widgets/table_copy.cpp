// NormLab widgets: selectedRowsText (see table_copy.h).
#include "widgets/table_copy.h"

#include <QAbstractItemModel>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QStringList>
#include <QTableView>

#include <algorithm>
#include <set>
#include <vector>

namespace normlab {

namespace {

QString cell_text(const QVariant& copy, const QVariant& shown) {
    QString s = (copy.isValid() ? copy : shown).toString();
    for (QChar& c : s)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return s;
}

}  // namespace

QString selectedRowsText(const QTableView& view, int* rows_copied) {
    if (rows_copied) *rows_copied = 0;
    const QAbstractItemModel* m = view.model();
    const QItemSelectionModel* sel = view.selectionModel();
    if (!m || !sel) return {};
    std::set<int> rows, cols;
    for (const QItemSelectionRange& range : sel->selection()) {   // by range: 2,000 selected runs are one
        for (int r = range.top(); r <= range.bottom(); ++r) rows.insert(r);
        for (int c = range.left(); c <= range.right(); ++c) cols.insert(c);
    }
    if (rows.empty()) return {};
    const bool whole_rows = view.selectionBehavior() == QAbstractItemView::SelectRows;
    const QHeaderView* across = view.horizontalHeader();
    std::vector<int> columns;   // in the order shown
    for (int v = 0; v < across->count(); ++v) {
        const int c = across->logicalIndex(v);
        if (!view.isColumnHidden(c) && (whole_rows || cols.count(c))) columns.push_back(c);
    }
    const bool row_names = !view.verticalHeader()->isHidden();
    QStringList lines;
    QStringList head;
    if (row_names) head << QString();
    for (int c : columns) head << cell_text(m->headerData(c, Qt::Horizontal, kCopyRole), m->headerData(c, Qt::Horizontal, Qt::DisplayRole));
    lines << head.join('\t');
    std::vector<std::pair<int, int>> shown;   // (visual row, row): the order shown
    for (int r : rows)
        if (!view.isRowHidden(r)) shown.emplace_back(view.verticalHeader()->visualIndex(r), r);
    std::sort(shown.begin(), shown.end());
    for (const auto& [visual, r] : shown) {
        QStringList line;
        if (row_names) line << cell_text(m->headerData(r, Qt::Vertical, kCopyRole), m->headerData(r, Qt::Vertical, Qt::DisplayRole));
        for (int c : columns) {
            const QModelIndex i = m->index(r, c);
            line << cell_text(i.data(kCopyRole), i.data(Qt::DisplayRole));
        }
        lines << line.join('\t');
    }
    if (rows_copied) *rows_copied = static_cast<int>(shown.size());
    return lines.join('\n') + '\n';
}

}  // namespace normlab
