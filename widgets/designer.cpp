// NormLab widgets: Designer (see designer.h).
#include "widgets/designer.h"
#include "widgets/wheel_guard.h"

#include "core/experiment.h"

#include "core/errors.h"

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

namespace {

enum class Kind { Int, Double, OptDouble, Bool, Enum, Path };

struct Field {
    const char* path;
    const char* label;
    Kind kind;
    const char* tip;
    std::vector<const char*> choices = {};
};

struct Group { const char* title; std::vector<Field> fields; };

// The form: every field by its JSON path (docs/CONFIG.md), grouped by paper.
const std::vector<Group>& groups() {
    static const std::vector<Group> g = {
        {QT_TRANSLATE_NOOP("normlab::Designer", "Placement — Xiong et al. 2020"),
         {{"model.layout", QT_TRANSLATE_NOOP("normlab::Designer", "Layout"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "post: x ← LN(x + F(x))  (Post-LN, Vaswani et al.)\npre: x ← x + F(LN(x))  (Pre-LN, Xiong et al. 2020)\n"
                                         "ngpt: h ← norm(h + α(norm(F(h)) − h))  (nGPT, Loshchilov et al.)"),
           {"post", "pre", "ngpt"}},
          {"model.final_norm", QT_TRANSLATE_NOOP("normlab::Designer", "Final norm"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "A norm before the output layer: logits = LN(x_L)·W_outᵀ (Pre-LN; Xiong et al. 2020)")},
          {"model.norm", QT_TRANSLATE_NOOP("normlab::Designer", "Norm"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "layernorm: γ⊙(x − μ)/σ + β\nrmsnorm: γ⊙x/√(mean(x²) + ε)"), {"layernorm", "rmsnorm"}}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "NormFormer — Shleifer et al."),
         {{"model.normformer.head_scale", QT_TRANSLATE_NOOP("normlab::Designer", "HeadScale"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "h_i ← γ_i·h_i, γ ∈ ℝ^H, init 1: Concat(γ₁h₁, …, γ_Hh_H)·W_O (NormFormer §3)")},
          {"model.normformer.head_scale_placement", QT_TRANSLATE_NOOP("normlab::Designer", "HeadScale placement"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "before_out_proj: the paper's form\nafter_out_proj: fairseq's (scales per-head slices of the output)"),
           {"before_out_proj", "after_out_proj"}},
          {"model.normformer.post_attn_norm", QT_TRANSLATE_NOOP("normlab::Designer", "Post-attention LN"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "o ← LN(Attention(LN(x))·W_O) before the residual add (NormFormer §3)")},
          {"model.normformer.ffn_norm", QT_TRANSLATE_NOOP("normlab::Designer", "FFN LN"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "f ← FC2(LN(act(FC1(LN(x))))): a LayerNorm over d_ff after the activation (NormFormer §3)")},
          {"model.normformer.res_scale", QT_TRANSLATE_NOOP("normlab::Designer", "ResScale"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "x ← λ⊙x + FFN(LN(x)), λ ∈ ℝ^d, init 1 (NormFormer §3; helps small models)")}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "DeepNorm — Wang et al."),
         {{"model.deepnorm.residual", QT_TRANSLATE_NOOP("normlab::Designer", "Residual α"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "x ← LN(α·x + F(x)), α = (2N)^¼ for an N-layer decoder (DeepNet)")},
          {"model.deepnorm.alpha", QT_TRANSLATE_NOOP("normlab::Designer", "α (empty: (2N)^¼)"), Kind::OptDouble,
           QT_TRANSLATE_NOOP("normlab::Designer", "Override of DeepNorm's residual weight α")},
          {"model.deepnorm.init", QT_TRANSLATE_NOOP("normlab::Designer", "β-scaled init"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "Xavier-normal init with gain β = (8N)^-¼ on W_v, W_O, FC1, FC2 and 1 on W_q, W_k (DeepNet)")},
          {"model.deepnorm.beta", QT_TRANSLATE_NOOP("normlab::Designer", "β (empty: (8N)^-¼)"), Kind::OptDouble,
           QT_TRANSLATE_NOOP("normlab::Designer", "Override of DeepNorm's init gain β")}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "BranchNorm — Liu et al."),
         {{"model.branchnorm.enabled", QT_TRANSLATE_NOOP("normlab::Designer", "Branch factor α_t"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "x ← LN(x + α_t·F(x)), α_t rising from 0 to 1 over T steps (BranchNorm §3)")},
          {"model.branchnorm.schedule", QT_TRANSLATE_NOOP("normlab::Designer", "Schedule"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "linear: α_t = min(1, t/T) (the paper's)\nexp, sigmoid: lab-defined (docs/DECISIONS.md)"),
           {"linear", "exp", "sigmoid"}},
          {"model.branchnorm.T", QT_TRANSLATE_NOOP("normlab::Designer", "T (steps)"), Kind::Int,
           QT_TRANSLATE_NOOP("normlab::Designer", "Steps until α_t = 1; the paper uses 4000")}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "nGPT — Loshchilov et al."),
         {{"model.ngpt.qk_norm", QT_TRANSLATE_NOOP("normlab::Designer", "QK-norm"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "q ← s_qk⊙norm(q), k ← s_qk⊙norm(k) per head, softmax scale √d_k")},
          {"model.ngpt.eigen_lr", QT_TRANSLATE_NOOP("normlab::Designer", "Eigen learning rates"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "Learn α_A, α_M in h ← norm(h + α(norm(F(h)) − h)); init 0.05, scale 1/√d")},
          {"model.ngpt.scalers", QT_TRANSLATE_NOOP("normlab::Designer", "s_qk, s_u, s_v, s_z"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "Learned scalers of queries/keys, the gated MLP and the logits (init/scale re-parameterised)")},
          {"model.ngpt.renormalize", QT_TRANSLATE_NOOP("normlab::Designer", "Weight renormalisation"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "Put every embedding-dimension vector back on the unit sphere after each step")}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "Model"),
         {{"model.d_model", QT_TRANSLATE_NOOP("normlab::Designer", "d_model"), Kind::Int, QT_TRANSLATE_NOOP("normlab::Designer", "Width")},
          {"model.n_layers", QT_TRANSLATE_NOOP("normlab::Designer", "Layers"), Kind::Int, QT_TRANSLATE_NOOP("normlab::Designer", "Blocks N")},
          {"model.n_heads", QT_TRANSLATE_NOOP("normlab::Designer", "Heads"), Kind::Int, QT_TRANSLATE_NOOP("normlab::Designer", "Must divide d_model")},
          {"model.d_ff", QT_TRANSLATE_NOOP("normlab::Designer", "d_ff"), Kind::Int, QT_TRANSLATE_NOOP("normlab::Designer", "MLP width")},
          {"model.context", QT_TRANSLATE_NOOP("normlab::Designer", "Context"), Kind::Int, QT_TRANSLATE_NOOP("normlab::Designer", "Bytes per sequence")},
          {"model.activation", QT_TRANSLATE_NOOP("normlab::Designer", "Activation"), Kind::Enum, "", {"gelu", "relu", "swiglu"}},
          {"model.positions", QT_TRANSLATE_NOOP("normlab::Designer", "Positions"), Kind::Enum, "", {"learned", "sinusoidal", "rope", "none"}},
          {"model.dropout", QT_TRANSLATE_NOOP("normlab::Designer", "Dropout"), Kind::Double, ""},
          {"model.tie_embeddings", QT_TRANSLATE_NOOP("normlab::Designer", "Tied embeddings"), Kind::Bool, ""},
          {"model.embed_scale", QT_TRANSLATE_NOOP("normlab::Designer", "Embeddings × √d"), Kind::Bool,
           QT_TRANSLATE_NOOP("normlab::Designer", "Multiply token embeddings by √d_model (Vaswani et al. §3.4; fairseq).\nXiong et al.'s analysis assumes inputs with E‖x₀‖² ≈ d.")},
          {"model.bias", QT_TRANSLATE_NOOP("normlab::Designer", "Biases"), Kind::Bool, ""},
          {"model.init", QT_TRANSLATE_NOOP("normlab::Designer", "Init"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "normal: N(0, 0.02), residual outputs N(0, 0.02/√(2L)) (GPT-2)\nxavier: Xavier-uniform (Vaswani; Xiong)"),
           {"normal", "xavier"}}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "Data"),
         {{"data.source", QT_TRANSLATE_NOOP("normlab::Designer", "Source"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "corpus: English fortunes\nfile: any file, byte-level\nmarkov: synthetic, with a known loss floor"),
           {"corpus", "file", "markov"}},
          {"data.path", QT_TRANSLATE_NOOP("normlab::Designer", "File"), Kind::Path, ""},
          {"data.markov.order", QT_TRANSLATE_NOOP("normlab::Designer", "Markov order"), Kind::Int, ""},
          {"data.markov.alphabet", QT_TRANSLATE_NOOP("normlab::Designer", "Markov alphabet"), Kind::Int, ""}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "Optimizer"),
         {{"optim.kind", QT_TRANSLATE_NOOP("normlab::Designer", "Optimizer"), Kind::Enum, "", {"adamw", "adam", "sgd"}},
          {"optim.lr", QT_TRANSLATE_NOOP("normlab::Designer", "Learning rate"), Kind::Double, ""},
          {"optim.weight_decay", QT_TRANSLATE_NOOP("normlab::Designer", "Weight decay"), Kind::Double,
           QT_TRANSLATE_NOOP("normlab::Designer", "Never on norms, biases or scalers")},
          {"optim.beta2", QT_TRANSLATE_NOOP("normlab::Designer", "β₂"), Kind::Double, ""},
          {"optim.grad_clip", QT_TRANSLATE_NOOP("normlab::Designer", "Gradient clip"), Kind::Double, QT_TRANSLATE_NOOP("normlab::Designer", "Global L2 norm; 0 disables")},
          {"optim.schedule.kind", QT_TRANSLATE_NOOP("normlab::Designer", "Schedule"), Kind::Enum,
           QT_TRANSLATE_NOOP("normlab::Designer", "ramp: the LR stability test — the rate grows by the increment each step until the loss diverges (NormFormer §4)"),
           {"cosine", "linear", "inverse_sqrt", "constant", "ramp"}},
          {"optim.schedule.warmup", QT_TRANSLATE_NOOP("normlab::Designer", "Warm-up steps"), Kind::Int, ""},
          {"optim.schedule.ramp_increment", QT_TRANSLATE_NOOP("normlab::Designer", "Ramp increment"), Kind::Double, ""}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "Training"),
         {{"train.steps", QT_TRANSLATE_NOOP("normlab::Designer", "Steps"), Kind::Int, ""},
          {"train.batch_size", QT_TRANSLATE_NOOP("normlab::Designer", "Batch"), Kind::Int, ""},
          {"train.seed", QT_TRANSLATE_NOOP("normlab::Designer", "Seed"), Kind::Int, ""},
          {"train.device", QT_TRANSLATE_NOOP("normlab::Designer", "Device"), Kind::Enum, "", {"auto", "cpu", "cuda"}},
          {"train.precision", QT_TRANSLATE_NOOP("normlab::Designer", "Precision"), Kind::Enum, QT_TRANSLATE_NOOP("normlab::Designer",
           "fp32; tf32: GPU tensor cores, fp32 elsewhere; bf16: mixed precision, fp32 weights"), {"fp32", "tf32", "bf16"}},
          {"train.cuda_graph", QT_TRANSLATE_NOOP("normlab::Designer", "CUDA graph"), Kind::Enum, QT_TRANSLATE_NOOP("normlab::Designer",
           "On a GPU, the training step captured once and replayed with one launch; auto: where the run allows it"), {"off", "auto", "on"}},
          {"train.threads", QT_TRANSLATE_NOOP("normlab::Designer", "Threads"), Kind::Int,
           QT_TRANSLATE_NOOP("normlab::Designer", "CPU threads LibTorch uses; 0: all cores")},
          {"train.eval_every", QT_TRANSLATE_NOOP("normlab::Designer", "Validate every"), Kind::Int, ""}}},
        {QT_TRANSLATE_NOOP("normlab::Designer", "Probes (every N steps; 0: off)"),
         {{"probes.grads_every", QT_TRANSLATE_NOOP("normlab::Designer", "Gradients"), Kind::Int, ""},
          {"probes.forward_every", QT_TRANSLATE_NOOP("normlab::Designer", "Hidden states"), Kind::Int, ""},
          {"probes.gains_every", QT_TRANSLATE_NOOP("normlab::Designer", "Gains"), Kind::Int, ""},
          {"probes.cond_every", QT_TRANSLATE_NOOP("normlab::Designer", "Condition numbers"), Kind::Int, ""}}},
    };
    return g;
}

}  // namespace

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
    scheme_->setToolTip(tr("A scheme is a preset of the components below; change any of them afterwards for ablations."));
    scheme_label_ = new QLabel(tr("Scheme"), this);
    top->addRow(scheme_label_, scheme_);
    variant_ = new QComboBox(this);
    take_wheel_only_when_focused(scheme_);
    take_wheel_only_when_focused(variant_);
    variant_->setObjectName("variant");
    variant_->setVisible(false);
    variant_label_ = new QLabel(tr("Variant to edit"), this);
    variant_label_->setVisible(false);
    variant_->setToolTip(tr("Which run of the opened experiment the form shows and edits: Run trains it, Save writes its changes"));
    top->addRow(variant_label_, variant_);
    outer->addLayout(top);

    auto* scroll = scroll_ = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget(scroll);
    auto* lay = new QVBoxLayout(inner);
    lay->setContentsMargins(0, 0, 0, 0);
    for (const Group& g : groups()) {
        auto* box = new QGroupBox(tr(g.title), inner);
        texts_.emplace_back(box, g.title);
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
                    if (f.kind == Kind::OptDouble) e->setPlaceholderText(tr("auto"));
                    connect(e, &QLineEdit::textChanged, this, &Designer::revalidate);
                    if (f.kind == Kind::Path) {
                        auto* row = new QWidget(box);
                        auto* h = new QHBoxLayout(row);
                        h->setContentsMargins(0, 0, 0, 0);
                        h->addWidget(e, 1);
                        auto* browse = new QToolButton(row);
                        browse->setText(tr("…"));
                        browse->setToolTip(tr("Choose a file to train on"));
                        connect(browse, &QToolButton::clicked, this, [this, e] {
                            const QString p = QFileDialog::getOpenFileName(this, tr("Training data"));
                            if (!p.isEmpty()) e->setText(p);
                        });
                        h->addWidget(browse);
                        fields_[f.path] = e;
                        e->setToolTip(tr(f.tip));
                        e->setObjectName(f.path);
                        auto* plabel = new QLabel(tr(f.label), box);
                        texts_.emplace_back(plabel, f.label);
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
            if (*f.tip) w->setToolTip(tr(f.tip));
            fields_[f.path] = w;
            auto* label = new QLabel(tr(f.label), box);
            texts_.emplace_back(label, f.label);
            if (*f.tip) label->setToolTip(tr(f.tip));
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
    run_ = new QPushButton(tr("Run"), this);
    run_->setObjectName("run");
    run_all_ = new QPushButton(tr("Run experiment"), this);
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

void Designer::changeEvent(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) {
        for (auto& [w, src] : texts_) {
            if (auto* box = qobject_cast<QGroupBox*>(w)) box->setTitle(tr(src));
            else if (auto* label = qobject_cast<QLabel*>(w)) label->setText(tr(src));
        }
        scheme_label_->setText(tr("Scheme"));
        variant_label_->setText(tr("Variant to edit"));
        run_->setText(tr("Run"));
        run_all_->setText(tr("Run experiment"));
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
