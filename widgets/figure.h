// NormLab widgets: writing a drawing as a publication figure.
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
class QTextStream;
QT_END_NAMESPACE

namespace normlab {

// Calls `draw(painter, target)` onto a PNG (scaled to `dpi`, white
// background), an SVG (viewBox and title set) or a vector PDF (page of the
// figure's size, no margins). `size` is the figure's size in screen pixels
// (96 per inch). Returns false with `error` set for an unknown format or a
// file that cannot be written.
bool write_figure(const QString& path, const QString& format, int dpi, QSize size, const QString& title,
                  const std::function<void(QPainter&, const QRectF&)>& draw, QString* error);

// Writes a text file (CSV) through `body`; false with `error` set ("cannot
// write PATH") when the file cannot be opened.
// "" when `path` may be written; otherwise why not (it is a store this
// process reads, its log or checkpoints: core/store/output_guard.h).
QString refused_output(const QString& path);
bool write_text(const QString& path, const std::function<void(QTextStream&)>& body, QString* error);

}  // namespace normlab
