#include "ppsynth/privacy/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsynth/privacy/weights.hpp"

namespace ppsynth::privacy {

namespace {

// The a where the line through (log a1, log eps1) and (log a2, log eps2) meets the target: a
// secant on log epsilon against log a. Epsilon follows a power of a closely (a smaller a
// widens the posterior, so the largest |l| grows as a shrinks: on the K = 20 mixture of
// income_survey epsilon went about as a^0.55, and a secant on a itself crept towards the
// target in 5 to 7 refits). Without a usable slope (a2 unset, or noise reversing the order)
// the step scales a in proportion to epsilon.
double powerLawStep(double a1, double eps1, double a2, double eps2, double target) {
    const double slope = a2 > 0 && a2 != a1 && eps1 > 0 && eps2 > 0
                             ? std::log(eps2 / eps1) / std::log(a2 / a1)
                             : std::numeric_limits<double>::quiet_NaN();
    constexpr double kMinSlope = 0.2, kMaxSlope = 3.0;  // beyond them a slope is noise
    const double b = slope >= kMinSlope && slope <= kMaxSlope ? slope : 1.0;
    return a1 * std::pow(target / eps1, 1.0 / b);
}

}  // namespace

Expected<ScalarWeightResult> solveScalarWeight(double targetEpsilon, double deltaUnweighted,
                                               const std::function<Expected<double>(double)>& refit,
                                               const ScalarWeightOptions& options) {
    if (!(targetEpsilon > 0)) return Error{"the target epsilon must be positive"};
    if (!(deltaUnweighted > 0)) return Error{"the unweighted bound Delta_x must be positive"};
    ScalarWeightResult r;
    // Bracket on a in (0, 1]: epsilon(a) grows with a. a = 1 is the fit the bound came from,
    // so its epsilon is known without a refit.
    double lo = 0, epsLo = 0, hi = 1, epsHi = 2.0 * deltaUnweighted;
    double above = 0, epsAbove = 0;  // the try above the target next to hi (0: none yet)
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
        } else if (a < hi) {
            above = hi, epsAbove = epsHi;
            hi = a, epsHi = eps;
        }
        if (lo > 0 && hi - lo <= options.tolerance * lo) {
            r.noiseLimited = true;
            break;
        }
        double next = lo > 0 ? powerLawStep(lo, epsLo, hi, epsHi, targetEpsilon)
                             : powerLawStep(hi, epsHi, above, epsAbove, targetEpsilon);
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
