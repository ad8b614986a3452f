#include "ui/shell/project_controller.hpp"

#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>

#include "ui/counted.hpp"
#include "ui/csv_options_dialog.hpp"
#include "ui/data_page.hpp"
#include "ui/local_path.hpp"
#include "ui/message_area.hpp"
#include "ui/project_leftovers.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/run_library.hpp"
#include "ui/shell/window_questions.hpp"

namespace ppsynth::ui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");

bool isProjectPath(const QString& path) {
    return path.endsWith(QStringLiteral(".ppsynth"), Qt::CaseInsensitive);
}

// Text that does not convert, or an encoding name iconv does not know: another encoding
// helps. CSV files have their own dialog.
bool isStatEncodingFailure(const QString& path, const Error& error) {
    return data::formatFromPath(localPath(path)) != data::FileFormat::Csv &&
           error.kind == ErrorKind::Encoding;
}
}  // namespace

ProjectController::ProjectController(const ShellPages& pages, JobBoard* jobs,
                                     PageSettings* settings, RunLibrary* runs,
                                     WindowQuestions* questions, QWidget* window)
    : QObject(window),
      pages_(pages),
      jobs_(jobs),
      settings_(settings),
      runs_(runs),
      questions_(questions),
      window_(window),
      readJob_(jobs->add<ReadOutcome>()),
      saver_(new ProjectSaver(pages, jobs, settings, readJob_, this)) {
    connect(saver_, &ProjectSaver::projectWritten, this, &ProjectController::onProjectWritten);
    connect(saver_, &ProjectSaver::statusMessage, this, &ProjectController::statusMessage);
    connect(saver_, &ProjectSaver::actionsChanged, this, &ProjectController::actionsChanged);
    jobs_->onResult(readJob_, [this](ReadOutcome r) { onReadDone(std::move(r)); });
    jobs_->onFinished(readJob_, [this](JobOutcome outcome) {
        if (outcome != JobOutcome::Done) {  // the project waiting for this read is not opened
            pendingProject_.reset();
            pendingProjectPath_.clear();
        }
        if (outcome == JobOutcome::Canceled)
            pages_.data->messageArea()->showInfo(
                tr("Reading %1 was cancelled.").arg(QFileInfo(readingPath_).fileName()));
        else if (outcome == JobOutcome::Failed)
            pages_.data->messageArea()->showError(
                tr("Reading %1 failed: %2")
                    .arg(QFileInfo(readingPath_).fileName(), readJob_->failureText()));
    });
}

void ProjectController::openFile(const QString& path) {
    if (isProjectPath(path)) {
        openProject(path);
        return;
    }
    // Other data ends the open project (see onReadDone): what it has not saved is asked about
    // first, as when opening another project.
    if (!projectPath_.isEmpty() &&
        !confirmLosingWork(
            tr("Save the project before opening %1?").arg(QFileInfo(path).fileName()),
            [this, path] { openFile(path); }))
        return;
    data::ReadOptions options;
    const auto format = data::formatFromPath(localPath(path));
    if (format == data::FileFormat::Csv && QFileInfo(path).isFile()) {
        CsvOptionsDialog dialog(path, options.csv, window_);
        if (dialog.exec() != QDialog::Accepted) return;
        options.csv = dialog.options();
    } else if (format && QFileInfo(path).isFile() && questions_->statOptions) {
        // SPSS, Stata, SAS: the encoding can be chosen before the read, not only after a
        // read failed (a wrong declaration that converts gives wrong labels, not an error).
        auto chosen = questions_->statOptions(path, options.stat);
        if (!chosen) return;
        options.stat = *chosen;
    }
    readFile(path, options);
}

bool ProjectController::readFile(const QString& path, const data::ReadOptions& options) {
    if (readJob_->isRunning()) {
        pages_.data->messageArea()->showInfo(
            tr("Still reading %1; cancel it first.").arg(QFileInfo(readingPath_).fileName()));
        return false;
    }
    // The save writes the project file from the window's state when its runs are written:
    // other data shown by then would be saved under the old project's name.
    if (saver_->isRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the project to be saved."));
        return false;
    }
    readingPath_ = path;
    settings_->readOptions() = options;
    settings_->readOptions().progress = nullptr;
    // The work owns copies of what it reads; table and notes come back by value.
    return jobs_->start(
        readJob_,
        [file = localPath(path), options](const ProgressCallback& progress) {
            auto o = options;
            o.progress = progress;
            data::ReadReport report;
            auto table = data::readTable(file, o, &report);
            data::TableSummary summary;
            if (table) summary = data::summarize(*table);
            return ReadOutcome{std::move(table), std::move(report), std::move(summary)};
        },
        tr("Reading %1...").arg(QFileInfo(path).fileName()));
}

void ProjectController::onReadDone(ReadOutcome result) {
    auto project = std::exchange(pendingProject_, std::nullopt);
    if (!result.table) {
        pages_.data->messageArea()->showError(QString::fromStdString(result.table.message()));
        // Asked once the read job has ended, so the retry is a job of its own.
        if (isStatEncodingFailure(readingPath_, result.table.error()))
            QMetaObject::invokeMethod(
                this,
                [this, path = readingPath_, options = settings_->readOptions(),
                 project = std::move(project)] { offerStatEncoding(path, options, project); },
                Qt::QueuedConnection);
        return;
    }
    // A fresh table takes the suggested transform (before setTable, which marks the
    // settings as saved: a suggestion is not an edit); a project keeps its own, and the note
    // still says what would be suggested.
    pages_.model->suggestTransform(result.summary.roles.transform,
                                   result.summary.roles.transformReason, !project);
    setTable(std::move(*result.table), readingPath_);
    pages_.data->setSuggestions(result.summary.roles);
    if (project) {
        projectPath_ = std::exchange(pendingProjectPath_, QString());
        applyProject(*project);
    } else {
        addRecentFile(readingPath_);
        leaveProject();
    }
    // An error from applying the project (columns gone) stays; otherwise the project's own
    // note (the example says what it set up) comes first, then what the reader noticed.
    if (pages_.data->messageArea()->kind() == MessageArea::Kind::Error &&
        !pages_.data->messageArea()->isHidden())
        return;
    QStringList notes;
    if (project && !project->note.isEmpty()) notes << project->note;
    for (const auto& n : result.report.notes) notes << QString::fromStdString(n);
    if (!notes.isEmpty()) pages_.data->messageArea()->showInfo(notes.join(QLatin1Char('\n')));
}

// The chosen encoding becomes part of the read options, so the project saves it and the
// run configuration (run.json) reads the file the same way.
void ProjectController::offerStatEncoding(const QString& path, data::ReadOptions options,
                                          std::optional<Project> project) {
    if (!questions_->statEncoding) return;
    const QString encoding =
        questions_->statEncoding(path, QString::fromStdString(options.stat.encoding));
    if (encoding.isEmpty()) return;
    options.stat.encoding = encoding.toStdString();
    if (!readFile(path, options)) return;
    pendingProject_ = std::move(project);
}

void ProjectController::leaveProject() {
    settings_->projectNote().clear();
    if (projectPath_.isEmpty()) return;
    const QString left = QFileInfo(std::exchange(projectPath_, QString())).fileName();
    emit titleChanged(tr("ppsynth"));
    emit statusMessage(tr("%1 is closed; Save Project will ask for a new project file.").arg(left),
                       8000);
}

void ProjectController::setTable(data::Table table, const QString& source) {
    pages_.data->setTable(std::make_shared<data::Table>(std::move(table)), source);
    // Bounds from a run on other data would preview nonsense.
    pages_.synthesizers->previewPanel()->clearBounds();
    pages_.data->messageArea()->hide();
    settings_->markSaved();  // fresh data: nothing changed yet
    emit titleChanged(
        tr("%1 - ppsynth")
            .arg(QFileInfo(source).fileName().isEmpty() ? source : QFileInfo(source).fileName()));
}

QStringList ProjectController::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void ProjectController::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    auto files = recentFiles();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    QSettings().setValue(kRecentKey, files);
    emit recentFilesChanged();
}

bool ProjectController::mayClose(std::function<void()> close) {
    if (saver_->isRunning()) {
        // The person pressed Save: close once the project file is written, not before.
        saver_->setAfterSave(std::move(close));
        emit statusMessage(tr("Closing once the project is saved..."), 0);
        return false;
    }
    return std::exchange(closeConfirmed_, false) ||
           confirmLosingWork(tr("Save the project before closing?"), [this, close] {
               closeConfirmed_ = true;
               close();
           });
}

QStringList ProjectController::unsavedWork() const {
    QStringList what;
    if (pages_.run->isRunning()) what << tr("A run is in progress; it will be stopped.");
    if (saver_->isRunning()) what << tr("The project is being saved.");
    const auto& records = pages_.run->runList()->records();
    const auto unsaved = std::count_if(records.begin(), records.end(), [](const RunRecord& r) {
        return r.result && r.folder.isEmpty();
    });
    if (unsaved > 0)
        what << tr("%1 not yet saved.")
                    .arg(counted(static_cast<long long>(unsaved), tr("finished run"),
                                 tr("finished runs")));
    if (!pages_.data->source().isEmpty() && settings_->changedSinceSaved())
        what << tr("Changed roles, model or synthesizers, not yet saved.");
    return what;
}

// True when the caller may go on now (nothing to lose, Discard, or saved at once). A save
// that writes runs in the background runs `afterSave` once the project file is written.
bool ProjectController::confirmLosingWork(const QString& question,
                                          std::function<void()> afterSave) {
    const QStringList what = unsavedWork();
    if (what.isEmpty()) return true;
    switch (questions_->unsavedWork(question, what)) {
        case UnsavedChoice::Cancel:
            return false;
        case UnsavedChoice::Discard:
            return true;
        case UnsavedChoice::Save:
            break;
    }
    if (!saveBeforeLosingWork()) return false;
    if (saver_->isRunning()) {
        saver_->setAfterSave(std::move(afterSave));
        return false;
    }
    return true;
}

bool ProjectController::saveBeforeLosingWork() {
    const QString path = projectPath_.isEmpty() ? askProjectPath() : projectPath_;
    return !path.isEmpty() && saveProject(path);
}

void ProjectController::save() {
    if (projectPath_.isEmpty())
        saveAs();
    else
        saveProject(projectPath_);
}

void ProjectController::saveAs() {
    const QString path = askProjectPath();
    if (!path.isEmpty()) saveProject(path);
}

QString ProjectController::askProjectPath() {
    return chooseSavePath(*questions_, tr("Save project"),
                          projectPath_.isEmpty() ? lastDirectory() : projectPath_,
                          tr("ppsynth projects (*.ppsynth)"), {QStringLiteral("ppsynth")});
}

void ProjectController::onProjectWritten(const QString& path) {
    projectPath_ = path;
    addRecentFile(path);
    emit titleChanged(tr("%1 - ppsynth").arg(QFileInfo(path).fileName()));
}

void ProjectController::openProject(const QString& path) {
    auto project = loadProject(path);
    if (!project) {
        pages_.data->messageArea()->showError(QString::fromStdString(project.message()));
        return;
    }
    if (saver_->isRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the project to be saved."));
        return;
    }
    auto open = [this, project = *project, path] { startOpeningProject(project, path); };
    if (!confirmLosingWork(
            tr("Save the project before opening %1?").arg(QFileInfo(path).fileName()), open))
        return;
    open();
}

// The project becomes the window's (projectPath_, what Save writes to) only once its data
// file is read and it is applied: a failed or cancelled read leaves the shown one in place.
void ProjectController::startOpeningProject(Project project, const QString& path) {
    if (!readFile(project.dataPath, readOptionsOf(project))) return;
    pendingProjectPath_ = QFileInfo(path).absoluteFilePath();
    pendingProject_ = std::move(project);
}

void ProjectController::applyProject(const Project& project) {
    settings_->baseConfig() = project.config;
    settings_->projectNote() = project.note;
    const QStringList missing = settings_->applyRoles(project.config.data);
    pages_.model->load(project.config);
    if (project.hasSynthesizers) pages_.synthesizers->load(project.config);
    runs_->showProjectRuns(project);
    settings_->markSaved();
    addRecentFile(projectPath_);
    emit titleChanged(tr("%1 - ppsynth").arg(QFileInfo(projectPath_).fileName()));
    if (!missing.isEmpty())
        pages_.data->messageArea()->showError(
            tr("The project names columns the data file no longer has: %1")
                .arg(missing.join(QStringLiteral(", "))));
    // Asked once the read job that applied the project has ended (a modal question inside
    // its result handler would hold the job open).
    QMetaObject::invokeMethod(
        this, [this, project] { offerToRemoveLeftovers(project); }, Qt::QueuedConnection);
}

// Unfinished run folders a killed save left beside the project's runs are named and, when
// the person agrees, removed; an earlier run folder that is the only copy is only named.
void ProjectController::offerToRemoveLeftovers(const Project& project) {
    std::vector<Leftover> removable;
    QStringList what, onlyCopies;
    for (auto& l : projectLeftovers(projectPath_, project)) {
        const QString text = fromLocalPath(describeLeftover(l));
        if (l.state == Leftover::State::OnlyCopy) onlyCopies << text;
        if (l.state != Leftover::State::Removable) continue;
        what << text;
        removable.push_back(std::move(l));
    }
    if (!onlyCopies.isEmpty())
        pages_.data->messageArea()->showInfo(
            tr("Found beside the project's runs: %1").arg(onlyCopies.join(QStringLiteral("; "))));
    if (removable.empty() || !questions_->removeLeftovers || !questions_->removeLeftovers(what))
        return;
    QStringList failed;
    for (const auto& l : removable)
        if (const Status s = removeLeftover(l); !s) failed << fromLocalPath(s.message());
    if (!failed.isEmpty()) {
        pages_.data->messageArea()->showError(failed.join(QStringLiteral("; ")));
        return;
    }
    emit statusMessage(
        tr("Removed %1 left behind by a stopped ppsynth")
            .arg(counted(static_cast<long long>(removable.size()), tr("item"), tr("items"))),
        6000);
}

}  // namespace ppsynth::ui

#include "moc_project_controller.cpp"
