#include "ui/charts/violin_chart.hpp"

#include <QAreaSeries>
#include <QCategoryAxis>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <set>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

namespace {
constexpr double kHalfWidth = 0.4;
}

ViolinChart::ViolinChart(QGraphicsItem* parent) : PlotChart(parent) {
    xAxis_ = new QCategoryAxis;
    xAxis_->setLabelsFont(chartFont(9));
    xAxis_->setTitleFont(chartFont(10));
    xAxis_->setLabelsPosition(QCategoryAxis::AxisLabelsPositionCenter);
    xAxis_->setGridLineVisible(false);
    yAxis_ = makeValueAxis(QString());
    logAxis_ = new QLogValueAxis(this);
    logAxis_->setBase(10);
    logAxis_->setLabelFormat(QStringLiteral("%g"));
    logAxis_->setTitleFont(chartFont(10));
    logAxis_->setLabelsFont(chartFont(9));
    logAxis_->setGridLineColor(QColor(0xE4, 0xE4, 0xE4));
    logAxis_->setMinorTickCount(8);
    logAxis_->setMinorGridLineVisible(false);
    addAxis(xAxis_, Qt::AlignBottom);
    addAxis(yAxis_, Qt::AlignLeft);
}

void ViolinChart::setValueTitle(const QString& title) {
    valueTitle_ = title;
    yAxis_->setTitleText(title);
    logAxis_->setTitleText(title);
}

QAbstractAxis* ViolinChart::valueAxis() const {
    return logScale_ ? static_cast<QAbstractAxis*>(logAxis_) : yAxis_;
}

// The chart owns the attached axis; the other stays a child of the chart, so either way
// it is deleted with the chart.
void ViolinChart::useLogAxis(bool log) {
    if (log == logScale_) return;
    QAbstractAxis* from = valueAxis();
    logScale_ = log;
    QAbstractAxis* to = valueAxis();
    removeAxis(from);
    from->setParent(this);
    addAxis(to, Qt::AlignLeft);
}

void ViolinChart::setViolins(std::vector<Violin> violins) {
    removeAllSeries();
    for (const QString& label : xAxis_->categoriesLabels()) xAxis_->remove(label);
    violins_ = std::move(violins);
    const bool useLog =
        !violins_.empty() && std::all_of(violins_.begin(), violins_.end(),
                                         [](const Violin& v) { return v.summary.logScale; });
    useLogAxis(useLog);
    // On a log axis nothing at or below 0 can be drawn: such marks sit at the axis floor.
    double axisFloor = std::numeric_limits<double>::infinity();
    std::size_t zeros = 0;
    if (useLog)
        for (const auto& v : violins_) {
            axisFloor = std::min(axisFloor, v.summary.minPositive);
            zeros += v.summary.zeros;
        }
    axisFloor /= 1.5;
    auto shown = [&](double y) { return useLog ? std::max(y, axisFloor) : y; };

    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    QAbstractAxis* shownAxis = valueAxis();
    auto attach = [this, shownAxis](QAbstractSeries* s) {
        addSeries(s);
        s->attachAxis(xAxis_);
        s->attachAxis(shownAxis);
    };
    std::set<QString> markLegend;  // one legend entry per distinct mark label
    auto* medians = new QScatterSeries;
    medians->setName(tr("median"));
    medians->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    medians->setMarkerSize(7);
    medians->setColor(Qt::white);
    medians->setBorderColor(QColor(0x20, 0x20, 0x20));

    for (std::size_t i = 0; i < violins_.size(); ++i) {
        const Violin& v = violins_[i];
        const double centre = static_cast<double>(i);
        const auto& grid = v.summary.grid;
        const auto& dens = v.summary.density;
        const double peak = dens.empty() ? 0.0 : *std::max_element(dens.begin(), dens.end());
        const double scale = peak > 0 ? kHalfWidth / peak : 0.0;
        QList<QPointF> right, left;
        right.reserve(static_cast<qsizetype>(grid.size()));
        left.reserve(static_cast<qsizetype>(grid.size()));
        // Trimmed at the data's range (as ggplot's and vioplot's defaults): the kernel tails
        // beyond min and max would suggest values nobody has.
        auto add = [&](double y, double d) {
            right.append(QPointF(centre + d * scale, y));
            left.append(QPointF(centre - d * scale, y));
        };
        auto densityAt = [&](double y) {  // linear interpolation on the grid
            const auto it = std::lower_bound(grid.begin(), grid.end(), y);
            if (it == grid.begin()) return dens.front();
            if (it == grid.end()) return dens.back();
            const auto k = static_cast<std::size_t>(it - grid.begin());
            const double t = (y - grid[k - 1]) / (grid[k] - grid[k - 1]);
            return dens[k - 1] + t * (dens[k] - dens[k - 1]);
        };
        // A log-scale outline starts at the smallest positive value (zeros are not drawn).
        const double from = useLog ? v.summary.minPositive : v.summary.min;
        if (!grid.empty()) {
            add(from, densityAt(from));
            for (std::size_t k = 0; k < grid.size(); ++k) {
                if (grid[k] > from && grid[k] < v.summary.max) add(grid[k], dens[k]);
            }
            add(v.summary.max, densityAt(v.summary.max));
        }
        // The outline series belong to the area, so removeAllSeries() frees them too.
        auto* area = new QAreaSeries;
        auto* upper = new QLineSeries(area);
        auto* lower = new QLineSeries(area);
        upper->replace(right);
        lower->replace(left);
        area->setUpperSeries(upper);
        area->setLowerSeries(lower);
        area->setName(v.name);
        QColor fill = seriesColor(static_cast<int>(i));
        area->setBorderColor(fill.darker(130));
        fill.setAlphaF(0.55f);
        area->setColor(fill);
        attach(area);
        legend()->markers(area).front()->setVisible(false);  // the axis names the violins

        auto* iqr = new QLineSeries;
        iqr->append(centre, shown(v.summary.q1));
        iqr->append(centre, shown(v.summary.q3));
        iqr->setPen(QPen(QColor(0x20, 0x20, 0x20), 5, Qt::SolidLine, Qt::FlatCap));
        setHoverable(iqr, false);
        attach(iqr);
        legend()->markers(iqr).front()->setVisible(false);
        medians->append(centre, shown(v.summary.median));

        if (v.mark) {
            auto* mark = new QLineSeries;
            mark->setName(v.markLabel.isEmpty() ? tr("mark") : v.markLabel);
            mark->append(centre - kHalfWidth - 0.05, shown(*v.mark));
            mark->append(centre + kHalfWidth + 0.05, shown(*v.mark));
            mark->setPen(QPen(referenceColor(), 2, Qt::DashLine));
            setHoverable(mark, false);
            attach(mark);
            if (!markLegend.insert(mark->name()).second) {
                legend()->markers(mark).front()->setVisible(false);
            }
            lo = std::min(lo, shown(*v.mark));
            hi = std::max(hi, shown(*v.mark));
        }
        if (!grid.empty()) {
            lo = std::min(lo, from);
            hi = std::max(hi, v.summary.max);
        }
        xAxis_->append(v.name.isEmpty() ? QString::number(i + 1) : v.name, centre + 0.5);
    }
    setHoverable(medians, false);
    attach(medians);
    xAxis_->setStartValue(-0.5);
    xAxis_->setRange(-0.5, static_cast<double>(violins_.size()) - 0.5);
    if (useLog && std::isfinite(lo) && hi > lo) {
        logAxis_->setRange(std::min(lo, axisFloor), hi * 1.5);
        QString title = valueTitle_ + tr(" (log scale");
        if (zeros == 1) title += tr("; 1 value of 0 not shown");
        if (zeros > 1) title += tr("; %1 values of 0 not shown").arg(zeros);
        logAxis_->setTitleText(title + QLatin1Char(')'));
    } else if (std::isfinite(lo) && hi > lo) {
        const double pad = 0.03 * (hi - lo);
        yAxis_->setRange(lo - pad, hi + pad);
    }
    legend()->setVisible(!markLegend.empty() || !violins_.empty());
}

QString ViolinChart::hoverText(const QPointF& scenePos, qreal /*radius*/) const {
    const QPointF pos = mapFromScene(scenePos);
    if (!plotArea().contains(pos) || violins_.empty() || series().isEmpty()) return {};
    const QPointF value = toValue(pos, series().front());
    const long idx = std::lround(value.x());
    if (idx < 0 || idx >= static_cast<long>(violins_.size())) return {};
    const Violin& v = violins_[static_cast<std::size_t>(idx)];
    const auto& s = v.summary;
    QString text = QStringLiteral(
                       "%1 (n = %2)\nmedian %3, quartiles %4 to %5\nrange %6 to %7\n"
                       "mean %8")
                       .arg(v.name)
                       .arg(s.n)
                       .arg(formatValue(s.median), formatValue(s.q1), formatValue(s.q3),
                            formatValue(s.min), formatValue(s.max), formatValue(s.mean));
    if (s.logScale && s.zeros > 0)
        text += tr("\n%1 of them 0 (not drawn on the log scale)").arg(s.zeros);
    if (v.mark) {
        text += QStringLiteral("\n%1 = %2")
                    .arg(v.markLabel.isEmpty() ? tr("mark") : v.markLabel, formatValue(*v.mark));
    }
    return text;
}

}  // namespace ppsynth::ui::charts

#include "moc_violin_chart.cpp"
