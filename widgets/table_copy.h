// NormLab widgets: a table's selected rows as text a spreadsheet or a paper's
// draft pastes (tab-separated, a header line first).
//
// The run table and the panel of settings that differ copy with Ctrl+C what
// they show: the columns in the order shown (hidden ones left out), the rows
// in the order shown, the row names first where the table shows them. A cell
// or header that shows a shortened text (a key cut to the panel's width, a
// number to six digits, a header wrapped onto two lines) gives its whole text
// under kCopyRole. Tabs and line breaks inside a cell become spaces.
#pragma once

#include <QString>
#include <Qt>

class QTableView;

namespace normlab {

// Where set, the text a copy takes instead of what the cell or header shows.
constexpr int kCopyRole = Qt::UserRole + 77;

// The rows with a selected cell: all shown columns where the view selects whole rows, else the
// columns with a selected cell. Empty when nothing is selected. `rows`: how many rows it holds.
QString selectedRowsText(const QTableView& view, int* rows = nullptr);

}  // namespace normlab
