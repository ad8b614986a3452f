// Chart export to PNG and SVG, usable offscreen (a chart need not be in a view). Files are
// written through QSaveFile, so a failed export leaves no half-written file.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

class QChart;

namespace ppsynth::ui::charts {

enum class ExportFormat { Png, Svg };

// Format from the file suffix (.png or .svg, case-insensitive); PNG otherwise.
ExportFormat exportFormatFor(const QString& path);

// Renders `chart` at `size` (pixels for PNG, user units for SVG) into `path`. Returns an
// empty string on success, else a message naming the file.
QString exportChart(QChart* chart, const QString& path, QSize size = QSize(900, 600));
QString exportChart(QChart* chart, const QString& path, ExportFormat format, QSize size);

// The chart rendered at `size` pixels on white, as the PNG export draws it (for callers that
// embed images, e.g. reports). A null image when there is no chart or the size is empty.
QImage renderChartImage(QChart* chart, QSize size);

}  // namespace ppsynth::ui::charts
