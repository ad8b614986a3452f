#include "ui/charts/chart_style.hpp"

#include <QChart>
#include <QLegend>
#include <QValueAxis>
#include <array>

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
    chart->setMargins(QMargins(6, 6, 10, 6));
    chart->legend()->setFont(chartFont(9));
    chart->legend()->setAlignment(Qt::AlignBottom);
}

QValueAxis* makeValueAxis(const QString& title) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setTitleFont(chartFont(10));
    axis->setLabelsFont(chartFont(9));
    axis->setLabelFormat(QStringLiteral("%.4g"));
    axis->setGridLineColor(QColor(0xE4, 0xE4, 0xE4));
    axis->setMinorGridLineVisible(false);
    return axis;
}

}  // namespace ppsynth::ui::charts
