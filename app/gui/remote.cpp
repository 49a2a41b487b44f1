// NormLab app: training on a server from the window (see remote.h).
#include "app/gui/remote.h"
#include "app/gui/child_process.h"

#include "core/remote/mirror.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QSettings>
#include <QTextStream>
#include <QVBoxLayout>

#include <set>

namespace normlab {

QStringList RemoteTarget::args() const {
    QStringList a{"--remote-cli", cli.isEmpty() ? QStringLiteral("normlab-cli") : cli};
    if (!store.isEmpty()) a << "--remote-store" << store;
    if (!sweep.isEmpty()) a << "--sweep" << sweep;
    return a;
}

QStringList ssh_config_hosts() {
    QStringList out;
    QFile f(QDir::homePath() + "/.ssh/config");
    if (!f.open(QIODevice::ReadOnly)) return out;
    QTextStream in(&f);
    static const QRegularExpression host("^\\s*Host\\s+(.+)$", QRegularExpression::CaseInsensitiveOption);
    while (!in.atEnd()) {
        const auto m = host.match(in.readLine());
        if (!m.hasMatch()) continue;
        for (const QString& h : m.captured(1).split(QRegularExpression("\\s+"), Qt::SkipEmptyParts))
            if (!h.contains('*') && !h.contains('?') && !h.startsWith('!') && !out.contains(h)) out << h;
    }
    return out;
}

RemoteControl::RemoteControl(const QString& store_path, QObject* parent) : QObject(parent), store_(store_path) {}

RemoteControl::~RemoteControl() { stopAll(); }

QString RemoteControl::cliPath() {
    const QString env = qEnvironmentVariable("NORMLAB_CLI");
    if (!env.isEmpty()) return env;
    const QString beside = QCoreApplication::applicationDirPath() + "/normlab-cli";
    return QFileInfo(beside).isExecutable() ? beside : QStringLiteral("normlab-cli");
}

QProcessEnvironment RemoteControl::environment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    // No terminal here: ssh asks for a passphrase or a code through this program.
    if (!env.contains("SSH_ASKPASS")) {
        env.insert("SSH_ASKPASS", QCoreApplication::applicationFilePath());
        env.insert("SSH_ASKPASS_REQUIRE", "force");
        env.insert("NORMLAB_ASKPASS", "1");
    }
    return env;
}

void RemoteControl::command(const QStringList& args, std::function<void(int, const QString&, const QString&)> done,
                            std::function<void(const QByteArray&)> line) {
    auto* p = new QProcess(this);
    p->setProcessEnvironment(environment());
    if (line)
        connect(p, &QProcess::readyReadStandardOutput, this, [p, line] {
            p->setReadChannel(QProcess::StandardOutput);
            while (p->canReadLine()) line(p->readLine().trimmed());
        });
    connect(p, &QProcess::finished, this, [p, done](int code, QProcess::ExitStatus) {
        done(code, QString::fromUtf8(p->readAllStandardOutput()), QString::fromUtf8(p->readAllStandardError()));
        p->deleteLater();
    });
    connect(p, &QProcess::errorOccurred, this, [p, done](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        done(-1, QString(), tr("cannot run %1: %2").arg(p->program(), p->errorString()));
        p->deleteLater();
    });
    p->start(cliPath(), QStringList{"remote"} + args);
}

void RemoteControl::follow(const RemoteTarget& t, const QList<qint64>& runs) {
    const QString key = t.dest + "\n" + t.cli + "\n" + t.store + "\n" + t.sweep;
    if (auto it = followers_.find(key); it != followers_.end()) {
        // Started again with the new runs (it takes every unfinished mirrored run anyway).
        QProcess* old = it->second;
        followers_.erase(it);
        running_.erase(key);
        old->disconnect(this);
        old->terminate();
        old->waitForFinished(3000);
        old->deleteLater();
    }
    QStringList args{"remote", "follow", t.dest, "--store", store_, "--retries", "1000000", "--json"};
    args << t.args();
    if (!runs.isEmpty()) {
        QStringList ids;
        for (qint64 id : runs) ids << QString::number(id);
        args << "--runs" << ids.join(",");
    }
    auto* p = new QProcess(this);
    p->setProcessEnvironment(environment());
    end_with_window(*p);   // never a second writer beside the next window's follower
    followers_[key] = p;
    // Its news as JSON lines on standard output, worded here; an error's words on standard error.
    auto news = [this, p, key] {
        p->setReadChannel(QProcess::StandardOutput);
        while (p->canReadLine() || (p->state() == QProcess::NotRunning && p->bytesAvailable() > 0)) {
            const QByteArray line = p->readLine().trimmed();
            if (line.isEmpty()) continue;
            const nlohmann::json e = nlohmann::json::parse(line.toStdString(), nullptr, false);
            if (e.is_object() && e.contains("event") && e["event"] == "end") p->setProperty("said_end", true);
            const QString m = e.is_discarded() ? QString::fromUtf8(line) : heard(key, e);
            if (!m.isEmpty()) Q_EMIT message(m);
        }
    };
    connect(p, &QProcess::readyReadStandardOutput, this, [this, news] {
        news();
        Q_EMIT changed();
    });
    connect(p, &QProcess::readyReadStandardError, this, [this, p] {
        p->setReadChannel(QProcess::StandardError);
        while (p->canReadLine()) {
            const QString line = QString::fromUtf8(p->readLine()).trimmed();
            if (!line.isEmpty()) Q_EMIT message(line);
        }
    });
    connect(p, &QProcess::finished, this, [this, p, news, key, dest = t.dest](int code, QProcess::ExitStatus st) {
        news();   // its last lines
        const QString rest = QString::fromUtf8(p->readAllStandardError()).trimmed();
        if (auto it = followers_.find(key); it != followers_.end() && it->second == p) {
            followers_.erase(it);
            running_.erase(key);
        }
        p->deleteLater();
        if (st == QProcess::NormalExit && code == 0) {
            if (!p->property("said_end").toBool()) Q_EMIT message(tr("%1: every run followed has ended").arg(dest));
        } else if (!rest.isEmpty()) {
            Q_EMIT message(rest.split('\n').last());
        }
        Q_EMIT changed();
    });
    p->start(cliPath(), args);
}

int RemoteControl::reattach(Store& store) {
    std::set<std::tuple<std::string, std::string, std::string, std::string>> targets;
    for (const RunInfo& r : store.runs()) {
        const RemoteRef ref = remote_ref(r);
        // A sweep is followed whole (its other tasks' stores may not exist yet).
        if (ref.run > 0 && (r.status == RunStatus::Queued || r.status == RunStatus::Running))
            targets.emplace(ref.dest, ref.cli, ref.sweep.empty() ? ref.store : std::string(), ref.sweep);
    }
    for (auto& [dest, cli, st, sweep] : targets)
        follow(RemoteTarget{QString::fromStdString(dest), cli.empty() ? QStringLiteral("normlab-cli") : QString::fromStdString(cli),
                            QString::fromStdString(st), QString::fromStdString(sweep)});
    return static_cast<int>(targets.size());
}

int RemoteControl::following() const { return static_cast<int>(followers_.size()); }

void RemoteControl::stopAll() {
    auto all = std::move(followers_);
    followers_.clear();
    running_.clear();
    for (auto& [key, p] : all) {
        p->disconnect(this);
        p->terminate();   // the follower stops its ssh; the runs go on on the server
        p->waitForFinished(3000);
        delete p;
    }
}

RemoteDialog::RemoteDialog(RemoteControl* remote, const QString& local_store, const QString& experiment_name,
                           std::function<QString(bool, QString*)> write_experiment, QWidget* parent)
    : QDialog(parent), remote_(remote), local_store_(local_store), write_(std::move(write_experiment)) {
    setWindowTitle(tr("Train on a server"));
    setObjectName("remoteDialog");
    auto* form = new QFormLayout;
    dest_ = new QComboBox(this);
    dest_->setEditable(true);
    dest_->addItems(ssh_config_hosts());
    dest_->setToolTip(tr("A host, user@host or an alias of ~/.ssh/config; your ssh, keys and agent are used as they are"));
    cli_ = new QLineEdit(this);
    cli_->setPlaceholderText("normlab-cli");
    cli_->setToolTip(tr("The server's normlab-cli: a full path, or a name its non-interactive shell finds on its PATH"));
    store_ = new QLineEdit(this);
    store_->setPlaceholderText(tr("its default store"));
    form->addRow(tr("Server (ssh):"), dest_);
    form->addRow(tr("NormLab on the server:"), cli_);
    form->addRow(tr("Store on the server:"), store_);
    sweep_ = new QLineEdit(this);
    sweep_->setPlaceholderText(tr("empty: train on the server itself"));
    sweep_->setToolTip(tr("A folder on the cluster: the runs are submitted there as a Slurm job array (the server is its login node), "
                          "each task into a store of its own; every task is followed live"));
    form->addRow(tr("Slurm sweep folder:"), sweep_);
    whole_ = new QRadioButton(experiment_name.isEmpty() ? tr("The opened experiment (none is open)")
                                                        : tr("The experiment \"%1\", every run").arg(experiment_name), this);
    whole_->setEnabled(!experiment_name.isEmpty());
    form_ = new QRadioButton(tr("The run the form describes"), this);
    (experiment_name.isEmpty() ? form_ : whole_)->setChecked(true);
    form->addRow(tr("Train:"), whole_);
    form->addRow(QString(), form_);
    result_ = new QLabel(tr("The runs train on the server detached: closing the window, sleep or a dropped network do not stop them. "
                            "They appear here live, marked with the server's name."), this);
    result_->setWordWrap(true);
    result_->setObjectName("remoteResult");
    result_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* buttons = new QDialogButtonBox(this);
    check_ = buttons->addButton(tr("&Check server"), QDialogButtonBox::ActionRole);
    start_ = buttons->addButton(tr("&Start"), QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Close);
    connect(check_, &QPushButton::clicked, this, &RemoteDialog::check);
    connect(start_, &QPushButton::clicked, this, &RemoteDialog::start);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* lay = new QVBoxLayout(this);
    lay->addLayout(form);
    lay->addWidget(result_);
    lay->addWidget(buttons);
    QSettings settings;
    dest_->setCurrentText(settings.value("remote/dest").toString());
    cli_->setText(settings.value("remote/cli").toString());
    store_->setText(settings.value("remote/store").toString());
    resize(560, sizeHint().height());
}

RemoteTarget RemoteDialog::target() const {
    RemoteTarget t;
    t.dest = dest_->currentText().trimmed();
    t.cli = cli_->text().trimmed().isEmpty() ? QStringLiteral("normlab-cli") : cli_->text().trimmed();
    t.store = store_->text().trimmed();
    t.sweep = sweep_->text().trimmed();
    return t;
}

void RemoteDialog::setTarget(const RemoteTarget& t) {
    dest_->setCurrentText(t.dest);
    cli_->setText(t.cli);
    store_->setText(t.store);
    sweep_->setText(t.sweep);
}

void RemoteDialog::busy(bool on) {
    check_->setEnabled(!on);
    start_->setEnabled(!on);
    setCursor(on ? Qt::BusyCursor : Qt::ArrowCursor);
}

void RemoteDialog::check() {
    const RemoteTarget t = target();
    if (t.dest.isEmpty()) {
        result_->setText(tr("Server: give a host, user@host or an alias of ~/.ssh/config."));
        return;
    }
    busy(true);
    result_->setText(tr("Checking %1…").arg(t.dest));
    remote_->command(QStringList{"check", t.dest, "--json"} + t.args(), [this](int code, const QString& out, const QString& err) {
        busy(false);
        if (code != 0) {
            result_->setText(err.trimmed().remove(QRegularExpression("^normlab-cli: ")));
            return;
        }
        const nlohmann::json c = nlohmann::json::parse(out.trimmed().toStdString(), nullptr, false);
        result_->setText(c.is_object() ? describeCheck(c) : out.trimmed());
    });
}

void RemoteDialog::start() {
    const RemoteTarget t = target();
    if (t.dest.isEmpty()) {
        result_->setText(tr("Server: give a host, user@host or an alias of ~/.ssh/config."));
        return;
    }
    QString error;
    const QString file = write_(whole_->isChecked(), &error);
    if (file.isEmpty()) {
        result_->setText(error);
        return;
    }
    QSettings settings;
    settings.setValue("remote/dest", t.dest);
    settings.setValue("remote/cli", cli_->text().trimmed());
    settings.setValue("remote/store", t.store);
    busy(true);
    result_->setText(tr("Starting on %1…").arg(t.dest));
    RemoteTarget launch = t;
    QStringList args{"run", t.dest, file, "--detach", "--store", local_store_};
    if (!t.sweep.isEmpty()) {
        args = QStringList{"sweep", t.dest, file, "--detach", "--store", local_store_, "--dir", t.sweep};
        launch.sweep.clear();   // --dir names it
    }
    remote_->command(args + launch.args(),
                     [this, t, file](int code, const QString& out, const QString& err) {
                         QFile::remove(file);
                         busy(false);
                         if (code != 0) {
                             result_->setText(err.trimmed().remove(QRegularExpression("^normlab-cli: ")));
                             return;
                         }
                         QList<qint64> ids;
                         if (t.sweep.isEmpty())
                             for (const QString& id : out.trimmed().split(',', Qt::SkipEmptyParts)) ids << id.toLongLong();
                         Q_EMIT launched(t, ids);
                         accept();
                     });
}

}  // namespace normlab
