// Runs one core call off the GUI thread and hands its result back on the GUI thread.
// The pattern of Qt Creator's Utils::Async: QtConcurrent::run(pool, fn) in promise mode,
// a QFutureWatcher delivering on the owner's thread, and an owner that cancels and waits
// in its destructor so a worker never outlives what it captured.
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QPromise>
#include <QString>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "ppsynth/common/progress.hpp"

namespace ppsynth::ui {

enum class JobOutcome { Done, Canceled, Failed };

// Combines core's progress reports (possibly from several workers) into one fraction:
// the mean of each worker's done/total. Thread-safe.
class ProgressAggregator {
  public:
    static constexpr int kScale = 1000;  // the promise's progress range is 0..kScale
    struct Update {
        int permille = 0;
        bool restart = false;  // the fraction went back (a new stage): restart the range
    };
    Update add(const Progress& p);
    std::mutex& mutex() { return mutex_; }

  private:
    std::mutex mutex_;
    std::map<int, double> fractions_;
    int last_ = 0;
};

// Adapts core's ProgressCallback to a QPromise: progress becomes the promise's value (with
// the stage as its text), and a canceled promise answers Continue::Stop. The promise must
// outlive the callback (it does: both live for the duration of the work call).
template <typename T>
ProgressCallback promiseProgress(QPromise<T>& promise) {
    auto agg = std::make_shared<ProgressAggregator>();
    return [&promise, agg](const Progress& p) {
        if (promise.isCanceled()) return Continue::Stop;
        std::lock_guard lock(agg->mutex());
        const auto u = agg->add(p);
        // QFutureInterface ignores values that do not increase; setting the range resets it.
        if (u.restart) promise.setProgressRange(0, ProgressAggregator::kScale);
        promise.setProgressValueAndText(u.permille, QString::fromStdString(p.stage));
        return promise.isCanceled() ? Continue::Stop : Continue::Yes;
    };
}

// Signals live in a non-template base (moc cannot handle templates).
class JobRunnerBase : public QObject {
    Q_OBJECT
  public:
    using QObject::QObject;
    bool isRunning() const { return running_; }
    JobOutcome lastOutcome() const { return outcome_; }
    // Why the last job failed (an exception escaped the work function).
    const QString& failureText() const { return failure_; }
    virtual void cancel() = 0;

  signals:
    void started();
    // fraction in [0, 1]; stage is core's stage name ("reading", "sampling", ...).
    void progressChanged(double fraction, const QString& stage);
    // After the result callback ran (Done) or without a result (Canceled, Failed).
    void finished(ppsynth::ui::JobOutcome outcome);

  protected:
    bool running_ = false;
    JobOutcome outcome_ = JobOutcome::Done;
    QString failure_;
};

// R travels by value: moved into the promise on the worker, taken out on the GUI thread.
template <typename R>
class JobRunner final : public JobRunnerBase {
  public:
    // The work gets a progress callback; it must return promptly once that says Stop.
    using Work = std::function<R(const ProgressCallback&)>;
    using ResultHandler = std::function<void(R)>;

    explicit JobRunner(QObject* parent = nullptr) : JobRunnerBase(parent) {
        // Qt emits the value before the text of one update: keep both, emit on either.
        connect(&watcher_, &QFutureWatcherBase::progressValueChanged, this, [this](int v) {
            value_ = v;
            if (!stage_.isEmpty())
                emit progressChanged(double(v) / ProgressAggregator::kScale, stage_);
        });
        connect(&watcher_, &QFutureWatcherBase::progressTextChanged, this,
                [this](const QString& t) {
                    if (t == stage_) return;
                    stage_ = t;
                    emit progressChanged(double(value_) / ProgressAggregator::kScale, stage_);
                });
        connect(&watcher_, &QFutureWatcherBase::finished, this, &JobRunner::deliver);
    }
    ~JobRunner() override {
        // Cancel and wait: the work may capture state owned by whoever owns this runner.
        if (running_) {
            watcher_.cancel();
            watcher_.waitForFinished();
        }
    }
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    void setThreadPool(QThreadPool* pool) { pool_ = pool; }
    // Called on the GUI thread with the result when a job ends normally.
    void onResult(ResultHandler handler) { handler_ = std::move(handler); }

    // Starts `work`; refuses (returns false) while a job is running: cancel it first.
    bool start(Work work) {
        if (running_) return false;
        running_ = true;
        failure_.clear();
        stage_.clear();
        value_ = 0;
        // The outcome travels beside the future, not in it: a cancel that arrives after the
        // work finished marks even a finished future canceled, and the result would be lost.
        auto slot = std::make_shared<std::optional<Outcome>>();
        slot_ = slot;
        auto runner = [work = std::move(work), slot](QPromise<void>& promise) {
            promise.setProgressRange(0, ProgressAggregator::kScale);
            Outcome out;
            try {
                out.value.emplace(work(promiseProgress(promise)));
            } catch (const std::exception& e) {  // exceptions never cross the thread boundary
                out.failure = QString::fromUtf8(e.what());
            } catch (...) {
                out.failure = QStringLiteral("unknown error");
            }
            // Work that saw Stop returns whatever it had: only a run that ended before any
            // cancel produced a result.
            if (!promise.isCanceled()) *slot = std::move(out);
        };
        QThreadPool* pool = pool_ ? pool_ : QThreadPool::globalInstance();
        watcher_.setFuture(QtConcurrent::run(pool, std::move(runner)));
        emit started();
        return true;
    }

    void cancel() override {
        if (running_) watcher_.cancel();
    }
    // Blocks until the running job ends (tests and shutdown only).
    void waitForFinished() { watcher_.waitForFinished(); }

  private:
    struct Outcome {
        std::optional<R> value;
        QString failure;
    };

    void deliver() {
        // Setting the empty future below makes the watcher report "finished" once more (a
        // default QFuture is already canceled and finished): without this guard that second
        // call reported the job again as Canceled, overwriting the Done outcome.
        if (!running_) return;
        running_ = false;
        watcher_.setFuture(QFuture<void>());
        // A result present means the work completed, whatever a late cancel() said.
        std::optional<Outcome> out = std::move(*slot_);
        slot_.reset();
        if (!out) {
            outcome_ = JobOutcome::Canceled;
            emit finished(outcome_);
            return;
        }
        if (!out->value) {
            outcome_ = JobOutcome::Failed;
            failure_ = out->failure;
            emit finished(outcome_);
            return;
        }
        outcome_ = JobOutcome::Done;
        if (handler_) handler_(std::move(*out->value));
        emit finished(outcome_);
    }

    QFutureWatcher<void> watcher_;
    std::shared_ptr<std::optional<Outcome>> slot_;  // the running job's outcome, once it has one
    QThreadPool* pool_ = nullptr;
    ResultHandler handler_;
    QString stage_;
    int value_ = 0;
};

}  // namespace ppsynth::ui
