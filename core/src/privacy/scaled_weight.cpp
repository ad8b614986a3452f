#include "ppsynth/privacy/scaled_weight.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace ppsynth::privacy {

Expected<ScaledWeightResult> solveScaledWeight(
    double targetEpsilon, const std::function<Expected<RefitBound>(double)>& refit,
    const ScalarWeightOptions& options) {
    if (!(targetEpsilon > 0)) return Error{"the target epsilon must be positive"};
    ScaledWeightResult r;
    auto measured = refit(1.0);
    if (!measured) return measured.error().prefixed("fit of the vector weights (scale 1): ");
    const double vector = measured->delta, eps = 2.0 * vector;
    const ScalarTry first{1.0, vector, eps, measured->spread};
    r.tries.push_back(first);
    r.a = 1.0;
    r.delta = vector;
    r.epsilon = eps;
    if (std::abs(eps - targetEpsilon) <= options.tolerance * targetEpsilon) {
        r.converged = true;
        return r;
    }
    if (eps < targetEpsilon) {  // a would have to exceed 1
        r.reachable = false;
        return r;
    }
    if (!std::isfinite(eps) || !(vector > 0))
        return Error{"the vector weights' bound Delta_{alpha_v,x} is " + std::to_string(vector) +
                     ", so no scale can be solved from it"};
    ScalarWeightOptions inner = options;
    inner.budget = true;
    inner.maxRefits = std::max(1, options.maxRefits - 1);
    // solveScalarWeight starts at target / (2 Delta): with Delta_{alpha_v,x}, the start METHOD
    // 3.10 names; its a stays below 1, where epsilon is known to be above the target.
    auto solved = solveScalarWeight(targetEpsilon, vector, refit, inner);
    if (!solved) return solved.error();
    static_cast<ScalarWeightResult&>(r) = *solved;
    r.tries.insert(r.tries.begin(), first);
    return r;
}

}  // namespace ppsynth::privacy
