// One fit of a synthesizer model under record weights alpha: MCMC (or exact conjugate
// draws), with the Lipschitz quantities and the label-invariant diagnostics accumulated as
// draws stream past, so memory is O(n + S x parameters), never O(S x n).
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/mcmc/diagnostics.hpp"
#include "ppsynth/mcmc/nuts.hpp"
#include "ppsynth/models/model.hpp"
#include "ppsynth/privacy/epsilon_diagnostics.hpp"
#include "ppsynth/privacy/lipschitz.hpp"

namespace ppsynth::study {

// Run until converged (the configuration's "draws": "auto"): after the warm-up, blocks of
// sampler.draws draws per chain, each chain continued exactly where it stopped (its state,
// step size, metric, tempered replicas and random stream), until every diagnosed quantity
// has split R-hat (bulk and tail) below `rhat` and bulk and tail ESS (over all chains) of
// at least `ess`, or the next block would not fit in the budget. Diagnosed: the total
// log-likelihood, the mean prediction, D_s = max_i alpha_i |l_{s,i}|, and the parameters
// (for the mixture only its label-invariant ones: tau_j, gamma). The epsilon verdict
// (privacy::diagnoseEpsilon, the one definition the run's verdict uses) must say "converged"
// too, on the same inputs: D_s under the bound's quantile q and, for the fit whose f_i feed
// weights (the unweighted fit), the chains' agreement on f_i (judged only once everything
// else holds: it costs a pass over the draws so far). A run that stops after N draws
// per chain holds exactly the draws of a fixed run of N draws with the same seed.
struct UntilConverged {
    double budgetSeconds = 600;  // per fit, warm-up included
    double rhat = 1.01;
    double ess = 400;
    double quantile = 1.0;           // the bound's q (lipschitz.quantile)
    bool judgeRecordBounds = false;  // the chains must agree on f_i (the unweighted fit)
    privacy::EpsilonThresholds verdict;
};

// How a run until converged ended.
struct UntilConvergedOutcome {
    int blocks = 0;                      // sampled, the first included
    int drawsPerChain = 0;               // in all blocks
    bool converged = false;              // every quantity met the rule
    bool budgetReached = false;          // stopped by the budget before that
    std::vector<std::string> shortfall;  // what was still short at the end ("D_s: R-hat 1.03")
    // At the budget: about how long the whole fit would take, at the rate of its blocks so
    // far, for every diagnosed quantity's bulk and tail ESS to reach the rule's (a stationary
    // chain's ESS grows in proportion to its draws; R-hat is not extrapolated). 0 when unknown.
    double secondsForEss = 0;
};

// Why a fit stopped by the budget is not converged, for the epsilon verdict's reasons:
// "budget reached (mcmc.budget_seconds 600 s) before R-hat < 1.01, ESS >= 400 and the epsilon
// verdict held for total log-likelihood: R-hat 1.058, bulk ESS 55 and 2 more: raise the
// budget (at the rate so far, ESS 400 would take about 110 minutes in all)".
std::string budgetReachedReason(const UntilConvergedOutcome& outcome, const UntilConverged& rule);

struct FitOptions {
    mcmc::SamplerOptions sampler;  // chains, warmup, draws, seed, threads, starts, progress, cancel
    std::optional<UntilConverged> untilConverged;  // sampler.draws is then the block length
    // Overrides sampler.kernel: empty takes the model's preferredKernel(); Nuts is NUTS (with
    // the model's exact moves after each transition); Gibbs the model's own sweep (an error
    // for models without one).
    std::optional<mcmc::Kernel> kernel;
};

struct Fit {
    Eigen::MatrixXd draws;                    // S x d unconstrained draws, chain after chain
    privacy::LipschitzAccumulator lipschitz;  // chains merged in order: draws()/chains per chain
    // max_s alpha_i |l_{s,i}| per record over each chain's own draws (one entry per chain).
    std::vector<Eigen::VectorXd> chainRecordMax;
    mcmc::RunDiagnostics diagnostics;
    std::vector<mcmc::ChainStart> warmStarts;  // per chain, for refits of nearby targets
    bool exact = false;                        // conjugate draws, no MCMC
    std::optional<UntilConvergedOutcome> untilConverged;
    // Tempering: per chain the ladder and the swap acceptance of each neighbouring pair.
    std::vector<std::vector<double>> ladders, swapAcceptance;
    double seconds = 0;
    std::int64_t gradientEvaluations = 0;
};

// The parameter summaries users read (constrained scale).
struct ParameterSummary {
    std::string name;
    double mean = 0, sd = 0, q05 = 0, median = 0, q95 = 0;
};

// FitOptions::kernel for a configuration's "sampler": "nuts", "gibbs", or empty for "auto"
// (and anything else, which the configuration parser has already refused).
std::optional<mcmc::Kernel> kernelNamed(const std::string& name);

// The stopping rule of a run until converged: what is still short, one line per quantity
// ("D_s: R-hat 1.034, bulk ESS 212"), empty when every quantity meets it. Quantities whose
// R-hat is undefined (constant draws) are not short.
std::vector<std::string> convergenceShortfall(
    const std::vector<std::pair<std::string, mcmc::ConvergenceSummary>>& quantities,
    const UntilConverged& rule);
// What the epsilon verdict still finds short, in the same one-line form ("f_i agreement:
// rank correlation 0.843, median relative difference 8.6%"); empty when it says converged.
std::vector<std::string> verdictShortfall(const privacy::EpsilonDiagnostics& verdict,
                                          const privacy::EpsilonThresholds& thresholds);

Expected<Fit> fitModel(const models::Model& model, const Eigen::VectorXd& alpha,
                       const FitOptions& options);

// max over the listed draws (rows of `draws`, unconstrained) of alpha_i |l_{s,i}| per record,
// non-finite values skipped: the record bounds f_i and Delta_{alpha,x_i} of the robust
// draw-quantile option, which leaves the draws above the q-quantile out of both the bound
// and synthesis (METHOD.md section 2), so the record bounds must not see them either.
// A second pass over the stored draws: O(|kept| n) likelihood evaluations, in parallel.
Eigen::VectorXd recordBoundsOverDraws(const models::Model& model, const Eigen::MatrixXd& draws,
                                      const std::vector<std::size_t>& kept,
                                      const Eigen::VectorXd& alpha, int threads = 1);

// The epsilon diagnostics' inputs of a fit whose draws the bound `bound` keeps: D_s per
// chain, Delta per chain (same q), the record setting Delta (0-based) with its l. With
// `recordBoundPerHalf` (f_i per half chain over its retained draws, chainRecordBounds;
// unweighted fit) the chains' agreement on f_i is judged too.
privacy::EpsilonChains epsilonChains(
    const Fit& fit, const privacy::LipschitzBound& bound,
    std::vector<privacy::HalfChainRecordMax> recordBoundPerHalf = {});

// Every reported parameter; for the mixture, whose components switch labels, only its
// label-invariant quantities: tau_j, gamma, the number of occupied components and
// predictive quantiles of y (METHOD.md section 2's caveat on pooled per-label summaries).
std::vector<ParameterSummary> summarizeParameters(const models::Model& model,
                                                  const Eigen::MatrixXd& draws);

}  // namespace ppsynth::study
