// Log prior densities shared by the models, on the unconstrained (log) scale of positive
// parameters, with every normalizing constant and the log Jacobian of the exp transform,
// so logPosterior values of different families are comparable (and the K = 1 mixture
// equals the normal regression exactly). Private to core/src/models.
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <numbers>
#include <optional>

namespace ppsynth::models::detail {

inline constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // 0.5 log(2 pi)

// A log density value and its derivative with respect to the unconstrained argument.
struct ValueGrad {
    double value = 0.0;
    double grad = 0.0;
};

// tau = exp(u), tau ~ half-Student-t(df, 0, scale): log p(tau) + u and d/du.
inline ValueGrad logHalfTOnLog(double u, double df, double scale) {
    const double t = std::exp(u) / scale;
    const double t2 = t * t;
    const double logConst = std::log(2.0) + std::lgamma(0.5 * (df + 1.0)) - std::lgamma(0.5 * df) -
                            0.5 * std::log(df * std::numbers::pi) - std::log(scale);
    ValueGrad r;
    r.value = logConst - 0.5 * (df + 1.0) * std::log1p(t2 / df) + u;
    r.grad = 1.0 - (df + 1.0) * t2 / (df + t2);
    return r;
}

// x = exp(u), x ~ Gamma(shape, rate): log p(x) + u and d/du.
inline ValueGrad logGammaOnLog(double u, double shape, double rate) {
    const double x = std::exp(u);
    ValueGrad r;
    r.value = shape * std::log(rate) - std::lgamma(shape) + shape * u - rate * x;
    r.grad = shape - rate * x;
    return r;
}

// Coefficient block: beta_kj ~ Normal(0, tau_j) for k = 1..K columns of the p x K matrix B,
// tau_j = exp(logTau_j) ~ half-t(df, 0, scale) (or all tau_j = fixedTau, logTau empty).
// Returns the log density (Jacobian included) and adds its gradient to gB and gLogTau.
// Centered parameterization: the sampler moves beta itself (documented in the model
// headers); beta is well identified by the data in the intended uses.
struct CoefficientPrior {
    double df = 3.0;
    double scale = 1.0;
    std::optional<double> fixedTau;

    template <typename MB, typename VT, typename GB, typename GT>
    double evaluate(const MB& B, const VT& logTau, GB&& gB, GT&& gLogTau) const {
        const Eigen::Index p = B.rows();
        const auto K = static_cast<double>(B.cols());
        double lp = 0.0;
        for (Eigen::Index j = 0; j < p; ++j) {
            const double ss = B.row(j).squaredNorm();
            if (fixedTau) {
                const double inv2 = 1.0 / (*fixedTau * *fixedTau);
                lp += -K * (kLogSqrt2Pi + std::log(*fixedTau)) - 0.5 * ss * inv2;
                gB.row(j) -= B.row(j) * inv2;
            } else {
                const double u = logTau(j);
                const double inv2 = std::exp(-2.0 * u);
                const ValueGrad h = logHalfTOnLog(u, df, scale);
                lp += -K * (kLogSqrt2Pi + u) - 0.5 * ss * inv2 + h.value;
                gB.row(j) -= B.row(j) * inv2;
                gLogTau(j) += -K + ss * inv2 + h.grad;
            }
        }
        return lp;
    }
};

// alpha_i * v_i with an exact 0 where alpha_i == 0, so a record with weight 0 drops out
// even where its log density is infinite (0 * inf would poison the sum with NaN).
template <typename A, typename V>
auto weighted(const A& alpha, const V& v) {
    return (alpha.array() == 0.0).select(0.0, alpha.array() * v.array());
}

// lgamma(y_i + 1) per record: the log y! normalizing constant of the count families.
inline Eigen::VectorXd logFactorials(const Eigen::VectorXd& y) {
    Eigen::VectorXd out(y.size());
    for (Eigen::Index i = 0; i < y.size(); ++i) out(i) = std::lgamma(y(i) + 1.0);
    return out;
}

// Summary statistics used for initial points.
inline double sampleMean(const Eigen::VectorXd& y) {
    return y.size() > 0 ? y.mean() : 0.0;
}
inline double sampleSd(const Eigen::VectorXd& y) {
    if (y.size() < 2) return 1.0;
    const double m = y.mean();
    return std::sqrt((y.array() - m).square().sum() / static_cast<double>(y.size() - 1));
}

}  // namespace ppsynth::models::detail
