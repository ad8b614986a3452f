#include "ui/main_window.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
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

#include "ui/csv_options_dialog.hpp"
#include "ui/data_page.hpp"
#include "ui/message_area.hpp"

namespace ppsynth::ui {

namespace {
const QString kRecentKey = QStringLiteral("recentFiles");

std::string localPath(const QString& path) {
    return QFile::encodeName(path).toStdString();
}
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      tabs_(new QTabWidget(this)),
      dataPage_(new DataPage(this)),
      busyLabel_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      readJob_(new JobRunner<ReadOutcome>(this)) {
    setWindowTitle(tr("ppsynth"));
    setAcceptDrops(true);
    tabs_->setDocumentMode(true);
    tabs_->addTab(dataPage_, tr("Data"));
    setCentralWidget(tabs_);
    buildMenus();

    progress_->setRange(0, 1000);
    progress_->setMaximumWidth(240);
    progress_->setTextVisible(false);
    statusBar()->addPermanentWidget(busyLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    setBusy(false);
    connect(cancel_, &QPushButton::clicked, readJob_, &JobRunnerBase::cancel);
    connect(readJob_, &JobRunnerBase::progressChanged, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
    readJob_->onResult([this](ReadOutcome r) { onReadDone(std::move(r)); });
    connect(readJob_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        setBusy(false);
        if (outcome == JobOutcome::Canceled)
            dataPage_->messageArea()->showInfo(
                tr("Reading %1 was cancelled.").arg(QFileInfo(readingPath_).fileName()));
        else if (outcome == JobOutcome::Failed)
            dataPage_->messageArea()->showError(
                tr("Reading %1 failed: %2")
                    .arg(QFileInfo(readingPath_).fileName(), readJob_->failureText()));
    });
    resize(1280, 800);
}

// The read job is a child QObject: its destructor cancels and waits before the window
// goes, so the worker never outlives the window.
MainWindow::~MainWindow() = default;

void MainWindow::buildMenus() {
    auto* file = menuBar()->addMenu(tr("&File"));
    openAction_ = file->addAction(tr("&Open..."), this, &MainWindow::chooseFile);
    openAction_->setShortcut(QKeySequence::Open);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    auto* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    updateRecentMenu();
}

void MainWindow::chooseFile() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open data"), {},
        tr("Data files (*.csv *.tsv *.txt *.sav *.zsav *.dta *.sas7bdat *.xpt);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::openFile(const QString& path) {
    data::ReadOptions options;
    if (data::formatFromPath(localPath(path)) == data::FileFormat::Csv &&
        QFileInfo(path).isFile()) {
        CsvOptionsDialog dialog(path, options.csv, this);
        if (dialog.exec() != QDialog::Accepted) return;
        options.csv = dialog.options();
    }
    readFile(path, options);
}

bool MainWindow::readFile(const QString& path, const data::ReadOptions& options) {
    if (readJob_->isRunning()) {
        dataPage_->messageArea()->showInfo(
            tr("Still reading %1; cancel it first.").arg(QFileInfo(readingPath_).fileName()));
        return false;
    }
    readingPath_ = path;
    setBusy(true, tr("Reading %1...").arg(QFileInfo(path).fileName()));
    // The work owns copies of what it reads; table and notes come back by value.
    readJob_->start([file = localPath(path), options](const ProgressCallback& progress) {
        auto o = options;
        o.progress = progress;
        data::ReadReport report;
        auto table = data::readTable(file, o, &report);
        return ReadOutcome{std::move(table), std::move(report)};
    });
    return true;
}

void MainWindow::onReadDone(ReadOutcome result) {
    if (!result.table) {
        dataPage_->messageArea()->showError(QString::fromStdString(result.table.message()));
        return;
    }
    setTable(std::move(*result.table), readingPath_);
    addRecentFile(readingPath_);
    QStringList notes;
    for (const auto& n : result.report.notes) notes << QString::fromStdString(n);
    if (!notes.isEmpty()) dataPage_->messageArea()->showInfo(notes.join(QLatin1Char('\n')));
}

void MainWindow::setTable(data::Table table, const QString& source) {
    dataPage_->setTable(std::make_shared<data::Table>(std::move(table)), source);
    dataPage_->messageArea()->hide();
    setWindowTitle(
        tr("%1 - ppsynth")
            .arg(QFileInfo(source).fileName().isEmpty() ? source : QFileInfo(source).fileName()));
}

void MainWindow::setBusy(bool busy, const QString& what) {
    busyLabel_->setText(what);
    busyLabel_->setVisible(busy);
    progress_->setVisible(busy);
    progress_->setValue(0);
    cancel_->setVisible(busy);
    if (openAction_) openAction_->setEnabled(!busy);
    if (recentMenu_) recentMenu_->setEnabled(!busy);
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
    readJob_->cancel();
    QMainWindow::closeEvent(event);
}

}  // namespace ppsynth::ui
