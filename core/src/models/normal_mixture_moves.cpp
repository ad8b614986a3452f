// NormalMixture's help for NUTS: exact Metropolis moves per component and the pooled
// metric. Why: a component switches between empty (its coordinates spread over the prior,
// intercept sd ~10 on log income) and occupied by a few records (intercept pinned to
// ~0.03), and no fixed diagonal metric serves both (bench_engine curvature measured
// Hessian eigenvalues up to 2.6e6 in the adapted metric). The metric is tuned to occupied
// components and the empty ones are redrawn exactly here.
#include <algorithm>
#include <cmath>
#include <utility>

#include "models/design.hpp"
#include "models/mixture_cache.hpp"
#include "models/mixture_gibbs_parts.hpp"
#include "models/prior_terms.hpp"
#include "ppsynth/common/log_gamma.hpp"
#include "ppsynth/models/normal_mixture.hpp"

namespace ppsynth::models {
namespace {

// log(1 / (1 + exp(-s))) without overflow.
double logSigmoid(double s) {
    return s >= 0.0 ? -std::log1p(std::exp(-s)) : s - std::log1p(std::exp(s));
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

// log density of s = log(pi_k / (1 - pi_k)) when pi_k / (1 - pi_k) ~ BetaPrime(a, b):
// a s - (a + b) log(1 + e^s) - log B(a, b).
double logBetaPrimeOnLog(double s, double a, double b) {
    return a * s + (a + b) * logSigmoid(-s) - (logGamma(a) + logGamma(b) - logGamma(a + b));
}

// sum_i alpha_i r_ik, r_ik = pi_k p_k(y_i) / p(y_i): component k's weighted record count.
double weightedCount(const Eigen::VectorXd& alpha, const Eigen::ArrayXd& Dk, double logPiK,
                     const Eigen::ArrayXd& L) {
    return detail::weighted(alpha, (Dk + logPiK - L).exp()).sum();
}

}  // namespace

// Given the labels, pi_k / (1 - pi_k) would be BetaPrime(c + N_k, (K - 1) c + N - N_k) with
// N_k the (weighted) count in component k; with N_k the expected count under the current
// responsibilities that is a proposal close to the conditional, corrected exactly by
// Metropolis-Hastings (N_k' recomputed at the proposal for the reverse density).
bool NormalMixture::shareFromResponsibilities(const Eigen::VectorXd& alpha, double N,
                                              Eigen::Index k, double c, detail::MixtureCache& cache,
                                              Rng& rng) const {
    const double Kd = static_cast<double>(components());
    const auto Dk = cache.densities().col(k);
    const double logRest = cache.logRestWeight(k);
    const double s0 = cache.logWeights()(k) - logRest;
    auto shape = [&](double count) {
        const double nk = std::clamp(count, 0.0, N);
        return std::pair{c + nk, (Kd - 1.0) * c + N - nk};
    };
    const auto [a0, b0] = shape(weightedCount(alpha, Dk, cache.logWeights()(k), cache.logLik()));
    const double s1 = detail::logGammaVariate(a0, rng) - detail::logGammaVariate(b0, rng);
    if (!std::isfinite(s1)) return false;
    const double logPiK = logSigmoid(s1);
    const double shift = logSigmoid(-s1) - logRest;
    Eigen::ArrayXd L;
    detail::MixtureCache::candidate(cache.focusedRest(), shift, Dk, logPiK, L);
    const auto [a1, b1] = shape(weightedCount(alpha, Dk, logPiK, L));
    // Target: prior of s (BetaPrime(c, (K - 1) c) on log) times the likelihood.
    const double logRatio = detail::weightedLogRatio(alpha, L, cache.logLik()) +
                            logBetaPrimeOnLog(s1, c, (Kd - 1.0) * c) -
                            logBetaPrimeOnLog(s0, c, (Kd - 1.0) * c) +
                            logBetaPrimeOnLog(s0, a1, b1) - logBetaPrimeOnLog(s1, a0, b0);
    if (!detail::acceptLog(logRatio, rng)) return false;
    cache.setWeight(k, logPiK, shift, L);
    return true;
}

void NormalMixture::holdFixed(const Eigen::VectorXd& q, Eigen::VectorXd& movable) const {
    const Eigen::Index K = components();
    if (tauIntegrated() || K < 2) return;
    movable.segment(simplexOffset(), K - 1).setZero();
    const Eigen::VectorXd logPi = logWeights(q);
    const double limit = std::log(kHeldBelowRecords / static_cast<double>(y_.size()));
    for (Eigen::Index k = 0; k < K; ++k) {
        if (logPi(k) >= limit) continue;
        movable.segment(k * p(), p()).setZero();
        if (!priors_.fixedSigma) movable(sigmaOffset() + k) = 0.0;
    }
}

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
    for (Eigen::Index k = 0; k < K; ++k)
        D.col(k) = detail::normalLogDensities(y_, means.col(k), ls(k));
    detail::MixtureCache cache(std::move(D), logWeights(q).array());

    const double Kd = static_cast<double>(K);
    const double c = std::exp(q(gammaOffset())) / Kd;
    const double N = alpha.sum();  // weighted record count
    const Eigen::Index p = this->p();
    bool moved = false;
    Eigen::ArrayXd L, Dk;
    Eigen::VectorXd meanK;
    for (Eigen::Index k = 0; k < K; ++k) {
        cache.focus(k);
        const Eigen::ArrayXd& rest = cache.focusedRest();

        // (1) Coefficients and sigma of component k from their prior.
        (void)drawCoefficientColumn(k, rng, next);
        double logSigma = ls(k);
        if (!priors_.fixedSigma)
            logSigma = detail::logHalfTVariate(priors_.sigmaDf, priors_.sigmaScale, rng);
        if (std::isfinite(logSigma)) {
            X_->times(coefficients(next).col(k), meanK);
            Dk = detail::normalLogDensities(y_, meanK, logSigma);
            detail::MixtureCache::candidate(rest, 0.0, Dk, cache.logWeights()(k), L);
            if (detail::acceptLog(detail::weightedLogRatio(alpha, L, cache.logLik()), rng)) {
                cache.setComponent(k, Dk, L);
                q.segment(k * p, p) = next.segment(k * p, p);
                if (!priors_.fixedSigma) q(sigmaOffset() + k) = logSigma;
                moved = true;
            }
        }
        next.segment(k * p, p) = q.segment(k * p, p);

        // (2) Component k's share of the weights, from its Dirichlet conditional (prior)
        // and from the conditional given the weighted responsibilities (data).
        if (K < 2) continue;
        const double s =
            detail::logGammaVariate(c, rng) - detail::logGammaVariate((Kd - 1.0) * c, rng);
        if (std::isfinite(s)) {
            const double logPiK = logSigmoid(s);
            const double shift = logSigmoid(-s) - cache.logRestWeight(k);
            detail::MixtureCache::candidate(rest, shift, cache.densities().col(k), logPiK, L);
            if (detail::acceptLog(detail::weightedLogRatio(alpha, L, cache.logLik()), rng)) {
                cache.setWeight(k, logPiK, shift, L);
                moved = true;
            }
        }
        moved |= shareFromResponsibilities(alpha, N, k, c, cache, rng);
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
