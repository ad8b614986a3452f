// Plain line plots over a value axis pair: MCMC trace plots (one line per chain against the
// iteration), or any other "value against step" picture. Hover uses PlotChart's nearest
// point, which names the line (e.g. "chain 2").
#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <vector>

#include "ui/charts/plot_chart.hpp"

class QValueAxis;

namespace ppsynth::ui::charts {

struct Line {
    QString name;
    QList<QPointF> points;
};

class LineChart : public PlotChart {
    Q_OBJECT
  public:
    explicit LineChart(QGraphicsItem* parent = nullptr);
    void setAxisTitles(const QString& x, const QString& y);
    // Replaces all lines; the axes span every point with a small margin on y.
    void setLines(const std::vector<Line>& lines, qreal width = 1.0);

  private:
    QValueAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
};

}  // namespace ppsynth::ui::charts
