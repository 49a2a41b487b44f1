// NormLab app: what a server's follower says, worded in the window's language.
//
// The window's follower is `normlab-cli remote follow --json`: its news (a run's
// status, its progress as the mirror has it, the connection's) comes as JSON lines
// on standard output, which are worded here with tr(), as the window's own
// training is; only an error's text (ssh's own words, mostly) is shown as it comes.
#include "app/gui/remote.h"

#include "core/json_input.h"
#include "core/store/store.h"
#include "widgets/runtable.h"

#include <cmath>

namespace normlab {
namespace {

using nlohmann::json;

double number(const json& e, const char* key) {
    if (!e.is_object()) return std::nan("");
    const auto it = e.find(key);
    return it != e.end() && it->is_number() ? it->get<double>() : std::nan("");
}

// A line is never trusted to have a shape: each field read only as its type.
QString text(const json& e, const char* key) { return QString::fromStdString(string_field(e, key)); }

}  // namespace

QString format_eta(double s) {
    if (!std::isfinite(s) || s <= 0) return "—";
    const int t = static_cast<int>(s + 0.5);
    return t >= 3600 ? QString("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QChar('0')).arg(t % 60, 2, 10, QChar('0'))
                     : QString("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QChar('0'));
}

QString RemoteControl::describe(const json& e) {
    if (!e.is_object()) return {};
    const std::string event = string_field(e, "event");
    const QString dest = text(e, "dest");
    // "Run #4 nGPT on gpu1": the run's id and name here, as the run table shows them.
    auto run = [&] {
        const double id = number(e, "local_id");
        const QString name = text(e, "name");
        if (!std::isfinite(id)) return tr("%1 on %2").arg(text(e, "run"), dest);
        return tr("Run #%1 %2 on %3").arg(static_cast<qint64>(id)).arg(name, dest);
    };
    auto loss = [](double v) { return std::isfinite(v) ? QString::number(v, 'f', 4) : QStringLiteral("—"); };
    if (event == "status") {
        const QString status = RunTableModel::statusText(string_field(e, "status"));
        const double steps = number(e, "steps");
        if (!std::isfinite(steps)) return tr("%1: %2").arg(run(), status);
        const double val = number(e, "val_loss");
        return std::isfinite(val)
                   ? tr("%1: %2 after %n step(s), validation loss %3", "", static_cast<int>(steps)).arg(run(), status, loss(val))
                   : tr("%1: %2 after %n step(s)", "", static_cast<int>(steps)).arg(run(), status);
    }
    if (event == "progress") {
        const double step = number(e, "step"), total = number(e, "total");
        if (!std::isfinite(step) || !std::isfinite(total)) return {};
        const int pct = total > 0 ? static_cast<int>(100 * step / total) : 0;
        QString out = tr("%1: step %2/%3 (%4%) · loss %5")
                          .arg(run())
                          .arg(static_cast<qint64>(step))
                          .arg(static_cast<qint64>(total))
                          .arg(pct)
                          .arg(loss(number(e, "loss")));
        if (const double v = number(e, "val_loss"); std::isfinite(v)) out += tr(" · validation %1").arg(loss(v));
        if (const double t = number(e, "tokens_per_s"); t > 0) out += tr(" · %1 tokens/s").arg(t, 0, 'f', 0);
        if (const double m = number(e, "mfu"); m > 0) out += tr(" · MFU %1%").arg(100 * m, 0, 'f', 1);
        if (const double eta = number(e, "eta_s"); eta > 0) out += tr(" · ETA %1").arg(format_eta(eta));
        return out;
    }
    if (event == "note") {
        const std::string kind = string_field(e, "kind");
        const double count = number(e, "count");
        const int n = std::isfinite(count) ? static_cast<int>(count) : 0;
        if (kind == "following") return tr("Following %n run(s) on %1", "", n).arg(dest);
        if (kind == "following_sweep") return tr("Following the Slurm sweep in %1 on %2 (%n task store(s))", "", n).arg(text(e, "sweep"), dest);
        if (kind == "reconnected") return tr("Reconnected to %1; following again from the last row held").arg(dest);
        if (kind == "retrying") {
            const double in_s = number(e, "in_s");
            return tr("Connection to %1 lost (%2); reconnecting in %n s", "", std::isfinite(in_s) ? static_cast<int>(in_s) : 0)
                .arg(dest, text(e, "why"));
        }
        return text(e, "text");   // a newer NormLab's: its English words
    }
    if (event == "end") {
        const std::string how = string_field(e, "how");
        if (how == "ended") return tr("%1: every run followed has ended").arg(dest);
        if (how == "nothing") return tr("%1: no run left to follow (each run mirrored from it has ended)").arg(dest);
        return {};   // stopped: by the window itself
    }
    return {};   // an event a newer NormLab sends and this one does not know
}

QString RemoteControl::heard(const QString& key, const json& e) {
    const std::string event = string_field(e, "event");
    const double id = number(e, "local_id");
    if (!std::isfinite(id)) return describe(e);
    std::map<qint64, QString>& running = running_[key];
    if (event == "status" && string_field(e, "status") != "running") running.erase(static_cast<qint64>(id));
    if (event != "progress") return describe(e);
    const QString line = describe(e);
    if (line.isEmpty()) return line;
    running[static_cast<qint64>(id)] = line;
    const int more = static_cast<int>(running.size()) - 1;
    return running.begin()->second + (more > 0 ? tr(" (+%n more running)", "", more) : QString());
}

QString RemoteDialog::describeCheck(const nlohmann::json& c) {
    if (!c.is_object()) return {};
    const json info = c.value("info", json::object());
    if (!info.is_object()) return {};
    auto field = [&](const char* key) {
        const QString v = text(info, key);
        return v.isEmpty() ? QStringLiteral("?") : v;
    };
    QStringList parts{tr("NormLab %1 on %2 (LibTorch %3)").arg(field("normlab"), field("host"), field("libtorch"))};
    const auto exists = info.find("store_exists");
    parts << (exists != info.end() && exists->is_boolean() && !exists->get<bool>()
                  ? tr("store %1 (created by the first run)").arg(field("store"))
                  : tr("store %1").arg(field("store")));
    const json gpus = c.value("gpus", json::array());
    QStringList named;
    if (gpus.is_array())
        for (const json& g : gpus)
            if (g.is_object()) named << tr("%1, %2 MiB (%3 MiB free)").arg(text(g, "name"), text(g, "total_mib"), text(g, "free_mib"));
    const auto cuda = info.find("cuda");
    const bool has_cuda = cuda != info.end() && cuda->is_boolean() && cuda->get<bool>();
    if (named.isEmpty()) parts << tr("no CUDA GPU: runs train on its CPU");
    else if (!has_cuda)
        parts << tr("%n GPU(s): %1; but its LibTorch has no CUDA: runs train on its CPU", "", static_cast<int>(named.size()))
                     .arg(named.join("; "));
    else parts << tr("%n GPU(s): %1", "", static_cast<int>(named.size())).arg(named.join("; "));
    return parts.join("; ");
}

}  // namespace normlab
