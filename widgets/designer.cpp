// NormLab widgets: Designer (see designer.h).
#include "widgets/designer.h"
#include "widgets/designer_fields.h"
#include "widgets/math_text.h"
#include "widgets/wheel_guard.h"

#include "core/experiment.h"

#include "core/errors.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <algorithm>
#include <QEvent>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace normlab {
using nlohmann::json;

using designer_fields::Field;
using designer_fields::Group;
using designer_fields::groups;
using designer_fields::Kind;

Designer::Designer(QWidget* parent) : QWidget(parent) {
    build();
    RunConfig c;
    apply_scheme(c, Scheme::PreLN);
    c.train.steps = 300;
    setConfig(c);
    saved_ = formJson().dump();   // a fresh form has nothing to save
}

void Designer::build() {
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(4, 4, 4, 4);
    auto* top = new QFormLayout();
    scheme_ = new QComboBox(this);
    scheme_->setObjectName("scheme");
    for (Scheme s : all_schemes()) scheme_->addItem(QString::fromStdString(scheme_title(s)), QString::fromStdString(scheme_name(s)));
    addText(scheme_, QT_TR_NOOP("A scheme is a preset of the components below; change any of them afterwards for ablations."), Role::Tip);
    auto* scheme_label = new QLabel(this);
    addText(scheme_label, QT_TR_NOOP("Scheme"), Role::Text);
    top->addRow(scheme_label, scheme_);
    variant_ = new QComboBox(this);
    take_wheel_only_when_focused(scheme_);
    take_wheel_only_when_focused(variant_);
    variant_->setObjectName("variant");
    variant_->setVisible(false);
    variant_label_ = new QLabel(this);
    addText(variant_label_, QT_TR_NOOP("Variant to edit"), Role::Text);
    variant_label_->setVisible(false);
    addText(variant_, QT_TR_NOOP("Which run of the opened experiment the form shows and edits: Run trains it, Save writes its changes"),
            Role::Tip);
    top->addRow(variant_label_, variant_);
    outer->addLayout(top);

    auto* scroll = scroll_ = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget(scroll);
    auto* lay = new QVBoxLayout(inner);
    lay->setContentsMargins(0, 0, 0, 0);
    // What an opened experiment is for, as its file describes it ("Xiong et al. Fig. 3: gradient
    // norms at initialization ..."): the first thing in the form, scrolled away with it. It wraps
    // to the form's width and never widens it (fitWidth measures the fields' rows).
    about_ = new QLabel(inner);
    about_->setObjectName("experimentAbout");
    about_->setWordWrap(true);
    about_->setTextFormat(Qt::RichText);
    about_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    about_->setMinimumWidth(1);
    about_->setContentsMargins(2, 0, 2, 4);
    about_->setVisible(false);
    lay->addWidget(about_);
    for (const Group& g : groups()) {
        auto* box = new QGroupBox(inner);
        addText(box, g.title, Role::Text);
        const std::string title = g.title;
        if (title.rfind("nGPT", 0) == 0) ngpt_box_ = box;
        else if (title.rfind("NormFormer", 0) == 0 || title.rfind("DeepNorm", 0) == 0 || title.rfind("BranchNorm", 0) == 0)
            ln_boxes_.push_back(box);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        for (const Field& f : g.fields) {
            QWidget* w = nullptr;
            switch (f.kind) {
                case Kind::Int: {
                    auto* s = new QSpinBox(box);
                    s->setRange(-1000000000, 1000000000);
                    s->setAccelerated(true);
                    connect(s, qOverload<int>(&QSpinBox::valueChanged), this, &Designer::revalidate);
                    w = s;
                    break;
                }
                case Kind::Double:
                case Kind::OptDouble:
                case Kind::Path: {
                    auto* e = new QLineEdit(box);
                    if (f.kind == Kind::OptDouble) addText(e, QT_TR_NOOP("auto"), Role::Placeholder);
                    connect(e, &QLineEdit::textChanged, this, &Designer::revalidate);
                    if (f.kind == Kind::Path) {
                        auto* row = new QWidget(box);
                        auto* h = new QHBoxLayout(row);
                        h->setContentsMargins(0, 0, 0, 0);
                        h->addWidget(e, 1);
                        auto* browse = new QToolButton(row);
                        browse->setText(tr("…"));
                        addText(browse, QT_TR_NOOP("Choose a file to train on"), Role::Tip);
                        connect(browse, &QToolButton::clicked, this, [this, e] {
                            const QString p = QFileDialog::getOpenFileName(this, tr("Training data"));
                            if (!p.isEmpty()) e->setText(p);
                        });
                        h->addWidget(browse);
                        fields_[f.path] = e;
                        if (*f.tip) addText(e, f.tip, Role::Tip);
                        e->setObjectName(f.path);
                        auto* plabel = new QLabel(box);
                        addText(plabel, f.label, Role::Text);
                        form->addRow(plabel, row);
                        continue;
                    }
                    w = e;
                    break;
                }
                case Kind::Bool: {
                    auto* c = new QCheckBox(box);
                    connect(c, &QCheckBox::toggled, this, &Designer::revalidate);
                    w = c;
                    break;
                }
                case Kind::Enum: {
                    auto* c = new QComboBox(box);
                    for (const char* ch : f.choices) c->addItem(ch, QString(ch));
                    connect(c, qOverload<int>(&QComboBox::currentIndexChanged), this, &Designer::revalidate);
                    w = c;
                    break;
                }
            }
            w->setObjectName(f.path);
            if (qobject_cast<QComboBox*>(w) || qobject_cast<QSpinBox*>(w)) take_wheel_only_when_focused(w);
            if (*f.tip) addText(w, f.tip, Role::Tip);
            fields_[f.path] = w;
            auto* label = new QLabel(box);
            addText(label, f.label, Role::Text);
            if (*f.tip) addText(label, f.tip, Role::Tip);
            form->addRow(label, w);
        }
        lay->addWidget(box);
    }
    lay->addStretch(1);
    scroll->setWidget(inner);
    outer->addWidget(scroll, 1);
    fitWidth();

    status_ = new QLabel(this);
    status_->setObjectName("designerStatus");
    status_->setWordWrap(true);
    outer->addWidget(status_);
    auto* buttons = new QHBoxLayout();
    run_ = new QPushButton(this);
    addText(run_, QT_TR_NOOP("Run"), Role::Text);
    run_->setObjectName("run");
    run_all_ = new QPushButton(this);
    addText(run_all_, QT_TR_NOOP("Run experiment"), Role::Text);
    run_all_->setObjectName("runExperiment");
    buttons->addWidget(run_, 1);
    buttons->addWidget(run_all_, 1);
    outer->addLayout(buttons);
    connect(run_, &QPushButton::clicked, this, &Designer::runRequested);
    connect(run_all_, &QPushButton::clicked, this, &Designer::runExperimentRequested);
    connect(scheme_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] {
        if (!filling_) setScheme(parse_scheme(scheme_->currentData().toString().toStdString()));
    });
    connect(variant_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (filling_ || !experiment_ || i < 0 || i >= static_cast<int>(experiment_->runs.size())) return;
        setConfig(experiment_->runs[static_cast<size_t>(i)].config);
    });
}

// The form never clips: the scroll area is at least as wide as the widest row
// in the current language (German labels are longer), plus its scroll bar.
void Designer::fitWidth() {
    QWidget* inner = scroll_->widget();
    inner->adjustSize();
    scroll_->setMinimumWidth(inner->minimumSizeHint().width() + scroll_->verticalScrollBar()->sizeHint().width() +
                             2 * scroll_->frameWidth() + 12);
}

// Every text the form shows, set now and again in each new language. Labels read as
// plain text ("Branch factor αₜ"); an equation in a tooltip is drawn with its scripts.
void Designer::addText(QWidget* w, const char* source, Role role) {
    texts_.push_back({w, source, role});
    applyText(texts_.back());
}

void Designer::applyText(const Text& t) const {
    const QString s = tr(t.source);
    switch (t.role) {
        case Role::Text:
            if (auto* box = qobject_cast<QGroupBox*>(t.widget)) box->setTitle(math_text::plain(s));
            else if (auto* label = qobject_cast<QLabel*>(t.widget)) label->setText(math_text::plain(s));
            else if (auto* button = qobject_cast<QAbstractButton*>(t.widget)) button->setText(math_text::plain(s));
            break;
        case Role::Tip: t.widget->setToolTip(math_text::tooltip(s)); break;
        case Role::Placeholder: static_cast<QLineEdit*>(t.widget)->setPlaceholderText(s); break;
    }
}

void Designer::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        for (const Text& t : texts_) applyText(t);
        updateEnabled();
        fitWidth();
    }
    QWidget::changeEvent(e);
}

json Designer::formJson() const {
    // What the form does not show (threads before it had a field, divergence,
    // checkpoint cadence, ...) is kept as the opened configuration has it.
    json j = loaded_.is_object() ? loaded_ : json::object();
    j["scheme"] = scheme_->currentData().toString().toStdString();
    for (const Group& g : groups())
        for (const Field& f : g.fields) {
            QWidget* w = fields_.at(f.path);
            switch (f.kind) {
                case Kind::Int: set_path(j, f.path, static_cast<QSpinBox*>(w)->value()); break;
                case Kind::Bool: set_path(j, f.path, static_cast<QCheckBox*>(w)->isChecked()); break;
                case Kind::Enum: set_path(j, f.path, static_cast<QComboBox*>(w)->currentData().toString().toStdString()); break;
                case Kind::Path: set_path(j, f.path, static_cast<QLineEdit*>(w)->text().trimmed().toStdString()); break;
                case Kind::Double:
                case Kind::OptDouble: {
                    const QString t = static_cast<QLineEdit*>(w)->text().trimmed();
                    bool ok = false;
                    const double v = QLocale::c().toDouble(t, &ok);
                    if (t.isEmpty() && f.kind == Kind::OptDouble) set_path(j, f.path, nullptr);
                    else if (ok) set_path(j, f.path, v);
                    else set_path(j, f.path, t.toStdString());   // the core names the field and the problem
                    break;
                }
            }
        }
    return j;
}

void Designer::fillForm(const json& j) {
    filling_ = true;
    loaded_ = j;
    if (auto* s = find_path(j, "scheme"); s && s->is_string())
        scheme_->setCurrentIndex(scheme_->findData(QString::fromStdString(s->get<std::string>())));
    for (const Group& g : groups())
        for (const Field& f : g.fields) {
            const json* v = find_path(j, f.path);
            if (!v) continue;
            QWidget* w = fields_.at(f.path);
            switch (f.kind) {
                case Kind::Int: static_cast<QSpinBox*>(w)->setValue(v->get<int>()); break;
                case Kind::Bool: static_cast<QCheckBox*>(w)->setChecked(v->get<bool>()); break;
                case Kind::Enum: {
                    auto* c = static_cast<QComboBox*>(w);
                    c->setCurrentIndex(c->findData(QString::fromStdString(v->get<std::string>())));
                    break;
                }
                case Kind::Path: static_cast<QLineEdit*>(w)->setText(QString::fromStdString(v->get<std::string>())); break;
                case Kind::Double:
                case Kind::OptDouble:
                    // Text the user typed that is not a number yet stays as typed (and keeps its error).
                    static_cast<QLineEdit*>(w)->setText(v->is_null()     ? QString()
                                                        : v->is_string() ? QString::fromStdString(v->get<std::string>())
                                                                         : QString::number(v->get<double>(), 'g', 8));
                    break;
            }
        }
    filling_ = false;
    revalidate();
}

RunConfig Designer::config() const {
    RunConfig c = run_config_from_json(formJson());
    c.name = run_name_from_differences(c);
    validate(c);
    return c;
}

void Designer::setConfig(const RunConfig& c) {
    preset_saved_.clear();
    fillForm(to_json(c));
}

Scheme Designer::scheme() const { return parse_scheme(scheme_->currentData().toString().toStdString()); }

void Designer::setScheme(Scheme s) {
    // A preset changes only what it defines (preset_fields, docs/CONFIG.md):
    // every other field keeps what the user set.
    // Training fields the previous scheme's preset set, that this one does
    // not, go back to what they were before it (unless changed since), and
    // the form says what the scheme changed.
    json j = formJson();
    RunConfig preset;
    apply_scheme(preset, s);
    const json pj = to_json(preset);
    const std::vector<std::string>& now = preset_fields(s);
    const auto component = [](const std::string& p) {   // what every scheme sets: not worth a notice
        for (const char* c : {"model.layout", "model.final_norm", "model.normformer", "model.deepnorm", "model.branchnorm",
                              "model.ngpt"})
            if (p == c) return true;
        return false;
    };
    QStringList restored, changed;
    for (auto it = preset_saved_.begin(); it != preset_saved_.end();) {
        if (std::find(now.begin(), now.end(), it->first) != now.end()) {
            ++it;
            continue;
        }
        if (const json* cur = find_path(j, it->first); cur && *cur == it->second.second) {
            set_path(j, it->first, it->second.first);
            restored << QString::fromStdString(it->first + " " + it->second.first.dump());
        }
        it = preset_saved_.erase(it);
    }
    j["scheme"] = pj["scheme"];
    for (const std::string& path : now)
        if (const json* v = find_path(pj, path)) {
            const json* cur = find_path(j, path);
            if (!component(path) && cur && *cur != *v) {
                if (!preset_saved_.count(path)) preset_saved_[path] = {*cur, *v};
                changed << QString::fromStdString(path + " " + cur->dump() + " → " + v->dump());
            }
            set_path(j, path, *v);
        }
    fillForm(j);
    QStringList notice;
    if (!changed.isEmpty()) notice << tr("%1 sets %2.").arg(scheme_->currentText(), changed.join(", "));
    if (!restored.isEmpty()) notice << tr("Restored what the previous scheme had changed: %1.").arg(restored.join(", "));
    if (!notice.isEmpty() && error_.isEmpty()) status_->setText(notice.join(' '));
}

QWidget* Designer::field(const QString& path) const {
    auto it = fields_.find(path);
    return it == fields_.end() ? nullptr : it->second;
}

void Designer::revalidate() {
    if (filling_) return;
    for (auto& [path, w] : fields_) w->setStyleSheet(QString());
    error_.clear();
    error_path_.clear();
    try {
        RunConfig c = config();
        if (c.data.source == DataSource::File && !QFileInfo::exists(QString::fromStdString(c.data.path)))
            throw ConfigError("data.path", "no such file: " + c.data.path + "; choose an existing file");
    } catch (const ConfigError& e) {
        error_ = QString::fromStdString(e.what());
        error_path_ = QString::fromStdString(e.path());
        // the field itself, or the nearest enclosing one in the form
        QString p = error_path_;
        while (!p.isEmpty() && !fields_.count(p)) p = p.left(std::max<qsizetype>(0, p.lastIndexOf('.')));
        if (auto it = fields_.find(p); it != fields_.end()) {
            it->second->setStyleSheet("border: 2px solid #d62728;");
            it->second->setToolTip(error_);
        }
    }
    updateEnabled();
    recordUndo();
    Q_EMIT changed();
}

// Options that cannot act under the chosen layout are greyed out and say why:
// nGPT's outside the nGPT layout; the LayerNorm schemes' under it (unless one
// is still switched on, so that it can be switched off).
void Designer::updateApplicable() {
    auto* layout = qobject_cast<QComboBox*>(fields_.at("model.layout"));
    const bool ngpt = layout->currentData().toString() == "ngpt";
    if (ngpt_box_) {
        ngpt_box_->setEnabled(ngpt);
        ngpt_box_->setToolTip(ngpt ? QString() : tr("These apply only to the nGPT layout (Layout: ngpt, or the nGPT scheme)"));
    }
    for (QGroupBox* box : ln_boxes_) {
        bool any_on = false;
        for (auto* c : box->findChildren<QCheckBox*>()) any_on = any_on || c->isChecked();
        box->setEnabled(!ngpt || any_on);
        box->setToolTip(ngpt ? tr("nGPT has no LayerNorm: these do not apply to the nGPT layout") : QString());
    }
}

void Designer::updateEnabled() {
    updateApplicable();
    const bool ok = error_.isEmpty();
    run_->setEnabled(ok);
    run_->setToolTip(ok ? tr("Train this configuration (Ctrl+R)") : tr("Disabled: %1").arg(error_));
    run_all_->setEnabled(ok && experiment_.has_value());
    run_all_->setToolTip(experiment_ ? tr("Queue all %n run(s) of %1", nullptr, static_cast<int>(experiment_->runs.size()))
                                               .arg(QString::fromStdString(experiment_->name))
                                     : tr("Open an experiment file first (Ctrl+O)"));
    status_->setText(ok ? QString() : QStringLiteral("⚠ ") + error_);
    status_->setStyleSheet(ok ? QString() : QStringLiteral("color: #d62728;"));
}

}  // namespace normlab
