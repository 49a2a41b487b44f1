// The experiment designer on its own: scheme presets change only what they
// define, invalid input disables Run with its reason, options that cannot act
// are disabled, saving an opened experiment keeps it whole, and its equations
// show their subscripts.
#include "core/experiment.h"
#include "tests/designer_util.h"
#include "tests/test_util.h"
#include "widgets/designer.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QtTest/QtTest>

#include <fstream>

using namespace normlab;
using test::make_tiny;

class TestDesigner : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QLocale::setDefault(QLocale::c());
    }

    void theWheelScrollsTheFormNotItsFields() {
        // Scrolling the form over a drop-down or a spin box leaves them as they were;
        // once a field is focused (clicked, or reached with Tab), the wheel is its.
        Designer d;
        d.resize(400, 300);
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        d.setScheme(Scheme::BranchNorm);
        auto* schedule = qobject_cast<QComboBox*>(d.field("model.branchnorm.schedule"));
        auto* steps = qobject_cast<QSpinBox*>(d.field("train.steps"));
        QVERIFY(schedule && steps);
        auto wheel = [](QWidget* w) {
            const QPointF at(w->width() / 2.0, w->height() / 2.0);
            QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
            QCoreApplication::sendEvent(w, &e);
        };
        const int index = schedule->currentIndex(), value = steps->value();
        d.setFocus();
        wheel(schedule);
        wheel(steps);
        QCOMPARE(schedule->currentIndex(), index);
        QCOMPARE(steps->value(), value);
        steps->setFocus();
        QTRY_VERIFY(steps->hasFocus());
        wheel(steps);
        QVERIFY(steps->value() != value);
    }

    void schemePresetSetsToggles() {
        Designer d;
        d.setScheme(Scheme::NormFormer);
        QVERIFY(qobject_cast<QCheckBox*>(d.field("model.normformer.head_scale"))->isChecked());
        QVERIFY(qobject_cast<QCheckBox*>(d.field("model.normformer.ffn_norm"))->isChecked());
        QVERIFY(qobject_cast<QCheckBox*>(d.field("model.final_norm"))->isChecked());
        QCOMPARE(d.config().scheme, Scheme::NormFormer);
        d.setScheme(Scheme::DeepNorm);
        QCOMPARE(qobject_cast<QComboBox*>(d.field("model.layout"))->currentData().toString(), QString("post"));
        QVERIFY(qobject_cast<QCheckBox*>(d.field("model.deepnorm.residual"))->isChecked());
        QVERIFY(!qobject_cast<QCheckBox*>(d.field("model.normformer.head_scale"))->isChecked());
        d.setScheme(Scheme::NGPT);
        RunConfig c = d.config();
        QCOMPARE(c.model.layout, Layout::NGPT);
        QCOMPARE(c.model.activation, Activation::SwiGLU);
        QCOMPARE(c.optim.weight_decay, 0.0);
        // sizes survive a scheme change
        qobject_cast<QSpinBox*>(d.field("model.n_layers"))->setValue(7);
        d.setScheme(Scheme::PreLN);
        QCOMPARE(d.config().model.n_layers, 7);
        QVERIFY(d.runButton()->isEnabled());
    }

    // Save → load keeps an experiment whole (description, variants, sweeps,
    // scales, report entries); a change in the form goes to the variant shown.
    void runningFromTheFormKeepsWhatItDoesNotShow() {
        // An experiment with threads 1 ran from the form with 0: every field of the
        // opened experiment is kept unless the form changes it, and threads is in the form.
        const QString src = dir_.filePath("hidden.json");
        std::ofstream(src.toStdString()) << nlohmann::json{
            {"name", "hidden"},
            {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                      {"train", {{"steps", 30}, {"threads", 1}, {"checkpoint_every", 7}, {"eval_batches", 3},
                                 {"divergence", {{"patience", 9}}}}},
                      {"data", {{"source", "markov"}}}}}}.dump();
        Designer d;
        QString err;
        QVERIFY2(d.openExperiment(src, &err), qPrintable(err));
        QCOMPARE(qobject_cast<QSpinBox*>(d.field("train.threads"))->value(), 1);
        qobject_cast<QSpinBox*>(d.field("train.steps"))->setValue(40);   // an edit elsewhere keeps them too
        RunConfig c = d.config();
        QCOMPARE(c.train.steps, 40);
        QCOMPARE(c.train.threads, 1);
        QCOMPARE(c.train.checkpoint_every, 7);
        QCOMPARE(c.train.eval_batches, 3);
        QCOMPARE(c.train.divergence.patience, 9);
    }

    void savedExperimentsRoundTrip() {
        for (const char* name : {"all_schemes.json", "reproduction/ngpt.json", "warmup.json"}) {
            const QString src = QString(NORMLAB_SOURCE_DIR "/experiments/") + name;
            Designer d;
            QString err;
            QVERIFY2(d.openExperiment(src, &err), qPrintable(err));
            const QString out = dir_.filePath("saved.json");
            QVERIFY2(d.saveExperiment(out, &err), qPrintable(err));
            const auto original = nlohmann::json::parse(test::read_bytes(src.toStdString()));
            QCOMPARE(QString::fromStdString(nlohmann::json::parse(test::read_bytes(out.toStdString())).dump()),
                     QString::fromStdString(original.dump()));
        }
        Designer d;
        QString err;
        QVERIFY(d.openExperiment(NORMLAB_SOURCE_DIR "/experiments/all_schemes.json", &err));
        const auto before = load_experiment(NORMLAB_SOURCE_DIR "/experiments/all_schemes.json");
        qobject_cast<QComboBox*>(d.findChild<QComboBox*>("variant"))->setCurrentIndex(1);
        auto* warmup = qobject_cast<QSpinBox*>(d.field("optim.schedule.warmup"));
        warmup->setValue(warmup->value() + 7);
        const QString out = dir_.filePath("changed.json");
        QVERIFY(d.saveExperiment(out, &err));
        const auto after = load_experiment(out.toStdString());
        QCOMPARE(after.description, before.description);
        QCOMPARE(after.runs.size(), before.runs.size());
        for (size_t i = 0; i < after.runs.size(); ++i)
            QCOMPARE(after.runs[i].config.optim.schedule.warmup,
                     before.runs[i].config.optim.schedule.warmup + (i == 1 ? 7 : 0));
    }

    // Options that cannot act under the chosen layout are disabled and say why.
    void inapplicableOptionsAreDisabled() {
        Designer d;
        d.setScheme(Scheme::NormFormer);
        QWidget* qk = d.field("model.ngpt.qk_norm");
        QVERIFY(!qk->isEnabled());
        QVERIFY(!qk->parentWidget()->toolTip().isEmpty());
        QVERIFY(d.field("model.normformer.head_scale")->isEnabled());
        d.setScheme(Scheme::NGPT);
        QVERIFY(qk->isEnabled());
        QVERIFY(!d.field("model.normformer.head_scale")->isEnabled());
        QVERIFY(d.field("model.normformer.head_scale")->parentWidget()->toolTip().contains("nGPT"));
        // a variant chooser is labelled
        QVERIFY(d.openExperiment(NORMLAB_SOURCE_DIR "/experiments/all_schemes.json", nullptr));
        auto* form = qobject_cast<QFormLayout*>(d.findChild<QComboBox*>("variant")->parentWidget()->layout()->itemAt(0)->layout());
        QVERIFY(form);
        auto* label = qobject_cast<QLabel*>(form->labelForField(d.findChild<QComboBox*>("variant")));
        QVERIFY(label && !label->text().isEmpty() && label->isVisibleTo(&d));
    }

    void aSchemeChangesOnlyWhatItsPresetDefines() {
        // The case: warm-up 20 became 50 when Post-LN was switched to Pre-LN.
        Designer d;
        make_tiny(&d);
        qobject_cast<QSpinBox*>(d.field("optim.schedule.warmup"))->setValue(20);
        qobject_cast<QLineEdit*>(d.field("optim.lr"))->setText("0.0042");
        qobject_cast<QLineEdit*>(d.field("optim.weight_decay"))->setText("0.05");
        d.setScheme(Scheme::PostLN);
        const nlohmann::json start = to_json(d.config());
        auto flat = [](const nlohmann::json& j) {
            std::map<std::string, std::string> out;
            std::function<void(const nlohmann::json&, const std::string&)> walk = [&](const nlohmann::json& v, const std::string& p) {
                if (v.is_object()) {
                    for (auto it = v.begin(); it != v.end(); ++it) walk(it.value(), p.empty() ? it.key() : p + "." + it.key());
                } else {
                    out[p] = v.dump();
                }
            };
            walk(j, "");
            return out;
        };
        for (Scheme s : {Scheme::PreLN, Scheme::NormFormer, Scheme::DeepNorm, Scheme::BranchNorm, Scheme::PostLN}) {
            const auto was = flat(to_json(d.config()));
            d.setScheme(s);
            const auto now = flat(to_json(d.config()));
            for (auto& [path, value] : was) {
                if (path == "scheme" || path == "name") continue;   // the run's name follows its scheme
                bool defined = false;
                for (auto& p : preset_fields(s)) defined = defined || path == p || path.rfind(p + ".", 0) == 0;
                if (!defined) QVERIFY2(now.at(path) == value, qPrintable(QString::fromStdString(scheme_name(s) + ": " + path + " " + value + " -> " + now.at(path))));
            }
        }
        QCOMPARE(d.config().optim.schedule.warmup, 20);
        QCOMPARE(d.config().optim.lr, 0.0042);
        QCOMPARE(to_json(d.config())["train"], start["train"]);
        // nGPT defines its optimizer defaults (docs/CONFIG.md): those change, the rest stays.
        d.setScheme(Scheme::NGPT);
        QCOMPARE(d.config().optim.schedule.warmup, 0);
        QCOMPARE(d.config().optim.weight_decay, 0.0);
        QCOMPARE(d.config().optim.lr, 0.0042);
        QCOMPARE(d.config().model.d_model, 32);
        // ... and the form says so; leaving nGPT puts back what it changed and the user did not.
        const QString notice = d.findChild<QLabel*>("designerStatus")->text();
        QVERIFY2(notice.contains("optim.weight_decay 0.05 → 0.0") && notice.contains("optim.schedule.warmup 20 → 0"),
                 qPrintable(notice));
        d.setScheme(Scheme::PreLN);
        QCOMPARE(d.config().optim.schedule.warmup, 20);
        QCOMPARE(d.config().optim.weight_decay, 0.05);
        QVERIFY2(d.findChild<QLabel*>("designerStatus")->text().contains("Restored"),
                 qPrintable(d.findChild<QLabel*>("designerStatus")->text()));
        d.setScheme(Scheme::NGPT);
        qobject_cast<QSpinBox*>(d.field("optim.schedule.warmup"))->setValue(50);   // changed under nGPT: kept
        d.setScheme(Scheme::PreLN);
        QCOMPARE(d.config().optim.schedule.warmup, 50);
        QCOMPARE(d.config().optim.weight_decay, 0.05);
    }

    void invalidInputDisablesRunWithItsReason() {
        Designer d;
        qobject_cast<QSpinBox*>(d.field("model.d_model"))->setValue(128);
        qobject_cast<QSpinBox*>(d.field("model.n_heads"))->setValue(6);
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY2(d.runButton()->toolTip().contains("model.n_heads: 6 does not divide d_model 128"), qPrintable(d.runButton()->toolTip()));
        QCOMPARE(d.errorPath(), QString("model.n_heads"));
        QVERIFY(d.field("model.n_heads")->styleSheet().contains("border"));
        qobject_cast<QSpinBox*>(d.field("model.n_heads"))->setValue(8);
        QVERIFY(d.runButton()->isEnabled());
        // a value that is not a number
        qobject_cast<QLineEdit*>(d.field("optim.lr"))->setText("fast");
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY(d.error().startsWith("optim.lr: expected a number"));
        qobject_cast<QLineEdit*>(d.field("optim.lr"))->setText("1e-3");
        // nGPT with a LayerNorm toggle on
        d.setScheme(Scheme::NGPT);
        qobject_cast<QCheckBox*>(d.field("model.normformer.ffn_norm"))->setChecked(true);
        QVERIFY(!d.runButton()->isEnabled());
        QVERIFY(d.error().contains("nGPT has no LayerNorm"));
    }

    // Edit → Undo/Redo: a field's change, a scheme switch, each one step back
    // and forth; a new change after an undo drops the redo.
    void undoAndRedoStepThroughTheForm() {
        Designer d;
        auto* layers = qobject_cast<QSpinBox*>(d.field("model.n_layers"));
        const int before = layers->value();
        QVERIFY(!d.canUndo());
        layers->setValue(before + 3);
        d.setScheme(Scheme::NGPT);
        QCOMPARE(d.scheme(), Scheme::NGPT);
        QVERIFY(d.undo());                                  // the scheme switch
        QVERIFY(d.scheme() != Scheme::NGPT);
        QCOMPARE(layers->value(), before + 3);
        QVERIFY(d.undo());                                  // the layer count
        QCOMPARE(layers->value(), before);
        QVERIFY(!d.canUndo());
        QVERIFY(d.redo());
        QCOMPARE(layers->value(), before + 3);
        QVERIFY(d.canRedo());
        layers->setValue(before + 1);                       // a new change: no redo left
        QVERIFY(!d.canRedo());
        QVERIFY(d.undo());
        QCOMPARE(layers->value(), before + 3);
        QCOMPARE(d.config().model.n_layers, before + 3);    // the form and its configuration agree
    }

    // Issue 24 item 13: typing 0.0025 over 0.001 and undoing once gives 0.001 back, not "0.002" and "0".
    void undoTakesBackAWholeFieldEdit() {
        Designer d;
        d.show();
        auto* lr = qobject_cast<QLineEdit*>(d.field("optim.lr"));
        QVERIFY(lr);
        const QString before = lr->text();
        lr->setFocus();
        lr->selectAll();
        QTest::keyClicks(lr, "0.0025");
        QCOMPARE(lr->text(), QString("0.0025"));
        QVERIFY(d.undo());
        QCOMPARE(lr->text(), before);
        QVERIFY(d.redo());
        QCOMPARE(lr->text(), QString("0.0025"));
        // Enter ends the edit: the next typing is a step of its own
        QTest::keyClick(lr, Qt::Key_Return);
        lr->selectAll();
        QTest::keyClicks(lr, "0.003");
        QVERIFY(d.undo());
        QCOMPARE(lr->text(), QString("0.0025"));
        QVERIFY(d.undo());
        QCOMPARE(lr->text(), before);
    }

    // A new experiment saved from the form opens again (it wrote base.name, which experiments refuse).
    void aNewExperimentSavedFromTheFormOpensAgain() {
        QTemporaryDir dir;
        Designer d;
        qobject_cast<QLineEdit*>(d.field("optim.lr"))->setText("0.0042");
        QVERIFY(d.isModified());
        const QString path = dir.filePath("new.json");
        QString err;
        QVERIFY2(d.saveExperiment(path, &err), qPrintable(err));
        QVERIFY(!d.isModified());
        Designer again;
        QVERIFY2(again.openExperiment(path, &err), qPrintable(err));
        QCOMPARE(again.config().optim.lr, 0.0042);
    }

    // An opened experiment says what it is for, above the form: its name and its description as
    // its file gives them (neither the window nor `validate` showed a description anywhere). Its
    // text is the file's, not markup; it wraps to the form and never widens it.
    void anOpenedExperimentSaysWhatItIsFor() {
        Designer d;
        d.resize(360, 600);
        d.show();
        auto* about = d.findChild<QLabel*>("experimentAbout");
        QVERIFY(about);
        QVERIFY(!about->isVisibleTo(&d));   // a fresh form is no experiment
        auto* scroll = d.findChild<QScrollArea*>();
        const int narrowest = scroll->widget()->minimumSizeHint().width();
        QString err;
        const QString warmup = NORMLAB_SOURCE_DIR "/experiments/warmup.json";
        QVERIFY2(d.openExperiment(warmup, &err), qPrintable(err));
        QVERIFY(about->isVisibleTo(&d));
        QCOMPARE(about->text(), QString::fromUtf8("<b>warmup</b> — Xiong et al.: Post-LN needs learning-rate warm-up at a large rate; "
                                                  "Pre-LN does not."));
        QCOMPARE(about->toolTip(), QFileInfo(warmup).absoluteFilePath());
        // A description written as markup is shown as the characters it is; a word longer than
        // the form wraps inside the label, which keeps the form's width.
        const QString odd = dir_.filePath("odd.json");
        const std::string long_word(600, 'w');
        std::ofstream(odd.toStdString()) << nlohmann::json{
            {"name", "a<b"},
            {"description", "<i>not italic</i> & first\nsecond " + long_word},
            {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                      {"data", {{"source", "markov"}}}}}}.dump();
        QVERIFY2(d.openExperiment(odd, &err), qPrintable(err));
        QVERIFY2(about->text().startsWith("<b>a&lt;b</b> — &lt;i&gt;not italic&lt;/i&gt; &amp; first<br>second www"),
                 qPrintable(about->text()));
        QCOMPARE(scroll->widget()->minimumSizeHint().width(), narrowest);
        QVERIFY2(about->width() <= scroll->viewport()->width(), qPrintable(QString::number(about->width())));
        // One without a description shows its name alone.
        const QString bare = dir_.filePath("bare.json");
        std::ofstream(bare.toStdString()) << nlohmann::json{
            {"name", "bare"},
            {"base", {{"model", {{"d_model", 32}, {"n_layers", 2}, {"n_heads", 4}, {"d_ff", 64}, {"context", 16}}},
                      {"data", {{"source", "markov"}}}}}}.dump();
        QVERIFY2(d.openExperiment(bare, &err), qPrintable(err));
        QCOMPARE(about->text(), QString("<b>bare</b>"));
    }

    // The equations in the form's labels and tooltips show their scripts: a label as plain
    // text with Unicode's subscripts, a tooltip as rich text, its lines kept.
    void equationsShowTheirScripts() {
        Designer d;
        auto label = [&d](const char* key) -> QString {
            QWidget* field = d.field(key);
            auto* layout = qobject_cast<QFormLayout*>(field->parentWidget()->layout());
            for (int r = 0; layout && r < layout->rowCount(); ++r)
                if (layout->itemAt(r, QFormLayout::FieldRole)->widget() == field)
                    if (auto* l = qobject_cast<QLabel*>(layout->itemAt(r, QFormLayout::LabelRole)->widget())) return l->text();
            return "(no label)";
        };
        QCOMPARE(label("model.branchnorm.enabled"), QString::fromUtf8("Branch factor αₜ"));
        // an exponent Unicode has no superscript for ('/') stays one, in parentheses
        QCOMPARE(label("model.deepnorm.beta"), QString::fromUtf8("β (empty: (8N)^(−1/4))"));
        const QString tip = d.field("model.branchnorm.enabled")->toolTip();
        QVERIFY2(Qt::mightBeRichText(tip) && tip.contains("α<sub>t</sub>·F(x)") && !tip.contains("_{"), qPrintable(tip));
        const QString schedule = d.field("model.branchnorm.schedule")->toolTip();   // two lines
        QVERIFY2(schedule.contains("min(1, t/T) (the paper's)<br>exp, sigmoid"), qPrintable(schedule));
        QVERIFY2(d.field("model.deepnorm.init")->toolTip().contains("(8N)<sup>−1/4</sup>"), qPrintable(d.field("model.deepnorm.init")->toolTip()));
        // a tooltip without a script stays as it was: plain, with its line breaks
        QCOMPARE(d.field("model.norm")->toolTip(), QString::fromUtf8("layernorm: γ⊙(x − μ)/σ + β\nrmsnorm: γ⊙x/√(mean(x²) + ε)"));
    }
};

QTEST_MAIN(TestDesigner)
#include "test_designer.moc"
