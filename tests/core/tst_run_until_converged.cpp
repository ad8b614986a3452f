// Running until converged ("mcmc": {"draws": "auto"}): the configuration keys, the blocks a
// fit samples (it stops after the first block that meets the rule), the budget, and that
// continued chains give exactly the draws of one fixed-length run with the same seed.
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <cstring>

#include "ppsynth/models/factory.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/study/fit.hpp"
#include "ppsynth/study/record_bounds.hpp"
#include "ppsynth/study/run_config.hpp"

using namespace ppsynth;

namespace {

// A normal regression on 200 records (intercept and one slope): NUTS mixes it at once.
// With family "normal-mixture": two components, tau sampled (the Gibbs sweep's form).
std::unique_ptr<models::Model> normalRegression(const std::string& family = "normal") {
    const int n = 200;
    Rng rng = makeRng(11, 0, Purpose::Test);
    boost::random::normal_distribution<double> z(0.0, 1.0);
    Eigen::MatrixXd X(n, 2);
    Eigen::VectorXd y(n);
    for (int i = 0; i < n; ++i) {
        X(i, 0) = 1.0;
        X(i, 1) = z(rng);
        y(i) = 1.0 + 0.5 * X(i, 1) + 0.7 * z(rng);
    }
    models::ModelSpec spec;
    spec.family = family;
    spec.components = 2;
    spec.priors.tau = models::TauForm::Sampled;
    auto m = models::makeModel(spec, X, y);
    if (!m) qFatal("makeModel: %s", m.message().c_str());
    return std::move(m.value());
}

study::FitOptions options(int draws) {
    study::FitOptions o;
    o.sampler.chains = 2;
    o.sampler.warmup = 200;
    o.sampler.draws = draws;
    o.sampler.seed = 5;
    o.sampler.threads = 2;
    return o;
}

bool sameBytes(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) ==
               0;
}

const char* const kMixtureData =
    R"("data": {"path": "d.csv", "target": "y"}, "synthesizers": [{"name": "U", "scheme": "unweighted"}], )";

}  // namespace

class TestRunUntilConverged : public QObject {
    Q_OBJECT
  private slots:
    void configKeys_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<bool>("automatic");
        QTest::addColumn<int>("block");
        QTest::addColumn<double>("budget");
        QTest::addColumn<int>("replicas");
        QTest::newRow("auto") << R"("mcmc": {"draws": "auto", "budget_seconds": 120})" << true
                              << 1000 << 120.0 << 1;
        QTest::newRow("auto with block")
            << R"("mcmc": {"draws": "auto", "block_draws": 250})" << true << 250 << 600.0 << 1;
        QTest::newRow("fixed") << R"("mcmc": {"draws": 300})" << false << 300 << 600.0 << 1;
        QTest::newRow("mixture default")
            << R"("model": {"family": "normal-mixture"})" << true << 1000 << 600.0 << 1;
        QTest::newRow("mixture fixed")
            << R"("model": {"family": "normal-mixture"}, "mcmc": {"draws": 500})" << false << 500
            << 600.0 << 1;
        QTest::newRow("normal default")
            << R"("model": {"family": "normal"})" << false << 1000 << 600.0 << 1;
        QTest::newRow("tempering")
            << R"("mcmc": {"tempering": {"replicas": 4, "hottest": 0.05, "target_swap": 0.4}})"
            << false << 1000 << 600.0 << 4;
    }
    void configKeys() {
        QFETCH(QString, json);
        QFETCH(bool, automatic);
        QFETCH(int, block);
        QFETCH(double, budget);
        QFETCH(int, replicas);
        const std::string text = "{" + std::string(kMixtureData) + json.toStdString() + "}";
        auto c = study::parseRunConfig(text);
        QVERIFY2(c.hasValue(), c ? "" : c.message().c_str());
        QCOMPARE(c->mcmc.drawsAuto, automatic);
        QCOMPARE(c->mcmc.draws, block);
        QCOMPARE(c->mcmc.budgetSeconds, budget);
        QCOMPARE(c->mcmc.replicas, replicas);
        // The canonical JSON reads back to the same settings.
        auto again = study::parseRunConfig(study::toJson(*c));
        QVERIFY2(again.hasValue(), again ? "" : again.message().c_str());
        QCOMPARE(again->mcmc.drawsAuto, automatic);
        QCOMPARE(again->mcmc.draws, block);
        QCOMPARE(again->mcmc.budgetSeconds, budget);
        QCOMPARE(again->mcmc.replicas, replicas);
        QCOMPARE(again->mcmc.hottest, c->mcmc.hottest);
        QCOMPARE(again->mcmc.targetSwap, c->mcmc.targetSwap);
    }

    void configErrors_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        QTest::newRow("word") << R"("mcmc": {"draws": "lots"})"
                              << R"(mcmc: 'draws' must be a whole number or "auto")";
        QTest::newRow("block without auto") << R"("mcmc": {"draws": 10, "block_draws": 5})"
                                            << "mcmc: 'block_draws' goes with";
        QTest::newRow("budget") << R"("mcmc": {"draws": "auto", "budget_seconds": 0})"
                                << "mcmc: 'budget_seconds' must be a positive";
        QTest::newRow("replicas") << R"("mcmc": {"tempering": {"replicas": 0}})"
                                  << "mcmc.tempering: 'replicas' must be at least 1";
        QTest::newRow("hottest") << R"("mcmc": {"tempering": {"hottest": 1.5}})"
                                 << "mcmc.tempering: 'hottest'";
    }
    void configErrors() {
        QFETCH(QString, json);
        QFETCH(QString, message);
        auto c = study::parseRunConfig("{" + std::string(kMixtureData) + json.toStdString() + "}");
        QVERIFY(!c.hasValue());
        QVERIFY2(c.message().find(message.toStdString()) != std::string::npos, c.message().c_str());
    }

    // Blocks of 1000 draws on two chains: the first block already has R-hat < 1.01 and ESS
    // >= 400 for every quantity, so the fit stops there.
    void stopsAfterTheFirstBlockThatConverges() {
        const auto model = normalRegression();
        auto o = options(1000);
        o.untilConverged = study::UntilConverged{};
        auto fit = study::fitModel(*model, Eigen::VectorXd::Ones(200), o);
        QVERIFY2(fit.hasValue(), fit ? "" : fit.message().c_str());
        QVERIFY(fit->untilConverged.has_value());
        QCOMPARE(fit->untilConverged->blocks, 1);
        QVERIFY(fit->untilConverged->converged);
        QVERIFY(!fit->untilConverged->budgetReached);
        QCOMPARE(fit->draws.rows(), Eigen::Index{2000});
        QCOMPARE(fit->diagnostics.untilConverged.blocks, 1);
    }

    // Blocks of 60 draws: not enough ESS at first, so several blocks; the run stops at the
    // first block whose pooled draws meet the rule (one block fewer did not), and its draws,
    // bounds and diagnostics are byte for byte those of a fixed run of that length.
    void continuedChainsEqualOneFixedRun_data() {
        QTest::addColumn<QString>("sampler");
        QTest::newRow("nuts") << "nuts";
        QTest::newRow("gibbs with tempering") << "gibbs";
    }
    void continuedChainsEqualOneFixedRun() {
        QFETCH(QString, sampler);
        const bool gibbs = sampler == "gibbs";
        // The Gibbs case: a two-component mixture (its own sweep) with three replicas.
        const auto model = gibbs ? normalRegression("normal-mixture") : normalRegression();
        const int block = 60;
        auto o = options(block);
        if (gibbs) {
            o.sampler.tempering.replicas = 3;
            o.kernel = mcmc::Kernel::Gibbs;
        }
        o.untilConverged = study::UntilConverged{};
        const Eigen::VectorXd alpha = Eigen::VectorXd::Ones(200);
        auto automatic = study::fitModel(*model, alpha, o);
        QVERIFY2(automatic.hasValue(), automatic ? "" : automatic.message().c_str());
        const int blocks = automatic->untilConverged->blocks;
        qInfo("%s: converged after %d blocks of %d draws", qPrintable(sampler), blocks, block);
        QVERIFY(blocks >= 2);
        QVERIFY(automatic->untilConverged->converged);

        auto fixed = options(block * blocks);
        fixed.sampler.tempering = o.sampler.tempering;
        fixed.kernel = o.kernel;
        auto one = study::fitModel(*model, alpha, fixed);
        QVERIFY(one.hasValue());
        QVERIFY(sameBytes(automatic->draws, one->draws));
        QVERIFY(automatic->lipschitz.drawMax() == one->lipschitz.drawMax());
        QVERIFY(sameBytes(automatic->lipschitz.recordMax(), one->lipschitz.recordMax()));
        QCOMPARE(automatic->diagnostics.maxRhat, one->diagnostics.maxRhat);
        QCOMPARE(automatic->diagnostics.minEssBulk, one->diagnostics.minEssBulk);
        QVERIFY(sameBytes(automatic->warmStarts[1].q, one->warmStarts[1].q));

        // One block fewer was short of the rule.
        auto shorter = options(block * (blocks - 1));
        shorter.sampler.tempering = o.sampler.tempering;
        shorter.kernel = o.kernel;
        shorter.untilConverged = study::UntilConverged{};
        shorter.untilConverged->budgetSeconds = 1e-9;  // one block only
        auto less = study::fitModel(*model, alpha, shorter);
        QVERIFY(less.hasValue());
        QVERIFY(!less->untilConverged->shortfall.empty());
        qInfo("one block fewer was short: %s", less->untilConverged->shortfall.front().c_str());
    }

    // A rule no run meets and a budget already spent: one block, then stop, saying so.
    void stopsAtTheBudget() {
        const auto model = normalRegression();
        auto o = options(100);
        o.untilConverged = study::UntilConverged{};
        o.untilConverged->budgetSeconds = 1e-6;
        o.untilConverged->ess = 1e12;
        auto fit = study::fitModel(*model, Eigen::VectorXd::Ones(200), o);
        QVERIFY(fit.hasValue());
        QCOMPARE(fit->untilConverged->blocks, 1);
        QVERIFY(fit->untilConverged->budgetReached);
        QVERIFY(!fit->untilConverged->converged);
        QVERIFY(!fit->untilConverged->shortfall.empty());
        QVERIFY(fit->diagnostics.untilConverged.budgetReached);
        qInfo("short at the budget: %s", fit->untilConverged->shortfall.front().c_str());
        QVERIFY(fit->untilConverged->shortfall.front().find("ESS") != std::string::npos);
        // ESS 1e12 at the rate of one block: far beyond the seconds the block took.
        const double needed = fit->untilConverged->secondsForEss;
        qInfo("ESS 1e12 would take about %g s", needed);
        QVERIFY(std::isfinite(needed));
        QVERIFY(needed > 1e6);
    }

    // The verdict's reason at the budget: what was short, and how long the rule's ESS would
    // take at the rate so far, in words that fit its size.
    void budgetReasonEstimatesTheTime() {
        study::UntilConverged rule;
        rule.budgetSeconds = 900;
        study::UntilConvergedOutcome u;
        u.budgetReached = true;
        u.shortfall = {"total log-likelihood: R-hat 1.058, bulk ESS 55", "tau[age]: bulk ESS 300"};
        u.secondsForEss = 900 * 400 / 55.0;
        QCOMPARE(study::budgetReachedReason(u, rule),
                 std::string("budget reached (mcmc.budget_seconds 900 s) before R-hat < 1.01, "
                             "ESS >= 400 and the epsilon verdict held for total "
                             "log-likelihood: R-hat 1.058, bulk ESS 55 and 1 more: raise the "
                             "budget (at the rate so far, ESS 400 would take about 109 minutes "
                             "in all)"));
        u.secondsForEss = 95;
        QVERIFY(study::budgetReachedReason(u, rule).ends_with("about 95 s in all)"));
        u.secondsForEss = 9 * 3600;
        QVERIFY(study::budgetReachedReason(u, rule).ends_with("about 9.0 hours in all)"));
        u.secondsForEss = 0;  // unknown: no estimate
        u.shortfall.resize(1);
        QVERIFY(study::budgetReachedReason(u, rule).ends_with("bulk ESS 55: raise the budget"));
    }

    // The rule includes the epsilon verdict, with its f_i agreement between chains, for the
    // fit whose f_i feed weights (judgeRecordBounds). With more draws per half chain needed
    // than the first block gives (R-hat and ESS are already met there), the run goes on; it
    // stops at the first block whose draws meet it, and the verdict on exactly those draws,
    // computed as the runner computes it (chainRecordBounds), says converged.
    void waitsUntilTheChainsAgreeOnF() {
        const auto model = normalRegression();
        const Eigen::VectorXd alpha = Eigen::VectorXd::Ones(200);
        const int block = 1000;
        auto o = options(block);
        o.untilConverged = study::UntilConverged{};
        o.untilConverged->judgeRecordBounds = true;
        o.untilConverged->verdict.fMinDrawsPerHalf = 3 * block / 4;
        auto fit = study::fitModel(*model, alpha, o);
        QVERIFY2(fit.hasValue(), fit ? "" : fit.message().c_str());
        const int blocks = fit->untilConverged->blocks;
        qInfo("stopped after %d blocks", blocks);
        QCOMPARE(blocks, 2);
        QVERIFY(fit->untilConverged->converged);
        QVERIFY(fit->untilConverged->shortfall.empty());
        QCOMPARE(fit->untilConverged->drawsPerChain, blocks * block);
        QCOMPARE(fit->diagnostics.untilConverged.drawsPerChain, blocks * block);
        const auto bound = privacy::lipschitzBound(fit->lipschitz);
        const auto halves =
            study::chainRecordBounds(*model, fit->draws, 2, bound.keptDraws, alpha, 2).halves;
        const auto verdict = privacy::diagnoseEpsilon(study::epsilonChains(*fit, bound, halves),
                                                      o.untilConverged->verdict);
        QVERIFY2(verdict.converged, privacy::verdictLine(verdict).c_str());
        QCOMPARE(verdict.fAgreement->drawsPerHalf, std::size_t{block});

        // One block fewer: the verdict said no, and the rule said why.
        auto shorter = options(block);
        shorter.untilConverged = o.untilConverged;
        shorter.untilConverged->budgetSeconds = 1e-9;  // one block only
        auto less = study::fitModel(*model, alpha, shorter);
        QVERIFY(less.hasValue());
        QVERIFY(less->untilConverged->budgetReached);
        const auto& s = less->untilConverged->shortfall;
        QCOMPARE(s.size(), std::size_t{1});
        qInfo("one block fewer was short: %s", s.front().c_str());
        QVERIFY(s.front().rfind("f_i agreement: rank correlation ", 0) == 0);
        QVERIFY(s.front().find("(500 draws in a half chain)") != std::string::npos);

        // Without judging f_i (a weighted fit's rule) the first block is enough.
        o.untilConverged->judgeRecordBounds = false;
        auto weighted = study::fitModel(*model, alpha, o);
        QVERIFY(weighted.hasValue());
        QCOMPARE(weighted->untilConverged->blocks, 1);
    }

    // The robust bound (q < 1): the rule judges f_i over each chain's retained draws, as the
    // runner does; a limit no chains meet is short of f_i agreement, a limit any chains meet
    // stops after the first block.
    void judgesFOverTheRetainedDraws() {
        const auto model = normalRegression();
        const Eigen::VectorXd alpha = Eigen::VectorXd::Ones(200);
        auto o = options(1000);
        o.untilConverged = study::UntilConverged{};
        o.untilConverged->quantile = 0.9;
        o.untilConverged->judgeRecordBounds = true;
        o.untilConverged->budgetSeconds = 1e-9;  // one block only
        // Any difference at all between chains is too much.
        o.untilConverged->verdict.fDisagreementRatio = 0.0;
        o.untilConverged->verdict.fRelativeDifferenceFloor = 0.0;
        o.untilConverged->verdict.fRankCorrelationFloor = 1.0;
        auto strict = study::fitModel(*model, alpha, o);
        QVERIFY(strict.hasValue());
        const auto& s = strict->untilConverged->shortfall;
        QCOMPARE(s.size(), std::size_t{1});
        qInfo("q = 0.9, no limit met: %s", s.front().c_str());
        QVERIFY(s.front().rfind("f_i agreement: rank correlation 0.9", 0) == 0);
        o.untilConverged->budgetSeconds = 600;
        o.untilConverged->verdict.fDisagreementRatio = 1e9;
        auto loose = study::fitModel(*model, alpha, o);
        QVERIFY(loose.hasValue());
        QCOMPARE(loose->untilConverged->blocks, 1);
        QVERIFY(loose->untilConverged->converged);
    }

    // The verdict's own lines: its figures, named as the rule names its quantities.
    void verdictShortfallLines() {
        privacy::EpsilonDiagnostics v;
        v.diagnosed = true;
        v.converged = true;
        QVERIFY(study::verdictShortfall(v, {}).empty());
        v.converged = false;
        v.rhatBulk = 1.2;
        v.rhatTail = 1.1;
        v.essBulk = 40;
        v.essTail = 30;
        v.fAgreement = privacy::FAgreement{0.8, 0.02, 0.99, 0.005, 100};
        v.reasons = {"R-hat", "f"};
        const auto both = study::verdictShortfall(v, {});
        QCOMPARE(both.size(), std::size_t{2});
        QCOMPARE(both[0],
                 std::string("D_s: R-hat 1.200, bulk ESS 40, tail ESS 30 (epsilon verdict)"));
        QCOMPARE(both[1], std::string("f_i agreement: rank correlation 0.800, median relative "
                                      "difference 2.0% (within a chain 0.990, 0.5%)"));
        v.reasons = {"f"};
        QCOMPARE(study::verdictShortfall(v, {}).size(), std::size_t{1});
        // Too few draws in a half chain to judge: the line says so.
        v.fAgreement = privacy::FAgreement{1.0, 0.0, 1.0, 0.0, 4};
        QCOMPARE(study::verdictShortfall(v, {}).front(),
                 std::string("f_i agreement: rank correlation 1.000, median relative difference "
                             "0.0% (4 draws in a half chain)"));
    }

    void shortfallNamesTheQuantity() {
        mcmc::ConvergenceSummary good{0, 1, 1.002, 1.002, 1.001, 900, 800};
        mcmc::ConvergenceSummary slow{0, 1, 1.03, 1.03, 1.01, 150, 420};
        const auto s = study::convergenceShortfall({{"gamma", good}, {"D_s", slow}}, {});
        QCOMPARE(s.size(), std::size_t{1});
        QCOMPARE(s.front(), std::string("D_s: R-hat 1.030, bulk ESS 150"));
    }
};

QTEST_APPLESS_MAIN(TestRunUntilConverged)
#include "tst_run_until_converged.moc"
