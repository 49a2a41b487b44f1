// Helpers the figure suites share (test_figures, test_sweep): a program's exit
// code and output, and a PDF's text as pdftotext reads it.
#pragma once

#include <QProcess>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

namespace normlab::test {

// Runs `program` (two minutes at most): its exit code, -1 if it did not finish or crashed.
inline int run(const QString& program, const QStringList& args, QString* out, QString* err = nullptr) {
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(120000)) return -1;
    if (out) *out = QString::fromUtf8(p.readAllStandardOutput());
    if (err) *err = QString::fromUtf8(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

inline QString squeeze(QString s) { return s.remove(QRegularExpression("\\s+")); }

// pdftotext's text with the font's ligatures spelled out ("gain/ﬀn_norm" → "gain/ffn_norm").
inline QString pdf_text(const QString& pdf) {
    QString text;
    if (run("pdftotext", {"-layout", pdf, "-"}, &text) != 0) return "(pdftotext failed)";
    return text.replace(QChar(0xFB00), "ff").replace(QChar(0xFB01), "fi").replace(QChar(0xFB02), "fl")
        .replace(QChar(0xFB03), "ffi").replace(QChar(0xFB04), "ffl");
}

}  // namespace normlab::test
