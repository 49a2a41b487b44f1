// NormLab app: training on a server from the window (docs/REMOTE.md).
//
// The window never speaks ssh itself and never waits on it: every remote
// action is `normlab-cli remote ...` in a child process (QProcess), and each
// followed server has one `normlab-cli remote follow` writing its runs into
// the window's own store — where the run table and the charts read them as
// they read local runs, live. The window closed, the runs go on on the
// server; opened again, it follows every mirrored run that had not ended.
// A passphrase or two-factor prompt from ssh is asked in a dialog
// (SSH_ASKPASS: this program with NORMLAB_ASKPASS=1, see main.cpp).
#pragma once

#include "core/store/store.h"

#include <QDialog>
#include <QObject>
#include <QProcessEnvironment>
#include <QStringList>

#include <functional>
#include <map>

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QLineEdit;
class QProcess;
class QPushButton;
class QRadioButton;
QT_END_NAMESPACE

namespace normlab {

struct RemoteTarget {
    QString dest;                       // ssh destination
    QString cli = "normlab-cli";        // the server's normlab-cli
    QString store;                      // the server's store ("": its default)
    QString sweep;                      // a Slurm sweep's folder there ("": none)
    QStringList args() const;           // DEST-independent options: --remote-cli, --remote-store, --sweep
};

class RemoteControl : public QObject {
    Q_OBJECT
public:
    RemoteControl(const QString& store_path, QObject* parent = nullptr);
    ~RemoteControl() override;
    // normlab-cli beside this program ($NORMLAB_CLI overrides; else the PATH's).
    static QString cliPath();
    // The environment of every child: ssh's prompts go to a dialog.
    static QProcessEnvironment environment();

    // Follows the server's `runs` (its ids) and every unfinished run mirrored from it.
    void follow(const RemoteTarget& t, const QList<qint64>& runs = {});
    // A follower for every server some unfinished mirrored run of `store` comes from.
    int reattach(Store& store);
    // `normlab-cli remote ARGS`; `done(exit code, stdout, stderr)` on the GUI thread. With `line`, each
    // line of its stdout is handed to it as it comes (and is not in `done`'s).
    void command(const QStringList& args, std::function<void(int, const QString&, const QString&)> done,
                 std::function<void(const QByteArray&)> line = {});
    int following() const;
    void stopAll();                     // the runs go on on the server
    // A follower's event (`remote follow --json`: a run's status or progress, the connection's
    // news) worded for the status bar in the window's language; "" for one not to show.
    static QString describe(const nlohmann::json& event);
    // The status bar's line for an event of the follower `key`: describe()'s, but while several of
    // its runs train (a sweep), the first one's progress with how many more are running.
    QString heard(const QString& key, const nlohmann::json& event);

Q_SIGNALS:
    void message(const QString& text);  // for the status bar
    void changed();                     // a follower reported news: reload the runs

private:
    QString store_;
    std::map<QString, QProcess*> followers_;   // "dest\ncli\nstore" → its follower
    std::map<QString, std::map<qint64, QString>> running_;   // by follower: its running runs' progress lines
};

// Run → Train on a server…: where, what, check, start.
class RemoteDialog : public QDialog {
    Q_OBJECT
public:
    // `experiment_name`: the opened experiment's name ("" when none is open).
    RemoteDialog(RemoteControl* remote, const QString& local_store, const QString& experiment_name,
                 std::function<QString(bool whole, QString* error)> write_experiment, QWidget* parent = nullptr);
    RemoteTarget target() const;
    QPushButton* checkButton() const { return check_; }
    QPushButton* startButton() const { return start_; }
    QLabel* result() const { return result_; }
    void setTarget(const RemoteTarget& t);
    // `remote check --json`'s answer worded in the window's language: NormLab there, its store, its GPUs.
    static QString describeCheck(const nlohmann::json& check);

Q_SIGNALS:
    // Runs started (their ids there), or a sweep submitted (`runs` empty, t.sweep its folder).
    void launched(const RemoteTarget& t, const QList<qint64>& runs);

private:
    void check();
    void start();
    void busy(bool on);
    RemoteControl* remote_;
    QString local_store_;
    std::function<QString(bool, QString*)> write_;
    QComboBox* dest_ = nullptr;
    QLineEdit* cli_ = nullptr;
    QLineEdit* store_ = nullptr;
    QLineEdit* sweep_ = nullptr;
    QRadioButton* whole_ = nullptr;
    QRadioButton* form_ = nullptr;
    QPushButton* check_ = nullptr;
    QPushButton* start_ = nullptr;
    QLabel* result_ = nullptr;
};

// A time left: "4:05", "1:02:03"; "—" where not known.
QString format_eta(double seconds);

// The aliases of ~/.ssh/config (Host lines without wildcards), for the destination's list.
QStringList ssh_config_hosts();

}  // namespace normlab
