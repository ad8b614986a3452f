// "Run on a Slurm cluster...": the study's configuration and folder, the sbatch options, and
// the job-array script core writes (study::cluster::sbatchScript), shown before anything is
// submitted. The dialog only collects and shows; the cluster controller
// (ui/shell/cluster_controller.hpp) plans the folder in the background and submits.
#pragma once

#include <QDialog>
#include <QString>
#include <optional>
#include <vector>

#include "ppsynth/study/cluster_slurm.hpp"

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;

namespace ppsynth::ui::results {

class ClusterDialog : public QDialog {
    Q_OBJECT
  public:
    explicit ClusterDialog(QWidget* parent = nullptr);

    // Where `sbatch` is on PATH the dialog submits; elsewhere it writes the script and says
    // how to submit it on a login node.
    void setSbatchAvailable(bool available);
    bool sbatchAvailable() const { return sbatchAvailable_; }
    // The ppsynth-cli each array task runs (the script's `exec` line).
    void setCliPath(const QString& cli);

    QString configPath() const;
    QString studyFolder() const;
    void setConfigPath(const QString& path);
    void setStudyFolder(const QString& dir);
    study::cluster::SbatchOptions sbatchOptions() const;

    // The folder is planned: the script for `items` (those to submit) is shown and Submit
    // (or Write script) is enabled. Changing an option afterwards shows the new script.
    void showPlanned(const study::cluster::Plan& plan, std::vector<std::size_t> items);
    const std::optional<study::cluster::Plan>& plan() const { return plan_; }
    const std::vector<std::size_t>& items() const { return items_; }
    // The script as it is shown (core's text for the plan and the options), and the sbatch
    // calls that submit it (core's DIR/cluster/submit.sh).
    QString scriptText() const;
    QString callsText() const;

    // A message under the script: an error (red) or what happened and what to do next.
    // `command`, when not empty, is shown in a read-only line to copy.
    void showMessage(const QString& text, bool error, const QString& command = {});
    void setBusy(bool busy, const QString& what = {});

    QLineEdit* configEdit() const { return config_; }
    QLineEdit* folderEdit() const { return folder_; }
    QLineEdit* partitionEdit() const { return partition_; }
    QLineEdit* timeEdit() const { return time_; }
    QLineEdit* memEdit() const { return mem_; }
    QSpinBox* cpusSpin() const { return cpus_; }
    QSpinBox* maxParallelSpin() const { return maxParallel_; }
    QPushButton* planButton() const { return planButton_; }
    QPushButton* submitButton() const { return submitButton_; }
    QPlainTextEdit* scriptView() const { return script_; }
    QPlainTextEdit* callsView() const { return calls_; }
    QLabel* messageLabel() const { return message_; }
    QLineEdit* commandLine() const { return command_; }

  signals:
    void planRequested(const QString& config, const QString& folder);
    void submitRequested();

  private:
    void updateScript();
    void updateButtons();

    QLineEdit* config_ = nullptr;
    QLineEdit* folder_ = nullptr;
    QLineEdit* partition_ = nullptr;
    QLineEdit* time_ = nullptr;
    QLineEdit* mem_ = nullptr;
    QSpinBox* cpus_ = nullptr;
    QSpinBox* maxParallel_ = nullptr;
    QPushButton* planButton_ = nullptr;
    QPushButton* submitButton_ = nullptr;
    QPlainTextEdit* script_ = nullptr;
    QPlainTextEdit* calls_ = nullptr;
    QLabel* message_ = nullptr;
    QLineEdit* command_ = nullptr;
    QLabel* busy_ = nullptr;
    std::optional<study::cluster::Plan> plan_;
    std::vector<std::size_t> items_;
    QString cli_ = QStringLiteral("ppsynth-cli");
    bool sbatchAvailable_ = false;
    bool isBusy_ = false;
};

}  // namespace ppsynth::ui::results
