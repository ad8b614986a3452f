// Every run of the session, newest last: when it finished, what it compared and the epsilon
// of each synthesizer. Select one to show it, or any two to compare them side by side.
#pragma once

#include <QWidget>
#include <vector>

#include "ui/run/run_record.hpp"

class QLabel;
class QPushButton;
class QTableWidget;

namespace ppsynth::ui {

class RunList : public QWidget {
    Q_OBJECT
  public:
    explicit RunList(QWidget* parent = nullptr);

    // Adds a record (its id is set here when 0) and selects it.
    const RunRecord& add(RunRecord record);
    void clear();
    const std::vector<RunRecord>& records() const { return records_; }
    const RunRecord* find(int id) const;
    // Marks a record as saved in `folder`.
    void setFolder(int id, const QString& folder);
    // Where a record's data file is now (RunRecord::dataPath).
    void setDataPath(int id, const QString& path);
    // Gives a record reopened from its folder its result (and the table it describes).
    void setResult(int id, std::shared_ptr<const study::RunResult> result,
                   std::shared_ptr<const data::Table> table);
    int nextId() const { return nextId_; }

    // The selected records' ids, in list order.
    std::vector<int> selectedIds() const;
    void select(const std::vector<int>& ids);

    QTableWidget* table() const { return table_; }
    QPushButton* showButton() const { return show_; }
    QPushButton* compareButton() const { return compare_; }
    QLabel* detailLabel() const { return detail_; }

  signals:
    void showRequested(int id);
    void compareRequested(int left, int right);

  private:
    void fillRow(int row);
    void updateButtons();
    void updateDetail();

    std::vector<RunRecord> records_;
    int nextId_ = 1;
    QTableWidget* table_;
    QPushButton* show_;
    QPushButton* compare_;
    QLabel* detail_;
};

}  // namespace ppsynth::ui
