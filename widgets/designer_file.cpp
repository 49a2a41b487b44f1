// NormLab widgets: the Designer's experiment files — open one (the form
// shows its runs) and save it back whole with the form's changes.
#include "widgets/designer.h"

#include "core/errors.h"
#include "core/experiment.h"
#include "core/json_input.h"
#include "widgets/figure.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>

namespace normlab {

using nlohmann::json;

bool Designer::openExperiment(const QString& path, QString* error) {
    try {
        Experiment ex = load_experiment(path.toStdString());
        experiment_ = std::move(ex);
    } catch (const ConfigError& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    filling_ = true;
    variant_->clear();
    for (auto& r : experiment_->runs) variant_->addItem(QString::fromStdString(r.name));
    variant_->setVisible(experiment_->runs.size() > 1);
    variant_label_->setVisible(experiment_->runs.size() > 1);
    variant_->setToolTip(tr("The runs of %1; Run experiment queues them all").arg(QString::fromStdString(experiment_->name)));
    QString about = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(experiment_->name).toHtmlEscaped());
    if (!experiment_->description.empty())
        about += QStringLiteral(" — ") + QString::fromStdString(experiment_->description).toHtmlEscaped().replace('\n', "<br>");
    about_->setText(about);
    about_->setToolTip(QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath()));
    about_->setVisible(true);
    filling_ = false;
    setConfig(experiment_->runs.front().config);
    path_ = path;
    saved_ = formJson().dump();
    return true;
}

bool Designer::isModified() const { return !saved_.empty() && formJson().dump() != saved_; }

json Designer::formState() const {
    return {{"form", formJson()}, {"path", path_.toStdString()}, {"variant", variant_->currentIndex()}, {"saved", saved_}};
}

bool Designer::restoreFormState(const json& state) {
    if (!state.is_object() || !state.contains("form") || !state["form"].is_object()) return false;
    // Each field read only as the type it was written (a hand-edited or another version's state
    // must not throw out of the window's start, every start).
    const QString path = QString::fromStdString(string_field(state, "path"));
    if (!path.isEmpty() && QFileInfo::exists(path)) {
        QString err;
        if (openExperiment(path, &err)) {
            const int64_t v = int_field(state, "variant");
            if (v >= 0 && v < variant_->count()) variant_->setCurrentIndex(static_cast<int>(v));
        }
    }
    try {
        fillForm(state["form"]);   // every field as it was left, edits included
    } catch (const std::exception&) {
        return false;   // a form from another version: the defaults stay
    }
    saved_ = string_field(state, "saved", formJson().dump());
    return true;
}

namespace {
// The leaves of `form` whose values differ from `shown` (dotted path → value).
void collect_changes(const json& form, const std::string& prefix, const json& shown,
                     std::vector<std::pair<std::string, json>>& out) {
    for (auto it = form.begin(); it != form.end(); ++it) {
        const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
        if (it.value().is_object()) {
            collect_changes(it.value(), path, shown, out);
        } else {
            const json* was = find_path(shown, path);
            if (!was || *was != it.value()) out.emplace_back(path, it.value());
        }
    }
}
}  // namespace

// An opened experiment is written back whole — name, description, variants,
// sweeps, scales, report entries — with what was changed in the form written
// into the variant the form shows; a new one is the form as its base. The file
// is replaced only once completely written (write_whole: through QSaveFile, a
// full disk had replaced the experiment with its first bytes and said Saved).
bool Designer::saveExperiment(const QString& path, QString* error) const {
    json doc;
    std::vector<std::string> swept;
    if (experiment_ && !experiment_->runs.empty()) {
        const int i = variant_->currentIndex();
        const size_t shown = i >= 0 && i < static_cast<int>(experiment_->runs.size()) ? static_cast<size_t>(i) : 0;
        std::vector<std::pair<std::string, json>> changes;
        collect_changes(formJson(), "", experiment_->runs[shown].resolved, changes);
        doc = with_run_changes(*experiment_, shown, changes, &swept);
    } else {
        json base = formJson();
        base.erase("name");   // an experiment names its runs by variant and sweep (load_experiment refuses base.name)
        doc = {{"name", QFileInfo(path).completeBaseName().toStdString()}, {"base", base}};
    }
    if (QString why = refused_output(path); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    if (QString why = write_whole(path, QByteArray::fromStdString(doc.dump(2) + "\n")); !why.isEmpty()) {
        if (error) *error = tr("cannot write %1: %2").arg(path, why);
        return false;
    }
    path_ = path;
    saved_ = formJson().dump();
    if (!swept.empty()) {
        QStringList keys;
        for (auto& k : swept) keys << QString::fromStdString(k);
        status_->setText(tr("Saved; %1 is set by the experiment's sweep, so the form's value was not saved")
                             .arg(keys.join(", ")));
    }
    return true;
}

}  // namespace normlab
