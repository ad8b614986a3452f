// The risk-utility curve: (epsilon, utility) per mechanism (e.g. LW and EM) as a line with
// clickable points. Clicking a point selects it and emits pointClicked(curve, index) so the
// caller can show that configuration's results.
#pragma once

#include <QString>
#include <vector>

#include "ui/charts/plot_chart.hpp"

class QScatterSeries;
class QValueAxis;

namespace ppsynth::ui::charts {

struct CurvePoint {
    double x = 0;   // e.g. epsilon
    double y = 0;   // e.g. utility
    QString label;  // shown on hover, e.g. "alpha = 0.8"
};

struct Curve {
    QString name;
    std::vector<CurvePoint> points;
};

class CurveChart : public PlotChart {
    Q_OBJECT
  public:
    explicit CurveChart(QGraphicsItem* parent = nullptr);
    void setAxisTitles(const QString& x, const QString& y);
    void setCurves(std::vector<Curve> curves);
    const std::vector<Curve>& curves() const { return curves_; }

    // Marks one point as selected (and clears the others); -1 clears.
    void selectPoint(int curve, int index);
    QScatterSeries* pointSeries(int curve) const;

    QString hoverText(const QPointF& scenePos, qreal radius = 12) const override;

  signals:
    void pointClicked(int curve, int index);

  private:
    void onClicked(int curve, const QPointF& value);

    std::vector<Curve> curves_;
    std::vector<QScatterSeries*> scatter_;
    QValueAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
};

}  // namespace ppsynth::ui::charts
