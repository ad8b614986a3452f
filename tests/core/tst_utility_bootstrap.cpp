// Summary statistics (R type-7 quantiles) and the bootstrap: a textbook case (the bootstrap
// SE of a mean is the plug-in s / sqrt(n)), an independent naive re-implementation of the
// replicates, hand-checked pooling and barycenter, reproducibility across seeds and threads.
#include <QTest>
#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/bootstrap.hpp"
#include "ppsynth/utility/statistics.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {
std::vector<double> normalSample(std::size_t n, std::uint64_t seed, double mu = 10, double sd = 2) {
    auto rng = makeRng(seed, 0, Purpose::Test);
    boost::random::normal_distribution<double> z(mu, sd);
    std::vector<double> v(n);
    for (auto& x : v) x = z(rng);
    return v;
}
}  // namespace

class TstUtilityBootstrap : public QObject {
    Q_OBJECT
  private slots:
    void statistics_data() {
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("expected");
        // x = (1, 2, 3, 4, 10); type 7: h = 4p, x[floor h] + frac(h) (x[floor h + 1] - x[floor h])
        QTest::newRow("0.15") << 0.15 << 1.6;  // h = 0.6: 1 + 0.6 * 1
        QTest::newRow("0.90") << 0.90 << 7.6;  // h = 3.6: 4 + 0.6 * 6
        QTest::newRow("0") << 0.0 << 1.0;
        QTest::newRow("1") << 1.0 << 10.0;
        QTest::newRow("0.5") << 0.5 << 3.0;
    }
    void statistics() {
        QFETCH(double, p);
        QFETCH(double, expected);
        const std::vector<double> x{4, 10, 1, 3, 2};  // unsorted on purpose
        const auto v = evaluate({Statistic::quantile(p)}, x);
        QVERIFY_NEAR(v[0], expected, 1e-12);
    }
    void meanMedianDefaults() {
        const std::vector<double> x{4, 10, 1, 3, 2, 6};
        QCOMPARE(mean(x), 26.0 / 6);
        QCOMPARE(median(x), 3.5);
        QVERIFY_NEAR(variance(x), 10.666666666666666, 1e-12);  // 53.333 / 5
        const auto s = defaultStatistics();
        QCOMPARE(s.size(), std::size_t{4});
        QCOMPARE(s[2].probability, 0.15);
        QCOMPARE(s[3].probability, 0.90);
        QCOMPARE(QString::fromStdString(s[3].name()), QString("quantile 0.9"));
        const std::vector<double> user{0.05};
        QCOMPARE(defaultStatistics(user).size(), std::size_t{3});
        // No quantiles means none, as a saved configuration with "quantiles": [] says.
        const auto none = defaultStatistics(std::vector<double>{});
        QCOMPARE(none.size(), std::size_t{2});
        QVERIFY(none[0] == Statistic::mean() && none[1] == Statistic::median());
    }

    // Textbook: the bootstrap distribution of a mean has sd sqrt(sum (x - xbar)^2 / n) / sqrt(n)
    // (the plug-in s / sqrt(n)). The Monte Carlo relative error of an sd from B replicates is
    // about 1 / sqrt(2 (B - 1)); allow 4 of those. The percentile interval approaches
    // mean -/+ 1.96 SE for a normal sample; allow 12% on its half widths
    // (the 2.5% quantile of 2000 normal replicates has sd about 3% of 1.96 SE).
    void meanStandardError() {
        const auto x = normalSample(200, 3);
        BootstrapOptions o;
        o.replicates = 2000;
        o.seed = 42;
        auto r = bootstrapOriginal(x, {Statistic::mean()}, o);
        QVERIFY(r.hasValue());
        const auto& s = (*r)[0];
        const double n = 200;
        const double plugIn = std::sqrt(variance(x) * (n - 1) / n / n);
        const double rel = 4 / std::sqrt(2 * (o.replicates - 1.0));
        QVERIFY2(std::abs(s.standardError / plugIn - 1) < rel,
                 qPrintable(QString("boot SE %1 vs plug-in %2").arg(s.standardError).arg(plugIn)));
        QCOMPARE(s.estimate, mean(x));
        QVERIFY_NEAR((s.estimate - s.interval.lower) / (1.959964 * plugIn), 1, 0.12);
        QVERIFY_NEAR((s.interval.upper - s.estimate) / (1.959964 * plugIn), 1, 0.12);
        // The quantile function runs from the smallest to the largest replicate.
        QCOMPARE(static_cast<int>(s.quantileFunction.size()), 201);
        QVERIFY(std::is_sorted(s.quantileFunction.begin(), s.quantileFunction.end()));
        QVERIFY(s.quantileFunction.front() < s.interval.lower);
        QVERIFY(s.quantileFunction.back() > s.interval.upper);
    }

    // With gridPoints = B the quantile function is exactly the sorted replicates; rebuild them
    // naively (draw the documented stream, materialise the resample, sort, evaluate) and
    // compare. Ties and a small n exercise the counts-based order statistics.
    void replicatesMatchNaiveResampling() {
        const std::vector<double> x{3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5};
        const std::vector<Statistic> stats{Statistic::mean(),         Statistic::median(),
                                           Statistic::quantile(0.15), Statistic::quantile(0.9),
                                           Statistic::quantile(0),    Statistic::quantile(1)};
        BootstrapOptions o;
        o.replicates = 300;
        o.gridPoints = 300;
        o.seed = 7;
        auto r = bootstrapOriginal(x, stats, o);
        QVERIFY(r.hasValue());
        std::vector<double> sorted = x;
        std::sort(sorted.begin(), sorted.end());
        for (std::size_t k = 0; k < stats.size(); ++k) {
            std::vector<double> naive;
            for (std::uint64_t b = 0; b < 300; ++b) {
                Rng rng = makeRng(7, b, Purpose::Bootstrap);  // source 0: stream = b
                std::vector<double> resample(x.size());
                for (auto& v : resample) v = sorted[uniformIndex(rng, x.size())];
                naive.push_back(evaluate({stats[k]}, resample)[0]);
            }
            std::sort(naive.begin(), naive.end());
            const auto& qf = (*r)[k].quantileFunction;
            for (std::size_t b = 0; b < naive.size(); ++b)
                QVERIFY2(std::abs(qf[b] - naive[b]) < 1e-12,
                         qPrintable(QString::fromStdString(stats[k].name())));
        }
    }

    // Constant datasets 1, 2, 3, 4: each bootstrap distribution is a point mass, so the
    // barycenter is the point mass at their mean 2.5, while the pooled replicates (B copies of
    // each) give the percentile interval [1, 4] (type 7 at 0.025 and 0.975 of 4B values).
    void syntheticPoolingAndBarycenterByHand() {
        std::vector<std::vector<double>> syn;
        for (double c : {1.0, 2.0, 3.0, 4.0}) syn.push_back(std::vector<double>(30, c));
        BootstrapOptions o;
        o.replicates = 100;
        auto r = bootstrapSynthetic(syn, defaultStatistics(), o);
        QVERIFY(r.hasValue());
        for (const auto& s : *r) {
            QCOMPARE(s.estimate, 2.5);
            QCOMPARE(s.interval.lower, 1.0);
            QCOMPARE(s.interval.upper, 4.0);
            QCOMPARE(s.perDataset, (std::vector<double>{1, 2, 3, 4}));
            for (double q : s.quantileFunction) QCOMPARE(q, 2.5);
            // pooled sd of 100 copies each of 1..4: sqrt(100 * (2.25 + 0.25) * 2 / 399)
            QVERIFY_NEAR(s.standardError, std::sqrt(500.0 / 399), 1e-12);
        }
    }

    // Location shifts: dataset l = base + a_l. The barycenter of the mean's bootstrap
    // distributions is shifted by mean(a_l) and keeps one dataset's spread, while the pooled
    // interval is widened by the spread of the shifts.
    void barycenterKeepsSpreadOfOneDataset() {
        const auto base = normalSample(400, 5, 0, 1);
        std::vector<std::vector<double>> syn;
        for (double a : {-3.0, -1.0, 1.0, 3.0}) {
            syn.push_back(base);
            for (auto& v : syn.back()) v += a;
        }
        BootstrapOptions o;
        o.replicates = 1000;
        auto r = bootstrapSynthetic(syn, {Statistic::mean()}, o);
        QVERIFY(r.hasValue());
        const auto& s = (*r)[0];
        const auto& qf = s.quantileFunction;
        const double iqr = qf[150] - qf[50];  // grid 0.75 and 0.25
        const double plugIn = std::sqrt(variance(base) * 399.0 / 400 / 400);
        // normal IQR = 1.349 sd; the average of 4 quantile functions from 1000 replicates each
        QVERIFY2(std::abs(iqr / (1.34898 * plugIn) - 1) < 0.1, qPrintable(QString::number(iqr)));
        QVERIFY_NEAR(qf[100], mean(base), 4 * plugIn / std::sqrt(4 * 1000 * 0.64));
        QVERIFY(s.interval.lower < -2.5 && s.interval.upper > 2.5);
    }

    // uniformIndex is uniform: chi-square over 7 cells (not a power of two) from 70000 draws
    // stays below the 0.999 quantile of chi2(6), 22.46; n = 1 always gives 0.
    void uniformIndexIsUniform() {
        Rng rng = makeRng(1, 0, Purpose::Test);
        std::vector<int> cells(7, 0);
        for (int i = 0; i < 70000; ++i) ++cells[uniformIndex(rng, 7)];
        double chi2 = 0;
        for (int c : cells) chi2 += (c - 10000.0) * (c - 10000.0) / 10000.0;
        QVERIFY2(chi2 < 22.46, qPrintable(QString::number(chi2)));
        for (int i = 0; i < 10; ++i) QCOMPARE(uniformIndex(rng, 1), std::size_t{0});
    }
    void reproducibleAcrossSeedsAndThreads() {
        const auto x = normalSample(500, 9);
        std::vector<std::vector<double>> syn{normalSample(500, 10), normalSample(500, 11),
                                             normalSample(500, 12)};
        BootstrapOptions o;
        o.replicates = 200;
        o.seed = 2024;
        auto a = bootstrapSynthetic(syn, defaultStatistics(), o);
        o.threads = 2;
        auto b = bootstrapSynthetic(syn, defaultStatistics(), o);
        auto c = bootstrapOriginal(x, defaultStatistics(), o);
        o.threads = 1;
        auto d = bootstrapOriginal(x, defaultStatistics(), o);
        o.seed = 2025;
        auto e = bootstrapSynthetic(syn, defaultStatistics(), o);
        QVERIFY(a && b && c && d && e);
        for (std::size_t k = 0; k < a->size(); ++k) {
            QCOMPARE((*a)[k].quantileFunction, (*b)[k].quantileFunction);
            QCOMPARE((*a)[k].interval.lower, (*b)[k].interval.lower);
            QCOMPARE((*a)[k].standardError, (*b)[k].standardError);
            QCOMPARE((*c)[k].quantileFunction, (*d)[k].quantileFunction);
            QVERIFY((*a)[k].quantileFunction != (*e)[k].quantileFunction);
        }
    }

    void errorsAndCancellation() {
        const std::vector<double> bad{1, std::nan(""), 3};
        auto r = bootstrapOriginal(bad, defaultStatistics());
        QVERIFY(!r.hasValue());
        QVERIFY(QString::fromStdString(r.message()).contains("record 2"));
        BootstrapOptions o;
        o.replicates = 1;
        QVERIFY(!bootstrapOriginal(std::vector<double>{1, 2}, defaultStatistics(), o));
        QVERIFY(!bootstrapOriginal(std::vector<double>{1, 2}, {Statistic::quantile(1.5)}));
        QVERIFY(!bootstrapSynthetic({}, defaultStatistics()));
        o = {};
        o.progress = [](const Progress&) { return Continue::Stop; };
        auto s = bootstrapOriginal(normalSample(50, 1), defaultStatistics(), o);
        QVERIFY(!s.hasValue());
        QVERIFY(QString::fromStdString(s.message()).contains("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TstUtilityBootstrap)
#include "tst_utility_bootstrap.moc"
