// The coefficient prior with tau integrated out (core/src/models/integrated_tau): its log
// density against an independent quadrature (Boost's exp-sinh rule on tau itself, not the
// trapezoid on log tau used inside), the whitening map against the chi CDF it must match,
// and the exact draws of tau | beta against the conditional's CDF.
#include <QTest>
#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/quadrature/exp_sinh.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <vector>

#include "../common/near.hpp"
#include "models/integrated_tau.hpp"

using ppsynth::models::detail::IntegratedTau;

namespace {

struct Prior {
    double df, scale;
    int K;
};

// prod_k N(beta_k | 0, tau) half-t(tau | df, 0, scale) as a function of tau, scaled by
// e^offset so the integral stays in range.
double kernel(const Prior& p, double r2, double tau, double offset) {
    const boost::math::students_t t(p.df);
    const double halfT = 2.0 * boost::math::pdf(t, tau / p.scale) / p.scale;
    const double logNormals =
        -p.K * (0.5 * std::log(2.0 * M_PI) + std::log(tau)) - 0.5 * r2 / (tau * tau);
    return std::exp(logNormals - offset) * halfT;
}

// log integral over tau of the kernel, in three smooth pieces split at the kernel's two
// scales (the Normal factor's peak and the half-t scale): exp-sinh on (0, a] and
// [b, inf), adaptive Gauss-Kronrod on log tau between. (Boost 1.74's tanh-sinh there can round an
// abscissa onto the end point and trip its own debug assertion: the sanitizer build aborted.)
double referenceLogDensity(const Prior& p, double r2) {
    // Offset: the log of the Normal factor at its maximum over tau (tau^2 = r2 / K), so the
    // integrand is O(1) at its peak whatever r2.
    const double tauPeak = std::sqrt(r2 / p.K);
    const double offset = -p.K * (0.5 * std::log(2.0 * M_PI) + std::log(tauPeak)) - 0.5 * p.K;
    boost::math::quadrature::exp_sinh<double> tail;
    const double a = std::min(tauPeak, p.scale), b = std::max(tauPeak, p.scale);
    // (0, a]: substitute tau = a / (1 + s), s in [0, inf).
    const double low = tail.integrate(
        [&](double s) {
            return kernel(p, r2, a / (1.0 + s), offset) * a / ((1.0 + s) * (1.0 + s));
        },
        1e-14);
    const double mid =
        b > a ? boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
                    [&](double u) {  // on log tau: a and b can be orders of magnitude apart
                        const double t = std::exp(u);
                        return kernel(p, r2, t, offset) * t;
                    },
                    std::log(a), std::log(b), 15, 1e-14)
              : 0.0;
    const double high =
        tail.integrate([&](double s) { return kernel(p, r2, b + s, offset); }, 1e-14);
    return offset + std::log(low + mid + high);
}

}  // namespace

class TstIntegratedTau : public QObject {
    Q_OBJECT
  private slots:
    void mapMatchesQuadrature_data() {
        QTest::addColumn<double>("df");
        QTest::addColumn<double>("scale");
        QTest::addColumn<int>("K");
        QTest::newRow("default, K = 1") << 3.0 << 1.0 << 1;
        QTest::newRow("default, K = 3") << 3.0 << 1.0 << 3;
        QTest::newRow("default, K = 20") << 3.0 << 1.0 << 20;
        QTest::newRow("Cauchy scale 2.5, K = 1") << 1.0 << 2.5 << 1;
        QTest::newRow("df 7 scale 0.3, K = 5") << 7.0 << 0.3 << 5;
    }
    // The marginal density by quadrature against an independent rule (within 1e-7), and
    // the whitening map: P(||beta|| <= T(rho)) must equal the chi(K) CDF at rho (within
    // 5e-7 relative, in the tail that is small), T' the exact derivative within 1e-6
    // relative in the bulk, 1e-5 in the tails (so the prior the sampler sees is the
    // marginal one to that relative accuracy), and
    // inverseRadius must invert T. rho from the table's start to 9 + sqrt(K), off the nodes.
    void mapMatchesQuadrature() {
        QFETCH(double, df);
        QFETCH(double, scale);
        QFETCH(int, K);
        const Prior p{df, scale, K};
        const IntegratedTau prior(df, scale, K);
        for (double lr = -13.0; lr <= 9.5; lr += 0.37) {  // log |beta| / scale
            const double r2 = std::exp(2.0 * lr) * scale * scale;
            const double value = prior.integrate(r2).value;
            const double ref = referenceLogDensity(p, r2);
            QVERIFY2(std::abs(value - ref) < 1e-7,
                     qPrintable(QString("r2 %1: quadrature %2, reference %3")
                                    .arg(r2)
                                    .arg(value, 0, 'g', 14)
                                    .arg(ref, 0, 'g', 14)));
        }
        const double top = std::log(9.0 + std::sqrt(static_cast<double>(K)));
        for (double x = -20.7 / K; x <= top; x += 0.0173) {
            const double rho = std::exp(x);
            const auto T = prior.radius(rho);
            const double chiLower = boost::math::gamma_p(0.5 * K, 0.5 * rho * rho);
            const bool upper = chiLower > 0.5;
            const double chi = upper ? boost::math::gamma_q(0.5 * K, 0.5 * rho * rho) : chiLower;
            const double H = std::exp(prior.logRadialCdf(T.value, upper));
            QVERIFY2(std::abs(H / chi - 1.0) < 5e-7,
                     qPrintable(QString("rho %1: T %2, radial %3 %4 vs chi %5")
                                    .arg(rho)
                                    .arg(T.value, 0, 'g', 12)
                                    .arg(upper ? "upper" : "lower")
                                    .arg(H, 0, 'g', 12)
                                    .arg(chi, 0, 'g', 12)));
            // T' against the exact derivative f_chi(rho) / f_R(T): the induced prior density
            // is the Normal one divided by T', so this bounds its relative error.
            const double logChi = (K - 1) * x - 0.5 * rho * rho - (0.5 * K - 1) * std::log(2.0) -
                                  std::lgamma(0.5 * K);
            const double logSurface =
                std::log(2.0) + 0.5 * K * std::log(M_PI) - std::lgamma(0.5 * K);
            const double exact = std::exp(logChi - logSurface - (K - 1) * std::log(T.value) -
                                          prior.integrate(T.value * T.value).value);
            // 1e-6 in the bulk (chi probability above 1e-3 on both sides), 1e-5 in the tails
            // (2e-6 measured at K = 20, rho = 0.36, lower tail probability 2.6e-19).
            const double tailProb = std::min(chiLower, 1.0 - chiLower);
            QVERIFY2(
                std::abs(T.slope / exact - 1.0) < (tailProb < 1e-3 ? 1e-5 : 1e-6),
                qPrintable(QString("rho %1: T' %2 vs exact %3").arg(rho).arg(T.slope).arg(exact)));
            QVERIFY_NEAR(prior.inverseRadius(T.value) / rho, 1.0, 1e-10);
        }
    }

    // tau | beta: 20,000 draws (fixed seeds) against the conditional CDF from quadrature,
    // by the Kolmogorov-Smirnov distance, with the 0.1% critical value 1.95 / sqrt(N); and
    // E[1 / tau^2] against -2 d log p / d r2 (the identity the gradient rests on).
    void drawsFollowTheConditional_data() {
        QTest::addColumn<double>("r2");
        QTest::addColumn<int>("K");
        QTest::newRow("beta near zero, K = 1 (flat top)") << 1e-10 << 1;
        QTest::newRow("beta 0.3, K = 1") << 0.09 << 1;
        QTest::newRow("beta 12, K = 1 (tail)") << 144.0 << 1;
        QTest::newRow("K = 20, r2 = 3") << 3.0 << 20;
    }
    void drawsFollowTheConditional() {
        QFETCH(double, r2);
        QFETCH(int, K);
        const Prior p{3.0, 1.0, K};
        const IntegratedTau prior(3.0, 1.0, K);
        constexpr int N = 20000;
        std::vector<double> u(N);
        double invTau2 = 0, invTau4 = 0;
        for (int i = 0; i < N; ++i) {
            const double tau = prior.drawTau(r2, static_cast<std::uint64_t>(i) * 7919 + 13);
            u[static_cast<std::size_t>(i)] = std::log(tau);
            invTau2 += 1.0 / (tau * tau);
            invTau4 += 1.0 / (tau * tau * tau * tau);
        }
        std::sort(u.begin(), u.end());
        // Conditional density on log tau by a fine trapezoid over the draws' range and
        // beyond; CDF at each sorted draw.
        const double lo = u.front() - 5.0, hi = u.back() + 5.0, step = (hi - lo) / 200000.0;
        const double logNorm = referenceLogDensity(p, r2);
        auto dens = [&](double x) {
            const double tau = std::exp(x);
            return kernel(p, r2, tau, logNorm) * tau;
        };
        double cdf = 0, x = lo, prev = dens(lo), D = 0;
        for (int i = 0; i < N; ++i) {
            while (x + step <= u[static_cast<std::size_t>(i)]) {
                const double next = dens(x + step);
                cdf += 0.5 * (prev + next) * step;
                prev = next;
                x += step;
            }
            const double at = cdf + prev * (u[static_cast<std::size_t>(i)] - x);
            D = std::max({D, std::abs(at - static_cast<double>(i) / N),
                          std::abs(at - static_cast<double>(i + 1) / N)});
        }
        qInfo("r2 = %g, K = %d: KS distance %.4f (critical %.4f)", r2, K, D, 1.95 / std::sqrt(N));
        QVERIFY(D < 1.95 / std::sqrt(static_cast<double>(N)));
        const double mean = invTau2 / N;
        const double se = std::sqrt((invTau4 / N - mean * mean) / N);
        const double expected = -2.0 * prior.integrate(r2).grad;
        qInfo("E[1/tau^2]: draws %.6g +- %.2g, from the density's slope %.6g", mean, se, expected);
        QVERIFY_NEAR(mean, expected, 4.5 * se);
    }

    // Deterministic: the same seed gives the same tau; different seeds differ.
    void drawIsAFunctionOfTheSeed() {
        const IntegratedTau prior(3.0, 1.0, 1);
        QCOMPARE(prior.drawTau(0.5, 42), prior.drawTau(0.5, 42));
        QVERIFY(prior.drawTau(0.5, 42) != prior.drawTau(0.5, 43));
    }
};

QTEST_APPLESS_MAIN(TstIntegratedTau)
#include "tst_integrated_tau.moc"
