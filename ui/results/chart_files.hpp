// Writes a run's charts to files for reports: every chart as PNG and SVG under one folder,
// named by the chart's key, each written atomically (QSaveFile). (The disclosure report draws
// the same charts to images itself: ui/report/report_charts.hpp.)
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSize>
#include <QString>
#include <QStringList>
#include <memory>
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

// The chart as PNG bytes at `size` pixels, for documents that embed their images.
Expected<QByteArray> renderPng(const BuiltChart& chart, QSize size = QSize(900, 600));

struct RunChartFiles {
    std::vector<ChartFile> files;  // in buildRunCharts() order
    QStringList skipped;           // charts that do not apply to this run, with the reason
};

// buildRunCharts() then exportBuiltChart() for each. Fails on the first file that cannot be
// written (files written before stay; they are complete).
Expected<RunChartFiles> exportRunCharts(const study::RunResult& run, const QString& dir,
                                        const RunChartOptions& options = {},
                                        QSize size = QSize(900, 600));

// exportRunCharts() one chart per event-loop pass, for the GUI: the window stays responsive
// (a chart of 100,000 records takes tens of milliseconds, all of them seconds) and the
// export can be cancelled between charts. Keeps a shared reference to the run (and, through
// the options, to the run's table).
class ChartExportJob : public QObject {
    Q_OBJECT
  public:
    ChartExportJob(std::shared_ptr<const study::RunResult> run, QString dir,
                   RunChartOptions options = {}, QSize size = QSize(900, 600),
                   QObject* parent = nullptr);

    void start();
    // Stops before the next chart; finished(false, "cancelled ...") follows.
    void cancel();
    bool isRunning() const { return running_; }
    const RunChartFiles& result() const { return result_; }

  signals:
    void progress(int done, int total, const QString& what);
    // ok: every chart that applies was written; message says how many or what went wrong.
    void finished(bool ok, const QString& message);

  private:
    void step();
    void finish(bool ok, const QString& message);

    std::shared_ptr<const study::RunResult> run_;
    QString dir_;
    RunChartOptions options_;
    QSize size_;
    std::vector<ChartRecipe> recipes_;
    std::size_t next_ = 0;
    bool running_ = false;
    bool cancelled_ = false;
    RunChartFiles result_;
};

}  // namespace ppsynth::ui::results
