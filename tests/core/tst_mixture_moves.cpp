// The normal mixture's exact Metropolis moves and pooled metric (NormalMixture::exactMove,
// NormalMixture::poolMetric, detail::MixtureCache): the incremental likelihood bookkeeping
// against full sums, the moves' proposals against the prior (all weights 0: every move is
// accepted) and the moves alone against a quadrature of a small weighted posterior.
#include <QTest>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>

#include "../common/near.hpp"
#include "mixture_test_support.hpp"
#include "models/mixture_cache.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/normal_mixture.hpp"

using namespace ppsynth;
using namespace ppsynth::models;
using ppsynth::testing::batchMeans;
using ppsynth::testing::McEstimate;
using ppsynth::testing::mixture;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double logSumExp(const Eigen::ArrayXd& v) {
    const double m = v.maxCoeff();
    if (m == kNegInf) return kNegInf;
    return m + std::log((v - m).exp().sum());
}

}  // namespace

class TestMixtureMoves : public QObject {
    Q_OBJECT

  private slots:
    // rest_i and the candidate L_i from the cache equal sums over the full row, including a
    // record whose mass sits almost entirely in the component being changed (the cancelling
    // case the cache sums afresh) and a component with zero density somewhere.
    void cacheMatchesFullSums() {
        const Eigen::Index n = 40, K = 5;
        Rng rng = makeRng(3, 0, Purpose::Test);
        boost::random::normal_distribution<double> z(0.0, 3.0);
        Eigen::ArrayXXd D(n, K);
        for (Eigen::Index i = 0; i < n; ++i)
            for (Eigen::Index k = 0; k < K; ++k) D(i, k) = z(rng);
        D(0, 2) = 40.0;  // record 0: component 2 holds a share of 1 - 1e-17
        D(1, 4) = kNegInf;
        Eigen::ArrayXd logPi(K);
        for (Eigen::Index k = 0; k < K; ++k) logPi(k) = z(rng);
        logPi -= logSumExp(logPi);
        detail::MixtureCache cache(D, logPi);

        Eigen::ArrayXd rest, L;
        for (Eigen::Index k = 0; k < K; ++k) {
            cache.rest(k, rest);
            for (Eigen::Index i = 0; i < n; ++i) {
                Eigen::ArrayXd row = D.row(i).transpose() + logPi;
                QCOMPARE(cache.logLik()(i), logSumExp(row));
                row(k) = kNegInf;
                const double want = logSumExp(row);
                QVERIFY2(std::abs(rest(i) - want) <= 1e-12 * std::max(1.0, std::abs(want)),
                         qPrintable(QString("k %1 record %2: %3 vs %4")
                                        .arg(k)
                                        .arg(i)
                                        .arg(rest(i), 0, 'g', 17)
                                        .arg(want, 0, 'g', 17)));
            }
            // A new component k with other log weights shifted by 0.3.
            Eigen::ArrayXd Dk(n);
            for (Eigen::Index i = 0; i < n; ++i) Dk(i) = z(rng);
            detail::MixtureCache::candidate(rest, 0.3, Dk, -1.5, L);
            for (Eigen::Index i = 0; i < n; ++i) {
                Eigen::ArrayXd row = D.row(i).transpose() + logPi + 0.3;
                row(k) = Dk(i) - 1.5;
                QVERIFY_WITHIN(L(i), logSumExp(row), 1e-12 * std::abs(L(i)) + 1e-12);
            }
        }
        QCOMPARE(cache.logRestWeight(1), std::log1p(-std::exp(logPi(1))));
        // A weighted log ratio ignores records of weight 0 and rejects a lost record.
        Eigen::VectorXd a(2);
        a << 0.0, 0.5;
        Eigen::ArrayXd cur(2), nxt(2);
        cur << 1.0, 1.0;
        nxt << kNegInf, 3.0;
        QCOMPARE(detail::weightedLogRatio(a, nxt, cur), 1.0);
        nxt << 0.0, kNegInf;
        QCOMPARE(detail::weightedLogRatio(a, nxt, cur), kNegInf);
    }

    // With every record weight 0 the posterior is the prior and each move is accepted, so
    // repeated moves must reproduce the prior: Dirichlet(gamma / K) for the weights
    // (E log pi_k = digamma(c) - digamma(K c)), Normal(0, tau_j) for a centred coefficient
    // and half-t(3, 0, 1) for sigma (its median). gamma and tau are held where the start
    // puts them (the moves do not change them).
    void movesDrawThePriorWhenWeightsAreZero() {
        const int K = 4, n = 30;
        Eigen::MatrixXd X(n, 2);
        Eigen::VectorXd y(n);
        Rng drng = makeRng(5, 0, Purpose::Test);
        boost::random::normal_distribution<double> z(0.0, 1.0);
        for (int i = 0; i < n; ++i) {
            X(i, 0) = 1.0;
            X(i, 1) = z(drng);
            y(i) = z(drng);
        }
        Priors priors;
        priors.centeredCoefficients = true;
        const auto m = mixture(X, y, K, priors);
        const auto* mix = dynamic_cast<const NormalMixture*>(m.get());
        QVERIFY(mix != nullptr);
        Rng rng = makeRng(6, 0, Purpose::Test);
        Eigen::VectorXd q = m->initialPoint(rng);
        const Eigen::Index p = 2, tauAt = p * K, sigmaAt = tauAt + p, gammaAt = sigmaAt + 2 * K - 1;
        q(tauAt) = std::log(1.7);  // tau of the intercept
        q(gammaAt) = std::log(2.0);
        const Eigen::VectorXd alpha = Eigen::VectorXd::Zero(n);

        std::vector<double> logPi1, beta2sq, sigma3;
        for (int it = 0; it < 20000; ++it) {
            QVERIFY(m->exactMove(alpha, q, rng));
            logPi1.push_back(mix->logWeights(q)(1));
            beta2sq.push_back(q(2 * p) * q(2 * p));  // component 3's intercept (centred)
            sigma3.push_back(std::exp(q(sigmaAt + 3)));
        }
        const double c = 2.0 / K;
        const McEstimate lp = batchMeans(logPi1);
        const double wantLp = boost::math::digamma(c) - boost::math::digamma(K * c);
        QVERIFY2(std::abs(lp.mean - wantLp) < 4.0 * lp.se,
                 qPrintable(QString("E log pi_2 %1 (se %2), Dirichlet %3")
                                .arg(lp.mean)
                                .arg(lp.se)
                                .arg(wantLp)));
        const McEstimate b = batchMeans(beta2sq);
        QVERIFY2(std::abs(b.mean - 1.7 * 1.7) < 4.0 * b.se,
                 qPrintable(QString("E beta^2 %1 (se %2), tau^2 2.89").arg(b.mean).arg(b.se)));
        std::sort(sigma3.begin(), sigma3.end());
        const double median = sigma3[sigma3.size() / 2];
        const double wantMedian = boost::math::quantile(boost::math::students_t(3.0), 0.75);
        QVERIFY2(std::abs(median - wantMedian) < 0.03,
                 qPrintable(QString("median sigma %1, half-t(3) %2").arg(median).arg(wantMedian)));
    }

    // The moves alone (no NUTS) on a posterior small enough for quadrature: K = 2, intercepts
    // only, sigma and tau fixed, gamma held at 6 (Beta(3, 3) on pi_1), 12 records in two
    // groups, the low group down-weighted to alpha = 0.15. The moves then target the
    // posterior of (beta_1, beta_2, pi_1); compare label-invariant means with a grid.
    void movesAloneMatchQuadrature() {
        const int n = 12;
        const double sigma = 1.0, tau = 2.0, gamma = 6.0;
        Eigen::MatrixXd X = Eigen::MatrixXd::Ones(n, 1);
        Eigen::VectorXd y(n), alpha(n);
        const double values[n] = {-2.3, -1.6, -2.1, -1.2, 1.8, 2.4, 1.1, 2.9, 2.2, 1.5, 3.1, 2.0};
        for (int i = 0; i < n; ++i) {
            y(i) = values[i];
            alpha(i) = values[i] < 0 ? 0.15 : 1.0;
        }
        Priors priors;
        priors.fixedSigma = sigma;
        priors.fixedTau = tau;
        const auto m = mixture(X, y, 2, priors);
        QCOMPARE(m->dimension(), std::size_t{4});  // beta_1, beta_2, a_1, log gamma

        // Reference: grid over beta_1, beta_2 in [-6, 6] and pi_1's midpoints.
        const int nb = 241, np = 120;
        const double lo = -6.0, step = 12.0 / (nb - 1);
        Eigen::MatrixXd dens(nb, n);  // Normal(y_i | b, sigma)
        for (int b = 0; b < nb; ++b)
            for (int i = 0; i < n; ++i) {
                const double r = (y(i) - (lo + b * step)) / sigma;
                dens(b, i) = std::exp(-0.5 * r * r) / (sigma * std::sqrt(2.0 * M_PI));
            }
        double Z = 0.0, sumMean = 0.0, sumMax = 0.0, sumUpper = 0.0;
        for (int b1 = 0; b1 < nb; ++b1)
            for (int b2 = 0; b2 < nb; ++b2) {
                const double x1 = lo + b1 * step, x2 = lo + b2 * step;
                const double prior = std::exp(-0.5 * (x1 * x1 + x2 * x2) / (tau * tau));
                for (int j = 0; j < np; ++j) {
                    const double pi = (j + 0.5) / np;
                    double ll = 0.0;
                    for (int i = 0; i < n; ++i)
                        ll += alpha(i) * std::log(pi * dens(b1, i) + (1 - pi) * dens(b2, i));
                    const double w = prior * std::pow(pi * (1 - pi), gamma / 2 - 1) * std::exp(ll);
                    Z += w;
                    sumMean += w * (pi * x1 + (1 - pi) * x2);
                    sumMax += w * std::max(x1, x2);
                    sumUpper += w * (x1 > x2 ? pi : 1 - pi);
                }
            }
        const double wantMean = sumMean / Z, wantMax = sumMax / Z, wantUpper = sumUpper / Z;

        Rng rng = makeRng(8, 0, Purpose::Test);
        Eigen::VectorXd q(4);
        q << 0.0, 0.0, 0.0, std::log(gamma);
        std::vector<double> mean, maxBeta, upper;
        int moved = 0;
        const int sweeps = 60000;
        for (int it = 0; it < sweeps; ++it) {
            moved += m->exactMove(alpha, q, rng) ? 1 : 0;
            QCOMPARE(q(3), std::log(gamma));
            const double pi1 = 1.0 / (1.0 + std::exp(-q(2)));
            mean.push_back(pi1 * q(0) + (1 - pi1) * q(1));
            maxBeta.push_back(std::max(q(0), q(1)));
            upper.push_back(q(0) > q(1) ? pi1 : 1 - pi1);  // the upper component's weight
        }
        QVERIFY(moved > sweeps / 20);
        const McEstimate e1 = batchMeans(mean), e2 = batchMeans(maxBeta), e3 = batchMeans(upper);
        qInfo(
            "E mean prediction %.4f (se %.4f) vs quadrature %.4f; E max beta %.4f (se %.4f) vs "
            "%.4f; E upper weight %.4f (se %.4f) vs %.4f; %d of %d sweeps moved",
            e1.mean, e1.se, wantMean, e2.mean, e2.se, wantMax, e3.mean, e3.se, wantUpper, moved,
            sweeps);
        // 4 standard errors plus the grid's own error (well below 0.002 at this spacing).
        QVERIFY_NEAR(e1.mean, wantMean, 4.0 * e1.se + 0.002);
        QVERIFY_NEAR(e2.mean, wantMax, 4.0 * e2.se + 0.002);
        QVERIFY_NEAR(e3.mean, wantUpper, 4.0 * e3.se + 0.002);
    }

    // The weight moves against the exact conditional of pi_1 given the components: with
    // tau = 1e6 every prior redraw of a component lands far from the data and is rejected,
    // so (beta_1, beta_2) = (-0.5, 0.5) stay and only the weights move. Heavily overlapping
    // components and 200 records make the responsibility-based proposal do most of the
    // work and depend on pi, so its Metropolis-Hastings correction matters.
    void weightMovesMatchConditional() {
        const int n = 200;
        const double gamma = 2.0;  // c = 1: uniform prior on pi_1
        Eigen::MatrixXd X = Eigen::MatrixXd::Ones(n, 1);
        Eigen::VectorXd y(n), alpha(n);
        Rng drng = makeRng(11, 0, Purpose::Test);
        boost::random::normal_distribution<double> z(0.0, 1.0);
        boost::random::uniform_01<double> u;
        for (int i = 0; i < n; ++i) {
            y(i) = (u(drng) < 0.3 ? -0.5 : 0.5) + z(drng);
            alpha(i) = 0.2 + 0.8 * u(drng);
        }
        Priors priors;
        priors.fixedSigma = 1.0;
        priors.fixedTau = 1e6;
        const auto m = mixture(X, y, 2, priors);

        const int grid = 4000;
        double Z = 0.0, sum = 0.0;
        for (int g = 0; g < grid; ++g) {
            const double pi = (g + 0.5) / grid;
            double ll = 0.0;
            for (int i = 0; i < n; ++i) {
                const double d1 = std::exp(-0.5 * (y(i) + 0.5) * (y(i) + 0.5));
                const double d2 = std::exp(-0.5 * (y(i) - 0.5) * (y(i) - 0.5));
                ll += alpha(i) * std::log(pi * d1 + (1 - pi) * d2);
            }
            const double w = std::exp(ll + 50.0);  // prior uniform; shifted against underflow
            Z += w;
            sum += w * pi;
        }
        const double want = sum / Z;
        {  // The same expectation from the model's own log density over a_1 = logit pi_1.
            double Z2 = 0.0, sum2 = 0.0;
            Eigen::VectorXd qq(4), gg(4);
            for (int g = 0; g < grid; ++g) {
                const double a = -8.0 + 16.0 * (g + 0.5) / grid;
                qq << -0.5, 0.5, a, std::log(gamma);
                const double w = std::exp(m->logPosterior(qq, alpha, gg) + 100.0);
                Z2 += w;
                sum2 += w / (1.0 + std::exp(-a));
            }
            QVERIFY2(std::abs(sum2 / Z2 - want) < 1e-4,
                     qPrintable(QString("model %1, grid %2").arg(sum2 / Z2).arg(want)));
        }
        Rng rng = makeRng(12, 0, Purpose::Test);
        Eigen::VectorXd q(4);
        q << -0.5, 0.5, 0.0, std::log(gamma);
        std::vector<double> pi1;
        // Fails (10 standard errors) when the other components' part of the likelihood is not
        // updated after an accepted weight move, as it once was.
        for (int it = 0; it < 40000; ++it) {
            (void)m->exactMove(alpha, q, rng);
            pi1.push_back(1.0 / (1.0 + std::exp(-q(2))));
        }
        QCOMPARE(q(0), -0.5);
        QCOMPARE(q(1), 0.5);
        const McEstimate e = batchMeans(pi1);
        qInfo("E pi_1 %.4f (se %.4f) vs conditional %.4f", e.mean, e.se, want);
        QVERIFY_NEAR(e.mean, want, 4.0 * e.se);
    }

    // With tau integrated out the rows couple the components' priors: no move, q unchanged.
    void noMoveWithTauIntegrated() {
        Eigen::MatrixXd X = Eigen::MatrixXd::Ones(10, 1);
        Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(10, -1.0, 1.0);
        Priors priors;
        priors.tau = TauForm::Integrated;
        const auto m = mixture(X, y, 3, priors);
        Rng rng = makeRng(9, 0, Purpose::Test);
        Eigen::VectorXd q = m->initialPoint(rng);
        const Eigen::VectorXd before = q;
        QVERIFY(!m->exactMove(Eigen::VectorXd::Ones(10), q, rng));
        QCOMPARE(q, before);
        // Nor a Gibbs sweep (normal_mixture_gibbs.cpp): the model asks for NUTS there.
        QVERIFY(!m->gibbsSweep(Eigen::VectorXd::Ones(10), q, rng, {}));
        QCOMPARE(q, before);
        QCOMPARE(m->preferredKernel(), mcmc::Kernel::Nuts);
        QCOMPARE(mixture(X, y, 3, Priors{})->preferredKernel(), mcmc::Kernel::Gibbs);
    }

    // NUTS holds the weights' coordinates and a component expected to hold under half a
    // record (n pi_k < 0.5); everything else moves. Nothing is held with tau integrated.
    void holdsWeightsAndEmptyComponents() {
        const int K = 3, n = 100;
        Eigen::MatrixXd X(n, 2);
        X.col(0).setOnes();
        X.col(1) = Eigen::VectorXd::LinSpaced(n, -1.0, 1.0);
        const Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(n, 0.0, 1.0);
        const auto m = mixture(X, y, K, Priors{});
        const Eigen::Index p = 2, sigmaAt = p * K + p, simplexAt = sigmaAt + K;
        Eigen::VectorXd q = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m->dimension()));
        // pi_2 / pi_3 = 1e-3 / 0.5: n pi_2 ~ 0.1, held; the others ~50 records each.
        q(simplexAt + 1) = std::log(1e-3 / 0.5);
        Eigen::VectorXd movable = Eigen::VectorXd::Ones(q.size());
        m->holdFixed(q, movable);
        Eigen::VectorXd want = Eigen::VectorXd::Ones(q.size());
        want.segment(p, p).setZero();  // component 2's coefficients
        want(sigmaAt + 1) = 0.0;
        want.segment(simplexAt, K - 1).setZero();
        QCOMPARE(movable, want);

        Priors integrated;
        integrated.tau = TauForm::Integrated;
        const auto mi = mixture(X, y, K, integrated);
        Eigen::VectorXd all = Eigen::VectorXd::Ones(static_cast<Eigen::Index>(mi->dimension()));
        mi->holdFixed(Eigen::VectorXd::Zero(all.size()), all);
        QVERIFY(all.minCoeff() == 1.0);
    }

    // The pooled metric: each group's variances become their geometric mean weighted by the
    // components' weights at the window mean; tau and gamma keep theirs.
    void poolMetricTakesWeightedGeometricMeans() {
        const int K = 3;
        Eigen::MatrixXd X(8, 2);
        X.col(0).setOnes();
        X.col(1) = Eigen::VectorXd::LinSpaced(8, -1.0, 1.0);
        const auto m = mixture(X, Eigen::VectorXd::LinSpaced(8, 0.0, 1.0), K, Priors{});
        const Eigen::Index p = 2, sigmaAt = p * K + p, simplexAt = sigmaAt + K;
        QCOMPARE(m->dimension(), std::size_t(simplexAt + K));
        Eigen::VectorXd mean = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(m->dimension()));
        // pi = (0.5, 0.25, 0.25): a_j = log(pi_j / pi_3).
        mean(simplexAt) = std::log(2.0);
        mean(simplexAt + 1) = 0.0;
        Eigen::VectorXd var = Eigen::VectorXd::LinSpaced(mean.size(), 1.0, 2.0 * mean.size());
        const Eigen::VectorXd raw = var;
        m->poolMetric(mean, var);
        const double w[K] = {0.5, 0.25, 0.25};
        for (Eigen::Index j = 0; j < p; ++j) {
            double s = 0.0;
            for (int k = 0; k < K; ++k) s += w[k] * std::log(raw(k * p + j));
            for (int k = 0; k < K; ++k) QVERIFY_NEAR(var(k * p + j), std::exp(s), 1e-12);
        }
        double s = 0.0;
        for (int k = 0; k < K; ++k) s += w[k] * std::log(raw(sigmaAt + k));
        for (int k = 0; k < K; ++k) QVERIFY_NEAR(var(sigmaAt + k), std::exp(s), 1e-12);
        const double a =
            (0.5 * std::log(raw(simplexAt)) + 0.25 * std::log(raw(simplexAt + 1))) / 0.75;
        QVERIFY_NEAR(var(simplexAt), std::exp(a), 1e-12);
        QVERIFY_NEAR(var(simplexAt + 1), std::exp(a), 1e-12);
        QCOMPARE(var.segment(p * K, p), raw.segment(p * K, p));    // tau
        QCOMPARE(var(simplexAt + K - 1), raw(simplexAt + K - 1));  // gamma
    }
};

QTEST_APPLESS_MAIN(TestMixtureMoves)
#include "tst_mixture_moves.moc"
