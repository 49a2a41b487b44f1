// NormLab: the runs table's "Write text…" — what the selected runs' weights write from
// one prompt, side by side, with the same random draws (core/train/sample.h), so that the
// texts differ by the models alone: a diverged Post-LN beside a Pre-LN that learnt. The
// weights load and the bytes are drawn on a thread of the dialog's own; the columns fill
// as they come; Stop, or closing the dialog, stops it within a byte.
#pragma once

#include "core/store/store.h"

#include <QDialog>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

QT_BEGIN_NAMESPACE
class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTextEdit;
class QTimer;
class QToolButton;
QT_END_NAMESPACE

namespace normlab {

class SampleDialog : public QDialog {
    Q_OBJECT
public:
    static constexpr int kMaxRuns = 4;   // columns side by side; more selected: the first four
    // `runs` in the order shown (beyond kMaxRuns left out, and said); `left_out`: how many
    // more the caller left out itself.
    SampleDialog(std::vector<RunInfo> runs, int left_out, QWidget* parent = nullptr);
    ~SampleDialog() override;

    QLineEdit* prompt() const { return prompt_; }
    QSpinBox* bytes() const { return bytes_; }
    QDoubleSpinBox* temperature() const { return temperature_; }
    QSpinBox* topK() const { return top_k_; }
    QSpinBox* seed() const { return seed_; }
    QCheckBox* halve() const { return halve_; }   // past the context: Slide::Half, not Slide::Window
    void write();                 // the Write button: every column again from the prompt
    void stop();                  // the Stop button; waits for the thread
    bool writing() const;
    QString textOf(int column) const;   // a column's text as shown (the prompt, then what was written)
    QString headerOf(int column) const;
    // A column's weights from a checkpoint file (its Weights… button; "": the run's own), from the next write().
    void setWeights(int column, const QString& file);
    QString weightsOf(int column) const;

    void reject() override;       // Close: stops the writing first

protected:
    void changeEvent(QEvent* e) override;

private:
    struct Shared;
    void refresh();               // the timer's: new bytes and errors into the columns
    void relabel();
    void updateButtons();

    std::vector<RunInfo> runs_;
    int left_out_ = 0;
    QLineEdit* prompt_;
    QSpinBox* bytes_;
    QDoubleSpinBox* temperature_;
    QSpinBox* top_k_;
    QSpinBox* seed_;
    QCheckBox* halve_;
    QPushButton* write_;
    QPushButton* stop_;
    QLabel* status_;
    QLabel* note_;   // the selected runs left out
    std::vector<QLabel*> headers_;
    std::vector<QTextEdit*> texts_;
    std::vector<QToolButton*> picks_;   // per column: Weights…
    std::vector<QString> weights_;      // per column: a checkpoint file, or "" (the run's own)
    QTimer* timer_;
    std::shared_ptr<Shared> shared_;
    std::thread thread_;
    std::string prompt_bytes_;    // the prompt the columns continue
};

}  // namespace normlab
