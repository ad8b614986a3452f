#include "ui/charts/chart_style.hpp"

#include <QChart>
#include <QGraphicsLayout>
#include <QLegend>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

namespace ppsynth::ui::charts {

QFont chartFont(int pointSize, bool bold) {
    QFont f(QStringLiteral("DejaVu Sans"), pointSize);
    f.setBold(bold);
    f.setStyleHint(QFont::SansSerif);
    return f;
}

QColor seriesColor(int i) {
    // Okabe-Ito without black and yellow (too light on white).
    static const std::array<QColor, 7> palette{QColor(0x00, 0x72, 0xB2), QColor(0xE6, 0x9F, 0x00),
                                               QColor(0x00, 0x9E, 0x73), QColor(0xCC, 0x79, 0xA7),
                                               QColor(0x56, 0xB4, 0xE9), QColor(0xD5, 0x5E, 0x00),
                                               QColor(0x59, 0x59, 0x59)};
    const auto n = static_cast<int>(palette.size());
    return palette[static_cast<std::size_t>(((i % n) + n) % n)];
}

QColor referenceColor() {
    return QColor(0xC0, 0x1C, 0x28);
}

void applyChartStyle(QChart* chart) {
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setDropShadowEnabled(false);
    chart->setTitleFont(chartFont(11, true));
    chart->setMargins(QMargins(6, 6, 14, 6));
    chart->layout()->setContentsMargins(0, 0, 0, 0);  // no grey frame around the chart
    chart->legend()->setFont(chartFont(9));
    chart->legend()->setAlignment(Qt::AlignBottom);
}

double niceTickStep(double lo, double hi, int targetTicks) {
    const double span = hi - lo;
    if (!(span > 0) || !std::isfinite(span) || targetTicks < 1) return 0;
    const double raw = span / targetTicks;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double norm = raw / mag;
    const double nice = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
    return nice * mag;
}

QString tickLabelFormat(double lo, double hi, double step) {
    const double largest = std::max(std::abs(lo), std::abs(hi));
    if (!(step > 0) || !std::isfinite(step) || !std::isfinite(largest))
        return QStringLiteral("%.4g");
    // The step is 1, 2 or 5 times a power of ten: 10^-d with d decimals tells ticks apart.
    const int stepExponent = int(std::floor(std::log10(step) + 1e-9));
    if (largest < 1e7 && stepExponent >= -6)
        return QStringLiteral("%.%1f").arg(std::max(0, -stepExponent));
    // Very large or very small values: as many significant digits as the step needs.
    const int largestExponent = largest > 0 ? int(std::floor(std::log10(largest))) : 0;
    return QStringLiteral("%.%1g").arg(std::clamp(largestExponent - stepExponent + 1, 1, 15));
}

namespace {
const char* const kWholeNumbers = "ppsynthWholeNumberTicks";

void setNiceTicks(QValueAxis* axis, double lo, double hi) {
    double step = niceTickStep(lo, hi, 6);
    if (!(step > 0)) return;
    if (axis->property(kWholeNumbers).toBool()) step = std::max(step, 1.0);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(step);
    axis->setLabelFormat(tickLabelFormat(lo, hi, step));
}
}  // namespace

QValueAxis* makeValueAxis(const QString& title) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setTitleFont(chartFont(10));
    axis->setLabelsFont(chartFont(9));
    axis->setLabelFormat(QStringLiteral("%.4g"));
    axis->setGridLineColor(QColor(0xE4, 0xE4, 0xE4));
    axis->setMinorGridLineVisible(false);
    // Ticks at round numbers (1, 2 or 5 times a power of ten, anchored at 0) for any range,
    // also after zooming; evenly split ranges give labels like 0.5875.
    QObject::connect(axis, &QValueAxis::rangeChanged, axis,
                     [axis](qreal lo, qreal hi) { setNiceTicks(axis, lo, hi); });
    return axis;
}

QValueAxis* makeCountAxis(const QString& title) {
    auto* axis = makeValueAxis(title);
    axis->setProperty(kWholeNumbers, true);
    return axis;
}

void setValueRange(QValueAxis* axis, double lo, double hi) {
    setNiceTicks(axis, lo, hi);
    axis->setRange(lo, hi);
}

}  // namespace ppsynth::ui::charts
