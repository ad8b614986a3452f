// Violins, one per category (e.g. per synthesizer): the KDE outline from core as a mirrored
// QAreaSeries (Qt Charts has no violin series), a thick quartile bar, a white median dot,
// and an optional horizontal mark per violin (Delta, the mean). Violins made by
// utility::logViolinSummary are drawn on a log axis (values spanning orders of magnitude:
// record bounds on a skewed income, weights down to 1e-4); their zeros are left out and
// counted in the axis title.
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/plot_chart.hpp"

class QAreaSeries;
class QAbstractAxis;
class QCategoryAxis;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace ppsynth::ui::charts {

struct Violin {
    QString name;
    utility::ViolinSummary summary;
    std::optional<double> mark;  // drawn as a short horizontal line across the violin
    QString markLabel;           // e.g. "Δ" or "mean"; names the legend entry
};

class ViolinChart : public PlotChart {
    Q_OBJECT
  public:
    explicit ViolinChart(QGraphicsItem* parent = nullptr);

    void setValueTitle(const QString& title);
    // Replaces all violins. Each violin's widest point spans 0.8 of its category. The value
    // axis is logarithmic when the violins are log-scale ones (ViolinSummary::logScale).
    void setViolins(std::vector<Violin> violins);
    const std::vector<Violin>& violins() const { return violins_; }
    bool logScale() const { return logScale_; }
    // The value axis in use (a QValueAxis, or a QLogValueAxis on a log scale).
    QAbstractAxis* valueAxis() const;

    // The violin under the mouse: its name, n, quartiles, range and mark.
    QString hoverText(const QPointF& scenePos, qreal radius = 12) const override;

  private:
    void useLogAxis(bool log);

    std::vector<Violin> violins_;
    QString valueTitle_;
    bool logScale_ = false;
    QCategoryAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
    QLogValueAxis* logAxis_ = nullptr;  // owned by this chart (a child) while not attached
};

}  // namespace ppsynth::ui::charts
