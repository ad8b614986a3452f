// The normal mixture's augmented Gibbs sweep (NormalMixture::gibbsSweep) and the exact
// scale draws it uses (detail::drawScale): each against a quadrature of its target.
#include <QTest>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <functional>
#include <vector>

#include "../common/near.hpp"
#include "mcmc/tempering.hpp"
#include "mixture_test_support.hpp"
#include "models/design.hpp"
#include "models/mixture_cache.hpp"
#include "models/mixture_gibbs_parts.hpp"
#include "models/scale_draw.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/factory.hpp"
#include "ppsynth/models/normal_mixture.hpp"

using namespace ppsynth;
using namespace ppsynth::models;
using ppsynth::testing::batchMeans;
using ppsynth::testing::McEstimate;
using ppsynth::testing::mixture;

namespace {

const NormalMixture& asMixture(const std::unique_ptr<Model>& m) {
    return dynamic_cast<const NormalMixture&>(*m);
}

// E[f(log s)] under drawScale's density, by the trapezoid rule on u = log s.
double scaleExpectation(double m, double r2, double df, double scale,
                        const std::function<double(double)>& f) {
    double mass = 0.0, sum = 0.0;
    for (double u = -25.0; u < 15.0; u += 1e-3) {
        const double s2 = std::exp(2.0 * u);
        const double w = std::exp(-(m - 1.0) * u - 0.5 * r2 / s2 -
                                  0.5 * (df + 1.0) * std::log1p(s2 / (scale * scale * df)));
        mass += w;
        sum += w * f(u);
    }
    return sum / mass;
}

// The mixture's Gibbs sampler alone on K = 2, intercept only, sigma = 1 and tau = 2 fixed,
// gamma ~ Gamma(shape, rate) free, against a quadrature over (beta_1, beta_2, pi_1) with gamma
// integrated out per pi_1 (pi_1's Dirichlet density stays bounded for gamma >= 2, so a
// midpoint grid is accurate): E of the mean prediction, the larger intercept, the upper
// component's weight and gamma, within 4 standard errors plus the grid's error.
// With replicas > 1 the chain is parallel tempering (mcmc::TemperingOptions) on a fixed
// geometric ladder down to `hottest`: only the replica at t = 1 is compared.
void checkAgainstQuadrature(const std::vector<double>& values, const std::vector<double>& weights,
                            double gammaShape, double gammaRate, std::uint64_t seed, int sweeps,
                            int replicas = 1, double hottest = 0.1) {
    const auto n = static_cast<Eigen::Index>(values.size());
    const double sigma = 1.0, tau = 2.0;
    const Eigen::MatrixXd X = Eigen::MatrixXd::Ones(n, 1);
    const Eigen::VectorXd y = Eigen::Map<const Eigen::VectorXd>(values.data(), n);
    const Eigen::VectorXd alpha = Eigen::Map<const Eigen::VectorXd>(weights.data(), n);
    Priors priors;
    priors.fixedSigma = sigma;
    priors.fixedTau = tau;
    priors.gammaShape = gammaShape;
    priors.gammaRate = gammaRate;
    const auto model = mixture(X, y, 2, priors);
    const NormalMixture& m = asMixture(model);
    QCOMPARE(m.dimension(), std::size_t{4});  // beta_1, beta_2, a_1, log gamma

    // h(pi) = integral over gamma of Gamma(gamma | shape, rate) Dir(pi | gamma / 2, gamma / 2),
    // and the same with a factor gamma, over 12 standard deviations each side of the mean.
    const int nb = 241, np = 120, ng = 6000;
    const double gMean = gammaShape / gammaRate, gSd = std::sqrt(gammaShape) / gammaRate;
    const double gLo = std::max(0.005, gMean - 12.0 * gSd), gStep = 24.0 * gSd / ng;
    std::vector<double> h(np, 0.0), hGamma(np, 0.0);
    for (int j = 0; j < np; ++j) {
        const double pi = (j + 0.5) / np;
        for (int t = 0; t < ng; ++t) {
            const double g = gLo + (t + 0.5) * gStep;
            const double w =
                std::exp((gammaShape - 1.0) * std::log(g / gMean) - gammaRate * (g - gMean) +
                         std::lgamma(g) - 2.0 * std::lgamma(0.5 * g) +
                         (0.5 * g - 1.0) * std::log(pi * (1.0 - pi)));
            h[static_cast<std::size_t>(j)] += w;
            hGamma[static_cast<std::size_t>(j)] += w * g;
        }
    }
    const double lo = -6.0, step = 12.0 / (nb - 1);
    Eigen::MatrixXd dens(nb, n);
    for (int b = 0; b < nb; ++b)
        for (Eigen::Index i = 0; i < n; ++i) {
            const double r = (y(i) - (lo + b * step)) / sigma;
            dens(b, i) = std::exp(-0.5 * r * r) / (sigma * std::sqrt(2.0 * M_PI));
        }
    double Z = 0.0, sum[4] = {0.0, 0.0, 0.0, 0.0};
    for (int b1 = 0; b1 < nb; ++b1)
        for (int b2 = 0; b2 < nb; ++b2) {
            const double x1 = lo + b1 * step, x2 = lo + b2 * step;
            const double prior = std::exp(-0.5 * (x1 * x1 + x2 * x2) / (tau * tau));
            for (int j = 0; j < np; ++j) {
                const double pi = (j + 0.5) / np;
                double ll = 0.0;
                for (Eigen::Index i = 0; i < n; ++i)
                    ll += alpha(i) * std::log(pi * dens(b1, i) + (1 - pi) * dens(b2, i));
                const double w = prior * std::exp(ll);
                const double wh = w * h[static_cast<std::size_t>(j)];
                Z += wh;
                sum[0] += wh * (pi * x1 + (1 - pi) * x2);
                sum[1] += wh * std::max(x1, x2);
                sum[2] += wh * (x1 > x2 ? pi : 1 - pi);
                sum[3] += w * hGamma[static_cast<std::size_t>(j)];
            }
        }

    Rng rng = makeRng(seed, 0, Purpose::Test);
    Eigen::VectorXd q(4);
    q << 0.0, 0.0, 0.0, std::log(gMean);
    std::vector<double> series[4];
    Eigen::MatrixXd tempered;
    if (replicas > 1) {
        const WeightedPosterior target(m, alpha);
        mcmc::SamplerOptions o;
        o.kernel = mcmc::Kernel::Gibbs;
        o.chains = 1;
        o.warmup = 0;
        o.draws = sweeps;
        o.seed = seed;
        o.tempering.replicas = replicas;
        o.tempering.hottest = hottest;
        o.tempering.adapt = false;
        o.starts.resize(1);
        o.starts[0].q = q;
        auto r = mcmc::sampleNuts(target, o);
        QVERIFY2(r.hasValue(), r ? "" : r.message().c_str());
        tempered = r->chains[0].draws;
        const auto& swaps = r->chains[0].swapAcceptance;
        QCOMPARE(swaps.size(), static_cast<std::size_t>(replicas - 1));
        for (double a : swaps) {
            qInfo("swap acceptance %.3f", a);
            QVERIFY(a > 0.05 && a < 0.98);  // swaps happen, and not always
        }
    }
    for (int it = 0; it < sweeps; ++it) {
        if (replicas > 1)
            q = tempered.row(it).transpose();
        else
            QVERIFY(m.gibbsSweep(alpha, q, rng, {}));
        const double pi1 = 1.0 / (1.0 + std::exp(-q(2)));
        series[0].push_back(pi1 * q(0) + (1 - pi1) * q(1));
        series[1].push_back(std::max(q(0), q(1)));
        series[2].push_back(q(0) > q(1) ? pi1 : 1 - pi1);  // the upper component's weight
        series[3].push_back(std::exp(q(3)));
    }
    const char* names[4] = {"mean prediction", "max beta", "upper weight", "gamma"};
    for (int s = 0; s < 4; ++s) {
        const McEstimate e = batchMeans(series[s]);
        const double want = sum[s] / Z;
        qInfo("E %s %.4f (se %.4f) vs quadrature %.4f", names[s], e.mean, e.se, want);
        // The grid's own error is well below 0.003 at this spacing.
        QVERIFY_NEAR(e.mean, want, 4.0 * e.se + 0.003);
    }
}

// detail::marginalWeights alone on K = 2 fixed normal components (means mu1, mu2, sd 1)
// against a quadrature of its target Dirichlet(pi | c) prod_i L_i^alpha_i over
// t = logit(pi_1) (density (pi_1 pi_2)^c prod_i L_i^alpha_i there): E pi_1, E log pi_1 and
// E log pi_2 (the tails, where tiny weights live) within 4 standard errors.
void checkMarginalWeights(double mu1, double mu2, double c, std::uint64_t seed) {
    const int n = 40;
    Eigen::VectorXd y(n), alpha(n);
    Eigen::ArrayXXd D(n, 2);
    for (int i = 0; i < n; ++i) {
        y(i) = -1.5 + 4.0 * i / (n - 1);
        alpha(i) = i == 7 ? 0.0 : i % 2 == 0 ? 0.2 : 0.7;
        for (int k = 0; k < 2; ++k) {
            const double r = y(i) - (k == 0 ? mu1 : mu2);
            D(i, k) = -0.5 * std::log(2.0 * M_PI) - 0.5 * r * r;
        }
    }
    double mass = 0.0, want[3] = {0.0, 0.0, 0.0};
    for (double t = -1500.0; t < 1500.0; t += 5e-3) {  // log pi_k ~ c log u: long tails
        const double lp1 = t < 0.0 ? t - std::log1p(std::exp(t)) : -std::log1p(std::exp(-t));
        const double lp2 = lp1 - t;
        double lw = c * (lp1 + lp2);
        for (int i = 0; i < n; ++i)
            lw += alpha(i) * std::log(std::exp(lp1 + D(i, 0)) + std::exp(lp2 + D(i, 1)));
        const double w = std::exp(lw);
        mass += w;
        want[0] += w * std::exp(lp1);
        want[1] += w * lp1;
        want[2] += w * lp2;
    }
    Rng rng = makeRng(seed, 0, Purpose::Test);
    Eigen::ArrayXd logPi(2);
    logPi << std::log(0.5), std::log(0.5);
    detail::MixtureCache cache(D, logPi);
    std::vector<double> series[3];
    int accepted = 0;
    const int steps = 300000;
    for (int s = 0; s < steps; ++s) {
        accepted += detail::marginalWeights(alpha, c, cache, rng) ? 1 : 0;
        const Eigen::ArrayXd& l = cache.logWeights();
        series[0].push_back(std::exp(l(0)));
        series[1].push_back(l(0));
        series[2].push_back(l(1));
    }
    const char* names[3] = {"pi_1", "log pi_1", "log pi_2"};
    qInfo("mu %.1f / %.1f, c %.2f: %d of %d accepted", mu1, mu2, c, accepted, steps);
    for (int q = 0; q < 3; ++q) {
        const McEstimate e = batchMeans(series[q]);
        qInfo("  E %s %.4f (se %.4f) vs quadrature %.4f", names[q], e.mean, e.se, want[q] / mass);
        QVERIFY_NEAR(e.mean, want[q] / mass, 4.0 * e.se);
    }
}

// detail::noncentredScales alone, labels, weights, sigmas and the standardized coefficients
// u held: K = 2, an intercept and a dummy column, against a quadrature over
// (log tau_0, log tau_1) of the extended target's conditional,
//   prod_j halfT(tau_j) tau_j  prod_{i labelled} pi_{z_i} f_{z_i}(y_i) L_i^(alpha_i - 1),
// with beta_jk = u_jk tau_j: E log tau_0, E log tau_1 and E tau_1 within 4 standard errors.
void checkNoncentredScales(const Eigen::VectorXd& alpha, std::uint64_t seed) {
    const Eigen::Index n = alpha.size(), K = 2;
    Eigen::MatrixXd X(n, 2);
    Eigen::VectorXd y(n);
    detail::Labels labels;
    for (Eigen::Index i = 0; i < n; ++i) {
        X(i, 0) = 1.0;
        X(i, 1) = i % 3 == 0 ? 1.0 : 0.0;
        y(i) = std::sin(1.7 * static_cast<double>(i)) + (i % 3 == 0 ? 1.2 : 0.0);
        labels.z.push_back(alpha(i) == 0.0 ? -1 : i < 2 * n / 3 ? 0 : 1);
    }
    labels.index(alpha, K);
    Eigen::MatrixXd u(2, K);
    u << 0.15, -0.4, 0.9, 1.3;
    const Eigen::VectorXd logSigma = Eigen::Vector2d(std::log(0.8), std::log(1.3));
    Eigen::ArrayXd logPi(2);
    logPi << std::log(0.65), std::log(0.35);
    auto densities = [&](const Eigen::MatrixXd& B) {
        Eigen::ArrayXXd D(n, K);
        for (Eigen::Index k = 0; k < K; ++k)
            D.col(k) = detail::normalLogDensities(y, X * B.col(k), logSigma(k));
        return D;
    };

    double mass = 0.0, want[3] = {0.0, 0.0, 0.0};
    for (double v0 = -16.0; v0 < 4.0; v0 += 0.025)  // mass ~ tau near 0: long left tail
        for (double v1 = -16.0; v1 < 4.0; v1 += 0.025) {
            const double t0 = std::exp(v0), t1 = std::exp(v1);
            Eigen::MatrixXd B = u;
            B.row(0) *= t0;
            B.row(1) *= t1;
            const detail::MixtureCache cache(densities(B), logPi);
            double lw = 0.0;
            for (const double t : {t0, t1}) lw += std::log(t) - 2.0 * std::log1p(t * t / 3.0);
            for (Eigen::Index i = 0; i < n; ++i) {
                const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
                if (k < 0) continue;
                lw += logPi(k) + cache.densities()(i, k) + (alpha(i) - 1.0) * cache.logLik()(i);
            }
            const double w = std::exp(lw);
            mass += w;
            want[0] += w * v0;
            want[1] += w * v1;
            want[2] += w * t1;
        }

    const detail::Design design(X);
    Eigen::VectorXd tau = Eigen::Vector2d(1.0, 1.0);
    Eigen::MatrixXd B = u;
    detail::MixtureCache cache(densities(B), logPi);
    Eigen::ArrayXd lr;
    detail::labelLogResponsibilities(labels, cache, lr);
    Rng rng = makeRng(seed, 0, Purpose::Test);
    std::vector<double> series[3];
    int moved = 0;
    const int steps = 200000;
    for (int s = 0; s < steps; ++s) {
        moved += detail::noncentredScales(design, y, alpha, labels, logSigma, 3.0, 1.0, B, tau,
                                          cache, lr, rng);
        series[0].push_back(std::log(tau(0)));
        series[1].push_back(std::log(tau(1)));
        series[2].push_back(tau(1));
    }
    // The state stays consistent: B = u tau, and the cache matches B.
    QVERIFY((B.row(1) / tau(1) - u.row(1)).norm() < 1e-9);
    QVERIFY((cache.densities() - densities(B)).abs().maxCoeff() < 1e-9);
    const char* names[3] = {"log tau_0", "log tau_1", "tau_1"};
    qInfo("%d of %d scale updates moved", moved, 2 * steps);
    for (int q = 0; q < 3; ++q) {
        const McEstimate e = batchMeans(series[q]);
        qInfo("  E %s %.4f (se %.4f) vs quadrature %.4f", names[q], e.mean, e.se, want[q] / mass);
        QVERIFY_NEAR(e.mean, want[q] / mass, 4.0 * e.se);
    }
}

}  // namespace

class TestMixtureGibbs : public QObject {
    Q_OBJECT

  private slots:
    // drawScale against its density: weighted (non-integer) counts, the prior (m = 0,
    // r2 = 0: a half-t), and a sharp conditional (many values).
    void scaleDrawsMatchTheirDensity() {
        struct Case {
            double m, r2, df, scale;
        };
        const Case cases[] = {{3.7, 2.5, 3.0, 1.0},
                              {0.0, 0.0, 3.0, 2.0},
                              {400.0, 90.0, 3.0, 1.0},
                              {0.4, 1e-4, 3.0, 1.0}};
        Rng rng = makeRng(21, 0, Purpose::Test);
        boost::random::uniform_01<double> unif;
        auto uniform = [&] {
            double u = 0.0;
            while (u <= 0.0) u = unif(rng);
            return u;
        };
        for (const Case& c : cases) {
            const int draws = 40000;
            double sumLog = 0.0, sumLog2 = 0.0, below = 0.0;
            const double median =
                std::exp(scaleExpectation(c.m, c.r2, c.df, c.scale, [](double u) { return u; }));
            for (int i = 0; i < draws; ++i) {
                const double s = detail::drawScale(c.m, c.r2, c.df, c.scale, uniform);
                sumLog += std::log(s);
                sumLog2 += std::log(s) * std::log(s);
                below += s < median ? 1.0 : 0.0;
            }
            const double mean = sumLog / draws;
            const double sd = std::sqrt(sumLog2 / draws - mean * mean);
            const double want = std::log(median);  // E log s
            const double wantP = scaleExpectation(c.m, c.r2, c.df, c.scale,
                                                  [&](double u) { return u < want ? 1.0 : 0.0; });
            qInfo("m %.1f r2 %.4g: E log s %.4f vs %.4f (sd %.3f); P(log s < E) %.4f vs %.4f", c.m,
                  c.r2, mean, want, sd, below / draws, wantP);
            QVERIFY_NEAR(mean, want, 4.0 * sd / std::sqrt(draws));
            QVERIFY_NEAR(below / draws, wantP, 4.0 * std::sqrt(0.25 / draws));
        }
        // The prior case against the half-t's own CDF: P(s < 2) = 2 F_t3(2 / 2) - 1.
        double below = 0.0;
        for (int i = 0; i < 40000; ++i)
            below += detail::drawScale(0.0, 0.0, 3.0, 2.0, uniform) < 2.0;
        const double want = 2.0 * boost::math::cdf(boost::math::students_t(3.0), 1.0) - 1.0;
        qInfo("half-t(3, 0, 2): P(s < 2) %.4f vs %.4f", below / 40000, want);
        QVERIFY_NEAR(below / 40000, want, 4.0 * std::sqrt(0.25 / 40000));
    }

    // The sweep alone (split-merge included) on a K = 2 weighted posterior (4 of 12 records at
    // alpha = 0.15), gamma free, against a quadrature. Both components nearly always hold
    // records here, so this case mostly checks the blocks; a sweep that ignored alpha (plain
    // blocked Gibbs) or dropped the Metropolis-Hastings correction would target the unweighted
    // posterior.
    void sweepMatchesQuadrature() {
        const std::vector<double> y = {-2.3, -1.6, -2.1, -1.2, 1.8, 2.4,
                                       1.1,  2.9,  2.2,  1.5,  3.1, 2.0};
        std::vector<double> alpha;
        for (double v : y) alpha.push_back(v < 0 ? 0.15 : 1.0);
        checkAgainstQuadrature(y, alpha, 20.0, 4.0, 8, 60000);
    }

    // One cluster and two weighted outliers with pi_1 ~ Uniform (gamma pinned near 2): the
    // second component is often empty, so split and merge proposals are made and accepted
    // thousands of times, and an error in their densities shows.
    void splitMergeMatchesQuadrature() {
        const std::vector<double> y = {-0.3, 0.4, 0.1, -0.8, 0.6, 0.2, -0.1, 0.9, 2.8, -2.5};
        const std::vector<double> alpha = {1, 1, 1, 1, 1, 1, 1, 1, 0.3, 0.6};
        checkAgainstQuadrature(y, alpha, 1e4, 5e3, 9, 600000);
    }

    // Parallel tempering (three replicas at t = 1, 0.35, 0.12, the swaps between neighbours)
    // on the case above: the t = 1 replica must still sample the target. A swap ratio with
    // its sign flipped or without the temperature difference lets hot states into the cold
    // replica, which widens it (the max beta and the upper weight move by many standard
    // errors).
    void temperedSweepMatchesQuadrature() {
        const std::vector<double> y = {-2.3, -1.6, -2.1, -1.2, 1.8, 2.4,
                                       1.1,  2.9,  2.2,  1.5,  3.1, 2.0};
        std::vector<double> alpha;
        for (double v : y) alpha.push_back(v < 0 ? 0.15 : 1.0);
        checkAgainstQuadrature(y, alpha, 20.0, 4.0, 18, 60000, 3, 0.12);
    }

    void swapRatio() {
        // States with likelihood parts -10 (at t = 1) and -8 (at t = 0.5): swapping puts the
        // better state where it counts twice as much: log ratio (1 - 0.5) (-8 - -10) = 1.
        QCOMPARE(mcmc::detail::Tempering::swapLogRatio(1.0, 0.5, -10.0, -8.0), 1.0);
        QCOMPARE(mcmc::detail::Tempering::swapLogRatio(1.0, 0.5, -8.0, -10.0), -1.0);
    }

    // The weights' marginal move leaves its target invariant: overlapping components (the
    // case it is for) and a component far from every record with a small Dirichlet
    // parameter (its weight lives at exp(-10) and below).
    void marginalWeightsMatchQuadrature() {
        checkMarginalWeights(0.0, 1.0, 0.6, 31);
        checkMarginalWeights(0.5, 9.0, 0.05, 32);
    }

    // The scale's conditional with beta integrated out against a brute-force integral over
    // beta (p = 2, weighted records): differences between scales agree to 1e-6.
    void scaleMarginalIntegratesBeta() {
        const Eigen::Index n = 12;
        Eigen::MatrixXd X(n, 2);
        Eigen::VectorXd y(n), alpha(n);
        std::vector<Eigen::Index> members;
        for (Eigen::Index i = 0; i < n; ++i) {
            X(i, 0) = 1.0;
            X(i, 1) = i % 3 == 0 ? 1.0 : 0.0;
            y(i) = 0.8 + 0.5 * std::cos(2.3 * static_cast<double>(i)) + 0.9 * X(i, 1);
            alpha(i) = i % 4 == 1 ? 0.4 : 1.0;
            members.push_back(i);
        }
        const detail::ComponentStats stats =
            detail::componentStats(detail::Design(X), y, alpha, members);
        const Eigen::Vector2d tau(1.5, 0.7);
        auto brute = [&](double u) {
            const double sigma = std::exp(u);
            double sum = 0.0, top = -1e300;
            std::vector<double> logs;
            for (double b0 = -6.0; b0 <= 6.0; b0 += 0.01)
                for (double b1 = -5.0; b1 <= 5.0; b1 += 0.01) {
                    double l = -0.5 * (b0 * b0 / (tau(0) * tau(0)) + b1 * b1 / (tau(1) * tau(1)));
                    for (Eigen::Index i = 0; i < n; ++i) {
                        const double r = (y(i) - b0 - b1 * X(i, 1)) / sigma;
                        l += alpha(i) * (-u - 0.5 * r * r);
                    }
                    logs.push_back(l);
                    top = std::max(top, l);
                }
            for (double l : logs) sum += std::exp(l - top);
            const double t2 = sigma * sigma / 3.0;
            return top + std::log(sum) + u - 2.0 * std::log1p(t2);  // half-t(3) on log sigma
        };
        const double u0 = -0.2;
        const double f0 = detail::logScaleMarginal(stats, tau, 3.0, 1.0, u0), b0 = brute(u0);
        for (const double u : {-0.9, -0.5, 0.4}) {
            const double f = detail::logScaleMarginal(stats, tau, 3.0, 1.0, u) - f0;
            const double want = brute(u) - b0;
            qInfo("u %.1f: %.8f vs brute force %.8f", u, f, want);
            QVERIFY_NEAR(f, want, 1e-6);
        }
    }

    // The non-centred scale move alone leaves its target invariant, unweighted (a plain
    // Gibbs step) and with fractional weights and an unlabelled record (its Metropolis-Hastings
    // ratio on the extended target).
    void noncentredScalesMatchQuadrature() {
        checkNoncentredScales(Eigen::VectorXd::Ones(24), 41);
        Eigen::VectorXd alpha(24);
        for (Eigen::Index i = 0; i < 24; ++i) alpha(i) = i == 5 ? 0.0 : i % 2 == 0 ? 0.25 : 0.8;
        checkNoncentredScales(alpha, 42);
    }

    // An annealed sweep of the weighted posterior is the model's sweep with the weights
    // partly applied, alpha + (1 - alpha)(1 - anneal); at anneal 1 it is the target's own.
    void annealedSweepUsesPartialWeights() {
        const int n = 30;
        Eigen::MatrixXd X = Eigen::MatrixXd::Ones(n, 1);
        Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(n, -2.0, 3.0);
        const auto model = mixture(X, y, 3, Priors{});
        Eigen::VectorXd alpha = Eigen::VectorXd::LinSpaced(n, 0.0, 1.0);
        const WeightedPosterior target(*model, alpha);
        for (const double anneal : {0.25, 1.0}) {
            Rng init = makeRng(5, 0, Purpose::Test);
            const Eigen::VectorXd q0 = model->initialPoint(init);
            Rng r1 = makeRng(6, 0, Purpose::Test), r2 = makeRng(6, 0, Purpose::Test);
            Eigen::VectorXd viaTarget = q0, direct = q0;
            QVERIFY(target.gibbsSweep(viaTarget, r1, {}, anneal));
            const Eigen::VectorXd partial = (1.0 - (1.0 - alpha.array()) * anneal).matrix();
            QVERIFY(asMixture(model).gibbsSweep(partial, direct, r2, {}));
            QCOMPARE(viaTarget, direct);
            QVERIFY(viaTarget != q0);
        }
    }

    // Unweighted (alpha_i 0 or 1) the sweep keeps only the densities and weights current,
    // not L and the responsibilities, since every block is accepted: the draws must be the
    // same as the general sweep's, sweep after sweep (two groups on a slope and a dummy, a
    // few records left out with weight 0, K = 5 so that components are born and emptied).
    void unweightedShortcutChangesNoDraw() {
        const int n = 120;
        Eigen::MatrixXd X(n, 3);
        Eigen::VectorXd y(n), alpha = Eigen::VectorXd::Ones(n);
        Rng data = makeRng(31, 0, Purpose::Test);
        for (int i = 0; i < n; ++i) {
            const double x = detail::uniformOpen(data) * 2.0 - 1.0;
            const bool group = i % 4 == 0;
            X.row(i) << 1.0, x, group ? 1.0 : 0.0;
            y(i) = (group ? 3.0 - 2.0 * x : 0.5 + x) + 0.3 * (detail::uniformOpen(data) - 0.5);
            if (i % 17 == 0) alpha(i) = 0.0;
        }
        const auto model = mixture(X, y, 5, Priors{});
        const NormalMixture& m = asMixture(model);
        Rng init = makeRng(32, 0, Purpose::Test);
        const Eigen::VectorXd q0 = model->initialPoint(init);
        Eigen::VectorXd fast = q0, general = q0;
        Rng r1 = makeRng(33, 0, Purpose::Test), r2 = makeRng(33, 0, Purpose::Test);
        for (int sweep = 0; sweep < 300; ++sweep) {
            detail::plainSweepShortcut = true;
            QVERIFY(m.gibbsSweep(alpha, fast, r1, {}));
            detail::plainSweepShortcut = false;
            QVERIFY(m.gibbsSweep(alpha, general, r2, {}));
            detail::plainSweepShortcut = true;
            if (fast != general) QFAIL(qPrintable(QString("sweep %1 differs").arg(sweep)));
        }
        QVERIFY((fast - q0).cwiseAbs().maxCoeff() > 0.1);
    }

    // The sweep polls its stop check between blocks (a cancel must not wait for a whole
    // sweep at large n) and, stopped, still leaves a valid state.
    void sweepPollsStopBetweenBlocks() {
        const int n = 40;
        Eigen::MatrixXd X = Eigen::MatrixXd::Ones(n, 1);
        Eigen::VectorXd y = Eigen::VectorXd::LinSpaced(n, -2.0, 2.0);
        const auto model = mixture(X, y, 4, Priors{});
        const NormalMixture& m = asMixture(model);
        Rng rng = makeRng(12, 0, Purpose::Test);
        Eigen::VectorXd q = model->initialPoint(rng);
        const Eigen::VectorXd alpha = Eigen::VectorXd::Ones(n);
        int polls = 0;
        QVERIFY(m.gibbsSweep(alpha, q, rng, [&polls] { return ++polls < 0; }));
        QVERIFY2(polls >= 3, qPrintable(QString::number(polls)));  // components, tau, weights
        polls = 0;
        const Eigen::VectorXd before = q;
        QVERIFY(m.gibbsSweep(alpha, q, rng, [&polls] { return ++polls > 0; }));
        QCOMPARE(polls, 1);  // stopped at the first check: no block ran after it
        Eigen::VectorXd grad(q.size());
        QVERIFY(std::isfinite(model->logPosterior(q, alpha, grad)));
        // tau and the weights (blocks after the first check) are untouched.
        QCOMPARE(q.tail(q.size() - 4).head(1), before.tail(q.size() - 4).head(1));
    }
};

QTEST_APPLESS_MAIN(TestMixtureGibbs)
#include "tst_mixture_gibbs.moc"
