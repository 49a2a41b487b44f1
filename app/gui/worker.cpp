// NormLab app: TrainingWorker (see worker.h).
#include "app/gui/worker.h"

#include "core/errors.h"

#include <QMetaObject>
#include <QMutexLocker>

namespace normlab {

TrainingWorker::TrainingWorker(QString store_path) : store_path_(std::move(store_path)) {
    qRegisterMetaType<normlab::ProgressInfo>();
}

void TrainingWorker::enqueue(qint64 run_id, bool resume) {
    {
        QMutexLocker lock(&mutex_);
        queue_.push_back(run_id);
        if (resume) resume_.insert(run_id);
    }
    Q_EMIT queueChanged();
    QMetaObject::invokeMethod(this, &TrainingWorker::process, Qt::QueuedConnection);
}

void TrainingWorker::cancel(qint64 run_id) {
    QMutexLocker lock(&mutex_);
    if (run_id == current_) {
        control_.cancel();
        return;
    }
    auto it = std::find(queue_.begin(), queue_.end(), run_id);
    if (it == queue_.end()) return;
    queue_.erase(it);
    resume_.erase(run_id);
    lock.unlock();
    Q_EMIT runEnded(run_id, QStringLiteral("cancelled"), tr("removed from the queue"));
    Q_EMIT queueChanged();
}

void TrainingWorker::cancelAll() {
    std::deque<qint64> dropped;
    {
        QMutexLocker lock(&mutex_);
        dropped.swap(queue_);
        resume_.clear();
        if (current_) control_.cancel();
    }
    for (qint64 id : dropped) Q_EMIT runEnded(id, QStringLiteral("cancelled"), tr("removed from the queue"));
    Q_EMIT queueChanged();
}

void TrainingWorker::pause() { control_.pause(); }
void TrainingWorker::resume() { control_.resume(); }

qint64 TrainingWorker::current() const {
    QMutexLocker lock(&mutex_);
    return current_;
}

std::deque<qint64> TrainingWorker::queued() const {
    QMutexLocker lock(&mutex_);
    return queue_;
}

void TrainingWorker::process() {
    if (processing_) return;
    processing_ = true;
    if (!store_) store_ = std::make_unique<Store>(store_path_.toStdString());
    for (;;) {
        qint64 id;
        bool resume;
        {
            QMutexLocker lock(&mutex_);
            if (queue_.empty()) break;
            id = queue_.front();
            queue_.pop_front();
            resume = resume_.erase(id) > 0;
            current_ = id;
            control_.reset();
        }
        Q_EMIT queueChanged();
        Q_EMIT runStarted(id);
        TrainOptions opts;
        opts.control = &control_;
        opts.resume = resume;
        opts.progress_interval_s = 0.2;
        opts.on_progress = [this](const Progress& p) {
            ProgressInfo info;
            info.run = p.run_id;
            info.name = QString::fromStdString(p.run_name);
            info.step = p.step;
            info.total = p.total;
            info.loss = p.loss;
            info.val_loss = p.val_loss;
            info.tokens_per_s = p.tokens_per_s;
            info.mfu = p.mfu;
            info.eta_s = p.eta_s;
            info.status = control_.paused() ? QStringLiteral("paused") : QString::fromStdString(status_name(p.status));
            Q_EMIT progress(info);
        };
        QString status, message;
        try {
            // Deleted, cancelled (normlab-cli cancel) or started by another process before its turn: skipped.
            if (const auto now = store_->run(id); !resume && (!now || now->status != RunStatus::Queued)) {
                status = now ? QString::fromStdString(now->status_text) : QStringLiteral("deleted");
                message = tr("skipped: it was no longer queued when its turn came");
            } else {
                RunResult r = train_run(*store_, id, opts);
                status = QString::fromStdString(status_name(r.status));
                message = QString::fromStdString(r.message);
            }
        } catch (const std::exception& e) {
            // The run could not start. A queued run is marked failed so it never
            // waits forever; a resume leaves the record exactly as it was.
            status = resume ? QStringLiteral("not resumed") : QStringLiteral("failed");
            message = QString::fromUtf8(e.what());
            try {
                if (auto r = store_->run(id); !resume && r && r->status == RunStatus::Queued)
                    store_->finish_run(id, RunStatus::Failed, 0, e.what(), std::nan(""));
            } catch (...) {
            }
        }
        {
            QMutexLocker lock(&mutex_);
            current_ = 0;
        }
        Q_EMIT runEnded(id, status, message);
        Q_EMIT queueChanged();
    }
    processing_ = false;
}

}  // namespace normlab
