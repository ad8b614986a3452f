#include "ui/main_window.hpp"

#include <QAction>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <cmath>
#include <set>

#include "ppsynth/data/roles.hpp"
#include "ui/column_panel.hpp"
#include "ui/data_page.hpp"
#include "ui/results/compare_view.hpp"
#include "ui/results/results_page.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_panel.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/project_controller.hpp"
#include "ui/shell/report_controller.hpp"
#include "ui/shell/run_library.hpp"
#include "ui/shell/study_controller.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

namespace {
const QString kGeometryKey = QStringLiteral("window/geometry");

// A count column, or a numeric one whose present values are all non-negative integers.
bool holdsCounts(const data::Column& c) {
    if (c.type() == data::ColumnType::Count) return true;
    if (c.type() != data::ColumnType::Numeric) return false;
    bool any = false;
    for (std::size_t i = 0; i < c.values().size(); ++i) {
        if (c.isMissing(i)) continue;
        const double v = c.value(i);
        if (!(v >= 0) || v != std::floor(v)) return false;
        any = true;
    }
    return any;
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
      questions_(defaultQuestions(this)),
      settings_(std::make_unique<PageSettings>(
          ShellPages{tabs_, dataPage_, modelPage_, synthesizersPage_, runPanel_, studiesPage_})),
      jobs_(new JobBoard(this)),
      busyLabel_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this)) {
    const ShellPages pages{tabs_,     dataPage_,   modelPage_, synthesizersPage_,
                           runPanel_, studiesPage_};
    runs_ = new RunLibrary(pages, jobs_, &questions_, this);
    project_ = new ProjectController(pages, jobs_, settings_.get(), runs_, &questions_, this);
    reports_ = new ReportController(pages, jobs_, runs_, &questions_, this);
    studies_ = new StudyController(pages, jobs_, settings_.get(), this);
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
    setCentralWidget(tabs_);
    connectPages();
    buildFileMenu();
    buildRunMenu();
    buildStatusBar();
    resize(1280, 800);
    QSettings settings;
    if (settings.contains(kGeometryKey))
        restoreGeometry(settings.value(kGeometryKey).toByteArray());
}

// The jobs go first: each runner cancels and waits, so no worker outlives what it captured.
MainWindow::~MainWindow() {
    delete jobs_;
}

void MainWindow::openFile(const QString& path) {
    project_->openFile(path);
}

void MainWindow::connectPages() {
    dataPage_->columnPanel()->setRolesValidator(data::validateRoles);
    // Several sensitive variables: one model and one box radius each, in synthesis order.
    connect(dataPage_->columnPanel(), &ColumnPanel::rolesChanged, this, [this] {
        const auto targets = dataPage_->columnPanel()->targets();
        // Sensitive columns of counts (non-negative integers): a later one starts with a
        // count model.
        std::set<std::string> counts;
        if (const auto table = dataPage_->model()->table())
            for (const auto& t : targets)
                if (const auto i = table->indexOf(t); i && holdsCounts(table->column(*i)))
                    counts.insert(t);
        modelPage_->setTargets(targets, counts);
        synthesizersPage_->setTargets(targets);
    });
    connect(dataPage_, &DataPage::applySuggestionsRequested, this, [this] {
        const auto& s = dataPage_->suggestions();
        study::RunConfig::Data roles;
        roles.target = s.target;
        roles.predictors = s.predictors;
        roles.referenceLevels = {};
        settings_->applyRoles(roles);
        if (!s.transform.empty())
            modelPage_->suggestTransform(s.transform, s.transformReason, true);
    });
    runPanel_->setSources([this] { return settings_->currentConfig(); },
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
    connect(runs_, &RunLibrary::runOpened, this, &MainWindow::showRunResults);
    connect(project_, &ProjectController::titleChanged, this, &QWidget::setWindowTitle);
    connect(project_, &ProjectController::recentFilesChanged, this, &MainWindow::updateRecentMenu);
    connect(project_, &ProjectController::statusMessage, this, &MainWindow::showStatus);
    connect(runs_, &RunLibrary::statusMessage, this, &MainWindow::showStatus);
    connect(studies_, &StudyController::statusMessage, this, &MainWindow::showStatus);
    connect(project_, &ProjectController::actionsChanged, this, &MainWindow::updateRunActions);
    connect(runs_, &RunLibrary::actionsChanged, this, &MainWindow::updateRunActions);
    connect(reports_, &ReportController::actionsChanged, this, &MainWindow::updateRunActions);
    connect(studies_, &StudyController::actionsChanged, this, &MainWindow::updateRunActions);
}

void MainWindow::buildFileMenu() {
    auto* file = menuBar()->addMenu(tr("&File"));
    openAction_ = file->addAction(tr("&Open..."), this, &MainWindow::chooseFile);
    openAction_->setShortcut(QKeySequence::Open);
    saveAction_ = file->addAction(tr("&Save Project"), project_, &ProjectController::save);
    saveAction_->setObjectName(QStringLiteral("saveProject"));
    saveAction_->setShortcut(QKeySequence::Save);
    file->addAction(tr("Save Project &As..."), project_, &ProjectController::saveAs)
        ->setObjectName(QStringLiteral("saveProjectAs"));
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();
}

void MainWindow::buildRunMenu() {
    auto* run = menuBar()->addMenu(tr("&Run"));
    openRunAction_ = run->addAction(tr("&Open Run Folder..."), runs_, &RunLibrary::chooseRunFolder);
    openStudyAction_ =
        run->addAction(tr("Open &Study Folder..."), studies_, &StudyController::chooseStudyFolder);
    openStudyAction_->setToolTip(
        tr("The output folder of ppsynth-cli simulate or sweep: contraction violins or the "
           "risk-utility curve"));
    openRunAction_->setStatusTip(tr("Reopen a finished run from its folder"));
    run->addSeparator();
    exportAction_ = run->addAction(tr("&Export Release Bundle..."), reports_,
                                   [this] { reports_->exportRelease(); });
    reportAction_ = run->addAction(tr("Write &Disclosure-Review Report..."), reports_,
                                   &ReportController::chooseReportFile);
    // Disabled actions show their tooltip only inside menus that ask for it.
    run->setToolTipsVisible(true);
    updateRunActions();
}

void MainWindow::buildStatusBar() {
    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setTextVisible(false);
    busyLabel_->setObjectName(QStringLiteral("busyLabel"));
    statusBar()->addPermanentWidget(busyLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    showBusy();
    connect(cancel_, &QPushButton::clicked, jobs_, &JobBoard::cancelBusy);
    connect(jobs_, &JobBoard::busyChanged, this, &MainWindow::showBusy);
    connect(jobs_, &JobBoard::progressChanged, progress_, &QProgressBar::setValue);
}

void MainWindow::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data or project"), lastDirectory(),
        tr("Data files and projects (*.csv *.tsv *.txt *.sav *.zsav *.por *.dta *.sas7bdat *.xpt "
           "*.ppsynth);;ppsynth projects (*.ppsynth);;All files (*)"));
    if (path.isEmpty()) return;
    rememberDirectory(QFileInfo(path).absolutePath());
    openFile(path);
}

// Several jobs may run at once (a report while a project saves): the status bar shows the
// newest and stays until the last has ended.
void MainWindow::showBusy() {
    const bool busy = jobs_->isBusy();
    busyLabel_->setText(jobs_->busyText());
    busyLabel_->setVisible(busy);
    progress_->setVisible(busy);
    cancel_->setVisible(busy);
    const bool blocksFiles = jobs_->blocksFiles();
    if (openAction_) openAction_->setEnabled(!blocksFiles);
    if (saveAction_) saveAction_->setEnabled(!blocksFiles);
    if (recentMenu_) recentMenu_->setEnabled(!blocksFiles);
}

void MainWindow::showStatus(const QString& text, int timeoutMs) {
    statusBar()->showMessage(text, timeoutMs);
}

void MainWindow::updateRecentMenu() {
    recentMenu_->clear();
    const auto files = project_->recentFiles();
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
    if (!project_->mayClose([this] { close(); })) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    jobs_->cancelAll();
    runPanel_->cancelRun();
    QMainWindow::closeEvent(event);
}

void MainWindow::showRunResults(int id) {
    const RunRecord* r = runPanel_->runList()->find(id);
    runPanel_->runList()->select({id});
    if (!r || !r->result) {  // saved in an earlier session and not loaded
        tabs_->setCurrentWidget(runPanel_);
        return;
    }
    resultsPage_->showRun(r->result, r->label, r->table);
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

void MainWindow::updateRunActions() {
    if (!exportAction_) return;
    const bool busy = jobs_->folderJobRunning();
    openStudyAction_->setEnabled(!busy);
    openRunAction_->setEnabled(!busy);
    const RunRecord* r = runs_->currentRun();
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

}  // namespace ppsynth::ui

#include "moc_main_window.cpp"
