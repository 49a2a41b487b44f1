// Helpers for the tests that drive the main window (Qt, offscreen).
#pragma once

#include "app/gui/mainwindow.h"
#include "core/store/store.h"

#include <QFile>
#include <QtTest/QtTest>

namespace normlab::test {

// Waits until run `id` has left the queue and ended, then one refresh tick more.
inline void wait_idle(MainWindow& w, qint64 id) {
    QTRY_VERIFY_WITH_TIMEOUT(w.store().run(id)->status != RunStatus::Queued && w.store().run(id)->status != RunStatus::Running,
                             120000);
    QTest::qWait(400);
}

// The first `n` bytes of a file ("" when it cannot be read).
inline QByteArray head(const QString& path, int n) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    return f.read(n);
}

}  // namespace normlab::test
