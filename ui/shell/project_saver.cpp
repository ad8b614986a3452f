#include "ui/shell/project_saver.hpp"

#include <QFileInfo>

#include "ppsynth/study/project_save.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/counted.hpp"
#include "ui/data_page.hpp"
#include "ui/destination_guard.hpp"
#include "ui/local_path.hpp"
#include "ui/message_area.hpp"
#include "ui/project_file.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"

namespace ppsynth::ui {

ProjectSaver::ProjectSaver(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                           const JobRunnerBase* reading, QObject* parent)
    : QObject(parent),
      pages_(pages),
      jobs_(jobs),
      settings_(settings),
      reading_(reading),
      saveJob_(jobs->add<SavedRuns>()) {
    jobs_->onResult(saveJob_, [this](SavedRuns saved) {
        if (!saved.status) {  // core rolled the save back: nothing of it is on disk
            afterSave_ = nullptr;
            pages_.data->messageArea()->showError(
                tr("Saving the project failed; nothing was written: %1")
                    .arg(QString::fromStdString(saved.status.message())));
            return;
        }
        for (const auto& [id, folder] : saved.folders)
            pages_.run->runList()->setFolder(id, fromLocalPath(folder));
        emit actionsChanged();
        afterProjectWritten(savingPath_, savingHadSynthesizers_);
        // What waited for the save (a close, another project) runs after this job has ended.
        if (auto then = std::exchange(afterSave_, nullptr))
            QMetaObject::invokeMethod(this, std::move(then), Qt::QueuedConnection);
    });
    jobs_->onFinished(saveJob_, [this](JobOutcome outcome) { onSaveFinished(outcome); });
}

bool ProjectSaver::saveProject(const QString& path) {
    if (pages_.data->source().isEmpty()) {
        pages_.data->messageArea()->showError(tr("Open a data file before saving a project."));
        return false;
    }
    if (saveJob_->isRunning() || reading_->isRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the current read or save to finish."));
        return false;
    }
    // The runs go to folders beside the project file, with their record-level files: never
    // into a release bundle (Save As there, or Save of a project that lives in one).
    if (const QString why = confidentialDestinationProblem(
            path, tr("the project and its run folders, with record-level weights, bounds and "
                     "risks"));
        !why.isEmpty()) {
        pages_.data->messageArea()->showError(why);
        return false;
    }
    // The project file can be written: said now, not after the runs have been written.
    if (const QString why = unwritableDestinationProblem(path); !why.isEmpty()) {
        pages_.data->messageArea()->showError(why);
        return false;
    }
    savingPath_ = QFileInfo(path).absoluteFilePath();
    // Finished runs not yet on disk go to folders beside the project, written by core on a
    // worker thread (synthetic datasets can be large); the project file itself is small.
    std::vector<int> ids;
    std::vector<study::RunToSave> runs;
    for (const auto& r : pages_.run->runList()->records()) {
        if (!r.folder.isEmpty() || !r.result || !r.table) continue;
        ids.push_back(r.id);
        study::RunToSave run;
        run.name = "run_" + std::to_string(r.id);
        run.label = r.label.toStdString();
        run.summary = r.epsilonSummary().toStdString();
        run.write = [result = r.result, table = r.table,
                     write = runWriter_](const std::string& dir) -> Status {
            return write ? write(*result, *table, dir)
                         : study::writeRunOutput(*result, *table, dir);
        };
        runs.push_back(std::move(run));
    }
    if (runs.empty()) return writeProjectFile(savingPath_);
    const QString runsDir = fromLocalPath(study::projectRunsFolder(localPath(savingPath_)));
    if (const QString why = unwritableDestinationProblem(runsDir, DestinationUse::Filled);
        !why.isEmpty()) {
        pages_.data->messageArea()->showError(why);
        return false;
    }
    const Project gathered = settings_->gatherProject();  // the runs already on disk
    savingHadSynthesizers_ = gathered.hasSynthesizers;
    const QString what =
        tr("Saving %1...").arg(counted(static_cast<long long>(runs.size()), tr("run"), tr("runs")));
    return jobs_->start(
        saveJob_,
        [project = toStudyProject(gathered), file = localPath(savingPath_), ids = std::move(ids),
         runs = std::move(runs)](const ProgressCallback& progress) {
            study::ProjectSaveOptions options;
            options.progress = progress;
            SavedRuns out;
            auto folders = study::saveProject(project, file, runs, options);
            if (!folders) {
                out.status = folders.error();
                return out;
            }
            for (std::size_t i = 0; i < ids.size(); ++i)
                out.folders.emplace_back(ids[i], (*folders)[i]);
            return out;
        },
        what);
}

void ProjectSaver::setRunWriter(RunWriter writer) {
    runWriter_ = std::move(writer);
}

void ProjectSaver::onSaveFinished(JobOutcome outcome) {
    if (outcome == JobOutcome::Done) return;  // the result handler said how it went
    afterSave_ = nullptr;                     // a close or open waiting for this save stays undone
    if (outcome == JobOutcome::Failed)
        pages_.data->messageArea()->showError(
            tr("Saving the project failed: %1").arg(saveJob_->failureText()));
    else
        pages_.data->messageArea()->showInfo(
            tr("Saving was cancelled; the project file was not written."));
}

// A project whose runs are all on disk: only the project file, written atomically.
bool ProjectSaver::writeProjectFile(const QString& path) {
    const Project project = settings_->gatherProject();
    const auto status = ppsynth::ui::saveProject(project, path);
    if (!status) {
        pages_.data->messageArea()->showError(QString::fromStdString(status.message()));
        return false;
    }
    afterProjectWritten(path, project.hasSynthesizers);
    return true;
}

void ProjectSaver::afterProjectWritten(const QString& path, bool hadSynthesizers) {
    settings_->markSaved();
    emit projectWritten(path);
    emit statusMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    // A project file holds a configuration core accepts: synthesizers that are not complete
    // yet are not in it, and the person is told which and why.
    if (!hadSynthesizers && pages_.synthesizers->rowCount() > 0) {
        study::RunConfig probe;
        const auto incomplete = pages_.synthesizers->apply(probe);
        pages_.data->messageArea()->showError(
            tr("Saved %1 without its synthesizers: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(incomplete.message())));
    }
}

}  // namespace ppsynth::ui

#include "moc_project_saver.cpp"
