// Densities of the confidential and the synthetic y (computed in core by
// utility::compareDensities) as line series; DensityPanel puts a second chart beside it for
// the upper tail, where the risk lives and where a full-range plot shows nothing.
#pragma once

#include <QWidget>
#include <vector>

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/plot_chart.hpp"

class QValueAxis;

namespace ppsynth::ui::charts {

class ChartView;

struct DensityCurve {
    QString name;
    utility::Density density;
    Qt::PenStyle style = Qt::SolidLine;
};

class DensityChart : public PlotChart {
    Q_OBJECT
  public:
    explicit DensityChart(QGraphicsItem* parent = nullptr);
    void setValueTitle(const QString& title);
    void setCurves(const std::vector<DensityCurve>& curves);

  private:
    QValueAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
};

class DensityPanel : public QWidget {
    Q_OBJECT
  public:
    explicit DensityPanel(QWidget* parent = nullptr);
    // Shows the tail chart only when the comparison has tail densities.
    void setComparison(const utility::DensityComparison& comparison, const QString& valueTitle,
                       const QString& tailTitle = QString());

    DensityChart* mainChart() const { return main_; }
    DensityChart* tailChart() const { return tail_; }
    ChartView* mainView() const { return mainView_; }
    ChartView* tailView() const { return tailView_; }

  private:
    DensityChart* main_ = nullptr;
    DensityChart* tail_ = nullptr;
    ChartView* mainView_ = nullptr;
    ChartView* tailView_ = nullptr;
};

}  // namespace ppsynth::ui::charts
