#include "ui/charts/scatter_chart.hpp"

#include <QImage>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

namespace {

// Thinning grid: at most kCellsX * kCellsY points (+ 4 extremes) when zoomed out, about one
// per 4 x 4 pixels on a typical plot.
constexpr int kCellsX = 200;
constexpr int kCellsY = 100;

struct Range {
    double x0, x1, y0, y1;
    bool contains(const QPointF& p) const {
        return p.x() >= x0 && p.x() <= x1 && p.y() >= y0 && p.y() <= y1;
    }
};

Range visibleRange(const QValueAxis* x, const QValueAxis* y) {
    return {x->min(), x->max(), y->min(), y->max()};
}

void hideLegend(QChart* chart, QAbstractSeries* s) {
    const auto markers = chart->legend()->markers(s);
    for (auto* m : markers) m->setVisible(false);
}

}  // namespace

QImage markerImage(const QColor& fill, int diameter, const QColor& border) {
    QImage img(diameter, diameter, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::transparent);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(fill);
    p.setPen(border.isValid() ? QPen(border, 1) : Qt::NoPen);
    p.drawEllipse(QRectF(0.5, 0.5, diameter - 1.0, diameter - 1.0));
    return img;
}

ScatterChart::ScatterChart(QGraphicsItem* parent) : PlotChart(parent) {
    xAxis_ = makeValueAxis(QString());
    yAxis_ = makeValueAxis(QString());
    addAxis(xAxis_, Qt::AlignBottom);
    addAxis(yAxis_, Qt::AlignLeft);

    auto add = [this](QXYSeries* s) {
        addSeries(s);
        s->attachAxis(xAxis_);
        s->attachAxis(yAxis_);
    };
    identity_series_ = new QLineSeries;
    identity_series_->setName(QStringLiteral("y = x"));
    hline_series_ = new QLineSeries;
    auto markers = [](QLineSeries* series, const QColor& colour, int size, const QColor& border) {
        series->setPen(QPen(colour, 0, Qt::NoPen));  // points only, no connecting line
        series->setPointsVisible(true);
        series->setMarkerSize(size);
        series->setLightMarker(markerImage(colour, size, border));
    };
    points_series_ = new QLineSeries;
    overlay_series_ = new QLineSeries;
    highlight_series_ = new QLineSeries;
    add(points_series_);
    add(overlay_series_);
    add(highlight_series_);
    add(identity_series_);
    add(hline_series_);
    // Styles after addSeries: adding applies the chart theme's pens.
    QColor base = seriesColor(0);
    base.setAlpha(150);
    markers(points_series_, base, 5, QColor());
    QColor second = seriesColor(1);
    second.setAlpha(150);
    markers(overlay_series_, second, 5, QColor());
    markers(highlight_series_, seriesColor(5), 8, QColor(0x30, 0x30, 0x30));
    identity_series_->setPen(QPen(QColor(0x55, 0x55, 0x55), 1.5, Qt::DashLine));
    hline_series_->setPen(QPen(referenceColor(), 2, Qt::DashLine));
    setHoverable(identity_series_, false);
    setHoverable(hline_series_, false);
    identity_series_->setVisible(false);
    hline_series_->setVisible(false);
    highlight_series_->setVisible(false);
    overlay_series_->setVisible(false);
    hideLegend(this, overlay_series_);
    hideLegend(this, identity_series_);
    hideLegend(this, hline_series_);
    hideLegend(this, highlight_series_);
    hideLegend(this, points_series_);

    // Zoom and pan change both axes; one coalesced refresh after the event settles.
    refreshTimer_.setSingleShot(true);
    refreshTimer_.setInterval(0);
    connect(&refreshTimer_, &QTimer::timeout, this, &ScatterChart::refreshNow);
    for (QValueAxis* axis : {xAxis_, yAxis_}) {
        connect(axis, &QValueAxis::rangeChanged, &refreshTimer_, qOverload<>(&QTimer::start));
    }
}

void ScatterChart::setAxisTitles(const QString& x, const QString& y) {
    xAxis_->setTitleText(x);
    yAxis_->setTitleText(y);
}

void ScatterChart::setDecimationThreshold(qsizetype threshold) {
    threshold_ = std::max<qsizetype>(1, threshold);
    refreshNow();
}

void ScatterChart::setPoints(QList<QPointF> points, const QString& name) {
    points_ = std::move(points);
    overlay_.clear();
    overlay_series_->clear();
    overlay_series_->setVisible(false);
    legend()->markers(overlay_series_).front()->setVisible(false);
    highlighted_.clear();
    points_series_->setName(name);
    legend()->markers(points_series_).front()->setVisible(!name.isEmpty());
    fitRanges();
}

void ScatterChart::setOverlayPoints(QList<QPointF> points, const QString& name) {
    overlay_ = std::move(points);
    overlay_series_->setName(name);
    overlay_series_->setVisible(!overlay_.isEmpty());
    legend()->markers(overlay_series_).front()->setVisible(!overlay_.isEmpty() && !name.isEmpty());
    fitRanges();
}

void ScatterChart::fitRanges() {
    zoomReset();
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const auto* set : {&points_, &overlay_}) {
        for (const QPointF& p : *set) {
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
    }
    if (points_.isEmpty() && overlay_.isEmpty()) x0 = y0 = 0, x1 = y1 = 1;
    if (hline_) y0 = std::min(y0, *hline_), y1 = std::max(y1, *hline_);
    auto pad = [](double& lo, double& hi) {
        const double d = hi > lo ? 0.04 * (hi - lo) : (lo != 0 ? 0.1 * std::abs(lo) : 1.0);
        lo -= d;
        hi += d;
    };
    pad(x0, x1);
    pad(y0, y1);
    refreshTimer_.stop();
    xAxis_->setRange(x0, x1);
    yAxis_->setRange(y0, y1);
    updateReferenceLines();
    refreshNow();
}

void ScatterChart::setHighlighted(std::vector<qsizetype> records, const QString& name) {
    std::erase_if(records, [this](qsizetype i) { return i < 0 || i >= points_.size(); });
    highlighted_ = std::move(records);
    highlight_series_->setName(name);
    highlight_series_->setVisible(!highlighted_.empty());
    legend()->markers(highlight_series_).front()->setVisible(!highlighted_.empty());
    refreshNow();  // also updates the legend's visibility
}

void ScatterChart::setIdentityLine(bool visible) {
    identity_ = visible;
    updateReferenceLines();
}

void ScatterChart::setHorizontalLine(std::optional<double> y, const QString& label) {
    hline_ = y;
    hline_series_->setName(label);
    updateReferenceLines();
}

void ScatterChart::updateReferenceLines() {
    // Lines span the visible range with a margin (refreshed after every zoom or pan): a
    // dashed line much longer than the view is drawn solid by Qt's dash stroker. The axes
    // keep their explicit ranges (replace() does not rescale them).
    const double x0 = xAxis_->min(), x1 = xAxis_->max();
    const double span = std::max(x1 - x0, 1e-12);
    if (identity_) {
        identity_series_->replace(QList<QPointF>{{x0 - span, x0 - span}, {x1 + span, x1 + span}});
    }
    identity_series_->setVisible(identity_);
    legend()->markers(identity_series_).front()->setVisible(identity_);
    if (hline_) {
        hline_series_->replace(QList<QPointF>{{x0 - span, *hline_}, {x1 + span, *hline_}});
    }
    hline_series_->setVisible(hline_.has_value());
    legend()
        ->markers(hline_series_)
        .front()
        ->setVisible(hline_.has_value() && !hline_series_->name().isEmpty());
}

qsizetype ScatterChart::shownPoints() const {
    return points_series_->count() + (overlay_.isEmpty() ? 0 : overlay_series_->count());
}

QList<QPointF> ScatterChart::thin(const QList<QPointF>& all, const std::vector<qsizetype>* subset,
                                  qsizetype* visibleCount) const {
    const Range r = visibleRange(xAxis_, yAxis_);
    const qsizetype n = subset ? static_cast<qsizetype>(subset->size()) : all.size();
    auto at = [&](qsizetype k) -> const QPointF& {
        return subset ? all[(*subset)[static_cast<std::size_t>(k)]] : all[k];
    };
    qsizetype visible = 0;
    for (qsizetype k = 0; k < n; ++k) visible += r.contains(at(k)) ? 1 : 0;
    if (visibleCount) *visibleCount = visible;

    QList<QPointF> out;
    if (visible <= threshold_) {
        out.reserve(visible);
        for (qsizetype k = 0; k < n; ++k) {
            if (r.contains(at(k))) out.append(at(k));
        }
        return out;
    }
    // One point per occupied cell, plus the points with the extreme x and y values.
    std::vector<char> taken(static_cast<std::size_t>(kCellsX) * kCellsY, 0);
    const double sx = kCellsX / (r.x1 - r.x0), sy = kCellsY / (r.y1 - r.y0);
    qsizetype ext[4] = {-1, -1, -1, -1};
    out.reserve(std::min<qsizetype>(visible, kCellsX * kCellsY + 4));
    for (qsizetype k = 0; k < n; ++k) {
        const QPointF& p = at(k);
        if (!r.contains(p)) continue;
        const int cx = std::min(kCellsX - 1, static_cast<int>((p.x() - r.x0) * sx));
        const int cy = std::min(kCellsY - 1, static_cast<int>((p.y() - r.y0) * sy));
        char& cell = taken[static_cast<std::size_t>(cy) * kCellsX + static_cast<std::size_t>(cx)];
        if (!cell) {
            cell = 1;
            out.append(p);
        }
        if (ext[0] < 0 || p.x() < at(ext[0]).x()) ext[0] = k;
        if (ext[1] < 0 || p.x() > at(ext[1]).x()) ext[1] = k;
        if (ext[2] < 0 || p.y() < at(ext[2]).y()) ext[2] = k;
        if (ext[3] < 0 || p.y() > at(ext[3]).y()) ext[3] = k;
    }
    for (qsizetype e : ext) out.append(at(e));  // duplicates are harmless
    return out;
}

void ScatterChart::refreshNow() {
    refreshTimer_.stop();
    points_series_->replace(thin(points_, nullptr, &visible_));
    if (!overlay_.isEmpty()) {
        qsizetype overlayVisible = 0;
        overlay_series_->replace(thin(overlay_, nullptr, &overlayVisible));
        visible_ += overlayVisible;
    }
    if (!highlighted_.empty()) highlight_series_->replace(thin(points_, &highlighted_, nullptr));
    updateReferenceLines();
    emit displayRefreshed(shownPoints(), visible_);
}

QString ScatterChart::hoverText(const QPointF& scenePos, qreal radius) const {
    const QPointF pos = mapFromScene(scenePos);
    const QRectF area = plotArea();
    if (!area.contains(pos) || (points_.isEmpty() && overlay_.isEmpty())) return {};
    // Nearest record over the full data of both sets (not only what is drawn), in pixels.
    const Range r = visibleRange(xAxis_, yAxis_);
    const double sx = area.width() / (r.x1 - r.x0), sy = area.height() / (r.y1 - r.y0);
    const double mx = r.x0 + (pos.x() - area.left()) / sx;
    const double my = r.y1 - (pos.y() - area.top()) / sy;
    qsizetype best = -1;
    const QList<QPointF>* bestSet = nullptr;
    double bestD2 = radius * radius;
    for (const auto* set : {&points_, &overlay_}) {
        for (qsizetype i = 0; i < set->size(); ++i) {
            const double dx = ((*set)[i].x() - mx) * sx, dy = ((*set)[i].y() - my) * sy;
            const double d2 = dx * dx + dy * dy;
            if (d2 < bestD2) {
                bestD2 = d2;
                best = i;
                bestSet = set;
            }
        }
    }
    if (best < 0) return {};
    const QString x = xTitle().isEmpty() ? QStringLiteral("x") : xTitle();
    const QString y = yTitle().isEmpty() ? QStringLiteral("y") : yTitle();
    QString text = tr("Record %1").arg(best + 1);
    const QString setName = bestSet == &overlay_ ? overlay_series_->name() : points_series_->name();
    if (!overlay_.isEmpty() && !setName.isEmpty()) text += QStringLiteral(", ") + setName;
    if (bestSet == &points_ &&
        std::find(highlighted_.begin(), highlighted_.end(), best) != highlighted_.end() &&
        !highlight_series_->name().isEmpty()) {
        text += QStringLiteral(" (%1)").arg(highlight_series_->name());
    }
    const QPointF& p = (*bestSet)[best];
    return text +
           QStringLiteral("\n%1 = %2\n%3 = %4").arg(x, formatValue(p.x()), y, formatValue(p.y()));
}

}  // namespace ppsynth::ui::charts

#include "moc_scatter_chart.cpp"
