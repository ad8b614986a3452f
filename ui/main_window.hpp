// The application's main window: hosts the pages of the workflow (Data first), the File
// menu with recent files, drag-and-drop opening, and the progress of the running job.
#pragma once

#include <QMainWindow>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/inspect.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/run_config.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/study_folder.hpp"
#include "ui/job_runner.hpp"
#include "ui/project_file.hpp"
#include "ui/report/report_job.hpp"

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace ppsynth::ui {

namespace results {
class CompareView;
class ResultsPage;
class StudiesPage;
}  // namespace results

class DataPage;
class ModelPage;
class RunPanel;
class SynthesizersPage;
struct RunRecord;

// What saving a project's unsaved runs hands back: per run id, its folder or the error.
struct SavedRuns {
    std::vector<std::pair<int, Expected<std::string>>> folders;
};

// What reopening a project's saved runs hands back: per run id, the run or the error, and
// which opening of a project asked (results for an earlier one are dropped).
struct LoadedRuns {
    std::vector<std::pair<int, Expected<study::RunResult>>> runs;
    int generation = 0;
};

enum class UnsavedChoice { Save, Discard, Cancel };

// The questions the window asks the person; tests replace them with stubs.
struct WindowQuestions {
    // Work would be lost (`what` lists it): save it first, discard it, or stay.
    std::function<UnsavedChoice(const QString& question, const QStringList& what)> unsavedWork;
    // QFileDialog::getSaveFileName's arguments; an empty path when the person cancels.
    std::function<QString(const QString& caption, const QString& dir, const QString& filter,
                          QString* selectedFilter)>
        saveFileName;
    // `path` exists: replace it?
    std::function<bool(const QString& path)> replaceFile;
    // A run's data file is no longer at `missing` (its folder moved): where is it now? An
    // empty path when the person cancels.
    std::function<QString(const QString& missing)> locateDataFile;
    // The text of SPSS/Stata/SAS file `path` is not in the encoding it declares (older files
    // often are in a code page): which one (an iconv name) should it be read with? `tried`
    // is the one that failed, empty for the file's own. Empty when the person cancels.
    std::function<QString(const QString& path, const QString& tried)> statEncoding;
    // How to read SPSS/Stata/SAS file `path` before it is read (its text encoding), offered
    // as CSV files offer theirs; `initial` is what is chosen now. nullopt when the person
    // cancels.
    std::function<std::optional<data::StatOptions>(const QString& path,
                                                   const data::StatOptions& initial)>
        statOptions;
    // A ppsynth stopped part-way (killed, a crash) left these beside the opened project's runs
    // (`what`: one per item, its path and what it is); they may hold confidential files:
    // remove them?
    std::function<bool(const QStringList& what)> removeLeftovers;
};

// What a background read hands back: the table or the error, and the reader's notes.
struct ReadOutcome {
    Expected<data::Table> table;
    data::ReadReport report;
    data::TableSummary summary;  // suggested roles and transform, made on the worker
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    static constexpr int kMaxRecentFiles = 8;

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Shows a table built elsewhere (tests, examples); `source` names where it came from.
    void setTable(data::Table table, const QString& source);
    void leaveProject();
    // Opens a file: CSV files ask for their options first, SPSS/Stata/SAS files for their
    // encoding (questions().statOptions); projects open as projects.
    void openFile(const QString& path);
    // Reads a file with the given options in the background (progress bar and Cancel).
    bool readFile(const QString& path, const data::ReadOptions& options);

    DataPage* dataPage() const { return dataPage_; }
    ModelPage* modelPage() const { return modelPage_; }
    SynthesizersPage* synthesizersPage() const { return synthesizersPage_; }
    RunPanel* runPanel() const { return runPanel_; }
    results::ResultsPage* resultsPage() const { return resultsPage_; }
    results::CompareView* compareView() const { return compareView_; }
    QTabWidget* tabs() const { return tabs_; }
    JobRunnerBase* readJob() const { return readJob_; }
    JobRunnerBase* saveJob() const { return saveJob_; }
    // Writes one run's folder while saving (study::writeRunOutput); called on the save's
    // worker thread. Tests replace it to hold a save part-way.
    using RunWriter = std::function<Status(const study::RunResult& run, const data::Table& table,
                                           const std::string& dir)>;
    void setRunWriter(RunWriter writer);
    // Reopens a project's saved run folders (after its data file is read).
    JobRunnerBase* loadRunsJob() const { return loadRunsJob_; }
    QStringList recentFiles() const;

    // The run configuration the pages describe (roles from the Data page, model, MCMC and
    // synthesizers); fails with what to fix when it is incomplete.
    Expected<study::RunConfig> currentConfig() const;

    // Projects (.ppsynth). Saving writes the runs not yet saved to folders beside the
    // project on a worker thread, then the small project file; false when it cannot start
    // (or, with no runs to write, when writing the project file failed).
    bool saveProject(const QString& path);
    // Opens a project: reads its data file in the background, then restores roles, model,
    // synthesizers and the list of saved runs, and offers to remove what a ppsynth stopped
    // part-way left beside its runs (questions().removeLeftovers). Unsaved work of the shown one is
    // asked about first (questions().unsavedWork); the project becomes projectPath() once applied.
    void openProject(const QString& path);
    QString projectPath() const { return projectPath_; }
    // What closing or opening another project would lose now, one item per line (empty when
    // nothing): a run or save in progress, finished runs only in memory, changed settings.
    QStringList unsavedWork() const;
    WindowQuestions& questions() { return questions_; }

    // Shows a finished run on the Results tab, or compares two on the Compare tab. Runs
    // reopened from a project (not loaded) are selected in the run list instead.
    void showRunResults(int id);
    void compareRuns(int left, int right);

    // The Run menu's actions on a finished run folder. The run they act on is the one
    // selected in the run list; export and report read its folder again, so a run not yet
    // saved (or not loaded) leaves them disabled with a tooltip saying why.
    QAction* openRunAction() const { return openRunAction_; }
    QAction* exportAction() const { return exportAction_; }
    QAction* reportAction() const { return reportAction_; }
    const RunRecord* currentRun() const;
    // Reads a finished run folder in the background (study::loadRunFolder, which refuses a
    // data file that changed since the run), adds it to the run list and shows it on the
    // Results tab; false when it cannot start. A data file no longer where the run recorded
    // it is taken from the Data page when that shows a file of its name, else the person is
    // asked to locate it (questions().locateDataFile).
    bool openRunFolder(const QString& dir);
    JobRunnerBase* openRunJob() const { return openRunJob_; }
    // Opens the Export dialog (modal) for the current run; false without one, or when its
    // data file has moved and the person did not locate it.
    bool exportRelease();
    // Writes the current run's disclosure-review report (.html or .pdf by extension): its
    // folder is read on a worker thread, the charts and the file are then made on the GUI
    // thread (Qt Charts needs it); the outcome is said in the message area. False when it
    // cannot start, also for a path inside a release bundle (the report is confidential).
    bool writeReport(const QString& path);
    JobRunnerBase* reportJob() const { return reportJob_; }
    // Reads the output folder of `ppsynth-cli simulate` or `sweep` in the background
    // (study::openStudyFolder) and shows it on the Studies tab; clicking a point of the
    // risk-utility curve loads that setting: its roles (when the Data page shows the sweep's
    // data file; a warning otherwise), model, synthesizers and every setting the pages have
    // no widget for (currentConfig() keeps them).
    QAction* openStudyAction() const { return openStudyAction_; }
    bool openStudyFolder(const QString& dir);
    JobRunnerBase* studyJob() const { return studyJob_; }
    results::StudiesPage* studiesPage() const { return studiesPage_; }
    void openSweepPoint(const study::SweepRow& row);

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildMenus();
    void chooseFile();
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void onReadDone(ReadOutcome result);
    void offerStatEncoding(const QString& path, data::ReadOptions options,
                           std::optional<Project> project);
    void beginBusy(JobRunnerBase* job, const QString& what);
    void endBusy(JobRunnerBase* job);
    void showBusy();
    void watchBusy(JobRunnerBase* job);
    void showBusyProgress(JobRunnerBase* job, double fraction, const QString& text);
    void cancelBusyJobs();
    void startOpeningProject(Project project, const QString& path);
    void applyProject(const Project& project);
    void offerToRemoveLeftovers(const Project& project);
    QStringList applyRoles(const study::RunConfig::Data& data);
    bool showsDataFile(const std::string& path) const;
    std::optional<QString> findDataFile(const QString& expected, const QString& whose);
    std::optional<QString> runDataFile(const RunRecord& run);
    void startLoadingRuns(const Project& project);
    void onRunsLoaded(LoadedRuns loaded);
    void onRunsLoadFinished(JobOutcome outcome);
    bool writeProjectFile(const QString& path);
    void onSaveFinished(JobOutcome outcome);
    void removeFoldersOfThisSave();
    void chooseProjectToSave();
    QString askProjectPath();
    QString chooseSavePath(const QString& caption, const QString& dir, const QString& filter,
                           const QStringList& suffixes);
    bool confirmLosingWork(const QString& question, std::function<void()> afterSave);
    bool saveBeforeLosingWork();
    std::string settingsSnapshot() const;
    void markSettingsSaved();
    Project gatherProject() const;
    void buildRunMenu();
    void updateRunActions();
    void chooseRunFolder();
    void chooseReportFile();
    void chooseStudyFolder();

    QTabWidget* tabs_;
    DataPage* dataPage_;
    ModelPage* modelPage_;
    SynthesizersPage* synthesizersPage_;
    RunPanel* runPanel_;
    results::ResultsPage* resultsPage_;
    results::CompareView* compareView_;
    results::StudiesPage* studiesPage_;
    QMenu* recentMenu_ = nullptr;
    QAction* openAction_ = nullptr;
    QAction* saveAction_ = nullptr;
    QAction* openRunAction_ = nullptr;
    QAction* exportAction_ = nullptr;
    QAction* reportAction_ = nullptr;
    QAction* openStudyAction_ = nullptr;
    QLabel* busyLabel_;
    QProgressBar* progress_;
    QPushButton* cancel_;
    JobRunner<ReadOutcome>* readJob_;
    JobRunner<SavedRuns>* saveJob_;
    JobRunner<LoadedRuns>* loadRunsJob_;
    JobRunner<Expected<study::LoadedRun>>* openRunJob_;
    report::ReportJob* reportJob_;
    JobRunner<Expected<study::StudyFolder>>* studyJob_;
    std::optional<study::SweepConfig> shownSweep_;  // the sweep on the Studies tab
    // The configuration the widgets overlay: the opened project's or sweep point's, so what
    // the pages have no widget for (Lipschitz quantile, risk threshold, MCMC tuning, EM's
    // tolerance, ...) is run as loaded rather than reset to the defaults.
    study::RunConfig baseConfig_;
    QString projectNote_;  // the open project's note, saved with it
    QString openingRunDir_;
    QString openingStudyDir_;
    QString readingPath_;
    data::ReadOptions readOptions_;          // how the shown table was read (saved in projects)
    std::optional<Project> pendingProject_;  // applied once its data file is read
    QString pendingProjectPath_;             // becomes projectPath_ when applied
    QString projectPath_;
    QString savingPath_;
    // The run folders the save in progress writes (none existed before it), and the runs
    // folder when this save created it: removed again when the save is cancelled or fails,
    // so neither leaves folders the project does not list.
    QStringList savingFolders_;
    QString savingCreatedRunsDir_;
    RunWriter runWriter_;
    // Runs once the save in progress has written the project file (a deferred close or
    // opening of another project); dropped when the save fails or is cancelled.
    std::function<void()> afterSave_;
    bool closeConfirmed_ = false;  // the person already chose Save or Discard for this close
    std::string savedSettings_;    // settingsSnapshot() when last opened or saved
    std::vector<std::pair<JobRunnerBase*, QString>> busyJobs_;  // newest last, shown
    int runsGeneration_ = 0;  // bumped by every project applied; tags its runs' load
    int loadingGeneration_ = 0;
    JobRunner<LoadedRuns>::Work queuedRunsLoad_;  // starts once the superseded load stopped
    QString queuedRunsText_;                      // its first status-bar text
    WindowQuestions questions_;
};

}  // namespace ppsynth::ui
