// NormLab widgets: write_figure (see figure.h).
#include "widgets/figure.h"

#include "core/atomic_file.h"
#include "core/errors.h"
#include "core/store/output_guard.h"
#include "widgets/math_text.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextStream>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace normlab {

QString refused_output(const QString& path) {
    try {
        check_output_path(path.toStdString(), "the export");
    } catch (const ConfigError& e) {
        return QString::fromStdString(e.message());
    }
    return {};
}

namespace {

// A QIODevice onto an AtomicFile: what QPdfWriter, QSvgGenerator, QImageWriter
// and QTextStream write goes to PATH.tmp, and PATH is replaced by commit()
// only when all of it was written. (Not QSaveFile: Qt 6.4's commit() returns
// true after a buffered write failed and moves the truncated file into place,
// QTBUG-75077.)
class AtomicDevice : public QIODevice {
public:
    // Another program writing the same file (an export from a terminal) has it for up to kWait first, and
    // then the window says so rather than hang on it.
    static constexpr std::chrono::seconds kWait{3};
    explicit AtomicDevice(const QString& path) : file_(QFile::encodeName(path).toStdString(), kWait) {
        if (file_.ok()) QIODevice::open(QIODevice::WriteOnly);
    }
    bool commit() {
        if (isOpen()) QIODevice::close();
        return file_.commit();
    }
    // What kept the file from being written, naming what to change (AtomicFile::Refusal), in the window's language.
    QString why() const {
        using R = AtomicFile::Refusal;
        const QString sys = QString::fromLocal8Bit(std::strerror(file_.error()));
        const QString folder = QFile::decodeName(file_.folder().c_str()), tmp = QFile::decodeName(file_.temporary().c_str());
        switch (file_.refusal()) {
        case R::busy:
            return QCoreApplication::translate("normlab::Figure",
                                               "another program is writing it now; try again once that has finished");
        case R::write_protected:
            return QCoreApplication::translate("normlab::Figure",
                                               "it is write-protected (%1); make it writable or choose another name")
                .arg(sys);
        case R::folder:
            if (file_.error() == ENOENT || file_.error() == ENOTDIR)
                return QCoreApplication::translate("normlab::Figure", "the folder %1 does not exist").arg(folder);
            return QCoreApplication::translate("normlab::Figure",
                                               "the folder %1 cannot be written in (%2): a file is first saved there "
                                               "as %3 and then renamed, so that a save cut short never leaves half a "
                                               "file; choose a folder you can write")
                .arg(folder, sys, QFileInfo(tmp).fileName());
        case R::temporary:
            return QCoreApplication::translate("normlab::Figure",
                                               "%1, an unfinished save's file, is in the way and cannot be written "
                                               "(%2); remove it or choose another name")
                .arg(tmp, sys);
        case R::none:
        case R::other:
            break;
        }
        return QString::fromLocal8Bit(file_.why().c_str());
    }

protected:
    qint64 readData(char*, qint64) override { return -1; }
    qint64 writeData(const char* data, qint64 n) override { return file_.write(data, static_cast<size_t>(n)) ? n : -1; }

private:
    AtomicFile file_;
};

// "cannot write PATH: why" (the system's reason, where there is one).
QString cannot_write(const QString& path, const AtomicDevice& dev) {
    QString text = QCoreApplication::translate("normlab::Figure", "cannot write %1").arg(path);
    if (const QString why = dev.why(); !why.isEmpty()) text += ": " + why;
    return text;
}

}  // namespace

bool write_figure(const QString& path, const QString& format, int dpi, QSize size, const QString& title,
                  const std::function<void(QPainter&, const QRectF&)>& draw, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    if (QString why = refused_output(path); !why.isEmpty()) return fail(why);
    const QString f = format.toLower();
    if (f != "png" && f != "svg" && f != "pdf")
        return fail(QCoreApplication::translate("normlab::Figure", "unknown format %1; use png, svg, pdf or csv").arg(format));
    if (size.isEmpty()) size = QSize(800, 500);
    AtomicDevice file(path);
    // Drawn and written whole, the file replaces what was at `path`; else nothing of it stays.
    auto finish = [&](bool drawn) { return drawn && file.commit() ? true : fail(cannot_write(path, file)); };
    if (!file.isOpen()) return finish(false);
    QPainter p;
    if (f == "png") {
        const double scale = std::max(1, dpi) / 96.0;
        QImage img(QSize(int(size.width() * scale), int(size.height() * scale)), QImage::Format_ARGB32);
        if (img.isNull()) return finish(false);   // too large to hold
        img.fill(Qt::white);
        img.setDotsPerMeterX(int(dpi / 0.0254));
        img.setDotsPerMeterY(int(dpi / 0.0254));
        p.begin(&img);
        p.setRenderHint(QPainter::Antialiasing);
        draw(p, QRectF(QPointF(0, 0), QSizeF(img.size())));
        p.end();
        return finish(img.save(&file, "PNG"));
    }
    if (f == "svg") {
        QSvgGenerator gen;
        gen.setOutputDevice(&file);
        gen.setSize(size);
        gen.setResolution(96);   // sizes here are 96 dpi pixels (the PDF's too); Qt's default, 72, declared 4/3 the size
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(math_text::plain(title));   // the document's title: plain text
        gen.setDescription(QStringLiteral("NormLab figure"));
        if (!p.begin(&gen)) return finish(false);
        draw(p, QRectF(QPointF(0, 0), QSizeF(size)));
        return finish(p.end());
    }
    QPdfWriter pdf(&file);
    pdf.setResolution(std::max(96, dpi));
    pdf.setPageSize(QPageSize(QSizeF(size.width() * 25.4 / 96.0, size.height() * 25.4 / 96.0), QPageSize::Millimeter));
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setTitle(math_text::plain(title));
    pdf.setCreator(QStringLiteral("NormLab"));
    if (!p.begin(&pdf)) return finish(false);
    draw(p, QRectF(0, 0, pdf.width(), pdf.height()));
    return finish(p.end());
}

QString csv_field(const QString& s) {
    if (!s.contains(',') && !s.contains('"') && !s.contains('\n')) return s;
    return '"' + QString(s).replace('"', "\"\"") + '"';
}

bool write_text(const QString& path, const std::function<void(QTextStream&)>& body, QString* error) {
    if (QString why = refused_output(path); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    AtomicDevice file(path);
    if (file.isOpen()) {
        QTextStream out(&file);
        body(out);
        out.flush();
        if (out.status() == QTextStream::Ok && file.commit()) return true;
    }
    if (error) *error = cannot_write(path, file);
    return false;
}

QString write_whole(const QString& path, const QByteArray& bytes) {
    AtomicDevice file(path);
    return file.isOpen() && file.write(bytes) == bytes.size() && file.commit() ? QString() : file.why();
}

}  // namespace normlab
