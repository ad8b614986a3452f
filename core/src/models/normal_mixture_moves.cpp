// NormalMixture's help for NUTS: exact Metropolis moves per component and the pooled
// metric. Why: a component switches between empty (its coordinates spread over the prior,
// intercept sd ~10 on log income) and occupied by a few records (intercept pinned to
// ~0.03), and no fixed diagonal metric serves both (bench_engine curvature measured
// Hessian eigenvalues up to 2.6e6 in the adapted metric). The metric is tuned to occupied
// components and the empty ones are redrawn exactly here.
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>

#include "models/design.hpp"
#include "models/mixture_cache.hpp"
#include "models/prior_terms.hpp"
#include "ppsynth/models/normal_mixture.hpp"

namespace ppsynth::models {
namespace {

// log of a Gamma(shape, 1) draw. For shape < 1 (gamma / K is ~0.05) the draw itself
// underflows to 0 often, so it is taken as Gamma(shape + 1) U^(1 / shape) in logs.
double logGammaDraw(double shape, Rng& rng) {
    if (shape >= 1.0) return std::log(boost::random::gamma_distribution<double>(shape)(rng));
    boost::random::uniform_01<double> unif;
    double u = 0.0;
    while (u <= 0.0) u = unif(rng);
    return std::log(boost::random::gamma_distribution<double>(shape + 1.0)(rng)) +
           std::log(u) / shape;
}

// log(1 / (1 + exp(-s))) without overflow.
double logSigmoid(double s) {
    return s >= 0.0 ? -std::log1p(std::exp(-s)) : s - std::log1p(std::exp(s));
}

// log Normal(y_i | mean_i, exp(logSigma)) for every record.
Eigen::ArrayXd normalLogDensities(const Eigen::VectorXd& y, const Eigen::VectorXd& mean,
                                  double logSigma) {
    const double inv = std::exp(-logSigma);
    return -detail::kLogSqrt2Pi - logSigma - 0.5 * ((y - mean).array() * inv).square();
}

// Accept with probability min(1, exp(logRatio)).
bool accept(double logRatio, Rng& rng) {
    if (!(logRatio > -std::numeric_limits<double>::infinity())) return false;
    if (logRatio >= 0.0) return true;
    return std::log(boost::random::uniform_01<double>()(rng)) < logRatio;
}

// exp(sum_k w_k log v_k / sum_k w_k) over the positive, finite v_k; 0 when there are none.
double weightedGeometricMean(const Eigen::ArrayXd& v, const Eigen::ArrayXd& w) {
    double sum = 0.0, total = 0.0;
    for (Eigen::Index k = 0; k < v.size(); ++k)
        if (v(k) > 0.0 && std::isfinite(v(k)) && w(k) > 0.0) {
            sum += w(k) * std::log(v(k));
            total += w(k);
        }
    return total > 0.0 ? std::exp(sum / total) : 0.0;
}

}  // namespace

// Both moves propose from the conditional prior of what they change (given tau, gamma and
// the other components), so prior and proposal cancel and the Metropolis ratio is the
// weighted likelihood ratio prod_i (p'(y_i) / p(y_i))^alpha_i. On q's coordinates the
// proposal density is the prior's with its Jacobian, as in logPosterior, so it is exact
// there too. (1) (beta_k, sigma_k): Q's column k and log sigma_k. (2) The weights: with
// pi ~ Dirichlet(c, ..., c), pi_k / (1 - pi_k) = G_1 / G_2 with G_1 ~ Gamma(c),
// G_2 ~ Gamma((K - 1) c) independently of the other weights' proportions (Dirichlet
// aggregation), so it is redrawn and the others rescaled by (1 - pi_k') / (1 - pi_k).
bool NormalMixture::exactMove(const Eigen::VectorXd& alpha, Eigen::VectorXd& q, Rng& rng) const {
    const Eigen::Index K = components();
    if (tauIntegrated()) return false;
    Eigen::VectorXd next = q;

    const Eigen::MatrixXd B = coefficients(q);
    const Eigen::VectorXd ls = logSigmas(q);
    Eigen::MatrixXd means;
    X_->times(B, means);
    Eigen::ArrayXXd D(y_.size(), K);
    for (Eigen::Index k = 0; k < K; ++k) D.col(k) = normalLogDensities(y_, means.col(k), ls(k));
    detail::MixtureCache cache(std::move(D), logWeights(q).array());

    const double c = std::exp(q(gammaOffset())) / static_cast<double>(K);
    const Eigen::Index p = this->p();
    bool moved = false;
    Eigen::ArrayXd rest, L, Dk;
    Eigen::VectorXd meanK;
    for (Eigen::Index k = 0; k < K; ++k) {
        cache.rest(k, rest);

        // (1) Coefficients and sigma of component k from their prior.
        (void)drawCoefficientColumn(k, rng, next);
        double logSigma = ls(k);
        if (!priors_.fixedSigma) {
            const double t = boost::random::student_t_distribution<double>(priors_.sigmaDf)(rng);
            logSigma = std::log(priors_.sigmaScale * std::abs(t));
        }
        if (std::isfinite(logSigma)) {
            X_->times(coefficients(next).col(k), meanK);
            Dk = normalLogDensities(y_, meanK, logSigma);
            detail::MixtureCache::candidate(rest, 0.0, Dk, cache.logWeights()(k), L);
            if (accept(detail::weightedLogRatio(alpha, L, cache.logLik()), rng)) {
                cache.setComponent(k, Dk, L);
                q.segment(k * p, p) = next.segment(k * p, p);
                if (!priors_.fixedSigma) q(sigmaOffset() + k) = logSigma;
                moved = true;
            }
        }
        next.segment(k * p, p) = q.segment(k * p, p);

        // (2) Component k's share of the weights from its Dirichlet conditional.
        if (K < 2) continue;
        const double s =
            logGammaDraw(c, rng) - logGammaDraw((static_cast<double>(K) - 1.0) * c, rng);
        if (!std::isfinite(s)) continue;
        const double logPiK = logSigmoid(s);
        const double shift = logSigmoid(-s) - cache.logRestWeight(k);
        detail::MixtureCache::candidate(rest, shift, cache.densities().col(k), logPiK, L);
        if (accept(detail::weightedLogRatio(alpha, L, cache.logLik()), rng)) {
            cache.setWeight(k, logPiK, shift, L);
            moved = true;
        }
    }
    // Back to the additive log-ratio coordinates (a_j = log pi_j - log pi_K).
    const Eigen::ArrayXd& logPi = cache.logWeights();
    for (Eigen::Index j = 0; j + 1 < K; ++j) q(simplexOffset() + j) = logPi(j) - logPi(K - 1);
    return moved;
}

void NormalMixture::poolMetric(const Eigen::VectorXd& windowMean, Eigen::VectorXd& variance) const {
    const Eigen::Index K = components();
    if (K < 2) return;
    const Eigen::ArrayXd w = logWeights(windowMean).array().exp();
    const Eigen::Index p = this->p();
    Eigen::ArrayXd v(K);
    for (Eigen::Index j = 0; j < p; ++j) {
        for (Eigen::Index k = 0; k < K; ++k) v(k) = variance(k * p + j);
        const double g = weightedGeometricMean(v, w);
        if (g > 0.0)
            for (Eigen::Index k = 0; k < K; ++k) variance(k * p + j) = g;
    }
    if (!priors_.fixedSigma) {
        const double g = weightedGeometricMean(variance.segment(sigmaOffset(), K).array(), w);
        if (g > 0.0) variance.segment(sigmaOffset(), K).setConstant(g);
    }
    const double g =
        weightedGeometricMean(variance.segment(simplexOffset(), K - 1).array(), w.head(K - 1));
    if (g > 0.0) variance.segment(simplexOffset(), K - 1).setConstant(g);
}

}  // namespace ppsynth::models
