// Helpers for the tests that drive the designer (Qt).
#pragma once

#include "widgets/designer.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QLocale>
#include <QSpinBox>
#include <QStandardPaths>

namespace normlab::test {

// A tiny, fast configuration in the designer.
inline void make_tiny(Designer* d, int steps = 40) {
    auto set_int = [&](const char* path, int v) { qobject_cast<QSpinBox*>(d->field(path))->setValue(v); };
    set_int("model.d_model", 32);
    set_int("model.n_layers", 2);
    set_int("model.n_heads", 4);
    set_int("model.d_ff", 64);
    set_int("model.context", 16);
    set_int("train.steps", steps);
    set_int("train.batch_size", 4);
    set_int("train.eval_every", 20);
    set_int("probes.gains_every", 10);
    set_int("probes.cond_every", 20);
    auto* src = qobject_cast<QComboBox*>(d->field("data.source"));
    src->setCurrentIndex(src->findData("markov"));
}

// The window's tests: settings in a test location, under a test organization, in the C locale.
inline void isolate_window_settings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("NormLabTest");
    QLocale::setDefault(QLocale::c());
}

}  // namespace normlab::test
