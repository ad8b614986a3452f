// The Studies tab's source: the output folder of `ppsynth-cli simulate` or `sweep`, read (or
// resumed) in the background, and a point of the risk-utility curve loaded into the pages.
#pragma once

#include <QObject>
#include <QString>
#include <optional>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/study_folder.hpp"
#include "ui/job_runner.hpp"
#include "ui/shell/shell_pages.hpp"

class QWidget;

namespace ppsynth::ui {

class ClusterController;
class JobBoard;
class PageSettings;

class StudyController : public QObject {
    Q_OBJECT
  public:
    StudyController(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                    QWidget* window);

    // Reads the output folder of `ppsynth-cli simulate` or `sweep` in the background
    // (study::openStudyFolder) and shows it on the Studies tab; false when it cannot start.
    // A planned folder (DIR/plan.json: a cluster fills it) shows its progress instead, and
    // is read once every item is done.
    bool openStudyFolder(const QString& dir);
    ClusterController* cluster() const { return cluster_; }
    void chooseStudyFolder();
    JobRunnerBase* studyJob() const { return studyJob_; }
    // Loads a point of the shown sweep: its roles (when the Data page shows the sweep's data
    // file; a warning otherwise), model, synthesizers and every setting the pages have no
    // widget for (currentConfig() keeps them).
    void openSweepPoint(const study::SweepRow& row);

  signals:
    void actionsChanged();
    void statusMessage(const QString& text, int timeoutMs);

  private:
    bool readStudyFolder(const QString& dir);

    ShellPages pages_;
    JobBoard* jobs_;
    PageSettings* settings_;
    QWidget* window_;
    JobRunner<Expected<study::StudyFolder>>* studyJob_;
    std::optional<study::SweepConfig> shownSweep_;  // the sweep on the Studies tab
    QString openingStudyDir_;
    ClusterController* cluster_;
};

}  // namespace ppsynth::ui
