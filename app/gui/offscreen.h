// The headless commands (normlab report, normlab figure): the offscreen
// platform notes every hidden chart it lays out; not news on their stderr.
#pragma once

#include <QtGlobal>
#include <QString>

namespace normlab {

inline void quiet_offscreen_notes() {
    static QtMessageHandler previous = qInstallMessageHandler(nullptr);
    qInstallMessageHandler([](QtMsgType t, const QMessageLogContext& c, const QString& m) {
        if (m.contains("propagateSizeHints")) return;
        if (previous) previous(t, c, m);
    });
}

}  // namespace normlab
