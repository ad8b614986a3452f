#include "ui/shell/cluster_controller.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QProcess>
#include <QStandardPaths>
#include <QTime>
#include <filesystem>

#include "ppsynth/study/study_folder.hpp"
#include "ui/bundle_guard.hpp"
#include "ui/destination_guard.hpp"
#include "ui/local_path.hpp"
#include "ui/results/cluster_dialog.hpp"
#include "ui/results/cluster_progress_view.hpp"
#include "ui/shell/job_board.hpp"
#include "ui/shell/sbatch_submitter.hpp"

namespace ppsynth::ui {

namespace {

QString defaultCliPath() {
    const QString beside = QCoreApplication::applicationDirPath() + QStringLiteral("/ppsynth-cli");
    if (QFileInfo(beside).isExecutable()) return beside;
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("ppsynth-cli"));
    return onPath.isEmpty() ? QStringLiteral("ppsynth-cli") : onPath;
}

// The folder as core names it in a plan (absolute, normalised), to match results to it.
std::string clusterFolderKey(const QString& dir) {
    std::error_code ec;
    return std::filesystem::absolute(localPath(dir), ec).lexically_normal().string();
}

}  // namespace

ClusterController::ClusterController(results::ClusterProgressView* view, JobBoard* jobs,
                                     QWidget* window)
    : QObject(window),
      view_(view),
      jobs_(jobs),
      window_(window),
      cli_(defaultCliPath()),
      planJob_(jobs->add<Expected<study::cluster::ClusterStatus>>({.blocksFiles = false})),
      statusJob_(jobs->add<Expected<study::cluster::ClusterStatus>>(
          {.blocksFiles = false, .quiet = true})),
      submitter_(new SbatchSubmitter(this)),
      fsWatcher_(new QFileSystemWatcher(this)) {
    timer_.setInterval(10000);
    connect(&timer_, &QTimer::timeout, this, &ClusterController::refresh);
    soon_.setSingleShot(true);
    soon_.setInterval(500);
    connect(&soon_, &QTimer::timeout, this, &ClusterController::refresh);
    connect(fsWatcher_, &QFileSystemWatcher::directoryChanged, &soon_, qOverload<>(&QTimer::start));
    connect(view_, &results::ClusterProgressView::refreshRequested, this,
            &ClusterController::refresh);

    jobs_->onResult(planJob_, [this](Expected<study::cluster::ClusterStatus> status) {
        if (!dialog_) return;
        if (!status) {
            dialog_->showMessage(tr("The study folder could not be planned: %1")
                                     .arg(QString::fromStdString(status.message())),
                                 true);
            return;
        }
        auto todo = study::cluster::itemsToSubmit(status->states);
        stuck_ = study::cluster::stuckTasks(status->states, todo);
        const auto& c = status->counts;
        const QString dir = QDir::toNativeSeparators(fromLocalPath(status->plan.dir));
        if (todo.empty())
            dialog_->showMessage(
                tr("Every item of %1 is done or queued (%2): nothing to submit. Its progress "
                   "is on the Studies page.")
                    .arg(dir, QString::fromStdString(study::cluster::countsText(c))),
                false);
        else
            dialog_->showMessage(
                tr("Planned %1: %2 items, %3 to submit (%4). Check the script, then %5.")
                    .arg(dir, QString::number(c.total), QString::number(todo.size()),
                         QString::fromStdString(study::cluster::countsText(c)),
                         dialog_->sbatchAvailable() ? tr("submit it")
                                                    : tr("write it and submit it from a login "
                                                         "node")),
                false);
        dialog_->showPlanned(status->plan, std::move(todo));
    });
    jobs_->onFinished(planJob_, [this](JobOutcome outcome) {
        if (!dialog_) return;
        dialog_->setBusy(false);
        if (outcome == JobOutcome::Failed)
            dialog_->showMessage(tr("Planning failed: %1").arg(planJob_->failureText()), true);
    });

    jobs_->onResult(statusJob_, [this](Expected<study::cluster::ClusterStatus> status) {
        if (watched_.isEmpty()) return;
        if (!status) {
            view_->showProblem(tr("%1 cannot be followed: %2")
                                   .arg(QDir::toNativeSeparators(watched_),
                                        QString::fromStdString(status.message())));
            stopWatching();
            return;
        }
        if (status->plan.dir != clusterFolderKey(watched_)) return;  // an earlier folder's
        view_->showStatus(*status, QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
        lastWatched_ = status->plan;
        watchPaths();
        if (status->counts.total > 0 && status->counts.done == status->counts.total) {
            const QString dir = watched_;
            stopWatching();
            emit everyItemDone(dir);
        }
    });

    connect(submitter_, &SbatchSubmitter::finished, this, [this](bool ok, const QString& message) {
        if (!dialog_) return;
        dialog_->setBusy(false);
        if (!ok) {
            dialog_->showMessage(message, true);
            return;
        }
        dialog_->showMessage(
            message + tr(" Their progress is on the Studies page (Cluster tab); the curve or "
                         "summaries appear there once every item is done."),
            false);
        if (const auto& plan = dialog_->plan()) {
            const QString dir = fromLocalPath(plan->dir);
            dialog_->showPlanned(*plan, {});  // submitted: not again by a second click
            watch(dir);
        }
        emit statusMessage(message, 8000);
    });
}

results::ClusterDialog* ClusterController::dialog() {
    if (!dialog_) {
        dialog_ = new results::ClusterDialog(window_);
        dialog_->setCliPath(cli_);
        connect(dialog_, &results::ClusterDialog::planRequested, this, &ClusterController::plan);
        connect(dialog_, &results::ClusterDialog::submitRequested, this,
                &ClusterController::submit);
    }
    return dialog_;
}

void ClusterController::showDialog() {
    dialog()->setSbatchAvailable(study::cluster::onPath("sbatch"));
    // The folder the Studies page follows, to submit its failed items again.
    if (lastWatched_ && dialog_->studyFolder().isEmpty()) {
        // A folder planned with the CLI names its configuration as typed, from its folder.
        dialog_->setConfigPath(QDir(fromLocalPath(lastWatched_->workingFolder))
                                   .absoluteFilePath(fromLocalPath(lastWatched_->config)));
        dialog_->setStudyFolder(fromLocalPath(lastWatched_->dir));
    }
    dialog_->show();
    dialog_->raise();
    dialog_->activateWindow();
}

void ClusterController::setCliPath(const QString& cli) {
    cli_ = cli;
    if (dialog_) dialog_->setCliPath(cli);
}

void ClusterController::plan(const QString& config, const QString& folder) {
    auto* d = dialog();
    QString problem;
    if (config.isEmpty())
        problem = tr("Choose the sweep or simulation configuration (a JSON file) first.");
    else if (!QFileInfo(config).isFile())
        problem = tr("'%1' is not a file: choose the sweep or simulation configuration.")
                      .arg(QDir::toNativeSeparators(config));
    else if (folder.isEmpty())
        problem = tr("Choose the study folder, on storage the cluster's nodes can see.");
    else
        problem = unwritableDestinationProblem(folder, DestinationUse::Filled);
    if (problem.isEmpty())
        problem = confidentialDestinationProblem(
            folder, tr("a study folder, with risks and utility of the confidential data"));
    if (!problem.isEmpty()) {
        d->showMessage(problem, true);
        return;
    }
    d->showMessage({}, false);
    d->setBusy(true, tr("Planning %1...").arg(QFileInfo(folder).fileName()));
    jobs_->start(
        planJob_,
        [config = localPath(config), folder = localPath(folder)](
            const ProgressCallback&) -> Expected<study::cluster::ClusterStatus> {
            auto planned = study::planStudyFolder(config, folder);
            if (!planned) return planned.error();
            return study::cluster::clusterStatus(folder);
        },
        tr("Planning the study folder..."));
}

void ClusterController::submit() {
    auto* d = dialog();
    const auto& plan = d->plan();
    if (!plan || d->items().empty()) return;
    const auto options = d->sbatchOptions();
    auto written = study::cluster::writeSubmitFiles(*plan, d->items(), options, localPath(cli_));
    if (!written) {
        d->showMessage(tr("The scripts could not be written: %1")
                           .arg(QString::fromStdString(written.message())),
                       true);
        return;
    }
    const QString sbatch = QStandardPaths::findExecutable(QStringLiteral("sbatch"));
    d->setSbatchAvailable(!sbatch.isEmpty());
    if (sbatch.isEmpty()) {
        const QString script = fromLocalPath(study::cluster::scriptPath(*plan));
        const QString shell = fromLocalPath(study::cluster::submitShellPath(*plan));
        d->showMessage(
            tr("sbatch is not on PATH on this computer, so nothing was submitted. The job-array "
               "script is written to %1 and the sbatch calls to %2. On a login node of your "
               "cluster, where the study folder has the same path, run the command below; "
               "then open the folder on the Studies page (Open Study Folder...) to follow its "
               "progress.")
                .arg(QDir::toNativeSeparators(script), QDir::toNativeSeparators(shell)),
            false,
            QStringLiteral("bash ") + QString::fromStdString(study::cluster::shellQuote(
                                          study::cluster::submitShellPath(*plan))));
        return;
    }
    d->showMessage({}, false);
    d->setBusy(true, tr("Submitting with sbatch..."));
    // Tasks queued behind a failed prerequisite never start: cancel them (as `ppsynth-cli
    // cluster resubmit` does); what scancel says does not change the submission.
    if (const QString scancel = QStandardPaths::findExecutable(QStringLiteral("scancel"));
        !stuck_.empty() && !scancel.isEmpty()) {
        QStringList tasks;
        for (const auto& t : stuck_) tasks << QString::fromStdString(t);
        QProcess::startDetached(scancel, tasks);
    }
    submitter_->start(sbatch, *plan, *written, options.maxParallel);
}

void ClusterController::watch(const QString& dir) {
    watched_ = QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    emit watching(watched_);
    watchPaths();
    timer_.start();
    refresh();
}

void ClusterController::stopWatching() {
    watched_.clear();
    timer_.stop();
    soon_.stop();
    if (const QStringList paths = fsWatcher_->directories(); !paths.isEmpty())
        fsWatcher_->removePaths(paths);
}

void ClusterController::refresh() {
    if (watched_.isEmpty()) return;
    jobs_->startLatest(
        statusJob_,
        [dir = localPath(watched_)](const ProgressCallback&) {
            return study::cluster::clusterStatus(dir);
        },
        tr("Checking the cluster study..."));
}

// Items land in DIR/items and logs in DIR/cluster/logs: a change there is worth a look
// before the timer's next round (the folders appear as the study starts).
void ClusterController::watchPaths() {
    if (watched_.isEmpty()) return;
    QStringList want;
    for (const QString& sub :
         {QStringLiteral("items"), QStringLiteral("cluster"), QStringLiteral("cluster/logs")})
        if (QFileInfo(watched_ + QLatin1Char('/') + sub).isDir())
            want << watched_ + QLatin1Char('/') + sub;
    const QStringList have = fsWatcher_->directories();
    QStringList add;
    for (const QString& p : want)
        if (!have.contains(p)) add << p;
    if (!add.isEmpty()) fsWatcher_->addPaths(add);
}

}  // namespace ppsynth::ui

#include "moc_cluster_controller.cpp"
