// One results table as the page shows it: the title (red when the table is confidential),
// the warnings in words, the table (Ctrl+C copies the selected rows as tab-separated text,
// header first, for a spreadsheet) and the caption.
#pragma once

#include <QWidget>

#include "ui/results/results_tables.hpp"

class QLabel;
class QTableWidget;

namespace ppsynth::ui::results {

class TableCard : public QWidget {
    Q_OBJECT
  public:
    explicit TableCard(const TableData& data, QWidget* parent = nullptr);
    // A table that could not be built: its name and the reason.
    TableCard(const QString& what, const QString& error, QWidget* parent = nullptr);

    const TableData& data() const { return data_; }
    QTableWidget* table() const { return table_; }
    QLabel* warningsLabel() const { return warnings_; }
    // The selected rows (all rows when none is selected) as tab-separated text, header first.
    QString selectedText() const;
    void copySelection() const;

  private:
    TableData data_;
    QTableWidget* table_ = nullptr;
    QLabel* warnings_ = nullptr;
};

}  // namespace ppsynth::ui::results
