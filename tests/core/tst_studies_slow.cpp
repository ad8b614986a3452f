// Qualitative reproductions of the papers' studies with stated tolerances (label slow).
//
// 1. Local-to-global contraction (paper 000 sec. 4.4, Figure 1) with the bundled
//    simulate_poisson.json: Poisson(100), n = 100 ... 6400, R = 400 replicates, 1000 exact
//    draws per fit (about 6 s on 2 threads).
#include <QTest>
#include <filesystem>

#include "ppsynth/study/simulate.hpp"

using namespace ppsynth;

namespace {

std::string outDir(const std::string& name) {
    const QByteArray env = qgetenv("PPSYNTH_TEST_OUTPUT");
    const std::filesystem::path base = env.isEmpty() ? std::filesystem::temp_directory_path()
                                                     : std::filesystem::path(env.constData());
    const auto dir = base / ("tst_studies_slow_" + name);
    std::filesystem::remove_all(dir);
    return dir.string();
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
        QVERIFY(std::abs(m6400.median - 3.5) < 0.05);
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
};

QTEST_APPLESS_MAIN(TstStudiesSlow)
#include "tst_studies_slow.moc"
