// NormLab app: the experiment form across a quit (see mainwindow.h) — Quit
// asks about edits not saved in a file (save, discard, or stay), and the form
// comes back at the next start as it was left: the experiment file, the
// variant edited and every field (issue 24 item 14: Ctrl+Q dropped them
// without a word, a restart reset the form).
#include "app/gui/mainwindow.h"

#include "core/errors.h"
#include "widgets/chartsview.h"
#include "widgets/designer.h"

#include <QCheckBox>

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace normlab {

void MainWindow::connectFormBlock() {
    auto show = [this] {
        try {
            charts_->setFormConfig(designer_->config(), [this](const QString& setting) {
                const QWidget* f = designer_->field(setting);
                return f && f->isEnabled();
            });
        } catch (const ConfigError&) {
            // an invalid field: the block stays as it was last valid, the form says what is wrong
        }
    };
    connect(designer_, &Designer::changed, this, show);
    show();
    connect(charts_, &ChartsView::blockToggleRequested, this, [this](const QString& setting) {
        auto* box = qobject_cast<QCheckBox*>(designer_->field(setting));
        if (!box || !box->isEnabled()) return;
        box->click();
        statusBar()->showMessage((box->isChecked() ? tr("%1 switched on in the form") : tr("%1 switched off in the form")).arg(setting), 6000);
    });
}

bool MainWindow::saveExperimentAs() {
    const QString start = designer_->experimentPath();
    const QString p = QFileDialog::getSaveFileName(this, tr("Save experiment"), start, tr("Experiments (*.json)"));
    if (p.isEmpty()) return false;
    QString err;
    if (!designer_->saveExperiment(p, &err)) {
        QMessageBox::warning(this, tr("Experiment"), err);
        return false;
    }
    return true;
}

bool MainWindow::confirmFormOnQuit() {
    discard_form_ = false;
    if (quitting_ || !designer_->isModified()) return true;   // Stop and quit: the form is kept for the next start
    QMessageBox box(QMessageBox::Question, tr("Quit"), tr("The experiment form has changes not saved in a file."),
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, this);
    box.setObjectName("unsavedForm");
    box.setInformativeText(tr("Save them in an experiment file? If you do not decide now (Cancel), nothing is lost; "
                              "Discard forgets them."));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Save: return saveExperimentAs();
        case QMessageBox::Discard: discard_form_ = true; return true;
        default: return false;
    }
}

void MainWindow::saveFormState() {
    QSettings s;
    // Something to come back to: edits, or an experiment file open. A fresh form needs nothing.
    if (discard_form_ || (!designer_->isModified() && designer_->experimentPath().isEmpty())) {
        s.remove("form");
        return;
    }
    s.setValue("form", QString::fromStdString(designer_->formState().dump()));
}

void MainWindow::restoreFormState() {
    const QString text = QSettings().value("form").toString();
    if (text.isEmpty()) return;
    const nlohmann::json state = nlohmann::json::parse(text.toStdString(), nullptr, /*allow_exceptions=*/false);
    if (designer_->restoreFormState(state) && designer_->isModified())
        statusBar()->showMessage(tr("The experiment form is as you left it, with changes not saved in a file"), 8000);
}

}  // namespace normlab
