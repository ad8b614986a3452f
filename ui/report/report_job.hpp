// The GUI's report: the run folder is read and the words made on a worker, the charts drawn
// on the GUI thread one per event-loop pass (a QChart is a graphics widget), then the images
// encoded and the file written on a worker, atomically. Progress covers the three stages;
// cancel stops at the next chart or page and leaves no file. The window's busy bar treats it
// like any other job.
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ui/job_runner.hpp"
#include "ui/report/report_charts.hpp"
#include "ui/report/report_writer.hpp"

namespace ppsynth::ui::report {

class ReportJob final : public JobRunnerBase {
    Q_OBJECT
  public:
    using ResultHandler = std::function<void(Expected<WrittenReport>)>;

    explicit ReportJob(QObject* parent = nullptr);
    ~ReportJob() override;

    // Called on the GUI thread when a job ends uncancelled: the report written, or why not.
    void onResult(ResultHandler handler) { handler_ = std::move(handler); }
    // Refuses (returns false) while a job is running. options.progress is not used: progress
    // is this object's progressChanged.
    bool start(const QString& runDir, const QString& outPath, ReportOptions options);
    void cancel() override;

  private:
    struct Prepared {
        std::shared_ptr<const study::LoadedRun> loaded;
        ReportDocument doc;  // every section but the charts
    };

    void startDrawing(Prepared prepared);
    void drawNext();
    void startWriting();
    void stageProgress(double from, double to, double fraction, const QString& stage);
    void finish(JobOutcome outcome, std::optional<Expected<WrittenReport>> result = {});

    JobRunner<Expected<Prepared>>* loader_;
    JobRunner<Expected<WrittenReport>>* writer_;
    ResultHandler handler_;
    QString outPath_;
    ReportOptions options_;
    std::shared_ptr<const study::LoadedRun> loaded_;  // the charts' recipes refer to its run
    ReportDocument doc_;
    std::vector<results::ChartRecipe> recipes_;
    std::size_t next_ = 0;
    DrawnCharts drawn_;
    bool cancelled_ = false;
    // The writer's own stop flag, not its promise's: a cancel that comes after the file was
    // renamed into place must not report "cancelled" for a report that exists.
    std::shared_ptr<std::atomic<bool>> stopWriting_;
};

}  // namespace ppsynth::ui::report
