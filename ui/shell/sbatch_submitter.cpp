#include "ui/shell/sbatch_submitter.hpp"

namespace ppsynth::ui {

namespace {

QStringList sbatchArgumentList(const std::vector<std::string>& args) {
    QStringList out;
    for (const auto& a : args) out << QString::fromStdString(a);
    return out;
}

}  // namespace

SbatchSubmitter::SbatchSubmitter(QObject* parent) : QObject(parent) {}

// sbatch returns within seconds; a window closed meanwhile stops waiting for it.
SbatchSubmitter::~SbatchSubmitter() {
    if (process_) {
        process_->disconnect(this);
        process_->kill();
        process_->waitForFinished(2000);
    }
}

bool SbatchSubmitter::start(const QString& sbatch, const study::cluster::Plan& plan,
                            const study::cluster::Submission& submission, int maxParallel) {
    if (process_) return false;
    sbatch_ = sbatch;
    plan_ = plan;
    submission_ = submission;
    maxParallel_ = maxParallel;
    stage_ = submission.first.empty() ? 1 : 0;
    firstJob_.clear();
    done_.clear();
    submitNext();
    return true;
}

void SbatchSubmitter::submitNext() {
    const auto& items = stage_ == 0 ? submission_.first : submission_.second;
    if (stage_ > 1 || items.empty()) {
        emit finished(true, tr("Submitted %1.").arg(done_.join(tr(" and "))));
        return;
    }
    const std::string dependency = stage_ == 1 ? firstJob_.toStdString() : std::string();
    process_ = new QProcess(this);
    process_->setProcessChannelMode(QProcess::MergedChannels);
    connect(process_, &QProcess::finished, this, &SbatchSubmitter::processEnded);
    connect(process_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e != QProcess::FailedToStart) return;
        const QString why = process_->errorString();
        process_->deleteLater();
        process_ = nullptr;
        fail(tr("sbatch (%1) could not be started: %2. Check that Slurm's commands work in a "
                "terminal on this computer (sbatch --version), or write the script and submit "
                "it from a login node.")
                 .arg(sbatch_, why));
    });
    process_->start(sbatch_, sbatchArgumentList(study::cluster::sbatchArguments(
                                 *plan_, items, dependency, maxParallel_)));
}

void SbatchSubmitter::processEnded(int exitCode, QProcess::ExitStatus status) {
    const std::string output = process_->readAll().toStdString();
    const QString command =
        QStringLiteral("sbatch ") + process_->arguments().join(QLatin1Char(' '));
    process_->deleteLater();
    process_ = nullptr;
    const auto& items = stage_ == 0 ? submission_.first : submission_.second;
    const QString itemsText = QString::fromStdString(study::cluster::arraySpec(items));
    const auto id = study::cluster::parsedJobId(output);
    if (status != QProcess::NormalExit || exitCode != 0 || !id) {
        QString message =
            tr("`%1` failed (exit code %2) submitting items %3. sbatch said:\n%4\n")
                .arg(command, QString::number(status == QProcess::NormalExit ? exitCode : -1),
                     itemsText, QString::fromStdString(output).trimmed());
        if (!done_.isEmpty())
            message += tr("Already submitted: %1; they stay submitted. ").arg(done_.join(", "));
        message +=
            tr("What to do: check the partition, time limit, CPUs and memory against what "
               "your cluster allows (`sinfo` lists the partitions and their limits), change "
               "them here and submit again; only items not yet submitted are submitted.");
        fail(message);
        return;
    }
    if (auto st = study::cluster::recordJob(*plan_, *id, items); !st) {
        fail(
            tr("Items %1 were submitted as job %2, but the job could not be recorded: %3. "
               "Cancel it with `scancel %2` before submitting again.")
                .arg(itemsText, QString::fromStdString(*id), QString::fromStdString(st.message())));
        return;
    }
    const QString job = QString::fromStdString(*id);
    done_ << (stage_ == 1 && !firstJob_.isEmpty()
                  ? tr("items %1 as job %2 (after job %3)").arg(itemsText, job, firstJob_)
                  : tr("items %1 as job %2").arg(itemsText, job));
    if (stage_ == 0) firstJob_ = job;
    ++stage_;
    submitNext();
}

void SbatchSubmitter::fail(const QString& message) {
    emit finished(false, message);
}

}  // namespace ppsynth::ui

#include "moc_sbatch_submitter.cpp"
