#include "ui/run/run_panel.hpp"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QPointer>
#include <QPushButton>
#include <QStringList>
#include <QVBoxLayout>

#include "ppsynth/study/validate.hpp"
#include "ui/run/progress_board.hpp"
#include "ui/run/run_list.hpp"
#include "ui/run/run_progress.hpp"
#include "ui/run/worker_priority.hpp"

namespace ppsynth::ui {

RunPanel::RunPanel(QWidget* parent)
    : QWidget(parent),
      board_(std::make_shared<ProgressBoard>()),
      run_(new QPushButton(tr("Run comparison"), this)),
      cancel_(new QPushButton(tr("Cancel"), this)),
      message_(new QLabel(this)),
      design_(new QLabel(this)),
      warnings_(new QLabel(this)),
      progress_(new RunProgress(this)),
      list_(new RunList(this)),
      job_(new JobRunner<Expected<study::RunResult>>(this)) {
    auto* layout = new QVBoxLayout(this);
    auto* buttons = new QHBoxLayout;
    run_->setToolTip(
        tr("Fit the unweighted model, then every listed synthesizer, on worker "
           "threads. The window stays usable; edits made meanwhile apply to the "
           "next run."));
    cancel_->setToolTip(tr("Stop the run. Earlier runs and their results stay as they are."));
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);
    message_->hide();
    layout->addWidget(message_);
    auto* designBox = new QGroupBox(tr("Model design"));
    auto* dl = new QVBoxLayout(designBox);
    design_->setTextFormat(Qt::PlainText);
    design_->setWordWrap(true);
    design_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    design_->setText(
        tr("Shown when a run starts: each predictor's type, its columns in the "
           "design matrix X, its reference level or standardization, and the "
           "number of coefficients."));
    warnings_->setTextFormat(Qt::PlainText);
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("color: #8a5300;"));
    warnings_->hide();
    dl->addWidget(design_);
    dl->addWidget(warnings_);
    layout->addWidget(designBox);
    auto* progressBox = new QGroupBox(tr("Progress"));
    auto* pl = new QVBoxLayout(progressBox);
    pl->addWidget(progress_);
    layout->addWidget(progressBox);
    auto* listBox = new QGroupBox(tr("Runs of this session"));
    auto* ll = new QVBoxLayout(listBox);
    ll->addWidget(list_);
    layout->addWidget(listBox, 1);
    cancel_->setEnabled(false);
    // Runs get threads of their own, which run below the GUI thread's priority.
    pool_.setMaxThreadCount(1);
    job_->setThreadPool(&pool_);

    connect(run_, &QPushButton::clicked, this, &RunPanel::startRun);
    connect(cancel_, &QPushButton::clicked, this, &RunPanel::cancelRun);
    job_->onResult([this](Expected<study::RunResult> r) { onResult(std::move(r)); });
    connect(job_, &JobRunnerBase::finished, this, &RunPanel::onFinished);
}

// Stop and wait here: the pool (a member) is destroyed before the job (a child), and the
// worker must never outlive the table and board it shares with this page.
RunPanel::~RunPanel() {
    if (cancelFlag_) cancelFlag_->store(true);
    job_->cancel();
    job_->waitForFinished();
}

void RunPanel::setSources(ConfigSource config, TableSource table) {
    configSource_ = std::move(config);
    tableSource_ = std::move(table);
}

bool RunPanel::isRunning() const {
    return job_->isRunning();
}

void RunPanel::showMessage(const QString& text, bool error) {
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b3261e;") : QString());
    message_->setVisible(!text.isEmpty());
}

bool RunPanel::startRun() {
    if (job_->isRunning()) {
        showMessage(tr("A run is going; cancel it first."), true);
        return false;
    }
    auto table = tableSource_ ? tableSource_() : nullptr;
    if (!table || table->rowCount() == 0) {
        showMessage(tr("Open a data file on the Data page first."), true);
        return false;
    }
    if (!configSource_) return false;
    auto config = configSource_();
    if (!config) {
        showMessage(QString::fromStdString(config.message()), true);
        return false;
    }
    // The rules every configuration meets (the runner checks them too): said here, before a
    // job starts, so nothing is shown running that cannot run.
    if (Status valid = study::validate(*config); !valid) {
        showMessage(QString::fromStdString(valid.message()), true);
        return false;
    }
    showMessage({}, false);
    // Fits: the unweighted one, then one per weighted synthesizer (EM and re-weighting
    // usually need a few; the estimate stretches when they do).
    int fits = 1;
    for (const auto& s : config->synthesizers)
        fits += s.scheme == study::Scheme::Unweighted ? 0 : 1;
    board_->reset(config->mcmc.chains, config->mcmc.warmup, config->mcmc.draws, fits);
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    runningTable_ = table;
    design_->setText(tr("Preparing the data..."));
    designShown_ = false;
    showWarnings({});
    QPointer<RunPanel> self(this);
    job_->start([config = std::move(*config), table, board = board_, cancel = cancelFlag_,
                 self](const ProgressCallback&) {
        lowerThreadPriority();  // the chain threads core starts from here inherit it
        study::RunOptions options;
        options.cancel = cancel.get();
        // Progress goes to the board only, not through the promise: the future's progress
        // signals would take the future's lock per report, shared with the GUI thread.
        // Cancel arrives through the flag (set together with the job's cancel()).
        options.progress = [&board, &cancel](const Progress& p) {
            board->report(p);
            return cancel->load() ? Continue::Stop : Continue::Yes;
        };
        // The design reaches the page before the first fit (queued to the GUI thread; dropped
        // if the page is gone).
        options.started = [self](const study::RunStart& start) {
            QMetaObject::invokeMethod(
                self.data(),
                [self, start] {
                    if (self) self->showStart(start);
                },
                Qt::QueuedConnection);
        };
        return study::runStudy(config, *table, options);
    });
    progress_->start(board_);
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    emit runStarted();
    return true;
}

void RunPanel::cancelRun() {
    if (!job_->isRunning()) return;
    cancelClock_.start();
    if (cancelFlag_) cancelFlag_->store(true);
    job_->cancel();
    cancel_->setEnabled(false);
    progress_->stop(tr("Cancelling..."));
}

void RunPanel::showStart(const study::RunStart& start) {
    QStringList lines;
    for (const auto& line : data::describeDesign(start.design))
        lines << QString::fromStdString(line);
    design_->setText(lines.join(QLatin1Char('\n')));
    designShown_ = true;
    showWarnings(start.warnings);
}

void RunPanel::showWarnings(const std::vector<std::string>& warnings) {
    QStringList lines;
    for (const auto& w : warnings) lines << tr("Warning: %1").arg(QString::fromStdString(w));
    warnings_->setText(lines.join(QLatin1Char('\n')));
    warnings_->setVisible(!lines.isEmpty());
}

void RunPanel::onResult(Expected<study::RunResult> result) {
    if (!result) {
        if (!designShown_) design_->setText(tr("No design: the run stopped while preparing."));
        showMessage(tr("The run stopped: %1").arg(QString::fromStdString(result.message())), true);
        return;
    }
    // The finished run's own design and every warning, the ones found during the run too.
    showStart(study::RunStart{result->design, result->warnings});
    RunRecord record;
    record.finishedAt = QDateTime::currentDateTime();
    record.table = runningTable_;
    auto shared = std::make_shared<const study::RunResult>(std::move(*result));
    record.result = shared;
    QStringList names;
    for (const auto& s : shared->synthesizers) names << QString::fromStdString(s.name);
    record.label = tr("Run %1 (%2)").arg(list_->nextId()).arg(names.join(QStringLiteral(", ")));
    const int id = list_->add(std::move(record)).id;
    emit runFinished(id);
}

void RunPanel::onFinished(JobOutcome outcome) {
    run_->setEnabled(true);
    cancel_->setEnabled(false);
    runningTable_.reset();
    switch (outcome) {
        case JobOutcome::Done: {
            const auto* last = list_->records().empty() ? nullptr : &list_->records().back();
            progress_->stop(last && last->result
                                ? tr("Finished in %1 s.").arg(last->result->seconds, 0, 'f', 1)
                                : tr("Stopped."),
                            last && last->result);
            break;
        }
        case JobOutcome::Canceled:
            lastCancelSeconds_ = cancelClock_.isValid() ? cancelClock_.elapsed() / 1000.0 : -1;
            progress_->stop(tr("Cancelled after %1 s to stop; earlier runs are unchanged.")
                                .arg(lastCancelSeconds_, 0, 'f', 2));
            break;
        case JobOutcome::Failed:
            progress_->stop(tr("Failed."));
            showMessage(tr("The run failed: %1").arg(job_->failureText()), true);
            break;
    }
    emit runEnded();
}

}  // namespace ppsynth::ui

#include "moc_run_panel.cpp"
