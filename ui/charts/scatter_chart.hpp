// Scatter plots of up to a few hundred thousand records (bound vs weight, synthetic vs
// confidential y, IR weighted vs unweighted, weight vs y). The full data stays here; the
// series gets only what is visible, in one QXYSeries::replace() (a single pointsReplaced
// signal and one geometry update, where append() signals and relayouts per point). Above
// the decimation threshold the visible points are thinned on a grid of cells (one point per
// occupied cell, extremes kept), so zoomed out the picture is the same and zoomed in every
// point is shown. The points are a QLineSeries without a pen, with visible "light markers"
// (one image blitted per point): in Qt 6.4 a QScatterSeries makes a QGraphicsItem per point
// and adds each to a group, which costs O(n^2) (20,000 points: 1.7 s; bench_charts).
#pragma once

#include <QList>
#include <QPointF>
#include <QTimer>
#include <optional>
#include <vector>

#include "ui/charts/plot_chart.hpp"

class QLineSeries;
class QValueAxis;

namespace ppsynth::ui::charts {

class ScatterChart : public PlotChart {
    Q_OBJECT
  public:
    explicit ScatterChart(QGraphicsItem* parent = nullptr);

    void setAxisTitles(const QString& x, const QString& y);
    // Point i is record i (hover says "record i+1"). Resets the zoom to the data's range.
    void setPoints(QList<QPointF> points, const QString& name = QString());
    // Records drawn on top in a second colour (e.g. the highest risks).
    void setHighlighted(std::vector<qsizetype> records, const QString& name);
    // A second full set of records in another colour, thinned like the first (e.g. the same
    // records after re-weighting). Point i is again record i. setPoints() clears it; the axes
    // are refitted to both sets.
    void setOverlayPoints(QList<QPointF> points, const QString& name);
    qsizetype totalOverlayPoints() const { return overlay_.size(); }
    QLineSeries* overlaySeries() const { return overlay_series_; }
    // Reference lines: y = x, and a horizontal line (e.g. at Delta) with a legend label.
    void setIdentityLine(bool visible);
    void setHorizontalLine(std::optional<double> y, const QString& label = QString());

    // Show every visible point while at most this many are visible (default 20,000).
    void setDecimationThreshold(qsizetype threshold);
    qsizetype decimationThreshold() const { return threshold_; }

    qsizetype totalPoints() const { return points_.size(); }
    qsizetype shownPoints() const;
    qsizetype visiblePoints() const { return visible_; }  // before thinning
    QLineSeries* pointSeries() const { return points_series_; }
    QLineSeries* highlightSeries() const { return highlight_series_; }

    // Recompute what is shown for the current axis ranges (normally done on the next event
    // loop pass after a zoom or pan; call directly to skip the wait).
    void refreshNow();

    QString hoverText(const QPointF& scenePos, qreal radius = 12) const override;

  signals:
    void displayRefreshed(qsizetype shown, qsizetype visible);

  private:
    QList<QPointF> thin(const QList<QPointF>& all, const std::vector<qsizetype>* subset,
                        qsizetype* visibleCount) const;
    void updateReferenceLines();
    void fitRanges();

    QList<QPointF> points_;
    QList<QPointF> overlay_;
    std::vector<qsizetype> highlighted_;
    std::optional<double> hline_;
    bool identity_ = false;
    qsizetype threshold_ = 20000;
    qsizetype visible_ = 0;
    QValueAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
    QLineSeries* points_series_ = nullptr;
    QLineSeries* highlight_series_ = nullptr;
    QLineSeries* overlay_series_ = nullptr;
    QLineSeries* identity_series_ = nullptr;
    QLineSeries* hline_series_ = nullptr;
    QTimer refreshTimer_;
};

// A round, antialiased marker image for QXYSeries::setLightMarker.
QImage markerImage(const QColor& fill, int diameter, const QColor& border = QColor());

}  // namespace ppsynth::ui::charts
