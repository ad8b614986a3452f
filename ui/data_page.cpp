#include "ui/data_page.hpp"

#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QStringList>
#include <QTableView>
#include <QVBoxLayout>

#include "ppsynth/data/roles.hpp"
#include "ui/column_panel.hpp"
#include "ui/message_area.hpp"
#include "ui/table_model.hpp"

namespace ppsynth::ui {

DataPage::DataPage(QWidget* parent)
    : QWidget(parent),
      model_(new TableModel(this)),
      messages_(new MessageArea(this)),
      stack_(new QStackedWidget(this)),
      placeholder_(new QLabel(this)),
      sourceLabel_(new QLabel(this)),
      view_(new QTableView(this)),
      columns_(new ColumnPanel(model_, this)),
      suggestionsLabel_(new QLabel(this)),
      applySuggestions_(new QPushButton(tr("Apply suggested roles"), this)) {
    placeholder_->setText(
        tr("No data yet.\n\nOpen a CSV, SPSS, Stata or SAS file with File > Open,\n"
           "or drop the file onto this window."));
    placeholder_->setAlignment(Qt::AlignCenter);
    columns_->setRolesValidator(&data::validateRoles);
    placeholder_->setEnabled(false);

    view_->setModel(model_);
    // A million rows scroll smoothly only if the view never measures them: fixed row
    // height and column width, no word wrap, no resize-to-contents.
    const int rowHeight = view_->fontMetrics().height() + 6;
    view_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    view_->verticalHeader()->setDefaultSectionSize(rowHeight);
    view_->verticalHeader()->setDefaultAlignment(Qt::AlignRight | Qt::AlignVCenter);
    view_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    view_->horizontalHeader()->setDefaultSectionSize(110);
    view_->horizontalHeader()->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    view_->horizontalHeader()->setHighlightSections(false);
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setWordWrap(false);
    view_->setAlternatingRowColors(true);
    view_->setSelectionMode(QAbstractItemView::ContiguousSelection);
    view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view_->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    view_->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);

    auto* tablePane = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    sourceLabel_->setTextFormat(Qt::PlainText);
    tableLayout->addWidget(sourceLabel_);
    tableLayout->addWidget(view_, 1);

    // The suggestions sit above the column list they would fill in.
    auto* columnsPane = new QWidget(this);
    auto* columnsLayout = new QVBoxLayout(columnsPane);
    columnsLayout->setContentsMargins(0, 0, 0, 0);
    suggestionsLabel_->setTextFormat(Qt::PlainText);
    suggestionsLabel_->setWordWrap(true);
    suggestionsLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    suggestionsLabel_->hide();
    applySuggestions_->setToolTip(
        tr("Set the roles above: the suggested sensitive y and predictors; identifiers and "
           "free text stay ignored. Change any of them afterwards."));
    applySuggestions_->hide();
    columnsLayout->addWidget(suggestionsLabel_);
    columnsLayout->addWidget(applySuggestions_, 0, Qt::AlignLeft);
    columnsLayout->addWidget(columns_, 1);
    connect(applySuggestions_, &QPushButton::clicked, this, &DataPage::applySuggestionsRequested);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(tablePane);
    splitter->addWidget(columnsPane);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setChildrenCollapsible(false);
    columns_->setMinimumWidth(360);

    stack_->addWidget(placeholder_);
    stack_->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(messages_);
    layout->addWidget(stack_, 1);
}

void DataPage::setTable(std::shared_ptr<data::Table> table, const QString& source) {
    source_ = source;
    const auto rows = table ? table->rowCount() : 0;
    const auto cols = table ? table->columnCount() : 0;
    model_->setTable(std::move(table));
    suggestions_ = {};  // the new table's come with setSuggestions
    suggestionsLabel_->hide();
    applySuggestions_->hide();
    sourceLabel_->setText(
        tr("%1 - %L2 rows, %L3 columns")
            .arg(QFileInfo(source).fileName().isEmpty() ? source : QFileInfo(source).fileName())
            .arg(qulonglong(rows))
            .arg(qulonglong(cols)));
    sourceLabel_->setToolTip(source);
    stack_->setCurrentIndex(cols > 0 ? 1 : 0);
}

void DataPage::setSuggestions(const data::SuggestedRoles& roles) {
    suggestions_ = roles;
    auto q = [](const std::string& s) { return QString::fromStdString(s); };
    QStringList lines;
    lines << tr("Suggested roles (a starting point):");
    lines << (roles.target.empty()
                  ? tr("Sensitive y: none suggested. %1").arg(q(roles.targetReason))
                  : tr("Sensitive y: %1. %2").arg(q(roles.target), q(roles.targetReason)));
    if (!roles.transform.empty())
        lines << tr("Transform of y: %1. %2").arg(q(roles.transform), q(roles.transformReason));
    QStringList predictors;
    for (const auto& p : roles.predictors) predictors << q(p);
    if (!predictors.isEmpty())
        lines << tr("Predictors: %1.").arg(predictors.join(QStringLiteral(", ")));
    for (const auto& i : roles.ignored)
        lines << tr("Ignored: %1 (%2).").arg(q(i.name), q(i.reason));
    suggestionsLabel_->setText(lines.join(QLatin1Char('\n')));
    suggestionsLabel_->setVisible(true);
    applySuggestions_->setVisible(!roles.target.empty());
}

}  // namespace ppsynth::ui

#include "moc_data_page.cpp"
