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
inline std::string scale_text(const ReportMeta& meta) {
    return meta.scale.empty() ? "the CPU presets (each experiment's default)" : meta.scale;
}

}  // namespace normlab::report::detail
