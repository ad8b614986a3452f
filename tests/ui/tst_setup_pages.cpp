// The setup pages on their own: knob editors keep spin box and slider in step; the Model
// page starts from METHOD.md's priors, round-trips a configuration and takes what core
// accepts; the Synthesizers page lists, adds, duplicates and removes synthesizers, writes
// back every synthesizer a configuration holds and refuses what core would refuse, in
// words; the weight preview equals the weights computed by hand (its latency printed);
// project files round-trip and bad ones are refused with a message naming the problem.
#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFile>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMenu>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QValidator>
#include <algorithm>
#include <random>
#include <vector>

#include "ppsynth/models/family_registry.hpp"
#include "ppsynth/models/priors.hpp"
#include "ppsynth/privacy/weights.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/validate.hpp"
#include "test_output.hpp"
#include "ui/charts/chart_view.hpp"
#include "ui/project_file.hpp"
#include "ui/run/progress_board.hpp"
#include "ui/setup/exact_spin_box.hpp"
#include "ui/setup/knob_editor.hpp"
#include "ui/setup/model_page.hpp"
#include "ui/setup/synthesizer_row.hpp"
#include "ui/setup/synthesizers_page.hpp"
#include "ui/setup/weight_preview_panel.hpp"

using namespace ppsynth;
using ui::SynthesizerRow;
using ui::SynthesizersPage;

namespace {

study::RunConfig baseConfig() {
    study::RunConfig c;
    c.data.path = "/data/survey.csv";
    c.data.target = "income";
    c.data.predictors = {"age", "region"};
    c.data.known = {"region"};
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

class TstSetupPages : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() { QApplication::setFont(QFont(QStringLiteral("DejaVu Sans"), 10)); }

    void knobSpinAndSliderAgree() {
        ui::KnobEditor knob(
            {QStringLiteral("c"), QStringLiteral("tip"), 0.0, 2.0, 0.01, 1.0, 2, false, {}});
        QCOMPARE(knob.slider()->value(), 500);
        knob.slider()->setValue(250);
        QCOMPARE(knob.value(), 0.5);
        knob.spinBox()->setValue(1.5);
        QCOMPARE(knob.slider()->value(), 750);
        QCOMPARE(knob.toolTip(), QStringLiteral("tip"));
        QCOMPARE(knob.spinBox()->toolTip(), QStringLiteral("tip"));

        ui::KnobEditor optional({QStringLiteral("M"), QStringLiteral("t"), 0.0, 10.0, 0.1, 3.5, 1,
                                 true, QStringLiteral("off")});
        QVERIFY(!optional.optionalValue().has_value());
        QVERIFY(!optional.spinBox()->isEnabled());
        optional.useBox()->setChecked(true);
        QCOMPARE(optional.optionalValue().value(), 3.5);
    }

    void everyKnobHasAPlainTooltipNamingItsTerm() {
        SynthesizersPage page;
        for (auto kind : {SynthesizerRow::LWM, SynthesizerRow::CW, SynthesizerRow::Pairwise,
                          SynthesizerRow::Sigmoid, SynthesizerRow::Reweighted})
            page.addRow(kind);
        const std::vector<std::pair<SynthesizerRow::Kind, QString>> knobs = {
            {SynthesizerRow::LW, "c"},
            {SynthesizerRow::LW, "g"},
            {SynthesizerRow::LWM, "M"},
            {SynthesizerRow::CW, "c"},
            {SynthesizerRow::Pairwise, "g"},
            {SynthesizerRow::Reweighted, "k"},
            {SynthesizerRow::Reweighted, "tolerance"},
            {SynthesizerRow::Sigmoid, "a"},
            {SynthesizerRow::EM, "epsilon"},
            {SynthesizerRow::EM, "tolerance"}};
        for (const auto& [kind, name] : knobs) {
            QVERIFY(page.firstRow(kind));
            auto* k = page.firstRow(kind)->knob(name);
            QVERIFY2(k, qPrintable(name));
            QVERIFY2(k->toolTip().startsWith(name + QStringLiteral(", ")),
                     qPrintable(k->toolTip()));
            QVERIFY(k->toolTip().size() > 80);
        }
        QVERIFY(page.radiusKnob()->toolTip().startsWith(QStringLiteral("r, ")));
        QVERIFY(page.mBox()->toolTip().startsWith(QStringLiteral("m: ")));
        QVERIFY(page.lBox()->toolTip().startsWith(QStringLiteral("L: ")));
        const auto* em = page.firstRow(SynthesizerRow::EM);
        QVERIFY(em->matchBox()->toolTip().contains(QStringLiteral("epsilon")));
        QVERIFY(em->targetBox()->toolTip().contains(QStringLiteral("epsilon")));
        for (auto kind : {SynthesizerRow::CW, SynthesizerRow::Pairwise, SynthesizerRow::Sigmoid})
            QVERIFY(!page.firstRow(kind)->sourceBox()->toolTip().isEmpty());
        for (QAction* a : page.addMenu()->actions()) QVERIFY(a->toolTip().size() > 40);
        QVERIFY(!page.addButton()->toolTip().isEmpty());
    }

    void modelPageDefaultsAndRoundTrip() {
        ui::ModelPage page;
        const models::Priors defaults;
        QCOMPARE(page.priorBox("tau_scale")->value(), defaults.tauScale);
        QCOMPARE(page.priorBox("mean_rate")->value(), defaults.meanRate);
        QCOMPARE(page.priorBox("inv_phi_scale")->value(), defaults.invPhiScale);
        QVERIFY(!page.componentsBox()->isEnabled());  // K only for the mixture

        auto c = baseConfig();
        c.model.family = "normal-mixture";
        c.model.K = 7;
        c.model.priors = {{"sigma_scale", 2.5}};
        c.data.transform = "log-shift";
        c.mcmc.chains = 3;
        c.mcmc.warmup = 222;
        c.mcmc.draws = 333;
        c.mcmc.seed = 99;
        c.mcmc.threads = 2;
        c.mcmc.sampler = "gibbs";
        c.mcmc.thin = 12;
        QCOMPARE(page.tauBox()->currentData().toString(), QString("auto"));  // default
        QCOMPARE(page.samplerBox()->currentData().toString(), QString("auto"));
        c.model.tau = "sampled";
        page.load(c);
        QVERIFY(page.componentsBox()->isEnabled());
        QCOMPARE(page.tauBox()->currentData().toString(), QString("sampled"));
        page.resize(page.sizeHint().expandedTo(QSize(900, 700)));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_gibbs.png")));
        study::RunConfig out = baseConfig();
        page.apply(out);
        QCOMPARE(out.model.family, std::string("normal-mixture"));
        QCOMPARE(out.model.K, 7);
        QCOMPARE(out.model.priors.at("sigma_scale"), 2.5);
        QCOMPARE(out.model.priors.at("tau_df"), defaults.tauDf);
        QCOMPARE(out.data.transform, std::string("log-shift"));
        QCOMPARE(out.mcmc.chains, 3);
        QCOMPARE(out.mcmc.warmup, 222);
        QCOMPARE(out.mcmc.draws, 333);
        QCOMPARE(out.mcmc.seed, std::uint64_t(99));
        QCOMPARE(out.model.tau, std::string("sampled"));
        QCOMPARE(out.mcmc.sampler, std::string("gibbs"));
        QCOMPARE(out.mcmc.thin, 12);
        // The Gibbs sampler needs tau sampled: integrating tau out keeps the choice and says
        // it does not apply (modelPageKeepsInapplicableSampler).
        page.tauBox()->setCurrentIndex(page.tauBox()->findData("integrated"));
        QCOMPARE(page.samplerBox()->currentData().toString(), QString("gibbs"));
        QVERIFY(!page.samplerNote()->isHidden());
        page.resetPriors();
        page.apply(out);
        QCOMPARE(out.model.priors.at("sigma_scale"), defaults.sigmaScale);
    }

    // "until converged" beside the draws: on by default for the mixture only (until the user
    // clicks it), written as draws "auto", and read back from a configuration.
    void modelPageUntilConverged() {
        ui::ModelPage page;
        QVERIFY(!page.untilConvergedBox()->isChecked());
        // A fixed length: "Draws", no budget.
        QCOMPARE(page.drawsLabel()->text(), QStringLiteral("Draws"));
        QVERIFY(!page.budgetBox()->isEnabled());
        page.familyBox()->setCurrentIndex(page.familyBox()->findData("normal-mixture"));
        QVERIFY(page.untilConvergedBox()->isChecked());
        // Until converged: the draws are a block, and the budget per fit applies.
        QCOMPARE(page.drawsLabel()->text(), QStringLiteral("Draws per block"));
        QVERIFY(page.budgetBox()->isEnabled());
        study::RunConfig out = baseConfig();
        page.apply(out);
        QVERIFY(out.mcmc.drawsAuto);
        QCOMPARE(out.mcmc.budgetSeconds, 600.0);
        page.budgetBox()->setValue(240);
        page.apply(out);
        QCOMPARE(out.mcmc.budgetSeconds, 240.0);
        page.resize(page.sizeHint().expandedTo(QSize(900, 700)));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_until_converged.png")));
        page.familyBox()->setCurrentIndex(page.familyBox()->findData("normal"));
        QVERIFY(!page.untilConvergedBox()->isChecked());
        QTest::mouseClick(page.untilConvergedBox(), Qt::LeftButton);
        page.familyBox()->setCurrentIndex(page.familyBox()->findData("poisson"));
        QVERIFY(page.untilConvergedBox()->isChecked());  // the user's choice stays
        auto c = baseConfig();
        c.mcmc.drawsAuto = false;
        page.load(c);
        QVERIFY(!page.untilConvergedBox()->isChecked());
        QCOMPARE(page.drawsLabel()->text(), QStringLiteral("Draws"));
        QVERIFY(!page.budgetBox()->isEnabled());
        page.apply(out);
        QVERIFY(!out.mcmc.drawsAuto);
        // A configured budget is shown and written back as it is.
        c.mcmc.drawsAuto = true;
        c.mcmc.budgetSeconds = 90.5;
        page.load(c);
        QVERIFY(page.budgetBox()->isEnabled());
        page.apply(out);
        QCOMPARE(out.mcmc.budgetSeconds, 90.5);
    }

    // Tempering is the mixture's Gibbs sampler's: the copies are editable only where that
    // sampler runs, and a configured number round-trips (hottest and target_swap untouched).
    void modelPageTempering() {
        ui::ModelPage page;
        QVERIFY(!page.replicasBox()->isEnabled());  // the default family has no Gibbs sampler
        QCOMPARE(page.replicasBox()->text(), QStringLiteral("off"));
        page.familyBox()->setCurrentIndex(page.familyBox()->findData("normal-mixture"));
        QVERIFY(page.replicasBox()->isEnabled());
        page.replicasBox()->setValue(4);
        study::RunConfig out = baseConfig();
        out.synthesizers.emplace_back().name = "Unweighted";
        out.mcmc.hottest = 0.05;
        page.apply(out);
        QCOMPARE(out.mcmc.replicas, 4);
        QCOMPARE(out.mcmc.hottest, 0.05);
        const auto valid = study::validate(out);
        QVERIFY2(bool(valid), valid ? "" : valid.message().c_str());
        page.samplerBox()->setCurrentIndex(page.samplerBox()->findData("nuts"));
        QVERIFY(!page.replicasBox()->isEnabled());
        page.tauBox()->setCurrentIndex(page.tauBox()->findData("integrated"));
        page.samplerBox()->setCurrentIndex(page.samplerBox()->findData("auto"));
        QVERIFY(!page.replicasBox()->isEnabled());  // integrated tau: NUTS, no Gibbs
        auto c = baseConfig();
        c.model.family = "normal-mixture";
        c.mcmc.replicas = 3;
        page.load(c);
        QCOMPARE(page.replicasBox()->value(), 3);
        QVERIFY(page.replicasBox()->isEnabled());
        page.apply(out);
        QCOMPARE(out.mcmc.replicas, 3);
        page.resize(page.sizeHint().expandedTo(QSize(900, 760)));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_tempering.png")));
    }

    // Core accepts one draw, many chains, any thinning, a seed beyond 32 bits and priors with
    // many decimals: a configuration made on the command line loads without being changed.
    void modelPageKeepsWhatCoreAccepts() {
        auto c = baseConfig();
        c.model.family = "normal-mixture";
        c.model.K = 250;
        c.mcmc.chains = 40;
        c.mcmc.warmup = 250000;
        c.mcmc.draws = 1;
        c.mcmc.threads = 96;
        c.mcmc.thin = 5000;
        c.mcmc.seed = 18446744073709551557ULL;  // the largest 64-bit prime
        const models::Priors defaults;
        auto priors = study::priorValues(defaults);
        priors["sigma_scale"] = 0.000025;
        priors["tau_scale"] = 2.123456;
        priors["gamma_rate"] = 2.5e6;
        c.model.priors = priors;
        c.synthesizers = {study::SynthesizerConfig{}};
        c.synthesizers[0].name = "Unweighted";
        const auto parsed = study::parseRunConfig(study::toJson(c));
        QVERIFY2(bool(parsed), parsed ? "" : parsed.message().c_str());
        ui::ModelPage page;
        page.load(c);
        page.resize(page.sizeHint().expandedTo(QSize(900, 700)));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_cli_limits.png")));
        study::RunConfig out = baseConfig();
        out.synthesizers = c.synthesizers;
        page.apply(out);
        QCOMPARE(QString::fromStdString(study::toJson(out)).split(QLatin1Char('\n')),
                 QString::fromStdString(study::toJson(c)).split(QLatin1Char('\n')));
        // The seed takes digits that fit in 64 bits; emptied, the last seed stays.
        int pos = 0;
        for (QString bad :
             {QStringLiteral("18446744073709551616"), QStringLiteral("-1"), QStringLiteral("1e9")})
            QCOMPARE(page.seedBox()->validator()->validate(bad, pos), QValidator::Invalid);
        page.seedBox()->clear();
        page.apply(out);
        QCOMPARE(out.mcmc.seed, c.mcmc.seed);
        page.seedBox()->setText(QStringLiteral("42"));
        page.apply(out);
        QCOMPARE(out.mcmc.seed, std::uint64_t(42));
    }

    // Core reads "sampler": "gibbs" for any model and refuses it at run time unless the
    // model is the mixture with tau sampled: the page keeps what was loaded, marks it as not
    // applicable and never turns it into another sampler by itself.
    void modelPageKeepsInapplicableSampler() {
        auto c = baseConfig();
        c.model.family = "normal";
        c.mcmc.sampler = "gibbs";
        c.model.priors = study::priorValues(models::Priors{});
        c.synthesizers = {study::SynthesizerConfig{}};
        c.synthesizers[0].name = "Unweighted";
        QVERIFY(bool(study::parseRunConfig(study::toJson(c))));
        ui::ModelPage page;
        page.load(c);
        page.resize(page.sizeHint().expandedTo(QSize(900, 700)));
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QCOMPARE(page.samplerBox()->currentData().toString(), QStringLiteral("gibbs"));
        QVERIFY(page.samplerNote()->isVisible());
        QVERIFY2(page.samplerNote()->text().contains(QStringLiteral("Not applicable")),
                 qPrintable(page.samplerNote()->text()));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_sampler_not_applicable.png")));
        study::RunConfig out = baseConfig();
        out.synthesizers = c.synthesizers;
        page.apply(out);
        QCOMPARE(QString::fromStdString(study::toJson(out)).split(QLatin1Char('\n')),
                 QString::fromStdString(study::toJson(c)).split(QLatin1Char('\n')));
        // The mixture with tau sampled takes it: no note. Integrating tau out: the note again,
        // the choice still kept.
        auto* family = page.familyBox();
        family->setCurrentIndex(family->findData(QStringLiteral("normal-mixture")));
        QVERIFY(!page.samplerNote()->isVisible());
        page.tauBox()->setCurrentIndex(page.tauBox()->findData(QStringLiteral("integrated")));
        QCOMPARE(page.samplerBox()->currentData().toString(), QStringLiteral("gibbs"));
        QVERIFY(page.samplerNote()->isVisible());
        // Choosing another sampler is the person's to do; then the note goes.
        page.samplerBox()->setCurrentIndex(page.samplerBox()->findData(QStringLiteral("nuts")));
        QVERIFY(!page.samplerNote()->isVisible());
        page.apply(out);
        QCOMPARE(out.mcmc.sampler, std::string("nuts"));
    }

    // The Model page offers core's registry of families, in its order, with its labels and
    // tooltips, and one box per hyperparameter of the prior catalogue at its default; choosing
    // a family enables exactly the priors, K and coefficient-scale setting the registry says it
    // reads. A family added to the registry appears here without a change in ui/.
    void modelPageFamiliesAreTheRegistry() {
        ui::ModelPage page;
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* box = page.familyBox();
        const auto& families = models::familyRegistry();
        QCOMPARE(box->count(), static_cast<int>(families.size()));
        for (int i = 0; i < box->count(); ++i) {
            const auto& f = families[static_cast<std::size_t>(i)];
            QCOMPARE(box->itemData(i).toString(), QString::fromStdString(f.id));
            QCOMPARE(box->itemText(i), QString::fromStdString(f.label));
            QCOMPARE(box->itemData(i, Qt::ToolTipRole).toString(),
                     QString::fromStdString(f.tooltip));
        }
        for (const auto& p : models::priorCatalogue()) {
            QVERIFY2(page.priorBox(p.name), p.name.c_str());
            QCOMPARE(page.priorBox(p.name)->exactValue(), p.defaultValue());
            QCOMPARE(page.priorBox(p.name)->toolTip(), QString::fromStdString(p.description));
        }
        for (int i = 0; i < box->count(); ++i) {
            box->setCurrentIndex(i);
            const auto& f = families[static_cast<std::size_t>(i)];
            for (const auto& p : models::priorCatalogue())
                QVERIFY2(page.priorBox(p.name)->isEnabled() == f.usesPrior(p.name),
                         (f.id + ": " + p.name).c_str());
            QCOMPARE(page.componentsBox()->isEnabled(), f.mixture);
            QCOMPARE(page.tauBox()->isEnabled(), f.predictors);
        }
        box->setCurrentIndex(box->findData(QStringLiteral("normal-mixture")));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/model_page_registry_mixture.png")));
    }

    void synthesizersApplyAndLoad() {
        SynthesizersPage page;  // Unweighted, LW and EM (matching LW)
        for (auto kind : {SynthesizerRow::LWM, SynthesizerRow::CW, SynthesizerRow::Pairwise,
                          SynthesizerRow::Reweighted})
            page.addRow(kind);
        QCOMPARE(page.rowCount(), 7);
        auto* lw = page.firstRow(SynthesizerRow::LW);
        auto* em = page.firstRow(SynthesizerRow::EM);
        auto* rw = page.firstRow(SynthesizerRow::Reweighted);
        lw->knob("c")->setValue(0.6);
        lw->knob("g")->setValue(-0.1);
        page.firstRow(SynthesizerRow::LWM)->knob("M")->setValue(2.0);
        QCOMPARE(em->matchBox()->currentText(), QStringLiteral("LW"));
        // Renaming a synthesizer keeps what refers to it.
        lw->nameEdit()->setText(QStringLiteral("LW 0.6"));
        QCOMPARE(em->matchBox()->currentText(), QStringLiteral("LW 0.6"));
        QCOMPARE(em->match(), QStringLiteral("LW 0.6"));
        rw->baseBox()->setCurrentIndex(rw->baseBox()->findText(QStringLiteral("LW-M")));
        rw->knob("k")->setOptionalValue(0.9);
        page.mBox()->setValue(5);
        page.lBox()->setValue(7);
        page.radiusKnob()->setValue(0.1);
        auto c = baseConfig();
        QVERIFY(bool(page.apply(c)));
        QCOMPARE(c.synthesizers.size(), std::size_t(7));
        QCOMPARE(c.synthesis.m, 5);
        QCOMPARE(c.risk.L, 7);
        QCOMPARE(c.risk.radius, 0.1);
        const auto* lwc = c.find("LW 0.6");
        QVERIFY(lwc && lwc->scheme == study::Scheme::Lipschitz);
        QCOMPARE(lwc->c, 0.6);
        QCOMPARE(lwc->g, -0.1);
        QVERIFY(!lwc->M);
        QCOMPARE(c.find("LW-M")->M.value(), 2.0);
        QCOMPARE(c.find("EM")->match, std::string("LW 0.6"));
        QVERIFY(!c.find("EM")->epsilon);
        QCOMPARE(c.find("LW re-weighted")->base, std::string("LW-M"));
        QCOMPARE(c.find("LW re-weighted")->k.value(), 0.9);
        // core accepts what the page writes.
        const auto parsed = study::parseRunConfig(study::toJson(c));
        QVERIFY2(bool(parsed), parsed ? "" : parsed.message().c_str());

        SynthesizersPage other;
        other.load(c);
        QCOMPARE(other.rowCount(), 7);
        for (int i = 0; i < 7; ++i) QCOMPARE(other.rows()[i]->kind(), page.rows()[i]->kind());
        QCOMPARE(other.rows()[1]->name(), QStringLiteral("LW 0.6"));
        QCOMPARE(other.firstRow(SynthesizerRow::LWM)->knob("M")->value(), 2.0);
        QCOMPARE(other.firstRow(SynthesizerRow::EM)->matchBox()->currentText(),
                 QStringLiteral("LW 0.6"));
        QCOMPARE(other.firstRow(SynthesizerRow::Reweighted)->baseBox()->currentText(),
                 QStringLiteral("LW-M"));
        auto again = baseConfig();
        QVERIFY(bool(other.apply(again)));
        QCOMPARE(study::toJson(again), study::toJson(c));

        // EM with a fixed epsilon instead of a match.
        auto* em2 = other.firstRow(SynthesizerRow::EM);
        em2->targetBox()->setCurrentIndex(SynthesizerRow::FixedEpsilon);
        QVERIFY(em2->matchBox()->isHidden());
        em2->knob("epsilon")->setValue(4.5);
        QVERIFY(bool(other.apply(again)));
        QCOMPARE(again.find("EM")->epsilon.value(), 4.5);
        QVERIFY(again.find("EM")->match.empty());
        QVERIFY(bool(study::parseRunConfig(study::toJson(again))));
    }

    // The list grows from the Add menu, a row duplicates next to itself under a new name with
    // its settings, and Remove takes it out; the page is saved for a person to look at.
    void synthesizersAddDuplicateRemove() {
        SynthesizersPage page;
        page.resize(1200, 900);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QAction* sigmoid = nullptr;
        for (QAction* a : page.addMenu()->actions())
            if (a->data().toInt() == SynthesizerRow::Sigmoid) sigmoid = a;
        QVERIFY(sigmoid);
        sigmoid->trigger();
        QCOMPARE(page.rowCount(), 4);
        QCOMPARE(page.rows().back()->kind(), SynthesizerRow::Sigmoid);
        QCOMPARE(page.rows().back()->name(), QStringLiteral("Sigmoid"));
        auto* lw = page.firstRow(SynthesizerRow::LW);
        lw->knob("c")->setValue(0.5);
        QTest::mouseClick(lw->duplicateButton(), Qt::LeftButton);
        QCOMPARE(page.rowCount(), 5);
        auto* copy = page.rows()[2];
        QCOMPARE(copy->kind(), SynthesizerRow::LW);
        QCOMPARE(copy->name(), QStringLiteral("LW 2"));
        QCOMPARE(copy->knob("c")->value(), 0.5);
        copy->knob("c")->setValue(0.7);
        QTest::mouseClick(copy->duplicateButton(), Qt::LeftButton);
        QCOMPARE(page.rows()[3]->name(), QStringLiteral("LW 3"));
        QCOMPARE(page.rows()[3]->knob("c")->value(), 0.7);
        page.rows()[3]->knob("c")->setValue(0.9);
        // The EM row may match any of the three.
        auto* em = page.firstRow(SynthesizerRow::EM);
        for (const char* n : {"LW", "LW 2", "LW 3", "Sigmoid"})
            QVERIFY2(em->matchBox()->findText(QString::fromLatin1(n)) >= 0, n);
        QVERIFY(em->matchBox()->findText(QStringLiteral("Unweighted")) < 0);
        QTest::qWait(50);  // the list's layout settles
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/synthesizers_page_list.png")));
        auto c = baseConfig();
        QVERIFY(bool(page.apply(c)));
        QCOMPARE(c.synthesizers.size(), std::size_t(6));
        QCOMPARE(c.find("LW")->c, 0.5);
        QCOMPARE(c.find("LW 2")->c, 0.7);
        QCOMPARE(c.find("LW 3")->c, 0.9);
        QTest::mouseClick(page.rows()[3]->removeButton(), Qt::LeftButton);
        QCOMPARE(page.rowCount(), 5);
        QVERIFY(!page.findRow(QStringLiteral("LW 3")));
        QVERIFY(em->matchBox()->findText(QStringLiteral("LW 3")) < 0);
        QVERIFY(bool(page.apply(c)));
        QCOMPARE(c.synthesizers.size(), std::size_t(5));
    }

    // Every synthesizer a configuration can hold comes back from the page as it was: a
    // sigmoid scheme, two of one kind (LW at c = 1 and at c = 2.5, beyond the slider), an
    // EM with a fixed epsilon beside one that matches, a re-weighting of the sigmoid, knobs
    // with more decimals than the spin boxes show, and tolerances the page has no default
    // for. Loaded from the CLI's JSON and read back, the configuration is unchanged.
    void synthesizersKeepEveryConfiguredSynthesizer() {
        const auto in = study::parseRunConfig(R"({
          "data": {"path": "/data/survey.csv", "target": "income"},
          "synthesis": {"m": 5}, "risk": {"L": 4, "radius": 0.125},
          "synthesizers": [
            {"name": "LW c=2.5", "scheme": "lipschitz", "c": 2.5, "g": -0.125},
            {"name": "Unweighted", "scheme": "unweighted"},
            {"name": "LW c=1", "scheme": "lipschitz", "c": 1.0, "g": 0.0},
            {"name": "Sigmoid", "scheme": "sigmoid", "source": "data", "a": 7.25},
            {"name": "EM8", "scheme": "scalar", "epsilon": 8.0, "tolerance": 0.05},
            {"name": "EM", "scheme": "scalar", "match": "LW c=2.5"},
            {"name": "Sigmoid final", "scheme": "reweight", "base": "Sigmoid", "k": 0.875,
             "tolerance": 0.03},
            {"name": "LW to 5", "scheme": "scaled", "of": "lipschitz", "c": 0.7,
             "target_epsilon": 5.0},
            {"name": "CW half", "scheme": "scaled", "of": "marginal", "source": "data",
             "scale": 0.5},
            {"name": "TopCoded", "scheme": "topcode", "q": 0.95}
          ]})");
        QVERIFY2(bool(in), in ? "" : in.message().c_str());
        SynthesizersPage page;
        page.load(*in);
        page.resize(1200, 900);
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/synthesizers_page_loaded.png")));
        study::RunConfig out = *in;
        out.synthesizers.clear();
        const auto s = page.apply(out);
        QVERIFY2(bool(s), s ? "" : s.message().c_str());
        QCOMPARE(QString::fromStdString(study::toJson(out)).split(QLatin1Char('\n')),
                 QString::fromStdString(study::toJson(*in)).split(QLatin1Char('\n')));
    }

    // Any vector synthesizer takes an optional target epsilon: checked, the row is the scaled
    // scheme of its own weights (its knobs kept), and it loads back as that row with the
    // target shown; EM and the re-weighting have no such knob.
    void vectorRowsTakeATargetEpsilon() {
        SynthesizersPage page;
        auto* cw = page.addRow(SynthesizerRow::CW);
        cw->knob(QStringLiteral("c"))->setValue(0.8);
        auto* target = cw->knob(QStringLiteral("target_epsilon"));
        QVERIFY(target);
        QVERIFY(!target->optionalValue());
        QVERIFY(cw->config().scheme == study::Scheme::Marginal);
        QVERIFY(!cw->config().of);
        target->setOptionalValue(5.0);
        const auto sc = cw->config();
        QVERIFY(sc.scheme == study::Scheme::Scaled);
        QVERIFY(*sc.of == study::Scheme::Marginal);
        QCOMPARE(*sc.targetEpsilon, 5.0);
        QCOMPARE(sc.c, 0.8);
        for (auto kind : {SynthesizerRow::LW, SynthesizerRow::LWM, SynthesizerRow::Pairwise,
                          SynthesizerRow::Sigmoid})
            QVERIFY(page.addRow(kind)->knob(QStringLiteral("target_epsilon")));
        for (auto kind :
             {SynthesizerRow::Unweighted, SynthesizerRow::EM, SynthesizerRow::Reweighted})
            QVERIFY(!page.addRow(kind)->knob(QStringLiteral("target_epsilon")));
        SynthesizerRow back(SynthesizerRow::kindOf(sc));
        back.load(sc);
        QCOMPARE(back.kind(), SynthesizerRow::CW);
        QCOMPARE(*back.knob(QStringLiteral("target_epsilon"))->optionalValue(), 5.0);
        QVERIFY(back.config().scheme == study::Scheme::Scaled);
        back.knob(QStringLiteral("target_epsilon"))->setOptionalValue(std::nullopt);
        QVERIFY(back.config().scheme == study::Scheme::Marginal);
        QVERIFY(!back.config().targetEpsilon);
        page.resize(1200, 900);
        QVERIFY(cw->grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                QStringLiteral("/synthesizer_target_epsilon.png")));
    }

    // The top-coding comparator has its own row (its quantile q); it is neither a target an
    // EM can match nor a base a re-weighting can start from, since it has no epsilon and no
    // weights.
    void topCodedRowIsAComparator() {
        SynthesizersPage page;
        const auto loaded = study::parseRunConfig(R"({
          "data": {"path": "d.csv", "target": "y"},
          "synthesizers": [{"name": "Unweighted", "scheme": "unweighted"},
                           {"name": "TopCoded", "scheme": "topcode"},
                           {"name": "LW", "scheme": "lipschitz"}]})");
        QVERIFY2(bool(loaded), loaded ? "" : loaded.message().c_str());
        page.load(*loaded);
        auto* tc = page.firstRow(SynthesizerRow::TopCoded);
        QVERIFY(tc);
        QCOMPARE(tc->knob(QStringLiteral("q"))->value(), 0.975);
        QVERIFY(tc->knob(QStringLiteral("q")));
        QVERIFY(!tc->knob(QStringLiteral("c")) && !tc->knob(QStringLiteral("target_epsilon")));
        tc->knob(QStringLiteral("q"))->setValue(0.99);
        QVERIFY(tc->config().scheme == study::Scheme::TopCode);
        QCOMPARE(tc->config().topcodeQ, 0.99);
        auto* em = page.addRow(SynthesizerRow::EM);
        QCOMPARE(em->match(), QStringLiteral("LW"));  // the first with weights, not TopCoded
        QCOMPARE(page.addRow(SynthesizerRow::Reweighted)->base(), QStringLiteral("LW"));
        study::RunConfig c;
        c.data.path = "d.csv";
        c.data.target = "y";
        QVERIFY(bool(page.apply(c)));
        QVERIFY(bool(study::validate(c)));
        page.resize(1200, 900);
        QVERIFY(tc->grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                QStringLiteral("/synthesizer_topcoded.png")));
    }

    // Core refuses a sigmoid steepness a <= 0 (a flat or inverted curve): the spin box goes
    // no lower than a positive a, whatever is typed, and its lowest value is one core runs.
    // A small positive a from a configuration is still shown as it is.
    void sigmoidSteepnessStaysPositive() {
        SynthesizersPage page;
        page.clearRows();
        auto* a = page.addRow(SynthesizerRow::Sigmoid)->knob(QStringLiteral("a"));
        QVERIFY(a);
        QVERIFY2(a->spinBox()->minimum() > 0, qPrintable(QString::number(a->spinBox()->minimum())));
        for (const char* typed : {"0", "-2"}) {
            a->spinBox()->selectAll();
            QTest::keyClicks(a->spinBox(), QLatin1String(typed));
            a->spinBox()->interpretText();
            QVERIFY2(a->value() > 0, typed);
        }
        a->spinBox()->setValue(a->spinBox()->minimum());
        auto c = baseConfig();
        QVERIFY(bool(page.apply(c)));
        const auto parsed = study::parseRunConfig(study::toJson(c));
        QVERIFY2(bool(parsed), parsed ? "" : parsed.message().c_str());
        QCOMPARE(parsed->synthesizers.front().sigmoidA, a->spinBox()->minimum());
        auto small = baseConfig();
        small.synthesizers = {study::SynthesizerConfig{}};
        small.synthesizers[0].name = "Sigmoid";
        small.synthesizers[0].scheme = study::Scheme::Sigmoid;
        small.synthesizers[0].sigmoidA = 0.001;
        page.load(small);
        auto back = baseConfig();
        QVERIFY(bool(page.apply(back)));
        QCOMPARE(back.synthesizers.front().sigmoidA, 0.001);
    }

    void synthesizersRefuseInWords_data() {
        QTest::addColumn<int>("setup");
        QTest::addColumn<QString>("message");
        QTest::newRow("none listed") << 0 << QStringLiteral("Add at least one");
        QTest::newRow("EM alone") << 1 << QStringLiteral("EM 'EM' matches the epsilon");
        QTest::newRow("duplicate names") << 2 << QStringLiteral("Two synthesizers are called");
        QTest::newRow("re-weighting alone")
            << 3 << QStringLiteral("Re-weighting 'LW re-weighted' starts from");
        QTest::newRow("EM's target removed")
            << 4 << QStringLiteral("EM 'EM' matches the epsilon of 'LW', which is not in the list");
        QTest::newRow("cycle") << 5 << QStringLiteral("The synthesizers' targets go round");
        QTest::newRow("no name") << 6 << QStringLiteral("Give the CW");
    }
    void synthesizersRefuseInWords() {
        QFETCH(int, setup);
        QFETCH(QString, message);
        SynthesizersPage page;
        if (setup != 4) page.clearRows();
        if (setup == 1) page.addRow(SynthesizerRow::EM);
        if (setup == 2) {
            page.addRow(SynthesizerRow::LW);
            page.addRow(SynthesizerRow::CW)->setName(QStringLiteral("LW"));
        }
        if (setup == 3) page.addRow(SynthesizerRow::Reweighted);
        if (setup == 4) page.removeRow(page.firstRow(SynthesizerRow::LW));
        if (setup == 5) {
            page.addRow(SynthesizerRow::LW);
            auto* a = page.addRow(SynthesizerRow::EM);
            auto* b = page.addRow(SynthesizerRow::EM);
            a->setMatch(b->name());
            b->setMatch(a->name());
        }
        if (setup == 6) page.addRow(SynthesizerRow::CW)->setName(QStringLiteral("  "));
        auto c = baseConfig();
        const auto s = page.apply(c);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.message()).startsWith(message), s.message().c_str());
    }

    // Retyping a name from an empty field keeps the synthesizers that refer to it (EM's
    // match) pointed at it.
    void retypedNameKeepsReferences() {
        SynthesizersPage page;
        auto* lw = page.firstRow(SynthesizerRow::LW);
        QVERIFY(page.firstRow(SynthesizerRow::EM));
        lw->nameEdit()->clear();
        QTest::keyClicks(lw->nameEdit(), QStringLiteral("LW 0.7"));
        auto c = baseConfig();
        const auto s = page.apply(c);
        QVERIFY2(bool(s), s.message().c_str());
        const auto* em = c.find("EM");
        QVERIFY(em);
        QCOMPARE(em->match, std::string("LW 0.7"));
    }

    // A synthesizer renamed to something that is a path says so under the name as it is
    // typed, and the run is refused; a name that can be a file name clears the note.
    void renameToAPathIsRefused() {
        SynthesizersPage page;
        page.resize(900, 700);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* lw = page.firstRow(SynthesizerRow::LW);
        auto* note = lw->findChild<QLabel*>(QStringLiteral("nameNote"));
        QVERIFY(note);
        QVERIFY(note->isHidden());
        lw->nameEdit()->selectAll();  // typed over, as a user renames
        QTest::keyClicks(lw->nameEdit(), QStringLiteral("../../bundle/data/leak"));
        QVERIFY(!note->isHidden());
        QVERIFY2(note->text().contains(QStringLiteral("starts with '.'")),
                 qPrintable(note->text()));
        QVERIFY(page.grab().save(testing::outputDir(QStringLiteral("screenshots")) +
                                 QStringLiteral("/synthesizer_name_not_usable.png")));
        auto c = baseConfig();
        const auto s = page.apply(c);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.message())
                     .startsWith(QStringLiteral("Rename the LW: Lipschitz-weighted synthesizer: "
                                                "the name '../../bundle/data/leak' starts with")),
                 s.message().c_str());
        lw->nameEdit()->setText(QStringLiteral("LW/0.6"));
        QVERIFY2(note->text().contains(QStringLiteral("contains '/'")), qPrintable(note->text()));
        lw->nameEdit()->setText(QStringLiteral("LW 0.6, g = -0.1"));
        QVERIFY(note->isHidden());
        const auto fine = page.apply(c);
        QVERIFY2(bool(fine), fine.message().c_str());
    }

    // The preview equals LW (and LW-M) weights computed by hand from f after every slider
    // move on 100,000 records; the latency of a move (compute + redraw) is printed, not
    // asserted (a test must not fail on a timing).
    void previewFollowsKnobsQuickly() {
        SynthesizersPage page;
        page.resize(1200, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto* panel = page.previewPanel();
        QVERIFY(panel->boundLabel()->text().contains(QStringLiteral("No unweighted fit")));
        std::mt19937_64 rng(5);
        std::gamma_distribution<double> gamma(2.0, 1.0);
        Eigen::VectorXd f(100000);
        for (auto& v : f) v = gamma(rng);
        panel->setBounds(f, QStringLiteral("test"));
        page.addRow(SynthesizerRow::LWM);

        auto* slider = page.firstRow(SynthesizerRow::LW)->knob("c")->slider();
        std::vector<double> ms;
        QElapsedTimer t;
        for (int i = 0; i < 40; ++i) {
            t.start();
            slider->setValue(200 + 15 * i);             // c from 0.4 upwards
            panel->chartView()->viewport()->repaint();  // draw now, not at the next idle
            QCoreApplication::processEvents();
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
            const double c = page.firstRow(SynthesizerRow::LW)->knob("c")->value();
            const auto alpha = privacy::lipschitzWeights(f, c, 0.0);
            const double bound = alpha.cwiseProduct(f).maxCoeff();
            QCOMPARE(panel->lastPreview()->predictedBound, bound);
        }
        QVERIFY(panel->boundLabel()->text().startsWith(QStringLiteral("LW: predicted bound")));
        QCOMPARE(panel->histogramSeries()->count(), int(2 * ui::WeightPreviewPanel::kBins + 2));
        // LW-M: moving M truncates; the predicted bound never exceeds M.
        auto* M = page.firstRow(SynthesizerRow::LWM)->knob("M");
        for (double m : {4.0, 2.0, 1.0}) {
            t.start();
            M->setValue(m);
            panel->chartView()->viewport()->repaint();
            QCoreApplication::processEvents();
            ms.push_back(double(t.nsecsElapsed()) / 1e6);
            QVERIFY(panel->lastPreview()->predictedBound <= m);
            QVERIFY(panel->boundLabel()->text().startsWith(QStringLiteral("LW-M:")));
        }
        // A second LW row previews its own knobs; without LW rows the preview says so.
        auto* second = page.duplicateRow(page.firstRow(SynthesizerRow::LW));
        second->knob("c")->setValue(0.3);
        QVERIFY(panel->boundLabel()->text().startsWith(QStringLiteral("LW 2:")));
        QCOMPARE(panel->lastPreview()->predictedBound,
                 privacy::lipschitzWeights(f, 0.3, 0.0).cwiseProduct(f).maxCoeff());
        for (auto* row : std::vector<SynthesizerRow*>(page.rows()))
            if (row->kind() == SynthesizerRow::LW || row->kind() == SynthesizerRow::LWM)
                page.removeRow(row);
        QVERIFY(!panel->lastPreview());
        QVERIFY(panel->boundLabel()->text().startsWith(QStringLiteral("Add an LW")));
        const double med = median(ms);
        const double worst = *std::max_element(ms.begin(), ms.end());
        qInfo(
            "preview latency on 100,000 records (compute + redraw): median %.2f ms, max %.2f ms "
            "over %zu moves",
            med, worst, ms.size());
    }

    // The run page's progress: fits counted by synthesizer and by restarts (EM's refits),
    // chains by worker, steps after sampling shown without moving the bars.
    void progressBoardCountsFitsAndChains() {
        ui::ProgressBoard board;
        board.reset(2, 100, 300, 3);
        board.report({"Unweighted: warmup", 0, 50, 100});
        auto s = board.snapshot();
        QCOMPARE(s.fit, std::string("Unweighted"));
        QCOMPARE(s.fitIndex, 0);
        QCOMPARE(s.chains.size(), std::size_t(2));
        // Chain 0 half through warm-up (a quarter of its fit), chain 1 not started.
        QCOMPARE(s.overall, (0.5 * 0.25 + 0) / 2 / 3);
        board.report({"Unweighted: sampling", 1, 300, 300});
        board.report({"Unweighted: sampling", 0, 300, 300});
        QCOMPARE(board.snapshot().overall, 1.0 / 3);
        board.report({"Unweighted: utility", 0, 1, 4});
        s = board.snapshot();
        QCOMPARE(s.step, std::string("utility"));
        QCOMPARE(s.fitIndex, 0);
        QCOMPARE(s.overall, 1.0 / 3);
        board.report({"EM: warmup", 0, 10, 100});
        QCOMPARE(board.snapshot().fitIndex, 1);
        QVERIFY(board.snapshot().step.empty());
        board.report({"EM: sampling", 0, 10, 300});
        board.report({"EM: warmup", 0, 1, 100});  // EM refits: a new fit of the same name
        s = board.snapshot();
        QCOMPARE(s.fitIndex, 2);
        QVERIFY(s.overall < 0.99);
        board.report({"EM: warmup", 1, 1, 100});
        board.report({"EM: warmup", 0, 2, 100});
        QCOMPARE(board.snapshot().fitIndex, 2);  // other chain and progress: same fit
        board.report({"EM: sampling", 0, 1, 300});
        board.report({"EM: warmup", 1, 2, 100});
        board.report({"EM: sampling", 1, 300, 300});
        board.report({"EM: warmup", 0, 1, 100});
        QCOMPARE(board.snapshot().fitIndex, 3);  // more fits than expected: capped below 1
        QVERIFY(board.snapshot().overall < 1.0);
        QVERIFY(board.trySnapshot().has_value());
        QCOMPARE(board.snapshot().reports, 13LL);
    }

    void projectFileRoundTrip() {
        QTemporaryDir dir;
        ui::Project p;
        p.dataPath = dir.filePath(QStringLiteral("data/survey.csv"));
        p.csv.delimiter = ';';
        p.csv.missingTokens = {"NA", "-9"};
        p.config = baseConfig();
        p.config.data.path = p.dataPath.toStdString();
        p.config.data.types = {{"age", "categorical"}, {"income", "numeric"}};
        p.config.data.referenceLevels = {{"age", "65+"}};
        p.config.data.maxLevels = 7;
        p.config.data.transform = "log";
        p.config.model.family = "negbin";
        p.config.mcmc.draws = 123;
        study::SynthesizerConfig lw;
        lw.name = "LW";
        lw.scheme = study::Scheme::Lipschitz;
        lw.c = 0.5;
        p.config.synthesizers = {lw};
        p.runs.push_back({dir.filePath(QStringLiteral("p_runs/run_1")), QStringLiteral("Run 1"),
                          QStringLiteral("LW: ε 2")});
        const QString file = dir.filePath(QStringLiteral("p.ppsynth"));
        QVERIFY(bool(ui::saveProject(p, file)));
        // Paths inside the project's folder are stored relative to it.
        QFile raw(file);
        QVERIFY(raw.open(QIODevice::ReadOnly));
        const QByteArray text = raw.readAll();
        QVERIFY(text.contains("\"data/survey.csv\""));
        QVERIFY(text.contains("\"p_runs/run_1\""));
        auto back = ui::loadProject(file);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QCOMPARE(back->dataPath, p.dataPath);
        QCOMPARE(back->csv.delimiter, ';');
        QCOMPARE(back->csv.missingTokens, (std::vector<std::string>{"NA", "-9"}));
        QCOMPARE(back->csv.quote, '"');
        QCOMPARE(study::toJson(back->config), study::toJson(p.config));
        // The reference level changes the coding, hence priors and posterior (METHOD.md 1).
        QCOMPARE(back->config.data.referenceLevels, p.config.data.referenceLevels);
        QCOMPARE(back->config.data.maxLevels, std::size_t{7});
        QCOMPARE(back->runs.size(), std::size_t(1));
        QCOMPARE(back->runs[0].folder, p.runs[0].folder);
        QCOMPARE(back->runs[0].summary, p.runs[0].summary);
        const auto options = ui::readOptionsOf(*back);
        QCOMPARE(options.typeOverrides.size(), std::size_t(2));
        QCOMPARE(options.maxLevels, std::size_t{7});  // the file is read as it was

        // A project written with an empty quote (or none; format version 1, whose data.csv
        // allowed it) reads the usual double quote, never a NUL character that would reach
        // run.json.
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(R"({"format": "ppsynth-project", "version": 1,
                "data": {"path": "data/survey.csv", "csv": {"delimiter": ";", "quote": ""}},
                "run_config": {"synthesizers": [{"name": "U", "scheme": "unweighted"}]}})");
            f.close();
            auto noQuote = ui::loadProject(file);
            QVERIFY2(bool(noQuote), noQuote ? "" : noQuote.message().c_str());
            QCOMPARE(noQuote->csv.quote, '"');
        }

        // Saved before the sensitive variable and the synthesizers were chosen.
        p.config.data.target.clear();
        p.config.synthesizers.clear();
        p.hasSynthesizers = false;
        QVERIFY(bool(ui::saveProject(p, file)));
        back = ui::loadProject(file);
        QVERIFY2(bool(back), back ? "" : back.message().c_str());
        QVERIFY(back->config.data.target.empty());
        QVERIFY(back->config.synthesizers.empty());
    }

    void badProjectsRefusedInWords_data() {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << QByteArray("{oops") << QStringLiteral("not valid JSON");
        QTest::newRow("other format")
            << QByteArray(R"({"format": "x"})") << QStringLiteral("not a ppsynth project");
        QTest::newRow("future version")
            << QByteArray(R"({"format": "ppsynth-project", "version": 9})")
            << QStringLiteral("version 9");
        QTest::newRow("no data path")
            << QByteArray(R"({"format": "ppsynth-project", "version": 1, "data": {}})")
            << QStringLiteral("\"data.path\" is missing");
        QTest::newRow("bad model")
            << QByteArray(R"({"format": "ppsynth-project", "version": 1, "data": {"path": "a.csv"},
                 "run_config": {"model": {"family": "cubic"}, "synthesizers": [{"name": "U",
                 "scheme": "unweighted"}]}})")
            << QStringLiteral("model: 'family' must be");
        // Qt's reader keeps one of two equal keys; a project refuses them, naming where.
        QTest::newRow("synthesizer key twice")
            << QByteArray(R"({"format": "ppsynth-project", "version": 1, "data": {"path": "a.csv"},
                 "run_config": {"synthesizers": [{"name": "U", "scheme": "unweighted"},
                 {"name": "LW", "scheme": "lipschitz", "c": 0.5, "c": 0.7}]}})")
            << QStringLiteral("run_config.synthesizers[1]: key 'c' appears twice");
        QTest::newRow("project key twice")
            << QByteArray(R"({"format": "ppsynth-project", "version": 1, "data": {"path": "a.csv"},
                 "data": {"path": "b.csv"}})")
            << QStringLiteral("project: key 'data' appears twice");
    }
    void badProjectsRefusedInWords() {
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("bad.ppsynth"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        const auto p = ui::loadProject(file);
        QVERIFY(!p);
        QVERIFY2(QString::fromStdString(p.message()).contains(message), p.message().c_str());
        QVERIFY(QString::fromStdString(p.message())
                    .startsWith(QStringLiteral("project 'bad.ppsynth'")));
    }
};

QTEST_MAIN(TstSetupPages)
#include "tst_setup_pages.moc"
