// NormLab core: deleting a run (see Store::delete_run in store.h).
//
// A run's id names it for good: the trainer, a mirror's follower and the
// window all hold ids, so a deleted run's id is never given to another run
// (meta 'deleted_runs_up_to', store_internal.h's kNextRunId), and no writer
// writes rows into a run that is no longer there (write_batch, series_id).
#include "core/store/store.h"

#include "core/config.h"
#include "core/errors.h"
#include "core/store/checkpoint_names.h"
#include "core/store/store_internal.h"

#include <sqlite3.h>

#include <filesystem>

namespace normlab {
namespace fs = std::filesystem;

std::string Store::delete_refusal(const RunInfo& r) {
    if (r.status != RunStatus::Running || (r.info.is_object() && r.info.contains("remote")) || writer_gone(r)) return {};
    const std::string id = std::to_string(r.id);
    return "run " + id + " (\"" + printable_name(r.name) + "\") is training (pid " + std::to_string(r.pid) + " on " + r.host +
           "): cancel it first ('normlab-cli cancel " + id + "' there, or Stop where it trains), then delete it";
}

Store::Deleted Store::delete_run(int64_t run) {
    check_still_there();
    std::string checkpoint;
    {
        Transaction tx(*this);
        const std::optional<RunInfo> r = this->run(run);
        if (!r) throw StoreError("no run " + std::to_string(run) + " in " + path_ + " ('normlab-cli list' shows its runs)");
        if (const std::string why = delete_refusal(*r); !why.empty()) throw StoreError(why);
        checkpoint = r->info.contains("remote") ? std::string() : r->checkpoint;
        for (const char* sql : {"DELETE FROM points WHERE series_id IN (SELECT id FROM series WHERE run_id=?)",
                                "DELETE FROM series WHERE run_id=?", "DELETE FROM distributions WHERE run_id=?",
                                "DELETE FROM runs WHERE id=?",
                                "INSERT INTO meta(key, value) VALUES('deleted_runs_up_to', ?1) ON CONFLICT(key) DO UPDATE"
                                " SET value = MAX(CAST(value AS INTEGER), ?1)"}) {
            sqlite3_stmt* st = prepare(sql);
            sqlite3_bind_int64(st, 1, run);
            check(sqlite3_step(st), "delete run");
            sqlite3_reset(st);
        }
        tx.commit();
    }
    for (auto it = series_cache_.begin(); it != series_cache_.end();)
        it = it->first.first == run ? series_cache_.erase(it) : std::next(it);

    // Its checkpoints: every file of this run in this store's own folder (a
    // copy's run pointing at the original's folder leaves those to it).
    Deleted out;
    std::error_code ec;
    auto remove = [&](const fs::path& f) {
        const uintmax_t size = fs::file_size(f, ec);
        if (fs::remove(f, ec)) {
            ++out.files;
            out.bytes += ec ? 0 : size;
        }
    };
    const fs::path own = path_ + ".checkpoints";
    if (fs::is_directory(own, ec))
        for (auto& e : fs::directory_iterator(own, ec))
            if (is_checkpoint_of(e.path(), run)) remove(e.path());
    if (!checkpoint.empty()) {
        const std::string file = resolved_checkpoint(checkpoint);
        if (owns_checkpoint(file) && fs::exists(file, ec)) remove(file);
    }
    return out;
}

}  // namespace normlab
