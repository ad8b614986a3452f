// Base of the project's charts: applies the house style and answers "what is under the
// mouse" so ChartView can show it. The default answer is the nearest point of any XY series
// (in pixels); adapters with richer data (full scatter data, violins) override it. A vertical
// axis title longer than the plot is high is shown on two or more lines (Qt Charts would cut
// it short with "..."), whenever the plot area or the title changes.
#pragma once

#include <QChart>
#include <QPointF>
#include <QString>

class QAbstractAxis;
class QXYSeries;

namespace ppsynth::ui::charts {

class PlotChart : public QChart {
    Q_OBJECT
  public:
    explicit PlotChart(QGraphicsItem* parent = nullptr);

    // Text for a hover at `scenePos` (scene coordinates of the chart's scene), empty when
    // nothing is within `radius` pixels.
    virtual QString hoverText(const QPointF& scenePos, qreal radius = 12) const;

    // Series marked this way (reference lines, decorations) are ignored by hoverText().
    static void setHoverable(QXYSeries* series, bool hoverable);
    static bool isHoverable(const QXYSeries* series);

    // QChart's mapping functions are not const; these are, for use in hoverText().
    QPointF toPixel(const QPointF& value, const QAbstractSeries* series) const;
    QPointF toValue(const QPointF& pixel, const QAbstractSeries* series) const;

    // Axis titles used in hover texts; empty when the axis has none.
    QString xTitle() const;
    QString yTitle() const;
    // `axis`'s title as it was set, also while it is shown on lines.
    static QString axisTitle(const QAbstractAxis* axis);

  private:
    void fitAxisTitles();
};

// Compact number for labels and tooltips: 4 significant digits.
QString formatValue(double v);

}  // namespace ppsynth::ui::charts
