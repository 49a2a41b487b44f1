// NormLab app: the run table's columns — which are shown. Right-click the
// table's header: a column per line, ticked where shown; what the user hides
// stays hidden in every window after (QSettings "runTable/hiddenColumns", by
// column key). The Server and Store columns show only where they say something
// (runs followed from a server, stores compared), whatever is chosen; the Name
// column always shows.
#include "app/gui/mainwindow.h"

#include "widgets/runtable.h"

#include <QAction>
#include <QHeaderView>
#include <QSettings>
#include <QTableView>

namespace normlab {

namespace {

// Stable names for the settings: the column's place may change between versions, its key does not.
const char* column_key(int column) {
    switch (column) {
        case RunTableModel::Id: return "id";
        case RunTableModel::Name: return "name";
        case RunTableModel::Scheme: return "scheme";
        case RunTableModel::Status: return "status";
        case RunTableModel::FinalLoss: return "val";
        case RunTableModel::Steps: return "steps";
        case RunTableModel::Created: return "created";
        case RunTableModel::Tags: return "tags";
        case RunTableModel::Notes: return "notes";
        case RunTableModel::Host: return "server";
        case RunTableModel::Source: return "store";
        default: return "";
    }
}

}  // namespace

void MainWindow::addColumnChooser() {
    QHeaderView* header = table_->horizontalHeader();
    const QStringList hidden = QSettings().value("runTable/hiddenColumns").toStringList();
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        auto* a = new QAction(header);
        a->setObjectName(QString("column_") + column_key(c));
        a->setCheckable(true);
        a->setChecked(!hidden.contains(column_key(c)));
        a->setEnabled(c != RunTableModel::Name);   // a row needs its name
        connect(a, &QAction::toggled, this, [this] {
            QStringList off;
            for (int c = 0; c < RunTableModel::ColumnCount; ++c)
                if (!columnChosen(c)) off << column_key(c);
            QSettings().setValue("runTable/hiddenColumns", off);
            showColumns();
        });
        header->addAction(a);
    }
    header->setContextMenuPolicy(Qt::ActionsContextMenu);
    showColumns();
}

bool MainWindow::columnChosen(int column) const {
    const auto* a = table_->horizontalHeader()->findChild<QAction*>(QString("column_") + column_key(column));
    return !a || a->isChecked() || column == RunTableModel::Name;
}

void MainWindow::nameColumnActions() {
    QHeaderView* header = table_->horizontalHeader();
    for (int c = 0; c < RunTableModel::ColumnCount; ++c)
        if (auto* a = header->findChild<QAction*>(QString("column_") + column_key(c))) {
            QString name = model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
            if (c == RunTableModel::Id) name = tr("# (id)");
            a->setText(name);
            // the Server and Store columns only where they say something
            a->setVisible((c != RunTableModel::Source || !compared_.empty()) && (c != RunTableModel::Host || model_->hasRemote()));
        }
}

void MainWindow::showColumns() {
    for (int c = 0; c < RunTableModel::ColumnCount; ++c) {
        bool shown = columnChosen(c);
        if (c == RunTableModel::Source) shown = shown && !compared_.empty();
        if (c == RunTableModel::Host) shown = shown && model_->hasRemote();
        if (table_->isColumnHidden(c) == shown) table_->setColumnHidden(c, !shown);
    }
    nameColumnActions();
}

}  // namespace normlab
