// NormLab core: the SQLite run store.
//
// The single source of truth: the trainer writes here, and the live charts,
// the run browser, the comparison and the CLI read here through the same
// calls. Goals: a versioned schema with cumulative migrations; WAL so another
// thread or process reads while a run writes; batched transactions; crashed
// writers detected (runs left `running` by a dead process become
// `interrupted` the next time a store is opened); foreign or newer files
// refused without being touched. Non-goals: a server, networked file systems.
//
// One Store object per thread (SQLite connections are not shared).
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace normlab {

struct WalState;   // core/store/wal.h

// Unknown: a status this build does not know (written by a newer NormLab or by
// hand); RunInfo::status_text keeps what the store says.
enum class RunStatus { Queued, Running, Finished, Diverged, Failed, Cancelled, Interrupted, Unknown };
std::string status_name(RunStatus s);
RunStatus parse_status(const std::string& s);     // throws StoreError for an unknown name
// Statuses a run can be resumed from (it is not running and did not finish).
bool resumable(RunStatus s);

struct RunInfo {
    int64_t id = 0;
    int64_t experiment_id = 0;        // 0: none
    std::string name, scheme;
    nlohmann::json config;            // full RunConfig JSON
    RunStatus status = RunStatus::Queued;
    std::string status_text;          // the stored text (differs from status_name for Unknown)
    int64_t status_step = -1;         // step at which it diverged/failed/was cancelled
    std::string message;
    double created_at = 0, started_at = 0, ended_at = 0;  // unix seconds; 0 = not yet
    std::string device;
    nlohmann::json versions;          // {"normlab":..., "libtorch":..., "sqlite":...}
    uint64_t seed = 0;
    std::vector<std::string> tags;
    std::string notes;
    int64_t steps_done = 0;
    double final_loss = 0;            // NaN when unknown
    nlohmann::json info;              // parameter count, loss floor, DeepNorm α/β, diverged lr ...
    std::string checkpoint;           // absolute path of the latest checkpoint, "" if none (stored
                                      // relative to the store's folder when it lies below it)
    double heartbeat = 0;
    int64_t pid = 0;
    std::string host;
    std::string proc_start;           // the writing process's start time (with pid: who trains it now)
    std::string color;                // "#rrggbb", assigned at creation (core/palette.h)
    // The stored config, versions and info texts' digest: Store::runs(reuse) takes their parsed
    // JSON from a row read before whose digest is the same (0: nothing to take).
    uint64_t json_digest = 0;

    // The steps it is to train (its config's train.steps); 0 where its config says none.
    int64_t steps_total() const;
};

struct SeriesInfo {
    int64_t id = 0;
    std::string name;                 // "train/loss", "grad_l1/fc2", ...
    int layer = -1;                   // -1: not per layer
    int64_t count = 0;
    int64_t last_step = -1;
};

struct Point {
    int64_t step;
    double value;                     // NaN for a non-finite value (SQLite stores NULL)
};

struct Distribution {
    std::string name;                 // "gain/ffn_norm", "ngpt/alpha_A", ...
    int layer = -1;
    int64_t step = 0;
    int64_t count = 0;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0, std = 0;
    double hist_lo = 0, hist_hi = 0;  // histogram range, bins of equal width
    std::vector<float> hist;          // counts
};

class Store {
public:
    static constexpr int kSchemaVersion = 3;
    // SQLite header fields: application_id 'NLAB', user_version = kSchemaVersion.
    static constexpr uint32_t kApplicationId = 0x4E4C4142;

    enum class Mode {
        ReadWrite,   // creates the file when absent, migrates, marks dead writers' runs interrupted
        ReadOnly,    // never writes, takes no write lock, leaves no -wal/-shm beside a cleanly closed store
    };

    // Opens or creates the store at `path`. Throws StoreError (file and its
    // write-ahead log untouched) when it is not a NormLab store, was written
    // by a newer NormLab, is an SQLite URI, or its log was lost or damaged.
    explicit Store(const std::string& path, Mode mode = Mode::ReadWrite);
    ~Store();
    Store(const Store&) = delete;
    Store& operator=(const Store&) = delete;

    // $NORMLAB_STORE, else $XDG_DATA_HOME/normlab/runs.sqlite, else ~/.local/share/normlab/runs.sqlite.
    static std::string default_path();
    // Seconds a writer waits for another process's write lock ($NORMLAB_LOCK_TIMEOUT, default 600).
    static double lock_timeout_seconds();

    const std::string& path() const { return path_; }
    bool read_only() const { return mode_ == Mode::ReadOnly; }
    int schema_version() const;
    // Runs marked interrupted when this store was opened.
    const std::vector<int64_t>& recovered() const { return recovered_; }

    // ---- experiments and runs
    int64_t add_experiment(const std::string& name, const std::string& file, const nlohmann::json& spec);
    int64_t create_run(const std::string& name, const std::string& scheme, const nlohmann::json& config,
                       uint64_t seed, int64_t experiment_id = 0, const std::vector<std::string>& tags = {});
    void mark_running(int64_t run, const std::string& device, const nlohmann::json& versions);
    // Atomically moves the run from `from` to running for this process. False
    // when another process changed its status first (it is being trained).
    bool claim_run(int64_t run, RunStatus from, const std::string& device, const nlohmann::json& versions);
    void finish_run(int64_t run, RunStatus status, int64_t step, const std::string& message, double final_loss);
    void set_status(int64_t run, RunStatus status, const std::string& message = "");
    // Queues a run that is `from` again (resume --detach, before the process
    // that resumes it starts): false when its status changed meanwhile.
    bool requeue(int64_t run, RunStatus from, const std::string& message);
    // The process that queued a run and will train it (a normlab-cli's
    // experiment, the window's queue) says so: should it end before it claims
    // the run (killed, crashed), the run shows as interrupted, not queued with
    // nobody to train it. A queued run nobody owns (one a detached launch
    // queued, before its process starts) is left as it is. False when it is
    // not queued, or the store could not be written (best effort: never an error).
    bool own_queued(int64_t run) noexcept;
    // Marks a run that is still queued failed (a detached process could not
    // start it), keeping its steps, checkpoint and rows; false when it is not queued.
    bool fail_queued(int64_t run, const std::string& message);
    // Cancels a run that has not started; false when it is no longer queued
    // (a trainer claimed it first: cancel the process instead).
    bool cancel_queued(int64_t run, const std::string& message);
    void set_info(int64_t run, const nlohmann::json& info);          // merged into the existing info
    void set_checkpoint(int64_t run, const std::string& path);       // absolute or relative to the cwd
    void heartbeat(int64_t run, int64_t steps_done);
    void rename_run(int64_t run, const std::string& name);
    void set_tags(int64_t run, const std::vector<std::string>& tags);
    void set_notes(int64_t run, const std::string& notes);
    // "#rrggbb", or "" for the run's default colour; anything else is refused.
    void set_run_color(int64_t run, const std::string& color);
    // Deletes a run with all its rows and its checkpoint files in this store's
    // own checkpoints folder; its id is never given to another run. Refused
    // (StoreError, nothing deleted) while a live process trains it: cancel it
    // first. A run mirrored from a server is deleted here only; it goes on there.
    struct Deleted {
        int files = 0;              // checkpoint files removed
        uintmax_t bytes = 0;        // their size
    };
    Deleted delete_run(int64_t run);
    // Why delete_run would refuse the run now, or "" when it would not.
    static std::string delete_refusal(const RunInfo& r);
    // Rewrites the store without the free pages that deleted runs left (SQLite's
    // VACUUM: one transaction, so a kill or `stop` leaves it as it was; ids stay).
    // Refused (StoreError, nothing changed) where the disk lacks room for the
    // copy it writes. `stop`, set from another thread or a signal, interrupts it.
    struct Compacted {
        uintmax_t before = 0, after = 0;   // the file's size, its log's included
        uintmax_t free = 0;                // bytes of free pages before
    };
    Compacted compact(const std::atomic<bool>* stop = nullptr);
    // Bytes of free pages (what compact would give back, about).
    uintmax_t free_bytes();
    // Before resuming from a checkpoint taken after `step` updates: drops what
    // was recorded after it — points at steps > step, points at `step` other
    // than the validation loss measured before the checkpoint, distributions
    // at steps >= step. step 0 drops everything (a restart).
    void truncate_for_resume(int64_t run, int64_t step);

    // Every run, by id. `reuse`: rows an earlier runs() of this store returned, whose config, versions
    // and info were not changed since: where a run's stored texts are still the same, its JSON is
    // moved from that row (which keeps its other fields) instead of parsed again — a window that
    // reads 2,000 runs each second a run trains parses one. Rows are taken from only when the read
    // succeeds.
    std::vector<RunInfo> runs(const std::vector<RunInfo*>& reuse = {});
    std::optional<RunInfo> run(int64_t id);
    // Each run's id and status, by id, as run() gives it (a dead writer's run read-only: interrupted);
    // no other column read. What a poller asks of runs that no longer train: did one start again?
    std::vector<std::pair<int64_t, RunStatus>> statuses();
    // Changes whenever what the store holds may have changed: a commit by any process (this
    // connection's own included) or the store opened again. Reads no rows (SQLite's data_version),
    // so a poller compares it before reading every run again; two Store objects never share one.
    struct Generation {
        uint64_t store = 0, connection = 0;
        int64_t data_version = 0, own_changes = 0;
        bool operator==(const Generation& o) const {
            return store == o.store && connection == o.connection && data_version == o.data_version && own_changes == o.own_changes;
        }
        bool operator!=(const Generation& o) const { return !(*this == o); }
    };
    Generation generation() noexcept;
    // By id ("12") or exact name ("id:12", "name:12" say which); throws StoreError naming the candidates.
    RunInfo find_run(const std::string& id_or_name);

    // ---- series
    // Created if absent; 0 when read-only and absent, or when the run is not in the store.
    int64_t series_id(int64_t run, const std::string& name, int layer = -1);
    // With counts and last steps (a scan of the points), or just ids and names (cheap, for polling).
    std::vector<SeriesInfo> series(int64_t run, bool with_counts = true);
    std::vector<Point> points(int64_t series_id, int64_t after_step = -1);    // steps > after_step
    // A run's last finite point of one series (by step), without reading the others: what the run
    // table shows of a run's validation loss while it has no final one. nullopt: none.
    std::optional<Point> last_point(int64_t run, const std::string& name, int layer = -1);
    std::vector<Distribution> distributions(int64_t run, const std::string& name = "", int64_t after_step = -1);

    // ---- batched writes (see RunWriter)
    struct PointRow { int64_t series; int64_t step; double value; };
    // One transaction; with `checkpoint`, the run's checkpoint path (and
    // steps_done = checkpoint_step) is updated in the same transaction. With
    // `run`, refused (StoreError, nothing written) when that run was deleted.
    void write_batch(const std::vector<PointRow>& points, const std::vector<std::pair<int64_t, Distribution>>& dists,
                     int64_t run = 0, const std::string* checkpoint = nullptr, int64_t checkpoint_step = 0);

    // RAII transaction: commits on commit(), rolls back in the destructor otherwise.
    class Transaction {
    public:
        explicit Transaction(Store& s);
        ~Transaction();
        void commit();
    private:
        Store& store_;
        bool done_ = false;
    };

    void exec(const std::string& sql);     // for migrations and tests

    // RAII read snapshot: every read until it ends sees one committed state
    // of the store (what the remote stream sends between two syncs). A
    // read-only store opened while no writer had it open is first opened
    // again when one has started or written since, so that a snapshot sees
    // what a writer that started later commits.
    class ReadSnapshot {
    public:
        explicit ReadSnapshot(Store& s);
        ~ReadSnapshot();
    private:
        Store& store_;
    };

    // Whether the writer recorded for a running run is gone: a dead process on
    // this host, or no heartbeat for 10 minutes from another host. Runs
    // mirrored from a server (info.remote) are never judged here.
    static bool writer_gone(const RunInfo& r);

    // Throws StoreError when the store's file was deleted or replaced since it
    // was opened: checked before every batch of a run's rows is committed, and
    // before each edit (a run created, renamed, tagged, annotated, coloured,
    // deleted; a merge, a compaction), which would go to the removed file.
    void check_still_there() const;
    // Whether `file` lies in this store's own checkpoints folder (<store>.checkpoints/,
    // by inode): only those files does this store ever delete.
    bool owns_checkpoint(const std::string& file) const;

    // ---- merging (merge.cpp)
    struct MergeReport {
        int added = 0;       // runs new to this store
        int updated = 0;     // runs the source holds further along (more steps, or ended since)
        int unchanged = 0;   // runs already here as the source has them
        std::vector<std::string> warnings;   // e.g. a checkpoint file that could not be copied
    };
    // Copies every run of the store at `source` (opened read-only, never
    // written) into this one in one transaction: new run ids, its
    // experiment (one row per name, file and spec), every series, distribution, note, tag and colour, and its
    // checkpoint file (into this store's checkpoint folder). A run's identity
    // is (created_at, seed, config): it is created once, so merging the same
    // source twice adds nothing. A run already here is brought up to date
    // when the source has more steps or has ended since, keeping the name,
    // notes, tags and colour given to it here. Throws StoreError (nothing
    // written) for a source that is not a NormLab store or is this store.
    // A source is checked with require_sound first, unless `checked` says the caller did.
    // `stop`, set from another thread or a signal, interrupts it: StoreError, nothing merged,
    // no checkpoint file left behind. `progress` hears how many of the source's series are merged (or
    // found here already) of how many, after each.
    MergeReport merge_from(const std::string& source, bool checked = false, const std::atomic<bool>* stop = nullptr,
                           const std::function<void(int64_t done, int64_t total)>& progress = {});
    // Throws StoreError naming this file and what SQLite's quick_check finds
    // wrong with it, if anything: a damaged source is never merged in part.
    void require_sound(const std::string& merge_target);

private:
    friend class Mirror;                            // core/remote/mirror.cpp writes mirrored rows
    sqlite3_stmt* prepare(const std::string& sql);  // cached
    void require_changed(int64_t run) const;       // after an UPDATE of one run: StoreError when it is not there
    void check(int rc, const char* what);
    void open_connection(Mode mode);
    void reopen_if_written();
    bool written_since_opened() const;              // immutable: a writer has the store open, or wrote it since
    // Runs a read of the public API: on an immutable connection, after opening
    // the store again when it was written since, and again when it was written
    // while `read` ran (store.cpp).
    template <class Read>
    auto read_fresh(Read&& read) -> decltype(read());
    void check_header(const std::string& header);
    static std::string read_header(const std::string& path);
    void open_checked();
    void create_or_migrate();
    void find_dead_writers(bool mark);
    // A row of run_columns(); its config, versions and info left as their texts in `json`, for
    // parse_run_json (run_rows.cpp).
    struct RunJsonText {
        std::string config, versions, info;
        bool null[3] = {false, false, false};
    };
    RunInfo read_run(sqlite3_stmt* st, RunJsonText& json);
    static void parse_run_json(RunInfo& r, RunJsonText& json, RunInfo* before);   // before: its JSON taken when the same
    bool shown_interrupted(int64_t id, RunStatus stored) const;   // read-only: its writer is gone (dead_)
    std::string run_columns() const;                // the SELECT list read_run reads
    std::string stored_checkpoint(const std::string& path) const;
    std::string resolved_checkpoint(const std::string& stored) const;

    std::string path_;
    std::string dir_;                               // absolute folder of the store
    Mode mode_ = Mode::ReadWrite;
    sqlite3* db_ = nullptr;
    std::vector<int64_t> dead_;                     // read-only: runs shown as interrupted
    bool has_color_ = true;                         // false: a schema-2 store opened read-only
    std::map<std::string, sqlite3_stmt*> cache_;
    std::map<std::pair<int64_t, std::pair<std::string, int>>, int64_t> series_cache_;
    std::vector<int64_t> recovered_;
    uint64_t file_dev_ = 0, file_ino_ = 0;          // the file opened (check_still_there)
    bool immutable_ = false;                        // read-only, opened as a file no writer had open
    std::string immutable_stamp_;                   // that file's inode, size and time then
    bool in_snapshot_ = false;                      // a ReadSnapshot's transaction is open
    std::pair<uint64_t, uint64_t> writer_key_{0, 0};  // writable: the file counted as written here (device, inode)
    const uint64_t instance_;                       // this object among the process's stores (generation)
    uint64_t connections_ = 0;                      // connections opened (generation)
    int64_t unknown_generations_ = 0;               // generations that could not be read
    void writing_here(bool open);
    static bool written_in_this_process(const std::string& path);
    static void writer_opening();
    static uint64_t writer_changes();
    static WalState settled_log(const std::string& path);
};

// Buffers one run's writes and flushes them in one transaction every
// `flush_seconds` (and on flush() / destruction). Used by the trainer thread.
class RunWriter {
public:
    RunWriter(Store& store, int64_t run, double flush_seconds = 0.5);
    ~RunWriter();
    void scalar(const std::string& name, int64_t step, double value);
    void layer(const std::string& name, int layer, int64_t step, double value);
    void distribution(Distribution d);
    void maybe_flush();      // flushes when flush_seconds have passed
    void flush();
    // Flushes and points the run at `checkpoint` (taken after `step` updates)
    // in one transaction: the checkpoint and every row up to it become durable together.
    void flush_with_checkpoint(const std::string& checkpoint, int64_t step);
    int64_t run() const { return run_; }
    Store& store() { return store_; }

private:
    int64_t id_for(const std::string& name, int layer);
    Store& store_;
    int64_t run_;
    double flush_seconds_;
    double last_flush_;
    std::map<std::pair<std::string, int>, int64_t> ids_;
    std::vector<Store::PointRow> points_;
    std::vector<std::pair<int64_t, Distribution>> dists_;
};

double now_seconds();   // unix time

}  // namespace normlab
