// NormLab core: the report as JSON: every finding's verdict and key numbers,
// for scripts (report.h).
#include "core/report/report.h"
#include "core/report/stats.h"

#include <cmath>

namespace normlab::report {

using nlohmann::json;

json to_json(const std::vector<Finding>& findings, const ReportMeta& meta) {
    json out = {{"title", meta.title}, {"command", meta.command}, {"date", meta.date}, {"machine", meta.machine},
                {"versions", meta.versions}, {"scale", meta.scale}, {"findings", json::array()}};
    for (auto& f : findings) {
        json nums = json::object();
        for (auto& [k, v] : f.numbers) nums[k] = std::isfinite(v) ? json(v) : json(detail::fmt(v));
        json figs = json::array();
        for (auto& fig : f.figures) figs.push_back(fig.id);
        out["findings"].push_back({{"finding", f.number}, {"title", f.title}, {"source", f.source}, {"claim", f.claim},
                                   {"experiment", f.experiment}, {"setup", f.setup}, {"verdict", verdict_name(f.verdict)},
                                   {"result", f.result}, {"numbers", nums}, {"figures", figs}});
        if (f.experiments.size() > 1) out["findings"].back()["experiments"] = f.experiments;   // measured together
    }
    return out;
}

}  // namespace normlab::report
