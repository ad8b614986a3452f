// One look for every chart: explicit DejaVu Sans fonts (screenshots match across machines),
// a colour-blind-safe palette (Okabe-Ito), no animation, no background clutter.
#pragma once

#include <QColor>
#include <QFont>
#include <QString>

class QChart;
class QValueAxis;

namespace ppsynth::ui::charts {

QFont chartFont(int pointSize = 9, bool bold = false);
// i-th series colour; cycles through 7 colours.
QColor seriesColor(int i);
// The colour for reference lines and marks (Delta, y = x, means).
QColor referenceColor();

void applyChartStyle(QChart* chart);
// Tick interval of about `targetTicks` ticks over [lo, hi]: 1, 2 or 5 times a power of ten.
double niceTickStep(double lo, double hi, int targetTicks);

// A value axis with a readable title and compact numeric labels.
QValueAxis* makeValueAxis(const QString& title);
// Moves a house value axis to [lo, hi], its round tick interval first: rangeChanged picks
// the interval only after Qt Charts has laid the ticks out at the old one, and growing a
// range from 1 to 100,000 would first lay out 500,000 ticks (a hang).
void setValueRange(QValueAxis* axis, double lo, double hi);

}  // namespace ppsynth::ui::charts
