#include "ui/column_panel.hpp"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QStringList>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/table_model.hpp"

namespace ppsynth::ui {

namespace {

struct RoleChoice {
    data::Role role;
    const char* text;
    const char* tip;
};
// Sensitive y comes last: stepping through the list with the keyboard must not pass
// over it (choosing it adds a sensitive variable to the synthesis order).
constexpr RoleChoice kRoles[] = {
    {data::Role::Ignored, QT_TRANSLATE_NOOP("ColumnPanel", "Ignored"),
     QT_TRANSLATE_NOOP("ColumnPanel", "Not used by the model")},
    {data::Role::Predictor, QT_TRANSLATE_NOOP("ColumnPanel", "Predictor"),
     QT_TRANSLATE_NOOP("ColumnPanel", "Used to predict y, not assumed known to an intruder")},
    {data::Role::Known, QT_TRANSLATE_NOOP("ColumnPanel", "Known variable"),
     QT_TRANSLATE_NOOP(
         "ColumnPanel",
         "A categorical predictor an intruder is assumed to know (defines risk patterns)")},
    {data::Role::Target, QT_TRANSLATE_NOOP("ColumnPanel", "Sensitive y"),
     QT_TRANSLATE_NOOP("ColumnPanel",
                       "A variable to synthesize (numeric or count). Several may be chosen: they "
                       "are synthesized in the order listed under the columns")},
};
constexpr data::ColumnType kTypes[] = {data::ColumnType::Numeric, data::ColumnType::Count,
                                       data::ColumnType::Categorical, data::ColumnType::Text};

int typeIndex(data::ColumnType t) {
    for (int i = 0; i < 4; ++i)
        if (kTypes[i] == t) return i;
    return 0;
}

}  // namespace

ColumnPanel::ColumnPanel(TableModel* model, QWidget* parent)
    : QWidget(parent),
      model_(model),
      rowsHost_(new QWidget),
      grid_(new QGridLayout),
      summary_(new QLabel(this)),
      orderBox_(new QWidget(this)),
      order_(new QListWidget(orderBox_)),
      up_(new QPushButton(tr("Up"), orderBox_)),
      down_(new QPushButton(tr("Down"), orderBox_)) {
    auto* hostLayout = new QVBoxLayout(rowsHost_);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    hostLayout->addLayout(grid_);
    hostLayout->addStretch(1);
    grid_->setColumnStretch(0, 1);
    grid_->setHorizontalSpacing(6);
    grid_->setVerticalSpacing(2);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setWidget(rowsHost_);
    scroll->setFrameShape(QFrame::NoFrame);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* title = new QLabel(tr("<b>Columns</b>"), this);
    layout->addWidget(title);
    layout->addWidget(scroll, 1);
    layout->addWidget(orderBox_);
    layout->addWidget(summary_);
    // The synthesis order of several sensitive variables (METHOD.md section 9).
    auto* orderLayout = new QVBoxLayout(orderBox_);
    orderLayout->setContentsMargins(0, 4, 0, 0);
    auto* orderTitle = new QLabel(
        tr("<b>Synthesis order</b> of the sensitive variables: the first is synthesized first, "
           "each later one given the predictors and the ones above it."),
        orderBox_);
    orderTitle->setWordWrap(true);
    orderLayout->addWidget(orderTitle);
    auto* orderRow = new QHBoxLayout;
    order_->setObjectName(QStringLiteral("targetOrder"));
    order_->setToolTip(
        tr("One model per sensitive variable, in this order; one epsilon covers them all."));
    order_->setMaximumHeight(4 * order_->fontMetrics().height() + 12);
    orderRow->addWidget(order_, 1);
    auto* buttons = new QVBoxLayout;
    up_->setToolTip(tr("Synthesize the selected variable earlier"));
    down_->setToolTip(tr("Synthesize the selected variable later"));
    buttons->addWidget(up_);
    buttons->addWidget(down_);
    buttons->addStretch(1);
    orderRow->addLayout(buttons);
    orderLayout->addLayout(orderRow);
    orderBox_->hide();
    connect(up_, &QPushButton::clicked, this, [this] { moveTarget(-1); });
    connect(down_, &QPushButton::clicked, this, [this] { moveTarget(+1); });
    connect(order_, &QListWidget::currentRowChanged, this, [this](int row) {
        up_->setEnabled(row > 0);
        down_->setEnabled(row >= 0 && row + 1 < order_->count());
    });
    connect(model_, &QAbstractItemModel::modelReset, this, &ColumnPanel::rebuild);
    rebuild();
}

void ColumnPanel::setRolesValidator(RolesValidator validator) {
    validator_ = std::move(validator);
    updateRolesSummary();
}

void ColumnPanel::rebuild() {
    for (auto& r : rows_) {
        delete r.name;
        delete r.role;
        delete r.type;
        delete r.icon;
        delete r.message;
    }
    rows_.clear();
    // Header row.
    if (grid_->count() == 0) {
        grid_->addWidget(new QLabel(tr("Name")), 0, 0);
        grid_->addWidget(new QLabel(tr("Role")), 0, 1);
        grid_->addWidget(new QLabel(tr("Type")), 0, 2);
    }
    const int n = model_->columnCount();
    roles_.assign(static_cast<std::size_t>(n), data::Role::Ignored);
    targetOrder_.clear();
    referenceLevels_.clear();
    const auto table = model_->table();
    const int iconSize = style()->pixelMetric(QStyle::PM_SmallIconSize);
    for (int c = 0; c < n; ++c) {
        const auto& col = table->column(static_cast<std::size_t>(c));
        Row r;
        r.name = new QLabel(QString::fromStdString(col.name()));
        r.name->setToolTip(model_->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
        r.role = new QComboBox;
        for (const auto& choice : kRoles) {
            r.role->addItem(tr(choice.text), int(choice.role));
            r.role->setItemData(r.role->count() - 1, tr(choice.tip), Qt::ToolTipRole);
        }
        r.type = new QComboBox;
        for (auto t : kTypes) r.type->addItem(typeName(t), int(t));
        r.type->setCurrentIndex(typeIndex(col.type()));
        r.icon = new QLabel;
        r.icon->setPixmap(
            style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize, iconSize));
        r.message = new QLabel;
        r.message->setWordWrap(true);
        r.message->setTextFormat(Qt::PlainText);
        r.message->setStyleSheet(QStringLiteral("color: #b3261e;"));
        r.icon->hide();
        r.message->hide();
        const int gridRow = 1 + 2 * c;
        grid_->addWidget(r.name, gridRow, 0);
        grid_->addWidget(r.role, gridRow, 1);
        grid_->addWidget(r.type, gridRow, 2);
        grid_->addWidget(r.icon, gridRow + 1, 0, Qt::AlignRight | Qt::AlignTop);
        grid_->addWidget(r.message, gridRow + 1, 1, 1, 2);
        connect(r.role, &QComboBox::currentIndexChanged, this, [this, c] { onRoleChosen(c); });
        connect(r.type, &QComboBox::currentIndexChanged, this, [this, c] { onTypeChosen(c); });
        rows_.push_back(r);
        // A column read as numbers with a few cells that are none: where they are and what
        // to do, beside the column.
        setMessage(c, QString::fromStdString(col.unreadMessage()));
    }
    updateOrderList();
    updateRolesSummary();
    emit rolesChanged();  // every column is ignored again
}

data::Role ColumnPanel::role(int column) const {
    return roles_.at(static_cast<std::size_t>(column));
}

data::Roles ColumnPanel::roles() const {
    data::Roles out;
    const auto table = model_->table();
    if (!table) return out;
    for (std::size_t k = 0; k < targetOrder_.size(); ++k) {
        const auto& name = table->column(static_cast<std::size_t>(targetOrder_[k])).name();
        if (k == 0)
            out.target = name;
        else
            out.alsoComplete.push_back(name);
    }
    for (std::size_t c = 0; c < roles_.size(); ++c) {
        const auto& name = table->column(c).name();
        switch (roles_[c]) {
            case data::Role::Ignored:
            case data::Role::Target:
                break;
            case data::Role::Known:
                out.known.push_back(name);
                out.predictors.push_back(name);  // known implies predictor
                break;
            case data::Role::Predictor:
                out.predictors.push_back(name);
                break;
        }
    }
    for (const auto& name : out.predictors)
        if (auto it = referenceLevels_.find(name); it != referenceLevels_.end())
            out.referenceLevels.insert(*it);
    return out;
}

std::vector<std::string> ColumnPanel::targets() const {
    std::vector<std::string> out;
    const auto table = model_->table();
    if (!table) return out;
    for (const int c : targetOrder_)
        out.push_back(table->column(static_cast<std::size_t>(c)).name());
    return out;
}

void ColumnPanel::setTargetOrder(const std::vector<std::string>& order) {
    const auto table = model_->table();
    if (!table) return;
    std::vector<int> sorted;
    for (const auto& name : order)
        if (const auto i = table->indexOf(name)) {
            const int c = static_cast<int>(*i);
            if (std::find(targetOrder_.begin(), targetOrder_.end(), c) != targetOrder_.end() &&
                std::find(sorted.begin(), sorted.end(), c) == sorted.end())
                sorted.push_back(c);
        }
    for (const int c : targetOrder_)
        if (std::find(sorted.begin(), sorted.end(), c) == sorted.end()) sorted.push_back(c);
    if (sorted == targetOrder_) return;
    targetOrder_ = std::move(sorted);
    updateOrderList();
    updateRolesSummary();
    emit rolesChanged();
}

void ColumnPanel::moveTarget(int by) {
    const int row = order_->currentRow();
    const int to = row + by;
    if (row < 0 || to < 0 || to >= static_cast<int>(targetOrder_.size())) return;
    std::swap(targetOrder_[static_cast<std::size_t>(row)],
              targetOrder_[static_cast<std::size_t>(to)]);
    updateOrderList();
    order_->setCurrentRow(to);
    updateRolesSummary();
    emit rolesChanged();
}

void ColumnPanel::updateOrderList() {
    const auto names = targets();
    const QSignalBlocker block(order_);
    const int current = order_->currentRow();
    order_->clear();
    for (std::size_t k = 0; k < names.size(); ++k)
        order_->addItem(tr("%1. %2").arg(qulonglong(k + 1)).arg(QString::fromStdString(names[k])));
    order_->setCurrentRow(std::min(current, order_->count() - 1));
    up_->setEnabled(order_->currentRow() > 0);
    down_->setEnabled(order_->currentRow() >= 0 && order_->currentRow() + 1 < order_->count());
    orderBox_->setVisible(names.size() > 1);
}

void ColumnPanel::setReferenceLevels(std::map<std::string, std::string> levels) {
    referenceLevels_ = std::move(levels);
    updateRolesSummary();
}

QComboBox* ColumnPanel::roleCombo(int column) const {
    return rows_.at(static_cast<std::size_t>(column)).role;
}
QComboBox* ColumnPanel::typeCombo(int column) const {
    return rows_.at(static_cast<std::size_t>(column)).type;
}

QString ColumnPanel::message(int column) const {
    const auto& r = rows_.at(static_cast<std::size_t>(column));
    return r.message->isHidden() ? QString() : r.message->text();
}

QString ColumnPanel::rolesSummary() const {
    return summary_->text();
}

void ColumnPanel::onRoleChosen(int column) {
    const auto chosen = static_cast<data::Role>(
        rows_[static_cast<std::size_t>(column)].role->currentData().toInt());
    // A new sensitive variable is synthesized after those chosen before it.
    const auto at = std::find(targetOrder_.begin(), targetOrder_.end(), column);
    if (chosen == data::Role::Target && at == targetOrder_.end()) targetOrder_.push_back(column);
    if (chosen != data::Role::Target && at != targetOrder_.end()) targetOrder_.erase(at);
    roles_[static_cast<std::size_t>(column)] = chosen;
    updateOrderList();
    updateRolesSummary();
    emit rolesChanged();
}

void ColumnPanel::onTypeChosen(int column) {
    auto& r = rows_[static_cast<std::size_t>(column)];
    const auto wanted = static_cast<data::ColumnType>(r.type->currentData().toInt());
    const auto status = model_->setColumnType(column, wanted);
    if (status) {
        setMessage(column,
                   QString::fromStdString(
                       model_->table()->column(static_cast<std::size_t>(column)).unreadMessage()));
    } else {
        // Leave the column as it was and say why beside it, not in a modal box.
        const auto current = model_->table()->column(static_cast<std::size_t>(column)).type();
        const QSignalBlocker block(r.type);
        r.type->setCurrentIndex(typeIndex(current));
        setMessage(column, QString::fromStdString(status.message()));
    }
    r.name->setToolTip(model_->headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString());
    updateRolesSummary();
}

void ColumnPanel::setMessage(int column, const QString& text) {
    auto& r = rows_[static_cast<std::size_t>(column)];
    r.message->setText(text);
    r.message->setVisible(!text.isEmpty());
    r.icon->setVisible(!text.isEmpty());
    r.type->setToolTip(text);
}

void ColumnPanel::updateRolesSummary() {
    const auto table = model_->table();
    if (!table || table->columnCount() == 0) {
        summary_->setText(tr("No data loaded."));
        return;
    }
    const auto r = roles();
    QStringList names;
    for (const auto& t : targets()) names << QString::fromStdString(t);
    QString text =
        names.isEmpty() ? tr("Sensitive y: not chosen")
        : names.size() == 1
            ? tr("Sensitive y: %1").arg(names.front())
            : tr("Sensitive y: %1 (synthesized in this order)").arg(names.join(tr(", then ")));
    const auto np = r.predictors.size();
    text += np == 1 ? tr("; 1 predictor") : tr("; %1 predictors").arg(qulonglong(np));
    text += tr(", %1 known").arg(qulonglong(r.known.size()));
    if (validator_) {
        // Each sensitive variable is checked as a target (numeric or count, not a predictor).
        auto each = r;
        for (const auto& t : targets()) {
            each.target = t;
            if (const auto s = validator_(each, *table); !s) {
                text += QLatin1Char('\n') + QString::fromStdString(s.message());
                break;
            }
        }
        if (r.target.empty())
            if (const auto s = validator_(r, *table); !s)
                text += QLatin1Char('\n') + QString::fromStdString(s.message());
    }
    summary_->setText(text);
}

}  // namespace ppsynth::ui

#include "moc_column_panel.cpp"
