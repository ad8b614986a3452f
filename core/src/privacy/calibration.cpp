#include "ppsynth/privacy/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsynth/privacy/weights.hpp"

namespace ppsynth::privacy {

Expected<ScalarWeightResult> solveScalarWeight(double targetEpsilon, double deltaUnweighted,
                                               const std::function<Expected<double>(double)>& refit,
                                               const ScalarWeightOptions& options) {
    if (!(targetEpsilon > 0)) return Error{"the target epsilon must be positive"};
    if (!(deltaUnweighted > 0)) return Error{"the unweighted bound Delta_x must be positive"};
    ScalarWeightResult r;
    // Bracket on a in (0, 1]: epsilon(a) grows with a.
    double lo = 0, epsLo = 0, hi = 1, epsHi = std::numeric_limits<double>::infinity();
    double a = scalarWeightForEpsilon(targetEpsilon, deltaUnweighted);
    for (int it = 0; it < options.maxRefits; ++it) {
        auto delta = refit(a);
        if (!delta)
            return delta.error().prefixed("refit with scalar weight " + std::to_string(a) + ": ");
        const double eps = 2.0 * *delta;
        r.tries.push_back({a, *delta, eps});
        if (std::abs(eps - targetEpsilon) <= options.tolerance * targetEpsilon) {
            r.converged = true;
            break;
        }
        if (eps < targetEpsilon) {
            lo = a, epsLo = eps;
            if (a >= 1.0) break;  // even the unweighted fit is below the target
        } else {
            hi = a, epsHi = eps;
        }
        if (lo > 0 && std::isfinite(epsHi) && hi - lo <= options.tolerance * lo) {
            r.noiseLimited = true;
            break;
        }
        // Secant through the bracket ends when both are measured, else proportional scaling;
        // fall back to bisection when the step leaves the bracket.
        double next = std::isfinite(epsHi) && lo > 0
                          ? lo + (targetEpsilon - epsLo) * (hi - lo) / (epsHi - epsLo)
                          : a * targetEpsilon / eps;
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        a = std::min(next, 1.0);
    }
    // Report the try closest to the target; a budget is not to be exceeded where a try kept it.
    const auto within = [&](const ScalarTry& t) {
        return !options.budget || t.epsilon <= targetEpsilon;
    };
    const bool anyWithin = std::any_of(r.tries.begin(), r.tries.end(), within);
    const ScalarTry* best = nullptr;
    for (const auto& t : r.tries)
        if ((!anyWithin || within(t)) && (!best || std::abs(t.epsilon - targetEpsilon) <
                                                       std::abs(best->epsilon - targetEpsilon)))
            best = &t;
    r.a = best->a;
    r.delta = best->delta;
    r.epsilon = best->epsilon;
    return r;
}

Expected<ReweightResult> searchReweight(
    const Eigen::VectorXd& alpha, const Eigen::VectorXd& recordDelta, double delta,
    const std::function<Expected<double>(const Eigen::VectorXd&)>& refit,
    const ReweightOptions& options) {
    ReweightResult r;
    const double limit = (1.0 + options.tolerance) * delta;
    auto attempt = [&](double k) -> Expected<bool> {
        Eigen::VectorXd w = reweight(alpha, recordDelta, delta, k);
        auto d = refit(w);
        if (!d) return d.error().prefixed("refit with k = " + std::to_string(k) + ": ");
        const bool keeps = *d <= limit;
        r.tries.push_back({k, *d, keeps});
        if (keeps && k > r.k) {
            r.k = k;
            r.delta = *d;
            r.alpha = std::move(w);
        }
        return keeps;
    };
    if (options.fixedK > 0) {
        if (auto s = attempt(options.fixedK); !s) return s.error();
        return r;
    }
    auto first = attempt(1.0);
    if (!first) return first.error();
    if (*first) return r;
    double lo = 0, hi = 1;
    for (int i = 0; i < options.bisections; ++i) {
        const double k = 0.5 * (lo + hi);
        auto keeps = attempt(k);
        if (!keeps) return keeps.error();
        (*keeps ? lo : hi) = k;
    }
    return r;
}

}  // namespace ppsynth::privacy
