#include "ui/shell/report_controller.hpp"

#include <QDir>
#include <QFileInfo>

#include "ui/bundle_guard.hpp"
#include "ui/counted.hpp"
#include "ui/data_page.hpp"
#include "ui/destination_guard.hpp"
#include "ui/export/export_dialog.hpp"
#include "ui/message_area.hpp"
#include "ui/report/report_job.hpp"
#include "ui/run/run_record.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/run_library.hpp"
#include "ui/shell/window_questions.hpp"

namespace ppsynth::ui {

ReportController::ReportController(const ShellPages& pages, JobBoard* jobs, RunLibrary* runs,
                                   WindowQuestions* questions, QWidget* window)
    : QObject(window),
      pages_(pages),
      jobs_(jobs),
      runs_(runs),
      questions_(questions),
      window_(window),
      reportJob_(new report::ReportJob(this)) {
    jobs_->adopt(reportJob_, {.folderJob = true});
    jobs_->onResult(reportJob_, [this](Expected<report::WrittenReport> written) {
        if (!written) {
            pages_.data->messageArea()->showError(
                tr("The report was not written: %1")
                    .arg(QString::fromStdString(written.message())));
            return;
        }
        QString text = tr("The disclosure-review report was written to %1 (%2")
                           .arg(written->path, counted(static_cast<long long>(written->figures),
                                                       tr("chart"), tr("charts")));
        if (written->pages > 0)
            text += QStringLiteral(", ") + counted(written->pages, tr("page"), tr("pages"));
        pages_.data->messageArea()->showInfo(
            text + tr("). It is confidential: keep it inside the agency."));
    });
    jobs_->onFinished(reportJob_, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            pages_.data->messageArea()->showError(
                tr("Writing the report failed: %1").arg(reportJob_->failureText()));
        else if (outcome == JobOutcome::Canceled)
            pages_.data->messageArea()->showInfo(
                tr("Writing the report was cancelled; no report file was written."));
        emit actionsChanged();
    });
}

JobRunnerBase* ReportController::reportJob() const {
    return reportJob_;
}

bool ReportController::exportRelease() {
    const RunRecord* r = runs_->currentRun();
    if (!r || !r->result || r->folder.isEmpty()) return false;
    const auto dataFile = runs_->runDataFile(*r);
    if (!dataFile) return false;
    ExportDialog dialog(r->folder, *r->result, window_);
    dialog.setDataPath(*dataFile);
    dialog.setWindowTitle(tr("Export release bundle - %1").arg(r->label));
    dialog.exec();
    return true;
}

void ReportController::chooseReportFile() {
    const RunRecord* r = runs_->currentRun();
    if (!r || r->folder.isEmpty()) return;
    const QString path =
        chooseSavePath(*questions_, tr("Write disclosure-review report"),
                       QDir(lastDirectory()).filePath(QStringLiteral("report.html")),
                       tr("HTML report (*.html);;PDF report (*.pdf)"),
                       {QStringLiteral("html"), QStringLiteral("pdf"), QStringLiteral("htm")});
    if (!path.isEmpty()) writeReport(path);
}

bool ReportController::writeReport(const QString& path) {
    const RunRecord* r = runs_->currentRun();
    if (!r || r->folder.isEmpty()) {
        pages_.data->messageArea()->showError(
            tr("Select a saved run (or open a run folder) before writing a report."));
        return false;
    }
    if (jobs_->folderJobRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    if (const QString why =
            confidentialDestinationProblem(path, tr("the disclosure-review report"));
        !why.isEmpty()) {
        pages_.data->messageArea()->showError(why);
        return false;
    }
    if (const QString why = unwritableDestinationProblem(path); !why.isEmpty()) {
        pages_.data->messageArea()->showError(why);
        return false;
    }
    const auto dataFile = runs_->runDataFile(*r);
    if (!dataFile) return false;
    jobs_->begin(reportJob_, tr("Writing %1...").arg(QFileInfo(path).fileName()));
    // The job reads the run's folder again rather than the record's in-memory result, so the
    // report describes exactly what is on disk; the data file is where the run's record says
    // it is now. Replacing an existing file, whichever program made it, was asked when it was
    // chosen (chooseSavePath).
    report::ReportOptions options;
    options.overwrite = true;
    options.replaceAnyFile = true;
    options.dataPath = *dataFile;
    reportJob_->start(r->folder, path, std::move(options));
    emit actionsChanged();
    return true;
}

}  // namespace ppsynth::ui

#include "moc_report_controller.cpp"
