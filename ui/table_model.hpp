// A read-only, virtualized view of a data::Table: cells are formatted on demand, so a
// million-row table costs nothing beyond the table itself.
#pragma once

#include <QAbstractTableModel>
#include <memory>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/table.hpp"

namespace ppsynth::ui {

QString typeName(data::ColumnType type);

class TableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    explicit TableModel(QObject* parent = nullptr);

    void setTable(std::shared_ptr<data::Table> table);
    std::shared_ptr<const data::Table> table() const { return table_; }

    // Converts one column (Column::convertedTo); on failure the column is left unchanged
    // and the returned status says why.
    Status setColumnType(int column, data::ColumnType type);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

  private:
    std::shared_ptr<data::Table> table_;
};

}  // namespace ppsynth::ui
