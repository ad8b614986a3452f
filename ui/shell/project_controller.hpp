// The open project and its data file (Tiled's DocumentManager and ProjectManager in one):
// opening data files and projects (their data read in the background), Save and Save As,
// what closing or opening another project would lose and the question about it, the recent
// files, and the offer to remove what a stopped ppsynth left beside a project's runs.
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/inspect.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/data/table.hpp"
#include "ui/job_runner.hpp"
#include "ui/project_file.hpp"
#include "ui/shell/project_saver.hpp"
#include "ui/shell/shell_pages.hpp"

class QWidget;

namespace ppsynth::ui {

class JobBoard;
class PageSettings;
class RunLibrary;
struct WindowQuestions;

// What a background read hands back: the table or the error, and the reader's notes.
struct ReadOutcome {
    Expected<data::Table> table;
    data::ReadReport report;
    data::TableSummary summary;  // suggested roles and transform, made on the worker
};

class ProjectController : public QObject {
    Q_OBJECT
  public:
    static constexpr int kMaxRecentFiles = 8;

    ProjectController(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                      RunLibrary* runs, WindowQuestions* questions, QWidget* window);

    // Shows a table built elsewhere (tests, examples); `source` names where it came from.
    void setTable(data::Table table, const QString& source);
    // Other data than the project's is shown: Save must not write it under the project's name.
    void leaveProject();
    // Opens a file: CSV files ask for their options first, SPSS/Stata/SAS files for their
    // encoding (questions.statOptions); projects open as projects.
    void openFile(const QString& path);
    // Reads a file with the given options in the background (progress bar and Cancel).
    bool readFile(const QString& path, const data::ReadOptions& options);
    JobRunnerBase* readJob() const { return readJob_; }

    // Projects (.ppsynth). Saving writes the runs not yet saved to folders beside the
    // project on a worker thread, then the small project file; false when it cannot start
    // (or, with no runs to write, when writing the project file failed).
    bool saveProject(const QString& path) { return saver_->saveProject(path); }
    void setRunWriter(ProjectSaver::RunWriter writer) { saver_->setRunWriter(std::move(writer)); }
    JobRunnerBase* saveJob() const { return saver_->saveJob(); }
    // File > Save Project (asks for a file when there is no project yet) and Save As.
    void save();
    void saveAs();
    // Opens a project: reads its data file in the background, then restores roles, model,
    // synthesizers and the list of saved runs, and offers to remove what a ppsynth stopped
    // part-way left beside its runs (questions.removeLeftovers). Unsaved work of the shown one
    // is asked about first (questions.unsavedWork); the project becomes projectPath() once
    // applied.
    void openProject(const QString& path);
    QString projectPath() const { return projectPath_; }
    // What closing or opening another project would lose now, one item per line (empty when
    // nothing): a run or save in progress, finished runs only in memory, changed settings.
    QStringList unsavedWork() const;
    // Whether the window may close now. When the person chose to save first and the save
    // runs in the background, or a save is running, `close` is called once it has written
    // the project file.
    bool mayClose(std::function<void()> close);

    QStringList recentFiles() const;

  signals:
    void titleChanged(const QString& title);
    void statusMessage(const QString& text, int timeoutMs);
    void recentFilesChanged();
    void actionsChanged();

  private:
    void onReadDone(ReadOutcome result);
    void offerStatEncoding(const QString& path, data::ReadOptions options,
                           std::optional<Project> project);
    void startOpeningProject(Project project, const QString& path);
    void applyProject(const Project& project);
    void offerToRemoveLeftovers(const Project& project);
    void onProjectWritten(const QString& path);
    void addRecentFile(const QString& path);
    QString askProjectPath();
    bool confirmLosingWork(const QString& question, std::function<void()> afterSave);
    bool saveBeforeLosingWork();

    ShellPages pages_;
    JobBoard* jobs_;
    PageSettings* settings_;
    RunLibrary* runs_;
    WindowQuestions* questions_;
    QWidget* window_;
    JobRunner<ReadOutcome>* readJob_;
    ProjectSaver* saver_;
    QString readingPath_;
    std::optional<Project> pendingProject_;  // applied once its data file is read
    QString pendingProjectPath_;             // becomes projectPath_ when applied
    QString projectPath_;
    bool closeConfirmed_ = false;  // the person already chose Save or Discard for this close
};

}  // namespace ppsynth::ui
