// The Run menu's outputs of a finished run: the release bundle (Export dialog) and the
// disclosure-review report, written in the background from the run's folder.
#pragma once

#include <QObject>
#include <QString>

#include "ui/shell/shell_pages.hpp"

class QWidget;

namespace ppsynth::ui {

namespace report {
class ReportJob;
}

class JobBoard;
class JobRunnerBase;
class RunLibrary;
struct WindowQuestions;

class ReportController : public QObject {
    Q_OBJECT
  public:
    ReportController(const ShellPages& pages, JobBoard* jobs, RunLibrary* runs,
                     WindowQuestions* questions, QWidget* window);

    // Opens the Export dialog (modal) for the current run; false without one, or when its
    // data file has moved and the person did not locate it.
    bool exportRelease();
    // Writes the current run's disclosure-review report (.html or .pdf by extension): its
    // folder is read on a worker thread, the charts and the file are then made on the GUI
    // thread (Qt Charts needs it); the outcome is said in the message area. False when it
    // cannot start, also for a path inside a release bundle (the report is confidential).
    bool writeReport(const QString& path);
    void chooseReportFile();
    JobRunnerBase* reportJob() const;

  signals:
    void actionsChanged();

  private:
    ShellPages pages_;
    JobBoard* jobs_;
    RunLibrary* runs_;
    WindowQuestions* questions_;
    QWidget* window_;
    report::ReportJob* reportJob_;
};

}  // namespace ppsynth::ui
