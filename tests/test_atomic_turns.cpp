// Two writers of one file take turns (core/atomic_file.h). Before, both wrote
// into the one FILE.tmp: exporting run 1 and run 2 to one CSV at once, the
// first's rename moved the second's bytes into place; the first reported
// "run 1" for a file that held run 2, the second "nothing was written" for
// the file it had filled. Now the second waits while the first holds the
// temporary, and each then writes, whole, what it says.
//
// A writer waits in flock(2): each test sees it wait in /proc/locks (a
// blocked request, "->", with the waiter's pid and the temporary's inode)
// before it lets the first go on, so no test depends on a time.
#include "core/atomic_file.h"
#include "core/store/store.h"
#include "tests/cli_harness.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <csignal>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The inode of the file at `path`, 0 when there is none.
unsigned long inode_of(const QString& path) {
    struct stat st {};
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? static_cast<unsigned long>(st.st_ino) : 0;
}

// Whether process `pid` waits for a flock on inode `ino` ("1: -> FLOCK ADVISORY WRITE PID MAJ:MIN:INO 0 EOF").
bool waits_for(qint64 pid, unsigned long ino) {
    std::ifstream in("/proc/locks");
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        std::string n, arrow, kind, advisory, mode, who, where;
        if (!(f >> n >> arrow >> kind >> advisory >> mode >> who >> where)) continue;
        const std::string tail = ":" + std::to_string(ino);
        if (arrow == "->" && kind == "FLOCK" && who == std::to_string(pid) && where.size() > tail.size() &&
            where.compare(where.size() - tail.size(), tail.size(), tail) == 0)
            return true;
    }
    return false;
}

// Polls waits_for until it holds, or until `went_on` (the writer did not wait), up to two minutes (a
// sanitizer's build starts slowly).
bool seen_waiting(qint64 pid, unsigned long ino, const std::function<bool()>& went_on) {
    for (int i = 0; i < 12000 && !went_on(); ++i) {
        if (waits_for(pid, ino)) return true;
        QThread::msleep(10);
    }
    return false;
}

QByteArray read_all(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<none>");
}

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System); }

// A second writer of `path` on a thread of its own, started while `first` holds the file: it opens (waiting
// its turn), writes `text` and commits. Gone (a failed check), it lets `first` go before it joins.
class SecondWriter {
public:
    SecondWriter(std::unique_ptr<normlab::AtomicFile>& first, const QString& path, std::string text)
        : first_(first), thread_([this, p = path.toStdString(), t = std::move(text)] {
              normlab::AtomicFile f(p);
              opened_ = true;
              committed_ = f.ok() && f.write(t) && f.commit();
          }) {}
    ~SecondWriter() {
        first_.reset();
        join();
    }
    SecondWriter(const SecondWriter&) = delete;
    SecondWriter& operator=(const SecondWriter&) = delete;
    // Whether it is seen waiting for the first's temporary (inode `held`), before it opened.
    bool waits(unsigned long held) const {
        return seen_waiting(QCoreApplication::applicationPid(), held, [this] { return opened_.load(); });
    }
    bool committed() {
        join();
        return committed_;
    }

private:
    void join() {
        if (thread_.joinable()) thread_.join();
    }
    std::unique_ptr<normlab::AtomicFile>& first_;
    std::atomic<bool> opened_{false}, committed_{false};
    std::thread thread_;
};

}  // namespace

class TestAtomicTurns : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString store_;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QVERIFY2(QFile::exists("/proc/locks"), "these tests read Linux's /proc/locks");
        store_ = dir_.filePath("runs.sqlite");
        normlab::Store s(store_.toStdString());
        const int64_t id = s.create_run("a run", "pre_ln", nlohmann::json{{"scheme", "pre_ln"}}, 1);
        s.mark_running(id, "cpu", nlohmann::json::object());
        {
            normlab::RunWriter w(s, id, 1e9);
            for (int step = 0; step < 500; ++step) w.scalar("train/loss", step, 5.0 / (1 + step));
        }
        s.finish_run(id, normlab::RunStatus::Finished, 500, "", std::nan(""));
    }

    // In one process (two threads, as a window's export and its autosave): the second waits in its
    // constructor until the first commits, then replaces the first's file with its own, whole.
    void theSecondWriterWaitsForTheFirst() {
        QTemporaryDir dir;
        const QString path = dir.filePath("figure.csv");
        auto first = std::make_unique<normlab::AtomicFile>(path.toStdString());
        QVERIFY(first->ok() && first->write("first, part one\n"));
        const unsigned long held = inode_of(path + ".tmp");
        SecondWriter second(first, path, "second, whole\n");
        QVERIFY2(second.waits(held), "the second writer did not wait");
        QVERIFY(first->write("first, part two\n") && first->commit());
        first.reset();
        QVERIFY(second.committed());
        QCOMPARE(read_all(path), QByteArray("second, whole\n"));
        QCOMPARE(entries(dir.path()), QStringList{"figure.csv"});
    }

    // A first writer that gives up (a failed export) removes its temporary; the one waiting makes its own.
    void aWriterThatGivesUpLetsTheNextIn() {
        QTemporaryDir dir;
        const QString path = dir.filePath("w.safetensors");
        cli_harness::write_file(path, "the weights before\n");
        auto first = std::make_unique<normlab::AtomicFile>(path.toStdString());
        QVERIFY(first->write("half of it"));
        const unsigned long held = inode_of(path + ".tmp");
        SecondWriter second(first, path, "the second's, whole\n");
        QVERIFY2(second.waits(held), "the second writer did not wait");
        first.reset();   // destroyed without a commit
        QVERIFY(second.committed());
        QCOMPARE(read_all(path), QByteArray("the second's, whole\n"));
        QCOMPARE(entries(dir.path()), QStringList{"w.safetensors"});
    }

    // A temporary a killed writer left (held by nobody) is emptied and used, not waited for.
    void aTemporaryLeftByAKilledWriterIsUsed() {
        QTemporaryDir dir;
        const QString path = dir.filePath("run.csv");
        cli_harness::write_file(path + ".tmp", std::string(10000, 'x'));
        normlab::AtomicFile f(path.toStdString());
        QVERIFY(f.ok() && f.write("new\n") && f.commit());
        QCOMPARE(read_all(path), QByteArray("new\n"));
        QCOMPARE(entries(dir.path()), QStringList{"run.csv"});
    }

    // A writer with a bounded wait (the window's) gives up busy() when the other keeps the file, and takes
    // nothing from it: the other's temporary stays, and its commit lands.
    void aBoundedWaitGivesUpBusy() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fig.pdf");
        normlab::AtomicFile held(path.toStdString());
        QVERIFY(held.write("the other's\n"));
        normlab::AtomicFile late(path.toStdString(), std::chrono::milliseconds(200));
        QVERIFY(!late.ok() && late.busy());
        QCOMPARE(QString::fromStdString(late.why()), QString("another program is writing it now; try again once that has finished"));
        QVERIFY(!late.write("mine\n") && !late.commit());
        QVERIFY(held.commit());
        QCOMPARE(read_all(path), QByteArray("the other's\n"));
        QCOMPARE(entries(dir.path()), QStringList{"fig.pdf"});
    }

    // normlab-cli export onto a file the window is writing: it waits, then writes the run, and says so
    // truly. Stopped while it waits (Ctrl-C), it says that nothing was written, and the window's file stands.
    void anExportWaitsForTheWindowsWrite() {
        const cli_harness::Result ref = cli_harness::cli({"export", "1", "--csv", "--store", store_});
        QVERIFY2(ref.code == 0 && ref.out.size() > 1000, qPrintable(ref.err));
        for (const bool stop : {false, true}) {
            const QString out = dir_.filePath(stop ? "stopped.csv" : "waited.csv");
            auto window = std::make_unique<normlab::AtomicFile>(out.toStdString());
            QVERIFY(window->write("the window's figure data\n"));
            QProcess p;
            p.start(QStringLiteral(NORMLAB_CLI), {"export", "1", "--csv", "--out", out, "--store", store_});
            QVERIFY(p.waitForStarted());
            QVERIFY2(seen_waiting(p.processId(), inode_of(out + ".tmp"), [&] { return p.waitForFinished(0); }),
                     "the export did not wait for the temporary");
            if (stop) ::kill(static_cast<pid_t>(p.processId()), SIGINT);
            else QVERIFY(window->commit());
            QVERIFY(p.waitForFinished(120000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(err.contains("another program is writing " + out + "; waiting until it has finished (Ctrl-C stops)"),
                     qPrintable(err));
            if (stop) {
                QCOMPARE(p.exitCode(), 130);
                QVERIFY2(err.contains("export stopped; nothing was written to " + out), qPrintable(err));
                QVERIFY(!QFile::exists(out));
                QVERIFY(window->commit());
                QCOMPARE(read_all(out), QByteArray("the window's figure data\n"));
            } else {
                QVERIFY2(p.exitCode() == 0 && err.contains(out + ": run 1, 500 points"), qPrintable(err));
                QCOMPARE(QString::fromUtf8(read_all(out)), ref.out);   // the run, whole, over the window's file
            }
            window.reset();
            QVERIFY(!QFile::exists(out + ".tmp"));
        }
    }
};

QTEST_GUILESS_MAIN(TestAtomicTurns)
#include "test_atomic_turns.moc"
