#include "ui/results/studies_page.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include "ui/charts/curve_chart.hpp"
#include "ui/results/chart_card.hpp"
#include "ui/results/cluster_progress_view.hpp"
#include "ui/results/study_charts.hpp"

namespace ppsynth::ui::results {

StudiesPage::StudiesPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    auto* actions = new QHBoxLayout;
    openFolder_ = new QPushButton(tr("Open Study Folder..."));
    openFolder_->setToolTip(
        tr("The output folder of ppsynth-cli simulate or sweep, or a study folder a cluster "
           "is filling"));
    runOnCluster_ = new QPushButton(tr("Run on a Slurm cluster..."));
    runOnCluster_->setToolTip(
        tr("Plan a sweep or simulation folder and run its items as a Slurm job array"));
    actions->addWidget(openFolder_);
    actions->addWidget(runOnCluster_);
    actions->addStretch();
    layout->addLayout(actions);
    connect(openFolder_, &QPushButton::clicked, this, &StudiesPage::openFolderRequested);
    connect(runOnCluster_, &QPushButton::clicked, this, &StudiesPage::clusterRunRequested);
    tabs_ = new QTabWidget(this);
    layout->addWidget(tabs_);

    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* inner = new QWidget;
    simulationGrid_ = new QGridLayout(inner);
    simulationGrid_->setColumnStretch(0, 1);
    simulationGrid_->setColumnStretch(1, 1);
    simulationGrid_->addWidget(new QLabel(tr("No simulation yet.")), 0, 0);
    scroll->setWidget(inner);
    tabs_->addTab(scroll, tr("Local to global"));

    sweepPage_ = new QWidget;
    auto* sweepLayout = new QVBoxLayout(sweepPage_);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Vertical axis:")));
    measure_ = new QComboBox;
    for (auto m : {SweepMeasure::MeanWeight, SweepMeasure::MeanRisk, SweepMeasure::HighRiskRecords})
        measure_->addItem(toString(m), static_cast<int>(m));
    row->addWidget(measure_);
    row->addStretch();
    sweepLayout->addLayout(row);
    sweepLayout->addStretch();
    tabs_->addTab(sweepPage_, tr("Risk-utility"));
    cluster_ = new ClusterProgressView;
    tabs_->addTab(cluster_, tr("Cluster"));
    connect(measure_, &QComboBox::currentIndexChanged, this, &StudiesPage::rebuildCurve);
}

void StudiesPage::showClusterProgress() {
    tabs_->setCurrentWidget(cluster_);
}

void StudiesPage::showSimulation(study::SimulateSummary simulation) {
    simulation_ = std::move(simulation);
    tabs_->setCurrentIndex(0);  // what was just opened
    while (QLayoutItem* item = simulationGrid_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    int row = 0;
    for (const auto& mech : simulation_->config.mechanisms) {
        simulationGrid_->addWidget(
            new ChartCard(contractionViolins(*simulation_, mech), tr("Contraction")), row, 0);
        simulationGrid_->addWidget(new ChartCard(deltaHatChart(*simulation_, mech), tr("δ̂")), row,
                                   1);
        ++row;
    }
}

QList<ChartCard*> StudiesPage::simulationCards() const {
    QList<ChartCard*> out;
    for (int i = 0; i < simulationGrid_->count(); ++i)
        if (auto* c = qobject_cast<ChartCard*>(simulationGrid_->itemAt(i)->widget())) out << c;
    return out;
}

void StudiesPage::showSweep(study::SweepSummary sweep) {
    sweep_ = std::move(sweep);
    rebuildCurve();
    tabs_->setCurrentWidget(sweepPage_);  // what was just opened
}

void StudiesPage::rebuildCurve() {
    if (!sweep_) return;
    delete curve_;
    const auto measure = static_cast<SweepMeasure>(measure_->currentData().toInt());
    curve_ = new ChartCard(riskUtilityCurve(*sweep_, measure), tr("Risk-utility curve"));
    static_cast<QVBoxLayout*>(sweepPage_->layout())->insertWidget(1, curve_, 1);
    if (auto* chart = qobject_cast<charts::CurveChart*>(curve_->chart())) {
        connect(chart, &charts::CurveChart::pointClicked, this, &StudiesPage::choosePoint);
    }
}

void StudiesPage::choosePoint(int curve, int index) {
    if (!sweep_) return;
    if (auto* chart = curve_ ? qobject_cast<charts::CurveChart*>(curve_->chart()) : nullptr)
        chart->selectPoint(curve, index);
    if (const auto* row = sweepRowAt(*sweep_, curve, index)) emit sweepPointChosen(*row);
}

}  // namespace ppsynth::ui::results

#include "moc_studies_page.cpp"
