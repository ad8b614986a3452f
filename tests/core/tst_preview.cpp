// The weight preview and its helpers: histogram counts and edges, the preview's weights and
// predicted bound against the privacy functions computed by hand, and the prior names
// written back the way they are read.
#include <QTest>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "ppsynth/study/preview.hpp"
#include "ppsynth/study/runner.hpp"
#include "ppsynth/utility/histogram.hpp"

using namespace ppsynth;

class TstPreview : public QObject {
    Q_OBJECT
  private slots:
    void histogramCountsEdgesAndOutsiders() {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        const std::vector<double> v = {0.0, 0.1, 0.24, 0.25, 0.5, 0.99, 1.0, -0.1, 1.5, nan};
        const auto h = utility::histogram(v, 4, 0.0, 1.0);
        QCOMPARE(h.counts.size(), std::size_t(4));
        QCOMPARE(h.counts[0], std::size_t(3));  // 0, 0.1, 0.24
        QCOMPARE(h.counts[1], std::size_t(1));  // 0.25
        QCOMPARE(h.counts[2], std::size_t(1));  // 0.5
        QCOMPARE(h.counts[3], std::size_t(2));  // 0.99 and the upper edge 1.0
        QCOMPARE(h.outside, std::size_t(2));
        QCOMPARE(h.nonFinite, std::size_t(1));
        QCOMPARE(h.binWidth(), 0.25);
    }

    void histogramOwnRangeAndPointRange() {
        const std::vector<double> v = {2.0, 4.0, 3.0, 4.0};
        const auto h = utility::histogram(v, 2);
        QCOMPARE(h.lo, 2.0);
        QCOMPARE(h.hi, 4.0);
        QCOMPARE(h.counts[0], std::size_t(1));
        QCOMPARE(h.counts[1], std::size_t(3));
        const std::vector<double> same = {5.0, 5.0};
        const auto p = utility::histogram(same, 3);
        QCOMPARE(p.counts[2], std::size_t(2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, utility::histogram(v, 0, 0, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, utility::histogram(v, 2, 1, 0));
    }

    void previewMatchesWeightsAndBound_data() {
        QTest::addColumn<double>("c");
        QTest::addColumn<double>("g");
        QTest::addColumn<double>("M");  // <= 0: no truncation
        QTest::newRow("LW c=1") << 1.0 << 0.0 << 0.0;
        QTest::newRow("LW c=0.7 g=0.1") << 0.7 << 0.1 << 0.0;
        QTest::newRow("LW-M M=2") << 1.0 << 0.0 << 2.0;
        QTest::newRow("c=0 g=1 is unweighted") << 0.0 << 1.0 << 0.0;
    }
    void previewMatchesWeightsAndBound() {
        QFETCH(double, c);
        QFETCH(double, g);
        QFETCH(double, M);
        Eigen::VectorXd f(6);
        f << 0.5, 1.0, 2.0, 3.0, 4.0, 8.5;
        const auto p = study::previewLipschitzWeights(
            f, c, g, M > 0 ? std::optional<double>(M) : std::nullopt, 10);
        double bound = 0;
        std::size_t zeros = 0;
        for (Eigen::Index i = 0; i < f.size(); ++i) {
            // By hand: ft = (f - min) / (max - min), alpha = clamp(c (1 - ft) + g).
            const double ft = (f[i] - 0.5) / 8.0;
            double a = std::clamp(c * (1 - ft) + g, 0.0, 1.0);
            if (M > 0 && a * f[i] > M) a = 0;
            QCOMPARE(p.alpha[i] + 1, a + 1);
            bound = std::max(bound, a * f[i]);
            zeros += a == 0 ? 1 : 0;
        }
        QCOMPARE(p.predictedBound + 1, bound + 1);
        QCOMPARE(p.unweightedBound, 8.5);
        QCOMPARE(p.summary.zeros, zeros);
        std::size_t total = 0;
        for (auto n : p.weights.counts) total += n;
        QCOMPARE(total, std::size_t(6));
        QCOMPARE(p.weights.counts.size(), std::size_t(10));
        if (M > 0) QVERIFY(p.predictedBound <= M);
        if (c == 0.0 && g == 1.0) QCOMPARE(p.predictedBound, 8.5);
    }

    void previewOfNoRecords() {
        const auto p = study::previewLipschitzWeights(Eigen::VectorXd(), 1, 0, std::nullopt);
        QCOMPARE(p.predictedBound, 0.0);
        QCOMPARE(p.alpha.size(), Eigen::Index(0));
    }

    void priorsRoundTrip() {
        models::Priors p;
        p.tauScale = 2.5;
        p.sigmaDf = 7;
        p.gammaRate = 0.5;
        const auto names = study::priorValues(p);
        QCOMPARE(names.size(), std::size_t(9));
        QCOMPARE(names.at("tau_scale"), 2.5);
        QCOMPARE(names.at("mean_rate"), 0.01);  // METHOD.md default
        auto back = study::priorsFromConfig(names);
        QVERIFY(bool(back));
        QCOMPARE(back->tauScale, 2.5);
        QCOMPARE(back->sigmaDf, 7.0);
        QCOMPARE(back->gammaRate, 0.5);
        QCOMPARE(back->invPhiScale, p.invPhiScale);
    }
};

QTEST_GUILESS_MAIN(TstPreview)
#include "tst_preview.moc"
