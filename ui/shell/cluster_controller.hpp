// Studies on a Slurm cluster, from the Studies page: the "Run on a Slurm cluster..." dialog
// (plan the folder in the background, show core's script, submit with sbatch or write the
// script and say how to submit it) and the progress of a planned folder the cluster fills,
// refreshed in the background (a timer, and a QFileSystemWatcher on its items and logs)
// until every item is done, when the study controller assembles the curve or summaries.
#pragma once

#include <QObject>
#include <QString>
#include <QTimer>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/cluster_slurm.hpp"
#include "ui/job_runner.hpp"

class QFileSystemWatcher;
class QWidget;

namespace ppsynth::ui {

namespace results {
class ClusterDialog;
class ClusterProgressView;
}  // namespace results

class JobBoard;
class SbatchSubmitter;

class ClusterController : public QObject {
    Q_OBJECT
  public:
    ClusterController(results::ClusterProgressView* view, JobBoard* jobs, QWidget* window);

    // Shows the dialog (made on first use; it keeps its settings while the window lives).
    void showDialog();
    results::ClusterDialog* dialog();
    // The ppsynth-cli the array tasks run: by default the one beside this program, else the
    // one on PATH.
    void setCliPath(const QString& cli);
    const QString& cliPath() const { return cli_; }

    // Plans `folder` from the configuration `config` in the background and shows the script.
    void plan(const QString& config, const QString& folder);
    // Writes the scripts of the planned folder; submits them where sbatch is on PATH.
    void submit();

    // Shows `dir`'s progress and follows it until every item is done (everyItemDone).
    void watch(const QString& dir);
    void stopWatching();
    void refresh();
    const QString& watchedFolder() const { return watched_; }
    void setRefreshInterval(int ms) { timer_.setInterval(ms); }

    JobRunnerBase* planJob() const { return planJob_; }
    JobRunnerBase* statusJob() const { return statusJob_; }
    SbatchSubmitter* submitter() const { return submitter_; }

  signals:
    void watching(const QString& dir);
    void everyItemDone(const QString& dir);
    void statusMessage(const QString& text, int timeoutMs);

  private:
    void watchPaths();

    results::ClusterProgressView* view_;
    JobBoard* jobs_;
    QWidget* window_;
    results::ClusterDialog* dialog_ = nullptr;
    QString cli_;
    JobRunner<Expected<study::cluster::ClusterStatus>>* planJob_;
    JobRunner<Expected<study::cluster::ClusterStatus>>* statusJob_;
    SbatchSubmitter* submitter_;
    QString watched_;
    std::vector<std::string> stuck_;                   // of the planned folder, for scancel
    std::optional<study::cluster::Plan> lastWatched_;  // prefills the dialog
    QTimer timer_;
    QTimer soon_;  // a change in the folder: refresh shortly (several changes, one refresh)
    QFileSystemWatcher* fsWatcher_;
};

}  // namespace ppsynth::ui
