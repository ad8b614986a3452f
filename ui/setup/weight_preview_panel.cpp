#include "ui/setup/weight_preview_panel.hpp"

#include <QAreaSeries>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/charts/plot_chart.hpp"
#include "ui/counted.hpp"

namespace ppsynth::ui {

WeightPreviewPanel::WeightPreviewPanel(QWidget* parent)
    : QWidget(parent),
      heading_(new QLabel(this)),
      bound_(new QLabel(this)),
      sourceLabel_(new QLabel(this)),
      chart_(new charts::PlotChart),
      view_(new charts::ChartView(chart_, this)),
      upper_(new QLineSeries(this)),  // the area series does not own it
      area_(new QAreaSeries(upper_)),
      x_(charts::makeValueAxis(tr("weight alpha_i"))),
      y_(charts::makeCountAxis(tr("records"))) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    heading_->setText(tr("<b>Preview</b> (from the unweighted fit, before any refit)"));
    heading_->setToolTip(
        tr("Computed from the unweighted fit's per-record bounds f_i alone. The refit under "
           "the new weights changes the posterior, so the run's Delta_{alpha,x} will differ "
           "somewhat from the predicted bound."));
    bound_->setWordWrap(true);
    bound_->setTextFormat(Qt::RichText);
    sourceLabel_->setWordWrap(true);
    sourceLabel_->setStyleSheet(QStringLiteral("color: #555;"));
    layout->addWidget(heading_);
    layout->addWidget(bound_);
    chart_->setTitle(tr("Preview: distribution of the LW weights"));
    area_->setName(tr("records per weight bin"));
    area_->setColor(charts::seriesColor(0));
    area_->setBorderColor(charts::seriesColor(0).darker(130));
    chart_->addSeries(area_);
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    area_->attachAxis(x_);
    area_->attachAxis(y_);
    charts::setValueRange(x_, 0, 1);
    chart_->legend()->hide();
    view_->setMinimumSize(320, 240);
    layout->addWidget(view_, 1);
    layout->addWidget(sourceLabel_);
    showPlaceholder();
}

void WeightPreviewPanel::showPlaceholder() {
    bound_->setText(
        tr("No unweighted fit yet. Run once (any synthesizers) and moving c, g or "
           "M will show the weights and the bound they predict here."));
    sourceLabel_->clear();
    showEmptyChart();
}

// No histogram: no record counts to show, so no count axis (its numbers would be for a
// made-up range).
void WeightPreviewPanel::showEmptyChart() {
    upper_->clear();
    charts::setValueRange(y_, 0, 1);
    y_->setVisible(false);
    last_.reset();
}

void WeightPreviewPanel::setBounds(Eigen::VectorXd f, const QString& source) {
    f_ = std::move(f);
    source_ = source;
    sourceLabel_->setText(tr("Bounds f_i of %1 from %2.")
                              .arg(counted(f_.size(), tr("record"), tr("records")), source_));
}

void WeightPreviewPanel::clearPreview(const QString& why) {
    if (!hasBounds()) return;
    bound_->setText(why.toHtmlEscaped());
    showEmptyChart();
}

void WeightPreviewPanel::clearBounds() {
    f_.resize(0);
    source_.clear();
    showPlaceholder();
}

void WeightPreviewPanel::preview(const QString& synthesizer, double c, double g,
                                 std::optional<double> M) {
    if (!hasBounds()) return;
    last_ = study::previewLipschitzWeights(f_, c, g, M, kBins);
    const auto& p = *last_;
    // The histogram as a step outline: two points per bin, one replace() per redraw.
    QList<QPointF> pts;
    pts.reserve(int(2 * kBins + 2));
    const double w = p.weights.binWidth();
    std::size_t top = 1;
    pts.append({0.0, 0.0});
    for (std::size_t b = 0; b < p.weights.counts.size(); ++b) {
        const double n = double(p.weights.counts[b]);
        pts.append({p.weights.lo + double(b) * w, n});
        pts.append({p.weights.lo + double(b + 1) * w, n});
        top = std::max(top, p.weights.counts[b]);
    }
    pts.append({1.0, 0.0});
    upper_->replace(pts);
    charts::setValueRange(y_, 0, double(top) * 1.08);
    y_->setVisible(true);

    const double ratio = p.unweightedBound > 0 ? p.predictedBound / p.unweightedBound : 0;
    QString text =
        tr("%1: predicted bound max<sub>i</sub> &alpha;<sub>i</sub> f<sub>i</sub> = <b>%2</b> "
           "(unweighted &Delta;<sub>x</sub> = %3, %4 of it); predicted &epsilon; per dataset "
           "&asymp; %5.")
            .arg(synthesizer.toHtmlEscaped(), charts::formatValue(p.predictedBound),
                 charts::formatValue(p.unweightedBound),
                 QStringLiteral("%1%").arg(ratio * 100, 0, 'f', 1),
                 charts::formatValue(2 * p.predictedBound));
    text += QStringLiteral("<br>") +
            tr("Weights: median %1, mean %2; %3 left out (weight 0).")
                .arg(charts::formatValue(p.summary.median), charts::formatValue(p.summary.mean),
                     counted(static_cast<long long>(p.summary.zeros), tr("record"), tr("records")));
    bound_->setText(text);
}

}  // namespace ppsynth::ui

#include "moc_weight_preview_panel.cpp"
