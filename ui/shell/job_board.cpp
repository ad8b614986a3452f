#include "ui/shell/job_board.hpp"

#include <algorithm>

namespace ppsynth::ui {

JobBoard::JobBoard(QObject* parent) : QObject(parent) {}

// The runners are children: each cancels and waits in its destructor.
JobBoard::~JobBoard() = default;

void JobBoard::adopt(JobRunnerBase* job, JobOptions options) {
    job->setParent(this);
    jobs_.push_back({job, options});
    if (!options.watched) return;
    connect(job, &JobRunnerBase::finished, this, [this, job] { end(job); });
    connect(job, &JobRunnerBase::progressChanged, this, [this, job](double f) {
        if (!busy_.empty() && busy_.back().first == job)
            emit progressChanged(static_cast<int>(f * 1000));
    });
}

const JobBoard::Entry* JobBoard::entry(const JobRunnerBase* job) const {
    auto it =
        std::find_if(jobs_.begin(), jobs_.end(), [job](const Entry& e) { return e.job == job; });
    return it == jobs_.end() ? nullptr : &*it;
}

// Several jobs may run at once (a report while a project saves): the status bar shows the
// newest and stays until the last has ended.
void JobBoard::begin(JobRunnerBase* job, const QString& what) {
    end(job);
    busy_.emplace_back(job, what);
    emit busyChanged();
    emit progressChanged(0);
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
    if (!text.isEmpty()) it->second = text;
    if (busy_.back().first != job) return;
    emit busyChanged();
    emit progressChanged(static_cast<int>(fraction * 1000));
}

void JobBoard::cancelBusy() {
    const auto jobs = busy_;  // a job's end edits the list
    for (const auto& [job, what] : jobs) job->cancel();
}

// Reopening saved runs leaves Open and Save available: opening another project cancels it,
// and a save writes only runs that are not on disk yet.
bool JobBoard::blocksFiles() const {
    return std::any_of(busy_.begin(), busy_.end(), [this](const auto& b) {
        const Entry* e = entry(b.first);
        return !e || e->options.blocksFiles;
    });
}

bool JobBoard::folderJobRunning() const {
    return std::any_of(jobs_.begin(), jobs_.end(),
                       [](const Entry& e) { return e.options.folderJob && e.job->isRunning(); });
}

}  // namespace ppsynth::ui
