// The column list of the Data page: one row per column with its role (ignored, sensitive
// y, predictor, known variable) and type, and any conversion error in plain words beside it.
// Several columns may be sensitive: they are listed below the columns in the order they are
// synthesized (METHOD.md section 9), which the person changes with Up and Down.
#pragma once

#include <QWidget>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/data/roles.hpp"

class QComboBox;
class QGridLayout;
class QLabel;
class QListWidget;
class QPushButton;

namespace ppsynth::ui {

class TableModel;

class ColumnPanel : public QWidget {
    Q_OBJECT
  public:
    // Checks roles against the table (data::validateRoles once it is linked in).
    using RolesValidator = std::function<Status(const data::Roles&, const data::Table&)>;

    explicit ColumnPanel(TableModel* model, QWidget* parent = nullptr);

    void setRolesValidator(RolesValidator validator);
    data::Role role(int column) const;
    // The roles, with the reference levels of the columns that are predictors. With several
    // sensitive variables, `target` is the first of targets() and alsoComplete the others.
    data::Roles roles() const;
    // The sensitive variables in synthesis order (the order they were chosen in, as moved
    // with Up and Down).
    std::vector<std::string> targets() const;
    // Puts the sensitive variables in `order` (a configuration's data.targets); names that
    // are not sensitive here are skipped, sensitive ones it does not name follow in their
    // current order.
    void setTargetOrder(const std::vector<std::string>& order);
    // The synthesis order list (shown with two or more sensitive variables) and its buttons.
    QListWidget* targetOrderList() const { return order_; }
    QPushButton* moveUpButton() const { return up_; }
    QPushButton* moveDownButton() const { return down_; }
    // Reference levels by column (METHOD.md section 1), e.g. an opened project's: kept until
    // another table is shown, so they survive a column leaving and rejoining the predictors.
    void setReferenceLevels(std::map<std::string, std::string> levels);

    QComboBox* roleCombo(int column) const;
    QComboBox* typeCombo(int column) const;
    // The conversion error shown beside a column; empty when there is none.
    QString message(int column) const;
    QString rolesSummary() const;

  signals:
    void rolesChanged();

  private:
    struct Row {
        QLabel* name = nullptr;
        QComboBox* role = nullptr;
        QComboBox* type = nullptr;
        QLabel* icon = nullptr;
        QLabel* message = nullptr;
    };
    void rebuild();
    void onRoleChosen(int column);
    void onTypeChosen(int column);
    void setMessage(int column, const QString& text);
    void updateRolesSummary();
    void updateOrderList();
    void moveTarget(int by);

    TableModel* model_;
    QWidget* rowsHost_;
    QGridLayout* grid_;
    QLabel* summary_;
    std::vector<Row> rows_;
    std::vector<data::Role> roles_;
    std::vector<int> targetOrder_;  // the sensitive columns, in synthesis order
    QWidget* orderBox_;
    QListWidget* order_;
    QPushButton* up_;
    QPushButton* down_;
    std::map<std::string, std::string> referenceLevels_;
    RolesValidator validator_;
};

}  // namespace ppsynth::ui
