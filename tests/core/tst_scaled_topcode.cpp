// Scaled vector weights with a target epsilon (METHOD.md 3.10) and the top-coding comparator
// (3.9): the scale solver on an epsilon that grows with a (the target hit within 2%, every
// refit reported, an unreachable target said), alpha = a * alpha_v exactly in a run, the
// top-coded file's identification risk against a count by hand, and neither a top-coding
// entry nor its missing epsilon reaching a release.
#include <QTest>
#include <cmath>
#include <filesystem>

#include "../common/near.hpp"
#include "ppsynth/data/examples.hpp"
#include "ppsynth/data/io.hpp"
#include "ppsynth/privacy/scaled_weight.hpp"
#include "ppsynth/release/from_run.hpp"
#include "ppsynth/study/public_run.hpp"
#include "ppsynth/study/run_loader.hpp"
#include "ppsynth/study/run_output.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/study/topcode.hpp"

using namespace ppsynth;
using study::Scheme;

namespace {

const data::Table& poissonTable() {
    static const auto table = data::makeExample(data::ExampleId::Poisson);
    return table;
}

study::SynthesizerConfig synthesizer(const std::string& name, Scheme scheme) {
    study::SynthesizerConfig s;
    s.name = name;
    s.scheme = scheme;
    return s;
}

// The conjugate Poisson-means model on the bundled poisson example: exact draws, fast.
study::RunConfig poissonRun(std::vector<study::SynthesizerConfig> synthesizers) {
    study::RunConfig c;
    c.data.path = "poisson.csv";
    c.data.target = "y";
    c.model.family = "poisson-means";
    c.mcmc.chains = 2;
    c.mcmc.warmup = 0;
    c.mcmc.draws = 300;
    c.mcmc.threads = 1;
    c.mcmc.seed = 5;
    c.synthesis.m = 2;
    c.risk.L = 2;
    c.utility.enabled = false;
    c.synthesizers = std::move(synthesizers);
    return c;
}

study::SynthesizerConfig lw() {
    auto s = synthesizer("LW", Scheme::Lipschitz);
    s.c = 0.7;
    return s;
}

study::SynthesizerConfig scaledLw(const std::string& name) {
    auto s = synthesizer(name, Scheme::Scaled);
    s.of = Scheme::Lipschitz;
    s.c = 0.7;
    return s;
}

}  // namespace

class TstScaledTopcode : public QObject {
    Q_OBJECT
  private slots:
    // epsilon(a) = e1 * a^p, increasing in a: the solver starts at a = 1 (the vector scheme),
    // then target / (2 Delta_{alpha_v,x}), and stops within 2% of the target.
    void solverHitsTheTarget_data() {
        QTest::addColumn<double>("e1");  // epsilon at a = 1
        QTest::addColumn<double>("power");
        QTest::addColumn<double>("target");
        QTest::newRow("linear") << 12.0 << 1.0 << 5.0;
        QTest::newRow("convex") << 12.0 << 1.6 << 2.0;
        QTest::newRow("concave") << 40.0 << 0.5 << 10.0;
        QTest::newRow("a = 1 already") << 5.05 << 1.0 << 5.0;
    }
    void solverHitsTheTarget() {
        QFETCH(double, e1);
        QFETCH(double, power);
        QFETCH(double, target);
        std::vector<double> asked;
        auto refit = [&](double a) -> Expected<privacy::RefitBound> {
            asked.push_back(a);
            return privacy::RefitBound{0.5 * e1 * std::pow(a, power)};
        };
        auto r = privacy::solveScaledWeight(target, refit);
        QVERIFY2(r, r ? "" : r.message().c_str());
        QVERIFY(r->converged);
        QVERIFY(r->reachable);
        QVERIFY(std::abs(r->epsilon - target) <= 0.02 * target);
        QCOMPARE(r->epsilon, 0.5 * e1 * std::pow(r->a, power) * 2);
        // Every refit is reported, in order, the vector scheme's own (a = 1) first.
        QCOMPARE(r->tries.size(), asked.size());
        for (std::size_t i = 0; i < asked.size(); ++i) {
            QCOMPARE(r->tries[i].a, asked[i]);
            QCOMPARE(r->tries[i].epsilon, e1 * std::pow(asked[i], power));
        }
        QCOMPARE(r->tries.front().a, 1.0);
        if (r->tries.size() > 1) QCOMPARE(r->tries[1].a, target / e1);  // target / (2 Delta)
        QVERIFY(r->a > 0 && r->a <= 1);
        QVERIFY(r->tries.size() <= 10);
    }

    // A target above the vector scheme's own epsilon needs a > 1: reported as unreachable,
    // with a = 1 and the epsilon it has, after that one refit.
    void unreachableTargetIsSaid() {
        int refits = 0;
        auto refit = [&](double a) -> Expected<privacy::RefitBound> {
            ++refits;
            return privacy::RefitBound{3.0 * a};
        };
        auto r = privacy::solveScaledWeight(10.0, refit);
        QVERIFY(r);
        QVERIFY(!r->reachable);
        QVERIFY(!r->converged);
        QCOMPARE(r->a, 1.0);
        QCOMPARE(r->epsilon, 6.0);
        QCOMPARE(r->tries.size(), std::size_t{1});
        QCOMPARE(refits, 1);
    }

    // In a run, the weights are the vector scheme's times a, exactly; with a target the
    // a = 1 refit is LW's own fit (same seed), the chosen refit meets the target within 2%,
    // and an unreachable target keeps LW's weights and epsilon.
    void runScalesTheVectorWeightsExactly() {
        auto given = scaledLw("LW_a04");
        given.scale = 0.4;
        auto first = study::runStudy(poissonRun({lw(), given}), poissonTable());
        QVERIFY2(first, first ? "" : first.message().c_str());
        const auto& base = *first->find("LW");
        const auto& scaled = *first->find("LW_a04");
        QVERIFY(base.records.alpha.minCoeff() < base.records.alpha.maxCoeff());
        QVERIFY(scaled.records.alpha == (0.4 * base.records.alpha).eval());
        QCOMPARE(scaled.scaled()->a, 0.4);
        QVERIFY(scaled.scaled()->tries.empty());
        QCOMPARE(scaled.fits, 1);
        QVERIFY(scaled.epsilon.perDataset < base.epsilon.perDataset);

        const double lwEpsilon = base.epsilon.perDataset;
        auto half = scaledLw("LW_half");
        half.targetEpsilon = lwEpsilon / 2;
        auto above = scaledLw("LW_above");
        above.targetEpsilon = 3 * lwEpsilon;
        auto second = study::runStudy(poissonRun({lw(), half, above}), poissonTable());
        QVERIFY2(second, second ? "" : second.message().c_str());
        const auto& h = *second->find("LW_half");
        const auto* hd = h.scaled();
        QVERIFY(hd && hd->reachable);
        QVERIFY2(hd->converged, std::to_string(h.epsilon.perDataset).c_str());
        QVERIFY(std::abs(h.epsilon.perDataset - lwEpsilon / 2) <= 0.02 * lwEpsilon / 2);
        QVERIFY(h.records.alpha == (hd->a * base.records.alpha).eval());
        QCOMPARE(hd->tries.front().a, 1.0);
        QCOMPARE(hd->tries.front().epsilon, lwEpsilon);
        QCOMPARE(static_cast<std::size_t>(h.fits), hd->tries.size());
        const auto& a = *second->find("LW_above");
        QVERIFY(!a.scaled()->reachable);
        QCOMPARE(a.scaled()->a, 1.0);
        QCOMPARE(a.epsilon.perDataset, lwEpsilon);
        QVERIFY(a.records.alpha == base.records.alpha);
    }

    // y = 1..10 in one pattern, q = 0.8: t = 8.2 (type 7), y_tc = 1..8, 8.2, 8.2. With a 20%
    // radius every record's own top-coded value is close to it (T_i = 1), and IR_i is the
    // share of the ten top-coded values at least 0.2 y_i from y_i, counted by hand.
    void topcodeRiskMatchesAHandCount() {
        const std::vector<double> y{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        const std::vector<std::int32_t> onePattern(10, 0);
        auto sc = synthesizer("TC", Scheme::TopCode);
        sc.topcodeQ = 0.8;
        privacy::RiskOptions ro;
        ro.radius = {0.2, true};
        const std::vector<double> baseline(10, 0.0);
        auto r = study::topCodeComparator(sc, y, onePattern, ro, 0.5, baseline, 0.25);
        QVERIFY2(r, r ? "" : r.message().c_str());
        QVERIFY_NEAR(r->topCode()->threshold, 8.2, 1e-12);
        QCOMPARE(r->topCode()->capped, std::size_t{2});
        QCOMPARE(r->synthetic.size(), std::size_t{1});
        const std::vector<double> expected{0.9, 0.9, 0.9, 0.9, 0.9, 0.7, 0.5, 0.6, 0.7, 0.8};
        QCOMPARE(r->records.ir.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY_NEAR(r->records.ir[i], expected[i], 1e-12);
        QVERIFY_NEAR(r->irSummary.mean, 0.78, 1e-12);
        QCOMPARE(r->irSummary.aboveThreshold, std::size_t{9});    // 0.5 is not above 0.5
        QCOMPARE(r->records.whackAMole.size(), std::size_t{10});  // all rose from 0
        // No formal guarantee: no epsilon at all.
        QVERIFY(!r->formalGuarantee());
        QVERIFY(std::isnan(r->epsilon.perDataset));
        QCOMPARE(r->fits, 0);
        // Counts stay whole: t rounded down, the same two records capped.
        auto counts = study::topCodeComparator(sc, y, onePattern, ro, 0.5, baseline, 0.25, true);
        QVERIFY(counts);
        QCOMPARE(counts->topCode()->threshold, 8.0);
        QCOMPARE(counts->synthetic.front()[9], 8.0);
        QCOMPARE(counts->topCode()->capped, std::size_t{2});
    }

    // Two sensitive variables, one pattern, q = 0.8, a 20% radius, by hand:
    //   y1 = 100, 104, 110, 200, 300: t1 = 200 + 0.2 (300 - 200) = 220 (type 7), record 5 capped
    //   y2 =  10,  11,  51,  12,  30: t2 = 30 + 0.2 (51 - 30) = 34.2, record 3 capped
    //   y* = (100, 10), (104, 11), (110, 34.2), (200, 12), (220, 30).
    // Close to i = within 0.2 |y_i| in BOTH variables:
    //   1 (100, 10), box 20 x 2:    y*_1 close (T = 1); y*_2 close; others not: IR 3/5
    //   2 (104, 11), box 20.8 x 2.2: y*_2 close; y*_1 close; others not:        IR 3/5
    //   3 (110, 51), box 22 x 10.2: y*_3 = (110, 34.2) is 16.8 away in y2: T = 0, IR 0
    //   4 (200, 12), box 40 x 2.4:  y*_4 close; y*_5 (220, 30) 18 away in y2:   IR 4/5
    //   5 (300, 30), box 60 x 6:    y*_5 = (220, 30) 80 away in y1: T = 0,       IR 0
    // As counts, y2's t is 34 (rounded down): the same record capped, the same IR.
    void topcodeSeveralMatchesAHandCount_data() {
        QTest::addColumn<bool>("counts");
        QTest::addColumn<double>("t2");
        QTest::newRow("numbers") << false << 34.2;
        QTest::newRow("y2 counts") << true << 34.0;
    }
    void topcodeSeveralMatchesAHandCount() {
        QFETCH(bool, counts);
        QFETCH(double, t2);
        const std::vector<double> y{100, 104, 110, 200, 300, 10, 11, 51, 12, 30};
        const std::vector<std::int32_t> onePattern(5, 0);
        auto sc = synthesizer("TC", Scheme::TopCode);
        sc.topcodeQ = 0.8;
        privacy::RiskOptions ro;
        ro.radius = {0.2, true};
        const std::vector<double> baseline(5, 0.0);
        auto r = study::topCodeComparatorSeveral(sc, y, {"y1", "y2"}, {false, counts}, onePattern,
                                                 ro, {}, 0.5, baseline, 0.25);
        QVERIFY2(r, r ? "" : r.message().c_str());
        const auto* d = r->topCode();
        QVERIFY(d);
        QCOMPARE(d->variables.size(), std::size_t{2});
        QCOMPARE(d->variables[0].name, std::string("y1"));
        QVERIFY_NEAR(d->variables[0].threshold, 220.0, 1e-12);
        QCOMPARE(d->variables[0].capped, std::size_t{1});
        QCOMPARE(d->variables[1].name, std::string("y2"));
        QVERIFY_NEAR(d->variables[1].threshold, t2, 1e-12);
        QCOMPARE(d->variables[1].capped, std::size_t{1});
        QCOMPARE(d->threshold, d->variables[0].threshold);  // the first variable's
        QCOMPARE(d->q, 0.8);
        QCOMPARE(r->synthetic.size(), std::size_t{1});
        const std::vector<double> expectedY{100, 104, 110, 200, 220, 10, 11, t2, 12, 30};
        QCOMPARE(r->synthetic[0].size(), expectedY.size());
        for (std::size_t i = 0; i < expectedY.size(); ++i)
            QVERIFY_NEAR(r->synthetic[0][i], expectedY[i], 1e-12);
        const std::vector<double> expected{0.6, 0.6, 0.0, 0.8, 0.0};
        QCOMPARE(r->records.ir.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i)
            QVERIFY_NEAR(r->records.ir[i], expected[i], 1e-12);
        QVERIFY_NEAR(r->irSummary.mean, 0.4, 1e-12);
        QCOMPARE(r->irSummary.aboveThreshold, std::size_t{3});
        QCOMPARE(r->records.whackAMole.size(), std::size_t{3});  // the three that rose from 0
        QVERIFY(!r->formalGuarantee());
        QVERIFY(std::isnan(r->epsilon.perDataset));
        QVERIFY(std::isnan(r->deltaAlphaX));
        // One radius per variable: 0.5 on y2 makes record 3's box 22 x 25.5, so y*_3 (16.8
        // away in y2) is close (T = 1) and no other y* is (y*_1, y*_2 are 40 or more away in
        // y2): IR 4/5.
        auto wide = study::topCodeComparatorSeveral(
            sc, y, {"y1", "y2"}, {false, counts}, onePattern, ro,
            {privacy::Radius{0.2, true}, privacy::Radius{0.5, true}}, 0.5, baseline, 0.25);
        QVERIFY(wide);
        QVERIFY_NEAR(wide->records.ir[2], 0.8, 1e-12);
    }

    // A run with two sensitive variables (y2 a count given y1) and the comparator: each
    // variable capped at its own 0.9-quantile (the count's rounded down), the box IR, the
    // utility per variable and jointly, no epsilon; run.json keeps each variable's threshold.
    void topcodeInARunWithTwoVariables() {
        constexpr std::size_t n = 120;
        std::vector<double> x, y1, y2;
        for (std::size_t i = 0; i < n; ++i) {
            x.push_back(static_cast<double>(i % 10));
            y1.push_back(20 + 3 * x.back() + 4 * std::sin(static_cast<double>(i) * 1.7));
            y2.push_back(std::round(2 + 0.2 * y1.back() + 2 * std::cos(static_cast<double>(i))));
        }
        data::Table table;
        QVERIFY(table.addColumn(data::Column::numeric("x", x)).isOk());
        QVERIFY(table.addColumn(data::Column::numeric("y1", y1)).isOk());
        QVERIFY(table.addColumn(data::Column::count("y2", y2)).isOk());
        const auto dir = std::filesystem::temp_directory_path() / "tst_scaled_topcode_two";
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        const std::string data = (dir / "two.csv").string();
        QVERIFY(data::writeTable(table, data).isOk());
        study::RunConfig c;
        c.data.path = data;
        c.data.target = "y1";
        c.data.targets = {"y1", "y2"};
        c.data.predictors = {"x"};
        c.model.family = "normal";
        study::RunConfig::ModelOverride counts;
        counts.family = "poisson";
        counts.transform = "none";
        c.models["y2"] = counts;
        c.mcmc.chains = 2;
        c.mcmc.warmup = 100;
        c.mcmc.draws = 100;
        c.mcmc.threads = 1;
        c.mcmc.seed = 9;
        c.synthesis.m = 2;
        c.risk.L = 2;
        c.utility.bootstrap = 40;
        auto tc = synthesizer("TC", Scheme::TopCode);
        tc.topcodeQ = 0.9;
        c.synthesizers = {synthesizer("Unweighted", Scheme::Unweighted), tc};
        auto run = study::runStudy(c, table);
        QVERIFY2(run, run ? "" : run.message().c_str());
        const auto& t = *run->find("TC");
        QVERIFY(!t.formalGuarantee());
        QVERIFY(std::isnan(t.epsilon.perDataset));
        const auto* d = t.topCode();
        QVERIFY(d && d->variables.size() == 2);
        const double t1 = privacy::topCode(y1, 0.9).threshold;
        const double t2 = std::floor(privacy::topCode(y2, 0.9).threshold);
        QCOMPARE(d->variables[0].threshold, t1);
        QCOMPARE(d->variables[1].threshold, t2);
        QCOMPARE(t.synthetic.size(), std::size_t{1});
        QCOMPARE(t.synthetic[0].size(), 2 * n);
        std::size_t capped2 = 0;
        for (std::size_t i = 0; i < n; ++i) {
            QCOMPARE(t.synthetic[0][i], std::min(y1[i], t1));
            QCOMPARE(t.synthetic[0][n + i], std::min(y2[i], t2));
            capped2 += y2[i] > t2 ? 1 : 0;
        }
        QCOMPARE(d->variables[1].capped, capped2);
        QCOMPARE(t.records.ir.size(), n);
        QVERIFY(t.irSummary.mean > 0 && t.irSummary.max <= 1);
        // Utility per variable and jointly (one dataset: the joint regressions say why not).
        QVERIFY2(t.utility.has_value(), t.utilityError.c_str());
        QCOMPARE(t.utility->variables.size(), std::size_t{2});
        QCOMPARE(t.utility->variables[1].target, std::string("y2"));
        QVERIFY(t.utility->joint.has_value());
        QVERIFY(t.utility->joint->correlationComputed);
        // run.json keeps every variable's threshold; a reloaded run has them back.
        const Status w = study::writeRunOutput(*run, table, (dir / "run").string());
        QVERIFY2(w.isOk(), w.message().c_str());
        auto back = study::loadRunOutput((dir / "run").string());
        QVERIFY2(back, back ? "" : back.message().c_str());
        const auto* bd = back->find("TC")->topCode();
        QVERIFY(bd && bd->variables.size() == 2);
        QCOMPARE(bd->variables[1].name, std::string("y2"));
        QCOMPARE(bd->variables[1].threshold, t2);
        QCOMPARE(bd->variables[1].capped, capped2);
    }

    // A run with the comparator: beside the synthesizers, never fitted, never released.
    void topcodeInARunIsNeverReleased() {
        auto tc = synthesizer("TC", Scheme::TopCode);
        auto run = study::runStudy(poissonRun({lw(), tc}), poissonTable());
        QVERIFY2(run, run ? "" : run.message().c_str());
        const auto& t = *run->find("TC");
        QVERIFY(!t.formalGuarantee());
        QCOMPARE(t.synthetic.size(), std::size_t{1});
        QVERIFY(t.irSummary.mean > 0);
        const study::PublicRun pub(*run);
        auto manifest = release::manifestFromRun(pub, "TC");
        QVERIFY(!manifest);
        QVERIFY(manifest.kind() == ErrorKind::InvalidInput);
        QVERIFY2(manifest.message().find("no formal privacy guarantee") != std::string::npos,
                 manifest.message().c_str());
        // The scaled scheme's manifest names its scale and its vector scheme's knobs.
        auto half = scaledLw("LW_s");
        half.scale = 0.5;
        auto scaledRun = study::runStudy(poissonRun({lw(), half}), poissonTable());
        QVERIFY(scaledRun);
        const study::PublicRun scaledPub(*scaledRun);
        auto m = release::manifestFromRun(scaledPub, "LW_s");
        QVERIFY2(m, m ? "" : m.message().c_str());
        QCOMPARE(std::get<double>(m->mechanism.knobs.at("scale")), 0.5);
        QCOMPARE(std::get<std::string>(m->mechanism.knobs.at("of")), std::string("lipschitz"));
        QCOMPARE(std::get<double>(m->mechanism.knobs.at("of_c")), 0.7);
    }
};

QTEST_GUILESS_MAIN(TstScaledTopcode)
#include "tst_scaled_topcode.moc"
