// The runs the window knows beyond the ones it ran: a project's saved run folders reopened in
// the background, run folders opened from the Run menu, and where a run's data file is now.
// The run list (RunPanel's) shows them; this controller loads them into it.
#pragma once

#include <QObject>
#include <QString>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/job_runner.hpp"
#include "ui/project_file.hpp"
#include "ui/shell/shell_pages.hpp"

class QWidget;

namespace ppsynth::ui {

class JobBoard;
struct RunRecord;
struct WindowQuestions;

// What reopening a project's saved runs hands back: per run id, the run or the error.
struct LoadedRuns {
    std::vector<std::pair<int, Expected<study::RunResult>>> runs;
};

class RunLibrary : public QObject {
    Q_OBJECT
  public:
    RunLibrary(const ShellPages& pages, JobBoard* jobs, WindowQuestions* questions,
               QWidget* window);

    // The run list becomes `project`'s saved runs (a run still going is stopped), whose
    // results are then reopened from their folders in the background.
    void showProjectRuns(const Project& project);
    // Reopens a project's saved run folders (after its data file is read).
    JobRunnerBase* loadRunsJob() const { return loadRunsJob_; }

    // The run selected in the run list, which the Run menu's actions act on.
    const RunRecord* currentRun() const;
    // Reads a finished run folder in the background (study::loadRunFolder, which refuses a
    // data file that changed since the run), adds it to the run list and asks for it to be
    // shown (runOpened); false when it cannot start. A data file no longer where the run
    // recorded it is taken from the Data page when that shows a file of its name, else the
    // person is asked to locate it (questions.locateDataFile).
    bool openRunFolder(const QString& dir);
    void chooseRunFolder();
    JobRunnerBase* openRunJob() const { return openRunJob_; }

    // `expected` when the file is there (or unknown), else the file the person locates
    // instead; nullopt when they do not, said in the message area.
    std::optional<QString> findDataFile(const QString& expected, const QString& whose);
    // Where the run's data file is now; a located one is remembered for the run's next export
    // or report.
    std::optional<QString> runDataFile(const RunRecord& run);

  signals:
    // A run folder was opened and added to the run list under `id`.
    void runOpened(int id);
    // Runs gained results or a job of this library started or ended: the Run menu's actions
    // may change.
    void actionsChanged();
    void statusMessage(const QString& text, int timeoutMs);

  private:
    void startLoadingRuns(const Project& project);
    void onRunsLoaded(LoadedRuns loaded);
    void onRunsLoadFinished(JobOutcome outcome);

    ShellPages pages_;
    JobBoard* jobs_;
    WindowQuestions* questions_;
    QWidget* window_;
    JobRunner<LoadedRuns>* loadRunsJob_;
    JobRunner<Expected<study::LoadedRun>>* openRunJob_;
    QString openingRunDir_;
};

}  // namespace ppsynth::ui
