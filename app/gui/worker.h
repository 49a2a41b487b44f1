// NormLab app: trains queued runs on a worker thread.
//
// The worker owns its own store connection and trains one run at a time from
// a queue of run ids (the runs already exist in the store as `queued`). The
// GUI never waits on it: progress arrives as queued signals, and cancel,
// pause and resume act through the core's thread-safe RunControl. The charts
// do not listen to the worker at all: they read the store.
#pragma once

#include "core/train/trainer.h"

#include <QMetaType>
#include <QMutex>
#include <QObject>
#include <QString>

#include <deque>
#include <set>
#include <memory>

namespace normlab {

struct ProgressInfo {
    qint64 run = 0;
    QString name;
    qint64 step = 0, total = 0;
    double loss = 0, val_loss = 0, tokens_per_s = 0, eta_s = 0, mfu = 0;
    QString status;
};

class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(QString store_path);

    // Thread-safe: callable from the GUI thread while a run trains.
    // resume: continue a cancelled/interrupted/failed run from its checkpoint.
    void enqueue(qint64 run_id, bool resume = false);
    void cancel(qint64 run_id);   // the running run, or a queued one
    void cancelAll();
    void pause();
    void resume();
    bool paused() const { return control_.paused(); }
    qint64 current() const;
    std::deque<qint64> queued() const;

public Q_SLOTS:
    void process();               // runs in the worker thread

Q_SIGNALS:
    void progress(const normlab::ProgressInfo& p);
    void runStarted(qint64 run);
    void runEnded(qint64 run, const QString& status, const QString& message);
    void queueChanged();

private:
    QString store_path_;
    std::unique_ptr<Store> store_;
    mutable QMutex mutex_;
    std::deque<qint64> queue_;
    std::set<qint64> resume_;       // queued ids that resume rather than start
    qint64 current_ = 0;
    bool processing_ = false;
    RunControl control_;
};

}  // namespace normlab

Q_DECLARE_METATYPE(normlab::ProgressInfo)
