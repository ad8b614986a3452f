#include "ui/results/cluster_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/local_path.hpp"

namespace ppsynth::ui::results {

namespace {

// A line edit with a Browse... button beside it.
QWidget* clusterPathRow(QLineEdit* edit, QPushButton* browse) {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(edit, 1);
    layout->addWidget(browse);
    return row;
}

QPlainTextEdit* clusterTextView() {
    auto* view = new QPlainTextEdit;
    view->setReadOnly(true);
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return view;
}

}  // namespace

ClusterDialog::ClusterDialog(QWidget* parent)
    : QDialog(parent),
      config_(new QLineEdit),
      folder_(new QLineEdit),
      partition_(new QLineEdit),
      time_(new QLineEdit),
      mem_(new QLineEdit),
      cpus_(new QSpinBox),
      maxParallel_(new QSpinBox),
      planButton_(new QPushButton(tr("Plan the study folder"))),
      submitButton_(new QPushButton),
      script_(clusterTextView()),
      calls_(clusterTextView()),
      message_(new QLabel),
      command_(new QLineEdit),
      busy_(new QLabel) {
    setWindowTitle(tr("Run on a Slurm cluster"));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(
        tr("Each item of the study (a sweep point, a block of simulation replicates) runs as "
           "one task of a Slurm job array, in a study folder the cluster's nodes can see. "
           "Planning writes the folder and computes nothing; nothing is submitted before you "
           "have seen the script."));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto* form = new QFormLayout;
    config_->setPlaceholderText(tr("a sweep or simulation configuration (JSON)"));
    folder_->setPlaceholderText(tr("a folder on storage the compute nodes share"));
    auto* browseConfig = new QPushButton(tr("Browse..."));
    auto* browseFolder = new QPushButton(tr("Browse..."));
    form->addRow(tr("Configuration:"), clusterPathRow(config_, browseConfig));
    form->addRow(tr("Study folder:"), clusterPathRow(folder_, browseFolder));
    partition_->setPlaceholderText(tr("the cluster's default"));
    time_->setPlaceholderText(tr("per item, e.g. 02:00:00 (the partition's default)"));
    mem_->setPlaceholderText(tr("per item, e.g. 4G (the partition's default)"));
    cpus_->setRange(0, 1024);
    cpus_->setSpecialValueText(tr("default"));
    maxParallel_->setRange(0, 100000);
    maxParallel_->setSpecialValueText(tr("no limit"));
    form->addRow(tr("Partition:"), partition_);
    form->addRow(tr("Time limit:"), time_);
    form->addRow(tr("CPUs per task:"), cpus_);
    form->addRow(tr("Memory:"), mem_);
    form->addRow(tr("At most at once:"), maxParallel_);
    layout->addLayout(form);

    auto* planRow = new QHBoxLayout;
    planRow->addWidget(planButton_);
    planRow->addWidget(busy_, 1);
    layout->addLayout(planRow);
    layout->addWidget(new QLabel(tr("The job-array script (cluster/submit.sbatch):")));
    script_->setPlaceholderText(tr("Plan the study folder to see the script."));
    layout->addWidget(script_, 3);
    layout->addWidget(new QLabel(tr("Submitted with (cluster/submit.sh):")));
    layout->addWidget(calls_, 1);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message_->hide();
    layout->addWidget(message_);
    command_->setReadOnly(true);
    command_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    command_->hide();
    layout->addWidget(command_);

    auto* buttons = new QDialogButtonBox;
    buttons->addButton(submitButton_, QDialogButtonBox::AcceptRole);
    buttons->addButton(QDialogButtonBox::Close);
    layout->addWidget(buttons);
    // Submitting is not closing: the dialog stays to show what sbatch said.
    connect(submitButton_, &QPushButton::clicked, this, &ClusterDialog::submitRequested);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(planButton_, &QPushButton::clicked, this,
            [this] { emit planRequested(configPath(), studyFolder()); });
    connect(browseConfig, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(
            this, tr("Sweep or simulation configuration"), config_->text(),
            tr("Configurations (*.json);;All files (*)"));
        if (!f.isEmpty()) setConfigPath(f);
    });
    connect(browseFolder, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Study folder"), folder_->text());
        if (!d.isEmpty()) setStudyFolder(d);
    });
    // Another configuration or folder needs planning again; other options only change the
    // script.
    for (QLineEdit* e : {config_, folder_})
        connect(e, &QLineEdit::textEdited, this, [this] {
            plan_.reset();
            items_.clear();
            updateScript();
        });
    for (QLineEdit* e : {partition_, time_, mem_})
        connect(e, &QLineEdit::textChanged, this, &ClusterDialog::updateScript);
    for (QSpinBox* s : {cpus_, maxParallel_})
        connect(s, &QSpinBox::valueChanged, this, &ClusterDialog::updateScript);
    setSbatchAvailable(false);
    resize(900, 860);
}

void ClusterDialog::setSbatchAvailable(bool available) {
    sbatchAvailable_ = available;
    submitButton_->setText(available ? tr("Submit to Slurm") : tr("Write the script"));
    submitButton_->setToolTip(available ? tr("Submit the items with sbatch")
                                        : tr("sbatch is not on PATH here: write the script "
                                             "and submit it from a login node of the cluster"));
    updateButtons();
}

void ClusterDialog::setCliPath(const QString& cli) {
    cli_ = cli;
    updateScript();
}

QString ClusterDialog::configPath() const {
    return config_->text().trimmed();
}

QString ClusterDialog::studyFolder() const {
    return folder_->text().trimmed();
}

void ClusterDialog::setConfigPath(const QString& path) {
    config_->setText(QDir::toNativeSeparators(path));
    plan_.reset();
    updateScript();
}

void ClusterDialog::setStudyFolder(const QString& dir) {
    folder_->setText(QDir::toNativeSeparators(dir));
    plan_.reset();
    updateScript();
}

study::cluster::SbatchOptions ClusterDialog::sbatchOptions() const {
    study::cluster::SbatchOptions o;
    o.partition = partition_->text().trimmed().toStdString();
    o.time = time_->text().trimmed().toStdString();
    o.mem = mem_->text().trimmed().toStdString();
    o.cpusPerTask = cpus_->value();
    o.maxParallel = maxParallel_->value();
    return o;
}

void ClusterDialog::showPlanned(const study::cluster::Plan& plan, std::vector<std::size_t> items) {
    plan_ = plan;
    items_ = std::move(items);
    updateScript();
}

QString ClusterDialog::scriptText() const {
    if (!plan_) return {};
    return QString::fromStdString(
        study::cluster::sbatchScript(*plan_, sbatchOptions(), localPath(cli_)));
}

QString ClusterDialog::callsText() const {
    if (!plan_) return {};
    return QString::fromStdString(study::cluster::submitShell(
        *plan_, study::cluster::splitByDependency(*plan_, items_), maxParallel_->value()));
}

void ClusterDialog::updateScript() {
    script_->setPlainText(scriptText());
    calls_->setPlainText(callsText());
    updateButtons();
}

void ClusterDialog::showMessage(const QString& text, bool error, const QString& command) {
    message_->setText(text);
    message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
    message_->setVisible(!text.isEmpty());
    command_->setText(command);
    command_->setVisible(!command.isEmpty());
}

void ClusterDialog::setBusy(bool busy, const QString& what) {
    isBusy_ = busy;
    busy_->setText(busy ? what : QString());
    updateButtons();
}

void ClusterDialog::updateButtons() {
    planButton_->setEnabled(!isBusy_);
    submitButton_->setEnabled(!isBusy_ && plan_ && !items_.empty());
}

}  // namespace ppsynth::ui::results

#include "moc_cluster_dialog.cpp"
