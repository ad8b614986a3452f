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

// The printf format of tick labels over [lo, hi] every `step` (a niceTickStep): as many
// decimals as the step needs and no more ("%.1f" for 0.2, "%.0f" for 5 or 10000), so no two
// ticks print alike; significant digits ("%.7g") for values beyond 1e7 or steps below 1e-6.
QString tickLabelFormat(double lo, double hi, double step);

// A value axis with a readable title and labels that tell its ticks apart (tickLabelFormat,
// set again on every range change).
QValueAxis* makeValueAxis(const QString& title);
// The same for counts (records, datasets): ticks at whole numbers only, so a small range
// (0 to 2 records) is not labelled 0, 0.5, 1, ...
QValueAxis* makeCountAxis(const QString& title);
// Moves a house value axis to [lo, hi], its round tick interval first: rangeChanged picks
// the interval only after Qt Charts has laid the ticks out at the old one, and growing a
// range from 1 to 100,000 would first lay out 500,000 ticks (a hang).
void setValueRange(QValueAxis* axis, double lo, double hi);

}  // namespace ppsynth::ui::charts
