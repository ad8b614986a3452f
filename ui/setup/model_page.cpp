#include "ui/setup/model_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QThread>
#include <QVBoxLayout>
#include <QValidator>
#include <algorithm>
#include <limits>
#include <optional>

#include "ppsynth/data/transform.hpp"
#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/priors.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/targets.hpp"
#include "ppsynth/study/validate.hpp"
#include "ui/setup/exact_spin_box.hpp"

namespace ppsynth::ui {

namespace {

// Core sets lower limits only (study::limits, the least values study::validate accepts).
constexpr int kMost = std::numeric_limits<int>::max();

// A seed: up to 20 digits that fit in 64 bits. Left empty, the box gets `last` back.
class SeedValidator : public QValidator {
  public:
    SeedValidator(const std::uint64_t* last, QObject* parent) : QValidator(parent), last_(last) {}
    State validate(QString& input, int& /*pos*/) const override {
        if (input.isEmpty()) return Intermediate;
        for (const QChar ch : input)
            if (ch < QLatin1Char('0') || ch > QLatin1Char('9')) return Invalid;
        bool ok = false;
        input.toULongLong(&ok);
        return ok ? Acceptable : Invalid;
    }
    void fixup(QString& input) const override {
        if (input.isEmpty()) input = QString::number(*last_);
    }

  private:
    const std::uint64_t* last_;
};

QSpinBox* spin(int lo, int hi, int value, const QString& tip) {
    auto* s = new QSpinBox;
    s->setRange(lo, hi);
    s->setValue(value);
    s->setToolTip(tip);
    return s;
}

}  // namespace

ModelPage::ModelPage(QWidget* parent) : QWidget(parent) {
    auto* page = new QVBoxLayout(this);
    page->addWidget(buildVariableBar());
    auto* columns = new QHBoxLayout;
    page->addLayout(columns, 1);
    auto* left = new QVBoxLayout;
    left->addWidget(buildModelGroup());
    left->addWidget(buildMcmcGroup());
    left->addStretch(1);
    columns->addLayout(left, 1);
    auto* right = new QVBoxLayout;
    right->addWidget(buildPriorGroup());
    right->addStretch(1);
    columns->addLayout(right, 1);
    updateRelevance();
    updateUntilConverged();
    updateVariableBar();
}

// Several sensitive variables: which one's model the groups below show.
QWidget* ModelPage::buildVariableBar() {
    variableBar_ = new QWidget;
    auto* row = new QHBoxLayout(variableBar_);
    row->setContentsMargins(0, 0, 0, 0);
    variable_ = new QComboBox;
    variable_->setObjectName(QStringLiteral("sensitiveVariable"));
    variable_->setToolTip(
        tr("Each sensitive variable has its own model: family, K, transform, priors and "
           "coefficient scales. They are synthesized in the Data page's order, each given the "
           "predictors and the variables before it."));
    auto* label = new QLabel(tr("<b>Model of</b>"));
    auto* note = new QLabel(
        tr("One model per sensitive variable (family, transform, priors and coefficient "
           "scales), in the synthesis order of the Data page; the other MCMC settings and the "
           "missing-value rule are shared."));
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: #555;"));
    row->addWidget(label);
    row->addWidget(variable_);
    row->addWidget(note, 1);
    defaultNote_ = new QLabel;
    defaultNote_->setObjectName(QStringLiteral("modelDefaultNote"));
    defaultNote_->setWordWrap(true);
    defaultNote_->hide();
    connect(variable_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) showVariable(variable_->itemData(index).toString().toStdString());
    });
    auto* bar = new QWidget;
    auto* column = new QVBoxLayout(bar);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(variableBar_);
    column->addWidget(defaultNote_);
    return bar;
}

QWidget* ModelPage::buildModelGroup() {
    auto* box = new QGroupBox(tr("Synthesizer model"));
    modelGroup_ = box;
    auto* form = new QFormLayout(box);
    family_ = new QComboBox;
    for (const auto& f : models::familyRegistry()) {
        family_->addItem(QString::fromStdString(f.label), QString::fromStdString(f.id));
        family_->setItemData(family_->count() - 1, QString::fromStdString(f.tooltip),
                             Qt::ToolTipRole);
    }
    family_->setToolTip(tr("The model the synthetic y are drawn from (its posterior predictive)."));
    form->addRow(tr("Family"), family_);
    K_ = spin(study::limits::kComponents, kMost, 20,
              tr("K: the most mixture components the model may use. The Dirichlet prior lets "
                 "unneeded components empty out, so K is an upper bound, not a guess."));
    form->addRow(tr("Components K"), K_);
    transform_ = new QComboBox;
    for (const auto kind : data::kTransformKinds) {
        const std::string_view name = data::toString(kind);
        transform_->addItem(QString::fromLatin1(name.data(), static_cast<qsizetype>(name.size())));
    }
    transform_->setToolTip(
        tr("How y is transformed before modelling (synthetic values are transformed back). "
           "log-shift handles zeros; count families need \"none\"."));
    form->addRow(tr("Transform of y"), transform_);
    transformNote_ = new QLabel;
    transformNote_->setWordWrap(true);
    transformNote_->setTextFormat(Qt::PlainText);
    transformNote_->hide();
    form->addRow(transformNote_);
    missing_ = new QComboBox;
    missing_->addItem(tr("Stop with an error"), QStringLiteral("error"));
    missing_->addItem(tr("Leave out incomplete records"), QStringLiteral("listwise"));
    missing_->setToolTip(tr("What to do with records that have a missing y or predictor."));
    form->addRow(tr("Missing values"), missing_);
    familyNote_ = new QLabel;
    familyNote_->setWordWrap(true);
    form->addRow(familyNote_);
    connect(family_, &QComboBox::currentIndexChanged, this, [this] {
        // The mixture runs until converged by default, the other families a fixed length.
        if (!untilConvergedChosen_ && !switching_ && untilConverged_ != nullptr)
            untilConverged_->setChecked(family_->currentData().toString() == "normal-mixture");
        updateRelevance();
        emit changed();
    });
    connect(K_, &QSpinBox::valueChanged, this, &ModelPage::changed);
    connect(transform_, &QComboBox::currentIndexChanged, this, [this] {
        updateTransformNote();
        emit changed();
    });
    return box;
}

QWidget* ModelPage::buildPriorGroup() {
    auto* box = new QGroupBox(tr("Priors"));
    priorGroup_ = box;
    auto* layout = new QVBoxLayout(box);
    auto* form = new QFormLayout;
    for (const auto& p : models::priorCatalogue()) {
        // Any positive value: a configured one with more decimals or beyond the range is
        // shown as it is (ExactSpinBox).
        const QString tip = QString::fromStdString(p.description);
        auto* s = new ExactSpinBox;
        s->setDecimals(4);
        s->setRange(0.0001, 1e6);
        s->setSingleStep(0.1);
        s->setExactValue(p.defaultValue());
        s->setToolTip(tip);
        auto* label = new QLabel(QString::fromStdString(p.label));
        label->setToolTip(tip);
        form->addRow(label, s);
        priors_[p.name] = s;
        priorLabels_[p.name] = label;
        connect(s, &QDoubleSpinBox::valueChanged, this, &ModelPage::changed);
    }
    layout->addLayout(form);
    auto* reset = new QPushButton(tr("Reset to defaults"));
    reset->setToolTip(tr("The defaults of METHOD.md section 1 (weakly informative)."));
    connect(reset, &QPushButton::clicked, this, &ModelPage::resetPriors);
    layout->addWidget(reset, 0, Qt::AlignLeft);
    return box;
}

QWidget* ModelPage::buildMcmcGroup() {
    auto* box = new QGroupBox(tr("MCMC"));
    auto* form = new QFormLayout(box);
    const int cores = std::max(1, QThread::idealThreadCount());
    chains_ = spin(study::limits::kChains, kMost, 4,
                   tr("Independent Markov chains; at least 2 to judge convergence "
                      "(R-hat)."));
    warmup_ = spin(study::limits::kWarmup, kMost, 1000,
                   tr("Warm-up iterations per chain: the sampler tunes its step size and "
                      "metric; these draws are discarded."));
    draws_ = spin(study::limits::kDraws, kMost, 1000,
                  tr("Kept posterior draws per chain. The Lipschitz bound is a maximum over "
                     "draws, so more draws give a more careful bound."));
    seed_ = new QLineEdit(QString::number(seedValue_));
    seed_->setValidator(new SeedValidator(&seedValue_, seed_));
    seed_->setToolTip(
        tr("The same seed gives the same result on any machine and with any number of "
           "threads. Any whole number from 0 to 18446744073709551615."));
    connect(seed_, &QLineEdit::textChanged, this, [this](const QString& text) {
        bool ok = false;
        const auto v = text.toULongLong(&ok);
        if (!ok) return;  // emptied while typing: the last number stays the seed
        seedValue_ = v;
        emit changed();
    });
    threads_ = spin(study::limits::kThreads, kMost, std::min(cores, 4),
                    tr("Worker threads for the chains and the risk computation."));
    form->addRow(tr("Chains"), chains_);
    form->addRow(tr("Warm-up"), warmup_);
    untilConverged_ = new QCheckBox(tr("until converged"));
    untilConverged_->setToolTip(
        tr("Sample in blocks of this many draws per chain until the total log-likelihood, "
           "D_s (what epsilon is made of) and the parameters (the mixture's label-invariant "
           "ones) have R-hat below 1.01 and an effective sample size of at least 400 and the "
           "epsilon verdict holds (for the unweighted fit: the chains agree on the record "
           "bounds f_i), or the time budget runs out; epsilon is then marked not converged. "
           "The default for the mixture."));
    auto* drawsRow = new QHBoxLayout;
    drawsRow->addWidget(draws_, 1);
    drawsRow->addWidget(untilConverged_);
    drawsLabel_ = new QLabel(tr("Draws"));
    form->addRow(drawsLabel_, drawsRow);
    budget_ = new ExactSpinBox;
    budget_->setDecimals(0);
    budget_->setRange(1, 1e9);
    budget_->setSuffix(tr(" s"));
    budget_->setExactValue(study::RunConfig{}.mcmc.budgetSeconds);
    budget_->setToolTip(
        tr("How long each fit (warm-up included) may sample until converged. A fit that "
           "reaches it stops after the last block that fits, and its epsilon is marked not "
           "converged."));
    budgetLabel_ = new QLabel(tr("Budget per fit"));
    form->addRow(budgetLabel_, budget_);
    connect(untilConverged_, &QCheckBox::toggled, this, &ModelPage::updateUntilConverged);
    connect(untilConverged_, &QCheckBox::clicked, this, [this] {
        untilConvergedChosen_ = true;
        emit changed();
    });
    connect(budget_, &QDoubleSpinBox::valueChanged, this, &ModelPage::changed);
    form->addRow(tr("Seed"), seed_);
    form->addRow(tr("Threads"), threads_);
    tau_ = new QComboBox;
    tau_->addItem(tr("automatic (recommended)"), "auto");
    tau_->addItem(tr("integrated out"), "integrated");
    tau_->addItem(tr("sampled with the coefficients"), "sampled");
    tau_->setToolTip(
        tr("How the sampler treats each coefficient's scale tau_j. The posterior is the same "
           "every way. Integrated out, the sampler avoids the funnel between a small "
           "coefficient and its tau (which makes NUTS diverge on dummy-coded predictors); "
           "tau is then drawn exactly given the coefficients. For the mixture, where tau_j "
           "is shared by all components, sampling tau is far faster. \"Automatic\" "
           "integrates for one component and samples for the mixture."));
    form->addRow(tr("Coefficient scales"), tau_);
    sampler_ = new QComboBox;
    sampler_->addItem(tr("automatic (recommended)"), "auto");
    sampler_->addItem(tr("NUTS"), "nuts");
    sampler_->addItem(tr("Gibbs (mixture)"), "gibbs");
    sampler_->setToolTip(
        tr("Automatic uses NUTS, except for the mixture with sampled coefficient scales, "
           "which has an exact Gibbs sampler of its own (labels drawn, then each component's "
           "coefficients and scale, the weights, tau and gamma; a Metropolis-Hastings "
           "correction keeps it exact under record weights). A Gibbs sweep costs about one "
           "twentieth of a NUTS iteration, so its warm-up and draws count sweeps."));
    thin_ = spin(study::limits::kThin, kMost, 1,
                 tr("Iterations per kept draw. For the mixture's Gibbs sampler, whose sweeps "
                    "are cheap but strongly autocorrelated, 10 to 20 keeps memory and the "
                    "per-draw work (bounds, synthesis) small while the chains run longer."));
    form->addRow(tr("Sampler"), sampler_);
    samplerNote_ = new QLabel;
    samplerNote_->setObjectName(QStringLiteral("samplerNote"));
    samplerNote_->setWordWrap(true);
    samplerNote_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    samplerNote_->hide();
    form->addRow(samplerNote_);
    form->addRow(tr("Thin"), thin_);
    replicas_ = spin(1, kMost, study::RunConfig{}.mcmc.replicas,
                     tr("Parallel tempering for the mixture's Gibbs sampler: this many copies of "
                        "each chain, copy j with the likelihood raised to a power between the "
                        "hottest (0.1 by default) and 1, swapping states by an exact Metropolis "
                        "test; only the copy at power 1 is kept, so the posterior is the same. "
                        "Each copy costs one more sweep per iteration. 1: no tempering (the "
                        "default: on the income example it did not pay for itself per CPU "
                        "second)."));
    replicas_->setSpecialValueText(tr("off"));
    replicasLabel_ = new QLabel(tr("Tempered copies"));
    form->addRow(replicasLabel_, replicas_);
    for (auto* s : {chains_, warmup_, draws_, threads_, thin_, replicas_})
        connect(s, &QSpinBox::valueChanged, this, &ModelPage::changed);
    connect(tau_, &QComboBox::currentIndexChanged, this, &ModelPage::changed);
    connect(tau_, &QComboBox::currentIndexChanged, this, &ModelPage::updateRelevance);
    connect(sampler_, &QComboBox::currentIndexChanged, this, &ModelPage::updateRelevance);
    connect(sampler_, &QComboBox::currentIndexChanged, this, &ModelPage::changed);
    return box;
}

void ModelPage::updateUntilConverged() {
    const bool on = untilConverged_->isChecked();
    drawsLabel_->setText(on ? tr("Draws per block") : tr("Draws"));
    budget_->setEnabled(on);
    budgetLabel_->setEnabled(on);
}

void ModelPage::updateRelevance() {
    const models::FamilyInfo* family =
        models::findFamily(family_->currentData().toString().toStdString());
    K_->setEnabled(family && family->mixture);
    tau_->setEnabled(!family || family->predictors);
    // The Gibbs sampler exists for the mixture with tau sampled (or automatic) only. It cannot
    // be chosen otherwise, but a configuration that names it keeps it: the run refuses it
    // with core's reason, and the note says so now (the page never changes it silently).
    const bool gibbs =
        family && family->hasSampler("gibbs") && tau_->currentData().toString() != "integrated";
    if (auto* model = qobject_cast<QStandardItemModel*>(sampler_->model()))
        model->item(2)->setEnabled(gibbs);
    const bool misplaced = !gibbs && sampler_->currentIndex() == 2;
    samplerNote_->setText(
        misplaced ? tr("Not applicable: the Gibbs sampler exists only for the normal mixture with "
                       "its coefficient scales sampled or automatic, so a run with it is "
                       "refused. Choose automatic or NUTS.")
                  : QString());
    samplerNote_->setVisible(misplaced);
    const bool tempered = gibbs && sampler_->currentData().toString() != "nuts";
    replicas_->setEnabled(tempered);
    replicasLabel_->setEnabled(tempered);
    for (const auto& p : models::priorCatalogue()) {
        const bool used = family && family->usesPrior(p.name);
        priors_.at(p.name)->setEnabled(used);
        priorLabels_.at(p.name)->setEnabled(used);
    }
    const bool count = family && family->counts;
    familyNote_->setText(count ? tr("Count families model y as it is: the transform must be "
                                    "\"none\".")
                               : QString());
    familyNote_->setVisible(count);
}

void ModelPage::suggestTransform(const std::string& transform, const std::string& reason,
                                 bool apply) {
    suggestedTransform_ = QString::fromStdString(transform);
    suggestedReason_ = QString::fromStdString(reason);
    if (apply) {
        const int t = transform_->findText(suggestedTransform_.isEmpty() ? QStringLiteral("none")
                                                                         : suggestedTransform_);
        if (t >= 0) transform_->setCurrentIndex(t);
    }
    updateTransformNote();
}

void ModelPage::updateTransformNote() {
    // The suggestion is about the data's one suggested sensitive variable: shown with the
    // first variable's model.
    if (suggestedTransform_.isEmpty() || (!targets_.empty() && shownName_ != targets_.front())) {
        transformNote_->hide();
        return;
    }
    const bool followed = transform_->currentText() == suggestedTransform_;
    transformNote_->setText((followed ? tr("%1 is the suggested transform: %2.")
                                      : tr("Suggested transform: %1 (you chose another): %2."))
                                .arg(suggestedTransform_, suggestedReason_));
    transformNote_->show();
}

void ModelPage::resetPriors() {
    for (const auto& p : models::priorCatalogue())
        priors_.at(p.name)->setExactValue(p.defaultValue());
}

ExactSpinBox* ModelPage::priorBox(const std::string& name) const {
    auto it = priors_.find(name);
    return it == priors_.end() ? nullptr : it->second;
}

ModelPage::VariableModel ModelPage::shownModel() const {
    VariableModel m;
    m.family = family_->currentData().toString().toStdString();
    m.K = K_->value();
    m.tau = tau_->currentData().toString().toStdString();
    m.transform = transform_->currentText().toStdString();
    for (const auto& [name, box] : priors_) m.priors[name] = box->exactValue();
    return m;
}

void ModelPage::showModel(const VariableModel& m) {
    switching_ = true;
    const int f = family_->findData(QString::fromStdString(m.family));
    if (f >= 0) family_->setCurrentIndex(f);
    K_->setValue(m.K);
    const int tau = tau_->findData(QString::fromStdString(m.tau));
    tau_->setCurrentIndex(tau >= 0 ? tau : 0);
    const int t = transform_->findText(QString::fromStdString(m.transform));
    if (t >= 0) transform_->setCurrentIndex(t);
    resetPriors();
    for (const auto& [name, value] : m.priors)
        if (auto* box = priorBox(name)) box->setExactValue(value);
    switching_ = false;
    updateRelevance();
    updateTransformNote();
}

// The model a sensitive variable has: the one shown, or the one kept for it, or (not seen
// yet) the first variable's.
ModelPage::VariableModel ModelPage::modelOf(const std::string& target) const {
    if (target == shownName_) return shownModel();
    if (auto it = variables_.find(target); it != variables_.end()) return it->second;
    if (!targets_.empty() && targets_.front() != target) return modelOf(targets_.front());
    return shownModel();
}

void ModelPage::setTargets(const std::vector<std::string>& targets,
                           const std::set<std::string>& counts) {
    if (targets == targets_) return;
    if (!shownName_.empty()) variables_[shownName_] = shownModel();
    const VariableModel first = !targets.empty() && variables_.count(targets.front())
                                    ? variables_.at(targets.front())
                                    : shownModel();
    for (const auto& t : targets) {
        if (variables_.count(t)) continue;
        variables_[t] = first;
        // A later variable of counts: a count model (a transform such as log-shift of the
        // first's would be refused for counts).
        if (t != targets.front() && counts.count(t)) {
            variables_[t].family = "poisson";
            variables_[t].transform = "none";
            defaultReasons_[t] =
                tr("%1 holds counts (non-negative integers), so its model started as a Poisson "
                   "regression without a transform instead of a copy of %2's.")
                    .arg(QString::fromStdString(t), QString::fromStdString(targets.front()));
        }
    }
    targets_ = targets;
    const bool keep = std::find(targets.begin(), targets.end(), shownName_) != targets.end();
    const std::string next = keep ? shownName_ : (targets.empty() ? std::string() : targets[0]);
    if (next != shownName_ && !next.empty()) {
        shownName_ = next;
        showModel(variables_.at(next));
    } else {
        shownName_ = next;
    }
    updateVariableBar();
    updateTransformNote();
}

void ModelPage::showVariable(const std::string& target) {
    if (target == shownName_ ||
        std::find(targets_.begin(), targets_.end(), target) == targets_.end())
        return;
    if (!shownName_.empty()) variables_[shownName_] = shownModel();
    shownName_ = target;
    showModel(variables_.count(target) ? variables_.at(target) : modelOf(target));
    updateVariableBar();
}

void ModelPage::updateVariableBar() {
    const bool several = targets_.size() > 1;
    {
        const QSignalBlocker block(variable_);
        variable_->clear();
        for (std::size_t k = 0; k < targets_.size(); ++k)
            variable_->addItem(
                tr("%1. %2").arg(qulonglong(k + 1)).arg(QString::fromStdString(targets_[k])),
                QString::fromStdString(targets_[k]));
        variable_->setCurrentIndex(variable_->findData(QString::fromStdString(shownName_)));
    }
    variableBar_->setVisible(several);
    const QString name = QString::fromStdString(shownName_);
    modelGroup_->setTitle(several ? tr("Synthesizer model of %1").arg(name)
                                  : tr("Synthesizer model"));
    priorGroup_->setTitle(several ? tr("Priors of %1").arg(name) : tr("Priors"));
    const auto reason = defaultReasons_.find(shownName_);
    defaultNote_->setText(reason == defaultReasons_.end() ? QString() : reason->second);
    defaultNote_->setVisible(several && reason != defaultReasons_.end());
}

void ModelPage::apply(study::RunConfig& config) const {
    const VariableModel shown = shownModel();
    config.models.clear();
    // The configuration's list (the Data page's), so "models" never names another.
    const std::vector<std::string>& targets = config.data.targets;
    if (targets.size() < 2) {
        // One sensitive variable: `model` and data.transform, as ever.
        config.model.family = shown.family;
        config.model.K = shown.K;
        config.model.priors = shown.priors;
        config.model.tau = shown.tau;
        config.data.transform = shown.transform;
    } else {
        // Several: each variable's setting goes where the loaded configuration had it (the
        // variable's "models" entry or the shared `model`); the first variable's others go
        // to `model` and data.transform, a later variable's to its entry when they differ
        // from what it would inherit.
        study::RunConfig::Model base = loadedModel_;
        std::string baseTransform = loadedTransform_;
        std::map<std::string, double> basePriors;
        for (const auto& p : models::priorCatalogue()) basePriors[p.name] = p.defaultValue();
        for (const auto& [name, value] : loadedModel_.priors) basePriors[name] = value;
        auto loadedEntry = [this](const std::string& t) {
            const auto it = loadedModels_.find(t);
            return it == loadedModels_.end() ? std::optional<study::RunConfig::ModelOverride>()
                                             : std::optional(it->second);
        };
        const std::string& first = targets.front();
        const VariableModel one = modelOf(first);
        auto firstEntry = loadedEntry(first);
        study::RunConfig::ModelOverride o1 = firstEntry.value_or(study::RunConfig::ModelOverride{});
        // Into the first variable's entry where it set the field, else the shared setting.
        auto place = [](auto& entryField, auto& shared, const auto& value) {
            if (entryField)
                entryField = value;
            else
                shared = value;
        };
        place(o1.family, base.family, one.family);
        place(o1.K, base.K, one.K);
        place(o1.tau, base.tau, one.tau);
        place(o1.transform, baseTransform, one.transform);
        for (const auto& [name, value] : one.priors) {
            if (o1.priors.count(name))
                o1.priors[name] = value;
            else
                basePriors[name] = value;
        }
        if (firstEntry) config.models[first] = o1;
        for (std::size_t k = 1; k < targets.size(); ++k) {
            const std::string& t = targets[k];
            const VariableModel v = modelOf(t);
            const auto entry = loadedEntry(t);
            study::RunConfig::ModelOverride o = entry.value_or(study::RunConfig::ModelOverride{});
            auto set = [](auto& field, const auto& value, const auto& inherited) {
                if (field || value != inherited) field = value;
            };
            set(o.family, v.family, base.family);
            set(o.K, v.K, base.K);
            set(o.tau, v.tau, base.tau);
            set(o.transform, v.transform, baseTransform);
            for (const auto& [name, value] : v.priors)
                if (o.priors.count(name) || value != basePriors.at(name)) o.priors[name] = value;
            const bool empty = !o.family && !o.K && !o.tau && !o.transform && o.priors.empty();
            if (entry || !empty) config.models[t] = o;
        }
        base.priors = basePriors;
        config.model = base;
        config.data.transform = baseTransform;
    }
    config.data.missing = missing_->currentData().toString().toStdString();
    config.mcmc.chains = chains_->value();
    config.mcmc.warmup = warmup_->value();
    config.mcmc.draws = draws_->value();
    config.mcmc.drawsAuto = untilConverged_->isChecked();
    config.mcmc.budgetSeconds = budget_->exactValue();
    config.mcmc.seed = seedValue_;
    config.mcmc.threads = threads_->value();
    config.mcmc.sampler = sampler_->currentData().toString().toStdString();
    config.mcmc.thin = thin_->value();
    config.mcmc.replicas = replicas_->value();
}

void ModelPage::load(const study::RunConfig& config) {
    loadedModel_ = config.model;
    loadedTransform_ = config.data.transform;
    loadedModels_ = config.models;
    // Every sensitive variable's model as core reads it (study::modelFor, transformFor).
    auto effective = [&config](const std::string& target) {
        VariableModel v;
        const auto m = target.empty() ? config.model : study::modelFor(config, target);
        v.family = m.family;
        v.K = m.K;
        v.tau = m.tau;
        v.transform = target.empty() ? config.data.transform : study::transformFor(config, target);
        for (const auto& p : models::priorCatalogue()) v.priors[p.name] = p.defaultValue();
        for (const auto& [name, value] : m.priors) v.priors[name] = value;
        return v;
    };
    variables_.clear();
    defaultReasons_.clear();
    targets_ =
        config.data.target.empty() ? std::vector<std::string>{} : study::sensitiveVariables(config);
    for (const auto& t : targets_) variables_[t] = effective(t);
    shownName_ = targets_.empty() ? std::string() : targets_.front();
    showModel(effective(shownName_));
    updateVariableBar();
    const int m = missing_->findData(QString::fromStdString(config.data.missing));
    if (m >= 0) missing_->setCurrentIndex(m);
    chains_->setValue(config.mcmc.chains);
    warmup_->setValue(config.mcmc.warmup);
    draws_->setValue(config.mcmc.draws);
    untilConverged_->setChecked(config.mcmc.drawsAuto);
    budget_->setExactValue(config.mcmc.budgetSeconds);
    untilConvergedChosen_ = true;  // a loaded configuration says what it wants
    seed_->setText(QString::number(config.mcmc.seed));
    seedValue_ = config.mcmc.seed;
    threads_->setValue(config.mcmc.threads);
    const int sampler = sampler_->findData(QString::fromStdString(config.mcmc.sampler));
    sampler_->setCurrentIndex(sampler >= 0 ? sampler : 0);
    thin_->setValue(config.mcmc.thin);
    replicas_->setValue(config.mcmc.replicas);
    updateRelevance();
}

}  // namespace ppsynth::ui

#include "moc_model_page.cpp"
