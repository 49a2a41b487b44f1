// normlab-cli plot: SVG figures of runs (loss, gradients, hidden-state norms).
#include "app/cli/cli.h"

#include "app/cli/svg_plot.h"
#include "core/errors.h"
#include "core/run_filter.h"
#include "core/store/output_guard.h"
#include "core/series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>

namespace normlab::cli {

namespace {
// A run's series by (name, layer), listed once: listing them counts every point of the run
// (Store::series), which once per layer made a long run's figures take a minute.
class RunSeries {
public:
    RunSeries(Store& store, int64_t run) : store_(store) {
        for (const SeriesInfo& s : store.series(run, /*with_counts=*/false)) ids_[{s.name, s.layer}] = s.id;
    }
    // The series as (x, y) vectors; layer -1 for a global series; empty when the run has none.
    std::pair<std::vector<double>, std::vector<double>> xy(const std::string& name, int layer = -1) const {
        std::pair<std::vector<double>, std::vector<double>> out;
        const auto it = ids_.find({name, layer});
        if (it == ids_.end()) return out;
        for (const Point& p : store_.points(it->second)) {
            out.first.push_back(static_cast<double>(p.step));
            out.second.push_back(p.value);
        }
        return out;
    }
    int layers(const std::string& name) const {
        int n = 0;
        for (const auto& [key, id] : ids_)
            if (key.first == name) n = std::max(n, key.second + 1);
        return n;
    }

private:
    Store& store_;
    std::map<std::pair<std::string, int>, int64_t> ids_;
};

}  // namespace

static int cmd_plot(const Args& args) {
    const std::string out = args.opt("--out");
    if (out.empty()) throw UsageError("plot needs --out DIR");
    Store store(store_path(args), Store::Mode::ReadOnly);
    std::vector<RunInfo> runs;
    for (auto& key : args.positional) runs.push_back(store.find_run(key));
    if (args.options.count("--where")) {   // and the runs a filter picks, as list and the window's filter box read it
        const std::string where = args.opt("--where");
        std::string why, said;
        const std::vector<int64_t> picked = runs_where(store, where, &why);
        for (size_t at = 0, nl; (nl = why.find('\n', at)) != std::string::npos; at = nl + 1)   // each note, printed safely
            said += "\n" + printable_name(why.substr(at, nl - at));
        if (picked.empty())
            throw UsageError("--where " + printable_name(where) + " picks none of the runs in " + store.path() +
                             " (normlab-cli list '" + printable_name(where) + "' shows what it picks). Nothing was written." + said);
        for (int64_t id : picked)
            if (std::none_of(runs.begin(), runs.end(), [&](const RunInfo& r) { return r.id == id; })) runs.push_back(*store.run(id));
    }
    if (runs.empty()) {
        auto all = store.runs();
        const int last = args.options.count("--last") ? parse_int("--last", args.opt("--last"), 1) : 2;
        for (size_t i = all.size() > size_t(last) ? all.size() - last : 0; i < all.size(); ++i)
            if (all[i].status != RunStatus::Queued) runs.push_back(all[i]);
    }
    if (runs.empty()) throw UsageError("no runs to plot in " + store.path());
    // --out is a folder: never the store or its checkpoints (refused by name), never a file.
    check_output_folder(out, "--out");
    std::error_code ec;
    if (std::filesystem::exists(out, ec) && !std::filesystem::is_directory(out, ec))
        throw ConfigError("--out", out + " is a file, not a folder; plot writes several SVGs there. Nothing was written:"
                                         " name a folder for --out (it is made if missing).");
    std::filesystem::create_directories(out, ec);
    if (ec)
        throw ConfigError("--out", "cannot make the folder " + out + " (" + ec.message() + "). Nothing was written:"
                                   " name a folder you can write for --out.");
    std::vector<std::string> written;
    auto save = [&](const plot::Chart& c, const std::string& file) {
        plot::write_svg(c, out + "/" + file);
        written.push_back(out + "/" + file);
    };
    auto label = [](const RunInfo& r) { return r.name + " (#" + std::to_string(r.id) + ")"; };

    plot::Chart loss{"Training loss", "step", "loss (nats/byte)"};
    loss.integer_x = true;   // steps: whole numbers, 200k rather than 200000 (core/print_ticks.h)
    double floor = std::nan("");
    std::vector<RunSeries> series;
    for (const RunInfo& r : runs) series.emplace_back(store, r.id);
    // Smoothed along the steps over the longest run's, as the window smooths (core/series.h): a 60-step
    // and a 60,000-step run alike, where an EMA per point left the longer one a band of noise.
    double first = std::numeric_limits<double>::infinity(), last = -first;
    for (auto& s : series)
        if (auto [x, y] = s.xy("train/loss"); !x.empty()) first = std::min(first, x.front()), last = std::max(last, x.back());
    for (size_t i = 0; i < runs.size(); ++i) {
        auto [x, y] = series[i].xy("train/loss");
        loss.series.push_back({"", x, y, runs[i].color, 1.0, 0.25});
        loss.series.push_back({label(runs[i]) + " train", x, smooth_along_x(x, y, 0.9, last - first), runs[i].color, 1.8});
        auto [vx, vy] = series[i].xy("val/loss");
        if (!vx.empty()) loss.series.push_back({label(runs[i]) + " val", vx, vy, runs[i].color, 1.4, 1.0, true, true});
        if (runs[i].info.contains("loss_floor")) floor = runs[i].info["loss_floor"].get<double>();
    }
    if (std::isfinite(floor)) loss.hlines.push_back({floor, "loss floor (entropy rate)"});
    save(loss, "loss.svg");

    // The Pre-LN vs Post-LN picture: FC2 gradient size per layer, early in training.
    plot::Chart layers{"Mean |dL/dW_FC2| per layer, first probes", "layer", "mean |gradient|"};
    layers.log_y = true;
    layers.integer_x = true;
    plot::Chart hidden{"Hidden-state norm per layer, last probe", "layer", "mean ‖x_{ℓ}‖"};
    hidden.integer_x = true;
    for (size_t i = 0; i < runs.size(); ++i) {
        const int L = series[i].layers("grad_l1/fc2");
        plot::Series s{label(runs[i]), {}, {}, runs[i].color, 1.8, 1.0, false, true};
        plot::Series h{label(runs[i]), {}, {}, runs[i].color, 1.8, 1.0, false, true};
        for (int l = 0; l < L; ++l) {
            auto [x, y] = series[i].xy("grad_l1/fc2", l);
            const size_t n = std::min<size_t>(y.size(), 5);
            double mean = 0;
            for (size_t k = 0; k < n; ++k) mean += y[k] / n;
            s.x.push_back(l);
            s.y.push_back(n ? mean : std::nan(""));
            auto [hx, hy] = series[i].xy("hidden/norm", l);
            h.x.push_back(l);
            h.y.push_back(hy.empty() ? std::nan("") : hy.back());
        }
        layers.series.push_back(s);
        hidden.series.push_back(h);

        plot::Chart per{"Mean |dL/dW_FC2| per layer: " + runs[i].name, "step", "mean |gradient|"};
        per.log_y = true;
        for (int l = 0; l < L; ++l) {
            auto [x, y] = series[i].xy("grad_l1/fc2", l);
            per.series.push_back({"layer " + std::to_string(l), x, y, plot::sequential(L > 1 ? double(l) / (L - 1) : 0)});
        }
        if (L > 0) save(per, "grad_l1_fc2_run" + std::to_string(runs[i].id) + ".svg");
    }
    save(layers, "grad_l1_fc2_by_layer.svg");
    save(hidden, "hidden_norm_by_layer.svg");
    for (auto& w : written) std::printf("%s\n", w.c_str());
    return kOk;
}

extern const Command kPlotCommand{"plot", "plot [RUN...] --out DIR",
    "SVG figures of runs (default: the last 2; --last N, --where TEXT)\n",
    cmd_plot,
    "Writes loss, gradient and hidden-state-norm SVGs of the runs into DIR and prints their paths.\n"
    "  --where TEXT   the runs a filter picks too, as list TEXT reads it: words and comparisons\n"
    "                 such as 'ngpt val<3.2' or 'tag:paper lr>=1e-3' (quote < and >)\n",
    "--out --last --where"};

}  // namespace normlab::cli
