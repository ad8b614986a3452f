#include "ui/results/table_card.hpp"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace ppsynth::ui::results {

TableCard::TableCard(const TableData& data, QWidget* parent) : QWidget(parent), data_(data) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 8);
    auto* title = new QLabel(this);
    title->setObjectName(QStringLiteral("tableTitle"));
    title->setText(
        data.confidential
            ? QStringLiteral("<b style='color:#b00020'>%1</b>").arg(data.title.toHtmlEscaped())
            : QStringLiteral("<b>%1</b>").arg(data.title.toHtmlEscaped()));
    layout->addWidget(title);

    warnings_ = new QLabel(this);
    warnings_->setObjectName(QStringLiteral("tableWarnings"));
    warnings_->setWordWrap(true);
    warnings_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    if (!data.warnings.isEmpty()) {
        QString html = QStringLiteral("<span style='color:#8a4b00'>");
        for (const QString& w : data.warnings)
            html += QStringLiteral("⚠ %1<br>").arg(w.toHtmlEscaped());
        warnings_->setText(html + QStringLiteral("</span>"));
    }
    warnings_->setVisible(!data.warnings.isEmpty());
    layout->addWidget(warnings_);

    table_ = new QTableWidget(static_cast<int>(data.rows.size()),
                              static_cast<int>(data.headers.size()), this);
    table_->setHorizontalHeaderLabels(data.headers);
    table_->verticalHeader()->setVisible(false);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setAlternatingRowColors(true);
    for (int r = 0; r < table_->rowCount(); ++r) {
        const QStringList& row = data.rows[static_cast<std::size_t>(r)];
        for (int c = 0; c < table_->columnCount() && c < row.size(); ++c) {
            auto* item = new QTableWidgetItem(row[c]);
            // Numbers right-aligned (digits line up), words left-aligned.
            bool number = false;
            row[c].toDouble(&number);
            if (number || row[c] == QStringLiteral("–"))
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(r, c, item);
        }
    }
    table_->resizeColumnsToContents();
    table_->resizeRowsToContents();
    // Tall enough for every row (up to 12) without an inner scroll bar, and no taller.
    const int rows = std::min(table_->rowCount(), 12);
    int height = table_->horizontalHeader()->sizeHint().height() + 2 * table_->frameWidth();
    for (int r = 0; r < rows; ++r) height += table_->rowHeight(r);
    if (table_->rowCount() > rows) height += table_->rowHeight(0) / 2;  // hint: it scrolls
    // A wide table gets a horizontal scroll bar; keep its last row above it.
    int width = 0;
    for (int c = 0; c < table_->columnCount(); ++c) width += table_->columnWidth(c);
    if (width > 1000) height += table_->horizontalScrollBar()->sizeHint().height();
    table_->setMinimumHeight(height);
    table_->setMaximumHeight(height);
    layout->addWidget(table_);

    auto* copy = new QAction(tr("Copy rows"), table_);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &TableCard::copySelection);
    table_->addAction(copy);
    table_->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto* caption = new QLabel(data.caption, this);
    caption->setWordWrap(true);
    layout->addWidget(caption);
}

TableCard::TableCard(const QString& what, const QString& error, QWidget* parent) : QWidget(parent) {
    data_.title = what;
    auto* layout = new QVBoxLayout(this);
    auto* label = new QLabel(QStringLiteral("<b>%1</b><br>This table cannot be shown: %2")
                                 .arg(what.toHtmlEscaped(), error.toHtmlEscaped()),
                             this);
    label->setWordWrap(true);
    layout->addWidget(label);
}

QString TableCard::selectedText() const {
    std::vector<int> rows;
    if (table_) {
        const auto selected = table_->selectionModel()->selectedRows();
        for (const QModelIndex& i : selected) rows.push_back(i.row());
    }
    std::sort(rows.begin(), rows.end());
    if (rows.empty())
        for (int r = 0; r < static_cast<int>(data_.rows.size()); ++r) rows.push_back(r);
    // Headers may hold line breaks (two-line headers); a cell of TSV may not.
    QStringList headers = data_.headers;
    for (QString& h : headers) h.replace(QLatin1Char('\n'), QLatin1Char(' '));
    QString text = headers.join(QLatin1Char('\t')) + QLatin1Char('\n');
    for (int r : rows)
        text += data_.rows[static_cast<std::size_t>(r)].join(QLatin1Char('\t')) + QLatin1Char('\n');
    return text;
}

void TableCard::copySelection() const {
    QApplication::clipboard()->setText(selectedText());
}

}  // namespace ppsynth::ui::results

#include "moc_table_card.cpp"
