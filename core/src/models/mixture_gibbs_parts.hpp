// Pieces the normal mixture's Gibbs sampler shares between its sweep
// (normal_mixture_gibbs.cpp) and its split-merge move (normal_mixture_split_merge.cpp):
// random variates, the labels and what they imply, and each component's proposal under the
// weighted complete-data density. Private to core/src/models.
#pragma once

#include <Eigen/Core>
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
// log s for s ~ half-Student-t(df, 0, scale): a component's sigma from its prior.
double logHalfTVariate(double df, double scale, Rng& rng);
// beta ~ Normal(0, diag tau^2): a component's coefficients from their prior.
Eigen::VectorXd priorCoefficients(const Eigen::VectorXd& tau, Rng& rng);
// log Normal(y_i | mean_i, exp(logSigma)) for every record.
Eigen::ArrayXd normalLogDensities(const Eigen::VectorXd& y, const Eigen::VectorXd& mean,
                                  double logSigma);
// log Beta(u | a, b) given log u and log(1 - u).
double logBetaDensity(double logU, double log1mU, double a, double b);

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
};

// One Metropolis-Hastings update of the weights on the theta-marginal (labels integrated
// out, so only between sweeps, where the labels are redrawn anyway): target Dirichlet(pi | c)
// prod_i L_i^alpha_i, proposal Dirichlet(c + sum_i alpha_i r_ik) at the current weights (the
// weights' fixed point given the components), its reverse density in the ratio. Why: the
// complete-data step proposes from counts weighted by alpha, as wide as the target only where
// labels are clear; where components overlap it is far too wide (0 of 600 accepted at
// alpha = 0.2 on income_survey). True when accepted.
bool marginalWeights(const Eigen::VectorXd& alpha, double c, MixtureCache& cache, Rng& rng);

// A component's sufficient statistics over a set of records (A = diag(alpha)).
struct ComponentStats {
    Eigen::MatrixXd XtAX;
    Eigen::VectorXd XtAy;
    double count = 0.0;  // sum of alpha
};
ComponentStats componentStats(const Design& X, const Eigen::VectorXd& y,
                              const Eigen::VectorXd& alpha,
                              const std::vector<Eigen::Index>& members);
// sum over the members of alpha_i (y_i - x_i' beta)^2.
double residualSquares(const Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                       const std::vector<Eigen::Index>& members, const Eigen::VectorXd& beta);

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
