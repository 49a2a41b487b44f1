// NormLab core: a run's row of the store read into a RunInfo (see store.h) —
// its columns, its status as shown, and its JSON parsed or taken from a row
// read before.
#include "core/store/store.h"

#include "core/palette.h"
#include "core/store/store_internal.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>

namespace normlab {
using nlohmann::json;
using namespace store_detail;

namespace {

json parse_or(const std::string& text, bool null, json fallback) {
    if (null) return fallback;
    try {
        return json::parse(text);
    } catch (...) {
        return fallback;
    }
}

// A column's text; `null` set for SQL NULL (a damaged or hand-edited file's).
std::string column_text(sqlite3_stmt* st, int i, bool& null) {
    const unsigned char* t = sqlite3_column_text(st, i);
    null = t == nullptr;
    return t ? std::string(reinterpret_cast<const char*>(t), static_cast<size_t>(sqlite3_column_bytes(st, i))) : std::string();
}

// Of the three texts, NULL told from empty; never 0 (0: nothing to take).
uint64_t digest(const std::string* const (&texts)[3], const bool (&null)[3]) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 3; ++i) {
        const uint64_t part = std::hash<std::string_view>{}(*texts[i]) ^ (texts[i]->size() << 1) ^ (null[i] ? 1 : 0);
        h = (h ^ part) * 1099511628211ull + 0x9e3779b97f4a7c15ull;
    }
    return h == 0 ? 1 : h;
}

}  // namespace

std::string Store::run_columns() const {
    return std::string("id, experiment_id, name, scheme, config, status, status_step, message, created_at, started_at,"
                       " ended_at, device, versions, seed, tags, notes, steps_done, final_loss, info, checkpoint,"
                       " heartbeat, pid, host, ") +
           (has_color_ ? "color" : "''") + ", proc_start";
}

bool Store::shown_interrupted(int64_t id, RunStatus stored) const {
    return (stored == RunStatus::Running || stored == RunStatus::Queued) && std::find(dead_.begin(), dead_.end(), id) != dead_.end();
}

RunInfo Store::read_run(sqlite3_stmt* st, RunJsonText& json_text) {
    auto text = [&](int i) { return column_string(st, i); };
    RunInfo r;
    r.id = sqlite3_column_int64(st, 0);
    r.experiment_id = sqlite3_column_type(st, 1) == SQLITE_NULL ? 0 : sqlite3_column_int64(st, 1);
    r.name = text(2);
    r.scheme = text(3);
    json_text.config = column_text(st, 4, json_text.null[0]);
    r.status_text = text(5);
    r.status = stored_status(r.status_text);
    r.status_step = sqlite3_column_int64(st, 6);
    r.message = text(7);
    r.created_at = sqlite3_column_double(st, 8);
    r.started_at = sqlite3_column_double(st, 9);
    r.ended_at = sqlite3_column_double(st, 10);
    r.device = text(11);
    json_text.versions = column_text(st, 12, json_text.null[1]);
    r.seed = static_cast<uint64_t>(sqlite3_column_int64(st, 13));
    bool tags_null = false;
    const json tags = parse_or(column_text(st, 14, tags_null), tags_null, json::array());
    for (auto& t : tags)
        if (t.is_string()) r.tags.push_back(t.get<std::string>());
    r.notes = text(15);
    r.steps_done = sqlite3_column_int64(st, 16);
    r.final_loss = sqlite3_column_type(st, 17) == SQLITE_NULL ? std::nan("") : sqlite3_column_double(st, 17);
    json_text.info = column_text(st, 18, json_text.null[2]);
    r.checkpoint = resolved_checkpoint(text(19));
    r.heartbeat = sqlite3_column_double(st, 20);
    r.pid = sqlite3_column_int64(st, 21);
    r.host = text(22);
    r.color = text(23);
    r.proc_start = text(24);
    if (!is_hex_color(r.color)) r.color = default_run_color(r.id);
    if (shown_interrupted(r.id, r.status)) {
        r.message = r.status == RunStatus::Queued
                        ? queued_owner_gone(r.pid, r.host, r.id) + " (not yet marked: the store was opened read-only)"
                        : "the writing process (pid " + std::to_string(r.pid) + " on " + r.host +
                              ") ended without finishing the run (not yet marked: the store was opened read-only)";
        r.status = RunStatus::Interrupted;
        r.status_text = status_name(r.status);
    }
    return r;
}

void Store::parse_run_json(RunInfo& r, RunJsonText& j, RunInfo* before) {
    const std::string* const texts[3] = {&j.config, &j.versions, &j.info};
    r.json_digest = digest(texts, j.null);
    if (before && before->id == r.id && before->json_digest == r.json_digest) {
        r.config = std::move(before->config);
        r.versions = std::move(before->versions);
        r.info = std::move(before->info);
        before->json_digest = 0;   // taken: none of it is there any more
        return;
    }
    r.config = parse_or(j.config, j.null[0], json::object());
    r.versions = parse_or(j.versions, j.null[1], json::object());
    r.info = parse_or(j.info, j.null[2], json::object());
}

}  // namespace normlab
