// NormLab widgets: what an empty chart says (see chartsview.h): no run shown,
// a probe switched off or not yet due, or a series only some schemes have;
// and the runs a chart draws nothing of beside others it draws.
#include "widgets/chartsview.h"

#include "widgets/linechart.h"

#include <QTabWidget>

namespace normlab {

QString ChartsView::emptyHint(const std::string& series, const QString& label) const {
    if (runs_.empty())
        return tr("No run shown: select runs in the Runs table (Ctrl+click for several), or train one with Run (Ctrl+R).");
    auto starts = [&](const char* p) { return series.rfind(p, 0) == 0; };
    QString why;
    if (starts("gain_mean/alpha") || starts("gain/alpha") || starts("ngpt/") || starts("gain_mean/s_") || starts("gain/s_"))
        why = tr("It exists only in nGPT runs.");
    else if (starts("branchnorm/"))
        why = tr("It exists only in BranchNorm runs.");
    else if (starts("deepnorm/"))
        why = tr("It exists only in runs with DeepNorm's residual scaling.");
    else if (starts("hidden/") || starts("attn/") || starts("mlp/"))
        why = tr("It is recorded every %1 steps (Experiment → Probes; 0 switches it off).").arg("probes.forward_every");
    else if (starts("grad_expected"))
        why = tr("It is recorded at step 0 when %1 is above 0 (Experiment → Probes).").arg("probes.expected_grad_batches");
    else if (starts("grad_"))
        why = tr("It is recorded every %1 steps (Experiment → Probes; 0 switches it off).").arg("probes.grads_every");
    else if (starts("cond/") || starts("emb_eig/"))
        why = tr("It is recorded every %1 steps (Experiment → Probes; 0 switches it off).").arg("probes.cond_every");
    else if (starts("gain"))
        why = tr("It is recorded every %1 steps (Experiment → Probes; 0 switches it off).").arg("probes.gains_every");
    else
        why = tr("It is recorded from the first training step on.");
    return tr("None of the shown runs has recorded %1 yet.").arg(label) + "\n" + why;
}

QString ChartsView::weightHint(const QString& weight) const {
    QString where;
    if (weight == "norm1" || weight == "norm2")
        where = tr("Every scheme's blocks have it but nGPT's, which keep their vectors on the unit sphere instead.");
    else if (weight == "ffn_norm" || weight == "post_attn_norm" || weight == "head_scale")
        where = tr("It exists where %1 is on (Experiment → NormFormer; its preset switches it on).").arg("model.normformer." + weight);
    else
        where = tr("It exists only in some schemes' blocks (the Block tab draws a run's).");
    return tr("None of the shown runs' models has the weight %1.").arg(weight) + "\n" + where;
}

QString ChartsView::noteLacking(int tab, const std::function<bool(const RunData&)>& has) {
    QStringList without;
    for (auto& r : runs_)
        if (!has(*r)) without << runLabel(*r);
    lacking_.at(static_cast<size_t>(tab)) = without;
    if (without.isEmpty() || without.size() == static_cast<int>(runs_.size())) return {};   // none has it: the empty hint says why
    return tr("nothing recorded by %1 of %2 runs: %3").arg(without.size()).arg(runs_.size()).arg(without.join(", "));
}

QString ChartsView::nothingDrawn() const {
    const int tab = tabs_->currentIndex();
    if (tab < 0 || tab > kScalarsTab || runs_.empty() || runsLacking().size() != static_cast<int>(runs_.size())) return {};
    auto* chart = qobject_cast<LineChart*>(currentChart());   // else the gains' box plots: no run shown has gains
    return chart ? chart->emptyHintShown() : emptyHint("gain/", tr("learned gains"));
}

QStringList ChartsView::runsLacking() const {
    const int tab = tabs_->currentIndex();
    return tab >= 0 && tab < static_cast<int>(lacking_.size()) ? lacking_[static_cast<size_t>(tab)] : QStringList();
}

}  // namespace normlab
