#include "ui/export/export_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include "ppsynth/release/from_run.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ui/counted.hpp"
#include "ui/destination_guard.hpp"
#include "ui/job_runner.hpp"
#include "ui/local_path.hpp"
#include "ui/message_area.hpp"

namespace ppsynth::ui {

namespace {

QString number(double v) {
    return QString::number(v, 'g', 4);
}

// METHOD.md section 2: wherever epsilon is shown, say how Delta was estimated (the maximum
// over draws or the robust quantile, which may leave draws out of synthesis).
QString privacyText(const study::PublicResult& s) {
    QString text = ExportDialog::tr(
                       "Each dataset: epsilon = %1. All %2 datasets together: "
                       "epsilon = %3.")
                       .arg(number(s.epsilon.perDataset))
                       .arg(s.epsilon.m)
                       .arg(number(s.epsilon.total));
    if (s.deltaMethod.empty())
        return text + ExportDialog::tr(" How Delta was estimated is not recorded in this run.");
    text += ExportDialog::tr(" Delta (the sensitivity) was estimated as the %1")
                .arg(QString::fromStdString(s.deltaMethod));
    if (s.excludedDraws > 0)
        return text +
               ExportDialog::tr("; %1 above it %2 left out of synthesis.")
                   .arg(counted(static_cast<long long>(s.excludedDraws), ExportDialog::tr("draw"),
                                ExportDialog::tr("draws")),
                        s.excludedDraws == 1 ? ExportDialog::tr("was") : ExportDialog::tr("were"));
    return text + QLatin1Char('.');
}

}  // namespace

ExportDialog::ExportDialog(const QString& runDir, const study::PublicRun& run, QWidget* parent)
    : QDialog(parent),
      runDir_(runDir),
      synthesizer_(new QComboBox(this)),
      csv_(new QCheckBox(tr("CSV (.csv)"), this)),
      sav_(new QCheckBox(tr("SPSS (.sav)"), this)),
      dta_(new QCheckBox(tr("Stata (.dta)"), this)),
      destination_(new QLineEdit(this)),
      browse_(new QPushButton(tr("Browse..."), this)),
      privacy_(new QLabel(this)),
      progress_(new QProgressBar(this)),
      message_(new MessageArea(this)),
      export_(new QPushButton(tr("Export"), this)),
      close_(new QPushButton(tr("Close"), this)),
      job_(new JobRunner<Status>(this)) {
    setWindowTitle(tr("Export release bundle"));
    for (const study::PublicResult* s : run.synthesizers()) {
        synthesizer_->addItem(QString::fromStdString(s->name));
        privacyTexts_.push_back(privacyText(*s));
        unconverged_.push_back(QString::fromStdString(release::unconvergedEpsilon(*s)));
        if (!unconverged_.back().isEmpty())
            privacyTexts_.back() += tr(" ⚠ Epsilon did not converge: %1.").arg(unconverged_.back());
        else
            privacyTexts_.back() += tr(" Epsilon converged.");
    }
    csv_->setChecked(true);
    destination_->setPlaceholderText(tr("A new folder for the bundle"));
    privacy_->setWordWrap(true);
    progress_->setRange(0, 1000);
    progress_->setTextVisible(false);
    message_->hide();

    auto* formats = new QHBoxLayout;
    formats->addWidget(csv_);
    formats->addWidget(sav_);
    formats->addWidget(dta_);
    formats->addStretch();
    auto* where = new QHBoxLayout;
    where->addWidget(destination_, 1);
    where->addWidget(browse_);
    auto* form = new QFormLayout;
    form->addRow(tr("Synthesizer:"), synthesizer_);
    form->addRow(QString(), privacy_);
    form->addRow(tr("Formats:"), formats);
    form->addRow(tr("Bundle folder:"), where);

    auto* note = new QLabel(
        tr("The bundle holds the synthetic datasets (the modelled predictors and the synthetic "
           "sensitive variables only), manifest.json, a README for data users and SHA256SUMS. "
           "Weights, "
           "bounds, risks and the original values are never written."),
        this);
    note->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(export_, QDialogButtonBox::AcceptRole);
    buttons->addButton(close_, QDialogButtonBox::RejectRole);
    export_->setDefault(true);

    auto* layout = new QVBoxLayout(this);
    // The message strip appears later: grow with it rather than squeeze the form.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->addWidget(message_);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(progress_);
    layout->addStretch();
    layout->addWidget(buttons);

    connect(synthesizer_, &QComboBox::currentIndexChanged, this, &ExportDialog::updateState);
    for (auto* box : {csv_, sav_, dta_})
        connect(box, &QCheckBox::toggled, this, &ExportDialog::updateState);
    connect(destination_, &QLineEdit::textChanged, this, &ExportDialog::updateState);
    connect(browse_, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(export_, &QPushButton::clicked, this, &ExportDialog::startExport);
    connect(close_, &QPushButton::clicked, this, &ExportDialog::reject);
    connect(job_, &JobRunnerBase::progressChanged, this,
            [this](double f) { progress_->setValue(static_cast<int>(f * 1000)); });
    job_->onResult([this](Status s) {
        if (s) {
            QString text = tr("Wrote the release bundle to %1.").arg(writing_);
            // The replaced bundle left behind under another name must not go unnoticed.
            if (warning_ && !warning_->empty())
                text += QLatin1Char(' ') + tr("Note: %1.").arg(QString::fromStdString(*warning_));
            say(MessageArea::Kind::Info, text);
            emit exportFinished(true);
        } else {
            say(MessageArea::Kind::Error,
                tr("The export failed: %1").arg(QString::fromStdString(s.message())));
            emit exportFinished(false);
        }
    });
    connect(job_, &JobRunnerBase::finished, this, [this](JobOutcome outcome) {
        setBusy(false);
        if (outcome == JobOutcome::Canceled) {
            say(MessageArea::Kind::Info, tr("The export was cancelled; nothing was written."));
            emit exportFinished(false);
        } else if (outcome == JobOutcome::Failed) {
            say(MessageArea::Kind::Error, tr("The export failed: %1").arg(job_->failureText()));
            emit exportFinished(false);
        }
    });
    question_ = [this](const QString& folder) {
        return QMessageBox::question(
                   this, tr("Replace the bundle?"),
                   tr("%1 already exists.\nReplace it with the new bundle?").arg(folder),
                   QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
    };
    unconvergedQuestion_ = [this](const QString& name, const QString& why) {
        QMessageBox box(QMessageBox::Warning, tr("Release an epsilon that did not converge?"),
                        tr("The epsilon of %1 did not converge, so its privacy guarantee is not "
                           "settled: another run of the same configuration may give another "
                           "value.\n\nSample longer chains and run again, or release it as it "
                           "is; the manifest will record that you accepted it.")
                            .arg(name),
                        QMessageBox::Yes | QMessageBox::No, this);
        box.setDetailedText(why);
        box.setDefaultButton(QMessageBox::No);
        box.button(QMessageBox::Yes)->setText(tr("Release anyway"));
        return box.exec() == QMessageBox::Yes;
    };
    setBusy(false);
    resize(640, sizeHint().height());
}

// The job is a child: its destructor cancels and waits before the dialog's members go.
ExportDialog::~ExportDialog() = default;

void ExportDialog::setSynthesizer(const QString& name) {
    synthesizer_->setCurrentText(name);
}

void ExportDialog::setFormats(bool csv, bool sav, bool dta) {
    csv_->setChecked(csv);
    sav_->setChecked(sav);
    dta_->setChecked(dta);
}

void ExportDialog::setDestination(const QString& folder) {
    destination_->setText(folder);
}

QString ExportDialog::destination() const {
    return destination_->text().trimmed();
}

bool ExportDialog::isRunning() const {
    return job_->isRunning();
}

void ExportDialog::browse() {
    const QString folder = QFileDialog::getSaveFileName(
        this, tr("Bundle folder"), destination().isEmpty() ? runDir_ + "/release" : destination(),
        QString(), nullptr, QFileDialog::ShowDirsOnly);
    if (!folder.isEmpty()) destination_->setText(folder);
}

void ExportDialog::updateState() {
    const int i = synthesizer_->currentIndex();
    privacy_->setText(i >= 0 ? privacyTexts_[static_cast<std::size_t>(i)] : QString());
    const bool anyFormat = csv_->isChecked() || sav_->isChecked() || dta_->isChecked();
    export_->setEnabled(!job_->isRunning() && i >= 0 && anyFormat && !destination().isEmpty());
    export_->setToolTip(!anyFormat                ? tr("Pick at least one format.")
                        : destination().isEmpty() ? tr("Choose a folder for the bundle.")
                                                  : QString());
}

void ExportDialog::say(MessageArea::Kind kind, const QString& text) {
    message_->showMessage(kind, text);
    // The strip needs room: grow rather than squeeze the form under it.
    const int needed = sizeHint().height();
    if (height() < needed) resize(width(), needed);
}

void ExportDialog::setBusy(bool busy) {
    for (QWidget* w :
         std::initializer_list<QWidget*>{synthesizer_, csv_, sav_, dta_, destination_, browse_})
        w->setEnabled(!busy);
    progress_->setVisible(busy);
    progress_->setValue(0);
    close_->setText(busy ? tr("Cancel") : tr("Close"));
    updateState();
}

void ExportDialog::startExport() {
    if (job_->isRunning()) return;
    std::vector<data::FileFormat> formats;
    if (csv_->isChecked()) formats.push_back(data::FileFormat::Csv);
    if (sav_->isChecked()) formats.push_back(data::FileFormat::Sav);
    if (dta_->isChecked()) formats.push_back(data::FileFormat::Dta);
    if (formats.empty()) {
        say(MessageArea::Kind::Error, tr("Pick at least one format for the datasets."));
        return;
    }
    const QString folder = destination();
    if (folder.isEmpty()) {
        say(MessageArea::Kind::Error, tr("Choose a folder for the bundle."));
        return;
    }
    // Before the run folder and its data are read.
    if (const QString why = unwritableDestinationProblem(folder); !why.isEmpty()) {
        say(MessageArea::Kind::Error, why);
        return;
    }
    const int chosen = synthesizer_->currentIndex();
    bool acceptUnconverged = false;
    if (chosen >= 0 && !unconverged_[static_cast<std::size_t>(chosen)].isEmpty()) {
        const QString name = synthesizer_->currentText();
        if (!unconvergedQuestion_ ||
            !unconvergedQuestion_(name, unconverged_[static_cast<std::size_t>(chosen)])) {
            say(MessageArea::Kind::Info,
                tr("Nothing was exported: the epsilon of %1 did not converge.").arg(name));
            emit exportFinished(false);
            return;
        }
        acceptUnconverged = true;
    }
    bool overwrite = false;
    if (QFileInfo::exists(folder)) {
        if (!question_ || !question_(folder)) {
            say(MessageArea::Kind::Info,
                tr("%1 already exists and was left as it is.").arg(folder));
            emit exportFinished(false);
            return;
        }
        overwrite = true;
    }
    message_->hide();
    writing_ = folder;
    warning_ = std::make_shared<std::string>();
    setBusy(true);
    // The work owns copies of everything it reads; only a Status comes back.
    job_->start([runDir = localPath(runDir_), data = localPath(dataPath_),
                 name = synthesizer_->currentText().toStdString(), bundle = localPath(folder),
                 formats, overwrite, acceptUnconverged,
                 warning = warning_](const ProgressCallback& progress) -> Status {
        study::LoadOptions lo;
        lo.dataPath = data;
        lo.draws = false;
        lo.syntheticFor = {name};
        lo.progress = progress;
        auto loaded = study::loadRunFolder(runDir, lo);
        if (!loaded) return loaded.status();
        release::ReleaseOptions ro;
        ro.overwrite = overwrite;
        ro.acceptUnconverged = acceptUnconverged;
        ro.progress = progress;
        ro.warning = [warning](const std::string& w) { *warning = w; };
        return release::releaseFromRun(loaded->run, loaded->table, name, bundle, formats, ro);
    });
    setBusy(true);
}

void ExportDialog::cancelExport() {
    job_->cancel();
}

void ExportDialog::reject() {
    // Close while exporting means cancel; the dialog stays until the job has ended.
    if (job_->isRunning()) {
        cancelExport();
        return;
    }
    QDialog::reject();
}

}  // namespace ppsynth::ui

#include "moc_export_dialog.cpp"
