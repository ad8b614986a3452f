#include "ui/shell/job_board.hpp"

#include <algorithm>

namespace ppsynth::ui {

JobBoard::JobBoard(QObject* parent) : QObject(parent) {}

// The runners are children: each cancels and waits in its destructor.
JobBoard::~JobBoard() = default;

void JobBoard::adopt(JobRunnerBase* job, JobOptions options) {
    job->setParent(this);
    Entry e;
    e.job = job;
    e.options = options;
    jobs_.push_back(std::move(e));
    connect(job, &JobRunnerBase::finished, this,
            [this, job](JobOutcome outcome) { onJobFinished(job, outcome); });
    connect(job, &JobRunnerBase::progressChanged, this, [this, job](double f, const QString& s) {
        showProgress(job, f, entry(job).options.stageIsText ? s : QString());
    });
}

JobBoard::Entry& JobBoard::entry(const JobRunnerBase* job) {
    return *std::find_if(jobs_.begin(), jobs_.end(),
                         [job](const Entry& e) { return e.job == job; });
}

const JobBoard::Entry* JobBoard::find(const JobRunnerBase* job) const {
    auto it =
        std::find_if(jobs_.begin(), jobs_.end(), [job](const Entry& e) { return e.job == job; });
    return it == jobs_.end() ? nullptr : &*it;
}

// Several jobs may run at once (a report while a project saves): the status bar shows the
// newest and stays until the last has ended.
void JobBoard::begin(JobRunnerBase* job, const QString& what) {
    Entry& e = entry(job);
    e.latest = e.running = ++lastToken_;
    end(job);
    if (e.options.quiet) return;
    busy_.emplace_back(job, what);
    emit busyChanged();
    emit progressChanged(0);
}

void JobBoard::supersede(JobRunnerBase* job) {
    Entry& e = entry(job);
    e.latest = ++lastToken_;
    e.queued = nullptr;
    job->cancel();
}

bool JobBoard::isCurrent(const JobRunnerBase* job) const {
    const Entry* e = find(job);
    return e && e->running == e->latest;
}

void JobBoard::onFinished(JobRunnerBase* job, std::function<void(JobOutcome)> handler) {
    entry(job).onFinished = std::move(handler);
}

// A superseded job's end says nothing; the newest one, queued behind it, starts now.
void JobBoard::onJobFinished(JobRunnerBase* job, JobOutcome outcome) {
    Entry& e = entry(job);
    const bool current = e.running == e.latest;
    end(job);
    if (auto next = std::exchange(e.queued, nullptr)) next();
    if (current && e.onFinished) e.onFinished(outcome);
}

void JobBoard::end(JobRunnerBase* job) {
    const auto n = busy_.size();
    std::erase_if(busy_, [job](const auto& b) { return b.first == job; });
    if (busy_.size() != n) emit busyChanged();
}

void JobBoard::showProgress(JobRunnerBase* job, double fraction, const QString& text) {
    auto it =
        std::find_if(busy_.begin(), busy_.end(), [job](const auto& b) { return b.first == job; });
    if (it == busy_.end()) return;
    if (!text.isEmpty() && text != it->second) {
        it->second = text;
        if (busy_.back().first == job) emit busyChanged();
    }
    if (busy_.back().first == job) emit progressChanged(static_cast<int>(fraction * 1000));
}

void JobBoard::cancelBusy() {
    const auto jobs = busy_;  // a job's end edits the list
    for (const auto& [job, what] : jobs) job->cancel();
}

void JobBoard::cancelAll() {
    for (Entry& e : jobs_) {
        e.queued = nullptr;
        e.job->cancel();
    }
}

// Reopening saved runs leaves Open and Save available: opening another project supersedes
// it, and a save writes only runs that are not on disk yet.
bool JobBoard::blocksFiles() const {
    return std::any_of(busy_.begin(), busy_.end(), [this](const auto& b) {
        const Entry* e = find(b.first);
        return !e || e->options.blocksFiles;
    });
}

bool JobBoard::folderJobRunning() const {
    return std::any_of(jobs_.begin(), jobs_.end(),
                       [](const Entry& e) { return e.options.folderJob && e.job->isRunning(); });
}

}  // namespace ppsynth::ui

#include "moc_job_board.cpp"
