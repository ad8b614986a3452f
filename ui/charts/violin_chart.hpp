// Violins, one per category (e.g. per synthesizer): the KDE outline from core as a mirrored
// QAreaSeries (Qt Charts has no violin series), a thick quartile bar, a white median dot,
// and an optional horizontal mark per violin (Delta, the mean).
#pragma once

#include <QString>
#include <optional>
#include <vector>

#include "ppsynth/utility/kde.hpp"
#include "ui/charts/plot_chart.hpp"

class QAreaSeries;
class QCategoryAxis;
class QLineSeries;
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
    // Replaces all violins. Each violin's widest point spans 0.8 of its category.
    void setViolins(std::vector<Violin> violins);
    const std::vector<Violin>& violins() const { return violins_; }

    // The violin under the mouse: its name, n, quartiles, range and mark.
    QString hoverText(const QPointF& scenePos, qreal radius = 12) const override;

  private:
    std::vector<Violin> violins_;
    QCategoryAxis* xAxis_ = nullptr;
    QValueAxis* yAxis_ = nullptr;
};

}  // namespace ppsynth::ui::charts
