#include "ui/charts/curve_chart.hpp"

#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <limits>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

CurveChart::CurveChart(QGraphicsItem* parent) : PlotChart(parent) {
    xAxis_ = makeValueAxis(QString());
    yAxis_ = makeValueAxis(QString());
    addAxis(xAxis_, Qt::AlignBottom);
    addAxis(yAxis_, Qt::AlignLeft);
}

void CurveChart::setAxisTitles(const QString& x, const QString& y) {
    xAxis_->setTitleText(x);
    yAxis_->setTitleText(y);
}

void CurveChart::setCurves(std::vector<Curve> curves) {
    removeAllSeries();
    scatter_.clear();
    zoomReset();
    curves_ = std::move(curves);
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::size_t c = 0; c < curves_.size(); ++c) {
        QList<QPointF> pts;
        for (const CurvePoint& p : curves_[c].points) {
            pts.append(QPointF(p.x, p.y));
            x0 = std::min(x0, p.x);
            x1 = std::max(x1, p.x);
            y0 = std::min(y0, p.y);
            y1 = std::max(y1, p.y);
        }
        const QColor colour = seriesColor(static_cast<int>(c));
        auto* line = new QLineSeries;
        line->setName(curves_[c].name);
        line->setPen(QPen(colour, 2));
        line->replace(pts);
        setHoverable(line, false);  // the points carry the hover
        auto* dots = new QScatterSeries;
        dots->setName(curves_[c].name);
        dots->setColor(colour);
        dots->setBorderColor(colour.darker(140));
        dots->setMarkerSize(10);
        dots->setSelectedColor(referenceColor());
        dots->replace(pts);
        for (QXYSeries* s : {static_cast<QXYSeries*>(line), static_cast<QXYSeries*>(dots)}) {
            addSeries(s);
            s->attachAxis(xAxis_);
            s->attachAxis(yAxis_);
        }
        legend()->markers(dots).front()->setVisible(false);
        const int curve = static_cast<int>(c);
        connect(dots, &QScatterSeries::clicked, this,
                [this, curve](const QPointF& p) { onClicked(curve, p); });
        scatter_.push_back(dots);
    }
    if (x1 >= x0) {
        const double px = x1 > x0 ? 0.05 * (x1 - x0) : 0.5;
        const double py = y1 > y0 ? 0.08 * (y1 - y0) : 0.5;
        xAxis_->setRange(x0 - px, x1 + px);
        yAxis_->setRange(y0 - py, y1 + py);
    }
}

QScatterSeries* CurveChart::pointSeries(int curve) const {
    if (curve < 0 || curve >= static_cast<int>(scatter_.size())) return nullptr;
    return scatter_[static_cast<std::size_t>(curve)];
}

void CurveChart::selectPoint(int curve, int index) {
    for (std::size_t c = 0; c < scatter_.size(); ++c) {
        scatter_[c]->deselectAllPoints();
        if (static_cast<int>(c) == curve && index >= 0 && index < scatter_[c]->count()) {
            scatter_[c]->selectPoint(index);
        }
    }
}

void CurveChart::onClicked(int curve, const QPointF& value) {
    // The series reports the clicked point's value: find its index (nearest, in pixels).
    QScatterSeries* s = pointSeries(curve);
    if (!s) return;
    const QPointF at = mapToPosition(value, s);
    int best = -1;
    qreal bestD2 = std::numeric_limits<qreal>::max();
    const auto& pts = s->points();
    for (int i = 0; i < pts.size(); ++i) {
        const QPointF d = mapToPosition(pts[i], s) - at;
        const qreal d2 = d.x() * d.x() + d.y() * d.y();
        if (d2 < bestD2) {
            bestD2 = d2;
            best = i;
        }
    }
    if (best < 0) return;
    selectPoint(curve, best);
    emit pointClicked(curve, best);
}

QString CurveChart::hoverText(const QPointF& scenePos, qreal radius) const {
    const QPointF pos = mapFromScene(scenePos);
    if (!plotArea().contains(pos)) return {};
    int bestCurve = -1, best = -1;
    qreal bestD2 = radius * radius;
    for (std::size_t c = 0; c < scatter_.size(); ++c) {
        const auto& pts = scatter_[c]->points();
        for (int i = 0; i < pts.size(); ++i) {
            const QPointF d = toPixel(pts[i], scatter_[c]) - pos;
            const qreal d2 = d.x() * d.x() + d.y() * d.y();
            if (d2 < bestD2) {
                bestD2 = d2;
                bestCurve = static_cast<int>(c);
                best = i;
            }
        }
    }
    if (best < 0) return {};
    const Curve& curve = curves_[static_cast<std::size_t>(bestCurve)];
    const CurvePoint& p = curve.points[static_cast<std::size_t>(best)];
    QString text = curve.name;
    if (!p.label.isEmpty()) text += QStringLiteral(", ") + p.label;
    const QString x = xTitle().isEmpty() ? QStringLiteral("x") : xTitle();
    const QString y = yTitle().isEmpty() ? QStringLiteral("y") : yTitle();
    return text +
           QStringLiteral("\n%1 = %2\n%3 = %4").arg(x, formatValue(p.x), y, formatValue(p.y));
}

}  // namespace ppsynth::ui::charts

#include "moc_curve_chart.cpp"
