// NormLab widgets: what an empty chart says (see chartsview.h): no run shown,
// a probe switched off or not yet due, or a series only some schemes have.
#include "widgets/chartsview.h"

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

}  // namespace normlab
