// The application's main window: a shell that hosts the pages of the workflow (Data first),
// the File and Run menus with recent files, drag-and-drop opening, and the progress of the
// running jobs. What the menus do lives in the controllers of ui/shell: the project and its
// data file (ProjectController), run folders (RunLibrary), reports and exports
// (ReportController), study folders (StudyController) and the background jobs (JobBoard).
#pragma once

#include <QMainWindow>
#include <QString>
#include <memory>

#include "ui/shell/window_questions.hpp"

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
class JobBoard;
class ModelPage;
class PageSettings;
class ProjectController;
class ReportController;
class RunLibrary;
class RunPanel;
class StudyController;
class SynthesizersPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens a data file or a project, as File > Open does.
    void openFile(const QString& path);

    DataPage* dataPage() const { return dataPage_; }
    ModelPage* modelPage() const { return modelPage_; }
    SynthesizersPage* synthesizersPage() const { return synthesizersPage_; }
    RunPanel* runPanel() const { return runPanel_; }
    results::ResultsPage* resultsPage() const { return resultsPage_; }
    results::CompareView* compareView() const { return compareView_; }
    results::StudiesPage* studiesPage() const { return studiesPage_; }
    QTabWidget* tabs() const { return tabs_; }

    ProjectController* project() const { return project_; }
    RunLibrary* runs() const { return runs_; }
    ReportController* reports() const { return reports_; }
    StudyController* studies() const { return studies_; }
    JobBoard* jobs() const { return jobs_; }
    // What the pages describe: the run configuration (currentConfig()) and the project.
    PageSettings* pageSettings() const { return settings_.get(); }
    WindowQuestions& questions() { return questions_; }

    // The Run menu's actions on a finished run folder. The run they act on is the one
    // selected in the run list; export and report read its folder again, so a run not yet
    // saved (or not loaded) leaves them disabled with a tooltip saying why.
    QAction* openRunAction() const { return openRunAction_; }
    QAction* exportAction() const { return exportAction_; }
    QAction* reportAction() const { return reportAction_; }
    QAction* openStudyAction() const { return openStudyAction_; }

  protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildFileMenu();
    void buildRunMenu();
    void buildStatusBar();
    void connectPages();
    void chooseFile();
    void updateRecentMenu();
    void showBusy();
    void updateRunActions();
    void showRunResults(int id);
    void compareRuns(int left, int right);
    void showStatus(const QString& text, int timeoutMs);

    QTabWidget* tabs_;
    DataPage* dataPage_;
    ModelPage* modelPage_;
    SynthesizersPage* synthesizersPage_;
    RunPanel* runPanel_;
    results::ResultsPage* resultsPage_;
    results::CompareView* compareView_;
    results::StudiesPage* studiesPage_;
    WindowQuestions questions_;
    std::unique_ptr<PageSettings> settings_;
    JobBoard* jobs_;
    RunLibrary* runs_;
    ProjectController* project_;
    ReportController* reports_;
    StudyController* studies_;
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
};

}  // namespace ppsynth::ui
