#include "ui/run/run_list.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace ppsynth::ui {

namespace {
enum Col { ColId, ColWhen, ColSynthesizers, ColTime, ColSaved, ColCount };
}

RunList::RunList(QWidget* parent)
    : QWidget(parent),
      table_(new QTableWidget(0, ColCount, this)),
      show_(new QPushButton(tr("Show results"), this)),
      compare_(new QPushButton(tr("Compare the two selected"), this)),
      detail_(new QLabel(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    table_->setHorizontalHeaderLabels(
        {tr("Run"), tr("Finished"), tr("Synthesizers (ε per dataset)"), tr("Time"), tr("Saved")});
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(ColSynthesizers, QHeaderView::Stretch);
    table_->setToolTip(
        tr("Every run of this session. Select one to show it; select two (Ctrl+click) "
           "to compare them side by side."));
    layout->addWidget(table_, 1);
    detail_->setWordWrap(true);
    detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(detail_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(show_);
    buttons->addWidget(compare_);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(table_, &QTableWidget::itemSelectionChanged, this, [this] {
        updateButtons();
        updateDetail();
    });
    connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
        emit showRequested(records_.at(static_cast<std::size_t>(row)).id);
    });
    connect(show_, &QPushButton::clicked, this, [this] {
        const auto ids = selectedIds();
        if (ids.size() == 1) emit showRequested(ids.front());
    });
    connect(compare_, &QPushButton::clicked, this, [this] {
        const auto ids = selectedIds();
        if (ids.size() == 2) emit compareRequested(ids[0], ids[1]);
    });
    updateButtons();
}

const RunRecord& RunList::add(RunRecord record) {
    if (record.id == 0) record.id = nextId_;
    nextId_ = std::max(nextId_, record.id + 1);
    if (record.label.isEmpty()) record.label = tr("Run %1").arg(record.id);
    records_.push_back(std::move(record));
    const RunRecord& r = records_.back();
    const int row = table_->rowCount();
    table_->insertRow(row);
    fillRow(row);
    table_->resizeColumnToContents(ColId);
    table_->resizeColumnToContents(ColWhen);
    select({r.id});
    return r;
}

void RunList::fillRow(int row) {
    const RunRecord& r = records_.at(static_cast<std::size_t>(row));
    const double seconds = r.result ? r.result->seconds : 0;
    table_->setItem(row, ColId, new QTableWidgetItem(r.label));
    table_->setItem(row, ColWhen,
                    new QTableWidgetItem(r.finishedAt.toString(QStringLiteral("HH:mm:ss"))));
    auto* synth = new QTableWidgetItem(r.epsilonSummary());
    synth->setToolTip(r.result ? detailedSummary(*r.result) : r.epsilonSummary());
    table_->setItem(row, ColSynthesizers, synth);
    table_->setItem(
        row, ColTime,
        new QTableWidgetItem(r.result ? tr("%1 s").arg(seconds, 0, 'f', 1) : QString()));
    table_->setItem(row, ColSaved,
                    new QTableWidgetItem(r.folder.isEmpty() ? tr("not yet") : r.folder));
}

void RunList::setResult(int id, std::shared_ptr<const study::RunResult> result,
                        std::shared_ptr<const data::Table> table) {
    for (std::size_t i = 0; i < records_.size(); ++i) {
        if (records_[i].id != id) continue;
        records_[i].result = std::move(result);
        records_[i].table = std::move(table);
        const auto selected = selectedIds();
        fillRow(int(i));
        select(selected);
        updateButtons();
        updateDetail();
    }
}

void RunList::setDataPath(int id, const QString& path) {
    for (auto& r : records_)
        if (r.id == id) r.dataPath = path;
}

void RunList::clear() {
    records_.clear();
    table_->setRowCount(0);
    nextId_ = 1;
    updateButtons();
    updateDetail();
}

const RunRecord* RunList::find(int id) const {
    for (const auto& r : records_)
        if (r.id == id) return &r;
    return nullptr;
}

void RunList::setFolder(int id, const QString& folder) {
    for (std::size_t i = 0; i < records_.size(); ++i) {
        if (records_[i].id != id) continue;
        records_[i].folder = folder;
        table_->item(int(i), ColSaved)->setText(folder);
    }
}

std::vector<int> RunList::selectedIds() const {
    std::vector<int> ids;
    for (int row = 0; row < table_->rowCount(); ++row)
        if (table_->item(row, ColId) && table_->item(row, ColId)->isSelected())
            ids.push_back(records_.at(static_cast<std::size_t>(row)).id);
    return ids;
}

void RunList::select(const std::vector<int>& ids) {
    table_->clearSelection();
    for (std::size_t i = 0; i < records_.size(); ++i) {
        if (std::find(ids.begin(), ids.end(), records_[i].id) == ids.end()) continue;
        for (int c = 0; c < ColCount; ++c) table_->item(int(i), c)->setSelected(true);
    }
}

void RunList::updateButtons() {
    const auto n = selectedIds().size();
    show_->setEnabled(n == 1);
    compare_->setEnabled(n == 2);
}

void RunList::updateDetail() {
    const auto ids = selectedIds();
    auto describe = [this](int id) {
        const RunRecord* r = find(id);
        return r->result ? r->label + QStringLiteral("\n") + detailedSummary(*r->result)
                         : tr("%1 (saved in %2): %3").arg(r->label, r->folder, r->epsilonSummary());
    };
    if (ids.size() == 2) {  // side by side until the comparison view is merged in
        detail_->setText(describe(ids[0]) + QStringLiteral("\n\n") + describe(ids[1]));
        return;
    }
    if (ids.size() != 1) {
        detail_->setText(ids.empty() ? tr("No run selected.")
                                     : tr("%1 runs selected.").arg(ids.size()));
        return;
    }
    detail_->setText(describe(ids.front()));
}

}  // namespace ppsynth::ui

#include "moc_run_list.cpp"
