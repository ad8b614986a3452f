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

struct ScalarTry {
    double a = 0;
    double delta = 0;    // Delta_{a,x} of the refit
    double epsilon = 0;  // 2 Delta_{a,x}
};

struct ScalarWeightResult {
    double a = 0;
    double delta = 0;
    double epsilon = 0;
    bool converged = false;  // within tolerance of the target
    // Stopped because the bracket on a narrowed below the tolerance while the refits'
    // epsilons still missed it: their Monte Carlo noise (Delta is a maximum over draws) is
    // larger than the tolerance, and more refits would only sample that noise.
    bool noiseLimited = false;
    std::vector<ScalarTry> tries;
};

struct ScalarWeightOptions {
    double tolerance = 0.02;  // relative, on epsilon
    int maxRefits = 10;
    // The target is a budget (an explicit epsilon, not another synthesizer's to match): keep
    // the closest try at or below it when there is one.
    bool budget = false;
};

// refit(a) fits with alpha_i = a for all i and returns Delta_{a,x}. Starts at
// a = target / (2 Delta_x) and moves by secant steps on log epsilon against log a (epsilon
// follows a power of a closely; a = 1 is the fit Delta_x came from, a point known without a
// refit), kept inside a bisection bracket; stops within tolerance, after maxRefits, or
// (noiseLimited) once the bracket's ends differ by less than the tolerance: epsilon grows
// with a at most in proportion, so every a inside is as close to the target as the tolerance
// asks. Reports the try closest to the target (with `budget`, the closest at or below it if
// any).
Expected<ScalarWeightResult> solveScalarWeight(double targetEpsilon, double deltaUnweighted,
                                               const std::function<Expected<double>(double)>& refit,
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
