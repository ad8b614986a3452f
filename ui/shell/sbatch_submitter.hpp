// Submits a planned study's items with sbatch through QProcess, never blocking the GUI
// thread: the items whose prerequisites are not among them first, then the rest after that
// job (--dependency=afterok), with core's arguments (study::cluster::sbatchArguments); each
// job is recorded in DIR/cluster/jobs.json (study::cluster::recordJob) so the progress view
// and `ppsynth-cli cluster status` find it.
#pragma once

#include <QObject>
#include <QProcess>
#include <QString>
#include <optional>

#include "ppsynth/study/cluster_slurm.hpp"

namespace ppsynth::ui {

class SbatchSubmitter : public QObject {
    Q_OBJECT
  public:
    explicit SbatchSubmitter(QObject* parent = nullptr);
    ~SbatchSubmitter() override;

    // `sbatch`: the program (found on PATH by the caller). False while a submission runs.
    bool start(const QString& sbatch, const study::cluster::Plan& plan,
               const study::cluster::Submission& submission, int maxParallel);
    bool isRunning() const { return process_ != nullptr; }

  signals:
    // ok: every array was submitted. message: what happened, with sbatch's own words when it
    // failed and what to do about it.
    void finished(bool ok, const QString& message);

  private:
    void submitNext();
    void processEnded(int exitCode, QProcess::ExitStatus status);
    void fail(const QString& message);

    QString sbatch_;
    std::optional<study::cluster::Plan> plan_;
    study::cluster::Submission submission_;
    int maxParallel_ = 0;
    int stage_ = 0;  // 0: the first array, 1: the second
    QString firstJob_;
    QStringList done_;  // "items 0 as job 12"
    QProcess* process_ = nullptr;
};

}  // namespace ppsynth::ui
