// NormLab widgets: write_figure (see figure.h).
#include "widgets/figure.h"

#include "core/errors.h"
#include "core/store/output_guard.h"
#include "widgets/math_text.h"

#include <QCoreApplication>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <QTextStream>

#include <algorithm>

namespace normlab {

QString refused_output(const QString& path) {
    try {
        check_output_path(path.toStdString(), "the export");
    } catch (const ConfigError& e) {
        return QString::fromStdString(e.message());
    }
    return {};
}

bool write_figure(const QString& path, const QString& format, int dpi, QSize size, const QString& title,
                  const std::function<void(QPainter&, const QRectF&)>& draw, QString* error) {
    auto fail = [&](const QString& why) {
        if (error) *error = why;
        return false;
    };
    auto cannot = [&] { return fail(QCoreApplication::translate("normlab::Figure", "cannot write %1").arg(path)); };
    if (QString why = refused_output(path); !why.isEmpty()) return fail(why);
    if (size.isEmpty()) size = QSize(800, 500);
    const QString f = format.toLower();
    QPainter p;
    if (f == "png") {
        const double scale = std::max(1, dpi) / 96.0;
        QImage img(QSize(int(size.width() * scale), int(size.height() * scale)), QImage::Format_ARGB32);
        img.fill(Qt::white);
        img.setDotsPerMeterX(int(dpi / 0.0254));
        img.setDotsPerMeterY(int(dpi / 0.0254));
        p.begin(&img);
        p.setRenderHint(QPainter::Antialiasing);
        draw(p, QRectF(QPointF(0, 0), QSizeF(img.size())));
        p.end();
        return img.save(path, "PNG") ? true : cannot();
    }
    if (f == "svg") {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(size);
        gen.setResolution(96);   // sizes here are 96 dpi pixels (the PDF's too); Qt's default, 72, declared 4/3 the size
        gen.setViewBox(QRect(QPoint(0, 0), size));
        gen.setTitle(math_text::plain(title));   // the document's title: plain text
        gen.setDescription(QStringLiteral("NormLab figure"));
        if (!p.begin(&gen)) return cannot();
        draw(p, QRectF(QPointF(0, 0), QSizeF(size)));
        p.end();
        return true;
    }
    if (f == "pdf") {
        QPdfWriter pdf(path);
        pdf.setResolution(std::max(96, dpi));
        pdf.setPageSize(QPageSize(QSizeF(size.width() * 25.4 / 96.0, size.height() * 25.4 / 96.0), QPageSize::Millimeter));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setTitle(math_text::plain(title));
        pdf.setCreator(QStringLiteral("NormLab"));
        if (!p.begin(&pdf)) return cannot();
        draw(p, QRectF(0, 0, pdf.width(), pdf.height()));
        p.end();
        return true;
    }
    return fail(QCoreApplication::translate("normlab::Figure", "unknown format %1; use png, svg, pdf or csv").arg(format));
}

bool write_text(const QString& path, const std::function<void(QTextStream&)>& body, QString* error) {
    if (QString why = refused_output(path); !why.isEmpty()) {
        if (error) *error = why;
        return false;
    }
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
        if (error) *error = QCoreApplication::translate("normlab::Figure", "cannot write %1").arg(path);
        return false;
    }
    QTextStream out(&f);
    body(out);
    return true;
}

}  // namespace normlab
