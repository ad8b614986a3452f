// Kernel density estimates: R's bw.nrd0 on hand examples, agreement of the binned estimate
// with the direct O(n * grid) sum, total mass, reflection at bounds, degenerate data, errors.
#include <QTest>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <numbers>

#include "../common/near.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/kde.hpp"

using namespace ppsynth;
using namespace ppsynth::utility;

namespace {

std::vector<double> normalSample(std::size_t n, std::uint64_t seed, double mu = 0,
                                 double sigma = 1) {
    Rng rng = makeRng(seed, 0, Purpose::Test);
    boost::random::normal_distribution<double> normal(mu, sigma);
    std::vector<double> v(n);
    for (double& x : v) x = normal(rng);
    return v;
}

std::vector<double> uniformSample(std::size_t n, std::uint64_t seed) {
    Rng rng = makeRng(seed, 0, Purpose::Test);
    boost::random::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<double> v(n);
    for (double& x : v) x = u(rng);
    return v;
}

// Trapezoid rule over the (evenly spaced) grid.
double integral(const std::vector<double>& x, const std::vector<double>& y) {
    double s = 0;
    for (std::size_t i = 1; i < x.size(); ++i) s += 0.5 * (y[i] + y[i - 1]) * (x[i] - x[i - 1]);
    return s;
}

// The estimator by definition, with the reflected copies when a bound is given.
double directDensity(const std::vector<double>& v, double x, double h, std::optional<double> lo,
                     std::optional<double> hi) {
    auto phi = [&](double d) { return std::exp(-0.5 * d * d / (h * h)); };
    double s = 0;
    for (double xi : v) {
        if (lo && hi) {  // reflections of reflections: images repeat with period 2W
            const double period = 2 * (*hi - *lo);
            for (int k = -6; k <= 6; ++k) {
                s += phi(x - (xi + k * period)) + phi(x - (2 * *lo - xi + k * period));
            }
            continue;
        }
        s += phi(x - xi);
        if (lo) s += phi(x - (2 * *lo - xi));
        if (hi) s += phi(x - (2 * *hi - xi));
    }
    return s / (static_cast<double>(v.size()) * h * std::sqrt(2 * std::numbers::pi));
}

}  // namespace

class TstKde : public QObject {
    Q_OBJECT
  private slots:
    void bandwidthMatchesR_data() {
        QTest::addColumn<std::vector<double>>("x");
        QTest::addColumn<double>("expected");
        // {1,2,3,4,10}: mean 4, squared deviations 9+4+1+0+36 = 50, sd = sqrt(50/4) = 3.5355;
        // type-7 quartiles x(2) = 2 and x(4) = 4, IQR/1.34 = 1.49254 < sd;
        // 0.9 * 1.49254 * 5^-0.2 (= 0.724780) = 0.973585.
        QTest::newRow("iqr smaller") << std::vector<double>{1, 2, 3, 4, 10} << 0.9735846228506357;
        // {0,0,1,1}: sd = sqrt(1/3) = 0.57735; quartiles 0 and 1, IQR/1.34 = 0.746 > sd;
        // 0.9 * 0.57735 * 4^-0.2 (= 0.757858) = 0.393795.
        QTest::newRow("sd smaller") << std::vector<double>{0, 0, 1, 1} << 0.39379471546047906;
        // {1,1,1,1,5}: IQR = 0 so R falls back to sd = sqrt(12.8/4) = 1.78885;
        // 0.9 * 1.78885 * 0.724780 = 1.166873.
        QTest::newRow("iqr zero") << std::vector<double>{1, 1, 1, 1, 5} << 1.166872749618789;
        // Constant {2,2,2}: sd = IQR = 0, fallback |x[1]| = 2: 0.9 * 2 * 3^-0.2 = 1.444935.
        QTest::newRow("constant") << std::vector<double>{2, 2, 2} << 1.4449348111684153;
        // Constant zeros: last fallback 1: 0.9 * 2^-0.2 = 0.783496.
        QTest::newRow("zeros") << std::vector<double>{0, 0} << 0.7834955069665117;
        // One value (R refuses): sd taken as 0, fallback |7|: 0.9 * 7 = 6.3.
        QTest::newRow("single") << std::vector<double>{7} << 6.3;
    }
    void bandwidthMatchesR() {
        QFETCH(std::vector<double>, x);
        QFETCH(double, expected);
        QVERIFY2(std::abs(bandwidthNrd0(x) - expected) < 1e-12,
                 qPrintable(QString::number(bandwidthNrd0(x), 'g', 17)));
    }

    void integratesToOne_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("multiplier");
        QTest::newRow("n=50") << 50 << 1.0;
        QTest::newRow("n=1000") << 1000 << 1.0;
        QTest::newRow("n=1000 wide") << 1000 << 3.0;
        QTest::newRow("n=100000 narrow") << 100000 << 0.25;
    }
    void integratesToOne() {
        QFETCH(int, n);
        QFETCH(double, multiplier);
        const auto v = normalSample(static_cast<std::size_t>(n), 11, 5.0, 2.0);
        KdeOptions o;
        o.bandwidthMultiplier = multiplier;
        const auto d = kernelDensity(v, o);
        QVERIFY(d);
        QCOMPARE(d->x.size(), std::size_t{512});
        // The grid stops 3h beyond the extremes, so at most ~2 * 0.00135 / n of the kernel
        // mass of the two extreme points falls outside: well inside 2e-3.
        const double mass = integral(d->x, d->y);
        QVERIFY2(std::abs(mass - 1.0) < 2e-3, qPrintable(QString::number(mass, 'g', 10)));
        QVERIFY_NEAR(d->bandwidth, multiplier * bandwidthNrd0(v), 1e-12);
    }

    void matchesDirectSum_data() {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("gridSize");
        QTest::addColumn<bool>("bounded");
        QTest::addColumn<bool>("tail");
        QTest::addColumn<double>("multiplier");
        QTest::newRow("normal 512") << 3000 << 512 << false << false << 1.0;
        QTest::newRow("normal 100") << 3000 << 100 << false << false << 1.0;
        QTest::newRow("normal tail range") << 3000 << 256 << false << true << 1.0;
        QTest::newRow("uniform reflected") << 3000 << 512 << true << false << 1.0;
        QTest::newRow("reflected, h ~ width") << 500 << 512 << true << false << 8.0;
        QTest::newRow("tiny n") << 3 << 64 << false << false << 1.0;
    }
    void matchesDirectSum() {
        QFETCH(int, n);
        QFETCH(int, gridSize);
        QFETCH(bool, bounded);
        QFETCH(bool, tail);
        QFETCH(double, multiplier);
        const auto v = bounded ? uniformSample(static_cast<std::size_t>(n), 5)
                               : normalSample(static_cast<std::size_t>(n), 6);
        KdeOptions o;
        o.gridSize = static_cast<std::size_t>(gridSize);
        o.bandwidthMultiplier = multiplier;
        if (bounded) {
            o.lower = 0.0;
            o.upper = 1.0;
        }
        if (tail) {
            o.from = 1.3;  // roughly the 90th percentile of N(0, 1)
            o.to = 4.0;
        }
        const auto d = kernelDensity(v, o);
        QVERIFY(d);
        if (tail) {
            QCOMPARE(d->x.front(), 1.3);
            QCOMPARE(d->x.back(), 4.0);
        }
        double peak = 0, worst = 0;
        for (std::size_t i = 0; i < d->x.size(); ++i) {
            const double ref = directDensity(v, d->x[i], d->bandwidth, o.lower, o.upper);
            peak = std::max(peak, ref);
            worst = std::max(worst, std::abs(ref - d->y[i]));
        }
        // Linear binning errs by O((bin / h)^2) and the cut kernel by 4e-6 of its peak; with
        // ~2000 bins over the range both stay far below 1e-4 of the peak density.
        QVERIFY2(worst < 1e-4 * peak, qPrintable(QString("worst %1 peak %2").arg(worst).arg(peak)));
    }

    void reflectionKeepsMassInside() {
        const auto v = uniformSample(5000, 21);
        KdeOptions o;
        o.lower = 0.0;
        o.upper = 1.0;
        const auto d = kernelDensity(v, o);
        QVERIFY(d);
        QCOMPARE(d->x.front(), 0.0);
        QCOMPARE(d->x.back(), 1.0);
        const double mass = integral(d->x, d->y);
        QVERIFY2(std::abs(mass - 1.0) < 1e-3, qPrintable(QString::number(mass, 'g', 10)));
        // A uniform density is ~1 right up to the bounds; without reflection it halves there.
        QVERIFY2(d->y.front() > 0.85 && d->y.back() > 0.85,
                 qPrintable(QString("%1 %2").arg(d->y.front()).arg(d->y.back())));

        // The same data unreflected leaks visible mass past both bounds.
        const auto free = kernelDensity(v);
        QVERIFY(free);
        double inside = 0;
        for (std::size_t i = 1; i < free->x.size(); ++i) {
            if (free->x[i - 1] >= 0 && free->x[i] <= 1) {
                inside += 0.5 * (free->y[i] + free->y[i - 1]) * (free->x[i] - free->x[i - 1]);
            }
        }
        QVERIFY2(inside < 0.99, qPrintable(QString::number(inside)));
    }

    void constantDataHasNoNaN_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<bool>("bounded");
        QTest::newRow("threes") << 3.0 << false;
        QTest::newRow("zeros") << 0.0 << false;
        QTest::newRow("ones at upper bound") << 1.0 << true;
    }
    void constantDataHasNoNaN() {
        QFETCH(double, value);
        QFETCH(bool, bounded);
        const std::vector<double> v(20, value);
        KdeOptions o;
        if (bounded) {
            o.lower = 0.0;
            o.upper = 1.0;
        }
        const auto s = violinSummary(v, o);
        QVERIFY(s);
        QVERIFY(s->bandwidth > 0);
        for (double y : s->density) QVERIFY(std::isfinite(y) && y >= 0);
        QCOMPARE(s->min, value);
        QCOMPARE(s->median, value);
        QCOMPARE(s->max, value);
        QCOMPARE(s->mean, value);
        QVERIFY_NEAR(integral(s->grid, s->density), 1.0, 5e-3);
        // The peak sits at the value.
        const auto peak = std::max_element(s->density.begin(), s->density.end());
        const double at = s->grid[static_cast<std::size_t>(peak - s->density.begin())];
        QVERIFY_WITHIN(at, value, (s->grid[1] - s->grid[0]));
    }

    void violinSummaryQuartiles() {
        // 1..9 plus 100: type-7 quartiles at positions 2.25, 4.5, 6.75 (0-based).
        std::vector<double> v{100, 9, 8, 7, 6, 5, 4, 3, 2, 1};
        const auto s = violinSummary(v);
        QVERIFY(s);
        QCOMPARE(s->n, std::size_t{10});
        QCOMPARE(s->min, 1.0);
        QCOMPARE(s->max, 100.0);
        QCOMPARE(s->q1, 3.25);
        QCOMPARE(s->median, 5.5);
        QCOMPARE(s->q3, 7.75);
        QCOMPARE(s->mean, 14.5);
        QCOMPARE(s->bandwidth, bandwidthNrd0(v));
        QCOMPARE(s->grid.size(), s->density.size());
    }

    void comparisonSharesGridAndTail() {
        const auto conf = normalSample(2000, 31, 0, 1);
        const auto synth = normalSample(3000, 32, 0.5, 2);
        const auto c = compareDensities(conf, synth, {}, 0.9);
        QVERIFY(c);
        QCOMPARE(c->confidential.x, c->synthetic.x);
        QCOMPARE(c->confidential.bandwidth, bandwidthNrd0(conf));
        QCOMPARE(c->synthetic.bandwidth, bandwidthNrd0(synth));
        // The common grid covers both samples' +-3h ranges, so both integrate to ~1.
        QVERIFY_NEAR(integral(c->confidential.x, c->confidential.y), 1, 2e-3);
        QVERIFY_NEAR(integral(c->synthetic.x, c->synthetic.y), 1, 2e-3);
        QVERIFY(c->confidentialTail && c->syntheticTail);
        QCOMPARE(c->confidentialTail->x.front(), quantile(conf, 0.9));
        QCOMPARE(c->confidentialTail->x.back(), c->confidential.x.back());
        // Tail mass of the confidential density is ~10% (the KDE smooths it a little).
        const double tailMass = integral(c->confidentialTail->x, c->confidentialTail->y);
        QVERIFY2(tailMass > 0.08 && tailMass < 0.13, qPrintable(QString::number(tailMass)));
        const double mid = c->syntheticTail->x[100];
        QVERIFY_NEAR(c->syntheticTail->y[100],
                     directDensity(synth, mid, c->synthetic.bandwidth, {}, {}), 1e-5);
        QVERIFY(!compareDensities(conf, {}, {}, 0.9));
        QVERIFY(!compareDensities(conf, synth, {}, 1.0));
    }

    void rejectsBadInput_data() {
        QTest::addColumn<std::vector<double>>("x");
        QTest::addColumn<int>("what");  // 0 plain, 1 support [0,1], 2 inverted support, 3 grid
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << std::vector<double>{} << 0 << "no values";
        QTest::newRow("nan") << std::vector<double>{1, NAN} << 0 << "value 2 is not finite";
        QTest::newRow("outside") << std::vector<double>{0.5, 1.5} << 1
                                 << "value 2 (1.5) lies outside the support [0, 1]";
        QTest::newRow("inverted") << std::vector<double>{0.5} << 2 << "is empty";
        QTest::newRow("grid") << std::vector<double>{0.5} << 3 << "at least 2 points";
    }
    void rejectsBadInput() {
        QFETCH(std::vector<double>, x);
        QFETCH(int, what);
        QFETCH(QString, message);
        KdeOptions o;
        if (what == 1) {
            o.lower = 0.0;
            o.upper = 1.0;
        } else if (what == 2) {
            o.lower = 1.0;
            o.upper = 0.0;
        } else if (what == 3) {
            o.gridSize = 1;
        }
        const auto d = kernelDensity(x, o);
        QVERIFY(!d);
        QVERIFY2(QString::fromStdString(d.message()).contains(message), d.message().c_str());
    }
};

QTEST_APPLESS_MAIN(TstKde)
#include "tst_kde.moc"
