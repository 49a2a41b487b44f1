// normlab-cli list: the runs of a store — those a text, their status or
// --last picks, sorted by any column, as a table or as JSON for scripts.
// It opens the store read-only: no write lock (it works while a run writes,
// on read-only files and folders), nothing changed.
#include "app/cli/cli.h"

#include "core/remote/mirror.h"
#include "core/run_filter.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace normlab::cli {

namespace {

const std::vector<std::string> kSortKeys{"id", "name", "scheme", "status", "steps", "val", "created"};

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The statuses --status names (comma-separated), each a status runs have.
std::vector<std::string> parse_statuses(const std::string& given) {
    std::vector<std::string> known, out;
    for (RunStatus s : {RunStatus::Queued, RunStatus::Running, RunStatus::Finished, RunStatus::Diverged, RunStatus::Failed,
                        RunStatus::Cancelled, RunStatus::Interrupted})
        known.push_back(status_name(s));
    std::istringstream in(given);
    for (std::string s; std::getline(in, s, ',');) {
        if (std::find(known.begin(), known.end(), s) == known.end()) {
            std::string list;
            for (auto& k : known) list += (list.empty() ? "" : ", ") + k;
            throw UsageError("--status " + given + ": \"" + printable_name(s) + "\" is not a status; give one or more of " + list +
                             ", separated by commas (--status failed,diverged). Nothing was done.");
        }
        out.push_back(s);
    }
    if (out.empty()) throw UsageError("--status needs a status (--status finished). Nothing was done.");
    return out;
}

std::string iso_time(double unix_s) {
    if (unix_s <= 0) return {};
    const std::time_t t = static_cast<std::time_t>(unix_s);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

// The validation loss a run shows: its final one, else the latest measured (`latest`, by run id; the
// window's run table shows the same), else NaN.
using Latest = std::map<int64_t, Point>;
double shown_val(const RunInfo& r, const Latest& latest) {
    if (std::isfinite(r.final_loss)) return r.final_loss;
    const auto it = latest.find(r.id);
    return it == latest.end() ? std::nan("") : it->second.value;
}

void sort_runs(std::vector<RunInfo>& runs, const std::string& given, const Latest& latest = {}) {
    const bool descending = !given.empty() && given[0] == '-';
    const std::string key = descending ? given.substr(1) : given;
    if (std::find(kSortKeys.begin(), kSortKeys.end(), key) == kSortKeys.end()) {
        std::string list;
        for (auto& k : kSortKeys) list += (list.empty() ? "" : ", ") + k;
        throw UsageError("--sort " + printable_name(given) + ": give one of " + list + " (a leading - sorts descending: --sort -val). Nothing was done.");
    }
    // runs without the value (no validation loss yet, not started) come last either way
    auto missing = [&](const RunInfo& r) { return key == "val" ? !std::isfinite(shown_val(r, latest)) : key == "created" && r.created_at <= 0; };
    auto less = [&](const RunInfo& a, const RunInfo& b) {
        if (key == "name") return lower(a.name) < lower(b.name);
        if (key == "scheme") return a.scheme < b.scheme;
        if (key == "status") return a.status_text < b.status_text;
        if (key == "steps") return a.steps_done < b.steps_done;
        if (key == "val") return shown_val(a, latest) < shown_val(b, latest);
        if (key == "created") return a.created_at < b.created_at;
        return a.id < b.id;
    };
    std::stable_sort(runs.begin(), runs.end(), [&](const RunInfo& a, const RunInfo& b) {
        if (missing(a) != missing(b)) return missing(b);
        if (missing(a)) return a.id < b.id;
        return descending ? less(b, a) : less(a, b);
    });
}

// "1200/5000" for a run short of its steps (training, stopped, queued), else the steps done.
std::string steps_text(const RunInfo& r) {
    const int64_t total = r.steps_total();
    if (total > 0 && r.steps_done < total) return std::to_string(r.steps_done) + "/" + std::to_string(total);
    return std::to_string(r.steps_done);
}

// Its final validation loss, or "~" and the latest where it has none yet.
std::string val_text(const RunInfo& r, const Latest& latest) {
    if (std::isfinite(r.final_loss)) return fmt_loss(r.final_loss);
    const auto it = latest.find(r.id);
    return it == latest.end() ? fmt_loss(r.final_loss) : "~" + fmt_loss(it->second.value);
}

nlohmann::json run_json(const RunInfo& r, const Latest& latest) {
    const RemoteRef ref = remote_ref(r);
    const auto last = latest.find(r.id);
    return {{"id", r.id},
            {"name", r.name},
            {"scheme", r.scheme},
            {"status", r.status_text},
            {"steps", r.steps_done},
            {"steps_total", r.steps_total()},
            {"val_loss", std::isfinite(r.final_loss) ? nlohmann::json(r.final_loss) : nlohmann::json()},
            // A run without a final one (training, stopped, killed): the latest measured, and its step.
            {"val_loss_latest", !std::isfinite(r.final_loss) && last != latest.end()
                                    ? nlohmann::json{{"step", last->second.step}, {"value", last->second.value}}
                                    : nlohmann::json()},
            {"created", iso_time(r.created_at)},
            {"tags", r.tags},
            {"notes", r.notes},
            {"message", r.message},
            {"device", r.device},
            {"color", r.color},
            // Mirrored from a server (remote follow): where it trains, its id and store there.
            {"server", ref.run > 0 ? nlohmann::json{{"dest", ref.dest}, {"run", ref.run}, {"store", ref.store}}
                                   : nlohmann::json()}};
}

}  // namespace

static int cmd_list(const Args& args) {
    // every option checked before the store is read
    std::string text;
    for (const std::string& w : args.positional) text += (text.empty() ? "" : " ") + w;
    const std::vector<std::string> statuses = args.options.count("--status") ? parse_statuses(args.opt("--status")) : std::vector<std::string>{};
    const int last = args.options.count("--last") ? parse_int("--last", args.opt("--last"), 1) : 0;
    const std::string sort = args.opt("--sort", "id");
    const bool as_json = args.has_flag("--json");
    std::vector<RunInfo> none;
    sort_runs(none, sort);   // a key it does not know is refused now

    const std::string path = store_path(args);
    if (::access(path.c_str(), F_OK) != 0) {
        if (as_json) std::printf("[]\n");
        else std::printf("(no store at %s yet: no runs)\n", path.c_str());
        return kOk;
    }
    Store store(path, Store::Mode::ReadOnly);
    std::vector<RunInfo> all = store.runs(), runs;
    // The window's filter (core/run_filter.h): a val<3.2 reads the loss as shown (a run's latest where it has no final one).
    const RunFilter filter(text);
    Latest latest;   // each run without a final validation loss: its latest (one indexed read a run)
    auto read_latest = [&](const RunInfo& r) {
        if (!std::isfinite(r.final_loss) && !latest.count(r.id))
            if (const std::optional<Point> p = store.last_point(r.id, "val/loss")) latest.emplace(r.id, *p);
    };
    const bool by_val = filter.reads_val();
    for (auto& r : all) {
        if (!statuses.empty() && std::find(statuses.begin(), statuses.end(), r.status_text) == statuses.end()) continue;
        if (by_val) read_latest(r);
        if (filter.matches(r, shown_val(r, latest), {time_text(r.created_at)})) runs.push_back(std::move(r));
    }
    if (last > 0 && runs.size() > static_cast<size_t>(last)) {   // the newest: the highest ids
        std::sort(runs.begin(), runs.end(), [](const RunInfo& a, const RunInfo& b) { return a.id < b.id; });
        runs.erase(runs.begin(), runs.end() - last);
    }
    for (const RunInfo& r : runs) read_latest(r);
    sort_runs(runs, sort, latest);
    if (as_json) {
        nlohmann::json out = nlohmann::json::array();
        for (auto& r : runs) out.push_back(run_json(r, latest));
        std::printf("%s\n", out.dump(1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
        return kOk;
    }
    const bool picked = !text.empty() || !statuses.empty() || last > 0;
    if (runs.empty()) {
        if (all.empty()) std::printf("(no runs in %s)\n", store.path().c_str());
        else {
            std::printf("(none of the %zu runs in %s match)\n", all.size(), store.path().c_str());
            for (const RunFilter::Note& n : filter.notes(all))   // none moved from: a comparison that could not pick any
                std::fprintf(stderr, "normlab-cli: %s\n", printable_name(RunFilter::describe(n)).c_str());
        }
        return kOk;
    }
    // the name column as wide as the longest name shown, up to 48 columns; a longer one cut with "…"
    int name_w = 4;
    for (auto& r : runs) name_w = std::max(name_w, width_of(printable_name(r.name)));
    name_w = std::min(name_w, 48);
    // A column for the server a run trains on, where some listed run is mirrored from one (as the window's).
    int server_w = 0;
    for (auto& r : runs)
        if (const RemoteRef ref = remote_ref(r); ref.run > 0)
            server_w = std::min(std::max({server_w, 6, width_of(printable_name(ref.dest))}), 24);
    const std::string server_head = server_w ? fit("server", server_w) + "  " : std::string();
    std::printf("%-5s %s %-11s %-11s %13s %10s  %-16s  %stags\n", "id", fit("name", name_w).c_str(), "scheme", "status",
                "steps", "val loss", "created", server_head.c_str());
    for (auto& r : runs) {
        std::string tags;
        for (auto& t : r.tags) tags += (tags.empty() ? "" : ",") + printable_name(t);
        char head[160];
        std::snprintf(head, sizeof head, "%-5lld ", static_cast<long long>(r.id));
        char tail[200];
        std::snprintf(tail, sizeof tail, " %-11s %-11s %13s %10s  %-16s  ", printable_name(r.scheme).c_str(),
                      printable_name(r.status_text).c_str(), steps_text(r).c_str(), val_text(r, latest).c_str(),
                      time_text(r.created_at).c_str());
        std::string line = head + fit(printable_name(r.name), name_w) + tail;
        if (server_w) line += fit(printable_name(remote_ref(r).dest), server_w) + "  ";
        line += tags;
        line.erase(line.find_last_not_of(' ') + 1);   // no trailing blanks where a run has no tags
        std::printf("%s\n", line.c_str());
    }
    if (picked) std::printf("(%zu of %zu runs)\n", runs.size(), all.size());
    for (const RunInfo& r : runs)
        if (val_text(r, latest)[0] == '~') {
            std::printf("(~: the latest validation loss of a run that has no final one yet)\n");
            break;
        }
    return kOk;
}

extern const Command kListCommand{"list", "list [TEXT]",
    "the runs in the store (TEXT: words each run matches, as ngpt 'lr>=1e-3'\n"
    "'val<3.2'; --status, --last N, --sort COLUMN, --json)\n",
    cmd_list,
    "  TEXT              the window's filter: runs matching every word, ignoring case; a word\n"
    "                    is a text in the name, scheme, status, a tag, the notes, the server\n"
    "                    or the created time, or KEY OP VALUE (OP: = != < <= > >= or : for\n"
    "                    contains) comparing id, name, scheme, status, tag, notes, server,\n"
    "                    steps, val (the validation loss shown) or a setting, by its path\n"
    "                    or last part (optim.lr, lr, n_layers); numbers as numbers\n"
    "  --status S[,S..]  only runs with these statuses: queued, running, finished, diverged,\n"
    "                    failed, cancelled, interrupted\n"
    "  --last N          the N newest of those (the highest ids)\n"
    "  --sort COLUMN     id (the default), name, scheme, status, steps, val (the validation\n"
    "                    loss as shown) or created; -COLUMN sorts descending; runs without\n"
    "                    the value last\n"
    "  --json            a JSON array, one object a run: id, name, scheme, status, steps,\n"
    "                    steps_total (its train.steps), val_loss (the final one; null: none\n"
    "                    yet), val_loss_latest ({step, value} of a run without a final one;\n"
    "                    else null), created (UTC), tags, notes, message, device, color\n"
    "A run short of its steps (training, stopped, queued) shows them as done/total, and\n"
    "one without a final validation loss its latest as ~3.1588.\n"
    "examples:\n"
    "  normlab-cli list ngpt --status finished --sort val     the best nGPT runs first\n"
    "  normlab-cli list --last 5                              the newest five\n"
    "  normlab-cli list 'lr>=1e-3' 'val<3.2' n_layers=48      settings and loss (quote < and >)\n"
    "  normlab-cli list --status failed,diverged --json | jq '.[].message'\n",
    "--status --last --sort --json"};

}  // namespace normlab::cli
