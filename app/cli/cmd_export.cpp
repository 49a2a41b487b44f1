// normlab-cli export: every point of a run as CSV, or everything as JSON.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed. The export is written a
// series at a time, so its memory stays that of one series whatever the run's
// size (a 100,000-step run of 48 layers held its whole 280 MB CSV, and 1.9 GB
// for its JSON, before writing a byte); a terminal sees its progress, and
// Ctrl-C, SIGTERM or a hang-up stop it with nothing left at --out.
#include "app/cli/cli.h"

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <sstream>

namespace normlab::cli {

using nlohmann::json;

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

// On a terminal, how far the export is.
class Progress {
public:
    Progress(int64_t run, int64_t total) : head_("exporting run " + std::to_string(run)), total_(total) {}
    void add(int64_t points) { line_.show(head_, done_ += points, total_, "points"); }
    void end() { line_.end(); }

private:
    std::string head_;
    int64_t total_, done_ = 0;
    ProgressLine line_;
};

// `text` (nlohmann's dump with an indent of 1) shifted `depth` spaces right, but for its first line: an element
// of an array or object `depth` deep, as dumping the whole document at once writes it. JSON strings hold no
// raw line breaks, so every line break is the layout's.
std::string nested(const std::string& text, int depth) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (char c : text) {
        out += c;
        if (c == '\n') out.append(static_cast<size_t>(depth), ' ');
    }
    return out;
}

void write_csv(OutputFile& sink, Store& store, const RunInfo& r, const std::vector<SeriesInfo>& series, Progress& progress) {
    // Long format: one row per point, every point (never sampled).
    sink.write("run_id,run_name,series,layer,step,value\n");
    const std::string head = std::to_string(r.id) + ',' + csv_escape(r.name) + ',';
    for (auto& s : series) {
        std::ostringstream os;
        os.precision(9);
        const std::string lead = head + s.name + ',' + std::to_string(s.layer) + ',';
        const auto points = store.points(s.id);
        for (auto& p : points) {
            os << lead << p.step << ',';
            if (std::isnan(p.value)) os << "nan";
            else os << p.value;
            os << '\n';
        }
        sink.write(os.str());
        progress.add(static_cast<int64_t>(points.size()));
    }
}

// The layout of json{{"distributions", ...}, {"run", ...}, {"series", ...}}.dump(1), written a part at a time.
void write_json(OutputFile& sink, Store& store, const RunInfo& r, const std::vector<SeriesInfo>& series, Progress& progress) {
    json run = {{"id", r.id},           {"name", r.name},         {"scheme", r.scheme},
                {"status", r.status_text}, {"status_step", r.status_step}, {"message", r.message},
                {"config", r.config},   {"info", r.info},         {"versions", r.versions},
                {"seed", r.seed},       {"tags", r.tags},         {"notes", r.notes},
                {"steps_done", r.steps_done}, {"created_at", r.created_at}, {"started_at", r.started_at},
                {"ended_at", r.ended_at}, {"device", r.device}, {"color", r.color}};
    run["final_loss"] = std::isnan(r.final_loss) ? json(nullptr) : json(r.final_loss);
    auto array = [&](const char* key, size_t n, const std::function<json(size_t)>& element, bool last) {
        sink.write(std::string(" \"") + key + "\": ");
        if (n == 0) sink.write("[]");
        for (size_t i = 0; i < n; ++i) sink.write((i == 0 ? "[\n  " : ",\n  ") + nested(element(i).dump(1), 2));
        if (n > 0) sink.write("\n ]");
        sink.write(last ? "\n" : ",\n");
    };
    sink.write("{\n");
    const auto dists = store.distributions(r.id);
    array("distributions", dists.size(), [&](size_t i) {
        const auto& d = dists[i];
        return json{{"name", d.name}, {"layer", d.layer}, {"step", d.step}, {"count", d.count},
                    {"min", d.min}, {"q1", d.q1}, {"median", d.median}, {"q3", d.q3}, {"max", d.max},
                    {"mean", d.mean}, {"std", d.std}, {"hist_lo", d.hist_lo}, {"hist_hi", d.hist_hi},
                    {"hist", d.hist}};
    }, false);
    sink.write(" \"run\": " + nested(run.dump(1), 1) + ",\n");
    array("series", series.size(), [&](size_t i) {
        const auto& s = series[i];
        const auto points = store.points(s.id);
        json pts = json::array();
        for (auto& p : points) pts.push_back({p.step, std::isfinite(p.value) ? json(p.value) : json(nullptr)});
        progress.add(static_cast<int64_t>(points.size()));
        return json{{"name", s.name}, {"layer", s.layer}, {"points", std::move(pts)}};
    }, true);
    sink.write("}\n");
}

}  // namespace

static int cmd_export(const Args& args) {
    if (args.positional.size() != 1) throw UsageError("export needs one run: normlab-cli export RUN --csv|--json");
    const bool csv = args.has_flag("--csv"), js = args.has_flag("--json");
    if (csv == js) throw UsageError("export needs exactly one of --csv or --json");
    Store store(store_path(args), Store::Mode::ReadOnly);
    RunInfo r = store.find_run(args.positional[0]);
    const std::string out = args.opt("--out");
    // Ctrl-C, SIGTERM, a hang-up: stopped between writes, the temporary file removed
    // (without SA_RESTART: a write blocked on a pipe nobody reads returns, and the export ends); a hang-up ignored
    // at the start (nohup) stays ignored
    struct sigaction sa {}, hup {};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    if (sigaction(SIGHUP, nullptr, &hup) == 0 && hup.sa_handler != SIG_IGN) sigaction(SIGHUP, &sa, nullptr);
    const auto series = store.series(r.id);
    int64_t total = 0;
    for (auto& s : series) total += s.count;
    Progress progress(r.id, total);
    try {
        OutputFile sink(out, &g_stop);
        if (csv) write_csv(sink, store, r, series, progress);
        else write_json(sink, store, r, series, progress);
        if (g_stop) throw OutputFile::Stopped{};
        sink.commit();
        progress.end();
        if (!out.empty())
            std::fprintf(stderr, "%s: run %lld, %lld points (%s)\n", out.c_str(), static_cast<long long>(r.id),
                         static_cast<long long>(total), format_bytes(sink.bytes()).c_str());
    } catch (const OutputFile::Stopped&) {
        progress.end();
        std::fprintf(stderr, "normlab-cli: export stopped%s\n", out.empty() ? "" : ("; nothing was written to " + out).c_str());
        return kInterrupted;
    } catch (...) {
        progress.end();
        throw;
    }
    return kOk;
}

extern const Command kExportCommand{"export", "export RUN --csv|--json",
    "the run's data (--out FILE, default stdout)\n",
    cmd_export,
    "--csv: one row per point (run_id,run_name,series,layer,step,value), never sampled.\n"
    "--json: the run's record, every series and every distribution.\n"
    "Written a series at a time: its memory is one series', whatever the run's size.\n"
    "--out FILE is written through a temporary file: a failed or stopped export (Ctrl-C)\n"
    "leaves nothing behind. Another program writing FILE at the time (another export, the\n"
    "window) finishes first; the export says that it waits.\n",
    "--csv --json --out"};

}  // namespace normlab::cli
