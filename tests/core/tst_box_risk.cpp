// Identification risk with a box over several sensitive variables (METHOD.md section 9):
// exactly the counts of a brute-force reading of the definition on random data (several q,
// patterns, absolute and percentage radii, ties on the box's edge), and with one variable
// exactly marginalRisk and pairwiseRisk.
#include <QTest>
#include <boost/random/uniform_int_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/privacy/box_risk.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

using namespace ppsynth;
using namespace ppsynth::privacy;

namespace {

struct Case {
    std::size_t n = 0, q = 1;
    std::vector<double> y;                   // q n, variable after variable
    std::vector<std::vector<double>> synth;  // L datasets, same layout
    std::vector<std::int32_t> pattern;
    std::vector<Radius> radii;
};

// Whole numbers in a small range, so many values tie and many differences fall exactly on a
// box edge (absolute r = 2 and percentage r = 0.25 of multiples of 4 are whole numbers);
// zeros make empty percentage boxes.
Case randomCase(std::uint64_t seed, std::size_t n, std::size_t q, int patterns, bool percentage,
                bool integers) {
    Case c;
    c.n = n;
    c.q = q;
    auto rng = makeRng(seed, 0, Purpose::Test);
    boost::random::uniform_int_distribution<int> value(0, 6), pat(0, patterns - 1);
    boost::random::uniform_real_distribution<double> real(50, 150);
    auto draw = [&] { return integers ? 4.0 * value(rng) : real(rng); };
    for (std::size_t i = 0; i < q * n; ++i) c.y.push_back(draw());
    for (int l = 0; l < 3; ++l) {
        std::vector<double> s;
        for (std::size_t i = 0; i < q * n; ++i)
            s.push_back(integers && value(rng) < 3 ? c.y[i] + (value(rng) - 3) : draw());
        c.synth.push_back(std::move(s));
    }
    for (std::size_t i = 0; i < n; ++i) c.pattern.push_back(pat(rng));
    for (std::size_t k = 0; k < q; ++k)
        c.radii.push_back(percentage ? Radius{0.25 + 0.25 * static_cast<double>(k % 2), true}
                                     : Radius{2.0 + static_cast<double>(k), false});
    return c;
}

// Straight from the definition: O(L n^3 q).
bool close(const Case& c, const std::vector<double>& s, std::size_t h, std::size_t i) {
    for (std::size_t k = 0; k < c.q; ++k) {
        const double yi = c.y[k * c.n + i];
        if (!(std::abs(s[k * c.n + h] - yi) < c.radii[k].around(yi))) return false;
    }
    return true;
}

PairwiseRisk bruteForce(const Case& c) {
    PairwiseRisk out;
    out.at.assign(c.n, 0.0);
    out.marginal.assign(c.n, 0.0);
    const double L = static_cast<double>(c.synth.size());
    std::vector<std::vector<double>> atL, irL;
    for (const auto& s : c.synth) {
        std::vector<double> at(c.n, 0.0), ir(c.n, 0.0);
        for (std::size_t i = 0; i < c.n; ++i) {
            std::vector<std::size_t> M;
            for (std::size_t h = 0; h < c.n; ++h)
                if (c.pattern[h] == c.pattern[i]) M.push_back(h);
            const double m = static_cast<double>(M.size());
            const bool Ti = close(c, s, i, i);
            std::size_t notClose = 0;
            for (auto h : M) notClose += !close(c, s, h, i);
            ir[i] = Ti ? static_cast<double>(notClose) / m : 0.0;
            if (M.size() == 1) {
                at[i] = 1.0 - ir[i];
                continue;
            }
            double sumIr = 0;
            for (auto j : M) {
                if (j == i || !Ti || !close(c, s, j, j)) continue;
                std::size_t neither = 0;
                for (auto h : M) neither += !close(c, s, h, i) && !close(c, s, h, j);
                sumIr += static_cast<double>(neither) / m;
            }
            at[i] = 1.0 - sumIr / (m - 1.0);
        }
        atL.push_back(at);
        irL.push_back(ir);
    }
    for (std::size_t l = 0; l < atL.size(); ++l)
        for (std::size_t i = 0; i < c.n; ++i) {
            out.at[i] += atL[l][i];
            out.marginal[i] += irL[l][i];
        }
    for (std::size_t i = 0; i < c.n; ++i) {
        out.at[i] /= L;
        out.marginal[i] /= L;
    }
    return out;
}

}  // namespace

class TstBoxRisk : public QObject {
    Q_OBJECT
  private slots:
    void equalsBruteForce_data() {
        QTest::addColumn<int>("q");
        QTest::addColumn<int>("patterns");
        QTest::addColumn<bool>("percentage");
        QTest::addColumn<bool>("integers");
        for (int q : {1, 2, 3})
            for (int patterns : {1, 4})
                for (bool percentage : {false, true})
                    for (bool integers : {true, false})
                        QTest::addRow("q=%d patterns=%d %s %s", q, patterns,
                                      percentage ? "percentage" : "absolute",
                                      integers ? "ties" : "reals")
                            << q << patterns << percentage << integers;
    }
    void equalsBruteForce() {
        QFETCH(int, q);
        QFETCH(int, patterns);
        QFETCH(bool, percentage);
        QFETCH(bool, integers);
        for (std::uint64_t seed = 1; seed <= 5; ++seed) {
            const Case c = randomCase(seed * 31 + static_cast<std::uint64_t>(q), 70,
                                      static_cast<std::size_t>(q), patterns, percentage, integers);
            const PairwiseRisk expected = bruteForce(c);
            RiskOptions o;
            o.threads = 2;
            auto marginal = boxMarginalRisk(c.y, c.q, c.synth, c.pattern, o, c.radii);
            auto pairwise = boxPairwiseRisk(c.y, c.q, c.synth, c.pattern, o, c.radii);
            QVERIFY2(marginal && pairwise, "refused");
            QCOMPARE(*marginal, expected.marginal);
            QCOMPARE(pairwise->marginal, expected.marginal);
            QCOMPARE(pairwise->at, expected.at);
            // Not trivially zero: some records are at risk and some pairs lower at_i.
            if (integers && seed == 1) {
                QVERIFY(std::any_of(expected.marginal.begin(), expected.marginal.end(),
                                    [](double v) { return v > 0; }));
                QVERIFY(std::any_of(expected.at.begin(), expected.at.end(),
                                    [](double v) { return v < 1; }));
            }
        }
    }

    // One variable: the box is section 4's interval, to the last bit.
    void oneVariableIsTheExistingRisk_data() {
        QTest::addColumn<bool>("percentage");
        QTest::addColumn<bool>("integers");
        for (bool percentage : {false, true})
            for (bool integers : {true, false})
                QTest::addRow("%s %s", percentage ? "percentage" : "absolute",
                              integers ? "ties" : "reals")
                    << percentage << integers;
    }
    void oneVariableIsTheExistingRisk() {
        QFETCH(bool, percentage);
        QFETCH(bool, integers);
        const Case c = randomCase(7, 300, 1, 3, percentage, integers);
        RiskOptions o;
        o.radius = c.radii[0];
        auto box = boxPairwiseRisk(c.y, 1, c.synth, c.pattern, o);
        auto one = pairwiseRisk(c.y, c.synth, c.pattern, o);
        QVERIFY(box && one);
        QCOMPARE(box->at, one->at);
        QCOMPARE(box->marginal, one->marginal);
        QCOMPARE(box->singletons, one->singletons);
        auto boxMarginal = boxMarginalRisk(c.y, 1, c.synth, c.pattern, o);
        auto marginal = marginalRisk(c.y, c.synth, c.pattern, o);
        QVERIFY(boxMarginal && marginal);
        QCOMPARE(*boxMarginal, *marginal);
    }

    void shapesAreChecked() {
        const Case c = randomCase(3, 10, 2, 1, false, true);
        auto odd = boxMarginalRisk(std::span<const double>(c.y).first(19), 2, c.synth, c.pattern);
        QVERIFY(!odd);
        auto radii = boxMarginalRisk(c.y, 2, c.synth, c.pattern, {}, {Radius{}});
        QVERIFY(!radii);
        QCOMPARE(QString::fromStdString(radii.message()),
                 QStringLiteral("got 1 radii for 2 sensitive variables"));
    }
};

QTEST_APPLESS_MAIN(TstBoxRisk)
#include "tst_box_risk.moc"
