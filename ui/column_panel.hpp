// The column list of the Data page: one row per column with its role (ignored, sensitive
// y, predictor, known variable) and type, and any conversion error in plain words beside it.
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
    // The roles, with the reference levels of the columns that are predictors.
    data::Roles roles() const;
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

    TableModel* model_;
    QWidget* rowsHost_;
    QGridLayout* grid_;
    QLabel* summary_;
    std::vector<Row> rows_;
    std::vector<data::Role> roles_;
    std::map<std::string, std::string> referenceLevels_;
    RolesValidator validator_;
};

}  // namespace ppsynth::ui
