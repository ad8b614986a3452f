// The studies beyond one run: the local-to-global simulation (contraction violins and
// delta_hat per mechanism) and the risk-utility sweep (epsilon against a chosen measure, LW
// and EM; clicking a point asks to open that setting). Shows finished summaries; running
// the studies is the caller's (JobRunner over study::runSimulation / study::runSweep).
#pragma once

#include <QList>
#include <QMetaType>
#include <QWidget>
#include <optional>

#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"

class QComboBox;
class QGridLayout;
class QTabWidget;

class QPushButton;

namespace ppsynth::ui::results {

class ChartCard;
class ClusterProgressView;

class StudiesPage : public QWidget {
    Q_OBJECT
  public:
    explicit StudiesPage(QWidget* parent = nullptr);

    void showSimulation(study::SimulateSummary simulation);
    void showSweep(study::SweepSummary sweep);

    // A study folder a Slurm cluster is filling: its progress (the Cluster tab).
    ClusterProgressView* clusterView() const { return cluster_; }
    void showClusterProgress();

    QTabWidget* tabs() const { return tabs_; }
    QPushButton* openFolderButton() const { return openFolder_; }
    QPushButton* clusterButton() const { return runOnCluster_; }
    QComboBox* measureChooser() const { return measure_; }
    QList<ChartCard*> simulationCards() const;
    ChartCard* curveCard() const { return curve_; }
    // What clicking point `index` of curve `curve` does (tests call it directly).
    void choosePoint(int curve, int index);

  signals:
    // A point of the risk-utility curve was clicked: the row behind it (knobs, mechanism).
    void sweepPointChosen(const study::SweepRow& row);
    // "Open Study Folder..." and "Run on a Slurm cluster..." on the page.
    void openFolderRequested();
    void clusterRunRequested();

  private:
    void rebuildCurve();

    std::optional<study::SimulateSummary> simulation_;
    std::optional<study::SweepSummary> sweep_;
    QTabWidget* tabs_ = nullptr;
    QGridLayout* simulationGrid_ = nullptr;
    QWidget* sweepPage_ = nullptr;
    QComboBox* measure_ = nullptr;
    ChartCard* curve_ = nullptr;
    ClusterProgressView* cluster_ = nullptr;
    QPushButton* openFolder_ = nullptr;
    QPushButton* runOnCluster_ = nullptr;
};

}  // namespace ppsynth::ui::results

Q_DECLARE_METATYPE(ppsynth::study::SweepRow)
