// Scaled vector weights with a target epsilon (METHOD.md 3.10): alpha = a * alpha_v, alpha_v
// the weights of a vector scheme (LW, LW-M, CW, Pairwise, Sigmoid), a in (0, 1] solved by
// refits so that the refit's epsilon_x = 2 Delta_{a alpha_v, x} meets the target. The refit
// is the caller's (a function of a), as for the scalar weight (calibration.hpp), and every
// refit is reported.
#pragma once

#include <functional>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/privacy/calibration.hpp"

namespace ppsynth::privacy {

struct ScaledWeightResult : ScalarWeightResult {
    // False when the vector scheme itself (a = 1) stays below the target: no a in (0, 1]
    // reaches it (a would have to exceed 1); a = 1 and its epsilon are reported.
    bool reachable = true;
};

// refit(a) fits with alpha = a * alpha_v and returns Delta_{a alpha_v, x} (and its noise). The
// first refit is a = 1 (the vector scheme as it is; its Delta_{alpha_v,x} sets the start); within
// the tolerance it is the answer, below the target it is unreachable, above it the search goes on
// as solveScalarWeight's from a = target / (2 Delta_{alpha_v,x}) (power-law steps inside a
// bisection bracket, at most options.maxRefits refits in all). The target is a budget: the
// closest try at or below it is reported when there is one.
Expected<ScaledWeightResult> solveScaledWeight(
    double targetEpsilon, const std::function<Expected<RefitBound>(double)>& refit,
    const ScalarWeightOptions& options = {});

}  // namespace ppsynth::privacy
