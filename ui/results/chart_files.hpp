// Writes a run's charts to files for reports: every chart as PNG and SVG under one folder,
// named by the chart's key, each written atomically (QSaveFile). The disclosure report calls
// exportRunCharts() and lists the files with their captions.
#pragma once

#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::results {

struct ChartFile {
    QString key;
    QString title;
    QString caption;
    bool recordLevel = true;  // see BuiltChart::recordLevel
    QString png;              // absolute paths
    QString svg;
};

// <dir>/<key>.png and <dir>/<key>.svg at `size` (pixels, SVG user units); `dir` is created
// when missing. On failure nothing half-written is left and the message names the file.
Expected<ChartFile> exportBuiltChart(const BuiltChart& chart, const QString& dir,
                                     QSize size = QSize(900, 600));

struct RunChartFiles {
    std::vector<ChartFile> files;  // in buildRunCharts() order
    QStringList skipped;           // charts that do not apply to this run, with the reason
};

// buildRunCharts() then exportBuiltChart() for each. Fails on the first file that cannot be
// written (files written before stay; they are complete).
Expected<RunChartFiles> exportRunCharts(const study::RunResult& run, const QString& dir,
                                        const RunChartOptions& options = {},
                                        QSize size = QSize(900, 600));

}  // namespace ppsynth::ui::results
