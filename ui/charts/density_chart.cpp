#include "ui/charts/density_chart.hpp"

#include <QHBoxLayout>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <limits>

#include "ui/charts/chart_style.hpp"
#include "ui/charts/chart_view.hpp"

namespace ppsynth::ui::charts {

DensityChart::DensityChart(QGraphicsItem* parent) : PlotChart(parent) {
    xAxis_ = makeValueAxis(QString());
    yAxis_ = makeValueAxis(tr("Density"));
    addAxis(xAxis_, Qt::AlignBottom);
    addAxis(yAxis_, Qt::AlignLeft);
}

void DensityChart::setValueTitle(const QString& title) {
    xAxis_->setTitleText(title);
}

void DensityChart::setCurves(const std::vector<DensityCurve>& curves) {
    removeAllSeries();
    zoomReset();
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, ymax = 0;
    for (std::size_t i = 0; i < curves.size(); ++i) {
        const auto& d = curves[i].density;
        QList<QPointF> pts;
        pts.reserve(static_cast<qsizetype>(d.x.size()));
        for (std::size_t k = 0; k < d.x.size(); ++k) {
            pts.append(QPointF(d.x[k], d.y[k]));
            ymax = std::max(ymax, d.y[k]);
        }
        if (!d.x.empty()) {
            x0 = std::min(x0, d.x.front());
            x1 = std::max(x1, d.x.back());
        }
        auto* s = new QLineSeries;
        s->setName(curves[i].name);
        s->setPen(QPen(seriesColor(static_cast<int>(i)), 2, curves[i].style));
        s->replace(pts);
        addSeries(s);
        s->attachAxis(xAxis_);
        s->attachAxis(yAxis_);
    }
    if (x1 > x0) xAxis_->setRange(x0, x1);
    yAxis_->setRange(0, ymax > 0 ? 1.05 * ymax : 1.0);
}

DensityPanel::DensityPanel(QWidget* parent) : QWidget(parent) {
    main_ = new DensityChart;
    tail_ = new DensityChart;
    mainView_ = new ChartView(main_, this);
    tailView_ = new ChartView(tail_, this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(mainView_, 3);
    layout->addWidget(tailView_, 2);
    tailView_->hide();
}

void DensityPanel::setComparison(const utility::DensityComparison& c, const QString& valueTitle,
                                 const QString& tailTitle) {
    main_->setValueTitle(valueTitle);
    main_->setCurves({{tr("Confidential"), c.confidential, Qt::SolidLine},
                      {tr("Synthetic"), c.synthetic, Qt::DashLine}});
    const bool hasTail = c.confidentialTail && c.syntheticTail;
    if (hasTail) {
        tail_->setValueTitle(tailTitle.isEmpty() ? valueTitle + tr(" (upper tail)") : tailTitle);
        tail_->setCurves({{tr("Confidential"), *c.confidentialTail, Qt::SolidLine},
                          {tr("Synthetic"), *c.syntheticTail, Qt::DashLine}});
    }
    tailView_->setVisible(hasTail);
}

}  // namespace ppsynth::ui::charts

#include "moc_density_chart.cpp"
