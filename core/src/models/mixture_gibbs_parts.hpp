// Pieces the normal mixture's Gibbs sampler shares between its sweep
// (normal_mixture_gibbs.cpp) and its split-merge move (normal_mixture_split_merge.cpp):
// random variates, the labels and what they imply, and each component's proposal under the
// weighted complete-data density. Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <vector>

#include "models/mixture_cache.hpp"
#include "ppsynth/common/rng.hpp"

namespace ppsynth::models::detail {

class Design;

double uniformOpen(Rng& rng);  // in (0, 1)
// log of a Gamma(shape, 1) draw, stable for small shapes (Gamma(shape + 1) U^(1 / shape)).
double logGammaVariate(double shape, Rng& rng);
// log pi for pi ~ Dirichlet(shape), from log-Gamma draws normalized in logs (tiny shapes give
// weights far below the smallest double, which stay finite in logs).
Eigen::ArrayXd logDirichletVariate(const Eigen::ArrayXd& shape, Rng& rng);
// Accept with probability min(1, exp(logRatio)); never for -inf or NaN.
bool acceptLog(double logRatio, Rng& rng);
// The unweighted sweep's shortcut (every alpha_i 0 or 1: every block is accepted, so only the
// weights are kept current, not the densities, L and the responsibilities). On; tests turn it
// off to show that it changes no draw.
inline bool plainSweepShortcut = true;
// Whether the sweep takes that shortcut for these weights.
inline bool plainSweep(const Eigen::VectorXd& alpha) {
    return plainSweepShortcut && !((alpha.array() > 0.0) && (alpha.array() < 1.0)).any();
}
// log s for s ~ half-Student-t(df, 0, scale): a component's sigma from its prior.
double logHalfTVariate(double df, double scale, Rng& rng);
// beta ~ Normal(0, diag tau^2): a component's coefficients from their prior.
Eigen::VectorXd priorCoefficients(const Eigen::VectorXd& tau, Rng& rng);
// log Normal(y_i | mean_i, exp(logSigma)) for every record.
Eigen::ArrayXd normalLogDensities(const Eigen::VectorXd& y, const Eigen::VectorXd& mean,
                                  double logSigma);
// log Beta(u | a, b) given log u and log(1 - u).
double logBetaDensity(double logU, double log1mU, double a, double b);

// One slice-sampling update (stepping out with at most 64 steps split at random between the
// two sides, then shrinkage; Neal 2003, fig. 3 and 5) of a scalar with log density f: leaves
// f's distribution invariant.
template <typename F>
double sliceStep(double x, double width, const F& f, Rng& rng) {
    constexpr int kSteps = 64;
    const double level = f(x) + std::log(uniformOpen(rng));
    double lo = x - width * uniformOpen(rng), hi = lo + width;
    int left = static_cast<int>(kSteps * uniformOpen(rng)), right = kSteps - 1 - left;
    for (; left > 0 && f(lo) > level; --left) lo -= width;
    for (; right > 0 && f(hi) > level; --right) hi += width;
    for (int i = 0; i < 200; ++i) {
        const double next = lo + (hi - lo) * uniformOpen(rng);
        if (f(next) > level) return next;
        (next < x ? lo : hi) = next;
    }
    return x;
}

// Labels z_i (-1 for records with alpha_i = 0, which are not in the target) and what the
// blocks need from them.
struct Labels {
    std::vector<Eigen::Index> z;
    std::vector<std::vector<Eigen::Index>> members;
    Eigen::ArrayXd count;  // weighted: sum of alpha over the members

    bool occupied(Eigen::Index k) const { return !members[static_cast<std::size_t>(k)].empty(); }
    // Rebuilds members and count from z.
    void index(const Eigen::VectorXd& alpha, Eigen::Index K);
};
// z_i ~ Categorical(r_i.) for every record with alpha_i != 0.
Labels drawLabels(const Eigen::VectorXd& alpha, const MixtureCache& cache, Rng& rng);
// log r_{i z_i} for every labelled record (0 for the others).
void labelLogResponsibilities(const Labels& labels, const MixtureCache& cache, Eigen::ArrayXd& out);

// The sweep's state as its split-merge move sees it (constrained scale; references to the
// sweep's own variables, which an accepted move updates).
struct SplitMergeState {
    Eigen::MatrixXd& B;         // p x K coefficients
    Eigen::VectorXd& logSigma;  // K
    const Eigen::VectorXd& tau;
    double c;  // the Dirichlet parameter gamma / K
    MixtureCache& cache;
    Labels& labels;
    // The sweep's shortcut (every alpha_i 0 or 1): the caches hold no L and the extended
    // target is summed without it.
    bool plain = false;
};

// One Metropolis-Hastings update of the weights on the theta-marginal (labels integrated
// out, so only between sweeps, where the labels are redrawn anyway): target Dirichlet(pi | c)
// prod_i L_i^alpha_i, proposal Dirichlet(c + sum_i alpha_i r_ik) at the current weights (the
// weights' fixed point given the components), its reverse density in the ratio. Why: the
// complete-data step proposes from counts weighted by alpha, as wide as the target only where
// labels are clear; where components overlap it is far too wide (0 of 600 accepted at
// alpha = 0.2 on income_survey). True when accepted.
bool marginalWeights(const Eigen::VectorXd& alpha, double c, MixtureCache& cache, Rng& rng);

// The coefficient scales tau once more, each from its non-centred conditional: with the
// standardized coefficients u_kj = beta_kj / tau_j held (every component's), tau_j given the
// labelled records' weighted complete-data likelihood is prior(tau_j) times a Gaussian in
// tau_j, drawn by one slice-sampling update of log tau_j and accepted with the sweep's
// extended-target ratio prod_i (r'_{i z_i} / r_{i z_i})^(1 - alpha_i) (1 for alpha = 1).
// Why: the sweep's centred draw of tau_j given the occupied components' beta_.j mixes
// slowly where those coefficients are barely determined by data (a small component and a
// rare dummy: the funnel), and alternating both forms (interweaving; Yu and Meng 2011) mixes
// well in either regime. On income_survey (K = 20) the slowest tau_j had an integrated
// autocorrelation time of 249 sweeps and log tau explained 38% of the total
// log-likelihood's variance. Updates B, tau, the cache and lr (log r_{i z_i}) in place;
// returns how many scales moved. keepCache = false (unweighted only, where every draw is
// accepted) leaves the cache and lr as they were, stale: for a caller that reads neither
// afterwards.
int noncentredScales(const Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                     const Labels& labels, const Eigen::VectorXd& logSigma, double tauDf,
                     double tauScale, Eigen::MatrixXd& B, Eigen::VectorXd& tau, MixtureCache& cache,
                     Eigen::ArrayXd& lr, Rng& rng, bool keepCache = true);

// A component's sufficient statistics over a set of records (A = diag(alpha)).
struct ComponentStats {
    Eigen::MatrixXd XtAX;
    Eigen::VectorXd XtAy;
    double count = 0.0;  // sum of alpha
    double yAy = 0.0;    // sum of alpha y^2
};
ComponentStats componentStats(const Design& X, const Eigen::VectorXd& y,
                              const Eigen::VectorXd& alpha,
                              const std::vector<Eigen::Index>& members);
// sum over the members of alpha_i (y_i - x_i' beta)^2.
double residualSquares(const Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                       const std::vector<Eigen::Index>& members, const Eigen::VectorXd& beta);

// log g(sigma | records, tau) on u = log sigma with beta integrated out, up to a constant:
// the half-t(df, 0, scale) prior (Jacobian included) times
//   integral Normal(beta | 0, diag tau^2) prod_i Normal(y_i | x_i' beta, sigma)^alpha_i dbeta
//   ~ sigma^-count |P|^-1/2 exp((h' P^-1 h - y'Ay / sigma^2) / 2),
// P = X'AX / sigma^2 + diag(1 / tau^2), h = X'Ay / sigma^2. -inf where P is not positive
// definite. A scale drawn from this and then beta given it is a joint draw of (beta, sigma):
// no coupling between them left for the sweep to cross.
double logScaleMarginal(const ComponentStats& s, const Eigen::VectorXd& tau, double df,
                        double scale, double u);

// beta given sigma under the weighted complete-data density: Normal with precision
// X'AX / sigma^2 + diag(1 / tau^2) and mean precision^-1 X'Ay / sigma^2.
class CoefficientConditional {
  public:
    CoefficientConditional(const ComponentStats& s, double logSigma, const Eigen::VectorXd& tau);
    bool ok() const { return ok_; }
    Eigen::VectorXd draw(Rng& rng) const;
    double logDensity(const Eigen::VectorXd& beta) const;

  private:
    Eigen::MatrixXd U_;  // upper Cholesky factor of the precision
    Eigen::VectorXd mean_;
    double logDetHalf_ = 0.0;  // log det(U)
    bool ok_ = false;
};

}  // namespace ppsynth::models::detail
