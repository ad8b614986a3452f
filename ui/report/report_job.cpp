#include "ui/report/report_job.hpp"

#include <QDir>
#include <QTimer>

#include "ppsynth/study/run_loader.hpp"
#include "ui/local_path.hpp"

namespace ppsynth::ui::report {

namespace {

// Where each stage's progress sits in the job's: drawing is most of the time.
constexpr double kLoaded = 0.2;
constexpr double kDrawn = 0.8;

}  // namespace

ReportJob::ReportJob(QObject* parent)
    : JobRunnerBase(parent),
      loader_(new JobRunner<Expected<Prepared>>(this)),
      writer_(new JobRunner<Expected<WrittenReport>>(this)) {
    loader_->onResult([this](Expected<Prepared> prepared) {
        if (!prepared)
            finish(JobOutcome::Done, prepared.error());
        else if (cancelled_)
            finish(JobOutcome::Canceled);
        else
            startDrawing(std::move(*prepared));
    });
    writer_->onResult([this](Expected<WrittenReport> written) {
        if (!written && stopWriting_ && stopWriting_->load())
            finish(JobOutcome::Canceled);
        else
            finish(JobOutcome::Done, std::move(written));
    });
    for (JobRunnerBase* stage :
         {static_cast<JobRunnerBase*>(loader_), static_cast<JobRunnerBase*>(writer_)}) {
        connect(stage, &JobRunnerBase::finished, this, [this, stage](JobOutcome outcome) {
            if (outcome == JobOutcome::Failed) {
                failure_ = stage->failureText();
                finish(JobOutcome::Failed);
            } else if (outcome == JobOutcome::Canceled) {
                finish(JobOutcome::Canceled);
            }
        });
    }
    connect(loader_, &JobRunnerBase::progressChanged, this,
            [this](double f, const QString& stage) { stageProgress(0, kLoaded, f, stage); });
    connect(writer_, &JobRunnerBase::progressChanged, this,
            [this](double f, const QString& stage) { stageProgress(kDrawn, 1, f, stage); });
}

ReportJob::~ReportJob() {
    // The writer's destructor (a child's, after this) waits for it: let it stop first.
    if (stopWriting_) stopWriting_->store(true);
}

bool ReportJob::start(const QString& runDir, const QString& outPath, ReportOptions options) {
    if (running_) return false;
    running_ = true;
    failure_.clear();
    cancelled_ = false;
    outPath_ = outPath;
    options_ = std::move(options);
    options_.progress = nullptr;
    stopWriting_.reset();
    emit started();
    if (auto s = checkReportTarget(outPath, options_.overwrite, options_.replaceAnyFile); !s) {
        // Said after start() returns, as every other outcome is.
        QTimer::singleShot(0, this, [this, e = s.error()] { finish(JobOutcome::Done, e); });
        return true;
    }
    loader_->start(
        [dir = runDir, options = options_](const ProgressCallback& progress) -> Expected<Prepared> {
            study::LoadOptions lo;
            lo.dataPath = localPath(options.dataPath);
            lo.progress = progress;
            auto loaded = study::loadRunFolder(localPath(dir), lo);
            if (!loaded) return loaded.error();
            auto run = std::make_shared<const study::LoadedRun>(std::move(*loaded));
            const RunSource source{QDir(dir).absolutePath(), QString::fromStdString(run->dataPath),
                                   run->dataVerified};
            ReportDocument doc = textReport(run->run, source, options);
            return Prepared{std::move(run), std::move(doc)};
        });
    return true;
}

void ReportJob::cancel() {
    if (!running_) return;
    cancelled_ = true;
    loader_->cancel();
    if (stopWriting_) stopWriting_->store(true);
}

void ReportJob::startDrawing(Prepared prepared) {
    loaded_ = std::move(prepared.loaded);
    doc_ = std::move(prepared.doc);
    // The loaded run's table (kept with it) adds the charts of every sensitive variable.
    results::RunChartOptions options;
    options.table = std::shared_ptr<const data::Table>(loaded_, &loaded_->table);
    recipes_ = results::runChartRecipes(loaded_->run, options);
    next_ = 0;
    drawn_ = {};
    QTimer::singleShot(0, this, &ReportJob::drawNext);
}

// One chart per event-loop pass: the longest the window waits is one chart's drawing.
void ReportJob::drawNext() {
    if (!running_) return;
    if (cancelled_) return finish(JobOutcome::Canceled);
    if (next_ >= recipes_.size()) return startWriting();
    const results::ChartRecipe& recipe = recipes_[next_++];
    if (auto s = drawChart(recipe, drawn_); !s) return finish(JobOutcome::Done, s.error());
    stageProgress(kLoaded, kDrawn, double(next_) / double(recipes_.size()),
                  QStringLiteral("drawing charts"));
    QTimer::singleShot(0, this, &ReportJob::drawNext);
}

void ReportJob::startWriting() {
    recipes_.clear();  // they refer to the run
    loaded_.reset();
    stopWriting_ = std::make_shared<std::atomic<bool>>(false);
    writer_->start([doc = std::exchange(doc_, {}), drawn = std::exchange(drawn_, {}),
                    path = outPath_, options = options_,
                    stop = stopWriting_](const ProgressCallback& progress) {
        // Encoding is the first half of the stage, writing the second: the bar never goes back.
        auto half = [&progress, stop](int which) -> ProgressCallback {
            return [&progress, stop, which](const Progress& p) {
                if (stop->load()) return Continue::Stop;
                return progress({p.stage, p.worker, p.done + which * p.total, 2 * p.total});
            };
        };
        auto charts = chartsSection(drawn, half(0));
        if (!charts) return Expected<WrittenReport>(charts.error());
        ReportDocument full = doc;
        full.sections.push_back(std::move(*charts));
        ReportOptions o = options;
        o.progress = half(1);
        return writeDocument(full, path, o);
    });
}

void ReportJob::stageProgress(double from, double to, double fraction, const QString& stage) {
    emit progressChanged(from + (to - from) * fraction, stage);
}

void ReportJob::finish(JobOutcome outcome, std::optional<Expected<WrittenReport>> result) {
    if (!running_) return;
    running_ = false;
    outcome_ = outcome;
    recipes_.clear();
    loaded_.reset();
    doc_ = {};
    drawn_ = {};
    if (outcome == JobOutcome::Done && result && handler_) handler_(std::move(*result));
    emit finished(outcome_);
}

}  // namespace ppsynth::ui::report

#include "moc_report_job.cpp"
