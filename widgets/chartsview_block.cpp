// NormLab widgets: the Block tab of ChartsView (see chartsview.h, blockview.h): the form's block
// and each selected run's, side by side, outlined where they differ.
#include "widgets/blockview.h"
#include "widgets/chartsview.h"
#include "widgets/elided_label.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QVBoxLayout>

#include <map>

namespace normlab {

namespace {

// What sets a diagram apart: every part shown, with its text and whether it is on.
QString signature(const BlockDiagram& d) {
    QString s = QString::number(d.n_layers);
    for (auto* p : d.parts()) s += "|" + p->id + (p->on ? "=" : "~") + block_part_text(*p);
    return s;
}

QString subtitle(const RunConfig& c) {
    return QCoreApplication::translate("normlab::ChartsView", "%1 · d %2 · %3 heads")
        .arg(QString::fromStdString(scheme_name(c.scheme)))
        .arg(c.model.d_model)
        .arg(c.model.n_heads);
}

}  // namespace

QWidget* ChartsView::buildBlockTab() {
    auto* w = new QWidget(this);
    auto* v = new QVBoxLayout(w);
    auto* bar = new QHBoxLayout();
    block_form_ = trCheckBox(QT_TR_NOOP("the form's block"), w);
    block_form_->setObjectName("blockForm");
    block_form_->setChecked(true);
    setTrToolTip(block_form_, QT_TR_NOOP("Draw the block the experiment form describes first, as you edit it: a click on one of its "
                                         "parts switches that part off in the form, a click on a dashed one switches it on."));
    bar->addWidget(block_form_);
    bar->addStretch(1);
    v->addLayout(bar);
    block_ = new BlockView(w);
    panels_.push_back(block_);
    v->addWidget(block_, 1);
    block_note_ = new ElidedLabel(w);
    block_note_->setObjectName("blockNote");
    block_note_->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(block_note_);
    connect(block_form_, &QCheckBox::toggled, this, [this] { redrawBlock(); });
    connect(block_, &BlockView::toggleRequested, this, &ChartsView::blockToggleRequested);
    return w;
}

void ChartsView::setFormConfig(const RunConfig& cfg, std::function<bool(const QString&)> offered) {
    form_cfg_ = cfg;
    form_offered_ = std::move(offered);
    if (stale_.size() > kBlockTab) stale_[kBlockTab] = true;
    if (tabs_->currentIndex() == kBlockTab) redrawTab(kBlockTab);
}

void ChartsView::redrawBlock() {
    // A live run's new rows mark every tab stale; its block stays as it was: drawn again only when
    // the form, the runs shown, their names or colours change, or the language (changeEvent forgets the key).
    QString key = block_form_->isChecked() && form_cfg_ ? QString::fromStdString(to_json(*form_cfg_).dump()) : QString();
    for (auto& r : runs_)
        if (r) key += QString("|%1:%2:%3").arg(r->id()).arg(runLabel(*r), runColor(*r).name());
    if (key == block_key_ && !block_->panels().empty()) return;
    block_key_ = key;
    std::vector<BlockPanel> panels;
    if (form_cfg_ && block_form_->isChecked()) {
        BlockPanel p;
        p.title = tr("The form: %1").arg(QString::fromStdString(form_cfg_->name));
        p.subtitle = subtitle(*form_cfg_);
        p.diagram = block_diagram(form_cfg_->model, form_offered_);
        p.clickable = true;
        panels.push_back(std::move(p));
    }
    // runs whose blocks are drawn alike share a panel: a sweep over the learning rate is one block
    std::map<QString, size_t> seen;
    std::vector<int> alike;
    size_t skipped = 0, unreadable = 0;
    const size_t first_run = panels.size();
    for (auto& r : runs_) {
        if (!r) continue;
        RunConfig cfg;
        try {
            cfg = run_config_from_json(r->info().config);
        } catch (const std::exception&) {
            ++unreadable;
            continue;
        }
        BlockPanel p;
        p.diagram = block_diagram(cfg.model);
        p.subtitle = subtitle(cfg);
        // alike as drawn: the same parts and the same line under the title (a width sweep is one
        // block per width, not one panel saying the first run's width)
        const QString sig = signature(p.diagram) + "|" + p.subtitle;
        if (auto it = seen.find(sig); it != seen.end()) {
            ++alike[it->second - first_run];
            continue;
        }
        if (panels.size() - first_run >= kMaxBlockPanels) {
            ++skipped;
            continue;
        }
        p.title = runLabel(*r);
        p.color = runColor(*r);
        seen[sig] = panels.size();
        alike.push_back(0);
        panels.push_back(std::move(p));
    }
    for (size_t i = first_run; i < panels.size(); ++i)
        if (const int n = alike[i - first_run]) panels[i].title = tr("%1 (+ %n alike)", nullptr, n).arg(panels[i].title);
    std::vector<const BlockDiagram*> diagrams;
    for (auto& p : panels) diagrams.push_back(&p.diagram);
    const auto differs = block_differences(diagrams);
    for (size_t i = 0; i < panels.size(); ++i) panels[i].differs = differs[i];
    block_->setPanels(std::move(panels));
    QStringList note;
    if (block_->panels().empty()) note << tr("Select runs in the table, or tick “the form's block”, to see their blocks.");
    else
        note << tr("Yellow: normalizations; blue: sub-layers; green: scales; outlined: where a block differs from the first.");
    if (skipped) note << tr("%n more block(s) not shown: select fewer runs.", nullptr, static_cast<int>(skipped));
    if (unreadable) note << tr("%n run(s) with a configuration this version cannot read.", nullptr, static_cast<int>(unreadable));
    block_note_->setFullText(note.join(' '));
}

}  // namespace normlab
