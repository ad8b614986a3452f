#include "ui/results/cluster_progress_view.hpp"

#include <QDesktopServices>
#include <QDir>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

#include "ui/local_path.hpp"

namespace ppsynth::ui::results {

namespace {

QColor clusterStateColour(study::cluster::ItemState s) {
    switch (s) {
        case study::cluster::ItemState::Done:
            return QColor(0xd8, 0xf0, 0xd8);
        case study::cluster::ItemState::Running:
            return QColor(0xd8, 0xe6, 0xf8);
        case study::cluster::ItemState::Failed:
            return QColor(0xf8, 0xd8, 0xd8);
        case study::cluster::ItemState::Pending:
        case study::cluster::ItemState::NotSubmitted:
            break;
    }
    return {};
}

constexpr int kClusterLogLines = 15;

}  // namespace

ClusterProgressView::ClusterProgressView(QWidget* parent)
    : QWidget(parent),
      folder_(new QLabel(tr("No cluster study open. Plan and submit one with \"Run on a Slurm "
                            "cluster...\", or open a planned study folder."))),
      summary_(new QLabel),
      bar_(new QProgressBar),
      table_(new QTableWidget(0, 4)),
      logTitle_(new QLabel),
      log_(new QPlainTextEdit),
      openLog_(new QPushButton(tr("Open the log file"))),
      refresh_(new QPushButton(tr("Refresh now"))) {
    auto* layout = new QVBoxLayout(this);
    folder_->setWordWrap(true);
    folder_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(folder_);
    auto* row = new QHBoxLayout;
    row->addWidget(summary_, 1);
    row->addWidget(refresh_);
    layout->addLayout(row);
    bar_->setTextVisible(true);
    bar_->setFormat(tr("%v of %m items done"));
    bar_->hide();
    layout->addWidget(bar_);
    table_->setHorizontalHeaderLabels({tr("Item"), tr("Name"), tr("State"), tr("Detail")});
    table_->verticalHeader()->hide();
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->horizontalHeader()->setSectionResizeMode(3, QHeaderView::Stretch);
    layout->addWidget(table_, 2);
    layout->addWidget(logTitle_);
    log_->setReadOnly(true);
    log_->setLineWrapMode(QPlainTextEdit::NoWrap);
    log_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    log_->setPlaceholderText(tr("Select an item to see the last lines of its log."));
    layout->addWidget(log_, 1);
    auto* logRow = new QHBoxLayout;
    logRow->addStretch();
    logRow->addWidget(openLog_);
    layout->addLayout(logRow);
    openLog_->setEnabled(false);
    summary_->hide();
    refresh_->hide();
    connect(refresh_, &QPushButton::clicked, this, &ClusterProgressView::refreshRequested);
    connect(openLog_, &QPushButton::clicked, this, [this] {
        if (!logPath_.isEmpty()) QDesktopServices::openUrl(QUrl::fromLocalFile(logPath_));
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        const auto rows = table_->selectionModel()->selectedRows();
        if (!rows.isEmpty()) showLog(static_cast<std::size_t>(rows.first().row()));
    });
}

void ClusterProgressView::showStatus(const study::cluster::ClusterStatus& status,
                                     const QString& checkedAt) {
    const bool samePlan = status_ && status_->plan.dir == status.plan.dir;
    const auto rows = table_->selectionModel()->selectedRows();
    const int selected = samePlan && !rows.isEmpty() ? rows.first().row() : -1;
    status_ = status;
    const auto& c = status.counts;
    folder_->setText(tr("The %1 in %2, run on Slurm.")
                         .arg(QString::fromStdString(status.plan.kind),
                              QDir::toNativeSeparators(fromLocalPath(status.plan.dir))));
    QString summary = QString::fromStdString(study::cluster::countsText(c)) +
                      tr(" (checked at %1).").arg(checkedAt);
    if (c.failed > 0)
        summary +=
            tr(" Failed items: read the log below, fix the cause, then submit them "
               "again with \"Run on a Slurm cluster...\" (it submits only the failed "
               "and unsubmitted items).");
    else if (c.done < c.total)
        summary += tr(" The curve or summaries appear here once every item is done.");
    summary_->setText(summary);
    summary_->setWordWrap(true);
    summary_->show();
    refresh_->show();
    bar_->setRange(0, static_cast<int>(c.total));
    bar_->setValue(static_cast<int>(c.done));
    bar_->show();

    table_->setRowCount(static_cast<int>(status.states.size()));
    for (std::size_t i = 0; i < status.states.size(); ++i) {
        const auto& s = status.states[i];
        const QStringList cells{QString::number(i),
                                QString::fromStdString(status.plan.items[i].name),
                                QString::fromLatin1(study::cluster::stateName(s.state)),
                                QString::fromStdString(s.detail)};
        for (int col = 0; col < cells.size(); ++col) {
            auto* cell = new QTableWidgetItem(cells[col]);
            if (const QColor bg = clusterStateColour(s.state); bg.isValid())
                cell->setBackground(bg);
            table_->setItem(static_cast<int>(i), col, cell);
        }
    }
    for (int col = 0; col < 3; ++col) table_->resizeColumnToContents(col);
    // Keep the person's choice; otherwise show the first failed item's log.
    int row = selected;
    if (row < 0 && !status.failedLogs.empty())
        row = static_cast<int>(status.failedLogs.begin()->first);
    if (row >= 0 && row < table_->rowCount()) {
        table_->selectRow(row);
        showLog(static_cast<std::size_t>(row));
    }
}

void ClusterProgressView::showProblem(const QString& text) {
    status_.reset();
    folder_->setText(text);
    summary_->hide();
    refresh_->hide();
    bar_->hide();
    table_->setRowCount(0);
    log_->clear();
    logTitle_->clear();
    logPath_.clear();
    openLog_->setEnabled(false);
}

void ClusterProgressView::showLog(std::size_t item) {
    if (!status_ || item >= status_->states.size()) return;
    logPath_ = fromLocalPath(study::cluster::logPath(status_->plan, item));
    const auto failed = status_->failedLogs.find(item);
    // Failed items' logs were read with the status, off the GUI thread; another item's log is
    // read when it is chosen (its last lines only).
    const std::string tail = failed != status_->failedLogs.end()
                                 ? failed->second
                                 : study::cluster::logTail(status_->plan, item, kClusterLogLines);
    logTitle_->setText(tr("Item %1 (%2), the last lines of %3:")
                           .arg(QString::number(item),
                                QString::fromStdString(status_->plan.items[item].name),
                                QDir::toNativeSeparators(logPath_)));
    log_->setPlainText(tail.empty() ? tr("(no log yet: the item has not started on the cluster)")
                                    : QString::fromStdString(tail));
    openLog_->setEnabled(!tail.empty());
}

}  // namespace ppsynth::ui::results

#include "moc_cluster_progress_view.cpp"
