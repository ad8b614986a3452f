// The Data page: the table itself (virtualized) beside the column list with roles and
// types, and a message strip for read errors and notes.
#pragma once

#include <QWidget>
#include <memory>

#include "ppsynth/data/inspect.hpp"
#include "ppsynth/data/table.hpp"

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;

namespace ppsynth::ui {

class ColumnPanel;
class MessageArea;
class TableModel;

class DataPage : public QWidget {
    Q_OBJECT
  public:
    explicit DataPage(QWidget* parent = nullptr);

    void setTable(std::shared_ptr<data::Table> table, const QString& source);
    QString source() const { return source_; }

    TableModel* model() const { return model_; }
    QTableView* view() const { return view_; }
    ColumnPanel* columnPanel() const { return columns_; }
    MessageArea* messageArea() const { return messages_; }

    // The roles and transform core suggests for the shown table (data::summarize): the
    // target and why, identifiers "ignored (identifier)", the transform of a skewed target.
    void setSuggestions(const data::SuggestedRoles& roles);
    const data::SuggestedRoles& suggestions() const { return suggestions_; }
    QLabel* suggestionsLabel() const { return suggestionsLabel_; }
    QPushButton* applySuggestionsButton() const { return applySuggestions_; }

  signals:
    // "Apply suggested roles" was pressed.
    void applySuggestionsRequested();

  private:
    TableModel* model_;
    MessageArea* messages_;
    QStackedWidget* stack_;
    QLabel* placeholder_;
    QLabel* sourceLabel_;
    QTableView* view_;
    ColumnPanel* columns_;
    QLabel* suggestionsLabel_;
    QPushButton* applySuggestions_;
    data::SuggestedRoles suggestions_;
    QString source_;
};

}  // namespace ppsynth::ui
