#include "ui/shell/run_library.hpp"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableWidget>
#include <algorithm>

#include "ppsynth/study/run_output.hpp"
#include "ui/data_page.hpp"
#include "ui/local_path.hpp"
#include "ui/message_area.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/window_questions.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

namespace {

// The data file a run folder's run.json records (written by study::writeRunOutput), read
// before the folder is loaded so a file that has moved can be located first. Empty when
// run.json cannot be read: the loader then says what is wrong.
QString recordedDataPath(const QString& runDir) {
    QFile file(QDir(runDir).filePath(QStringLiteral("run.json")));
    if (!file.open(QIODevice::ReadOnly)) return {};
    const QJsonObject run = QJsonDocument::fromJson(file.readAll()).object();
    const QString path =
        run.value(QStringLiteral("data_file")).toObject().value(QStringLiteral("path")).toString();
    if (!path.isEmpty()) return path;
    return run.value(QStringLiteral("configuration"))
        .toObject()
        .value(QStringLiteral("data"))
        .toObject()
        .value(QStringLiteral("path"))
        .toString();
}
}  // namespace

RunLibrary::RunLibrary(const ShellPages& pages, JobBoard* jobs, WindowQuestions* questions,
                       QWidget* window)
    : QObject(window),
      pages_(pages),
      jobs_(jobs),
      questions_(questions),
      window_(window),
      loadRunsJob_(jobs->add<LoadedRuns>({.blocksFiles = false, .stageIsText = true})),
      openRunJob_(jobs->add<Expected<study::LoadedRun>>({.folderJob = true})) {
    jobs_->onResult(loadRunsJob_, [this](LoadedRuns loaded) { onRunsLoaded(std::move(loaded)); });
    jobs_->onFinished(loadRunsJob_, [this](JobOutcome outcome) { onRunsLoadFinished(outcome); });
    // The opened run arrives on the GUI thread; it joins the run list like any other run.
    jobs_->onResult(openRunJob_, [this](Expected<study::LoadedRun> loaded) {
        const QString name = QFileInfo(openingRunDir_).fileName();
        if (!loaded) {
            pages_.data->messageArea()->showError(
                tr("The run folder %1 could not be opened: %2")
                    .arg(name, QString::fromStdString(loaded.message())));
            return;
        }
        RunRecord record;
        record.label = tr("Run %1 (opened from %2)").arg(pages_.run->runList()->nextId()).arg(name);
        record.folder = QFileInfo(openingRunDir_).absoluteFilePath();
        record.finishedAt =
            QFileInfo(QDir(openingRunDir_).filePath(QStringLiteral("run.json"))).lastModified();
        record.result = std::make_shared<const study::RunResult>(std::move(loaded->run));
        record.table = std::make_shared<const data::Table>(std::move(loaded->table));
        record.dataPath = fromLocalPath(loaded->dataPath);
        const int id = pages_.run->runList()->add(std::move(record)).id;
        emit runOpened(id);
        emit actionsChanged();
        emit statusMessage(tr("Opened the run in %1").arg(name), 4000);
    });
    jobs_->onFinished(openRunJob_, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            pages_.data->messageArea()->showError(
                tr("Opening the run folder failed: %1").arg(openRunJob_->failureText()));
        emit actionsChanged();
    });
}

void RunLibrary::showProjectRuns(const Project& project) {
    // The run list becomes this project's: a run still going belongs to the previous one
    // (the person was asked before opening).
    pages_.run->cancelRun();
    pages_.run->runList()->clear();
    for (const auto& r : project.runs) {
        RunRecord record;
        record.label = r.label;
        record.folder = r.folder;
        record.savedSummary = r.summary;
        record.finishedAt = QFileInfo(r.folder).lastModified();
        record.dataPath = project.dataPath;  // the runs were made on the project's data
        pages_.run->runList()->add(std::move(record));
    }
    startLoadingRuns(project);
}

// `expected` when the file is there (or unknown: the loader then says what is wrong), else
// the file the person locates instead; nullopt when they do not, said in the message area.
// The loader still checks the located file against the run's checksum.
std::optional<QString> RunLibrary::findDataFile(const QString& expected, const QString& whose) {
    if (expected.isEmpty() || QFileInfo(expected).isFile()) return expected;
    const QString located =
        questions_->locateDataFile ? questions_->locateDataFile(expected) : QString();
    if (!located.isEmpty()) return located;
    pages_.data->messageArea()->showError(
        tr("The data file of %1 is no longer at %2. Try again and locate the file when asked, "
           "or open the project from its new place.")
            .arg(whose, QDir::toNativeSeparators(expected)));
    return std::nullopt;
}

// Where the run's data file is now; a located one is remembered for the run's next export
// or report.
std::optional<QString> RunLibrary::runDataFile(const RunRecord& run) {
    const QString expected = !run.dataPath.isEmpty() ? run.dataPath
                             : run.result            ? fromLocalPath(run.result->config.data.path)
                                                     : QString();
    auto found = findDataFile(expected, run.label);
    if (found && *found != expected) pages_.run->runList()->setDataPath(run.id, *found);
    return found;
}

// The saved runs' results come back from their folders in the background (core checks the
// data file is still the one they were run on), with "Loading saved run 2 of 5..." and the
// files read so far in the status bar and its Cancel stopping even within a run. Run ids
// restart at 1 for every project, so a load still going for the previous project is
// superseded: the board cancels it and drops its results, should they arrive anyway.
void RunLibrary::startLoadingRuns(const Project& project) {
    std::vector<std::pair<int, std::string>> folders;
    for (const auto& r : pages_.run->runList()->records())
        folders.emplace_back(r.id, localPath(r.folder));
    if (folders.empty()) {
        jobs_->supersede(loadRunsJob_);
        return;
    }
    // The texts are made here, on the GUI thread; the worker reports one per run as its stage.
    std::vector<std::string> stages;
    for (std::size_t i = 0; i < folders.size(); ++i)
        stages.push_back(
            tr("Loading saved run %1 of %2...").arg(i + 1).arg(folders.size()).toStdString());
    const QString first = QString::fromStdString(stages.front());
    JobRunner<LoadedRuns>::Work work = [folders, data = localPath(project.dataPath),
                                        stages](const ProgressCallback& progress) {
        LoadedRuns out;
        const double n = double(folders.size());
        for (std::size_t i = 0; i < folders.size(); ++i) {
            const std::string& stage = stages[i];
            if (ppsynth::report(progress, {stage, 0, double(i), n}) == Continue::Stop) break;
            study::LoadOptions options;
            options.dataPath = data;
            // Files read within this run move the bar between run i and run i + 1.
            options.progress = [&progress, &stage, i, n](const Progress& p) {
                const double within = p.total > 0 ? std::clamp(p.done / p.total, 0.0, 1.0) : 0;
                return ppsynth::report(progress, {stage, 0, double(i) + within, n});
            };
            out.runs.emplace_back(folders[i].first,
                                  study::loadRunOutput(folders[i].second, options));
            ppsynth::report(progress, {stage, 0, double(i + 1), n});  // the last one reads 100%
        }
        return out;
    };
    jobs_->startLatest(loadRunsJob_, std::move(work), first);
}

void RunLibrary::onRunsLoaded(LoadedRuns loaded) {
    QStringList errors;
    const auto table = pages_.data->model()->table();
    for (auto& [id, run] : loaded.runs) {
        if (run)
            pages_.run->runList()->setResult(
                id, std::make_shared<const study::RunResult>(std::move(*run)), table);
        else
            errors << QString::fromStdString(run.message());
    }
    emit actionsChanged();
    if (!errors.isEmpty())
        pages_.data->messageArea()->showError(
            tr("Some saved runs could not be reopened: %1").arg(errors.join(QStringLiteral("; "))));
}

void RunLibrary::onRunsLoadFinished(JobOutcome outcome) {
    if (outcome == JobOutcome::Failed)
        pages_.data->messageArea()->showError(
            tr("The project's saved runs could not be reopened: %1. They stay in the run list "
               "without results; open their folders from the Run menu to try again.")
                .arg(loadRunsJob_->failureText()));
    else if (outcome == JobOutcome::Canceled)
        pages_.data->messageArea()->showInfo(
            tr("Reopening the saved runs was cancelled; they stay in the run list without "
               "results."));
}

const RunRecord* RunLibrary::currentRun() const {
    const auto ids = pages_.run->runList()->selectedIds();
    return ids.empty() ? nullptr : pages_.run->runList()->find(ids.front());
}

void RunLibrary::chooseRunFolder() {
    const QString dir =
        QFileDialog::getExistingDirectory(window_, tr("Open run folder"), lastDirectory());
    if (dir.isEmpty()) return;
    rememberDirectory(QFileInfo(dir).absolutePath());
    openRunFolder(dir);
}

bool RunLibrary::openRunFolder(const QString& dir) {
    if (jobs_->folderJobRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    // A moved data file: the one the Data page shows when it has the file's name (a moved
    // project's), else the person locates it.
    QString expected = recordedDataPath(dir);
    if (!expected.isEmpty() && !QFileInfo(expected).isFile() &&
        QFileInfo(pages_.data->source()).fileName() == QFileInfo(expected).fileName())
        expected = pages_.data->source();
    const auto dataFile =
        findDataFile(expected, tr("the run in %1").arg(QFileInfo(dir).fileName()));
    if (!dataFile) return false;
    openingRunDir_ = dir;
    // The same loader the project's reopened runs and the CLI use; it checks the data file.
    jobs_->start(
        openRunJob_,
        [folder = localPath(dir),
         dataFile = localPath(*dataFile)](const ProgressCallback& progress) {
            study::LoadOptions options;
            options.dataPath = dataFile;
            options.progress = progress;
            return study::loadRunFolder(folder, options);
        },
        tr("Opening %1...").arg(QFileInfo(dir).fileName()));
    emit actionsChanged();
    return true;
}

}  // namespace ppsynth::ui

#include "moc_run_library.cpp"
