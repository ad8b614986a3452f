// Saving a project: core's save transaction (study::saveProject) on a worker thread writes
// the finished runs not yet on disk to folders beside the project file, then the project
// file. A cancelled or failed save is rolled back by core (no folders left, the old project
// file as it was) and runs nothing that waited for it.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/job_runner.hpp"
#include "ui/shell/shell_pages.hpp"

namespace ppsynth::ui {

class JobBoard;
class PageSettings;

// What a save hands back: per run id, the folder written, or why nothing was saved.
struct SavedRuns {
    std::vector<std::pair<int, std::string>> folders;
    Status status;
};

class ProjectSaver : public QObject {
    Q_OBJECT
  public:
    // Writes one run's folder while saving (study::writeRunOutput); called on the save's
    // worker thread. Tests replace it to hold a save part-way.
    using RunWriter = std::function<Status(const study::RunResult& run, const data::Table& table,
                                           const std::string& dir)>;

    // `reading` is the data file's read: no save while it runs.
    ProjectSaver(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                 const JobRunnerBase* reading, QObject* parent);

    // Writes the runs not yet saved, then the project file at `path`; false when it cannot
    // start (or, with no runs to write, when writing the project file failed).
    bool saveProject(const QString& path);
    void setRunWriter(RunWriter writer);
    JobRunnerBase* saveJob() const { return saveJob_; }
    bool isRunning() const { return saveJob_->isRunning(); }
    // Runs once the save in progress has written the project file (a deferred close or
    // opening of another project); dropped when the save fails or is cancelled.
    void setAfterSave(std::function<void()> then) { afterSave_ = std::move(then); }

  signals:
    // The project file was written at `path` (absolute).
    void projectWritten(const QString& path);
    void actionsChanged();
    void statusMessage(const QString& text, int timeoutMs);

  private:
    bool writeProjectFile(const QString& path);
    // The project file is written: the page state is saved, and incomplete synthesizers
    // (left out of the file) are named.
    void afterProjectWritten(const QString& path, bool hadSynthesizers);
    void onSaveFinished(JobOutcome outcome);

    ShellPages pages_;
    JobBoard* jobs_;
    PageSettings* settings_;
    const JobRunnerBase* reading_;
    JobRunner<SavedRuns>* saveJob_;
    QString savingPath_;
    bool savingHadSynthesizers_ = true;
    RunWriter runWriter_;
    std::function<void()> afterSave_;
};

}  // namespace ppsynth::ui
