// NormLab app: the main window's side of training on a server (remote.h):
// Run → Train on a server…, the runs it starts shown live as they arrive,
// following again when the window opens, and stopping or resuming runs
// that train on a server.
#include "app/gui/mainwindow.h"

#include "app/gui/remote.h"
#include "core/config.h"
#include "core/remote/mirror.h"
#include "widgets/designer.h"
#include "widgets/runtable.h"

#include <QDir>
#include <QStatusBar>
#include <QTemporaryFile>

#include <fstream>
#include <map>

namespace normlab {

void MainWindow::startRemote() {
    remote_ = new RemoteControl(QString::fromStdString(store_->path()), this);
    connect(remote_, &RemoteControl::message, this, [this](const QString& m) { statusBar()->showMessage(m, 10000); });
    connect(remote_, &RemoteControl::changed, this, [this] {
        reloadRuns();
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
    remote_->follow(t, runs);
    statusBar()->showMessage(tr("%n run(s) started on %1; following them live", "", static_cast<int>(runs.size())).arg(t.dest), 10000);
}

// The selected runs that train on a server, by server: their ids there.
static std::map<std::tuple<QString, QString, QString>, QStringList> by_server(Store& store, const std::vector<qint64>& ids,
                                                                              std::vector<qint64>* local) {
    std::map<std::tuple<QString, QString, QString>, QStringList> out;
    for (qint64 id : ids) {
        const auto r = store.run(id);
        if (!r) continue;
        const RemoteRef ref = remote_ref(*r);
        if (ref.run == 0) {
            if (local) local->push_back(id);
            continue;
        }
        out[{QString::fromStdString(ref.dest), QString::fromStdString(ref.cli.empty() ? "normlab-cli" : ref.cli),
             QString::fromStdString(ref.store)}] << QString::number(ref.run);
    }
    return out;
}

std::vector<qint64> MainWindow::remoteAction(const std::vector<qint64>& ids, const QString& action) {
    std::vector<qint64> local;
    for (auto& [key, rids] : by_server(*store_, ids, &local)) {
        const RemoteTarget t{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
        statusBar()->showMessage(action == "cancel" ? tr("Stopping on %1…").arg(t.dest) : tr("Resuming on %1…").arg(t.dest));
        remote_->command(QStringList{action, t.dest} + rids + t.args(),
                         [this, t, action, rids](int code, const QString&, const QString& err) {
                             if (code != 0) {
                                 statusBar()->showMessage(err.trimmed(), 15000);
                                 return;
                             }
                             statusBar()->showMessage(action == "cancel" ? tr("Stopped on %1: %2").arg(t.dest, rids.join(", "))
                                                                         : tr("Resumed on %1: %2").arg(t.dest, rids.join(", ")),
                                                      10000);
                             QList<qint64> follow;
                             for (const QString& r : rids) follow << r.toLongLong();
                             remote_->follow(t, follow);
                         });
    }
    return local;
}

}  // namespace normlab
