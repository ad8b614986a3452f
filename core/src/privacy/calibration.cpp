#include "ppsynth/privacy/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/privacy/weights.hpp"

namespace ppsynth::privacy {

namespace {

// Where log epsilon = c + b log a, fitted by least squares to the points, meets the target.
// Epsilon follows a power of a closely (a smaller a widens the posterior, so the largest |l|
// grows as a shrinks: on the K = 20 mixture of income_survey epsilon went about as a^0.55,
// and a secant on a itself crept towards the target in 5 to 7 refits), and the least squares
// average the refits' noise where a secant through two noisy points would follow it. Without
// a usable slope (one point, or noise reversing the order) the step scales the latest try's
// a in proportion to epsilon.
double powerLawStep(const std::vector<std::pair<double, double>>& points, double target) {
    double mx = 0, my = 0;
    for (const auto& [a, eps] : points) mx += std::log(a), my += std::log(eps);
    const auto count = static_cast<double>(points.size());
    mx /= count, my /= count;
    double sxx = 0, sxy = 0;
    for (const auto& [a, eps] : points) {
        sxx += (std::log(a) - mx) * (std::log(a) - mx);
        sxy += (std::log(a) - mx) * (std::log(eps) - my);
    }
    constexpr double kMinSlope = 0.2, kMaxSlope = 3.0;  // beyond them a slope is noise
    const double slope = sxx > 0 ? sxy / sxx : 0.0;
    if (slope >= kMinSlope && slope <= kMaxSlope)
        return std::exp(mx + (std::log(target) - my) / slope);
    const auto& [a, eps] = points.back();
    return a * target / eps;
}

}  // namespace

double chainSpread(const std::vector<double>& deltaPerChain, double delta) {
    if (deltaPerChain.size() < 2 || !(delta > 0) || !std::isfinite(delta)) return 0.0;
    const double sd = standardDeviation(deltaPerChain);
    return std::isfinite(sd) ? sd / delta : 0.0;
}

Expected<ScalarWeightResult> solveScalarWeight(
    double targetEpsilon, double deltaUnweighted,
    const std::function<Expected<RefitBound>(double)>& refit, const ScalarWeightOptions& options) {
    if (!(targetEpsilon > 0)) return Error{"the target epsilon must be positive"};
    if (!(deltaUnweighted > 0)) return Error{"the unweighted bound Delta_x must be positive"};
    ScalarWeightResult r;
    // Bracket on a in (0, 1]: epsilon(a) grows with a. a = 1 is the fit the bound came from.
    double lo = 0, hi = 1;
    std::vector<std::pair<double, double>> points;  // (a, epsilon) of a = 1 and every try
    if (std::isfinite(deltaUnweighted)) points.emplace_back(1.0, 2.0 * deltaUnweighted);
    double a = scalarWeightForEpsilon(targetEpsilon, deltaUnweighted);
    double spreadSum = 0;
    for (int it = 0; it < options.maxRefits; ++it) {
        auto measured = refit(a);
        if (!measured)
            return measured.error().prefixed("refit with scalar weight " + std::to_string(a) +
                                             ": ");
        const double eps = 2.0 * measured->delta;
        r.tries.push_back({a, measured->delta, eps, measured->spread});
        spreadSum += measured->spread;
        r.noise = spreadSum / static_cast<double>(r.tries.size());
        const double miss = std::abs(eps - targetEpsilon) / targetEpsilon;
        if (miss <= options.tolerance) {
            r.converged = true;
            break;
        }
        if (eps < targetEpsilon) {
            lo = a;
            if (a >= 1.0) break;  // even the unweighted fit is below the target
        } else {
            hi = std::min(hi, a);
        }
        const double resolvable = std::max(options.tolerance, r.noise);
        // A budget stops at the noise only at or below it: above, a refit could still keep it.
        const bool withinNoise = miss <= r.noise && (!options.budget || eps <= targetEpsilon);
        if (withinNoise || (lo > 0 && hi - lo <= resolvable * lo)) {
            r.noiseLimited = true;
            break;
        }
        if (eps > 0 && std::isfinite(eps)) points.emplace_back(a, eps);
        double next = points.empty() ? 0.5 * (lo + hi) : powerLawStep(points, targetEpsilon);
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
