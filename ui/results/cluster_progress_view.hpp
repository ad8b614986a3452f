// A study folder a Slurm cluster is filling (planned with "Run on a Slurm cluster..." or
// `--plan`): each item's state as `ppsynth-cli cluster status` reports it (core's
// study::cluster::clusterStatus), the counts, and the log of a failed item. The study
// controller refreshes it in the background; the curve or summaries replace it once every
// item is done.
#pragma once

#include <QString>
#include <QWidget>
#include <optional>

#include "ppsynth/study/cluster_slurm.hpp"

class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace ppsynth::ui::results {

class ClusterProgressView : public QWidget {
    Q_OBJECT
  public:
    explicit ClusterProgressView(QWidget* parent = nullptr);

    void showStatus(const study::cluster::ClusterStatus& status, const QString& checkedAt);
    // The folder could not be read (no plan.json, a damaged one).
    void showProblem(const QString& text);
    // Shows item `item`'s log: its last lines (failed items) and the file's name.
    void showLog(std::size_t item);

    QLabel* summaryLabel() const { return summary_; }
    QProgressBar* progressBar() const { return bar_; }
    QTableWidget* table() const { return table_; }
    QPlainTextEdit* logView() const { return log_; }
    QPushButton* openLogButton() const { return openLog_; }
    QPushButton* refreshButton() const { return refresh_; }
    QString shownLogPath() const { return logPath_; }

  signals:
    void refreshRequested();

  private:
    QLabel* folder_ = nullptr;
    QLabel* summary_ = nullptr;
    QProgressBar* bar_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* logTitle_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QPushButton* openLog_ = nullptr;
    QPushButton* refresh_ = nullptr;
    std::optional<study::cluster::ClusterStatus> status_;
    QString logPath_;
};

}  // namespace ppsynth::ui::results
