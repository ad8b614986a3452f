#include "ui/charts/plot_chart.hpp"

#include <QAbstractAxis>
#include <QFontMetricsF>
#include <QStringList>
#include <QXYSeries>
#include <limits>

#include "ui/charts/chart_style.hpp"

namespace ppsynth::ui::charts {

namespace {
constexpr const char* kNoHover = "ppsynthNoHover";
constexpr const char* kFullTitle = "ppsynthFullTitle";    // an axis title as it was set
constexpr const char* kShownTitle = "ppsynthShownTitle";  // ... and as fitAxisTitles() shows it
// Qt Charts cuts a vertical title whose text box (the text and the document's margins) is
// higher than the plot area: lines are kept this much shorter.
constexpr qreal kTitleSlack = 12;

QString firstAxisTitle(const QChart* chart, Qt::Orientation o) {
    const auto axes = chart->axes(o);
    return axes.isEmpty() ? QString() : PlotChart::axisTitle(axes.front());
}

// `title` broken at spaces into centred lines at most `width` pixels wide in `font`, as the
// HTML Qt Charts draws; `title` itself when it fits on one line or has no space to break at.
QString titleOnLines(const QString& title, const QFont& font, qreal width) {
    const QFontMetricsF metrics(font);
    if (metrics.horizontalAdvance(title) <= width) return title;
    QStringList lines;
    QString line;
    for (const QString& word : title.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line.toHtmlEscaped();
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) lines << line.toHtmlEscaped();
    if (lines.size() < 2) return title;
    return QStringLiteral("<div align=\"center\">%1</div>").arg(lines.join(QStringLiteral("<br>")));
}
}  // namespace

QString formatValue(double v) {
    return QString::number(v, 'g', 4);
}

PlotChart::PlotChart(QGraphicsItem* parent) : QChart(parent) {
    applyChartStyle(this);
    connect(this, &QChart::plotAreaChanged, this, &PlotChart::fitAxisTitles);
}

QString PlotChart::axisTitle(const QAbstractAxis* axis) {
    const QString shown = axis->titleText();
    if (!shown.isEmpty() && shown == axis->property(kShownTitle).toString())
        return axis->property(kFullTitle).toString();
    return shown;  // set since fitAxisTitles() last saw it
}

void PlotChart::fitAxisTitles() {
    const qreal room = plotArea().height() - kTitleSlack;
    for (QAbstractAxis* axis : axes(Qt::Vertical)) {
        // A title set later (a new range's note, another axis) is fitted too.
        connect(axis, &QAbstractAxis::titleTextChanged, this, &PlotChart::fitAxisTitles,
                Qt::UniqueConnection);
        if (room <= 0) continue;
        const QString full = axisTitle(axis);
        const QString shown = titleOnLines(full, axis->titleFont(), room);
        axis->setProperty(kFullTitle, full);
        axis->setProperty(kShownTitle, shown);
        if (axis->titleText() != shown) axis->setTitleText(shown);
    }
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
    return firstAxisTitle(this, Qt::Horizontal);
}
QString PlotChart::yTitle() const {
    return firstAxisTitle(this, Qt::Vertical);
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

#include "moc_plot_chart.cpp"
