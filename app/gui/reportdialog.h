// NormLab: Run → Reproduce paper findings… — picks experiment files, the size
// they train at (the lab's, or a scale such as gpu) and an output folder, runs `normlab report` as a child process (training in it,
// so the window stays responsive and the runs land in the open store), shows
// its log, and opens the finished report.
#pragma once

#include <QDialog>
#include <QStringList>

QT_BEGIN_NAMESPACE
class QComboBox;
class QListWidget;
class QLineEdit;
class QPlainTextEdit;
class QProcess;
class QPushButton;
class QLabel;
QT_END_NAMESPACE

namespace normlab {

class ReportDialog : public QDialog {
    Q_OBJECT
public:
    ReportDialog(const QString& store_path, QWidget* parent = nullptr);
    ~ReportDialog() override;

    void setExperiments(const QStringList& files);
    QStringList experiments() const;
    void setOutputDir(const QString& dir);
    // The size the runs train at: "" the lab's own (a CPU, minutes), else one of the
    // experiments' named scales ("gpu": docs/REPRODUCTION-GPU.md's sizes); the choices
    // are the scales the listed experiments offer.
    QString scale() const;
    bool setScale(const QString& name);
    // The normlab executable to run (default: this program).
    void setProgram(const QString& path) { program_ = path; }
    // The `normlab report ...` arguments the dialog would run.
    QStringList arguments() const;
    void start();
    bool running() const;
    QString log() const;

Q_SIGNALS:
    void reportFinished(int exit_code);

protected:
    void reject() override;

private:
    void onOutput();
    void onFinished(int code);
    void updateButtons();
    void relabel();
    void updateScales();

    QString store_, program_;
    QListWidget* files_;
    QComboBox* scale_;
    QStringList unusable_;   // the listed files that cannot be reported at the chosen scale
    bool said_cannot_ = false;
    QLineEdit* out_;
    QPlainTextEdit* log_;
    QLabel* state_;
    QPushButton *start_, *stop_, *open_;
    QProcess* proc_ = nullptr;
};

// The reproduction experiments shipped with NormLab (reproduction/*.json of
// shipped_experiments_dir(), app/gui/report.h); empty if not found.
QStringList default_reproduction_experiments();

}  // namespace normlab
