// NormalMixture's augmented Gibbs sweep: the blocked Gibbs sampler of a truncated Dirichlet
// process mixture (Ishwaran and James 2001), made exact for the weighted pseudo posterior
//   pi(theta) = prior(theta) prod_i L_i(theta)^alpha_i,  L_i = sum_k pi_k f_k(y_i),
// where labels cannot be augmented directly (L_i^alpha_i is no marginal of anything simple).
// Extend the target with labels drawn from the responsibilities,
//   pi(theta, z) = pi(theta) prod_i r_{i z_i}(theta),  r_ik = pi_k f_k(y_i) / L_i,
// whose theta-marginal is pi(theta) whatever z's conditional is. Given z, propose a block of
// theta from its conditional under the weighted complete-data density
//   g(theta | z) = prior(theta) prod_i (pi_{z_i} f_{z_i}(y_i))^alpha_i
// (conjugate or nearly so: a normal for beta_k, a Dirichlet for pi, a log-concave scale for
// sigma_k and tau_j). The Metropolis-Hastings ratio on the extended target is then
//   prod_i (r_{i z_i}(theta') / r_{i z_i}(theta))^(1 - alpha_i),
// which is 1 for the unweighted fit (plain blocked Gibbs) and close to 1 where the weights
// are near 1 or the labels are clear. Records with alpha_i = 0 are not in the target and
// get no label.
#include <Eigen/Cholesky>
#include <algorithm>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/student_t_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>
#include <vector>

#include "models/design.hpp"
#include "models/mixture_cache.hpp"
#include "models/prior_terms.hpp"
#include "models/scale_draw.hpp"
#include "ppsynth/models/normal_mixture.hpp"

namespace ppsynth::models {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double uniformOpen(Rng& rng) {
    boost::random::uniform_01<double> unif;
    double u = 0.0;
    while (u <= 0.0) u = unif(rng);
    return u;
}

// log of a Gamma(shape, 1) draw, stable for small shapes (Gamma(shape + 1) U^(1 / shape)).
double logGammaVariate(double shape, Rng& rng) {
    if (shape >= 1.0) return std::log(boost::random::gamma_distribution<double>(shape)(rng));
    return std::log(boost::random::gamma_distribution<double>(shape + 1.0)(rng)) +
           std::log(uniformOpen(rng)) / shape;
}

Eigen::ArrayXd normalLogDensities(const Eigen::VectorXd& y, const Eigen::VectorXd& mean,
                                  double logSigma) {
    const double inv = std::exp(-logSigma);
    return -detail::kLogSqrt2Pi - logSigma - 0.5 * ((y - mean).array() * inv).square();
}

bool accept(double logRatio, Rng& rng) {
    if (!(logRatio > kNegInf)) return false;
    return logRatio >= 0.0 || std::log(uniformOpen(rng)) < logRatio;
}

// One slice-sampling update (stepping out, then shrinkage; Neal 2003) of a scalar with log
// density f: leaves f's distribution invariant.
template <typename F>
double sliceStep(double x, double width, const F& f, Rng& rng) {
    const double level = f(x) + std::log(uniformOpen(rng));
    double lo = x - width * uniformOpen(rng), hi = lo + width;
    for (int i = 0; i < 32 && f(lo) > level; ++i) lo -= width;
    for (int i = 0; i < 32 && f(hi) > level; ++i) hi += width;
    for (int i = 0; i < 200; ++i) {
        const double next = lo + (hi - lo) * uniformOpen(rng);
        if (f(next) > level) return next;
        (next < x ? lo : hi) = next;
    }
    return x;
}

// The labels and what the blocks need from them.
struct Labels {
    std::vector<Eigen::Index> z;  // -1 for records with alpha_i = 0
    std::vector<std::vector<Eigen::Index>> members;
    Eigen::ArrayXd count;  // weighted: sum of alpha over the members

    bool occupied(Eigen::Index k) const { return !members[static_cast<std::size_t>(k)].empty(); }
};

// z_i ~ Categorical(r_i.) for every record with alpha_i != 0.
Labels drawLabels(const Eigen::VectorXd& alpha, const detail::MixtureCache& cache, Rng& rng) {
    const Eigen::ArrayXXd& D = cache.densities();
    const Eigen::ArrayXd& logPi = cache.logWeights();
    const Eigen::ArrayXd& L = cache.logLik();
    const Eigen::Index n = D.rows(), K = D.cols();
    Labels out;
    out.z.assign(static_cast<std::size_t>(n), -1);
    out.members.resize(static_cast<std::size_t>(K));
    out.count = Eigen::ArrayXd::Zero(K);
    boost::random::uniform_01<double> unif;
    for (Eigen::Index i = 0; i < n; ++i) {
        if (alpha(i) == 0.0) continue;
        double u = unif(rng);
        Eigen::Index k = 0;
        for (; k + 1 < K; ++k) {
            u -= std::exp(logPi(k) + D(i, k) - L(i));
            if (u < 0.0) break;
        }
        out.z[static_cast<std::size_t>(i)] = k;
        out.members[static_cast<std::size_t>(k)].push_back(i);
        out.count(k) += alpha(i);
    }
    return out;
}

// log r_{i z_i} for every labelled record (0 for the others).
void labelLogResponsibilities(const Labels& labels, const detail::MixtureCache& cache,
                              Eigen::ArrayXd& out) {
    const Eigen::Index n = cache.densities().rows();
    out.setZero(n);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
        if (k >= 0) out(i) = cache.logWeights()(k) + cache.densities()(i, k) - cache.logLik()(i);
    }
}

// sum_i (1 - alpha_i) (next_i - current_i) over labelled records; -inf when a labelled
// record's next value is not finite.
double augmentedLogRatio(const Labels& labels, const Eigen::VectorXd& alpha,
                         const Eigen::ArrayXd& next, const Eigen::ArrayXd& current) {
    double sum = 0.0;
    for (Eigen::Index i = 0; i < next.size(); ++i) {
        if (labels.z[static_cast<std::size_t>(i)] < 0) continue;
        if (!std::isfinite(next(i))) return kNegInf;
        sum += (1.0 - alpha(i)) * (next(i) - current(i));
    }
    return sum;
}

// X_k' A X_k and X_k' A y over component k's members (A = diag(alpha)).
void weightedCrossProducts(const detail::Design& X, const Eigen::VectorXd& y,
                           const Eigen::VectorXd& alpha, const std::vector<Eigen::Index>& members,
                           Eigen::MatrixXd& XtAX, Eigen::VectorXd& XtAy) {
    const Eigen::Index p = X.cols();
    XtAX.setZero(p, p);
    XtAy.setZero(p);
    if (X.isSparse()) {
        const int* start = X.rowStart();
        const int* col = X.columnIndex();
        const double* value = X.value();
        for (Eigen::Index i : members) {
            const double a = alpha(i);
            for (int e = start[i]; e < start[i + 1]; ++e) {
                const double av = a * value[e];
                XtAy(col[e]) += av * y(i);
                for (int f = start[i]; f < start[i + 1]; ++f) XtAX(col[e], col[f]) += av * value[f];
            }
        }
        return;
    }
    for (Eigen::Index i : members) {
        const auto row = X.dense().row(i);
        XtAX.noalias() += alpha(i) * row.transpose() * row;
        XtAy += (alpha(i) * y(i)) * row.transpose();
    }
}

}  // namespace

bool NormalMixture::gibbsSweep(const Eigen::VectorXd& alpha, Eigen::VectorXd& q, Rng& rng) const {
    if (tauIntegrated()) return false;
    const Eigen::Index K = components(), p = this->p(), n = y_.size();
    const Eigen::Index nb = p * K;
    Eigen::MatrixXd B = coefficients(q);
    Eigen::VectorXd ls = logSigmas(q);
    Eigen::VectorXd tau(p);
    for (Eigen::Index j = 0; j < p; ++j)
        tau(j) = priors_.fixedTau ? *priors_.fixedTau : std::exp(q(nb + j));

    Eigen::MatrixXd means;
    X_->times(B, means);
    Eigen::ArrayXXd D(n, K);
    for (Eigen::Index k = 0; k < K; ++k) D.col(k) = normalLogDensities(y_, means.col(k), ls(k));
    detail::MixtureCache cache(std::move(D), logWeights(q).array());

    const Labels labels = drawLabels(alpha, cache, rng);
    Eigen::ArrayXd lr, lrNext, L;
    labelLogResponsibilities(labels, cache, lr);
    bool moved = false;
    boost::random::normal_distribution<double> normal(0.0, 1.0);
    auto uniform = [&rng] { return uniformOpen(rng); };

    // Proposal for component k (its log densities Dk): accept on the extended target.
    auto tryComponent = [&](Eigen::Index k, const Eigen::ArrayXd& Dk) {
        detail::MixtureCache::candidate(cache.focusedRest(), 0.0, Dk, cache.logWeights()(k), L);
        lrNext = lr;
        for (Eigen::Index i = 0; i < n; ++i) {
            const Eigen::Index zi = labels.z[static_cast<std::size_t>(i)];
            if (zi < 0) continue;
            lrNext(i) =
                cache.logWeights()(zi) + (zi == k ? Dk(i) : cache.densities()(i, zi)) - L(i);
        }
        if (!accept(augmentedLogRatio(labels, alpha, lrNext, lr), rng)) return false;
        cache.setComponent(k, Dk, L);
        lr.swap(lrNext);
        return true;
    };

    // (a, b) Occupied components: beta_k given sigma_k (normal), then sigma_k given beta_k.
    Eigen::MatrixXd XtAX, prec;
    Eigen::VectorXd XtAy, beta(p), meanK;
    for (Eigen::Index k = 0; k < K; ++k) {
        if (!labels.occupied(k)) continue;
        cache.focus(k);
        weightedCrossProducts(*X_, y_, alpha, labels.members[static_cast<std::size_t>(k)], XtAX,
                              XtAy);
        const double invVar = std::exp(-2.0 * ls(k));
        prec = XtAX * invVar;
        prec.diagonal() += tau.array().square().inverse().matrix();
        const Eigen::LLT<Eigen::MatrixXd> llt(prec);
        if (llt.info() == Eigen::Success) {
            for (Eigen::Index j = 0; j < p; ++j) beta(j) = normal(rng);
            beta = llt.solve(XtAy * invVar) + llt.matrixU().solve(beta);
            X_->times(beta, meanK);
            if (tryComponent(k, normalLogDensities(y_, meanK, ls(k)))) {
                B.col(k) = beta;
                moved = true;
            }
        }
        if (priors_.fixedSigma) continue;
        X_->times(B.col(k), meanK);
        double ss = 0.0;
        for (Eigen::Index i : labels.members[static_cast<std::size_t>(k)])
            ss += alpha(i) * (y_(i) - meanK(i)) * (y_(i) - meanK(i));
        const double logSigma = std::log(
            detail::drawScale(labels.count(k), ss, priors_.sigmaDf, priors_.sigmaScale, uniform));
        if (std::isfinite(logSigma) && tryComponent(k, normalLogDensities(y_, meanK, logSigma))) {
            ls(k) = logSigma;
            moved = true;
        }
    }

    // (d) tau given the occupied components' coefficients, with the empty components (all
    // of whose coordinates the complete-data density leaves to the prior) redrawn given it.
    {
        Eigen::VectorXd tauNext = tau;
        const double occupied =
            static_cast<double>(std::count_if(labels.members.begin(), labels.members.end(),
                                              [](const auto& m) { return !m.empty(); }));
        if (!priors_.fixedTau)
            for (Eigen::Index j = 0; j < p; ++j) {
                double r2 = 0.0;
                for (Eigen::Index k = 0; k < K; ++k)
                    if (labels.occupied(k)) r2 += B(j, k) * B(j, k);
                tauNext(j) =
                    detail::drawScale(occupied, r2, priors_.tauDf, priors_.tauScale, uniform);
            }
        Eigen::MatrixXd Bnext = B;
        Eigen::VectorXd lsNext = ls;
        Eigen::ArrayXXd Dnext = cache.densities();
        for (Eigen::Index k = 0; k < K; ++k) {
            if (labels.occupied(k)) continue;
            for (Eigen::Index j = 0; j < p; ++j) Bnext(j, k) = tauNext(j) * normal(rng);
            if (!priors_.fixedSigma) {
                const double t =
                    boost::random::student_t_distribution<double>(priors_.sigmaDf)(rng);
                lsNext(k) = std::log(priors_.sigmaScale * std::abs(t));
            }
            X_->times(Bnext.col(k), meanK);
            Dnext.col(k) = normalLogDensities(y_, meanK, lsNext(k));
        }
        detail::MixtureCache next(std::move(Dnext), cache.logWeights());
        labelLogResponsibilities(labels, next, lrNext);
        if (lsNext.allFinite() && accept(augmentedLogRatio(labels, alpha, lrNext, lr), rng)) {
            cache = std::move(next);
            lr.swap(lrNext);
            B = Bnext;
            ls = lsNext;
            tau = tauNext;
            moved = true;
        }
    }

    // (c) The weights given the labels: Dirichlet(c + N_k), N_k the weighted counts.
    const double Kd = static_cast<double>(K);
    double g = q(gammaOffset());
    if (K > 1) {
        const double c = std::exp(g) / Kd;
        Eigen::ArrayXd logPi(K);
        for (Eigen::Index k = 0; k < K; ++k) logPi(k) = logGammaVariate(c + labels.count(k), rng);
        const double m = logPi.maxCoeff();
        logPi -= m + std::log((logPi - m).exp().sum());
        if (logPi.allFinite()) {
            detail::MixtureCache next(cache.densities(), logPi);
            labelLogResponsibilities(labels, next, lrNext);
            if (accept(augmentedLogRatio(labels, alpha, lrNext, lr), rng)) {
                cache = std::move(next);
                lr.swap(lrNext);
                moved = true;
            }
        }

        // (e) gamma given pi (not in the likelihood): one slice-sampling update of log gamma.
        const double sumLogPi = cache.logWeights().sum();
        auto logDensity = [&](double x) {
            const double gamma = std::exp(x);
            if (!std::isfinite(gamma) || gamma <= 0.0) return kNegInf;
            return detail::logGammaOnLog(x, priors_.gammaShape, priors_.gammaRate).value +
                   std::lgamma(gamma) - Kd * std::lgamma(gamma / Kd) + gamma / Kd * sumLogPi;
        };
        const double next = sliceStep(g, 1.0, logDensity, rng);
        moved |= next != g;
        g = next;
    }

    // Back to q: beta (z = beta / tau on non-centred rows), log tau, log sigma, a, log gamma.
    for (Eigen::Index k = 0; k < K; ++k)
        for (Eigen::Index j = 0; j < p; ++j)
            q(k * p + j) = nonCentred(j) ? B(j, k) / tau(j) : B(j, k);
    if (!priors_.fixedTau) q.segment(nb, p) = tau.array().log().matrix();
    if (!priors_.fixedSigma) q.segment(sigmaOffset(), K) = ls;
    const Eigen::ArrayXd& logPi = cache.logWeights();
    for (Eigen::Index j = 0; j + 1 < K; ++j) q(simplexOffset() + j) = logPi(j) - logPi(K - 1);
    q(gammaOffset()) = g;
    return moved;
}

}  // namespace ppsynth::models
