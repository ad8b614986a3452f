// The window's background jobs in one place: the board owns their runners (reading a file,
// saving a project, reopening saved runs, opening a run or study folder, writing a report),
// keeps the list of busy jobs the status bar shows (the newest's text and progress), and
// cancels them all on request. Several jobs may run at once (a report while a project saves).
#pragma once

#include <QObject>
#include <QString>
#include <utility>
#include <vector>

#include "ui/job_runner.hpp"

namespace ppsynth::ui {

// How the board treats a job.
struct JobOptions {
    // While it runs, opening and saving wait (Open, Save and Open Recent are disabled).
    bool blocksFiles = true;
    // Its end and progress are tracked by the board (else its owner calls end()).
    bool watched = true;
    // Jobs that read run and study folders, or write reports from them, run one at a
    // time: folderJobRunning() tells whether one does.
    bool folderJob = false;
};

class JobBoard : public QObject {
    Q_OBJECT
  public:
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

    // `job` started: it becomes the newest busy job, shown with `what`.
    void begin(JobRunnerBase* job, const QString& what);
    void end(JobRunnerBase* job);
    // A job's progress, and its new text when it has one, shown while it is the newest.
    void showProgress(JobRunnerBase* job, double fraction, const QString& text);
    // Cancels every busy job (the status bar's Cancel).
    void cancelBusy();

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
        JobRunnerBase* job;
        JobOptions options;
    };
    const Entry* entry(const JobRunnerBase* job) const;

    std::vector<Entry> jobs_;
    std::vector<std::pair<JobRunnerBase*, QString>> busy_;  // newest last, shown
};

}  // namespace ppsynth::ui
