#include "ppsynth/privacy/weights.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ppsynth/common/quantile.hpp"

namespace ppsynth::privacy {

double clamp01(double v) {
    return std::min(std::max(v, 0.0), 1.0);
}

Eigen::VectorXd lipschitzWeights(const Eigen::VectorXd& f, double c, double g) {
    Eigen::VectorXd alpha = Eigen::VectorXd::Zero(f.size());
    // An unbounded f_i (a non-finite log-likelihood) gets alpha_i = 0 (Assumption 2) and
    // stays out of the normalization, which would otherwise flatten every other weight.
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (const double v : f)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    for (Eigen::Index i = 0; i < f.size(); ++i) {
        if (!std::isfinite(f[i])) continue;
        const double ft = hi > lo ? (f[i] - lo) / (hi - lo) : 0.0;
        alpha[i] = clamp01(c * (1.0 - ft) + g);
    }
    return alpha;
}

Eigen::VectorXd truncateAtM(Eigen::VectorXd alpha, const Eigen::VectorXd& f, double M) {
    for (Eigen::Index i = 0; i < alpha.size(); ++i)
        if (alpha[i] * f[i] > M) alpha[i] = 0.0;
    return alpha;
}

Eigen::VectorXd riskWeights(std::span<const double> ir, double c, double g) {
    Eigen::VectorXd alpha(static_cast<Eigen::Index>(ir.size()));
    for (std::size_t i = 0; i < ir.size(); ++i)
        alpha[static_cast<Eigen::Index>(i)] = clamp01(c * (1.0 - ir[i]) + g);
    return alpha;
}

Eigen::VectorXd pairwiseWeights(std::span<const double> at, double c, double g) {
    Eigen::VectorXd alpha(static_cast<Eigen::Index>(at.size()));
    for (std::size_t i = 0; i < at.size(); ++i)
        alpha[static_cast<Eigen::Index>(i)] = clamp01(c * at[i] + g);
    return alpha;
}

Eigen::VectorXd sigmoidRiskWeights(std::span<const double> ir, double a, double cMin, double cMax) {
    Eigen::VectorXd alpha(static_cast<Eigen::Index>(ir.size()));
    for (std::size_t i = 0; i < ir.size(); ++i) {
        const double ci = cMin + (cMax - cMin) / (1.0 + std::exp(-a * (ir[i] - 0.5)));
        alpha[static_cast<Eigen::Index>(i)] = std::max(0.0, 1.0 - ci * ir[i]);
    }
    return alpha;
}

double scalarWeightForEpsilon(double epsilon, double deltaUnweighted) {
    if (deltaUnweighted <= 0) return 1.0;
    return clamp01(epsilon / (2.0 * deltaUnweighted));
}

Eigen::VectorXd reweight(const Eigen::VectorXd& alpha, const Eigen::VectorXd& recordDelta,
                         double delta, double k) {
    Eigen::VectorXd out(alpha.size());
    for (Eigen::Index i = 0; i < alpha.size(); ++i) {
        if (alpha[i] <= 0) {
            out[i] = 0.0;
        } else if (recordDelta[i] <= 0) {
            out[i] = 1.0;
        } else {
            out[i] = clamp01(k * alpha[i] * delta / recordDelta[i]);
        }
    }
    return out;
}

void zeroNonFinite(Eigen::VectorXd& alpha, const std::vector<std::uint8_t>& nonFinite) {
    for (std::size_t i = 0; i < nonFinite.size(); ++i)
        if (nonFinite[i]) alpha[static_cast<Eigen::Index>(i)] = 0.0;
}

TopCoded topCode(std::span<const double> y, double q) {
    TopCoded t;
    if (y.empty()) return t;
    t.threshold = quantile(y, q);
    t.values.reserve(y.size());
    for (double v : y) t.values.push_back(std::min(v, t.threshold));
    return t;
}

WeightSummary summarizeWeights(const Eigen::VectorXd& alpha) {
    WeightSummary s;
    if (alpha.size() == 0) return s;
    std::vector<double> v(alpha.data(), alpha.data() + alpha.size());
    std::sort(v.begin(), v.end());
    s.min = v.front();
    s.max = v.back();
    s.q1 = quantileSorted(v, 0.25);
    s.median = quantileSorted(v, 0.5);
    s.q3 = quantileSorted(v, 0.75);
    s.mean = alpha.mean();
    s.zeros = static_cast<std::size_t>(std::count(v.begin(), v.end(), 0.0));
    return s;
}

}  // namespace ppsynth::privacy
