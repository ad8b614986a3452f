#include "ui/setup/synthesizers_page.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>
#include <set>
#include <utility>

#include "ppsynth/study/validate.hpp"
#include "ui/setup/exact_spin_box.hpp"
#include "ui/setup/knob_editor.hpp"
#include "ui/setup/weight_preview_panel.hpp"

namespace ppsynth::ui {

namespace {
bool isLipschitz(SynthesizerRow::Kind kind) {
    return kind == SynthesizerRow::LW || kind == SynthesizerRow::LWM;
}
}  // namespace

SynthesizersPage::SynthesizersPage(QWidget* parent) : QWidget(parent) {
    auto* columns = new QHBoxLayout(this);
    auto* left = new QVBoxLayout;
    auto* bar = new QHBoxLayout;
    add_ = new QPushButton(tr("Add synthesizer"));
    add_->setToolTip(
        tr("Add a synthesizer to the comparison. Several of one kind may be compared, e.g. LW "
           "at c = 0.5 and at c = 0.7."));
    addMenu_ = new QMenu(add_);
    addMenu_->setToolTipsVisible(true);
    for (int k = 0; k < SynthesizerRow::KindCount; ++k) {
        const auto kind = Kind(k);
        QAction* action = addMenu_->addAction(SynthesizerRow::title(kind));
        action->setToolTip(SynthesizerRow::about(kind));
        action->setData(k);
        connect(action, &QAction::triggered, this, [this, kind] {
            SynthesizerRow* row = addRow(kind);
            QTimer::singleShot(0, row, [this, row] { scroll_->ensureWidgetVisible(row); });
        });
    }
    add_->setMenu(addMenu_);
    bar->addWidget(add_);
    auto* hint = new QLabel(tr("Each synthesizer below is fitted in the run and compared."));
    hint->setStyleSheet(QStringLiteral("color: #555;"));
    bar->addWidget(hint, 1);
    left->addLayout(bar);

    scroll_ = new QScrollArea;
    scroll_->setWidgetResizable(true);
    scroll_->setFrameShape(QFrame::NoFrame);
    auto* host = new QWidget;
    list_ = new QVBoxLayout(host);
    list_->addStretch(1);
    scroll_->setWidget(host);
    left->addWidget(scroll_, 1);
    columns->addLayout(left, 3);

    auto* right = new QVBoxLayout;
    right->addWidget(buildRunGroup());
    preview_ = new WeightPreviewPanel;
    right->addWidget(preview_, 1);
    columns->addLayout(right, 2);

    // Defaults: the papers' core comparison.
    addRow(Kind::Unweighted);
    addRow(Kind::LW);
    addRow(Kind::EM);
}

QWidget* SynthesizersPage::buildRunGroup() {
    auto* box = new QGroupBox(tr("Synthesis and risk"));
    auto* form = new QFormLayout(box);
    // Core sets no upper limit on m and L (the least is study::validate's).
    const int most = std::numeric_limits<int>::max();
    m_ = new QSpinBox;
    m_->setRange(study::limits::kDatasets, most);
    m_->setValue(20);
    m_->setToolTip(
        tr("m: how many synthetic datasets are released. Each costs its epsilon "
           "again: the total epsilon is m times the per-dataset epsilon."));
    L_ = new QSpinBox;
    L_->setRange(study::limits::kDatasets, most);
    L_->setValue(20);
    L_->setToolTip(
        tr("L: over how many synthetic datasets the identification risk IR_i is "
           "averaged."));
    r_ = new KnobEditor({tr("r (radius)"),
                         tr("r, the identification-risk radius: a synthetic value within r of "
                            "a record's true value (r as a fraction of it, 0.20 = 20%) counts "
                            "as close, i.e. an intruder could single the record out."),
                         0.01,
                         1.0,
                         0.01,
                         0.2,
                         2,
                         false,
                         {}});
    radiusMode_ = new QComboBox;
    radiusMode_->addItem(tr("fraction of the record's value"), true);
    radiusMode_->addItem(tr("absolute, in units of y"), false);
    radiusMode_->setToolTip(
        tr("How r is measured: |y*_h - y_i| < r |y_i| (a fraction, 0.20 = 20%) or "
           "|y*_h - y_i| < r (absolute, in the units of the sensitive variable)."));
    form->addRow(tr("Datasets released m"), m_);
    form->addRow(tr("Risk datasets L"), L_);
    form->addRow(r_);
    form->addRow(tr("r is"), radiusMode_);
    // Several sensitive variables: a box, one radius per variable (r unless changed).
    radiiBox_ = new QWidget;
    auto* radiiLayout = new QVBoxLayout(radiiBox_);
    radiiLayout->setContentsMargins(0, 0, 0, 0);
    auto* radiiNote = new QLabel(
        tr("Several sensitive variables: a synthetic record is close to a true one when every "
           "variable is within its own radius (a box). Each takes r unless set here."));
    radiiNote->setWordWrap(true);
    radiiLayout->addWidget(radiiNote);
    radiiForm_ = new QFormLayout;
    radiiLayout->addLayout(radiiForm_);
    radiiBox_->hide();
    form->addRow(radiiBox_);
    connect(m_, &QSpinBox::valueChanged, this, &SynthesizersPage::changed);
    connect(L_, &QSpinBox::valueChanged, this, &SynthesizersPage::changed);
    connect(r_, &KnobEditor::changed, this, [this] {
        showInheritedRadii();
        emit changed();
    });
    connect(radiusMode_, &QComboBox::currentIndexChanged, this, [this] {
        updateRadiusRange();
        emit changed();
    });
    return box;
}

// A fraction lives in (0, 1]; an absolute radius is in the units of y, which may be large
// (incomes), so only its sign is bounded.
void SynthesizersPage::updateRadiusRange() {
    const bool fraction = radiusMode_->currentData().toBool();
    if (fraction)
        r_->setRange(study::limits::kSmallestPositive, 1.0, 0.01);
    else
        r_->setRange(study::limits::kSmallestPositive, 1e9, 1.0);
    for (auto& [name, box] : radiusBoxes_) {
        const QSignalBlocker block(box);
        box->setRange(study::limits::kSmallestPositive, fraction ? 1.0 : 1e9);
        box->setSingleStep(fraction ? 0.01 : 1.0);
        const auto own = ownRadii_.find(name);
        box->setExactValue(own != ownRadii_.end() ? own->second : r_->value());
    }
}

void SynthesizersPage::setTargets(const std::vector<std::string>& targets) {
    if (targets == targets_) return;
    targets_ = targets;
    rebuildRadii();
}

ExactSpinBox* SynthesizersPage::radiusBox(const std::string& target) const {
    const auto it = radiusBoxes_.find(target);
    return it == radiusBoxes_.end() ? nullptr : it->second;
}

// One radius box per sensitive variable, with two or more; a variable keeps a radius of its
// own while it stays sensitive.
void SynthesizersPage::rebuildRadii() {
    while (radiiForm_->rowCount() > 0) radiiForm_->removeRow(0);
    radiusBoxes_.clear();
    radiiBox_->setVisible(targets_.size() > 1);
    if (targets_.size() < 2) return;
    for (const auto& t : targets_) {
        auto* box = new ExactSpinBox;
        box->setDecimals(2);
        box->setToolTip(tr("The box's radius for %1: a synthetic value within it (as r is "
                           "measured) counts as close on this variable.")
                            .arg(QString::fromStdString(t)));
        radiusBoxes_[t] = box;
        radiiForm_->addRow(tr("r for %1").arg(QString::fromStdString(t)), box);
        connect(box, &QDoubleSpinBox::valueChanged, this, [this, t, box] {
            ownRadii_[t] = box->exactValue();
            emit changed();
        });
    }
    updateRadiusRange();
}

// Variables without a radius of their own show r.
void SynthesizersPage::showInheritedRadii() {
    for (auto& [name, box] : radiusBoxes_)
        if (!ownRadii_.count(name)) {
            const QSignalBlocker block(box);
            box->setExactValue(r_->value());
        }
}

SynthesizerRow* SynthesizersPage::insertRow(int index, Kind kind, const QString& name,
                                            const study::SynthesizerConfig* loaded) {
    auto* row = new SynthesizerRow(kind);
    if (loaded)
        row->load(*loaded);
    else
        row->setName(name);
    rows_.insert(rows_.begin() + index, row);
    list_->insertWidget(index, row);
    connect(row, &SynthesizerRow::changed, this, &SynthesizersPage::changed);
    connect(row, &SynthesizerRow::knobMoved, this, [this, row] {
        if (!isLipschitz(row->kind())) return;
        previewRow_ = row;
        refreshPreview();
    });
    // References follow a renamed synthesizer.
    connect(row, &SynthesizerRow::renamed, this, [this](const QString& from, const QString& to) {
        for (SynthesizerRow* r : rows_) r->renameReference(from, to);
        updateTargets();
    });
    connect(row, &SynthesizerRow::duplicateRequested, this, [this, row] { duplicateRow(row); });
    connect(row, &SynthesizerRow::removeRequested, this, [this, row] { removeRow(row); });
    return row;
}

QString SynthesizersPage::unusedName(const QString& wanted) const {
    auto used = [this](const QString& n) {
        return std::any_of(rows_.begin(), rows_.end(),
                           [&n](const SynthesizerRow* r) { return r->name() == n; });
    };
    if (!used(wanted)) return wanted;
    // "LW 2" duplicated is "LW 3", not "LW 2 2".
    static const QRegularExpression numbered(QStringLiteral("^(.*) (\\d+)$"));
    const auto m = numbered.match(wanted);
    const QString stem = m.hasMatch() ? m.captured(1) : wanted;
    for (int i = 2;; ++i) {
        const QString n = QStringLiteral("%1 %2").arg(stem).arg(i);
        if (!used(n)) return n;
    }
}

SynthesizerRow* SynthesizersPage::addRow(Kind kind) {
    SynthesizerRow* row =
        insertRow(rowCount(), kind, unusedName(SynthesizerRow::defaultName(kind)));
    // EM matches, a re-weighting starts from, the first synthesizer with its own record
    // weights (not a scalar or re-weighted one).
    if (kind == Kind::EM || kind == Kind::Reweighted) {
        const auto first = std::find_if(rows_.begin(), rows_.end(), [](const SynthesizerRow* r) {
            return SynthesizerRow::hasRecordWeights(r->kind()) && r->kind() != Kind::EM &&
                   r->kind() != Kind::Reweighted;
        });
        const QString target = first != rows_.end() ? (*first)->name() : QString();
        if (kind == Kind::EM)
            row->setMatch(target);
        else
            row->setBase(target);
    }
    updateTargets();
    emit changed();
    return row;
}

SynthesizerRow* SynthesizersPage::duplicateRow(SynthesizerRow* source) {
    const auto at = std::find(rows_.begin(), rows_.end(), source);
    if (at == rows_.end()) return nullptr;
    study::SynthesizerConfig s = source->config();
    s.name = unusedName(source->name()).toStdString();
    SynthesizerRow* row =
        insertRow(int(at - rows_.begin()) + 1, source->kind(), QString::fromStdString(s.name), &s);
    updateTargets();
    emit changed();
    return row;
}

void SynthesizersPage::removeRow(SynthesizerRow* row) {
    const auto at = std::find(rows_.begin(), rows_.end(), row);
    if (at == rows_.end()) return;
    rows_.erase(at);
    list_->removeWidget(row);
    row->hide();
    row->deleteLater();  // it may be the sender of the click that removes it
    updateTargets();
    refreshPreview();
    emit changed();
}

void SynthesizersPage::clearRows() {
    for (SynthesizerRow* row : std::exchange(rows_, {})) {
        list_->removeWidget(row);
        row->hide();
        row->deleteLater();
    }
}

SynthesizerRow* SynthesizersPage::firstRow(Kind kind) const {
    const auto it = std::find_if(rows_.begin(), rows_.end(),
                                 [kind](const SynthesizerRow* r) { return r->kind() == kind; });
    return it != rows_.end() ? *it : nullptr;
}

SynthesizerRow* SynthesizersPage::findRow(const QString& name) const {
    const auto it = std::find_if(rows_.begin(), rows_.end(),
                                 [&name](const SynthesizerRow* r) { return r->name() == name; });
    return it != rows_.end() ? *it : nullptr;
}

// Each EM row may match any other weighted synthesizer (and keeps showing an unweighted one
// a configuration named); a re-weighting may start from any other weighted one, as core
// allows.
void SynthesizersPage::updateTargets() {
    for (SynthesizerRow* row : rows_) {
        QStringList match, base;
        for (const SynthesizerRow* other : rows_) {
            if (other == row) continue;
            const QString n = QString::fromStdString(other->configName());
            const bool weighted = SynthesizerRow::hasRecordWeights(other->kind());
            if (weighted || n == row->match()) match << n;
            if (weighted) base << n;
        }
        row->setCandidates(match, base);
    }
}

void SynthesizersPage::refreshPreview() {
    SynthesizerRow* row = previewRow_;
    if (!row || std::find(rows_.begin(), rows_.end(), row) == rows_.end()) {
        const auto it = std::find_if(rows_.begin(), rows_.end(), [](const SynthesizerRow* r) {
            return isLipschitz(r->kind());
        });
        row = it != rows_.end() ? *it : nullptr;
    }
    if (!row) {
        preview_->clearPreview(tr("Add an LW or LW-M synthesizer to preview its weights here."));
        return;
    }
    const KnobEditor* M = row->knob(QStringLiteral("M"));
    preview_->preview(row->name(), row->knob(QStringLiteral("c"))->value(),
                      row->knob(QStringLiteral("g"))->value(),
                      M ? std::optional(M->value()) : std::nullopt);
}

Status SynthesizersPage::apply(study::RunConfig& config) const {
    config.synthesis.m = m_->value();
    config.risk.L = L_->value();
    config.risk.radius = r_->value();
    config.risk.percentage = radiusMode_->currentData().toBool();
    config.risk.radii.clear();
    if (config.data.targets.size() > 1)
        for (const auto& t : config.data.targets)
            if (const auto it = ownRadii_.find(t); it != ownRadii_.end())
                config.risk.radii[t] = it->second;
    config.synthesizers.clear();
    if (rows_.empty())
        return Error{tr("Add at least one synthesizer to run (Add synthesizer, above the list).")
                         .toStdString()};
    std::set<std::string> names;
    for (const SynthesizerRow* row : rows_) {
        if (row->name().isEmpty())
            return Error{tr("Give the %1 synthesizer a name.")
                             .arg(SynthesizerRow::title(row->kind()))
                             .toStdString()};
        if (const QString problem = row->nameProblem(); !problem.isEmpty())
            return Error{tr("Rename the %1 synthesizer: %2.")
                             .arg(SynthesizerRow::title(row->kind()), problem)
                             .toStdString()};
        if (!names.insert(row->configName()).second)
            return Error{
                tr("Two synthesizers are called '%1': rename one.").arg(row->name()).toStdString()};
    }
    for (const SynthesizerRow* row : rows_) {
        study::SynthesizerConfig s = row->config();
        const QString name = row->name();
        if (row->kind() == Kind::EM && !s.epsilon) {
            if (s.match.empty())
                return Error{tr("EM '%1' matches the epsilon of another synthesizer: choose "
                                "which (add LW, CW or another weighted synthesizer first), or "
                                "give it a fixed epsilon.")
                                 .arg(name)
                                 .toStdString()};
            if (!names.count(s.match))
                return Error{tr("EM '%1' matches the epsilon of '%2', which is not in the list "
                                "any more: choose another.")
                                 .arg(name, QString::fromStdString(s.match))
                                 .toStdString()};
        }
        if (row->kind() == Kind::Reweighted) {
            if (s.base.empty())
                return Error{tr("Re-weighting '%1' starts from a weighted synthesizer: choose "
                                "which (add LW, CW or another weighted synthesizer first).")
                                 .arg(name)
                                 .toStdString()};
            if (!names.count(s.base))
                return Error{tr("Re-weighting '%1' starts from '%2', which is not in the list "
                                "any more: choose another.")
                                 .arg(name, QString::fromStdString(s.base))
                                 .toStdString()};
        }
        config.synthesizers.push_back(std::move(s));
    }
    if (study::executionOrder(config).size() != config.synthesizers.size())
        return Error{tr("The synthesizers' targets go round in a circle (an EM matching a "
                        "synthesizer that depends on it): let one of them match or start from "
                        "another synthesizer.")
                         .toStdString()};
    return {};
}

void SynthesizersPage::load(const study::RunConfig& config) {
    m_->setValue(config.synthesis.m);
    L_->setValue(config.risk.L);
    // The mode first: its range must hold the radius before the radius is set.
    radiusMode_->setCurrentIndex(radiusMode_->findData(config.risk.percentage));
    updateRadiusRange();
    r_->setValue(config.risk.radius);
    ownRadii_ = config.risk.radii;
    targets_ = config.data.targets;
    rebuildRadii();
    clearRows();
    for (const auto& s : config.synthesizers)
        insertRow(rowCount(), SynthesizerRow::kindOf(s), QString::fromStdString(s.name), &s);
    previewRow_ = nullptr;
    updateTargets();
    refreshPreview();
    emit changed();
}

}  // namespace ppsynth::ui

#include "moc_synthesizers_page.cpp"
