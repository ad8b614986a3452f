#include "ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <algorithm>

#include "ppsynth/data/roles.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/column_panel.hpp"
#include "ui/counted.hpp"
#include "ui/csv_options_dialog.hpp"
#include "ui/data_page.hpp"
#include "ui/destination_guard.hpp"
#include "ui/export/export_dialog.hpp"
#include "ui/message_area.hpp"
#include "ui/project_leftovers.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"
#include "ui/stat_options_dialog.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");
const QString kGeometryKey = QStringLiteral("window/geometry");
const QString kLastDirKey = QStringLiteral("lastDirectory");

bool isProjectPath(const QString& path) {
    return path.endsWith(QStringLiteral(".ppsynth"), Qt::CaseInsensitive);
}

// A folder name beside the project that no earlier save used.
QString freeFolder(const QString& parent, const QString& stem) {
    QString candidate = QDir(parent).filePath(stem);
    for (int i = 2; QFileInfo::exists(candidate); ++i)
        candidate = QDir(parent).filePath(QStringLiteral("%1_%2").arg(stem).arg(i));
    return candidate;
}

std::string localPath(const QString& path) {
    return QFile::encodeName(path).toStdString();
}

QString fromLocalPath(const std::string& path) {
    return QFile::decodeName(QByteArray::fromStdString(path));
}

UnsavedChoice askAboutUnsavedWork(QWidget* parent, const QString& question,
                                  const QStringList& what) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved work"), question,
                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, parent);
    box.setInformativeText(QStringLiteral("\u2022 ") + what.join(QStringLiteral("\n\u2022 ")));
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
        case QMessageBox::Save:
            return UnsavedChoice::Save;
        case QMessageBox::Discard:
            return UnsavedChoice::Discard;
        default:
            return UnsavedChoice::Cancel;
    }
}

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

QString askForDataFile(QWidget* parent, const QString& missing) {
    const QFileInfo was(missing);
    return QFileDialog::getOpenFileName(
        parent,
        QObject::tr("Locate data file %1 (it was in %2)")
            .arg(was.fileName(), QDir::toNativeSeparators(was.absolutePath())),
        QSettings().value(kLastDirKey).toString(),
        QObject::tr("%1 (%1);;All files (*)").arg(was.fileName()));
}

// Encodings older SPSS, Stata and SAS files were commonly written in (western Windows, DOS
// and Unix code pages); the list is editable for any other iconv name.
QString askForStatEncoding(QWidget* parent, const QString& path, const QString& tried) {
    const QStringList common = StatOptionsDialog::commonEncodings();
    const QString why = tried.isEmpty()
                            ? QObject::tr(
                                  "The text of %1 is not in the encoding the file declares.\nOlder "
                                  "SPSS, Stata and SAS files are often in a code page.")
                                  .arg(QFileInfo(path).fileName())
                            : QObject::tr("The text of %1 is not in %2 either.")
                                  .arg(QFileInfo(path).fileName(), tried);
    const int next = std::max(0, int(common.indexOf(tried)) + 1) % int(common.size());
    bool ok = false;
    const QString chosen =
        QInputDialog::getItem(parent, QObject::tr("File encoding"),
                              why + QStringLiteral("\n\n") + QObject::tr("Read it again as:"),
                              common, tried.isEmpty() ? 0 : next, true, &ok);
    return ok ? chosen.trimmed() : QString();
}

// The reader names the encoding option in both of its encoding failures (text that does
// not convert, an encoding name iconv does not know); CSV files have their own dialog.
bool isStatEncodingFailure(const QString& path, const std::string& message) {
    return data::formatFromPath(localPath(path)) != data::FileFormat::Csv &&
           message.find("data.read.stat_encoding") != std::string::npos;
}

bool askToReplace(QWidget* parent, const QString& path) {
    return QMessageBox::question(
               parent, QObject::tr("Replace file"),
               QObject::tr("%1 already exists. Replace it?").arg(QDir::toNativeSeparators(path)),
               QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

bool askToRemoveLeftovers(QWidget* parent, const QStringList& what) {
    QMessageBox box(QMessageBox::Warning, QObject::tr("Unfinished run folders"),
                    QObject::tr("A ppsynth that was stopped before it finished left these beside "
                                "the project's runs. They may hold confidential files. Remove "
                                "them?"),
                    QMessageBox::NoButton, parent);
    box.setInformativeText(QStringLiteral("\u2022 ") + what.join(QStringLiteral("\n\u2022 ")));
    auto* remove = box.addButton(QObject::tr("Remove"), QMessageBox::AcceptRole);
    box.addButton(QObject::tr("Keep"), QMessageBox::RejectRole);
    box.setDefaultButton(remove);
    box.exec();
    return box.clickedButton() == remove;
}
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      tabs_(new QTabWidget(this)),
      dataPage_(new DataPage(this)),
      modelPage_(new ModelPage(this)),
      synthesizersPage_(new SynthesizersPage(this)),
      runPanel_(new RunPanel(this)),
      resultsPage_(new results::ResultsPage(this)),
      compareView_(new results::CompareView(this)),
      studiesPage_(new results::StudiesPage(this)),
      busyLabel_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      readJob_(new JobRunner<ReadOutcome>(this)),
      saveJob_(new JobRunner<SavedRuns>(this)),
      loadRunsJob_(new JobRunner<LoadedRuns>(this)),
      openRunJob_(new JobRunner<Expected<study::LoadedRun>>(this)),
      reportJob_(new report::ReportJob(this)),
      studyJob_(new JobRunner<Expected<study::StudyFolder>>(this)) {
    setWindowTitle(tr("ppsynth"));
    setAcceptDrops(true);
    tabs_->setDocumentMode(true);
    tabs_->addTab(dataPage_, tr("Data"));
    tabs_->addTab(modelPage_, tr("Model"));
    tabs_->addTab(synthesizersPage_, tr("Synthesizers"));
    tabs_->addTab(runPanel_, tr("Run"));
    tabs_->addTab(resultsPage_, tr("Results"));
    tabs_->addTab(compareView_, tr("Compare"));
    tabs_->addTab(studiesPage_, tr("Studies"));
    dataPage_->columnPanel()->setRolesValidator(data::validateRoles);
    connect(dataPage_, &DataPage::applySuggestionsRequested, this, [this] {
        const auto& s = dataPage_->suggestions();
        study::RunConfig::Data roles;
        roles.target = s.target;
        roles.predictors = s.predictors;
        roles.referenceLevels = {};
        applyRoles(roles);
        if (!s.transform.empty())
            modelPage_->suggestTransform(s.transform, s.transformReason, true);
    });
    runPanel_->setSources([this] { return currentConfig(); },
                          [this] { return dataPage_->model()->table(); });
    connect(runPanel_, &RunPanel::runFinished, this, [this](int id) {
        const RunRecord* r = runPanel_->runList()->find(id);
        if (!r || !r->result) return;
        // The unweighted fit's bounds drive the live preview of the LW knobs, but only for
        // the data they were fitted on: a run started before other data was opened has
        // bounds for other records.
        if (r->table && r->table == dataPage_->model()->table()) {
            synthesizersPage_->previewPanel()->setBounds(r->result->f, r->label);
            synthesizersPage_->refreshPreview();
        }
        showRunResults(id);
        updateRunActions();
    });
    connect(runPanel_->runList()->table(), &QTableWidget::itemSelectionChanged, this,
            &MainWindow::updateRunActions);
    connect(runPanel_->runList(), &RunList::showRequested, this, &MainWindow::showRunResults);
    connect(runPanel_->runList(), &RunList::compareRequested, this, &MainWindow::compareRuns);
    saveJob_->onResult([this](SavedRuns saved) {
        QStringList errors;
        for (auto& [id, folder] : saved.folders) {
            if (folder)
                runPanel_->runList()->setFolder(id, QString::fromStdString(*folder));
            else
                errors << QString::fromStdString(folder.message());
        }
        updateRunActions();
        if (!errors.isEmpty()) {
            afterSave_ = nullptr;
            dataPage_->messageArea()->showError(
                tr("Some runs could not be saved: %1").arg(errors.join(QStringLiteral("; "))));
            return;
        }
        // What waited for the save (a close, another project) runs after this job has ended.
        if (writeProjectFile(savingPath_))
            if (auto then = std::exchange(afterSave_, nullptr))
                QMetaObject::invokeMethod(this, std::move(then), Qt::QueuedConnection);
    });
    loadRunsJob_->onResult([this](LoadedRuns loaded) { onRunsLoaded(std::move(loaded)); });
    connect(loadRunsJob_, &JobRunnerBase::finished, this, &MainWindow::onRunsLoadFinished);
    // The stage is the status bar's text ("Loading saved run 2 of 5..."); the busy entry ends
    // in onRunsLoadFinished, which may start a queued load at once.
    connect(loadRunsJob_, &JobRunnerBase::progressChanged, this,
            [this](double f, const QString& stage) { showBusyProgress(loadRunsJob_, f, stage); });
    connect(saveJob_, &JobRunnerBase::finished, this, &MainWindow::onSaveFinished);
    setCentralWidget(tabs_);
    buildMenus();
    buildRunMenu();

    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setTextVisible(false);
    busyLabel_->setObjectName(QStringLiteral("busyLabel"));
    statusBar()->addPermanentWidget(busyLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    showBusy();
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelBusyJobs);
    for (JobRunnerBase* job :
         {static_cast<JobRunnerBase*>(readJob_), static_cast<JobRunnerBase*>(saveJob_),
          static_cast<JobRunnerBase*>(openRunJob_), static_cast<JobRunnerBase*>(reportJob_),
          static_cast<JobRunnerBase*>(studyJob_)})
        watchBusy(job);
    readJob_->onResult([this](ReadOutcome r) { onReadDone(std::move(r)); });
    connect(readJob_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        if (outcome != JobOutcome::Done) {  // the project waiting for this read is not opened
            pendingProject_.reset();
            pendingProjectPath_.clear();
        }
        if (outcome == JobOutcome::Canceled)
            dataPage_->messageArea()->showInfo(
                tr("Reading %1 was cancelled.").arg(QFileInfo(readingPath_).fileName()));
        else if (outcome == JobOutcome::Failed)
            dataPage_->messageArea()->showError(
                tr("Reading %1 failed: %2")
                    .arg(QFileInfo(readingPath_).fileName(), readJob_->failureText()));
    });
    questions_.unsavedWork = [this](const QString& question, const QStringList& what) {
        return askAboutUnsavedWork(this, question, what);
    };
    questions_.saveFileName = [this](const QString& caption, const QString& dir,
                                     const QString& filter, QString* selectedFilter) {
        return QFileDialog::getSaveFileName(this, caption, dir, filter, selectedFilter);
    };
    questions_.replaceFile = [this](const QString& path) { return askToReplace(this, path); };
    questions_.removeLeftovers = [this](const QStringList& what) {
        return askToRemoveLeftovers(this, what);
    };
    questions_.locateDataFile = [this](const QString& missing) {
        return askForDataFile(this, missing);
    };
    questions_.statEncoding = [this](const QString& path, const QString& tried) {
        return askForStatEncoding(this, path, tried);
    };
    questions_.statOptions =
        [this](const QString& path,
               const data::StatOptions& initial) -> std::optional<data::StatOptions> {
        StatOptionsDialog dialog(path, initial, this);
        if (dialog.exec() != QDialog::Accepted) return std::nullopt;
        return dialog.options();
    };
    resize(1280, 800);
    QSettings settings;
    if (settings.contains(kGeometryKey))
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
}

// The read job is a child QObject: its destructor cancels and waits before the window
// goes, so the worker never outlives the window.
MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    openAction_ = file->addAction(tr("&Open..."), this, &MainWindow::chooseFile);
    openAction_->setShortcut(QKeySequence::Open);
    saveAction_ = file->addAction(tr("&Save Project"), this, [this] {
        if (projectPath_.isEmpty())
            chooseProjectToSave();
        else
            saveProject(projectPath_);
    });
    saveAction_->setObjectName(QStringLiteral("saveProject"));
    saveAction_->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save Project &As..."), this, &MainWindow::chooseProjectToSave)
        ->setObjectName(QStringLiteral("saveProjectAs"));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();
}

void MainWindow::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data or project"), QSettings().value(kLastDirKey).toString(),
        tr("Data files and projects (*.csv *.tsv *.txt *.sav *.zsav *.dta *.sas7bdat *.xpt "
           "*.ppsynth);;ppsynth projects (*.ppsynth);;All files (*)"));
    if (path.isEmpty()) return;
    QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
    openFile(path);
}

void MainWindow::openFile(const QString& path) {
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
        CsvOptionsDialog dialog(path, options.csv, this);
        if (dialog.exec() != QDialog::Accepted) return;
        options.csv = dialog.options();
    } else if (format && QFileInfo(path).isFile() && questions_.statOptions) {
        // SPSS, Stata, SAS: the encoding can be chosen before the read, not only after a
        // read failed (a wrong declaration that converts gives wrong labels, not an error).
        auto chosen = questions_.statOptions(path, options.stat);
        if (!chosen) return;
        options.stat = *chosen;
    }
    readFile(path, options);
}

bool MainWindow::readFile(const QString& path, const data::ReadOptions& options) {
    if (readJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(
            tr("Still reading %1; cancel it first.").arg(QFileInfo(readingPath_).fileName()));
        return false;
    }
    // The save writes the project file from the window's state when its runs are written:
    // other data shown by then would be saved under the old project's name.
    if (saveJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the project to be saved."));
        return false;
    }
    readingPath_ = path;
    readOptions_ = options;
    readOptions_.progress = nullptr;
    beginBusy(readJob_, tr("Reading %1...").arg(QFileInfo(path).fileName()));
    // The work owns copies of what it reads; table and notes come back by value.
    readJob_->start([file = localPath(path), options](const ProgressCallback& progress) {
        auto o = options;
        o.progress = progress;
        data::ReadReport report;
        auto table = data::readTable(file, o, &report);
        data::TableSummary summary;
        if (table) summary = data::summarize(*table);
        return ReadOutcome{std::move(table), std::move(report), std::move(summary)};
    });
    return true;
}

void MainWindow::onReadDone(ReadOutcome result) {
    auto project = std::exchange(pendingProject_, std::nullopt);
    if (!result.table) {
        dataPage_->messageArea()->showError(QString::fromStdString(result.table.message()));
        // Asked once the read job has ended, so the retry is a job of its own.
        if (isStatEncodingFailure(readingPath_, result.table.message()))
            QMetaObject::invokeMethod(
                this,
                [this, path = readingPath_, options = readOptions_, project = std::move(project)] {
                    offerStatEncoding(path, options, project);
                },
                Qt::QueuedConnection);
        return;
    }
    // A fresh table takes the suggested transform (before setTable, which marks the
    // settings as saved: a suggestion is not an edit); a project keeps its own, and the note
    // still says what would be suggested.
    modelPage_->suggestTransform(result.summary.roles.transform,
                                 result.summary.roles.transformReason, !project);
    setTable(std::move(*result.table), readingPath_);
    dataPage_->setSuggestions(result.summary.roles);
    if (project) {
        projectPath_ = std::exchange(pendingProjectPath_, QString());
        applyProject(*project);
    } else {
        addRecentFile(readingPath_);
        leaveProject();
    }
    // An error from applying the project (columns gone) stays; otherwise the project's own
    // note (the example says what it set up) comes first, then what the reader noticed.
    if (dataPage_->messageArea()->kind() == MessageArea::Kind::Error &&
        !dataPage_->messageArea()->isHidden())
        return;
    QStringList notes;
    if (project && !project->note.isEmpty()) notes << project->note;
    for (const auto& n : result.report.notes) notes << QString::fromStdString(n);
    if (!notes.isEmpty()) dataPage_->messageArea()->showInfo(notes.join(QLatin1Char('\n')));
}

// The chosen encoding becomes part of the read options, so the project saves it and the
// run configuration (run.json) reads the file the same way.
void MainWindow::offerStatEncoding(const QString& path, data::ReadOptions options,
                                   std::optional<Project> project) {
    if (!questions_.statEncoding) return;
    const QString encoding =
        questions_.statEncoding(path, QString::fromStdString(options.stat.encoding));
    if (encoding.isEmpty()) return;
    options.stat.encoding = encoding.toStdString();
    if (!readFile(path, options)) return;
    pendingProject_ = std::move(project);
}

// Other data than the project's is shown: Save must not write it under the project's name.
void MainWindow::leaveProject() {
    projectNote_.clear();
    if (projectPath_.isEmpty()) return;
    const QString left = QFileInfo(std::exchange(projectPath_, QString())).fileName();
    setWindowTitle(tr("ppsynth"));
    statusBar()->showMessage(
        tr("%1 is closed; Save Project will ask for a new project file.").arg(left), 8000);
}

void MainWindow::setTable(data::Table table, const QString& source) {
    dataPage_->setTable(std::make_shared<data::Table>(std::move(table)), source);
    // Bounds from a run on other data would preview nonsense.
    synthesizersPage_->previewPanel()->clearBounds();
    dataPage_->messageArea()->hide();
    markSettingsSaved();  // fresh data: nothing changed yet
    setWindowTitle(
        tr("%1 - ppsynth")
            .arg(QFileInfo(source).fileName().isEmpty() ? source : QFileInfo(source).fileName()));
}

// Several jobs may run at once (a report while a project saves): the status bar shows the
// newest and stays until the last has ended.
void MainWindow::beginBusy(JobRunnerBase* job, const QString& what) {
    endBusy(job);
    busyJobs_.emplace_back(job, what);
    showBusy();
    progress_->setValue(0);
}

void MainWindow::endBusy(JobRunnerBase* job) {
    const auto n = busyJobs_.size();
    std::erase_if(busyJobs_, [job](const auto& b) { return b.first == job; });
    if (busyJobs_.size() != n) showBusy();
}

void MainWindow::showBusy() {
    const bool busy = !busyJobs_.empty();
    busyLabel_->setText(busy ? busyJobs_.back().second : QString());
    busyLabel_->setVisible(busy);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    // Reopening saved runs leaves Open and Save available: opening another project cancels
    // it (startLoadingRuns), and a save writes only runs that are not on disk yet.
    const bool blocksFiles = std::any_of(busyJobs_.begin(), busyJobs_.end(),
                                         [this](const auto& b) { return b.first != loadRunsJob_; });
    if (openAction_) openAction_->setEnabled(!blocksFiles);
    if (saveAction_) saveAction_->setEnabled(!blocksFiles);
    if (recentMenu_) recentMenu_->setEnabled(!blocksFiles);
}

// A job's progress, and its new text when it has one, shown while it is the newest busy job.
void MainWindow::showBusyProgress(JobRunnerBase* job, double fraction, const QString& text) {
    auto it = std::find_if(busyJobs_.begin(), busyJobs_.end(),
                           [job](const auto& b) { return b.first == job; });
    if (it == busyJobs_.end()) return;
    if (!text.isEmpty()) it->second = text;
    if (busyJobs_.back().first != job) return;
    busyLabel_->setText(it->second);
    progress_->setValue(static_cast<int>(fraction * 1000));
}

void MainWindow::watchBusy(JobRunnerBase* job) {
    connect(job, &JobRunnerBase::finished, this, [this, job] { endBusy(job); });
    connect(job, &JobRunnerBase::progressChanged, this, [this, job](double f) {
        if (!busyJobs_.empty() && busyJobs_.back().first == job)
            progress_->setValue(static_cast<int>(f * 1000));
    });
}

void MainWindow::cancelBusyJobs() {
    const auto jobs = busyJobs_;  // a job's end edits the list
    for (const auto& [job, what] : jobs) job->cancel();
}

QStringList MainWindow::recentFiles() const {
    return QSettings().value(kRecentKey).toStringList();
}

void MainWindow::addRecentFile(const QString& path) {
    const QString abs = QFileInfo(path).absoluteFilePath();
    auto files = recentFiles();
    files.removeAll(abs);
    files.prepend(abs);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    QSettings().setValue(kRecentKey, files);
    updateRecentMenu();
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const auto files = recentFiles();
    for (const auto& f : files) {
        auto* a = recentMenu_->addAction(QFileInfo(f).fileName(), this, [this, f] { openFile(f); });
        a->setToolTip(f);
        a->setStatusTip(f);
    }
    if (files.isEmpty()) recentMenu_->addAction(tr("(none)"))->setEnabled(false);
    recentMenu_->menuAction()->setEnabled(!files.isEmpty());
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const auto* mime = event->mimeData();
    if (mime->hasUrls() && !mime->urls().isEmpty() && mime->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile()) return;
    event->acceptProposedAction();
    const QString path = urls.first().toLocalFile();
    // Let the drop finish before a dialog may open.
    QMetaObject::invokeMethod(
        this, [this, path] { openFile(path); }, Qt::QueuedConnection);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (saveJob_->isRunning()) {
        // The person pressed Save: close once the project file is written, not before.
        event->ignore();
        afterSave_ = [this] { close(); };
        statusBar()->showMessage(tr("Closing once the project is saved..."));
        return;
    }
    if (!std::exchange(closeConfirmed_, false) &&
        !confirmLosingWork(tr("Save the project before closing?"), [this] {
            closeConfirmed_ = true;
            close();
        })) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    readJob_->cancel();
    runPanel_->cancelRun();
    QMainWindow::closeEvent(event);
}

QStringList MainWindow::unsavedWork() const {
    QStringList what;
    if (runPanel_->isRunning()) what << tr("A run is in progress; it will be stopped.");
    if (saveJob_->isRunning()) what << tr("The project is being saved.");
    const auto& records = runPanel_->runList()->records();
    const auto unsaved = std::count_if(records.begin(), records.end(), [](const RunRecord& r) {
        return r.result && r.folder.isEmpty();
    });
    if (unsaved > 0)
        what << tr("%1 not yet saved.")
                    .arg(counted(static_cast<long long>(unsaved), tr("finished run"),
                                 tr("finished runs")));
    if (!dataPage_->source().isEmpty() && settingsSnapshot() != savedSettings_)
        what << tr("Changed roles, model or synthesizers, not yet saved.");
    return what;
}

// The settings a project file holds, as text: compared with the last opened or saved ones
// to tell whether closing would lose edits.
std::string MainWindow::settingsSnapshot() const {
    const Project p = gatherProject();
    return study::toJson(p.config) + (p.hasSynthesizers ? "+" : "-");
}

void MainWindow::markSettingsSaved() {
    savedSettings_ = settingsSnapshot();
}

// True when the caller may go on now (nothing to lose, Discard, or saved at once). A save
// that writes runs in the background runs `afterSave` once the project file is written.
bool MainWindow::confirmLosingWork(const QString& question, std::function<void()> afterSave) {
    const QStringList what = unsavedWork();
    if (what.isEmpty()) return true;
    switch (questions_.unsavedWork(question, what)) {
        case UnsavedChoice::Cancel:
            return false;
        case UnsavedChoice::Discard:
            return true;
        case UnsavedChoice::Save:
            break;
    }
    if (!saveBeforeLosingWork()) return false;
    if (saveJob_->isRunning()) {
        afterSave_ = std::move(afterSave);
        return false;
    }
    return true;
}

bool MainWindow::saveBeforeLosingWork() {
    const QString path = projectPath_.isEmpty() ? askProjectPath() : projectPath_;
    return !path.isEmpty() && saveProject(path);
}

Expected<study::RunConfig> MainWindow::currentConfig() const {
    const auto table = dataPage_->model()->table();
    if (!table || table->columnCount() == 0)
        return Error{tr("Open a data file on the Data page first.").toStdString()};
    const auto roles = dataPage_->columnPanel()->roles();
    if (roles.target.empty())
        return Error{tr("Choose the sensitive variable y on the Data page (its Role column).")
                         .toStdString()};
    if (auto s = data::validateRoles(roles, *table); !s) return Error{s.message()};
    study::RunConfig c = baseConfig_;
    c.data.types.clear();  // the shown table's, below
    c.data.path = QFile::encodeName(dataPage_->source()).toStdString();
    c.data.target = roles.target;
    c.data.predictors = roles.predictors;
    c.data.known = roles.known;
    c.data.referenceLevels = roles.referenceLevels;
    c.data.maxLevels = readOptions_.maxLevels;
    // run.json then says how the file was read, so reopening the run reads the same records.
    c.data.read = {readOptions_.csv, readOptions_.stat};
    for (std::size_t i = 0; i < table->columnCount(); ++i)
        c.data.types[table->column(i).name()] = std::string(toString(table->column(i).type()));
    modelPage_->apply(c);
    if (auto s = synthesizersPage_->apply(c); !s) return Error{s.message()};
    return c;
}

Project MainWindow::gatherProject() const {
    Project p;
    p.dataPath = dataPage_->source();
    p.csv = readOptions_.csv;
    p.stat = readOptions_.stat;
    p.config = baseConfig_;
    p.note = projectNote_;
    auto& c = p.config;
    c.data.types.clear();  // the shown table's, below
    const auto table = dataPage_->model()->table();
    const auto roles = dataPage_->columnPanel()->roles();
    c.data.path = QFile::encodeName(p.dataPath).toStdString();
    c.data.target = roles.target;
    c.data.predictors = roles.predictors;
    c.data.known = roles.known;
    c.data.referenceLevels = roles.referenceLevels;
    c.data.maxLevels = readOptions_.maxLevels;
    if (table)
        for (std::size_t i = 0; i < table->columnCount(); ++i)
            c.data.types[table->column(i).name()] = std::string(toString(table->column(i).type()));
    modelPage_->apply(c);
    // An incomplete synthesizer set (none listed, or one not complete) is still worth saving.
    p.hasSynthesizers = bool(synthesizersPage_->apply(c)) && !c.synthesizers.empty();
    if (!p.hasSynthesizers) c.synthesizers.clear();
    for (const auto& r : runPanel_->runList()->records())
        if (!r.folder.isEmpty()) p.runs.push_back({r.folder, r.label, r.epsilonSummary()});
    return p;
}

void MainWindow::chooseProjectToSave() {
    const QString path = askProjectPath();
    if (!path.isEmpty()) saveProject(path);
}

QString MainWindow::askProjectPath() {
    return chooseSavePath(
        tr("Save project"),
        projectPath_.isEmpty() ? QSettings().value(kLastDirKey).toString() : projectPath_,
        tr("ppsynth projects (*.ppsynth)"), {QStringLiteral("ppsynth")});
}

// The file dialog asked before replacing the name the person typed; a suffix added here
// makes another name, so replacing that one is asked here. The first suffix is added when
// the name has none of them, or the selected filter's when it names one.
QString MainWindow::chooseSavePath(const QString& caption, const QString& dir,
                                   const QString& filter, const QStringList& suffixes) {
    QString selectedFilter;
    QString path = questions_.saveFileName(caption, dir, filter, &selectedFilter);
    if (path.isEmpty()) return {};
    if (!suffixes.contains(QFileInfo(path).suffix().toLower())) {
        const auto named = std::find_if(suffixes.begin(), suffixes.end(), [&](const QString& s) {
            return selectedFilter.contains(QStringLiteral("*.") + s);
        });
        path += QLatin1Char('.') + (named != suffixes.end() ? *named : suffixes.front());
        if (QFileInfo::exists(path) && !questions_.replaceFile(path)) return {};
    }
    QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
    return path;
}

bool MainWindow::saveProject(const QString& path) {
    if (dataPage_->source().isEmpty()) {
        dataPage_->messageArea()->showError(tr("Open a data file before saving a project."));
        return false;
    }
    if (saveJob_->isRunning() || readJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the current read or save to finish."));
        return false;
    }
    // The runs go to folders beside the project file, with their record-level files: never
    // into a release bundle (Save As there, or Save of a project that lives in one).
    if (const QString why = confidentialDestinationProblem(
            path, tr("the project and its run folders, with record-level weights, bounds and "
                     "risks"));
        !why.isEmpty()) {
        dataPage_->messageArea()->showError(why);
        return false;
    }
    // The project file can be written: said now, not after the runs have been written.
    if (const QString why = unwritableDestinationProblem(path); !why.isEmpty()) {
        dataPage_->messageArea()->showError(why);
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
    for (const auto& r : runPanel_->runList()->records()) {
        if (!r.folder.isEmpty() || !r.result || !r.table) continue;
        const QString dir = freeFolder(runsDir, QStringLiteral("run_%1").arg(r.id));
        savingFolders_ << dir;
        pending.push_back({r.id, r.result, r.table, QFile::encodeName(dir).toStdString()});
    }
    if (pending.empty()) return writeProjectFile(savingPath_);
    if (const QString why = unwritableDestinationProblem(runsDir, DestinationUse::Filled);
        !why.isEmpty()) {
        savingFolders_.clear();
        dataPage_->messageArea()->showError(why);
        return false;
    }
    savingCreatedRunsDir_ = QFileInfo::exists(runsDir) ? QString() : runsDir;
    QDir().mkpath(runsDir);
    beginBusy(saveJob_,
              tr("Saving %1...")
                  .arg(counted(static_cast<long long>(pending.size()), tr("run"), tr("runs"))));
    saveJob_->start([pending = std::move(pending),
                     write = runWriter_](const ProgressCallback& progress) {
        SavedRuns out;
        for (std::size_t i = 0; i < pending.size(); ++i) {
            const auto& p = pending[i];
            if (ppsynth::report(progress, {"saving runs", 0, double(i), double(pending.size())}) ==
                Continue::Stop)
                break;
            auto s = write ? write(*p.result, *p.table, p.dir)
                           : study::writeRunOutput(*p.result, *p.table, p.dir);
            out.folders.emplace_back(
                p.id, s ? Expected<std::string>(p.dir) : Expected<std::string>(Error{s.message()}));
        }
        return out;
    });
    return true;
}

void MainWindow::setRunWriter(RunWriter writer) {
    runWriter_ = std::move(writer);
}

void MainWindow::onSaveFinished(JobOutcome outcome) {
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
        dataPage_->messageArea()->showError(
            tr("Saving the project failed: %1").arg(saveJob_->failureText()));
    else
        dataPage_->messageArea()->showInfo(
            tr("Saving was cancelled; the project file was not written."));
}

void MainWindow::removeFoldersOfThisSave() {
    for (const QString& dir : std::exchange(savingFolders_, {})) QDir(dir).removeRecursively();
    // Only when empty: QDir::rmdir leaves a folder that holds anything.
    if (const QString runs = std::exchange(savingCreatedRunsDir_, {}); !runs.isEmpty())
        QDir().rmdir(runs);
}

bool MainWindow::writeProjectFile(const QString& path) {
    const Project project = gatherProject();
    const auto status = ppsynth::ui::saveProject(project, path);
    if (!status) {
        dataPage_->messageArea()->showError(QString::fromStdString(status.message()));
        return false;
    }
    markSettingsSaved();
    projectPath_ = path;
    addRecentFile(path);
    setWindowTitle(tr("%1 - ppsynth").arg(QFileInfo(path).fileName()));
    statusBar()->showMessage(tr("Saved %1").arg(QFileInfo(path).fileName()), 4000);
    // A project file holds a configuration core accepts: synthesizers that are not complete
    // yet are not in it, and the person is told which and why.
    if (!project.hasSynthesizers && synthesizersPage_->rowCount() > 0) {
        study::RunConfig probe;
        const auto incomplete = synthesizersPage_->apply(probe);
        dataPage_->messageArea()->showError(
            tr("Saved %1 without its synthesizers: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(incomplete.message())));
    }
    return true;
}

void MainWindow::openProject(const QString& path) {
    auto project = loadProject(path);
    if (!project) {
        dataPage_->messageArea()->showError(QString::fromStdString(project.message()));
        return;
    }
    if (saveJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the project to be saved."));
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
void MainWindow::startOpeningProject(Project project, const QString& path) {
    if (!readFile(project.dataPath, readOptionsOf(project))) return;
    pendingProjectPath_ = QFileInfo(path).absoluteFilePath();
    pendingProject_ = std::move(project);
}

void MainWindow::applyProject(const Project& project) {
    baseConfig_ = project.config;
    projectNote_ = project.note;
    const QStringList missing = applyRoles(project.config.data);
    modelPage_->load(project.config);
    if (project.hasSynthesizers) synthesizersPage_->load(project.config);
    // The run list becomes this project's: a run still going belongs to the previous one
    // (the person was asked before opening).
    runPanel_->cancelRun();
    runPanel_->runList()->clear();
    for (const auto& r : project.runs) {
        RunRecord record;
        record.label = r.label;
        record.folder = r.folder;
        record.savedSummary = r.summary;
        record.finishedAt = QFileInfo(r.folder).lastModified();
        record.dataPath = project.dataPath;  // the runs were made on the project's data
        runPanel_->runList()->add(std::move(record));
    }
    startLoadingRuns(project);
    markSettingsSaved();
    addRecentFile(projectPath_);
    setWindowTitle(tr("%1 - ppsynth").arg(QFileInfo(projectPath_).fileName()));
    if (!missing.isEmpty())
        dataPage_->messageArea()->showError(
            tr("The project names columns the data file no longer has: %1")
                .arg(missing.join(QStringLiteral(", "))));
    // Asked once the read job that applied the project has ended (a modal question inside
    // its result handler would hold the job open).
    QMetaObject::invokeMethod(
        this, [this, project] { offerToRemoveLeftovers(project); }, Qt::QueuedConnection);
}

// Unfinished run folders a killed save left beside the project's runs are named and, when
// the person agrees, removed; an earlier run folder that is the only copy is only named.
void MainWindow::offerToRemoveLeftovers(const Project& project) {
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
        dataPage_->messageArea()->showInfo(
            tr("Found beside the project's runs: %1").arg(onlyCopies.join(QStringLiteral("; "))));
    if (removable.empty() || !questions_.removeLeftovers || !questions_.removeLeftovers(what))
        return;
    QStringList failed;
    for (const auto& l : removable)
        if (const Status s = removeLeftover(l); !s) failed << fromLocalPath(s.message());
    if (!failed.isEmpty()) {
        dataPage_->messageArea()->showError(failed.join(QStringLiteral("; ")));
        return;
    }
    statusBar()->showMessage(
        tr("Removed %1 left behind by a stopped ppsynth")
            .arg(counted(static_cast<long long>(removable.size()), tr("item"), tr("items"))),
        6000);
}

// Sets the shown table's roles to `data`'s (columns it does not name are ignored); returns
// the columns the table does not have.
QStringList MainWindow::applyRoles(const study::RunConfig::Data& roles) {
    auto* panel = dataPage_->columnPanel();
    const auto table = dataPage_->model()->table();
    QStringList missing;
    if (!table) return missing;
    auto role = [&roles](const std::string& column) {
        auto has = [&column](const std::vector<std::string>& v) {
            return std::find(v.begin(), v.end(), column) != v.end();
        };
        if (column == roles.target) return data::Role::Target;
        if (has(roles.known)) return data::Role::Known;
        return has(roles.predictors) ? data::Role::Predictor : data::Role::Ignored;
    };
    for (std::size_t i = 0; i < table->columnCount(); ++i) {
        auto* combo = panel->roleCombo(int(i));
        combo->setCurrentIndex(combo->findData(int(role(table->column(i).name()))));
    }
    std::vector<std::string> named = roles.predictors;
    if (!roles.target.empty()) named.push_back(roles.target);
    for (const auto& column : named)
        if (!table->indexOf(column)) missing << QString::fromStdString(column);
    panel->setReferenceLevels(roles.referenceLevels);
    return missing;
}

bool MainWindow::showsDataFile(const std::string& path) const {
    const QString shown = QFileInfo(dataPage_->source()).canonicalFilePath();
    return !shown.isEmpty() && shown == QFileInfo(fromLocalPath(path)).canonicalFilePath();
}

// `expected` when the file is there (or unknown: the loader then says what is wrong), else
// the file the person locates instead; nullopt when they do not, said in the message area.
// The loader still checks the located file against the run's checksum.
std::optional<QString> MainWindow::findDataFile(const QString& expected, const QString& whose) {
    if (expected.isEmpty() || QFileInfo(expected).isFile()) return expected;
    const QString located =
        questions_.locateDataFile ? questions_.locateDataFile(expected) : QString();
    if (!located.isEmpty()) return located;
    dataPage_->messageArea()->showError(
        tr("The data file of %1 is no longer at %2. Try again and locate the file when asked, "
           "or open the project from its new place.")
            .arg(whose, QDir::toNativeSeparators(expected)));
    return std::nullopt;
}

// Where the run's data file is now; a located one is remembered for the run's next export
// or report.
std::optional<QString> MainWindow::runDataFile(const RunRecord& run) {
    const QString expected = !run.dataPath.isEmpty() ? run.dataPath
                             : run.result            ? fromLocalPath(run.result->config.data.path)
                                                     : QString();
    auto found = findDataFile(expected, run.label);
    if (found && *found != expected) runPanel_->runList()->setDataPath(run.id, *found);
    return found;
}

// The saved runs' results come back from their folders in the background (core checks the
// data file is still the one they were run on), with "Loading saved run 2 of 5..." and the
// files read so far in the status bar and its Cancel stopping even within a run. Run ids
// restart at 1 for every project, so a load still going for the previous project is
// cancelled and its results, should they arrive anyway, are dropped by generation.
void MainWindow::startLoadingRuns(const Project& project) {
    const int generation = ++runsGeneration_;
    queuedRunsLoad_ = nullptr;
    loadRunsJob_->cancel();
    std::vector<std::pair<int, std::string>> folders;
    for (const auto& r : runPanel_->runList()->records())
        folders.emplace_back(r.id, QFile::encodeName(r.folder).toStdString());
    if (folders.empty()) return;
    // The texts are made here, on the GUI thread; the worker reports one per run as its stage.
    std::vector<std::string> stages;
    for (std::size_t i = 0; i < folders.size(); ++i)
        stages.push_back(
            tr("Loading saved run %1 of %2...").arg(i + 1).arg(folders.size()).toStdString());
    const QString first = QString::fromStdString(stages.front());
    JobRunner<LoadedRuns>::Work work = [folders, generation, data = localPath(project.dataPath),
                                        stages](const ProgressCallback& progress) {
        LoadedRuns out;
        out.generation = generation;
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
    if (loadRunsJob_->isRunning()) {  // starts when the cancelled one has stopped
        queuedRunsLoad_ = std::move(work);
        queuedRunsText_ = first;
        return;
    }
    loadingGeneration_ = generation;
    loadRunsJob_->start(std::move(work));
    beginBusy(loadRunsJob_, first);
}

void MainWindow::onRunsLoaded(LoadedRuns loaded) {
    if (loaded.generation != runsGeneration_) return;  // another project's runs
    QStringList errors;
    const auto table = dataPage_->model()->table();
    for (auto& [id, run] : loaded.runs) {
        if (run)
            runPanel_->runList()->setResult(
                id, std::make_shared<const study::RunResult>(std::move(*run)), table);
        else
            errors << QString::fromStdString(run.message());
    }
    updateRunActions();
    if (!errors.isEmpty())
        dataPage_->messageArea()->showError(
            tr("Some saved runs could not be reopened: %1").arg(errors.join(QStringLiteral("; "))));
}

void MainWindow::onRunsLoadFinished(JobOutcome outcome) {
    endBusy(loadRunsJob_);
    if (queuedRunsLoad_) {
        loadingGeneration_ = runsGeneration_;
        loadRunsJob_->start(std::exchange(queuedRunsLoad_, nullptr));
        beginBusy(loadRunsJob_, queuedRunsText_);
        return;
    }
    if (loadingGeneration_ != runsGeneration_) return;  // superseded: nothing to say
    if (outcome == JobOutcome::Failed)
        dataPage_->messageArea()->showError(
            tr("The project's saved runs could not be reopened: %1. They stay in the run list "
               "without results; open their folders from the Run menu to try again.")
                .arg(loadRunsJob_->failureText()));
    else if (outcome == JobOutcome::Canceled)
        dataPage_->messageArea()->showInfo(
            tr("Reopening the saved runs was cancelled; they stay in the run list without "
               "results."));
}

void MainWindow::showRunResults(int id) {
    const RunRecord* r = runPanel_->runList()->find(id);
    runPanel_->runList()->select({id});
    if (!r || !r->result) {  // saved in an earlier session and not loaded
        tabs_->setCurrentWidget(runPanel_);
        return;
    }
    resultsPage_->showRun(r->result, r->label);
    tabs_->setCurrentWidget(resultsPage_);
}

void MainWindow::compareRuns(int left, int right) {
    const RunRecord* a = runPanel_->runList()->find(left);
    const RunRecord* b = runPanel_->runList()->find(right);
    runPanel_->runList()->select({left, right});
    if (!a || !b || !a->result || !b->result) {
        tabs_->setCurrentWidget(runPanel_);
        return;
    }
    compareView_->compare(a->label, a->result, b->label, b->result);
    tabs_->setCurrentWidget(compareView_);
}

void MainWindow::buildRunMenu() {
    auto* run = menuBar()->addMenu(tr("&Run"));
    openRunAction_ = run->addAction(tr("&Open Run Folder..."), this, &MainWindow::chooseRunFolder);
    openStudyAction_ =
        run->addAction(tr("Open &Study Folder..."), this, &MainWindow::chooseStudyFolder);
    openStudyAction_->setToolTip(
        tr("The output folder of ppsynth-cli simulate or sweep: contraction violins or the "
           "risk-utility curve"));
    openRunAction_->setStatusTip(tr("Reopen a finished run from its folder"));
    run->addSeparator();
    exportAction_ =
        run->addAction(tr("&Export Release Bundle..."), this, [this] { exportRelease(); });
    reportAction_ = run->addAction(tr("Write &Disclosure-Review Report..."), this,
                                   &MainWindow::chooseReportFile);
    // Disabled actions show their tooltip only inside menus that ask for it.
    run->setToolTipsVisible(true);
    // The opened run arrives on the GUI thread; it joins the run list like any other run.
    openRunJob_->onResult([this](Expected<study::LoadedRun> loaded) {
        const QString name = QFileInfo(openingRunDir_).fileName();
        if (!loaded) {
            dataPage_->messageArea()->showError(
                tr("The run folder %1 could not be opened: %2")
                    .arg(name, QString::fromStdString(loaded.message())));
            return;
        }
        RunRecord record;
        record.label = tr("Run %1 (opened from %2)").arg(runPanel_->runList()->nextId()).arg(name);
        record.folder = QFileInfo(openingRunDir_).absoluteFilePath();
        record.finishedAt =
            QFileInfo(QDir(openingRunDir_).filePath(QStringLiteral("run.json"))).lastModified();
        record.result = std::make_shared<const study::RunResult>(std::move(loaded->run));
        record.table = std::make_shared<const data::Table>(std::move(loaded->table));
        record.dataPath = fromLocalPath(loaded->dataPath);
        const int id = runPanel_->runList()->add(std::move(record)).id;
        showRunResults(id);
        updateRunActions();
        statusBar()->showMessage(tr("Opened the run in %1").arg(name), 4000);
    });
    connect(openRunJob_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            dataPage_->messageArea()->showError(
                tr("Opening the run folder failed: %1").arg(openRunJob_->failureText()));
        updateRunActions();
    });
    reportJob_->onResult([this](Expected<report::WrittenReport> written) {
        if (!written) {
            dataPage_->messageArea()->showError(
                tr("The report was not written: %1")
                    .arg(QString::fromStdString(written.message())));
            return;
        }
        QString text = tr("The disclosure-review report was written to %1 (%2")
                           .arg(written->path, counted(static_cast<long long>(written->figures),
                                                       tr("chart"), tr("charts")));
        if (written->pages > 0)
            text += QStringLiteral(", ") + counted(written->pages, tr("page"), tr("pages"));
        dataPage_->messageArea()->showInfo(text +
                                           tr("). It is confidential: keep it inside the agency."));
    });
    connect(reportJob_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            dataPage_->messageArea()->showError(
                tr("Writing the report failed: %1").arg(reportJob_->failureText()));
        else if (outcome == JobOutcome::Canceled)
            dataPage_->messageArea()->showInfo(
                tr("Writing the report was cancelled; no report file was written."));
        updateRunActions();
    });
    studyJob_->onResult([this](Expected<study::StudyFolder> folder) {
        if (!folder) {
            shownSweep_.reset();
            dataPage_->messageArea()->showError(tr("The study folder could not be opened: %1")
                                                    .arg(QString::fromStdString(folder.message())));
            return;
        }
        if (folder->simulation) studiesPage_->showSimulation(std::move(*folder->simulation));
        if (folder->sweep) {
            shownSweep_ = folder->sweep->config;
            studiesPage_->showSweep(std::move(*folder->sweep));
        }
        tabs_->setCurrentWidget(studiesPage_);
        statusBar()->showMessage(tr("Opened the study in %1").arg(openingStudyDir_), 4000);
    });
    connect(studyJob_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            dataPage_->messageArea()->showError(
                tr("Opening the study folder failed: %1").arg(studyJob_->failureText()));
        else if (outcome == JobOutcome::Canceled)
            dataPage_->messageArea()->showInfo(
                tr("Opening the study was cancelled; the items it finished are saved."));
        updateRunActions();
    });
    connect(studiesPage_, &results::StudiesPage::sweepPointChosen, this,
            &MainWindow::openSweepPoint);
    updateRunActions();
}

const RunRecord* MainWindow::currentRun() const {
    const auto ids = runPanel_->runList()->selectedIds();
    return ids.empty() ? nullptr : runPanel_->runList()->find(ids.front());
}

void MainWindow::updateRunActions() {
    if (!exportAction_) return;
    const bool busy = openRunJob_->isRunning() || reportJob_->isRunning() || studyJob_->isRunning();
    openStudyAction_->setEnabled(!busy);
    openRunAction_->setEnabled(!busy);
    const RunRecord* r = currentRun();
    QString why;
    if (!r)
        why = tr("Select a finished run in the run list (Run tab) or open a run folder first.");
    else if (!r->result)
        why = tr("This run's folder has not been read yet.");
    else if (r->folder.isEmpty())
        why = tr("Save the project first: the export and the report read the run's folder.");
    else if (busy)
        why = tr("Wait for the current job to finish.");
    for (QAction* a : {exportAction_, reportAction_}) {
        a->setEnabled(why.isEmpty());
        a->setToolTip(
            why.isEmpty()
                ? tr("%1 of %2")
                      .arg(a->text().remove(QLatin1Char('&')).remove(QStringLiteral("...")),
                           r->label)
                : why);
    }
}

void MainWindow::chooseRunFolder() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open run folder"), QSettings().value(kLastDirKey).toString());
    if (dir.isEmpty()) return;
    QSettings().setValue(kLastDirKey, QFileInfo(dir).absolutePath());
    openRunFolder(dir);
}

bool MainWindow::openRunFolder(const QString& dir) {
    if (openRunJob_->isRunning() || reportJob_->isRunning() || studyJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    // A moved data file: the one the Data page shows when it has the file's name (a moved
    // project's), else the person locates it.
    QString expected = recordedDataPath(dir);
    if (!expected.isEmpty() && !QFileInfo(expected).isFile() &&
        QFileInfo(dataPage_->source()).fileName() == QFileInfo(expected).fileName())
        expected = dataPage_->source();
    const auto dataFile =
        findDataFile(expected, tr("the run in %1").arg(QFileInfo(dir).fileName()));
    if (!dataFile) return false;
    openingRunDir_ = dir;
    beginBusy(openRunJob_, tr("Opening %1...").arg(QFileInfo(dir).fileName()));
    // The same loader the project's reopened runs and the CLI use; it checks the data file.
    openRunJob_->start([folder = localPath(dir),
                        dataFile = localPath(*dataFile)](const ProgressCallback& progress) {
        study::LoadOptions options;
        options.dataPath = dataFile;
        options.progress = progress;
        return study::loadRunFolder(folder, options);
    });
    updateRunActions();
    return true;
}

bool MainWindow::exportRelease() {
    const RunRecord* r = currentRun();
    if (!r || !r->result || r->folder.isEmpty()) return false;
    const auto dataFile = runDataFile(*r);
    if (!dataFile) return false;
    ExportDialog dialog(r->folder, *r->result, this);
    dialog.setDataPath(*dataFile);
    dialog.setWindowTitle(tr("Export release bundle - %1").arg(r->label));
    dialog.exec();
    return true;
}

void MainWindow::chooseReportFile() {
    const RunRecord* r = currentRun();
    if (!r || r->folder.isEmpty()) return;
    const QString path = chooseSavePath(
        tr("Write disclosure-review report"),
        QDir(QSettings().value(kLastDirKey).toString()).filePath(QStringLiteral("report.html")),
        tr("HTML report (*.html);;PDF report (*.pdf)"),
        {QStringLiteral("html"), QStringLiteral("pdf"), QStringLiteral("htm")});
    if (!path.isEmpty()) writeReport(path);
}

bool MainWindow::writeReport(const QString& path) {
    const RunRecord* r = currentRun();
    if (!r || r->folder.isEmpty()) {
        dataPage_->messageArea()->showError(
            tr("Select a saved run (or open a run folder) before writing a report."));
        return false;
    }
    if (openRunJob_->isRunning() || reportJob_->isRunning() || studyJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    if (const QString why =
            confidentialDestinationProblem(path, tr("the disclosure-review report"));
        !why.isEmpty()) {
        dataPage_->messageArea()->showError(why);
        return false;
    }
    if (const QString why = unwritableDestinationProblem(path); !why.isEmpty()) {
        dataPage_->messageArea()->showError(why);
        return false;
    }
    const auto dataFile = runDataFile(*r);
    if (!dataFile) return false;
    beginBusy(reportJob_, tr("Writing %1...").arg(QFileInfo(path).fileName()));
    // The job reads the run's folder again rather than the record's in-memory result, so the
    // report describes exactly what is on disk; the data file is where the run's record says
    // it is now. Replacing an existing file, whichever program made it, was asked when it was
    // chosen (chooseSavePath).
    report::ReportOptions options;
    options.overwrite = true;
    options.replaceAnyFile = true;
    options.dataPath = *dataFile;
    reportJob_->start(r->folder, path, std::move(options));
    updateRunActions();
    return true;
}

void MainWindow::chooseStudyFolder() {
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open study folder"), QSettings().value(kLastDirKey).toString());
    if (dir.isEmpty()) return;
    QSettings().setValue(kLastDirKey, QFileInfo(dir).absolutePath());
    openStudyFolder(dir);
}

bool MainWindow::openStudyFolder(const QString& dir) {
    if (openRunJob_->isRunning() || reportJob_->isRunning() || studyJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    openingStudyDir_ = QFileInfo(dir).fileName();
    beginBusy(studyJob_, tr("Opening %1...").arg(openingStudyDir_));
    // A finished folder is only read back; an unfinished one resumes (cancellable).
    studyJob_->start([folder = localPath(dir)](const ProgressCallback& progress) {
        study::StudyOptions options;
        options.progress = progress;
        return study::openStudyFolder(folder, options);
    });
    updateRunActions();
    return true;
}

void MainWindow::openSweepPoint(const study::SweepRow& row) {
    if (!shownSweep_ || row.point < 1) return;
    // The same synthesizers the sweep ran at this point, plus the unweighted reference.
    study::RunConfig config = study::sweepPointRunConfig(*shownSweep_, row.knobs);
    study::SynthesizerConfig unweighted;
    unweighted.name = "Unweighted";
    config.synthesizers.insert(config.synthesizers.begin(), unweighted);
    baseConfig_ = config;
    modelPage_->load(config);
    synthesizersPage_->load(config);
    tabs_->setCurrentWidget(synthesizersPage_);
    const QString point =
        tr("sweep point %1 (c = %2, g = %3)").arg(row.point).arg(row.knobs.c).arg(row.knobs.g);
    // Other data would give another epsilon than the curve's; its roles would not fit.
    if (!showsDataFile(config.data.path)) {
        dataPage_->messageArea()->showError(
            tr("Loaded %1, but it was run on %2, which the Data page does not show: open that "
               "file, then choose the point again, or the run will not reproduce the curve.")
                .arg(point, QDir::toNativeSeparators(fromLocalPath(config.data.path))));
        return;
    }
    if (const QStringList missing = applyRoles(config.data); !missing.isEmpty()) {
        dataPage_->messageArea()->showError(
            tr("The data file no longer has the sweep's columns %1.")
                .arg(missing.join(QStringLiteral(", "))));
        return;
    }
    dataPage_->messageArea()->hide();
    statusBar()->showMessage(tr("Loaded %1: run it from the Run tab").arg(point), 6000);
}

}  // namespace ppsynth::ui
