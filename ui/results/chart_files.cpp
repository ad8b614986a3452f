#include "ui/results/chart_files.hpp"

#include <QDir>
#include <QFileInfo>

#include "ui/charts/chart_export.hpp"

namespace ppsynth::ui::results {

Expected<ChartFile> exportBuiltChart(const BuiltChart& chart, const QString& dir, QSize size) {
    if (!chart.chart) return Error{"chart '" + chart.key.toStdString() + "' has no chart to draw"};
    if (chart.key.isEmpty()) return Error{"a chart without a key cannot be named as a file"};
    if (!QDir().mkpath(dir))
        return Error{"could not create the folder '" +
                     QFileInfo(dir).absoluteFilePath().toStdString() + "'"};
    const QDir folder(dir);
    ChartFile file{chart.key,
                   chart.title,
                   chart.caption,
                   chart.recordLevel,
                   folder.absoluteFilePath(chart.key + QStringLiteral(".png")),
                   folder.absoluteFilePath(chart.key + QStringLiteral(".svg"))};
    for (const QString& path : {file.png, file.svg}) {
        const QString error = charts::exportChart(chart.chart.get(), path, size);
        if (!error.isEmpty()) return Error{error.toStdString()};
    }
    return file;
}

Expected<RunChartFiles> exportRunCharts(const study::RunResult& run, const QString& dir,
                                        const RunChartOptions& options, QSize size) {
    RunCharts built = buildRunCharts(run, options);
    RunChartFiles out;
    out.skipped = built.skipped;
    for (const BuiltChart& c : built.charts) {
        auto f = exportBuiltChart(c, dir, size);
        if (!f) return f.error();
        out.files.push_back(std::move(*f));
    }
    return out;
}

}  // namespace ppsynth::ui::results
