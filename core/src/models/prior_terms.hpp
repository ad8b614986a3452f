// Log prior densities shared by the models, on the unconstrained (log) scale of positive
// parameters, with every normalizing constant and the log Jacobian of the exp transform,
// so logPosterior values of different families are comparable (and the K = 1 mixture
// equals the normal regression exactly). Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <boost/math/policies/policy.hpp>
#include <boost/math/special_functions/digamma.hpp>
#include <cmath>
#include <limits>
#include <numbers>

#include "ppsynth/common/log_gamma.hpp"
#include "ppsynth/common/moments.hpp"

namespace ppsynth::models::detail {

inline constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // 0.5 log(2 pi)

// A log density value and its derivative with respect to the unconstrained argument.
struct ValueGrad {
    double value = 0.0;
    double grad = 0.0;
};

// log of the half-Student-t(df, 0, scale) density's normalizing constant.
inline double logHalfTConst(double df, double scale) {
    return std::log(2.0) + logGamma(0.5 * (df + 1.0)) - logGamma(0.5 * df) -
           0.5 * std::log(df * std::numbers::pi) - std::log(scale);
}

// tau = exp(u), tau ~ half-Student-t(df, 0, scale): log p(tau) + u and d/du.
inline ValueGrad logHalfTOnLog(double u, double df, double scale) {
    const double t = std::exp(u) / scale;
    const double t2 = t * t;
    ValueGrad r;
    r.value = logHalfTConst(df, scale) - 0.5 * (df + 1.0) * std::log1p(t2 / df) + u;
    r.grad = 1.0 - (df + 1.0) * t2 / (df + t2);
    return r;
}

// x = exp(u), x ~ Gamma(shape, rate): log p(x) + u and d/du.
inline ValueGrad logGammaOnLog(double u, double shape, double rate) {
    const double x = std::exp(u);
    ValueGrad r;
    r.value = shape * std::log(rate) - logGamma(shape) + shape * u - rate * x;
    r.grad = shape - rate * x;
    return r;
}

// digamma that never throws: Boost's default policy throws at the pole x = 0 (phi or
// gamma / K underflowing to 0 far out on a NUTS trajectory) and on overflow; here those
// come back as NaN or +-inf, which guardedLogDensity turns into a rejected point.
inline double digamma(double x) {
    using namespace boost::math::policies;
    using NoThrow = policy<pole_error<ignore_error>, overflow_error<ignore_error>,
                           domain_error<ignore_error>, evaluation_error<ignore_error>>;
    if (std::isnan(x)) return x;
    if (x == std::numeric_limits<double>::infinity()) return x;
    return boost::math::digamma(x, NoThrow());
}

// Every model's logPosterior returns through here. At extreme unconstrained points (exp
// overflowing to inf, 0 * inf, inf - inf) the value or gradient can be NaN or infinite;
// such a point has no usable density, so it is reported as log density -inf with a zero
// gradient, which NUTS treats as a divergence and never accepts.
inline double guardedLogDensity(double lp, Eigen::VectorXd& grad) {
    if (std::isnan(lp) || lp == std::numeric_limits<double>::infinity() ||
        (std::isfinite(lp) && !grad.allFinite())) {
        grad.setZero();
        return -std::numeric_limits<double>::infinity();
    }
    if (!std::isfinite(lp)) grad.setZero();
    return lp;
}

// alpha_i * v_i with an exact 0 where alpha_i == 0, so a record with weight 0 drops out
// even where its log density is infinite (0 * inf would poison the sum with NaN).
template <typename A, typename V>
auto weighted(const A& alpha, const V& v) {
    return (alpha.array() == 0.0).select(0.0, alpha.array() * v.array());
}

// lgamma(y_i + 1) per record: the log y! normalizing constant of the count families.
inline Eigen::VectorXd logFactorials(const Eigen::VectorXd& y) {
    Eigen::VectorXd out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) out(i) = logGamma(y(i) + 1.0);
    return out;
}

// Summary statistics used for initial points.
inline double sampleMean(const Eigen::VectorXd& y) {
    return y.size() > 0 ? vectorMean(y) : 0.0;
}
inline double sampleSd(const Eigen::VectorXd& y) {
    return y.size() < 2 ? 1.0 : std::sqrt(vectorVariance(y));
}

}  // namespace ppsynth::models::detail
