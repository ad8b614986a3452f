// CI overlap (Karr et al. 2006) and the partially synthetic combining rules (Reiter 2003),
// against values computed by hand.
#include <QTest>
#include <cmath>

#include "../common/near.hpp"
#include "ppsynth/utility/ci_overlap.hpp"
#include "ppsynth/utility/combining_rules.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

class TstUtilityInference : public QObject {
    Q_OBJECT
  private slots:
    void overlap_data() {
        QTest::addColumn<double>("lo");
        QTest::addColumn<double>("uo");
        QTest::addColumn<double>("ls");
        QTest::addColumn<double>("us");
        QTest::addColumn<double>("expected");
        // common part = min(U) - max(L); I = (common / width_o + common / width_s) / 2
        QTest::newRow("identical") << 0.0 << 1.0 << 0.0 << 1.0 << 1.0;
        // common 1: (1/4 + 1/1) / 2
        QTest::newRow("synthetic nested") << 0.0 << 4.0 << 1.0 << 2.0 << 0.625;
        // common 1: (1/1 + 1/4) / 2, symmetric in the two intervals
        QTest::newRow("original nested") << 1.0 << 2.0 << 0.0 << 4.0 << 0.625;
        // common 1: (1/2 + 1/2) / 2
        QTest::newRow("half shifted") << 0.0 << 2.0 << 1.0 << 3.0 << 0.5;
        QTest::newRow("touching") << 0.0 << 1.0 << 1.0 << 2.0 << 0.0;
        // common 1 - 2 = -1: (-1/1 + -1/2) / 2, kept negative
        QTest::newRow("disjoint") << 0.0 << 1.0 << 2.0 << 4.0 << -0.75;
        // common 3 - 1.5 = 1.5 of widths 3 and 2: (0.5 + 0.75) / 2
        QTest::newRow("partial") << 0.0 << 3.0 << 1.5 << 3.5 << 0.625;
    }
    void overlap() {
        QFETCH(double, lo);
        QFETCH(double, uo);
        QFETCH(double, ls);
        QFETCH(double, us);
        QFETCH(double, expected);
        auto r = ciOverlap({lo, uo}, {ls, us});
        QVERIFY(r.hasValue());
        QVERIFY_NEAR(*r, expected, 1e-15);
    }
    void overlapNeedsWidth() {
        auto r = ciOverlap({1, 1}, {0, 2});
        QVERIFY(!r.hasValue());
        QVERIFY(QString::fromStdString(r.message()).contains("original interval [1, 1]"));
        QVERIFY(!ciOverlap({0, 2}, {3, 2}).hasValue());
        QVERIFY(!ciOverlap({0, 2}, {0, std::nan("")}).hasValue());
    }

    // m = 3, q = (1, 2, 4), u = (2/3, 7/9, 8/9):
    //   qbar = 7/3; b = ((4/3)^2 + (1/3)^2 + (5/3)^2) / 2 = (42/9) / 2 = 7/3;
    //   ubar = (6 + 7 + 8) / 27 = 7/9; T = b/m + ubar = 7/9 + 7/9 = 14/9;
    //   df = (m - 1)(1 + ubar / (b/m))^2 = 2 (1 + 1)^2 = 8;
    //   t_{8, 0.975} = 2.306004135 (table), half width 2.306004135 sqrt(14/9) = 2.876092469.
    void combiningRulesByHand() {
        const std::vector<double> q{1, 2, 4}, u{2.0 / 3, 7.0 / 9, 8.0 / 9};
        auto c = combinePartiallySynthetic(q, u);
        QVERIFY(c.hasValue());
        QVERIFY_NEAR(c->qbar, 7.0 / 3, 1e-14);
        QVERIFY_NEAR(c->b, 7.0 / 3, 1e-14);
        QVERIFY_NEAR(c->ubar, 7.0 / 9, 1e-14);
        QVERIFY_NEAR(c->T, 14.0 / 9, 1e-14);
        QVERIFY_NEAR(c->df, 8.0, 1e-12);
        QVERIFY_NEAR(c->quantile, 2.306004135, 1e-9);
        QVERIFY_NEAR(c->interval.lower, (7.0 / 3 - 2.876092469), 1e-8);
        QVERIFY_NEAR(c->interval.upper, (7.0 / 3 + 2.876092469), 1e-8);
    }
    // m = 2, q = (0, 2), u = (1, 3): qbar = 1, b = 2, ubar = 2, T = 1 + 2 = 3,
    // df = 1 (1 + 2/1)^2 = 9, t_{9, 0.95} = 1.833112933 (90% interval): half 3.175044.
    void combiningRulesLevel() {
        const std::vector<double> q{0, 2}, u{1, 3};
        auto c = combinePartiallySynthetic(q, u, 0.90);
        QVERIFY(c.hasValue());
        QVERIFY_NEAR(c->df, 9.0, 1e-12);
        QVERIFY_NEAR(c->quantile, 1.833112933, 1e-9);
        QVERIFY_NEAR(c->interval.upper, (1 + 1.833112933 * std::sqrt(3.0)), 1e-8);
    }
    // Identical estimates: b = 0, df infinite, the normal quantile 1.959963985; T = ubar = 0.25.
    void combiningRulesZeroBetween() {
        const std::vector<double> q{5, 5, 5, 5}, u{0.2, 0.3, 0.25, 0.25};
        auto c = combinePartiallySynthetic(q, u);
        QVERIFY(c.hasValue());
        QCOMPARE(c->b, 0.0);
        QVERIFY(std::isinf(c->df));
        QVERIFY_NEAR(c->quantile, 1.959963985, 1e-9);
        QVERIFY_NEAR(c->interval.lower, (5 - 0.9799819925), 1e-9);
    }
    void combiningRulesErrors() {
        const std::vector<double> one{1}, two{1, 2}, neg{1, -1};
        auto r = combinePartiallySynthetic(one, one);
        QVERIFY(!r.hasValue());
        QVERIFY(QString::fromStdString(r.message()).contains("at least 2"));
        QVERIFY(!combinePartiallySynthetic(two, one).hasValue());
        QVERIFY(!combinePartiallySynthetic(two, neg).hasValue());
        QVERIFY(!combinePartiallySynthetic(two, two, 1.0).hasValue());
    }
};

QTEST_GUILESS_MAIN(TstUtilityInference)
#include "tst_utility_inference.moc"
