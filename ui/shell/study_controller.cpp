#include "ui/shell/study_controller.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QTabWidget>
#include <QTimer>

#include "ui/data_page.hpp"
#include "ui/local_path.hpp"
#include "ui/message_area.hpp"
#include "ui/results/studies_page.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/shell/cluster_controller.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/page_settings.hpp"
#include "ui/shell/window_questions.hpp"

namespace ppsynth::ui {

StudyController::StudyController(const ShellPages& pages, JobBoard* jobs, PageSettings* settings,
                                 QWidget* window)
    : QObject(window),
      pages_(pages),
      jobs_(jobs),
      settings_(settings),
      window_(window),
      studyJob_(jobs->add<Expected<study::StudyFolder>>({.folderJob = true})),
      cluster_(new ClusterController(pages.studies->clusterView(), jobs, window)) {
    jobs_->onResult(studyJob_, [this](Expected<study::StudyFolder> folder) {
        if (!folder) {
            shownSweep_.reset();
            pages_.data->messageArea()->showError(
                tr("The study folder could not be opened: %1")
                    .arg(QString::fromStdString(folder.message())));
            return;
        }
        if (folder->simulation) pages_.studies->showSimulation(std::move(*folder->simulation));
        if (folder->sweep) {
            shownSweep_ = folder->sweep->config;
            pages_.studies->showSweep(std::move(*folder->sweep));
        }
        pages_.tabs->setCurrentWidget(pages_.studies);
        emit statusMessage(tr("Opened the study in %1").arg(openingStudyDir_), 4000);
    });
    jobs_->onFinished(studyJob_, [this](JobOutcome outcome) {
        if (outcome == JobOutcome::Failed)
            pages_.data->messageArea()->showError(
                tr("Opening the study folder failed: %1").arg(studyJob_->failureText()));
        else if (outcome == JobOutcome::Canceled)
            pages_.data->messageArea()->showInfo(
                tr("Opening the study was cancelled; the items it finished are saved."));
        emit actionsChanged();
    });
    connect(pages_.studies, &results::StudiesPage::sweepPointChosen, this,
            &StudyController::openSweepPoint);
    connect(pages_.studies, &results::StudiesPage::openFolderRequested, this,
            &StudyController::chooseStudyFolder);
    connect(pages_.studies, &results::StudiesPage::clusterRunRequested, cluster_,
            &ClusterController::showDialog);
    connect(cluster_, &ClusterController::watching, this, [this] {
        pages_.studies->showClusterProgress();
        pages_.tabs->setCurrentWidget(pages_.studies);
    });
    // Every item is there: the curve or summaries, from the same files as a local run.
    connect(cluster_, &ClusterController::everyItemDone, this, [this](const QString& dir) {
        if (!readStudyFolder(dir))  // another folder job runs: try on its end
            QTimer::singleShot(2000, this, [this, dir] { openStudyFolder(dir); });
    });
    connect(cluster_, &ClusterController::statusMessage, this, &StudyController::statusMessage);
}

void StudyController::chooseStudyFolder() {
    const QString dir =
        QFileDialog::getExistingDirectory(window_, tr("Open study folder"), lastDirectory());
    if (dir.isEmpty()) return;
    rememberDirectory(QFileInfo(dir).absolutePath());
    openStudyFolder(dir);
}

bool StudyController::openStudyFolder(const QString& dir) {
    if (QFileInfo(QDir(dir).filePath(QStringLiteral("plan.json"))).isFile()) {
        cluster_->watch(dir);
        return true;
    }
    cluster_->stopWatching();
    return readStudyFolder(dir);
}

bool StudyController::readStudyFolder(const QString& dir) {
    if (jobs_->folderJobRunning()) {
        pages_.data->messageArea()->showInfo(tr("Wait for the current job to finish."));
        return false;
    }
    openingStudyDir_ = QFileInfo(dir).fileName();
    // A finished folder is only read back; an unfinished one resumes (cancellable).
    jobs_->start(
        studyJob_,
        [folder = localPath(dir)](const ProgressCallback& progress) {
            study::StudyOptions options;
            options.progress = progress;
            return study::openStudyFolder(folder, options);
        },
        tr("Opening %1...").arg(openingStudyDir_));
    emit actionsChanged();
    return true;
}

void StudyController::openSweepPoint(const study::SweepRow& row) {
    if (!shownSweep_ || row.point < 1) return;
    // The same synthesizers the sweep ran at this point, plus the unweighted reference.
    study::RunConfig config = study::sweepPointRunConfig(*shownSweep_, row.knobs);
    study::SynthesizerConfig unweighted;
    unweighted.name = "Unweighted";
    config.synthesizers.insert(config.synthesizers.begin(), unweighted);
    settings_->baseConfig() = config;
    pages_.model->load(config);
    pages_.synthesizers->load(config);
    pages_.tabs->setCurrentWidget(pages_.synthesizers);
    const QString point =
        tr("sweep point %1 (c = %2, g = %3)").arg(row.point).arg(row.knobs.c).arg(row.knobs.g);
    // Other data would give another epsilon than the curve's; its roles would not fit.
    if (!settings_->showsDataFile(config.data.path)) {
        pages_.data->messageArea()->showError(
            tr("Loaded %1, but it was run on %2, which the Data page does not show: open that "
               "file, then choose the point again, or the run will not reproduce the curve.")
                .arg(point, QDir::toNativeSeparators(fromLocalPath(config.data.path))));
        return;
    }
    if (const QStringList missing = settings_->applyRoles(config.data); !missing.isEmpty()) {
        pages_.data->messageArea()->showError(
            tr("The data file no longer has the sweep's columns %1.")
                .arg(missing.join(QStringLiteral(", "))));
        return;
    }
    pages_.data->messageArea()->hide();
    emit statusMessage(tr("Loaded %1: run it from the Run tab").arg(point), 6000);
}

}  // namespace ppsynth::ui

#include "moc_study_controller.cpp"
