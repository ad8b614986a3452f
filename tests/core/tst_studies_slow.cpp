// Qualitative reproductions of the papers' studies with stated tolerances (label slow).
//
// 1. Local-to-global contraction (paper 000 sec. 4.4, Figure 1) with the bundled
//    simulate_poisson.json: Poisson(100), n = 100 ... 6400, R = 400 replicates, 1000 exact
//    draws per fit (about 6 s on 2 threads).
// 2. Risk-utility curve on income_survey (paper 000 sec. 5.3, Figure 7): LW's utility for
//    the 0.90 quantile degrades less than the EM's at the same epsilon across the (c, g)
//    grid. The full sweep (six points, m = 20, 2 x (500 + 500) draws) takes minutes, so
//    this uses the bundled sweep_income_quick.json: three points spanning the grid,
//    (0.7, 0), (0.5, 0), (0.5, -0.3), m = 5, 2 x (150 + 150) draws (1-2 min).
#include <QTest>
#include <filesystem>

#include "../common/near.hpp"
#include "ppsynth/study/run_data.hpp"
#include "ppsynth/study/simulate.hpp"
#include "ppsynth/study/sweep.hpp"
#include "test_files.hpp"

using namespace ppsynth;

namespace {

std::string outDir(const std::string& name) {
    return test::scratchDir("tst_studies_slow_" + name);
}

const study::SimulateDistribution& at(const study::SimulateSummary& s, std::size_t n,
                                      const std::string& mechanism) {
    for (const auto& d : s.distributions)
        if (d.n == n && d.mechanism == mechanism) return d;
    qFatal("no distribution for n = %zu, %s", n, mechanism.c_str());
}

}  // namespace

class TstStudiesSlow : public QObject {
    Q_OBJECT
  private slots:
    void poissonLocalBoundsContractOntoM() {
        auto config = study::loadSimulateConfig(PPSYNTH_EXAMPLES_DIR "/simulate_poisson.json");
        QVERIFY2(config.hasValue(), config.hasValue() ? "" : config.message().c_str());
        QCOMPARE(config->replicates, 400);
        auto s = study::runSimulation(*config, outDir("poisson"));
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        for (const auto& d : s->distributions)
            qInfo("n = %5zu %-10s min %.3f median %.3f max %.3f", d.n, d.mechanism.c_str(), d.min,
                  d.median, d.max);

        // Unweighted: the bound drifts upward with n (the tail records grow more extreme).
        // Measured 7.68 -> 8.66 -> 9.65 -> 11.00 (previous session 7.80 -> 10.89); with
        // R = 400 the median's Monte Carlo error is about 1.25 sd / sqrt(R) ~ 0.1, so each
        // step (~1) and the total rise (> 2 required, ~3.3 seen) are far outside noise.
        double previous = 0;
        for (std::size_t n : {100, 400, 1600, 6400}) {
            QVERIFY2(at(*s, n, "Unweighted").median > previous + 0.3,
                     qPrintable(QString::number(n)));
            previous = at(*s, n, "Unweighted").median;
        }
        QVERIFY(at(*s, 6400, "Unweighted").median - at(*s, 100, "Unweighted").median > 2.0);

        // LW-M: min and max close in on M = 3.5 (measured [3.433, 3.594] at n = 6400, previous
        // session [3.47, 3.59]). Tolerance: +-0.15 around M for the extremes of 400 replicates,
        // the median within 0.05 of M.
        const auto& m6400 = at(*s, 6400, "LW-M");
        QVERIFY2(m6400.min > 3.35 && m6400.max < 3.65,
                 qPrintable(QString("[%1, %2]").arg(m6400.min).arg(m6400.max)));
        QVERIFY_NEAR(m6400.median, 3.5, 0.05);
        // The spread contracts: measured 0.61 (n = 100), 0.30 (1600), 0.16 (6400).
        auto range = [&](std::size_t n) { return at(*s, n, "LW-M").max - at(*s, n, "LW-M").min; };
        QVERIFY(range(6400) < range(1600) && range(1600) < range(100));
        QVERIFY(range(6400) < 0.5 * range(100));
        // So the recommended global epsilon (2 x 1.05 x the median replicate's Delta at
        // n >= 1000) covers every replicate database of size 6400: delta_hat = 0 ...
        QCOMPARE(m6400.deltaHatHigh, 0.0);
        // ... while the unweighted mechanism's does not (measured 0.28).
        QVERIFY(at(*s, 6400, "Unweighted").deltaHatHigh > 0.1);
        // LW without truncation sits in between: its bound stays above LW-M's at n = 6400.
        QVERIFY(at(*s, 6400, "LW").max > m6400.max);
        QVERIFY(at(*s, 6400, "LW").max < at(*s, 6400, "Unweighted").min);
        // 000 Figure 2: a fixed M costs more utility as n grows. The LW-M posterior mean of mu
        // falls further below the unweighted one (paired by replicate database): measured
        // 0.16 at n = 100 and 0.31 at n = 6400; the paired Monte Carlo error of these
        // averages over 400 databases is about 0.02.
        auto shortfall = [&](std::size_t n) {
            return at(*s, n, "Unweighted").meanPosteriorMean - at(*s, n, "LW-M").meanPosteriorMean;
        };
        QVERIFY2(shortfall(6400) > shortfall(100) + 0.08,
                 qPrintable(QString("%1 vs %2").arg(shortfall(100)).arg(shortfall(6400))));
    }
    void incomeLwUtilityDegradesLessThanEm() {
        auto config = study::loadSweepConfig(PPSYNTH_EXAMPLES_DIR "/sweep_income_quick.json");
        QVERIFY2(config.hasValue(), config.hasValue() ? "" : config.message().c_str());
        QCOMPARE(config->points.size(), std::size_t{3});
        auto input = study::readRunData(config->run);
        QVERIFY2(input.hasValue(), input.hasValue() ? "" : input.message().c_str());
        auto s = study::runSweep(*config, *input, outDir("income"));
        QVERIFY2(s.hasValue(), s.hasValue() ? "" : s.message().c_str());
        auto row = [&](int point, const std::string& mechanism) -> const study::SweepRow& {
            for (const auto& r : s->rows)
                if (r.point == point && r.mechanism == mechanism) return r;
            qFatal("no row %d %s", point, mechanism.c_str());
        };
        double lwMean = 0, emMean = 0;
        for (int p = 1; p <= 3; ++p) {
            const auto& lw = row(p, "LW");
            const auto& em = row(p, "EM");
            qInfo(
                "(c %.1f, g %.1f) epsilon LW %.2f EM %.2f | q90 rel. error LW %.4f EM %.4f | "
                "q90 CI overlap LW %.3f EM %.3f",
                lw.knobs.c, lw.knobs.g, lw.epsilon, em.epsilon, lw.q90RelError, em.q90RelError,
                lw.q90CiOverlap, em.q90CiOverlap);
            // Same privacy: the EM was matched to LW's epsilon (tolerance 5% in this config).
            QVERIFY_WITHIN(em.epsilon, lw.epsilon, 0.05 * lw.epsilon);
            lwMean += lw.q90RelError / 3;
            emMean += em.q90RelError / 3;
        }
        // Measured (this seed, after the engine's non-centred coefficients): LW 0.016, 0.018,
        // 0.011; EM 0.069, 0.092, 0.118 relative error of the pooled 0.90 quantile (before
        // that change LW 0.027, 0.023, 0.037; EM 0.036, 0.046, 0.092: the ordering is robust
        // to the sampler's details). Across the grid LW's error is lower on average, ...
        QVERIFY2(lwMean < emMean, qPrintable(QString("%1 vs %2").arg(lwMean).arg(emMean)));
        // ... at the tightest point (0.5, -0.3) the EM's is clearly worse (a margin of 0.02,
        // about a third of the EM's measured excess), ...
        QVERIFY(row(3, "EM").q90RelError > row(3, "LW").q90RelError + 0.02);
        // ... and from the loosest to the tightest point the EM degrades more than LW.
        const double lwRise = row(3, "LW").q90RelError - row(1, "LW").q90RelError;
        const double emRise = row(3, "EM").q90RelError - row(1, "EM").q90RelError;
        QVERIFY2(emRise > lwRise, qPrintable(QString("%1 vs %2").arg(emRise).arg(lwRise)));
        // The scalar weight the EM needs is small: every record is down-weighted alike.
        QVERIFY(row(3, "EM").scalarWeight < 0.1);
    }
};

// On a loaded machine the income sweep can outlast QTest's 5-minute watchdog per test
// function; ctest's TIMEOUT (30 min) is the bound that matters here.
int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QTEST_FUNCTION_TIMEOUT"))
        qputenv("QTEST_FUNCTION_TIMEOUT", "1700000");
    TstStudiesSlow test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_studies_slow.moc"
