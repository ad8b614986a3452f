#include <QTest>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>

#include "../common/near.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

using namespace ppsynth;
using namespace ppsynth::privacy;

namespace {

// "Betty" (paper 004, supplement): 13 records share her pattern; her true income is 50,000
// and a 20% radius makes (40,000, 60,000) "close". `outside` synthetic values are placed
// far away, the rest inside; Betty's own synthetic value is close when T is 1.
struct Betty {
    std::vector<double> y, ys;
    std::vector<std::int32_t> pattern;
};

Betty betty(int outside, bool T) {
    Betty b;
    const int n = 13;
    b.pattern.assign(n, 0);
    b.y.assign(n, 0);
    b.ys.assign(n, 0);
    b.y[0] = 50000;
    b.ys[0] = T ? 51000 : 90000;
    int placedOutside = T ? 0 : 1;
    for (int h = 1; h < n; ++h) {
        b.y[h] = 30000 + 1000 * h;
        b.ys[h] = placedOutside < outside ? 200000 + h : 45000 + h;
        placedOutside += b.ys[h] > 100000;
    }
    return b;
}

// O(|M|^3) reference for the pairwise weights, straight from the definition.
std::vector<double> bruteForcePairwise(const std::vector<double>& y,
                                       const std::vector<std::vector<double>>& synth,
                                       const std::vector<std::int32_t>& pattern, Radius rad) {
    const std::size_t n = y.size();
    std::vector<double> at(n, 0.0);
    for (const auto& ys : synth) {
        auto close = [&](std::size_t h, std::size_t i) {
            return std::abs(ys[h] - y[i]) < rad.around(y[i]);
        };
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<std::size_t> M;
            for (std::size_t h = 0; h < n; ++h)
                if (pattern[h] == pattern[i]) M.push_back(h);
            const double m = static_cast<double>(M.size());
            if (M.size() == 1) {
                // 1 - IR_i: alone in its pattern, IR_i = T_i * #{not close} / 1 = 0 since
                // T_i = 1 means the record itself is close.
                at[i] += 1.0;
                continue;
            }
            double sum = 0;
            for (auto j : M) {
                if (j == i) continue;
                double ir = 0;
                if (close(i, i) && close(j, j)) {
                    int neither = 0;
                    for (auto h : M) neither += !close(h, i) && !close(h, j);
                    ir = neither / m;
                }
                sum += 1.0 - ir;
            }
            at[i] += sum / (m - 1.0);
        }
    }
    for (auto& v : at) v /= static_cast<double>(synth.size());
    return at;
}

}  // namespace

class TstIdentificationRisk : public QObject {
    Q_OBJECT
  private slots:
    void bettyExamples_data() {
        QTest::addColumn<int>("outside");
        QTest::addColumn<bool>("T");
        QTest::addColumn<double>("expected");
        QTest::newRow("few close: 10 of 13 outside") << 10 << true << 10.0 / 13.0;
        QTest::newRow("well covered: 5 of 13 outside") << 5 << true << 5.0 / 13.0;
        QTest::newRow("own value not close: T = 0") << 5 << false << 0.0;
        QTest::newRow("few close but T = 0") << 10 << false << 0.0;
    }
    void bettyExamples() {
        QFETCH(int, outside);
        QFETCH(bool, T);
        QFETCH(double, expected);
        const auto b = betty(outside, T);
        auto ir = marginalRisk(b.y, {b.ys}, b.pattern);
        QVERIFY2(ir.hasValue(), ir.hasValue() ? "" : ir.message().c_str());
        QCOMPARE((*ir)[0], expected);
    }
    void radiusIsStrict() {
        // y* exactly on the ball's edge is not close.
        std::vector<double> y{100, 100}, ys{120, 80};
        auto ir = marginalRisk(y, {ys}, std::vector<std::int32_t>{0, 0});
        QCOMPARE((*ir)[0], 0.0);
        QCOMPARE((*ir)[1], 0.0);
    }
    // T_i and the close set use one predicate: with integer counts and r = 0.07, y = 100 has
    // rad = 7.000000000000001, |93 - 100| < rad (T = 1), yet 100 - rad rounds to 93, so a
    // bound test on the sorted values left 93 (the record's own y*) out of its close set.
    void exactBoundariesAgree_data() {
        QTest::addColumn<double>("y");
        QTest::addColumn<double>("ys");
        QTest::newRow("below: 100 -> 93") << 100.0 << 93.0;
        QTest::newRow("above: 100 -> 107") << 100.0 << 107.0;
        QTest::newRow("below: 200 -> 186") << 200.0 << 186.0;
        QTest::newRow("above: 600 -> 642") << 600.0 << 642.0;
    }
    void exactBoundariesAgree() {
        QFETCH(double, y);
        QFETCH(double, ys);
        RiskOptions o;
        o.radius = {0.07, true};
        QVERIFY_NEAR(ys, y, o.radius.around(y));  // T = 1 by the definition
        // Two records of one pattern: the other's y* is far away. Record 0 is close to its
        // own y* only: IR = 1 of 2 not close / 2 = 0.5.
        const std::vector<double> yv{y, y}, synth{ys, 10 * y};
        const std::vector<std::int32_t> pat{0, 0};
        auto ir = marginalRisk(yv, {synth}, pat, o);
        QVERIFY(ir.hasValue());
        QCOMPARE((*ir)[0], 0.5);
        auto pr = pairwiseRisk(yv, {synth}, pat, o);
        QVERIFY(pr.hasValue());
        QCOMPARE(pr->marginal[0], 0.5);
    }
    void absoluteRadius() {
        std::vector<double> y{10, 11, 50}, ys{10.5, 30, 51};
        RiskOptions o;
        o.radius = {2.0, false};
        auto ir = marginalRisk(y, {ys}, std::vector<std::int32_t>{0, 0, 0}, o);
        // record 0: T = 1, close = {0} -> 2/3; record 1: |30-11| > 2 -> T = 0;
        // record 2: T = 1, close = {2} -> 2/3.
        QCOMPARE((*ir)[0], 2.0 / 3.0);
        QCOMPARE((*ir)[1], 0.0);
        QCOMPARE((*ir)[2], 2.0 / 3.0);
    }
    void patternsSeparate() {
        // Same values, but split into two patterns: each record only sees its own pattern.
        std::vector<double> y{100, 100, 300, 300}, ys{100, 1000, 300, 2000};
        auto one = marginalRisk(y, {ys}, std::vector<std::int32_t>{0, 0, 0, 0});
        auto two = marginalRisk(y, {ys}, std::vector<std::int32_t>{0, 0, 1, 1});
        QCOMPARE((*one)[0], 3.0 / 4.0);
        QCOMPARE((*two)[0], 1.0 / 2.0);
        QCOMPARE((*two)[2], 1.0 / 2.0);
    }
    void averagesOverDatasets() {
        const auto b = betty(10, true), c = betty(5, true);
        auto ir = marginalRisk(b.y, {b.ys, c.ys}, b.pattern);
        QCOMPARE((*ir)[0], (10.0 / 13.0 + 5.0 / 13.0) / 2.0);
    }
    void threadCountDoesNotMatter() {
        auto rng = makeRng(3, 0, Purpose::Test);
        boost::random::uniform_real_distribution<double> u(0, 100);
        boost::random::uniform_int_distribution<int> p(0, 4);
        std::vector<double> y(500);
        std::vector<std::int32_t> pat(500);
        for (std::size_t i = 0; i < y.size(); ++i) {
            y[i] = u(rng);
            pat[i] = p(rng);
        }
        std::vector<std::vector<double>> synth(7, std::vector<double>(500));
        for (auto& s : synth)
            for (auto& v : s) v = u(rng);
        RiskOptions one, four;
        four.threads = 4;
        QVERIFY(*marginalRisk(y, synth, pat, one) == *marginalRisk(y, synth, pat, four));
        QVERIFY(pairwiseRisk(y, synth, pat, one)->at == pairwiseRisk(y, synth, pat, four)->at);
    }
    void pairwiseMatchesBruteForce_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("patterns");
        QTest::addColumn<bool>("percentage");
        QTest::addColumn<int>("seed");
        QTest::newRow("one pattern") << 60 << 1 << true << 1;
        QTest::newRow("several patterns") << 120 << 7 << true << 2;
        QTest::newRow("absolute radius") << 80 << 3 << false << 3;
        QTest::newRow("many singletons") << 40 << 30 << true << 4;
        QTest::newRow("ties in values") << 50 << 2 << true << 5;
        QTest::newRow("integer counts, r = 0.07") << 300 << 2 << true << 6;
    }
    void pairwiseMatchesBruteForce() {
        QFETCH(int, n);
        QFETCH(int, patterns);
        QFETCH(bool, percentage);
        QFETCH(int, seed);
        auto rng = makeRng(static_cast<std::uint64_t>(seed), 0, Purpose::Test);
        boost::random::uniform_real_distribution<double> u(1, 20);
        boost::random::uniform_int_distribution<int> p(0, patterns - 1);
        const QByteArray tag(QTest::currentDataTag());
        const bool ties = tag == "ties in values";
        // Counts 100..400 in steps of 100 with y* a whole number within +-10: many y* sit
        // exactly on the 7% radius, where the rounding of y +- rad matters.
        const bool counts = tag == "integer counts, r = 0.07";
        std::vector<double> y(static_cast<std::size_t>(n));
        std::vector<std::int32_t> pat(y.size());
        boost::random::uniform_int_distribution<int> hundreds(1, 6), shift(-10, 10);
        for (std::size_t i = 0; i < y.size(); ++i) {
            y[i] = counts ? 100.0 * hundreds(rng) : ties ? std::round(u(rng)) : u(rng);
            pat[i] = p(rng);
        }
        std::vector<std::vector<double>> synth(3, std::vector<double>(y.size()));
        for (auto& s : synth)
            for (std::size_t i = 0; i < s.size(); ++i)
                if (counts) {
                    // Half of them exactly on the edge y +- 0.07 y, the rest y + d.
                    const int d = shift(rng);
                    s[i] =
                        std::abs(d) <= 5 ? y[i] + (d < 0 ? -7.0 : 7.0) * (y[i] / 100.0) : y[i] + d;
                } else {
                    s[i] = ties ? std::round(y[i] + u(rng) / 5 - 2) : y[i] + u(rng) / 5 - 2;
                }
        RiskOptions o;
        o.radius = {counts ? 0.07 : percentage ? 0.1 : 1.5, percentage};
        auto fast = pairwiseRisk(y, synth, pat, o);
        QVERIFY(fast.hasValue());
        const auto slow = bruteForcePairwise(y, synth, pat, o.radius);
        for (std::size_t i = 0; i < y.size(); ++i) QVERIFY_NEAR(fast->at[i], slow[i], 1e-12);
        // The marginal IR computed alongside equals the marginal function's.
        auto marginal = marginalRisk(y, synth, pat, o);
        for (std::size_t i = 0; i < y.size(); ++i)
            QVERIFY_NEAR(fast->marginal[i], (*marginal)[i], 1e-12);
    }
    void singletonsFallBackAndAreCounted() {
        std::vector<double> y{100, 200, 300}, ys{101, 500, 300};
        auto r = pairwiseRisk(y, {ys}, std::vector<std::int32_t>{0, 1, 1});
        QCOMPARE(r->singletons, std::size_t{1});
        QCOMPARE(r->at[0], 1.0 - 0.0);  // alone: IR = T * 0 / 1 = 0 -> weight 1
        // Pattern 1: record 1 has T = 0 -> at = 1; record 2 has T = 1 but no T = 1 partner.
        QCOMPARE(r->at[1], 1.0);
        QCOMPARE(r->at[2], 1.0);
    }
    void badShapesAreErrors() {
        std::vector<double> y{1, 2};
        auto r = marginalRisk(y, {{1.0}}, std::vector<std::int32_t>{0, 0});
        QVERIFY(!r.hasValue());
        QCOMPARE(r.message(),
                 std::string("synthetic dataset 1 has 1 records but the original has 2"));
        QVERIFY(!marginalRisk(y, {}, std::vector<std::int32_t>{0, 0}).hasValue());
    }
    void cancellation() {
        std::vector<double> y(100, 5.0);
        std::vector<std::vector<double>> synth(10, std::vector<double>(100, 5.0));
        RiskOptions o;
        int calls = 0;
        o.progress = [&](const ppsynth::Progress&) {
            return ++calls >= 2 ? Continue::Stop : Continue::Yes;
        };
        auto r = marginalRisk(y, synth, std::vector<std::int32_t>(100, 0), o);
        QVERIFY(!r.hasValue());
        QCOMPARE(r.message(), std::string("identification risk cancelled"));
    }
    void summaryAgainstHandComputation() {
        std::vector<double> ir{0.1, 0.9, 0.3, 0.6, 0.0};
        auto s = summarizeRisk(ir, 0.5, 3);
        QCOMPARE(s.mean, 0.38);
        QCOMPARE(s.median, 0.3);
        QCOMPARE(s.q1, 0.1);  // R: quantile(c(0,.1,.3,.6,.9), .25) = 0.1
        QCOMPARE(s.q3, 0.6);
        QCOMPARE(s.max, 0.9);
        QCOMPARE(s.aboveThreshold, std::size_t{2});
        QCOMPARE(s.top, (std::vector<std::size_t>{1, 3, 2}));
    }
    void whackAMoleSet() {
        std::vector<double> base{0.1, 0.5, 0.2}, other{0.4, 0.6, 0.46};
        QCOMPARE(whackAMole(base, other, 0.25), (std::vector<std::size_t>{0, 2}));
    }
};

QTEST_APPLESS_MAIN(TstIdentificationRisk)
#include "tst_identification_risk.moc"
