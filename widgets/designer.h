// NormLab widgets: the experiment designer.
//
// A scheme chooser that sets the component toggles, the toggles grouped by
// paper (each with its equation and source as tooltip), model size, data,
// optimizer and schedule, training and probe intervals. The form is built
// from a table of fields named by their JSON path in the run configuration
// (docs/CONFIG.md), so a validation error from the core ("model.n_heads: 6
// does not divide d_model 128 ...") is shown at its field, and the Run
// button says why it is disabled. Opens and saves experiment files.
#pragma once

#include "core/config.h"
#include "core/experiment.h"

#include <QWidget>

#include <map>
#include <optional>

QT_BEGIN_NAMESPACE
class QComboBox;
class QGroupBox;
class QScrollArea;
class QLabel;
class QPushButton;
class QFormLayout;
QT_END_NAMESPACE

namespace normlab {

class Designer : public QWidget {
    Q_OBJECT
public:
    explicit Designer(QWidget* parent = nullptr);

    // The configuration the form describes (defaults → scheme → fields). Throws ConfigError.
    RunConfig config() const;
    void setConfig(const RunConfig& c);
    void setScheme(Scheme s);                       // applies the preset, keeps sizes/data/training
    Scheme scheme() const;

    // The current error ("" when valid), as the Run button's tooltip shows it.
    QString error() const { return error_; }
    QString errorPath() const { return error_path_; }
    bool valid() const { return error_.isEmpty(); }

    // Experiment files (the core's format).
    bool openExperiment(const QString& path, QString* error);
    bool saveExperiment(const QString& path, QString* error) const;
    const std::optional<Experiment>& experiment() const { return experiment_; }
    QString experimentPath() const { return path_; }   // the file opened or last saved; "" for none
    // Edits since the form was opened, saved or started (what Quit asks about).
    bool isModified() const;
    // The form as the user left it — the experiment file, the variant edited and
    // every field, saved or not — to be put back at the next start.
    nlohmann::json formState() const;
    bool restoreFormState(const nlohmann::json& state);

    // Undo/redo of the form (Edit menu): each change of a field, a scheme
    // switch or an opened experiment is one step; 200 steps are kept.
    bool undo();
    bool redo();
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }

    QWidget* field(const QString& path) const;      // for tests
    QPushButton* runButton() const { return run_; }
    QPushButton* runExperimentButton() const { return run_all_; }

protected:
    void changeEvent(QEvent* e) override;

Q_SIGNALS:
    void runRequested();
    void runExperimentRequested();
    void changed();

private:
    void build();
    void revalidate();
    nlohmann::json formJson() const;
    void fillForm(const nlohmann::json& j);
    void updateEnabled();

    QComboBox* scheme_ = nullptr;
    QComboBox* variant_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* run_all_ = nullptr;
    std::map<QString, QWidget*> fields_;            // JSON path → editor
    enum class Role { Text, Tip, Placeholder };
    struct Text {
        QWidget* widget;
        const char* source;   // untranslated
        Role role;
    };
    std::vector<Text> texts_;   // what the form shows, for retranslation
    void addText(QWidget* w, const char* source, Role role);
    void applyText(const Text& t) const;
    QLabel* variant_label_ = nullptr;
    QLabel* about_ = nullptr;                         // the opened experiment's name and description, atop the form
    QGroupBox* ngpt_box_ = nullptr;                   // nGPT's options: only with layout ngpt
    std::vector<QGroupBox*> ln_boxes_;                // NormFormer, DeepNorm, BranchNorm: not with ngpt
    void updateApplicable();
    void fitWidth();
    QScrollArea* scroll_ = nullptr;
    QString error_, error_path_;
    // Training fields a scheme's preset set (nGPT's weight decay, warm-up, ...):
    // path → (the value before it, the preset's). Leaving the scheme puts back
    // those the user did not change since.
    std::map<std::string, std::pair<nlohmann::json, nlohmann::json>> preset_saved_;
    // The configuration last put into the form, whole: formJson() starts from it.
    nlohmann::json loaded_;
    std::optional<Experiment> experiment_;
    mutable QString path_;
    mutable std::string saved_;   // the form (JSON text) as last opened or saved
    bool filling_ = false;
    // designer_undo.cpp: form states (JSON text) before the current one, and after it
    void recordUndo();
    bool stepUndo(std::vector<std::string>& from, std::vector<std::string>& to);
    std::vector<std::string> undo_, redo_;
    QObject* typing_ = nullptr;   // the field whose edit the last step holds, while it goes on
    std::string current_;
    bool restoring_ = false;
};

}  // namespace normlab
