// Convergence diagnostics after Vehtari, Gelman, Simpson, Carpenter and Buerkner (2021),
// as in Stan's analyze/mcmc code and the posterior R package: rank-normalized split R-hat
// (the larger of the bulk and folded/tail versions), bulk ESS and tail ESS (the smaller of
// the ESS of the 5% and 95% quantile indicators), autocorrelations by FFT truncated by
// Geyer's initial monotone sequence. Plus the sampler's own checks: divergences, tree-depth
// saturation, E-BFMI per chain; and human-readable warnings.
//
// Everything works on any scalar per-draw quantity, not only parameters: mixtures switch
// labels, so their convergence is judged on label-invariant quantities (e.g. the total
// log-likelihood) computed by the caller.
#pragma once

#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "ppsynth/mcmc/nuts.hpp"

namespace ppsynth::mcmc {

// One scalar quantity's draws: one vector per chain, all of the same length.
using ChainDraws = std::vector<Eigen::VectorXd>;

struct ConvergenceSummary {
    double mean = 0;
    double sd = 0;
    double rhat = 0;  // max(rhatBulk, rhatTail); NaN when draws are constant or not finite
    double rhatBulk = 0;
    double rhatTail = 0;
    double essBulk = 0;  // NaN as for rhat
    double essTail = 0;
};

ConvergenceSummary summarize(const ChainDraws& chains);

// Column c of a SamplerResult's draws as ChainDraws (parameter c over all chains).
ChainDraws parameterDraws(const SamplerResult& result, Eigen::Index c);

// ---- building blocks (exposed for tests and for callers with their own layouts) ----
// Columns of `draws` are chains in all of these.

// Splits each chain into its first and second half (a middle draw of an odd length is
// dropped): n x m -> floor(n/2) x 2m.
Eigen::MatrixXd splitChains(const ChainDraws& chains);
// Normal scores of the pooled average ranks: Phi^-1((r - 3/8) / (S + 1/4)).
Eigen::MatrixXd rankNormalize(const Eigen::MatrixXd& draws);
// Classic potential scale reduction sqrt(((n-1)/n W + B/n) / W) of the columns as given.
double rhatBasic(const Eigen::MatrixXd& draws);
// ESS of the columns as given (Geyer's initial monotone sequence, capped at S log10 S).
double essBasic(const Eigen::MatrixXd& draws);
// Biased autocovariance (divisor n) at lags 0..n-1, computed by FFT.
Eigen::VectorXd autocovariance(const Eigen::VectorXd& x);
// Sample quantile, R's type 7 (linear interpolation between order statistics).
double quantile(Eigen::VectorXd values, double p);
double quantileOfSorted(const Eigen::VectorXd& sortedValues, double p);
// Energy Bayesian fraction of missing information of one chain's energies.
double ebfmi(const std::vector<DrawStats>& stats);

struct DiagnoseOptions {
    int maxTreeDepth = 10;  // as given to the sampler
    // Parameters (columns of q) to summarize, named for the warnings; empty names give
    // "parameter 1", ... Set includeParameters false to judge only `quantities`.
    bool includeParameters = true;
    std::vector<std::string> parameterNames;
    std::vector<std::pair<std::string, ChainDraws>> quantities;  // any scalar per draw
    double rhatThreshold = 1.01;
    double essPerChainThreshold = 100;  // Stan warns below 100 per chain
    double ebfmiThreshold = 0.3;
};

struct QuantityDiagnostics {
    std::string name;
    ConvergenceSummary summary;
};

struct RunDiagnostics {
    int draws = 0;  // retained, over all chains
    int divergences = 0;
    int treeDepthSaturated = 0;
    std::vector<int> divergencesPerChain;
    std::vector<double> ebfmi;                    // per chain
    std::vector<QuantityDiagnostics> quantities;  // parameters first, then extra quantities
    double maxRhat = 0;                           // over quantities with a defined R-hat
    double minEssBulk = 0;                        // idem
    double minEssTail = 0;
    std::vector<std::string> warnings;  // empty when nothing is wrong
    // Filled by a run until converged (study::UntilConverged); blocks 0 for a fixed length.
    struct UntilConverged {
        int blocks = 0;
        bool converged = false;      // the stopping rule held
        bool budgetReached = false;  // the budget stopped it first
        std::vector<std::string> shortfall;
        int drawsPerChain = 0;  // kept, in all blocks (0 in run folders that predate it)
        // Why it stopped, in run.json's words: "converged" or "budget reached".
        std::string stopReason() const { return converged ? "converged" : "budget reached"; }
    } untilConverged;
    // Tempering: per chain the ladder (t_1 = 1 first) and each neighbouring pair's swap
    // acceptance while draws were kept; empty without tempering.
    std::vector<std::vector<double>> ladders, swapAcceptance;
};

RunDiagnostics diagnose(const SamplerResult& result, const DiagnoseOptions& options = {});

// The draws per chain a fit kept: `configured` for a fixed length; for a run until converged
// its own count (run folders that predate it: the retained draws over the chains).
int keptDrawsPerChain(const RunDiagnostics& d, int chains, int configured);

}  // namespace ppsynth::mcmc
