#include "ui/setup/synthesizers_page.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <set>
#include <utility>

#include "ui/setup/knob_editor.hpp"
#include "ui/setup/weight_preview_panel.hpp"

namespace ppsynth::ui {

namespace {

struct KindInfo {
    const char* name;   // default, editable
    const char* title;  // the group's heading
    const char* about;  // one sentence under it
    study::Scheme scheme;
};
const KindInfo kKinds[] = {
    {"Unweighted", QT_TRANSLATE_NOOP("SynthesizersPage", "Unweighted"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "Every record at full weight (alpha_i = 1): the baseline every other "
                       "synthesizer is compared with."),
     study::Scheme::Unweighted},
    {"LW", QT_TRANSLATE_NOOP("SynthesizersPage", "LW: Lipschitz-weighted"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "Down-weights the records whose log-likelihood moves most between draws "
                       "(large Lipschitz bound f_i): alpha_i = clamp(c (1 - ft_i) + g). The "
                       "papers' \"DPweighted\"."),
     study::Scheme::Lipschitz},
    {"LW-M", QT_TRANSLATE_NOOP("SynthesizersPage", "LW-M: Lipschitz-weighted, truncated at M"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "LW, and records whose weighted bound alpha_i f_i still exceeds M are left "
                       "out (the papers' \"Weighted-M\")."),
     study::Scheme::Lipschitz},
    {"CW", QT_TRANSLATE_NOOP("SynthesizersPage", "CW: count-weighted (marginal risk)"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "Down-weights records by their identification risk IR_i: "
                       "alpha_i = clamp(c (1 - IR_i) + g)."),
     study::Scheme::Marginal},
    {"Pairwise", QT_TRANSLATE_NOOP("SynthesizersPage", "Pairwise-weighted"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "Weights from the pairwise identification risk (paper 004): "
                       "alpha_i = clamp(c at_i + g)."),
     study::Scheme::Pairwise},
    {"EM", QT_TRANSLATE_NOOP("SynthesizersPage", "EM: scalar weight (exponential mechanism)"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "One weight a for every record, solved so that its epsilon matches the "
                       "chosen synthesizer's: the fair comparison at equal privacy."),
     study::Scheme::Scalar},
    {"LW re-weighted", QT_TRANSLATE_NOOP("SynthesizersPage", "Re-weighted (Algorithm 3)"),
     QT_TRANSLATE_NOOP("SynthesizersPage",
                       "Starts from a weighted synthesizer and raises the weights of records "
                       "that contribute little to the bound, keeping the bound (paper 001's "
                       "\"_final\")."),
     study::Scheme::Reweight},
};

KnobEditor::Spec cSpec() {
    return {QObject::tr("c (scale)"),
            QObject::tr("c, the papers' scaling constant: how far weights fall for the riskiest "
                        "records. alpha_i = clamp(c x (1 - risk) + g): smaller c gives the "
                        "risky records less weight (more privacy, less utility)."),
            0.0,
            2.0,
            0.01,
            1.0,
            2,
            false,
            {}};
}
KnobEditor::Spec gSpec() {
    return {QObject::tr("g (shift)"),
            QObject::tr("g, the papers' shift: added to every weight before clamping to "
                        "[0, 1]. Positive g keeps some weight on every record (more utility, "
                        "larger epsilon); negative g drops the riskiest records entirely."),
            -1.0,
            1.0,
            0.01,
            0.0,
            2,
            false,
            {}};
}

}  // namespace

SynthesizersPage::SynthesizersPage(QWidget* parent) : QWidget(parent) {
    auto* columns = new QHBoxLayout(this);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* host = new QWidget;
    auto* list = new QVBoxLayout(host);
    rows_.resize(KindCount);
    for (int k = 0; k < KindCount; ++k) list->addWidget(buildRow(Kind(k)));
    list->addStretch(1);
    scroll->setWidget(host);
    columns->addWidget(scroll, 3);

    auto* right = new QVBoxLayout;
    right->addWidget(buildRunGroup());
    preview_ = new WeightPreviewPanel;
    right->addWidget(preview_, 1);
    columns->addLayout(right, 2);

    // Defaults: the papers' core comparison.
    setTicked(Unweighted, true);
    setTicked(LW, true);
    setTicked(EM, true);
    updateTargets();
}

QWidget* SynthesizersPage::buildRow(Kind kind) {
    const auto& info = kKinds[kind];
    Row& r = rows_[kind];
    r.box = new QGroupBox(tr(info.title));
    r.box->setCheckable(true);
    r.box->setChecked(false);
    r.box->setToolTip(tr(info.about));
    auto* form = new QFormLayout(r.box);
    auto* about = new QLabel(tr(info.about));
    about->setWordWrap(true);
    about->setStyleSheet(QStringLiteral("color: #555;"));
    form->addRow(about);
    r.name = new QLineEdit(QString::fromLatin1(info.name));
    r.name->setToolTip(tr("The name shown in the results and written to the run's files."));
    form->addRow(tr("Name"), r.name);
    const bool hasCg = kind == LW || kind == LWM || kind == CW || kind == Pairwise;
    if (hasCg) {
        auto c = cSpec();
        if (kind == LW) c.value = 0.7;  // the papers' first CE setting
        r.c = new KnobEditor(c);
        r.g = new KnobEditor(gSpec());
        form->addRow(r.c);
        form->addRow(r.g);
    }
    if (kind == LWM) {
        r.M = new KnobEditor({tr("M (truncation)"),
                              tr("M, the papers' truncation threshold (\"Weighted-M\"): a record "
                                 "whose weighted bound alpha_i f_i exceeds M gets weight 0, "
                                 "which holds the sensitivity Delta_{alpha,x} near M. Paper 000 "
                                 "uses M = 3.5."),
                              0.01,
                              100.0,
                              0.05,
                              3.5,
                              2,
                              false,
                              {}});
        form->addRow(r.M);
    }
    if (kind == CW || kind == Pairwise) {
        r.source = new QComboBox;
        r.source->addItem(tr("synthetic data of the unweighted fit"), QStringLiteral("synthetic"));
        r.source->addItem(tr("the confidential data itself"), QStringLiteral("data"));
        r.source->setToolTip(
            tr("Where the identification risk behind the weights is measured: on L synthetic "
               "datasets of the unweighted fit (the risk-efficient paper) or on the confidential "
               "values themselves, y* = y (the vector-weighted paper's Algorithm 2)."));
        form->addRow(tr("Risk source"), r.source);
        connect(r.source, &QComboBox::currentIndexChanged, this, &SynthesizersPage::changed);
    }
    if (kind == EM) {
        match_ = new QComboBox;
        match_->setToolTip(
            tr("The synthesizer whose epsilon the scalar weight a is solved to match (its "
               "refits are reported), so the two are compared at equal privacy."));
        form->addRow(tr("Match epsilon of"), match_);
        connect(match_, &QComboBox::currentIndexChanged, this, &SynthesizersPage::changed);
    }
    if (kind == Reweighted) {
        base_ = new QComboBox;
        base_->setToolTip(tr("The weighted synthesizer whose weights are re-weighted."));
        form->addRow(tr("Start from"), base_);
        r.k = new KnobEditor({tr("k (multiplier)"),
                              tr("k, Algorithm 3's multiplier: alpha_w_i = clamp(k alpha_i "
                                 "Delta / Delta_i). Checked: use this k. Unchecked: search the "
                                 "largest k in (0, 1] that keeps the bound (the paper tried "
                                 "0.95 by hand)."),
                              0.01, 1.0, 0.01, 0.95, 2, true, tr("search k automatically")});
        form->addRow(r.k);
        connect(base_, &QComboBox::currentIndexChanged, this, &SynthesizersPage::changed);
    }
    connect(r.box, &QGroupBox::toggled, this, [this] {
        updateTargets();
        emit changed();
    });
    connect(r.name, &QLineEdit::textChanged, this, [this] {
        updateTargets();
        emit changed();
    });
    for (KnobEditor* e : {r.c, r.g, r.M, r.k}) {
        if (!e) continue;
        connect(e, &KnobEditor::changed, this, [this, kind] {
            if (kind == LW || kind == LWM) {
                previewKind_ = kind;
                refreshPreview();
            }
            emit changed();
        });
    }
    return r.box;
}

QWidget* SynthesizersPage::buildRunGroup() {
    auto* box = new QGroupBox(tr("Synthesis and risk"));
    auto* form = new QFormLayout(box);
    m_ = new QSpinBox;
    m_->setRange(1, 1000);
    m_->setValue(20);
    m_->setToolTip(
        tr("m: how many synthetic datasets are released. Each costs its epsilon "
           "again: the total epsilon is m times the per-dataset epsilon."));
    L_ = new QSpinBox;
    L_->setRange(1, 1000);
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
    connect(m_, &QSpinBox::valueChanged, this, &SynthesizersPage::changed);
    connect(L_, &QSpinBox::valueChanged, this, &SynthesizersPage::changed);
    connect(r_, &KnobEditor::changed, this, &SynthesizersPage::changed);
    connect(radiusMode_, &QComboBox::currentIndexChanged, this, [this] {
        updateRadiusRange();
        emit changed();
    });
    return box;
}

// A fraction lives in (0, 1]; an absolute radius is in the units of y, which may be large
// (incomes), so only its sign is bounded.
void SynthesizersPage::updateRadiusRange() {
    if (radiusMode_->currentData().toBool())
        r_->setRange(0.01, 1.0, 0.01);
    else
        r_->setRange(0.01, 1e9, 1.0);
}

// EM's match target and the re-weighting's base list the ticked synthesizers that can
// serve (any weighted one; the base must have record weights).
void SynthesizersPage::updateTargets() {
    auto refill = [this](QComboBox* box, std::initializer_list<Kind> kinds) {
        const QString keep = box->currentText();
        const QSignalBlocker block(box);
        box->clear();
        for (Kind k : kinds)
            if (isTicked(k)) box->addItem(name(k));
        const int i = box->findText(keep);
        box->setCurrentIndex(i >= 0 ? i : 0);
    };
    refill(match_, {LW, LWM, CW, Pairwise, Reweighted});
    refill(base_, {LW, LWM, CW, Pairwise});
}

void SynthesizersPage::refreshPreview() {
    const Row& r = rows_[previewKind_];
    preview_->preview(name(previewKind_), r.c->value(), r.g->value(),
                      r.M ? r.M->optionalValue() : std::nullopt);
}

void SynthesizersPage::setTicked(Kind kind, bool on) {
    rows_[kind].box->setChecked(on);
}
bool SynthesizersPage::isTicked(Kind kind) const {
    return rows_[kind].box->isChecked();
}
QString SynthesizersPage::name(Kind kind) const {
    return rows_[kind].name->text().trimmed();
}
void SynthesizersPage::setName(Kind kind, const QString& n) {
    rows_[kind].name->setText(n);
}
QGroupBox* SynthesizersPage::box(Kind kind) const {
    return rows_[kind].box;
}
QComboBox* SynthesizersPage::sourceBox(Kind kind) const {
    return rows_[kind].source;
}
KnobEditor* SynthesizersPage::knob(Kind kind, const QString& knob) const {
    const Row& r = rows_[kind];
    if (knob == QLatin1String("c")) return r.c;
    if (knob == QLatin1String("g")) return r.g;
    if (knob == QLatin1String("M")) return r.M;
    if (knob == QLatin1String("k")) return r.k;
    return nullptr;
}

Status SynthesizersPage::apply(study::RunConfig& config) const {
    config.synthesis.m = m_->value();
    config.risk.L = L_->value();
    config.risk.radius = r_->value();
    config.risk.percentage = radiusMode_->currentData().toBool();
    // What the page has no widget for (the EM match and re-weighting tolerance) stays as
    // `config` had it for the synthesizer of the same name and scheme (a loaded sweep
    // point's tolerance, say).
    const auto previous = std::exchange(config.synthesizers, {});
    auto hidden = [&previous](const std::string& name, study::Scheme scheme) {
        const auto it = std::find_if(previous.begin(), previous.end(), [&](const auto& s) {
            return s.name == name && s.scheme == scheme;
        });
        return it != previous.end() ? *it : study::SynthesizerConfig{};
    };
    std::set<QString> names;
    for (int k = 0; k < KindCount; ++k) {
        const Kind kind = Kind(k);
        if (!isTicked(kind)) continue;
        const Row& r = rows_[k];
        const QString n = name(kind);
        if (n.isEmpty())
            return Error{
                tr("Give the %1 synthesizer a name.").arg(tr(kKinds[k].title)).toStdString()};
        if (!names.insert(n).second)
            return Error{tr("Two synthesizers are called '%1': rename one.").arg(n).toStdString()};
        study::SynthesizerConfig s;
        s.name = n.toStdString();
        s.scheme = kKinds[k].scheme;
        const auto before = hidden(s.name, s.scheme);
        s.tolerance = before.tolerance;
        s.sigmoidA = before.sigmoidA;
        if (r.c) s.c = r.c->value();
        if (r.g) s.g = r.g->value();
        if (r.M) s.M = r.M->value();
        if (r.source) s.source = r.source->currentData().toString().toStdString();
        if (kind == EM) {
            if (match_->currentText().isEmpty())
                return Error{tr("EM matches the epsilon of another synthesizer: tick LW, LW-M, "
                                "CW, Pairwise or Re-weighted too.")
                                 .toStdString()};
            s.match = match_->currentText().toStdString();
        }
        if (kind == Reweighted) {
            if (base_->currentText().isEmpty())
                return Error{tr("Re-weighting starts from a weighted synthesizer: tick LW, "
                                "LW-M, CW or Pairwise too.")
                                 .toStdString()};
            s.base = base_->currentText().toStdString();
            s.k = r.k->optionalValue();
        }
        config.synthesizers.push_back(std::move(s));
    }
    if (config.synthesizers.empty())
        return Error{tr("Tick at least one synthesizer to run.").toStdString()};
    return {};
}

void SynthesizersPage::load(const study::RunConfig& config) {
    m_->setValue(config.synthesis.m);
    L_->setValue(config.risk.L);
    // The mode first: its range must hold the radius before the radius is set.
    radiusMode_->setCurrentIndex(radiusMode_->findData(config.risk.percentage));
    updateRadiusRange();
    r_->setValue(config.risk.radius);
    for (int k = 0; k < KindCount; ++k) setTicked(Kind(k), false);
    QString match, base;
    for (const auto& s : config.synthesizers) {
        Kind kind = Unweighted;
        switch (s.scheme) {
            case study::Scheme::Unweighted:
                kind = Unweighted;
                break;
            case study::Scheme::Lipschitz:
                kind = s.M ? LWM : LW;
                break;
            case study::Scheme::Marginal:
                kind = CW;
                break;
            case study::Scheme::Pairwise:
                kind = Pairwise;
                break;
            case study::Scheme::Scalar:
                kind = EM;
                break;
            case study::Scheme::Reweight:
                kind = Reweighted;
                break;
            case study::Scheme::Sigmoid:
                continue;  // not offered on this page
        }
        Row& r = rows_[kind];
        setTicked(kind, true);
        setName(kind, QString::fromStdString(s.name));
        if (r.c) r.c->setValue(s.c);
        if (r.g) r.g->setValue(s.g);
        if (r.M && s.M) r.M->setValue(*s.M);
        if (r.source) {
            const int i = r.source->findData(QString::fromStdString(s.source));
            if (i >= 0) r.source->setCurrentIndex(i);
        }
        if (kind == EM) match = QString::fromStdString(s.match);
        if (kind == Reweighted) {
            base = QString::fromStdString(s.base);
            r.k->setOptionalValue(s.k);
        }
    }
    updateTargets();
    if (!match.isEmpty()) match_->setCurrentIndex(std::max(0, match_->findText(match)));
    if (!base.isEmpty()) base_->setCurrentIndex(std::max(0, base_->findText(base)));
}

}  // namespace ppsynth::ui
