#include "ui/shell/project_saver.hpp"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include "ppsynth/study/run_output.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/counted.hpp"
#include "ui/data_page.hpp"
#include "ui/destination_guard.hpp"
#include "ui/message_area.hpp"
#include "ui/project_file.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"

namespace ppsynth::ui {

namespace {
// A folder name beside the project that no earlier save used.
QString freeFolder(const QString& parent, const QString& stem) {
    QString candidate = QDir(parent).filePath(stem);
    for (int i = 2; QFileInfo::exists(candidate); ++i)
        candidate = QDir(parent).filePath(QStringLiteral("%1_%2").arg(stem).arg(i));
    return candidate;
}
}  // namespace

ProjectSaver::ProjectSaver(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                           const JobRunnerBase* reading, QObject* parent)
    : QObject(parent),
      pages_(pages),
      jobs_(jobs),
      settings_(settings),
      reading_(reading),
      saveJob_(jobs->add<SavedRuns>()) {
    jobs_->onResult(saveJob_, [this](SavedRuns saved) {
        QStringList errors;
        for (auto& [id, folder] : saved.folders) {
            if (folder)
                pages_.run->runList()->setFolder(id, QString::fromStdString(*folder));
            else
                errors << QString::fromStdString(folder.message());
        }
        emit actionsChanged();
        if (!errors.isEmpty()) {
            afterSave_ = nullptr;
            pages_.data->messageArea()->showError(
                tr("Some runs could not be saved: %1").arg(errors.join(QStringLiteral("; "))));
            return;
        }
        // What waited for the save (a close, another project) runs after this job has ended.
        if (writeProjectFile(savingPath_))
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
    struct Pending {
        int id;
        std::shared_ptr<const study::RunResult> result;
        std::shared_ptr<const data::Table> table;
        std::string dir;
    };
    std::vector<Pending> pending;
    const QFileInfo info(savingPath_);
    const QString runsDir =
        info.absoluteDir().filePath(info.completeBaseName() + QStringLiteral("_runs"));
    savingFolders_.clear();
    for (const auto& r : pages_.run->runList()->records()) {
        if (!r.folder.isEmpty() || !r.result || !r.table) continue;
        const QString dir = freeFolder(runsDir, QStringLiteral("run_%1").arg(r.id));
        savingFolders_ << dir;
        pending.push_back({r.id, r.result, r.table, QFile::encodeName(dir).toStdString()});
    }
    if (pending.empty()) return writeProjectFile(savingPath_);
    if (const QString why = unwritableDestinationProblem(runsDir, DestinationUse::Filled);
        !why.isEmpty()) {
        savingFolders_.clear();
        pages_.data->messageArea()->showError(why);
        return false;
    }
    savingCreatedRunsDir_ = QFileInfo::exists(runsDir) ? QString() : runsDir;
    QDir().mkpath(runsDir);
    const QString what =
        tr("Saving %1...")
            .arg(counted(static_cast<long long>(pending.size()), tr("run"), tr("runs")));
    return jobs_->start(
        saveJob_,
        [pending = std::move(pending), write = runWriter_](const ProgressCallback& progress) {
            SavedRuns out;
            for (std::size_t i = 0; i < pending.size(); ++i) {
                const auto& p = pending[i];
                if (ppsynth::report(progress, {"saving runs", 0, double(i),
                                               double(pending.size())}) == Continue::Stop)
                    break;
                auto s = write ? write(*p.result, *p.table, p.dir)
                               : study::writeRunOutput(*p.result, *p.table, p.dir);
                out.folders.emplace_back(p.id, s ? Expected<std::string>(p.dir)
                                                 : Expected<std::string>(Error{s.message()}));
            }
            return out;
        },
        what);
}

void ProjectSaver::setRunWriter(RunWriter writer) {
    runWriter_ = std::move(writer);
}

void ProjectSaver::onSaveFinished(JobOutcome outcome) {
    if (outcome == JobOutcome::Done) {  // the result handler recorded the folders written
        savingFolders_.clear();
        return;
    }
    // The runner dropped the result, so the folders written before the cancel (or the
    // failure) are recorded nowhere: a cancelled save leaves nothing behind, and the runs
    // stay unsaved for the next save.
    removeFoldersOfThisSave();
    afterSave_ = nullptr;  // a close or open waiting for this save stays undone
    if (outcome == JobOutcome::Failed)
        pages_.data->messageArea()->showError(
            tr("Saving the project failed: %1").arg(saveJob_->failureText()));
    else
        pages_.data->messageArea()->showInfo(
            tr("Saving was cancelled; the project file was not written."));
}

void ProjectSaver::removeFoldersOfThisSave() {
    for (const QString& dir : std::exchange(savingFolders_, {})) QDir(dir).removeRecursively();
    // Only when empty: QDir::rmdir leaves a folder that holds anything.
    if (const QString runs = std::exchange(savingCreatedRunsDir_, {}); !runs.isEmpty())
        QDir().rmdir(runs);
}

bool ProjectSaver::writeProjectFile(const QString& path) {
    const Project project = settings_->gatherProject();
    const auto status = ppsynth::ui::saveProject(project, path);
    if (!status) {
        pages_.data->messageArea()->showError(QString::fromStdString(status.message()));
        return false;
    }
    settings_->markSaved();
    emit projectWritten(path);
    emit statusMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    // A project file holds a configuration core accepts: synthesizers that are not complete
    // yet are not in it, and the person is told which and why.
    if (!project.hasSynthesizers && pages_.synthesizers->rowCount() > 0) {
        study::RunConfig probe;
        const auto incomplete = pages_.synthesizers->apply(probe);
        pages_.data->messageArea()->showError(
            tr("Saved %1 without its synthesizers: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(incomplete.message())));
    }
    return true;
}

}  // namespace ppsynth::ui
