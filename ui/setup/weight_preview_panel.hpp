// The live preview beside the LW knobs: once an unweighted fit exists (its per-record
// bounds f_i), every move of c, g or M recomputes the weights in core
// (study::previewLipschitzWeights, O(n)) and redraws their histogram and the predicted
// bound max_i alpha_i f_i at once, before any refit. Everything here is labelled "Preview":
// the refit moves the f_i, so the run's Delta_{alpha,x} differs somewhat.
#pragma once

#include <Eigen/Core>
#include <QWidget>
#include <optional>

#include "ppsynth/study/preview.hpp"

class QAreaSeries;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace ppsynth::ui {

namespace charts {
class ChartView;
class PlotChart;
}  // namespace charts

class WeightPreviewPanel : public QWidget {
    Q_OBJECT
  public:
    static constexpr std::size_t kBins = 20;

    explicit WeightPreviewPanel(QWidget* parent = nullptr);

    // The unweighted fit's per-record bounds f_i; `source` says which run they came from.
    void setBounds(Eigen::VectorXd f, const QString& source);
    void clearBounds();
    bool hasBounds() const { return f_.size() > 0; }

    // Recomputes and redraws for the named synthesizer's knobs (no-op without bounds).
    void preview(const QString& synthesizer, double c, double g, std::optional<double> M);
    // No synthesizer to preview: the chart empties and `why` says what to do (the
    // placeholder stays while there are no bounds).
    void clearPreview(const QString& why);

    const std::optional<study::WeightPreview>& lastPreview() const { return last_; }
    QLabel* boundLabel() const { return bound_; }
    QLineSeries* histogramSeries() const { return upper_; }
    charts::ChartView* chartView() const { return view_; }
    QValueAxis* countAxis() const { return y_; }

  private:
    void showPlaceholder();
    void showEmptyChart();

    Eigen::VectorXd f_;
    QString source_;
    std::optional<study::WeightPreview> last_;
    QLabel* heading_;
    QLabel* bound_;
    QLabel* sourceLabel_;
    charts::PlotChart* chart_;
    charts::ChartView* view_;
    QLineSeries* upper_;
    QAreaSeries* area_;
    QValueAxis* x_;
    QValueAxis* y_;
};

}  // namespace ppsynth::ui
