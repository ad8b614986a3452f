// Searches that refit the model: the scalar weight matched to a target epsilon
// (METHOD.md 3.6) and the largest re-weighting constant k that keeps the bound (3.7).
// The refit itself is the caller's (a function), so these stay independent of the engine
// and every refit is reported.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::privacy {

// What a refit measured: its bound and how far that bound scatters between the fit's chains.
struct RefitBound {
    double delta = 0;  // Delta of the refit
    // Standard deviation of the chains' own Delta relative to the pooled Delta (0: unknown, e.g.
    // one chain). Delta is a maximum over draws; for the tails met so far the maximum of all
    // chains scatters from run to run about as much as one chain's maximum does, so this is
    // the Monte Carlo noise of the refit's epsilon.
    double spread = 0;
};

// spread for RefitBound: the sample standard deviation of the chains' Delta over the pooled
// Delta; 0 with fewer than two chains or a Delta that is not positive and finite.
double chainSpread(const std::vector<double>& deltaPerChain, double delta);

struct ScalarTry {
    double a = 0;
    double delta = 0;    // Delta_{a,x} of the refit
    double epsilon = 0;  // 2 Delta_{a,x}
    double spread = 0;   // RefitBound::spread of the refit
};

struct ScalarWeightResult {
    double a = 0;
    double delta = 0;
    double epsilon = 0;
    bool converged = false;  // within tolerance of the target
    // Stopped at the refits' Monte Carlo noise (Delta is a maximum over draws), which is
    // larger than the tolerance: a try came within the noise of the target, or the bracket on
    // a narrowed below the noise (or the tolerance) while the epsilons still missed it. More
    // refits would only sample that noise.
    bool noiseLimited = false;
    double noise = 0;  // the relative noise the search assumed: the tries' mean spread
    std::vector<ScalarTry> tries;
};

struct ScalarWeightOptions {
    double tolerance = 0.02;  // relative, on epsilon
    int maxRefits = 10;
    // The target is a budget (an explicit epsilon, not another synthesizer's to match): keep
    // the closest try at or below it when there is one.
    bool budget = false;
};

// refit(a) fits with alpha_i = a for all i and returns Delta_{a,x} and its noise. Starts at
// a = target / (2 Delta_x); each next a is where a line fitted by least squares to log
// epsilon against log a meets the target (epsilon follows a power of a closely; the points
// are every try and a = 1, the fit Delta_x came from, known without a refit), kept inside a
// bisection bracket. Stops within tolerance (converged); at the noise (noiseLimited: a try
// within the tries' mean spread of the target when that spread exceeds the tolerance, or the
// bracket's ends closer than the larger of the two, since epsilon grows with a at most in
// proportion, every a inside is then as close as the noise lets a refit tell); or after
// maxRefits. Reports the try closest to the target (with `budget`, the closest at or below it
// if any).
Expected<ScalarWeightResult> solveScalarWeight(
    double targetEpsilon, double deltaUnweighted,
    const std::function<Expected<RefitBound>(double)>& refit,
    const ScalarWeightOptions& options = {});

struct ReweightTry {
    double k = 0;
    double delta = 0;  // Delta_{alpha_w,x} of the refit
    bool keeps = false;
};

struct ReweightResult {
    double k = 0;  // the largest k tried that keeps the bound (0 if none did)
    double delta = 0;
    Eigen::VectorXd alpha;  // the re-weighted alpha_w of that k
    std::vector<ReweightTry> tries;
};

struct ReweightOptions {
    double tolerance = 0.02;  // keep Delta_{alpha_w,x} <= (1 + tolerance) Delta_{alpha,x}
    int bisections = 6;       // after k = 1 fails
    double fixedK = 0;        // > 0: try only this k (the paper's hand-picked k = 0.95)
};

// refit(alpha_w) fits with those weights and returns Delta_{alpha_w,x}.
Expected<ReweightResult> searchReweight(
    const Eigen::VectorXd& alpha, const Eigen::VectorXd& recordDelta, double delta,
    const std::function<Expected<double>(const Eigen::VectorXd&)>& refit,
    const ReweightOptions& options = {});

}  // namespace ppsynth::privacy
