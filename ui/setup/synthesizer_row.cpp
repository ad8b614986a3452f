#include "ui/setup/synthesizer_row.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QToolButton>
#include <iterator>
#include <utility>

#include "ppsynth/common/safe_name.hpp"
#include "ppsynth/study/validate.hpp"
#include "ui/setup/knob_editor.hpp"

namespace ppsynth::ui {

namespace {

struct KindInfo {
    const char* name;   // default, editable
    const char* title;  // the group's heading and the Add menu's entry
    const char* about;  // one sentence under it
    study::Scheme scheme;
};
const KindInfo kKinds[] = {
    {"Unweighted", QT_TRANSLATE_NOOP("SynthesizerRow", "Unweighted"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Every record at full weight (alpha_i = 1): the baseline every other "
                       "synthesizer is compared with."),
     study::Scheme::Unweighted},
    {"LW", QT_TRANSLATE_NOOP("SynthesizerRow", "LW: Lipschitz-weighted"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Down-weights the records whose log-likelihood moves most between draws "
                       "(large Lipschitz bound f_i): alpha_i = clamp(c (1 - ft_i) + g). The "
                       "papers' \"DPweighted\"."),
     study::Scheme::Lipschitz},
    {"LW-M", QT_TRANSLATE_NOOP("SynthesizerRow", "LW-M: Lipschitz-weighted, truncated at M"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "LW, and records whose weighted bound alpha_i f_i still exceeds M are left "
                       "out (the papers' \"Weighted-M\")."),
     study::Scheme::Lipschitz},
    {"CW", QT_TRANSLATE_NOOP("SynthesizerRow", "CW: count-weighted (marginal risk)"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Down-weights records by their identification risk IR_i: "
                       "alpha_i = clamp(c (1 - IR_i) + g)."),
     study::Scheme::Marginal},
    {"Pairwise", QT_TRANSLATE_NOOP("SynthesizerRow", "Pairwise-weighted"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Weights from the pairwise identification risk (paper 004): "
                       "alpha_i = clamp(c at_i + g)."),
     study::Scheme::Pairwise},
    {"Sigmoid", QT_TRANSLATE_NOOP("SynthesizerRow", "Sigmoid: risk-weighted, scaled by risk"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Down-weights records by their identification risk, the riskiest ones "
                       "more than in proportion (paper 002): alpha_i = max(0, 1 - c_i IR_i), "
                       "c_i rising from 1 to 1.5 along a logistic curve in IR_i. The logistic "
                       "form is ours: the paper's R function is not available."),
     study::Scheme::Sigmoid},
    {"EM", QT_TRANSLATE_NOOP("SynthesizerRow", "EM: scalar weight (exponential mechanism)"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "One weight a for every record, solved so that its epsilon matches another "
                       "synthesizer's (the fair comparison at equal privacy) or a fixed "
                       "epsilon."),
     study::Scheme::Scalar},
    {"LW re-weighted", QT_TRANSLATE_NOOP("SynthesizerRow", "Re-weighted (Algorithm 3)"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Starts from a weighted synthesizer and raises the weights of records "
                       "that contribute little to the bound, keeping the bound (paper 001's "
                       "\"_final\")."),
     study::Scheme::Reweight},
    {"TopCoded",
     QT_TRANSLATE_NOOP("SynthesizerRow", "Top-coded: a comparator, no formal guarantee"),
     QT_TRANSLATE_NOOP("SynthesizerRow",
                       "Not a synthesizer: the confidential y with every value above its "
                       "q-quantile set to that quantile, as agencies publish today. Its risk and "
                       "utility are shown beside the synthesizers; it has no epsilon and is never "
                       "released."),
     study::Scheme::TopCode},
};
static_assert(std::size(kKinds) == SynthesizerRow::KindCount);

// What core accepts where it sets no upper limit: large enough for any real setting.
constexpr double kLarge = 1e6;

KnobEditor* makeKnob(const KnobEditor::Spec& spec, double lowest, double highest) {
    auto* k = new KnobEditor(spec);
    k->setTypedRange(lowest, highest);
    return k;
}

}  // namespace

SynthesizerRow::Kind SynthesizerRow::kindOf(const study::SynthesizerConfig& s) {
    switch (s.scheme) {
        case study::Scheme::Unweighted:
            return Unweighted;
        case study::Scheme::Lipschitz:
            return s.M ? LWM : LW;
        case study::Scheme::Marginal:
            return CW;
        case study::Scheme::Pairwise:
            return Pairwise;
        case study::Scheme::Sigmoid:
            return Sigmoid;
        case study::Scheme::Scalar:
            return EM;
        case study::Scheme::Reweight:
            return Reweighted;
        case study::Scheme::Scaled: {  // the page shows the vector scheme it scales
            study::SynthesizerConfig of = s;
            of.scheme = s.of.value_or(study::Scheme::Lipschitz);
            return kindOf(of);
        }
        case study::Scheme::TopCode:
            return TopCoded;
    }
    return Unweighted;
}

study::Scheme SynthesizerRow::schemeOf(Kind kind) {
    return kKinds[kind].scheme;
}
QString SynthesizerRow::title(Kind kind) {
    return tr(kKinds[kind].title);
}
QString SynthesizerRow::about(Kind kind) {
    return tr(kKinds[kind].about);
}
QString SynthesizerRow::defaultName(Kind kind) {
    return QString::fromLatin1(kKinds[kind].name);
}

SynthesizerRow::SynthesizerRow(Kind kind, QWidget* parent)
    : QGroupBox(title(kind), parent), kind_(kind) {
    loaded_.name = defaultName(kind).toStdString();
    loaded_.scheme = schemeOf(kind);
    build();
}

void SynthesizerRow::build() {
    setToolTip(about(kind_));
    form_ = new QFormLayout(this);
    auto* aboutLabel = new QLabel(about(kind_));
    aboutLabel->setWordWrap(true);
    aboutLabel->setStyleSheet(QStringLiteral("color: #555;"));
    form_->addRow(aboutLabel);

    name_ = new QLineEdit(defaultName(kind_));
    name_->setToolTip(tr("The name shown in the results and written to the run's files."));
    shownName_ = name_->text();
    duplicate_ = new QToolButton;
    duplicate_->setText(tr("Duplicate"));
    duplicate_->setToolTip(
        tr("Add another synthesizer of this kind with these settings, e.g. to compare LW at "
           "several c in one run."));
    remove_ = new QToolButton;
    remove_->setText(tr("Remove"));
    remove_->setToolTip(tr("Remove this synthesizer from the run."));
    auto* nameRow = new QWidget;
    auto* nameLayout = new QHBoxLayout(nameRow);
    nameLayout->setContentsMargins(0, 0, 0, 0);
    nameLayout->addWidget(name_, 1);
    nameLayout->addWidget(duplicate_);
    nameLayout->addWidget(remove_);
    form_->addRow(tr("Name"), nameRow);
    nameNote_ = new QLabel;
    nameNote_->setObjectName(QStringLiteral("nameNote"));
    nameNote_->setWordWrap(true);
    nameNote_->setStyleSheet(QStringLiteral("color: #b3261e;"));
    form_->addRow(nameNote_);
    form_->setRowVisible(nameNote_, false);
    connect(duplicate_, &QToolButton::clicked, this, &SynthesizerRow::duplicateRequested);
    connect(remove_, &QToolButton::clicked, this, &SynthesizerRow::removeRequested);
    connect(name_, &QLineEdit::textChanged, this, [this] {
        const QString now = QString::fromStdString(configName());
        // An emptied field is a name being retyped: references wait for the new name.
        if (!now.trimmed().isEmpty()) {
            const QString before = std::exchange(shownName_, now);
            if (before != now) emit renamed(before, now);
        }
        updateNameNote();
        emit changed();
    });

    const bool hasCg = kind_ == LW || kind_ == LWM || kind_ == CW || kind_ == Pairwise;
    if (hasCg) {
        KnobEditor::Spec c{
            tr("c (scale)"),
            tr("c, the papers' scaling constant: how far weights fall for the riskiest "
               "records. alpha_i = clamp(c x (1 - risk) + g): smaller c gives the risky records "
               "less weight (more privacy, less utility)."),
            0.0,
            2.0,
            0.01,
            kind_ == LW ? 0.7 : 1.0,  // LW: the papers' first CE setting
            2,
            false,
            {}};
        c_ = makeKnob(c, 0.0, kLarge);
        g_ = makeKnob({tr("g (shift)"),
                       tr("g, the papers' shift: added to every weight before clamping to "
                          "[0, 1]. Positive g keeps some weight on every record (more utility, "
                          "larger epsilon); negative g drops the riskiest records entirely."),
                       -1.0,
                       1.0,
                       0.01,
                       0.0,
                       2,
                       false,
                       {}},
                      -kLarge, kLarge);
        form_->addRow(c_);
        form_->addRow(g_);
    }
    if (kind_ == LWM) {
        M_ = makeKnob({tr("M (truncation)"),
                       tr("M, the papers' truncation threshold (\"Weighted-M\"): a record whose "
                          "weighted bound alpha_i f_i exceeds M gets weight 0, which holds the "
                          "sensitivity Delta_{alpha,x} near M. Paper 000 uses M = 3.5."),
                       0.01,
                       100.0,
                       0.05,
                       3.5,
                       2,
                       false,
                       {}},
                      study::limits::kSmallestPositive, kLarge);
        form_->addRow(M_);
    }
    if (kind_ == Sigmoid) {
        // study::validate refuses a <= 0 (a flat or inverted curve) and says why when the run
        // is started; the spin box offers positive values only, and a configured a below its
        // smallest is still shown as it is (KnobEditor::setValue widens).
        a_ = makeKnob({tr("a (steepness)"),
                       tr("a, the steepness of the sigmoid scale c_i = 1 + 0.5 / (1 + exp(-a "
                          "(IR_i - 0.5))): with a large a, records below risk 0.5 keep c_i near 1 "
                          "and those above get c_i near 1.5; a small a brings every c_i near "
                          "1.25. It must be positive."),
                       0.5,
                       50.0,
                       0.5,
                       10.0,
                       2,
                       false,
                       {}},
                      study::limits::kSmallestPositive, kLarge);
        form_->addRow(a_);
    }
    if (kind_ == TopCoded) {
        // study::validate refuses q outside (0, 1) and says why when the run is started.
        q_ = makeKnob({tr("q (quantile)"),
                       tr("Values of y above its q-quantile are set to that quantile; the "
                          "usual choice caps the top 2.5% (q = 0.975)."),
                       0.5,
                       0.999,
                       0.005,
                       0.975,
                       3,
                       false,
                       {}},
                      study::limits::kSmallestPositive, 1.0 - 1e-9);
        form_->addRow(q_);
    }
    if (kind_ == CW || kind_ == Pairwise || kind_ == Sigmoid) {
        source_ = new QComboBox;
        source_->addItem(tr("synthetic data of the unweighted fit"), QStringLiteral("synthetic"));
        source_->addItem(tr("the confidential data itself"), QStringLiteral("data"));
        source_->setToolTip(
            tr("Where the identification risk behind the weights is measured: on L synthetic "
               "datasets of the unweighted fit (the risk-efficient paper) or on the confidential "
               "values themselves, y* = y (the vector-weighted paper's Algorithm 2)."));
        form_->addRow(tr("Risk source"), source_);
        connect(source_, &QComboBox::currentIndexChanged, this, &SynthesizerRow::changed);
    }
    if (kind_ == EM) {
        target_ = new QComboBox;
        target_->addItem(tr("match another synthesizer's epsilon"));
        target_->addItem(tr("a fixed epsilon"));
        target_->setToolTip(
            tr("Matched: the scalar weight a is solved so that EM's epsilon equals the chosen "
               "synthesizer's (its refits are reported), so the two are compared at equal "
               "privacy. Fixed: a is solved for the epsilon given here."));
        form_->addRow(tr("Target"), target_);
        match_ = new QComboBox;
        match_->setToolTip(
            tr("The synthesizer whose epsilon the scalar weight a is solved to match (its "
               "refits are reported), so the two are compared at equal privacy."));
        form_->addRow(tr("Match epsilon of"), match_);
        epsilon_ = makeKnob({tr("epsilon (target)"),
                             tr("epsilon, the privacy target of one released dataset: the "
                                "scalar weight a is solved so that 2 Delta_{a,x} of its refit "
                                "is this value (releasing m datasets spends m times it)."),
                             0.1,
                             50.0,
                             0.1,
                             8.0,
                             2,
                             false,
                             {}},
                            study::limits::kSmallestPositive, kLarge);
        form_->addRow(epsilon_);
        connect(target_, &QComboBox::currentIndexChanged, this, [this] {
            updateTargetRows();
            emit changed();
        });
        connect(match_, &QComboBox::currentIndexChanged, this, [this] {
            matchRef_ = match_->currentText();
            emit changed();
        });
        updateTargetRows();
    }
    if (kind_ == Reweighted) {
        base_ = new QComboBox;
        base_->setToolTip(tr("The weighted synthesizer whose weights are re-weighted."));
        form_->addRow(tr("Start from"), base_);
        k_ = new KnobEditor({tr("k (multiplier)"),
                             tr("k, Algorithm 3's multiplier: alpha_w_i = clamp(k alpha_i "
                                "Delta / Delta_i). Checked: use this k. Unchecked: search the "
                                "largest k in (0, 1] that keeps the bound (the paper tried "
                                "0.95 by hand)."),
                             0.01, 1.0, 0.01, 0.95, 2, true, tr("search k automatically")});
        form_->addRow(k_);
        connect(base_, &QComboBox::currentIndexChanged, this, [this] {
            baseRef_ = base_->currentText();
            emit changed();
        });
    }
    if (kind_ == EM || kind_ == Reweighted) {
        tolerance_ = makeKnob(
            {tr("tolerance"),
             kind_ == EM
                 ? tr("tolerance, how close EM's epsilon must come to its target: the refits "
                      "stop within this fraction of it (0.02 = 2%; METHOD.md's default).")
                 : tr("tolerance, how far the re-weighted bound may exceed the starting "
                      "synthesizer's: Delta_{alpha_w,x} <= (1 + tolerance) Delta_{alpha,x} "
                      "(0.02 = 2%)."),
             0.005,
             0.2,
             0.005,
             0.02,
             3,
             false,
             {}},
            0.001, 0.999);
        form_->addRow(tolerance_);
    }
    if (kind_ == LW || kind_ == LWM || kind_ == CW || kind_ == Pairwise || kind_ == Sigmoid) {
        // Optional: the scaled scheme (METHOD.md 3.10) of this row's weights.
        targetEpsilon_ = new KnobEditor(
            {tr("target epsilon"),
             tr("Optional target epsilon: the weights above are multiplied by one scale a in "
                "(0, 1], solved by refits so that epsilon of one released dataset is this "
                "value (within 2%; every refit is reported). The weights keep their shape. A "
                "target above what the weights give on their own cannot be reached and is "
                "reported so. Unchecked: the weights as they are."),
             0.1, 50.0, 0.1, 5.0, 2, true, tr("none: the weights as they are")});
        form_->addRow(targetEpsilon_);
    }
    for (KnobEditor* e : {c_, g_, M_, k_, a_, q_, epsilon_, tolerance_, targetEpsilon_}) {
        if (!e) continue;
        connect(e, &KnobEditor::changed, this, [this] {
            emit knobMoved();
            emit changed();
        });
    }
}

void SynthesizerRow::updateTargetRows() {
    const bool fixed = target_->currentIndex() == FixedEpsilon;
    form_->setRowVisible(match_, !fixed);
    form_->setRowVisible(epsilon_, fixed);
}

QString SynthesizerRow::name() const {
    return name_->text().trimmed();
}

void SynthesizerRow::setName(const QString& name) {
    name_->setText(name);
}

QString SynthesizerRow::nameProblem() const {
    if (name().isEmpty()) return {};  // the page asks for a name when the run starts
    const Status ok = checkSafeName(configName());
    return ok ? QString() : QString::fromStdString(ok.message());
}

void SynthesizerRow::updateNameNote() {
    const QString problem = nameProblem();
    nameNote_->setText(problem.isEmpty() ? QString() : tr("Not usable: %1.").arg(problem));
    form_->setRowVisible(nameNote_, !problem.isEmpty());
}

std::string SynthesizerRow::configName() const {
    const QString loaded = QString::fromStdString(loaded_.name);
    return name_->text() == loaded ? loaded_.name : name().toStdString();
}

KnobEditor* SynthesizerRow::knob(const QString& knob) const {
    if (knob == QLatin1String("c")) return c_;
    if (knob == QLatin1String("g")) return g_;
    if (knob == QLatin1String("M")) return M_;
    if (knob == QLatin1String("k")) return k_;
    if (knob == QLatin1String("a")) return a_;
    if (knob == QLatin1String("q")) return q_;
    if (knob == QLatin1String("epsilon")) return epsilon_;
    if (knob == QLatin1String("tolerance")) return tolerance_;
    if (knob == QLatin1String("target_epsilon")) return targetEpsilon_;
    return nullptr;
}

void SynthesizerRow::refill(QComboBox* box, const QStringList& names, const QString& keep) {
    const QSignalBlocker block(box);
    box->clear();
    box->addItems(names);
    box->setCurrentIndex(box->findText(keep));  // -1 (nothing chosen) when it is not there
}

void SynthesizerRow::setCandidates(const QStringList& match, const QStringList& base) {
    if (match_) refill(match_, match, matchRef_);
    if (base_) refill(base_, base, baseRef_);
}

void SynthesizerRow::setMatch(const QString& name) {
    matchRef_ = name;
    if (match_) {
        const QSignalBlocker block(match_);
        match_->setCurrentIndex(match_->findText(name));
    }
}

void SynthesizerRow::setBase(const QString& name) {
    baseRef_ = name;
    if (base_) {
        const QSignalBlocker block(base_);
        base_->setCurrentIndex(base_->findText(name));
    }
}

void SynthesizerRow::renameReference(const QString& from, const QString& to) {
    if (from.isEmpty()) return;
    if (matchRef_ == from) matchRef_ = to;
    if (baseRef_ == from) baseRef_ = to;
}

void SynthesizerRow::load(const study::SynthesizerConfig& s) {
    loaded_ = s;
    {
        const QSignalBlocker block(name_);  // not a rename: nothing refers to it yet
        name_->setText(QString::fromStdString(s.name));
        shownName_ = QString::fromStdString(configName());
    }
    updateNameNote();
    if (c_) c_->setValue(s.c);
    if (g_) g_->setValue(s.g);
    if (M_ && s.M) M_->setValue(*s.M);
    if (a_) a_->setValue(s.sigmoidA);
    if (q_) q_->setValue(s.topcodeQ);
    if (source_) {
        const int i = source_->findData(QString::fromStdString(s.source));
        if (i >= 0) source_->setCurrentIndex(i);
    }
    if (kind_ == EM) {
        target_->setCurrentIndex(s.epsilon ? FixedEpsilon : MatchTarget);
        if (s.epsilon) epsilon_->setValue(*s.epsilon);
        setMatch(QString::fromStdString(s.match));
    }
    if (kind_ == Reweighted) {
        setBase(QString::fromStdString(s.base));
        k_->setOptionalValue(s.k);
    }
    if (tolerance_) tolerance_->setValue(s.tolerance);
    if (targetEpsilon_)
        targetEpsilon_->setOptionalValue(s.scheme == study::Scheme::Scaled ? s.targetEpsilon
                                                                           : std::nullopt);
}

study::SynthesizerConfig SynthesizerRow::config() const {
    study::SynthesizerConfig s = loaded_;
    s.name = configName();
    s.scheme = schemeOf(kind_);
    if (c_) s.c = c_->value();
    if (g_) s.g = g_->value();
    if (M_) s.M = M_->value();
    if (a_) s.sigmoidA = a_->value();
    if (q_) s.topcodeQ = q_->value();
    if (source_) s.source = source_->currentData().toString().toStdString();
    if (kind_ == EM) {
        if (target_->currentIndex() == FixedEpsilon) {
            s.epsilon = epsilon_->value();
            s.match.clear();
        } else {
            s.epsilon.reset();
            s.match = matchRef_.toStdString();
        }
    }
    if (kind_ == Reweighted) {
        s.base = baseRef_.toStdString();
        s.k = k_->optionalValue();
    }
    if (tolerance_) s.tolerance = tolerance_->value();
    if (targetEpsilon_) {
        // A target makes it the scaled scheme of this row's weights; a scale given in a
        // configuration (no widget here) is kept as loaded.
        const auto target = targetEpsilon_->optionalValue();
        const bool scaled = target || (loaded_.scheme == study::Scheme::Scaled && loaded_.scale);
        s.of = scaled ? std::optional(s.scheme) : std::nullopt;
        if (scaled) s.scheme = study::Scheme::Scaled;
        s.targetEpsilon = target;
        if (target) s.scale.reset();
        if (!scaled) s.scale.reset();
    }
    return s;
}

}  // namespace ppsynth::ui

#include "moc_synthesizer_row.cpp"
