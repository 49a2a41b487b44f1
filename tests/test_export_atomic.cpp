// Every file NormLab writes for a user is replaced only once it is whole: a
// write that fails part-way (here a file-size limit, as a full disk fails it)
// reports "cannot write PATH: why" and leaves the figure, CSV, SVG or
// experiment that was at PATH byte for byte, with no temporary beside it.
// Before, the window's figures and CSVs and normlab-cli plot's SVGs truncated
// the file they replaced, and the designer's Save (QSaveFile, whose commit()
// in Qt 6.4 returns true after a failed buffered write) moved a truncated
// experiment over the user's; each reported success.
#include "core/atomic_file.h"
#include "core/store/store.h"
#include "tests/cli_harness.h"
#include "widgets/designer.h"
#include "widgets/figure.h"

#include <QApplication>
#include <QFileInfo>
#include <QPainter>
#include <QProcess>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <map>
#include <thread>

#include <fcntl.h>
#include <linux/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace {

constexpr rlim_t kLimit = 256;   // bytes: less than any figure, CSV or SVG written here

// From now on in this process, a write past kLimit bytes of a file fails (EFBIG, SIGXFSZ ignored), as a
// full disk's fails (ENOSPC). False when the limit could not be set.
bool limit_file_size() {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit l{};
    ::getrlimit(RLIMIT_FSIZE, &l);
    l.rlim_cur = kLimit;
    return ::setrlimit(RLIMIT_FSIZE, &l) == 0;
}

// limit_file_size() while it lives.
class FileSizeLimit {
public:
    FileSizeLimit() {
        ::getrlimit(RLIMIT_FSIZE, &saved_);
        old_ = std::signal(SIGXFSZ, SIG_IGN);
        ok_ = limit_file_size();
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &saved_);
        std::signal(SIGXFSZ, old_);
    }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;
    bool ok() const { return ok_; }

private:
    rlimit saved_{};
    void (*old_)(int) = SIG_DFL;
    bool ok_ = false;
};

// A figure with some ink: `lines` lines and labels, so that each version's bytes differ.
bool figure(const QString& path, const QString& format, int lines, QString* error) {
    if (format == "csv")
        return normlab::write_text(path, [&](QTextStream& out) {
            out << "curve,step,value\n";
            for (int i = 0; i < 40 * lines; ++i) out << "\"run " << lines << "\"," << i << ',' << 1.0 / (i + 1) << '\n';
        }, error);
    return normlab::write_figure(path, format, 150, QSize(400, 300), QString("figure %1").arg(lines),
                                 [&](QPainter& p, const QRectF& r) {
                                     for (int i = 0; i < lines; ++i) {
                                         p.setPen(QColor::fromHsv((40 * i) % 360, 200, 200));
                                         p.drawLine(r.topLeft(), QPointF(r.right(), r.top() + r.height() * i / lines));
                                         p.drawText(QPointF(10, 20 + 12 * i), QString("layer %1 of %2").arg(i).arg(lines));
                                     }
                                 },
                                 error);
}

QStringList entries(const QString& dir) { return QDir(dir).entryList(QDir::Files | QDir::Hidden | QDir::System); }

// A normlab-cli started in `p`, once it has finished: its exit code (-1 on a timeout, -2 on a crash) and what it said.
cli_harness::Result finished(QProcess& p) {
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, "timeout"};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// normlab-cli with a file-size limit of its own (set in the child only).
cli_harness::Result limited_cli(const QStringList& args) {
    QProcess p;
    p.setChildProcessModifier([] { limit_file_size(); });
    p.start(QStringLiteral(NORMLAB_CLI), args);
    return finished(p);
}

// A store at `path` with one finished run of `steps` steps: a loss and a 4-layer gradient.
void make_store(const QString& path, int steps) {
    normlab::Store s(path.toStdString());
    const int64_t id = s.create_run("a run", "pre_ln", nlohmann::json{{"scheme", "pre_ln"}}, 1);
    s.mark_running(id, "cpu", nlohmann::json::object());
    {
        normlab::RunWriter w(s, id, 1e9);
        for (int step = 0; step < steps; ++step) {
            w.scalar("train/loss", step, 5.0 / (1 + step));
            for (int l = 0; l < 4; ++l) w.layer("grad_l1/fc1", l, step, 1e-3 * (l + 1) / (step + 1));
        }
    }
    s.finish_run(id, normlab::RunStatus::Finished, steps, "", std::nan(""));
}

// Reads a FIFO to its end on a thread of its own, as a program downstream of it would.
class FifoReader {
public:
    explicit FifoReader(const QString& path)
        : thread_([this, p = path.toStdString()] {
              const int fd = ::open(p.c_str(), O_RDONLY);
              char buf[65536];
              for (ssize_t n; fd >= 0 && (n = ::read(fd, buf, sizeof buf)) > 0;) got_.append(buf, n);
              if (fd >= 0) ::close(fd);
          }) {}
    QByteArray take() {
        thread_.join();
        return got_;
    }

private:
    QByteArray got_;
    std::thread thread_;
};

mode_t kind_of(const QString& path) {
    struct stat st {};
    return ::lstat(path.toUtf8().constData(), &st) == 0 ? (st.st_mode & S_IFMT) : 0;
}

// While it lives, this thread (root's, as CI's is) is held to the files' permissions as any user is: its
// effective set without CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH and CAP_FOWNER, given back at the end.
// (Credentials are a thread's own: the raw capset changes no other thread.) Without root, nothing to do.
class AsAnyUser {
public:
    AsAnyUser() {
        if (::geteuid() != 0 || ::syscall(SYS_capget, &header_, saved_) != 0) return;
        __user_cap_data_struct held[2];
        std::memcpy(held, saved_, sizeof held);
        for (int cap : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) held[cap / 32].effective &= ~(1u << (cap % 32));
        dropped_ = ::syscall(SYS_capset, &header_, held) == 0;
    }
    ~AsAnyUser() {
        if (dropped_) ::syscall(SYS_capset, &header_, saved_);
    }
    AsAnyUser(const AsAnyUser&) = delete;
    AsAnyUser& operator=(const AsAnyUser&) = delete;

private:
    __user_cap_header_struct header_{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct saved_[2]{};
    bool dropped_ = false;
};

// Whether a file can be made in `dir` (by this thread, as it stands): the cases below test something only where not.
bool can_make_a_file_in(const QString& dir) {
    const std::string probe = QFile::encodeName(dir + "/probe").toStdString();
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    ::close(fd);
    ::unlink(probe.c_str());
    return true;
}

// normlab-cli as any user: root's capabilities dropped (setpriv, util-linux) as AsAnyUser drops this thread's.
cli_harness::Result cli_as_any_user(const QStringList& args) {
    QProcess p;
    if (::geteuid() == 0)
        p.start("setpriv", QStringList{"--bounding-set=-all", "--inh-caps=-all", "--ambient-caps=-all", QStringLiteral(NORMLAB_CLI)} + args);
    else
        p.start(QStringLiteral(NORMLAB_CLI), args);
    return finished(p);
}

}  // namespace

class TestExportAtomic : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void aFailedWriteLeavesTheFileBefore_data() {
        QTest::addColumn<QString>("format");
        for (const char* f : {"png", "svg", "pdf", "csv"}) QTest::newRow(f) << QString(f);
    }
    void aFailedWriteLeavesTheFileBefore() {
        QFETCH(QString, format);
        QTemporaryDir dir;
        const QString path = dir.filePath("figure." + format);
        QString error;
        QVERIFY2(figure(path, format, 12, &error), qPrintable(error));
        const QByteArray before = cli_harness::bytes_of(path);
        QVERIFY(before.size() > qsizetype(kLimit));
        bool written = true;
        {
            FileSizeLimit limit;
            QVERIFY(limit.ok());
            written = figure(path, format, 30, &error);
        }
        QVERIFY2(!written, "a write past the limit reported success");
        QVERIFY2(error.startsWith("cannot write " + path + ": "), qPrintable(error));   // and why
        QCOMPARE(cli_harness::bytes_of(path), before);
        QCOMPARE(entries(dir.path()), QStringList{"figure." + format});   // no temporary left beside it
        // and with room again, the new version replaces it whole
        QVERIFY2(figure(path, format, 30, &error), qPrintable(error));
        QVERIFY(cli_harness::bytes_of(path) != before);
        QCOMPARE(entries(dir.path()), QStringList{"figure." + format});
    }

    // A figure the window writes while another program writes the same file (an export from a terminal,
    // perhaps stopped there with Ctrl-Z): refused after a short wait, saying why, the other's file untouched.
    void aFigureAnotherProgramIsWritingIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("shared.csv");
        normlab::AtomicFile other(path.toStdString());
        QVERIFY(other.write("the other program's\n"));
        for (const char* format : {"pdf", "csv"}) {
            QString error;
            QVERIFY(!figure(path, format, 5, &error));
            QCOMPARE(error, "cannot write " + path + ": another program is writing it now; try again once that has finished");
        }
        QVERIFY(other.commit());
        QCOMPARE(cli_harness::bytes_of(path), QByteArray("the other program's\n"));
        QCOMPARE(entries(dir.path()), QStringList{"shared.csv"});
    }

    // No file before: none after a failed write, not an empty or partial one.
    void aFailedFirstWriteLeavesNothing() {
        QTemporaryDir dir;
        for (const char* format : {"png", "svg", "pdf", "csv"}) {
            QString error;
            FileSizeLimit limit;
            QVERIFY(!figure(dir.filePath(QString("new.") + format), format, 20, &error));
        }
        QCOMPARE(entries(dir.path()), QStringList{});
    }

    // A replaced figure keeps the file's permissions (a figure shared with a group stays shared).
    void aReplacedFigureKeepsItsPermissions() {
        QTemporaryDir dir;
        const QString path = dir.filePath("shared.pdf");
        QString error;
        QVERIFY(figure(path, "pdf", 3, &error));
        const auto perms = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup | QFileDevice::WriteGroup;
        QVERIFY(QFile::setPermissions(path, perms));
        QVERIFY(figure(path, "pdf", 5, &error));
        QCOMPARE(QFileInfo(path).permissions() & ~(QFileDevice::ReadUser | QFileDevice::WriteUser), perms);
    }

    // A write-protected file stays: refused, as writing into it was (a rename would have passed over it).
    void aWriteProtectedFileIsRefused() {
        QTemporaryDir dir;
        const QString path = dir.filePath("final.pdf");
        QString error;
        QVERIFY(figure(path, "pdf", 3, &error));
        const QByteArray before = cli_harness::bytes_of(path);
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
        QVERIFY(!figure(path, "pdf", 5, &error));
        QCOMPARE(error, "cannot write " + path + ": it is write-protected (" + QString::fromLocal8Bit(std::strerror(EACCES)) +
                            "); make it writable or choose another name");
        QCOMPARE(cli_harness::bytes_of(path), before);
        QCOMPARE(entries(dir.path()), QStringList{"final.pdf"});
    }

    // A file that may be written, in a folder that may not: refused (its temporary cannot be made beside
    // it), and the message names the folder. It said "Permission denied" alone, and `ls -l` showed the
    // file writable. The window's figure and normlab-cli's export alike; the file stays as it was.
    void aFolderThatCannotBeWrittenIsNamed() {
        QTemporaryDir dir;
        const QString ro = dir.filePath("shared"), path = ro + "/fig.pdf", csv = ro + "/out.csv", store = dir.filePath("runs.sqlite");
        QVERIFY(QDir().mkdir(ro));
        make_store(store, 20);
        QString error;
        QVERIFY2(figure(path, "pdf", 3, &error), qPrintable(error));
        QVERIFY(cli_harness::cli({"export", "1", "--csv", "--out", csv, "--store", store}).code == 0);
        const QByteArray pdf = cli_harness::bytes_of(path), csv_before = cli_harness::bytes_of(csv);
        QVERIFY(::chmod(QFile::encodeName(path).constData(), 0666) == 0 && ::chmod(QFile::encodeName(csv).constData(), 0666) == 0);
        QVERIFY(::chmod(QFile::encodeName(ro).constData(), 0555) == 0);
        struct Restore {
            QString dir;
            ~Restore() { ::chmod(QFile::encodeName(dir).constData(), 0755); }
        } restore{ro};
        const QString denied = QString::fromLocal8Bit(std::strerror(EACCES));
        {
            AsAnyUser user;
            QVERIFY2(!can_make_a_file_in(ro), "the folder was writable: the case tests nothing");
            QVERIFY(!figure(path, "pdf", 5, &error));
        }
        QCOMPARE(error, "cannot write " + path + ": the folder " + ro + " cannot be written in (" + denied +
                            "): a file is first saved there as fig.pdf.tmp and then renamed, so that a save cut short never "
                            "leaves half a file; choose a folder you can write");
        const cli_harness::Result r = cli_as_any_user({"export", "1", "--csv", "--out", csv, "--store", store});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.contains("--out " + csv + ": cannot write it: the folder " + ro + " cannot be written in (" + denied +
                                "): a file is first saved there as out.csv.tmp and then renamed over out.csv"),
                 qPrintable(r.err));
        QCOMPARE(cli_harness::bytes_of(path), pdf);
        QCOMPARE(cli_harness::bytes_of(csv), csv_before);
        QCOMPARE(entries(ro), (QStringList{"fig.pdf", "out.csv"}));
    }

    // A FILE.tmp that may not be written, in the way (another user's unfinished save): named, and left alone.
    // (Had root kept its capabilities, it would have written the figure: the case then fails.)
    void aTemporaryInTheWayIsNamed() {
        QTemporaryDir dir;
        const QString path = dir.filePath("fig.pdf"), tmp = path + ".tmp";
        QString error;
        QVERIFY2(figure(path, "pdf", 3, &error), qPrintable(error));
        const QByteArray pdf = cli_harness::bytes_of(path);
        cli_harness::write_file(tmp, "someone's half a figure");
        QVERIFY(::chmod(QFile::encodeName(tmp).constData(), 0444) == 0);
        {
            AsAnyUser user;
            QVERIFY(!figure(path, "pdf", 5, &error));
        }
        QCOMPARE(error, "cannot write " + path + ": " + tmp + ", an unfinished save's file, is in the way and cannot be written (" +
                            QString::fromLocal8Bit(std::strerror(EACCES)) + "); remove it or choose another name");
        QCOMPARE(cli_harness::bytes_of(path), pdf);
        QCOMPARE(cli_harness::bytes_of(tmp), QByteArray("someone's half a figure"));
    }

    // A device, FIFO or socket is written into, never replaced: a temporary renamed over it had made
    // `export --out /dev/null`, run as root, turn /dev/null into a regular file (and as anyone else fail
    // for want of room in /dev); a named pipe downstream lost its reader the same way.
    void aDeviceOrPipeIsWrittenIntoNotReplaced() {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("pipe.csv");
        QVERIFY(::mkfifo(fifo.toUtf8().constData(), 0600) == 0);
        FifoReader reader(fifo);
        QString error;
        QVERIFY2(figure(fifo, "csv", 3, &error), qPrintable(error));
        // (checked before the reader is joined: had the FIFO been replaced, its reader would wait for ever,
        // and the test ends here, the reader's thread with it)
        QCOMPARE(kind_of(fifo), mode_t(S_IFIFO));
        const QByteArray got = reader.take();
        QVERIFY(figure(dir.filePath("file.csv"), "csv", 3, &error));
        QCOMPARE(got, cli_harness::bytes_of(dir.filePath("file.csv")));   // every byte, as a file has them
        QVERIFY(QFile::remove(dir.filePath("file.csv")));
        QCOMPARE(entries(dir.path()), QStringList{"pipe.csv"});
        // the CLI's export and plot's SVGs the same (and a null device where this may make one: root, as CI)
        const QString store = dir.filePath("runs.sqlite");
        make_store(store, 50);
        FifoReader cli_reader(fifo);
        const cli_harness::Result r = cli_harness::cli({"export", "1", "--csv", "--out", fifo, "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QCOMPARE(kind_of(fifo), mode_t(S_IFIFO));
        QVERIFY(cli_reader.take().contains("train/loss"));
        const QString null = dir.filePath("null");
        if (::mknod(null.toUtf8().constData(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
            const cli_harness::Result n = cli_harness::cli({"export", "1", "--json", "--out", null, "--store", store});
            QVERIFY2(n.code == 0, qPrintable(n.err));
            QCOMPARE(kind_of(null), mode_t(S_IFCHR));
            QVERIFY(figure(null, "pdf", 3, &error));
            QCOMPARE(kind_of(null), mode_t(S_IFCHR));
        } else {
            qInfo("no null device made here (not root): the FIFO stands for it");
        }
    }

    // The designer's Save over the experiment it opened: Qt 6.4's QSaveFile::commit() alone had
    // moved the first 256 bytes over it and the window had said Saved.
    void aFailedSaveKeepsTheExperiment() {
        QTemporaryDir dir;
        const QString path = dir.filePath("mine.json");
        QVERIFY(QFile::copy(NORMLAB_SOURCE_DIR "/experiments/all_schemes.json", path));
        const QByteArray before = cli_harness::bytes_of(path);
        normlab::Designer d;
        QString error;
        QVERIFY2(d.openExperiment(path, &error), qPrintable(error));
        auto* warmup = qobject_cast<QSpinBox*>(d.field("optim.schedule.warmup"));
        QVERIFY(warmup);
        warmup->setValue(warmup->value() + 7);
        bool saved = true;
        {
            FileSizeLimit limit;
            saved = d.saveExperiment(path, &error);
        }
        QVERIFY2(!saved, "a save past the limit reported success");
        QVERIFY2(error.contains("File too large"), qPrintable(error));
        QVERIFY(d.isModified());   // the change is still the form's, to be saved again
        QCOMPARE(cli_harness::bytes_of(path), before);
        QCOMPARE(entries(dir.path()), QStringList{"mine.json"});
        QVERIFY2(d.saveExperiment(path, &error), qPrintable(error));
        QVERIFY(!d.isModified());
        QVERIFY(cli_harness::bytes_of(path) != before);
    }

    // normlab-cli plot's SVGs and export's files: a failed rewrite keeps the ones before.
    void theCliKeepsItsFilesBefore() {
        QTemporaryDir dir;
        const QString store = dir.filePath("runs.sqlite");
        make_store(store, 200);
        const QString plots = dir.filePath("plots"), csv = dir.filePath("run.csv");
        cli_harness::Result r = cli_harness::cli({"plot", "--store", store, "--out", plots});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = cli_harness::cli({"export", "1", "--csv", "--out", csv, "--store", store});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QStringList svgs = entries(plots);
        QVERIFY(!svgs.isEmpty());
        std::map<QString, QByteArray> before;
        for (const QString& f : svgs) before[f] = cli_harness::bytes_of(plots + "/" + f);
        const QByteArray csv_before = cli_harness::bytes_of(csv);

        r = limited_cli({"plot", "--store", store, "--out", plots});
        QVERIFY2(r.code != 0, qPrintable(r.out));
        QVERIFY2(r.err.contains("failed: File too large; nothing was written"), qPrintable(r.err));
        QCOMPARE(entries(plots), svgs);
        for (const QString& f : svgs) QCOMPARE(cli_harness::bytes_of(plots + "/" + f), before[f]);

        r = limited_cli({"export", "1", "--csv", "--out", csv, "--store", store});
        QVERIFY2(r.code != 0, qPrintable(r.out));
        QCOMPARE(cli_harness::bytes_of(csv), csv_before);
        QVERIFY(!QFileInfo::exists(csv + ".tmp"));
    }
};

QTEST_MAIN(TestExportAtomic)
#include "test_export_atomic.moc"
