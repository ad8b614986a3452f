#include "ui/charts/line_chart.hpp"

#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

LineChart::LineChart(QGraphicsItem* parent) : PlotChart(parent) {
    xAxis_ = makeValueAxis(QString());
    yAxis_ = makeValueAxis(QString());
    addAxis(xAxis_, Qt::AlignBottom);
    addAxis(yAxis_, Qt::AlignLeft);
}

void LineChart::setAxisTitles(const QString& x, const QString& y) {
    xAxis_->setTitleText(x);
    yAxis_->setTitleText(y);
}

void LineChart::setLines(const std::vector<Line>& lines, qreal width) {
    removeAllSeries();
    zoomReset();
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        for (const QPointF& p : lines[i].points) {
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
        auto* s = new QLineSeries;
        s->setName(lines[i].name);
        addSeries(s);
        s->attachAxis(xAxis_);
        s->attachAxis(yAxis_);
        // After addSeries: adding applies the theme's pen. Chains overlap, so they are drawn
        // slightly transparent to show where they mix.
        QColor c = seriesColor(static_cast<int>(i));
        c.setAlpha(190);
        s->setPen(QPen(c, width));
        s->replace(lines[i].points);
    }
    if (!std::isfinite(x0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1;  // no points
    if (!(x1 > x0)) x0 -= 0.5, x1 += 0.5;
    const double pad = y1 > y0 ? 0.04 * (y1 - y0) : (y0 != 0 ? 0.1 * std::abs(y0) : 1.0);
    xAxis_->setRange(x0, x1);
    yAxis_->setRange(y0 - pad, y1 + pad);
}

}  // namespace ppsynth::ui::charts

#include "moc_line_chart.cpp"
