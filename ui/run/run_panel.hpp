// The Run page: starts the comparison set up on the other pages on a worker thread
// (JobRunner), shows its progress per fit and chain with the time remaining, cancels it,
// and keeps every finished run in the session's run list. The window stays usable during
// a run: the worker only writes to a ProgressBoard that the page reads at 20 Hz.
#pragma once

#include <QElapsedTimer>
#include <QThreadPool>
#include <QWidget>
#include <atomic>
#include <functional>
#include <memory>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/job_runner.hpp"

class QLabel;
class QPushButton;

namespace ppsynth::ui {

class ProgressBoard;
class RunList;
class RunProgress;

class RunPanel : public QWidget {
    Q_OBJECT
  public:
    // What to run and on which table, asked for when Run is pressed.
    using ConfigSource = std::function<Expected<study::RunConfig>()>;
    using TableSource = std::function<std::shared_ptr<const data::Table>()>;

    explicit RunPanel(QWidget* parent = nullptr);
    ~RunPanel() override;

    void setSources(ConfigSource config, TableSource table);
    // Starts a run; false (with the reason shown on the page) when it cannot.
    bool startRun();
    void cancelRun();
    bool isRunning() const;

    RunList* runList() const { return list_; }
    RunProgress* progress() const { return progress_; }
    QPushButton* runButton() const { return run_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* messageLabel() const { return message_; }
    // What the current (or last) run fits and the warnings about its settings, shown from
    // the moment its data are prepared, before the first fit.
    QLabel* designLabel() const { return design_; }
    QLabel* warningsLabel() const { return warnings_; }
    JobRunnerBase* job() const { return job_; }
    // Seconds from Cancel to the worker having stopped, for the last cancelled run.
    double lastCancelSeconds() const { return lastCancelSeconds_; }

  signals:
    void runStarted();
    // A run finished and was added to the list under `id`.
    void runFinished(int id);
    // Any end: done, cancelled or failed.
    void runEnded();

  private:
    void onResult(Expected<study::RunResult> result);
    void onFinished(JobOutcome outcome);
    void showMessage(const QString& text, bool error);
    void showStart(const study::RunStart& start);
    void showWarnings(const std::vector<std::string>& warnings);

    ConfigSource configSource_;
    TableSource tableSource_;
    std::shared_ptr<const data::Table> runningTable_;
    std::shared_ptr<ProgressBoard> board_;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    QElapsedTimer cancelClock_;
    QThreadPool pool_;  // the runs' own threads (lowered priority)
    double lastCancelSeconds_ = -1;
    bool designShown_ = false;  // the current run's design reached the page
    QPushButton* run_;
    QPushButton* cancel_;
    QLabel* message_;
    QLabel* design_;
    QLabel* warnings_;
    RunProgress* progress_;
    RunList* list_;
    JobRunner<Expected<study::RunResult>>* job_;
};

}  // namespace ppsynth::ui
