// NormLab core: what the report's writers share (report-internal).
#pragma once

#include "core/report/report.h"

#include <string>
#include <vector>

namespace normlab::report::detail {

inline std::string join_dir(const std::string& dir, const std::string& file) {
    return dir.empty() || dir == "." ? file : dir + "/" + file;
}
// The finding's tables that have a header, main table first.
inline std::vector<const Table*> tables_of(const Finding& f) {
    std::vector<const Table*> out;
    if (!f.table.header.empty()) out.push_back(&f.table);
    for (auto& t : f.more_tables)
        if (!t.header.empty()) out.push_back(&t);
    return out;
}
// "experiment `normformer`", or "experiments `normformer` and `normformer-lr`" where several measured it
// together; `open`/`close` wrap each name (Markdown's backticks, HTML's <code>), `escape` each name.
template <class Escape>
std::string experiments_text(const Finding& f, const std::string& open, const std::string& close, Escape escape) {
    if (f.experiments.size() < 2) return "experiment " + open + escape(f.experiment) + close;
    std::string out = "experiments ";
    for (size_t i = 0; i < f.experiments.size(); ++i)
        out += (i == 0 ? "" : i + 1 == f.experiments.size() ? " and " : ", ") + open + escape(f.experiments[i]) + close;
    return out;
}
inline std::string scale_text(const ReportMeta& meta) {
    return meta.scale.empty() ? "the CPU presets (each experiment's default)" : meta.scale;
}

}  // namespace normlab::report::detail
