// NormLab widgets: writing a drawing as a publication figure.
#pragma once

#include <QRectF>
#include <QSize>
#include <QString>

#include <functional>

QT_BEGIN_NAMESPACE
class QPainter;
class QByteArray;
class QTextStream;
QT_END_NAMESPACE

namespace normlab {

// Calls `draw(painter, target)` onto a PNG (scaled to `dpi`, white
// background), an SVG (viewBox and title set) or a vector PDF (page of the
// figure's size, no margins). `size` is the figure's size in screen pixels
// (96 per inch). Returns false with `error` set for an unknown format or a
// file that cannot be written. The file is replaced only once it is whole
// (core/atomic_file.h): a failed write leaves what was at `path` as it was.
bool write_figure(const QString& path, const QString& format, int dpi, QSize size, const QString& title,
                  const std::function<void(QPainter&, const QRectF&)>& draw, QString* error);

// "" when `path` may be written; otherwise why not (it is a store this
// process reads, its log or checkpoints: core/store/output_guard.h).
QString refused_output(const QString& path);

// Writes a text file (CSV) through `body`, replaced only once whole as a
// figure is; false with `error` set ("cannot write PATH: why") when it cannot
// be opened or written.
bool write_text(const QString& path, const std::function<void(QTextStream&)>& body, QString* error);
// A CSV field: as it is, or quoted ("a, b" → "\"a, b\"") where it has a comma, a quote or a line break.
QString csv_field(const QString& s);

// Writes `bytes` to `path` whole or not at all (core/atomic_file.h); "" when
// written, else the system's reason ("No space left on device").
QString write_whole(const QString& path, const QByteArray& bytes);

}  // namespace normlab
