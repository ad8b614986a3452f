#include "ui/table_model.hpp"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <algorithm>
#include <limits>

#include "ui/counted.hpp"

namespace ppsynth::ui {

QString typeName(data::ColumnType type) {
    switch (type) {
        case data::ColumnType::Numeric:
            return QObject::tr("numeric");
        case data::ColumnType::Count:
            return QObject::tr("count");
        case data::ColumnType::Categorical:
            return QObject::tr("categorical");
        case data::ColumnType::Text:
            return QObject::tr("text");
    }
    return {};
}

TableModel::TableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TableModel::setTable(std::shared_ptr<data::Table> table) {
    beginResetModel();
    table_ = std::move(table);
    endResetModel();
}

Status TableModel::setColumnType(int column, data::ColumnType type) {
    if (!table_ || column < 0 || column >= columnCount()) return Error{"no such column"};
    auto& col = table_->column(static_cast<std::size_t>(column));
    if (col.type() == type) return {};
    auto converted = col.convertedTo(type);
    if (!converted) return converted.status();
    if (auto s = table_->replaceColumn(static_cast<std::size_t>(column), std::move(*converted)); !s)
        return s;
    emit headerDataChanged(Qt::Horizontal, column, column);
    if (rowCount() > 0) emit dataChanged(index(0, column), index(rowCount() - 1, column));
    return {};
}

int TableModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !table_) return 0;
    // QAbstractItemModel counts in int; tables beyond that are refused on reading.
    const auto n = table_->rowCount();
    return n > std::size_t(std::numeric_limits<int>::max()) ? std::numeric_limits<int>::max()
                                                            : static_cast<int>(n);
}

int TableModel::columnCount(const QModelIndex& parent) const {
    if (parent.isValid() || !table_) return 0;
    return static_cast<int>(table_->columnCount());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
    if (!table_ || !index.isValid()) return {};
    const auto& col = table_->column(static_cast<std::size_t>(index.column()));
    const auto row = static_cast<std::size_t>(index.row());
    const bool missing = col.isMissing(row);
    // A cell of a number column that is no number: shown as the file has it, in red.
    const auto& unread = col.unreadCells();
    const auto it =
        std::lower_bound(unread.begin(), unread.end(), row,
                         [](const data::UnreadCell& u, std::size_t r) { return u.row < r; });
    if (missing && it != unread.end() && it->row == row) {
        switch (role) {
            case Qt::DisplayRole: {
                QString text = QString::fromStdString(it->text);
                text.replace(QChar(0), QStringLiteral("\\0"));
                if (text.size() > 60) text = text.left(60) + QStringLiteral("...");
                return text;
            }
            case Qt::ForegroundRole:
                return QBrush(QColor(0xb3, 0x26, 0x1e));
            case Qt::ToolTipRole:
                return tr(
                    "not a number: a run that uses this column is refused until the cell "
                    "is fixed (see the message beside the column)");
            default:
                break;
        }
    }
    switch (role) {
        case Qt::DisplayRole:
            return missing ? QStringLiteral("NA") : QString::fromStdString(col.display(row));
        case Qt::ForegroundRole:
            if (missing) return QBrush(QColor(150, 150, 150));
            return {};
        case Qt::FontRole:
            if (missing) {
                QFont f;
                f.setItalic(true);
                return f;
            }
            return {};
        case Qt::ToolTipRole:
            if (missing) return tr("missing value");
            return {};
        case Qt::TextAlignmentRole:
            if (col.type() == data::ColumnType::Numeric || col.type() == data::ColumnType::Count)
                return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
            return QVariant::fromValue(Qt::AlignLeft | Qt::AlignVCenter);
        default:
            return {};
    }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (!table_) return {};
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole) return section + 1;  // rows as a person counts them
        return {};
    }
    if (section < 0 || section >= columnCount()) return {};
    const auto& col = table_->column(static_cast<std::size_t>(section));
    switch (role) {
        case Qt::DisplayRole:
            return QString::fromStdString(col.name()) + QLatin1Char('\n') + typeName(col.type());
        case Qt::ToolTipRole: {
            QString tip =
                tr("%1: %2").arg(QString::fromStdString(col.name()), typeName(col.type()));
            if (col.type() == data::ColumnType::Categorical)
                tip += QStringLiteral(", ") + counted(static_cast<long long>(col.levels().size()),
                                                      tr("level"), tr("levels"));
            const auto unreadCount = col.unreadCells().size();
            if (const auto m = col.missingCount() - unreadCount; m > 0)
                tip += tr(", %1 missing").arg(qulonglong(m));
            if (unreadCount > 0)
                tip += unreadCount == 1 ? tr(", 1 cell not a number")
                                        : tr(", %1 cells not numbers").arg(qulonglong(unreadCount));
            return tip;
        }
        default:
            return {};
    }
}

}  // namespace ppsynth::ui

#include "moc_table_model.cpp"
