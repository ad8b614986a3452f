// ECDF distances U_m and U_a on tiny samples computed by hand, and against a brute-force
// evaluation on random samples with ties.
#include <QTest>
#include <boost/random/uniform_int_distribution.hpp>
#include <cmath>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/ecdf.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {
// Brute force O(N (n_o + n_s)): the ECDFs evaluated at every pooled value.
EcdfDistance bruteForce(const std::vector<double>& o, const std::vector<double>& s) {
    auto F = [](const std::vector<double>& v, double z) {
        double c = 0;
        for (double x : v) c += x <= z;
        return c / static_cast<double>(v.size());
    };
    std::vector<double> pooled = o;
    pooled.insert(pooled.end(), s.begin(), s.end());
    EcdfDistance d;
    for (double z : pooled) {
        const double diff = F(o, z) - F(s, z);
        d.maxAbs = std::max(d.maxAbs, std::abs(diff));
        d.meanSquare += diff * diff / static_cast<double>(pooled.size());
    }
    return d;
}
}  // namespace

class TstUtilityEcdf : public QObject {
    Q_OBJECT
  private slots:
    void byHand_data() {
        QTest::addColumn<std::vector<double>>("o");
        QTest::addColumn<std::vector<double>>("s");
        QTest::addColumn<double>("um");
        QTest::addColumn<double>("ua");
        // o = (1, 2, 3), s = (2, 4); pooled 1, 2, 3, 2, 4 (N = 5).
        // F_o: 1/3, 2/3, 1, 2/3, 1; F_s: 0, 1/2, 1/2, 1/2, 1.
        // diffs 1/3, 1/6, 1/2, 1/6, 0: U_m = 1/2, U_a = (4 + 1 + 9 + 1 + 0) / 36 / 5 = 1/12.
        QTest::newRow("small") << std::vector<double>{3, 1, 2} << std::vector<double>{4, 2} << 0.5
                               << 1.0 / 12;
        QTest::newRow("identical")
            << std::vector<double>{1, 2, 2, 5} << std::vector<double>{5, 2, 1, 2} << 0.0 << 0.0;
        // o = (0, 0), s = (1): pooled 0, 0, 1; diffs 1, 1, 0: U_m = 1, U_a = 2/3.
        QTest::newRow("disjoint") << std::vector<double>{0, 0} << std::vector<double>{1} << 1.0
                                  << 2.0 / 3;
        // o = (1, 1, 2, 2), s = (1, 2, 2, 2): at 1: 1/2 - 1/4 = 1/4 (3 records), at 2: 0.
        // U_m = 1/4, U_a = 3 / 16 / 8 = 3/128.
        QTest::newRow("ties") << std::vector<double>{1, 2, 1, 2} << std::vector<double>{2, 2, 1, 2}
                              << 0.25 << 3.0 / 128;
    }
    void byHand() {
        QFETCH(std::vector<double>, o);
        QFETCH(std::vector<double>, s);
        QFETCH(double, um);
        QFETCH(double, ua);
        auto d = ecdfDistance(o, s);
        QVERIFY(d.hasValue());
        QVERIFY_NEAR(d->maxAbs, um, 1e-15);
        QVERIFY_NEAR(d->meanSquare, ua, 1e-15);
    }
    void averagedOverDatasets() {
        const std::vector<double> o{1, 2, 3};
        // dataset 1 as in "small" (1/2, 1/12), dataset 2 identical to o (0, 0)
        auto u = ecdfUtility(o, {{4, 2}, {1, 2, 3}});
        QVERIFY(u.hasValue());
        QCOMPARE(u->perDataset.size(), std::size_t{2});
        QVERIFY_NEAR(u->maxAbs, 0.25, 1e-15);
        QVERIFY_NEAR(u->meanSquare, 1.0 / 24, 1e-15);
    }
    void matchesBruteForce() {
        auto rng = makeRng(3, 0, Purpose::Test);
        boost::random::uniform_int_distribution<int> v(0, 30);  // many ties
        for (int rep = 0; rep < 50; ++rep) {
            std::vector<double> o(40 + rep), s(25 + 2 * rep);
            for (auto& x : o) x = v(rng);
            for (auto& x : s) x = v(rng) + 2;
            const auto d = ecdfDistance(o, s);
            const auto e = bruteForce(o, s);
            QVERIFY_NEAR(d->maxAbs, e.maxAbs, 1e-14);
            QVERIFY_NEAR(d->meanSquare, e.meanSquare, 1e-14);
        }
    }
    void errors() {
        QVERIFY(!ecdfDistance(std::vector<double>{}, std::vector<double>{1}).hasValue());
        QVERIFY(!ecdfUtility(std::vector<double>{1}, {}).hasValue());
        auto r = ecdfUtility(std::vector<double>{1}, {{1}, {INFINITY}});
        QVERIFY(!r.hasValue());
        QVERIFY(QString::fromStdString(r.message()).contains("synthetic dataset 2"));
    }
};

QTEST_GUILESS_MAIN(TstUtilityEcdf)
#include "tst_utility_ecdf.moc"
