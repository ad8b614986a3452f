#include <QTest>
#include <cmath>
#include <limits>

#include "ppsynth/privacy/lipschitz.hpp"
#include "ppsynth/privacy/weights.hpp"

using namespace ppsynth::privacy;
using Eigen::VectorXd;

namespace {
VectorXd vec(std::initializer_list<double> v) {
    VectorXd x(static_cast<Eigen::Index>(v.size()));
    Eigen::Index i = 0;
    for (double d : v) x[i++] = d;
    return x;
}
bool near(const VectorXd& a, const VectorXd& b, double tol = 1e-12) {
    return a.size() == b.size() && (a - b).cwiseAbs().maxCoeff() < tol;
}
}  // namespace

class TstPrivacyWeights : public QObject {
    Q_OBJECT
  private slots:
    void lipschitzWeightsByHand_data() {
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("g");
        QTest::addColumn<VectorXd>("expected");
        // f = (2, 4, 6, 10): ft = (0, .25, .5, 1).
        QTest::newRow("c=1 g=0") << 1.0 << 0.0 << vec({1, 0.75, 0.5, 0});
        QTest::newRow("c=.7 g=0") << 0.7 << 0.0 << vec({0.7, 0.525, 0.35, 0});
        QTest::newRow("c=.5 g=-.3") << 0.5 << -0.3 << vec({0.2, 0.075, 0, 0});
        QTest::newRow("c=1 g=.2 clamps") << 1.0 << 0.2 << vec({1, 0.95, 0.7, 0.2});
    }
    void lipschitzWeightsByHand() {
        QFETCH(double, c);
        QFETCH(double, g);
        QFETCH(VectorXd, expected);
        QVERIFY(near(lipschitzWeights(vec({2, 4, 6, 10}), c, g), expected));
    }
    // An unbounded f_i (non-finite log-likelihood) gets weight 0 and leaves the others'
    // normalization as it was without it.
    void unboundedRecordGetsZeroWeight() {
        const double inf = std::numeric_limits<double>::infinity();
        QVERIFY(
            near(lipschitzWeights(vec({2, inf, 4, 6, 10}), 1.0, 0.0), vec({1, 0, 0.75, 0.5, 0})));
    }
    void equalBoundsGiveFullWeight() {
        QVERIFY(near(lipschitzWeights(vec({3, 3, 3}), 0.6, 0), vec({0.6, 0.6, 0.6})));
    }
    void mTruncation() {
        // alpha f = (2, 3, 3, 0): with M = 2.5 the second and third are dropped.
        VectorXd f = vec({2, 4, 6, 10});
        VectorXd a = lipschitzWeights(f);
        QVERIFY(near(truncateAtM(a, f, 2.5), vec({1, 0, 0, 0})));
        QVERIFY(near(truncateAtM(a, f, 3.5), a));
    }
    void riskAndPairwiseWeights() {
        std::vector<double> ir{0, 0.5, 1};
        QVERIFY(near(riskWeights(ir, 1, 0), vec({1, 0.5, 0})));
        QVERIFY(near(riskWeights(ir, 0.8, 0.1), vec({0.9, 0.5, 0.1})));
        QVERIFY(near(pairwiseWeights(ir, 1, -0.2), vec({0, 0.3, 0.8})));
    }
    void sigmoidWeights() {
        std::vector<double> ir{0, 0.5, 1};
        // c(0.5) = 1 + 0.5 / 2 = 1.25 -> 1 - 0.625; c(1) ~ 1.5 -> 1 - 1.5 < 0 -> 0.
        auto a = sigmoidRiskWeights(ir, 10, 1, 1.5);
        QCOMPARE(a[0], 1.0);
        QCOMPARE(a[1], 1.0 - 1.25 * 0.5);
        QCOMPARE(a[2], 0.0);
    }
    void scalarWeight() {
        QCOMPARE(scalarWeightForEpsilon(8.0, 10.0), 0.4);
        QCOMPARE(scalarWeightForEpsilon(30.0, 10.0), 1.0);
    }
    void reweightingByHand() {
        // Delta = 4; Delta_i = (4, 2, 1, 0); alpha = (1, .5, .25, 0.5) -> with k = 0.95:
        // (.95, .95, .95, 1 [Delta_i = 0]); alpha = 0 stays 0.
        VectorXd a = vec({1, 0.5, 0.25, 0.5, 0});
        VectorXd d = vec({4, 2, 1, 0, 3});
        QVERIFY(near(reweight(a, d, 4, 0.95), vec({0.95, 0.95, 0.95, 1, 0})));
        QVERIFY(near(reweight(a, d, 4, 3), vec({1, 1, 1, 1, 0})));
    }
    void accumulatorStreamsMaxima() {
        LipschitzAccumulator acc(vec({1, 0.5, 0}));
        acc.addDraw(vec({-2, -10, -50}));
        acc.addDraw(vec({-3, -4, -1}));
        QVERIFY(near(acc.recordMax(), vec({3, 5, 0})));
        QCOMPARE(acc.drawMax(), (std::vector<double>{5, 3}));
        // A weighted record with a non-finite log-likelihood makes that draw's bound (and the
        // record's) unbounded: it must not pass for a small Delta. alpha = 0 stays out.
        const double inf = std::numeric_limits<double>::infinity();
        LipschitzAccumulator other(vec({1, 0.5, 0}));
        other.addDraw(vec({-7, -inf, -1}));
        other.addDraw(vec({-1, -2, -inf}));
        acc.merge(other);
        QCOMPARE(acc.drawMax(), (std::vector<double>{5, 3, inf, 1}));
        QVERIFY(near(acc.recordMax().cwiseMin(1e300), vec({7, 1e300, 0})));
        QCOMPARE(acc.nonFinite(), (std::vector<std::uint8_t>{0, 1, 1}));
        QCOMPARE(lipschitzBound(acc).delta, inf);
        // The robust quantile leaves the unbounded draw out of synthesis.
        const auto robust = lipschitzBound(acc, 0.5);
        QVERIFY(std::isfinite(robust.delta));
        QCOMPARE(robust.delta, 4.0);  // type 7 on (1, 3, 5, inf) at .5
        QCOMPARE(robust.keptDraws, (std::vector<std::size_t>{1, 3}));
        VectorXd alpha = vec({1, 1, 1});
        zeroNonFinite(alpha, acc.nonFinite());
        QVERIFY(near(alpha, vec({1, 0, 0})));
    }
    void boundAndRobustQuantile() {
        LipschitzAccumulator acc(vec({1}));
        for (double v : {1.0, 2.0, 3.0, 4.0, 100.0}) acc.addDraw(vec({-v}));
        auto max = lipschitzBound(acc);
        QCOMPARE(max.delta, 100.0);
        QCOMPARE(max.keptDraws.size(), std::size_t{5});
        QCOMPARE(max.method(), std::string("max over draws"));
        auto q = lipschitzBound(acc, 0.75);
        QCOMPARE(q.delta, 4.0);  // type 7 on (1,2,3,4,100) at .75
        QCOMPARE(q.keptDraws, (std::vector<std::size_t>{0, 1, 2, 3}));
        QCOMPARE(q.method(), std::string("0.75-quantile over draws"));
    }
    // Robust q < 1 with unbounded draws (a weighted record's non-finite l): type 7 lands on an
    // infinite order statistic or between a finite one and inf, where interpolating gave
    // 0 * inf or inf - inf = NaN. Delta is finite or inf, never NaN, and an unbounded draw is
    // never retained.
    void robustQuantileWithUnboundedDraws_data() {
        QTest::addColumn<std::vector<double>>("drawMax");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("delta");
        QTest::addColumn<std::vector<std::size_t>>("kept");
        const double inf = std::numeric_limits<double>::infinity();
        QTest::newRow("on a finite order statistic next to inf")
            << std::vector<double>{1, 2, 3, inf, inf} << 0.5 << 3.0
            << std::vector<std::size_t>{0, 1, 2};
        QTest::newRow("on an infinite order statistic")
            << std::vector<double>{1, inf, inf} << 0.5 << inf << std::vector<std::size_t>{0};
        QTest::newRow("between two infinite order statistics")
            << std::vector<double>{inf, 1, inf, inf, inf} << 0.6 << inf
            << std::vector<std::size_t>{1};
        QTest::newRow("between finite and inf")
            << std::vector<double>{1, 3, 5, inf} << 0.9 << inf << std::vector<std::size_t>{0, 1, 2};
    }
    void robustQuantileWithUnboundedDraws() {
        QFETCH(std::vector<double>, drawMax);
        QFETCH(double, q);
        QFETCH(double, delta);
        QFETCH(std::vector<std::size_t>, kept);
        LipschitzAccumulator acc(vec({1}));
        for (double v : drawMax) acc.addDraw(vec({-v}));
        const auto b = lipschitzBound(acc, q);
        QVERIFY2(!std::isnan(b.delta), "Delta is NaN");
        QCOMPARE(b.delta, delta);
        QCOMPARE(b.keptDraws, kept);
    }
    void epsilonAccounting() {
        auto e = epsilonAccount(3.5, 20);
        QCOMPARE(e.perDataset, 7.0);
        QCOMPARE(e.total, 140.0);
        auto big = globalEpsilon(3.5, 6208);
        QCOMPARE(big.epsilonLow, 7.0);
        QCOMPARE(big.epsilonHigh, 7.35);
        auto small = globalEpsilon(3.5, 400);
        QCOMPARE(small.epsilonLow, 2 * 1.05 * 3.5);
        QCOMPARE(small.epsilonHigh, 2 * 1.10 * 3.5);
    }
    void topCoding() {
        std::vector<double> y{1, 2, 3, 4, 100};
        auto t = topCode(y, 0.75);
        QCOMPARE(t.threshold, 4.0);
        QCOMPARE(t.values, (std::vector<double>{1, 2, 3, 4, 4}));
    }
    void weightSummary() {
        auto s = summarizeWeights(vec({0, 0.5, 1, 1}));
        QCOMPARE(s.zeros, std::size_t{1});
        QCOMPARE(s.median, 0.75);
        QCOMPARE(s.mean, 0.625);
        QCOMPARE(s.q1, 0.375);
    }
};

QTEST_APPLESS_MAIN(TstPrivacyWeights)
#include "tst_privacy_weights.moc"
