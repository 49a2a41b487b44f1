// NormLab widgets: ChartsView's run groups (see chartsview.h) — the curves of
// runs that differ only by seed become their mean with a band (core/groups.h).
#include "widgets/chartsview.h"

#include "core/groups.h"
#include "widgets/linechart.h"

#include <QComboBox>

namespace normlab {

std::vector<Curve> ChartsView::grouped(std::vector<Curve> curves, const std::vector<size_t>& owner) const {
    const int mode = group_->currentData().toInt();
    if (mode == 0 || runs_.size() < 2 || owner.size() != curves.size()) return curves;
    std::vector<nlohmann::json> configs;
    for (auto& r : runs_) configs.push_back(r->info().config);
    const std::vector<int> group = group_runs(configs);
    auto key = [&](size_t k) { return curves[k].label.mid(runLabel(*runs_[owner[k]]).size()); };
    std::vector<Curve> out;
    std::vector<bool> used(curves.size(), false);
    for (size_t k = 0; k < curves.size(); ++k) {
        if (used[k]) continue;
        std::vector<size_t> same;   // this quantity in every run of k's group
        for (size_t j = k; j < curves.size(); ++j)
            if (!used[j] && group[owner[j]] == group[owner[k]] && key(j) == key(k)) same.push_back(j);
        std::vector<const std::vector<double>*> xs, ys;
        for (size_t j : same) xs.push_back(&curves[j].x), ys.push_back(&curves[j].y);
        Band b = same.size() > 1 ? band_of(xs, ys, mode == 2 ? BandKind::MinMax : BandKind::Std) : Band{};
        if (b.x.empty()) {   // alone, or nothing shared on x (wall time): the run's own line
            out.push_back(curves[k]);
            used[k] = true;
            continue;
        }
        Curve c = curves[k];
        std::vector<std::string> names;
        for (size_t j : same) names.push_back(runs_[owner[j]]->info().name);
        c.run = tr("%1 (×%2)").arg(QString::fromStdString(group_name(names))).arg(same.size());
        c.label = c.run + key(k);
        c.x = std::move(b.x);
        c.y = std::move(b.mean);
        c.band_lo = std::move(b.lo);
        c.band_hi = std::move(b.hi);
        c.markers = c.markers && c.x.size() < 40;
        out.push_back(std::move(c));
        for (size_t j : same) used[j] = true;
    }
    return out;
}

}  // namespace normlab
