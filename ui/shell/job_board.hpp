// The window's background jobs in one place: the board owns their runners (reading a file,
// saving a project, reopening saved runs, opening a run or study folder, writing a report),
// keeps the list of busy jobs the status bar shows (the newest's text and progress), and
// cancels them all on request.
//
// Every job started through the board gets a token, and a runner's result and end are handed
// on only when they are its newest job's: a job superseded by a newer one of the same kind
// (startLatest) can never apply its result, even one that was ready before the cancel
// reached it. Several jobs of different kinds may run at once (a report while a project saves).
#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "ui/job_runner.hpp"

namespace ppsynth::ui {

// How the board treats a job.
struct JobOptions {
    // While it runs, opening and saving wait (Open, Save and Open Recent are disabled).
    bool blocksFiles = true;
    // The busy text follows the job's progress stage ("Loading saved run 2 of 5...").
    bool stageIsText = false;
    // Jobs that read run and study folders, or write reports from them, run one at a
    // time: folderJobRunning() tells whether one does.
    bool folderJob = false;
    // Not shown in the status bar: a check that repeats in the background (a cluster
    // study's progress), which the person did not start and need not wait for.
    bool quiet = false;
};

class JobBoard : public QObject {
    Q_OBJECT
  public:
    using Token = std::uint64_t;

    explicit JobBoard(QObject* parent = nullptr);
    ~JobBoard() override;

    // A runner the board owns (its parent), for work that returns R.
    template <typename R>
    JobRunner<R>* add(JobOptions options = {}) {
        auto* job = new JobRunner<R>(this);
        adopt(job, options);
        return job;
    }
    // Takes a runner made elsewhere (the report job) as the board's child.
    void adopt(JobRunnerBase* job, JobOptions options = {});

    // Starts `work` on `job` when it is idle, shown in the status bar with `what`; false
    // (nothing started) while it runs.
    template <typename R>
    bool start(JobRunner<R>* job, typename JobRunner<R>::Work work, const QString& what) {
        if (job->isRunning()) return false;
        begin(job, what);
        job->start(std::move(work));
        return true;
    }
    // Starts `work` as the newest job of `job`'s kind: one still running is cancelled and
    // this one starts once it has stopped; the superseded one's result and end are dropped.
    template <typename R>
    void startLatest(JobRunner<R>* job, typename JobRunner<R>::Work work, const QString& what) {
        if (!job->isRunning()) {
            start(job, std::move(work), what);
            return;
        }
        supersede(job);
        entry(job).queued = [this, job, work = std::move(work), what]() mutable {
            begin(job, what);
            job->start(std::move(work));
        };
    }
    // A job started by its owner (the report job has its own start): a new token and the
    // busy text. Call it just before the runner's start.
    void begin(JobRunnerBase* job, const QString& what);
    // Cancels `job`'s running job and drops whatever it still delivers, and a queued one.
    void supersede(JobRunnerBase* job);

    // `handler` gets the result of `job`'s newest job only (Job: a runner with onResult).
    template <typename Job, typename Handler>
    void onResult(Job* job, Handler handler) {
        job->onResult([this, job, handler = std::move(handler)](auto result) {
            if (isCurrent(job)) handler(std::move(result));
        });
    }
    // `handler` hears how `job`'s newest job ended, after its result handler ran.
    void onFinished(JobRunnerBase* job, std::function<void(JobOutcome)> handler);
    // True while the job running on (or last run by) `job` is the newest of its kind.
    bool isCurrent(const JobRunnerBase* job) const;

    // A job's progress, and its new text when it has one, shown while it is the newest.
    void showProgress(JobRunnerBase* job, double fraction, const QString& text);
    // Cancels every busy job (the status bar's Cancel).
    void cancelBusy();
    // Cancels every job, queued ones included (the window closes).
    void cancelAll();

    bool isBusy() const { return !busy_.empty(); }
    QString busyText() const { return busy_.empty() ? QString() : busy_.back().second; }
    bool blocksFiles() const;
    bool folderJobRunning() const;

  signals:
    // The busy list or the newest's text changed.
    void busyChanged();
    // The newest busy job's progress, 0..1000.
    void progressChanged(int permille);

  private:
    struct Entry {
        JobRunnerBase* job = nullptr;
        JobOptions options;
        Token latest = 0;              // the newest job's token
        Token running = 0;             // the token of the job running (or last run) on the runner
        std::function<void()> queued;  // starts the newest once the superseded one stopped
        std::function<void(JobOutcome)> onFinished;
    };
    Entry& entry(const JobRunnerBase* job);
    const Entry* find(const JobRunnerBase* job) const;
    void end(JobRunnerBase* job);
    void onJobFinished(JobRunnerBase* job, JobOutcome outcome);

    std::vector<Entry> jobs_;
    std::vector<std::pair<JobRunnerBase*, QString>> busy_;  // newest last, shown
    Token lastToken_ = 0;
};

}  // namespace ppsynth::ui
