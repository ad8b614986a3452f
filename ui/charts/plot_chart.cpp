#include "ui/charts/plot_chart.hpp"

#include <QAbstractAxis>
#include <QXYSeries>
#include <limits>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

namespace {
constexpr const char* kNoHover = "ppsynthNoHover";

QString axisTitle(const QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? QString() : axes.front()->titleText();
}
}  // namespace

QString formatValue(double v) {
    return QString::number(v, 'g', 4);
}

PlotChart::PlotChart(QGraphicsItem* parent) : QChart(parent) {
    applyChartStyle(this);
}

void PlotChart::setHoverable(QXYSeries* series, bool hoverable) {
    series->setProperty(kNoHover, !hoverable);
}

bool PlotChart::isHoverable(const QXYSeries* series) {
    return !series->property(kNoHover).toBool();
}

QPointF PlotChart::toPixel(const QPointF& value, const QAbstractSeries* series) const {
    return const_cast<PlotChart*>(this)->mapToPosition(value, const_cast<QAbstractSeries*>(series));
}

QPointF PlotChart::toValue(const QPointF& pixel, const QAbstractSeries* series) const {
    return const_cast<PlotChart*>(this)->mapToValue(pixel, const_cast<QAbstractSeries*>(series));
}

QString PlotChart::xTitle() const {
    return axisTitle(this, Qt::Horizontal);
}
QString PlotChart::yTitle() const {
    return axisTitle(this, Qt::Vertical);
}

QString PlotChart::hoverText(const QPointF& scenePos, qreal radius) const {
    const QPointF pos = mapFromScene(scenePos);
    if (!plotArea().contains(pos)) return {};
    const QXYSeries* best = nullptr;
    QPointF bestPoint;
    qreal bestD2 = radius * radius;
    for (QAbstractSeries* s : series()) {
        auto* xy = qobject_cast<QXYSeries*>(s);
        if (!xy || !xy->isVisible() || !isHoverable(xy)) continue;
        const auto& pts = xy->points();
        for (const QPointF& p : pts) {
            const QPointF d = toPixel(p, xy) - pos;
            const qreal d2 = d.x() * d.x() + d.y() * d.y();
            if (d2 < bestD2) {
                bestD2 = d2;
                best = xy;
                bestPoint = p;
            }
        }
    }
    if (!best) return {};
    QString x = xTitle().isEmpty() ? QStringLiteral("x") : xTitle();
    QString y = yTitle().isEmpty() ? QStringLiteral("y") : yTitle();
    QString text = best->name().isEmpty() ? QString() : best->name() + QLatin1Char('\n');
    return text + x + QStringLiteral(" = ") + formatValue(bestPoint.x()) + QLatin1Char('\n') + y +
           QStringLiteral(" = ") + formatValue(bestPoint.y());
}

}  // namespace ppsynth::ui::charts
