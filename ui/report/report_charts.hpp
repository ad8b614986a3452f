// The report's charts: every chart of the run (ui/results/run_charts, the same builders as
// the results page) drawn offscreen, each with the builder's one-sentence caption on how to
// read it. Drawing needs the GUI thread (a QChart is a graphics widget laid out in a scene);
// encoding the images to PNG does not, so the GUI does that on a worker.
#pragma once

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/study/runner.hpp"
#include "ui/report/report_document.hpp"
#include "ui/results/run_charts.hpp"

namespace ppsynth::ui::report {

inline constexpr QSize kChartSize{900, 600};

struct DrawnChart {
    QString key;
    QString title;
    QString caption;
    QImage image;  // kChartSize, on white
};

struct DrawnCharts {
    std::vector<DrawnChart> charts;  // in runChartRecipes() order
    QStringList skipped;             // charts that do not apply to this run, with the reason
};

// Builds and draws one chart into `out`; a chart that does not apply to the run becomes a
// note in out.skipped. GUI thread only.
Status drawChart(const results::ChartRecipe& recipe, DrawnCharts& out);

// Every chart of `run`, one after the other, for callers without an event loop to keep
// turning (the CLI). GUI thread only. Stop from `progress` ends it with "cancelled". `table`,
// the run's, adds the charts of its sensitive variables after the first.
Expected<DrawnCharts> drawCharts(const study::RunResult& run, const ProgressCallback& progress,
                                 std::shared_ptr<const data::Table> table = {});

// The charts section: each image encoded as PNG. Thread-safe (QImage only). Stop from
// `progress` ends it with "cancelled".
Expected<ReportSection> chartsSection(const DrawnCharts& drawn, const ProgressCallback& progress);

}  // namespace ppsynth::ui::report
