// NormLab app: the main window's side of training on a server (remote.h):
// Run → Train on a server…, the runs it starts shown live as they arrive,
// following again when the window opens, and stopping or resuming runs
// that train on a server.
#include "app/gui/mainwindow.h"

#include "app/gui/remote.h"
#include "core/config.h"
#include "core/json_input.h"
#include "core/remote/mirror.h"
#include "widgets/designer.h"
#include "widgets/runtable.h"

#include <QDir>
#include <QFileDialog>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryFile>

#include <fstream>
#include <map>
#include <set>

namespace normlab {

// What a failed `normlab-cli remote …` said, for the status bar: its last line, without the program's name.
static QString cli_error(const QString& err) {
    const QStringList lines = err.trimmed().split('\n', Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.last().trimmed().remove(QRegularExpression("^normlab-cli: "));
}

void MainWindow::startRemote() {
    remote_ = new RemoteControl(QString::fromStdString(store_->path()), this);
    connect(remote_, &RemoteControl::message, this, [this](const QString& m) { statusBar()->showMessage(m, 10000); });
    connect(remote_, &RemoteControl::changed, this, [this] {
        reloadRuns();
        if (awaited_sweep_) {
            // A sweep's runs arrive as its tasks start: each shown as it comes.
            std::vector<qint64> fresh;
            for (const RunInfo& r : store_->runs())
                if (remote_ref(r).run > 0 && !known_.count(r.id)) fresh.push_back(r.id), known_.insert(r.id);
            if (!fresh.empty()) {
                std::vector<qint64> shown = shown_;
                shown.insert(shown.end(), fresh.begin(), fresh.end());
                selectRuns(shown);
                showRuns(shown);
            }
            return;
        }
        if (awaited_.isEmpty()) return;
        // The runs just started on a server: shown as soon as their first rows arrive.
        std::vector<qint64> found;
        for (int row = 0; row < model_->rowCount(); ++row) {
            const RunInfo* r = model_->runAt(row);
            if (model_->storeAt(row) || !r) continue;
            const RemoteRef ref = remote_ref(*r);
            if (ref.dest == awaited_dest_.toStdString() && awaited_.contains(ref.run)) found.push_back(r->id);
        }
        if (static_cast<int>(found.size()) == awaited_.size()) {
            awaited_.clear();
            selectRuns(found);
            showRuns(found);
        }
    });
    if (!store_->read_only()) {
        const int n = remote_->reattach(*store_);
        if (n > 0) statusBar()->showMessage(tr("Following runs on %n server(s) again", "", n), 10000);
    }
}

void MainWindow::trainOnServer() {
    if (store_->read_only()) {
        statusBar()->showMessage(tr("This store is open read-only: open a writable store to train (File → Open run store)."), 8000);
        return;
    }
    const auto& ex = designer_->experiment();
    auto write = [this](bool whole, QString* error) -> QString {
        nlohmann::json doc;
        try {
            if (whole && designer_->experiment()) {
                doc = designer_->experiment()->spec;
            } else {
                const RunConfig cfg = designer_->config();
                doc = {{"name", cfg.name}, {"base", to_json(cfg)}};
            }
        } catch (const std::exception& e) {
            *error = tr("The form cannot be trained: %1").arg(QString::fromUtf8(e.what()));
            return QString();
        }
        QTemporaryFile f(QDir::tempPath() + "/normlab-remote-XXXXXX.json");
        f.setAutoRemove(false);
        if (!f.open()) {
            *error = tr("Cannot write a temporary file: %1").arg(f.errorString());
            return QString();
        }
        f.write(QByteArray::fromStdString(doc.dump(2)));
        f.close();
        return f.fileName();
    };
    RemoteDialog dialog(remote_, QString::fromStdString(store_->path()),
                        ex ? QString::fromStdString(ex->name) : QString(), write, this);
    connect(&dialog, &RemoteDialog::launched, this, &MainWindow::onRemoteLaunched);
    remoteDialogOpened(&dialog);
    dialog.exec();
}

void MainWindow::onRemoteLaunched(const RemoteTarget& t, const QList<qint64>& runs) {
    awaited_dest_ = t.dest;
    awaited_ = runs;
    awaited_sweep_ = !t.sweep.isEmpty();
    if (awaited_sweep_) {
        known_.clear();
        for (const RunInfo& r : store_->runs()) known_.insert(r.id);
        shown_.clear();
    }
    remote_->follow(t, runs);
    if (awaited_sweep_)
        statusBar()->showMessage(tr("Sweep submitted to Slurm through %1; its runs appear as its tasks start").arg(t.dest), 10000);
    else
        statusBar()->showMessage(tr("%n run(s) started on %1; following them live", "", static_cast<int>(runs.size())).arg(t.dest), 10000);
}

void MainWindow::fetchRemoteWeights(qint64 id, const QString& to) {
    const auto r = store_->run(id);
    if (!r) return;
    const RemoteRef ref = remote_ref(*r);
    if (ref.run == 0) return;
    QString file = to;
    if (file.isEmpty())
        file = QFileDialog::getSaveFileName(this, tr("Fetch weights from the server"),
                                            QString::fromStdString(r->name) + ".safetensors", tr("safetensors (*.safetensors)"));
    if (file.isEmpty()) return;
    const RemoteTarget t{QString::fromStdString(ref.dest), QString::fromStdString(ref.cli.empty() ? "normlab-cli" : ref.cli),
                         QString::fromStdString(ref.store)};
    const QString name = QString::fromStdString(r->name);
    statusBar()->showMessage(tr("Fetching the weights of %1 from %2…").arg(name, t.dest));
    remote_->command(
        QStringList{"fetch", t.dest, QString::number(ref.run), "--out", file, "--store", QString::fromStdString(store_->path()), "--json"} +
            t.args(),
        [this, file](int code, const QString&, const QString& err) {
            statusBar()->showMessage(code == 0 ? tr("Weights written to %1").arg(file) : cli_error(err), 15000);
            Q_EMIT remoteFetched(code == 0 ? file : QString());
        },
        [this, name, dest = t.dest](const QByteArray& line) {   // how far it is, in the window's words
            const QString m = fetchProgressText(name, dest, nlohmann::json::parse(line.toStdString(), nullptr, false));
            if (!m.isEmpty()) statusBar()->showMessage(m);
        });
}

void MainWindow::cancelSweeps(const std::vector<qint64>& ids) {
    std::set<std::tuple<QString, QString, QString>> sweeps;
    for (qint64 id : ids)
        if (const auto r = store_->run(id); r && !remote_ref(*r).sweep.empty()) {
            const RemoteRef ref = remote_ref(*r);
            sweeps.emplace(QString::fromStdString(ref.dest), QString::fromStdString(ref.cli.empty() ? "normlab-cli" : ref.cli),
                           QString::fromStdString(ref.sweep));
        }
    for (auto& [dest, cli, dir] : sweeps) {
        const RemoteTarget t{dest, cli, QString(), dir};
        remote_->command(QStringList{"cancel", dest} + t.args(), [this, dest, dir](int code, const QString&, const QString& err) {
            statusBar()->showMessage(code == 0 ? tr("Slurm job of %1 on %2 cancelled").arg(dir, dest) : cli_error(err), 15000);
        });
    }
}

QString MainWindow::fetchProgressText(const QString& name, const QString& dest, const nlohmann::json& e) const {
    const qint64 bytes = int_field(e, "bytes", -1), total = int_field(e, "total", -1);
    if (bytes < 0) return {};
    const QString got = locale().formattedDataSize(bytes, 1, QLocale::DataSizeSIFormat);
    if (total <= 0) return tr("Fetching the weights of %1 from %2: %3…").arg(name, dest, got);
    return tr("Fetching the weights of %1 from %2: %3 of %4 (%5%)…")
        .arg(name, dest, got, locale().formattedDataSize(total, 1, QLocale::DataSizeSIFormat))
        .arg(100 * bytes / total);
}

// The selected runs that train on a server, by server: their ids there, and each one's id here.
struct ServerRuns {
    QStringList ids;                // the server's
    std::map<QString, qint64> here;   // the server's id → the run's id in this store
};
static std::map<std::tuple<QString, QString, QString>, ServerRuns> by_server(Store& store, const std::vector<qint64>& ids,
                                                                             std::vector<qint64>* local) {
    std::map<std::tuple<QString, QString, QString>, ServerRuns> out;
    for (qint64 id : ids) {
        const auto r = store.run(id);
        if (!r) continue;
        const RemoteRef ref = remote_ref(*r);
        if (ref.run == 0) {
            if (local) local->push_back(id);
            continue;
        }
        ServerRuns& s = out[{QString::fromStdString(ref.dest), QString::fromStdString(ref.cli.empty() ? "normlab-cli" : ref.cli),
                             QString::fromStdString(ref.store)}];
        s.ids << QString::number(ref.run);
        s.here[QString::number(ref.run)] = id;
    }
    return out;
}

// What the server did with each run ("4\tcancelled\tNAME", "4\tfinished\tNAME (nothing to cancel)",
// "4\tresuming\tNAME"), worded for the status bar under the runs' ids and names here.
QString MainWindow::serverSaid(const QString& dest, const QString& action, const QString& out,
                               const std::map<QString, qint64>& here, bool* all_done) {
    QStringList done, other;
    auto label = [this](const QString& there, qint64 id) {
        const auto r = store_->run(id);
        return r ? QString("#%1 %2").arg(r->id).arg(QString::fromStdString(r->name)) : tr("run %1 there").arg(there);
    };
    for (const QString& line : out.split('\n', Qt::SkipEmptyParts)) {
        const QStringList f = line.split('\t');
        if (f.size() < 2) continue;
        const auto it = here.find(f[0]);
        const QString run = label(f[0], it != here.end() ? it->second : 0);
        const QString rest = f.size() > 2 ? f[2] : QString();
        if (rest.endsWith("(nothing to cancel)")) other << tr("%1 is %2: nothing to stop").arg(run, shownStatus(f[1]));
        else if (f[1] == (action == "cancel" ? "cancelled" : "resuming")) done << run;
        else if (f[1] == "interrupted" && rest.contains("process is gone"))
            other << tr("%1: its process on the server is gone; Resume continues it").arg(run);
        else other << tr("%1 is %2").arg(run, shownStatus(f[1]));
    }
    if (done.isEmpty() && other.isEmpty())   // a server that said nothing of them: done, as its exit said
        for (const auto& [there, id] : here) done << label(there, id);
    if (all_done) *all_done = other.isEmpty();
    QString said;
    if (!done.isEmpty())
        said = action == "cancel" ? tr("Stopped on %1: %2").arg(dest, done.join(", ")) : tr("Resumed on %1: %2").arg(dest, done.join(", "));
    if (!other.isEmpty()) said += (said.isEmpty() ? dest + ": " : QStringLiteral("; ")) + other.join("; ");
    return said;
}

std::vector<qint64> MainWindow::remoteAction(const std::vector<qint64>& ids, const QString& action) {
    std::vector<qint64> local;
    for (auto& [key, runs] : by_server(*store_, ids, &local)) {
        const RemoteTarget t{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
        statusBar()->showMessage(action == "cancel" ? tr("Stopping on %1…").arg(t.dest) : tr("Resuming on %1…").arg(t.dest));
        remote_->command(QStringList{action, t.dest} + runs.ids + t.args(),
                         [this, t, action, runs = runs](int code, const QString& out, const QString& err) {
                             if (code != 0) {
                                 statusBar()->showMessage(cli_error(err), 15000);
                                 return;
                             }
                             bool all_done = true;
                             const QString said = serverSaid(t.dest, action, out, runs.here, &all_done);
                             statusBar()->showMessage(said, all_done ? 10000 : 15000);
                             QList<qint64> follow;
                             for (const QString& r : runs.ids) follow << r.toLongLong();
                             remote_->follow(t, follow);
                         });
    }
    return local;
}

}  // namespace normlab
