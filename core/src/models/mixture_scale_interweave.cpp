// The mixture sweep's non-centred draw of the coefficient scales tau (see
// detail::noncentredScales in mixture_gibbs_parts.hpp for what and why).
//
// Column j's coefficients are beta_.j = u_.j tau_j with u held, so changing tau_j by d moves
// each record's K linear predictors by x_ij u_kj d: only the records with x_ij != 0 change
// (few for a dummy column), and for a labelled record i in component k the weighted
// complete-data log density changes by alpha_i (2 e_i x_ij u_kj d - (x_ij u_kj d)^2) /
// (2 sigma_k^2), e_i its residual. Summed: b d - a d^2 / 2, so tau_j's conditional is
// prior(tau_j) exp(b d - a d^2 / 2); the u_kj's N(0, 1) prior does not involve tau_j (the
// Jacobian tau^K of beta = u tau cancels the prior's tau^-K).
#include <cmath>
#include <limits>
#include <vector>

#include "models/design.hpp"
#include "models/log_zero.hpp"
#include "models/mixture_cache.hpp"
#include "models/mixture_gibbs_parts.hpp"
#include "models/prior_terms.hpp"

namespace ppsynth::models::detail {

int noncentredScales(const Design& X, const Eigen::VectorXd& y, const Eigen::VectorXd& alpha,
                     const Labels& labels, const Eigen::VectorXd& logSigma, double tauDf,
                     double tauScale, Eigen::MatrixXd& B, Eigen::VectorXd& tau, MixtureCache& cache,
                     Eigen::ArrayXd& lr, Rng& rng, bool keepCache) {
    const Eigen::Index n = y.size(), p = B.rows(), K = B.cols();
    // Unweighted (every alpha_i 0 or 1) every draw is accepted, so only the labelled
    // component's linear predictor is needed along the way, and every density is recomputed
    // once at the end; fractional weights need each column's new densities for its ratio.
    const bool fractional = ((alpha.array() < 1.0) && (alpha.array() > 0.0)).any();
    Eigen::MatrixXd means;   // n x K linear predictors (fractional only), kept current
    Eigen::VectorXd own(n);  // each labelled record's own component's linear predictor
    if (fractional) X.times(B, means);
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
        own(i) = k < 0 ? 0.0 : fractional ? means(i, k) : X.rowDot(i, B.col(k));
    }
    const Eigen::ArrayXd invSigma = (-logSigma.array()).exp();
    const Eigen::ArrayXd invVar = invSigma.square();
    const Eigen::ArrayXd logPi = cache.logWeights();
    Eigen::ArrayXXd D;
    if (fractional) D = cache.densities();
    std::vector<Eigen::Index> rows;
    Eigen::ArrayXXd Dnext;
    Eigen::ArrayXd lrNext;
    int moved = 0;
    for (Eigen::Index j = 0; j < p; ++j) {
        if (!(tau(j) > 0.0) || !std::isfinite(tau(j))) continue;
        const Eigen::VectorXd u = B.row(j).transpose() / tau(j);
        rows.clear();
        double a = 0.0, b = 0.0;
        X.forEachInColumn(j, [&](Eigen::Index i, double x) {
            rows.push_back(i);
            const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
            if (k < 0) return;
            const double s = alpha(i) * invVar(k) * x * u(k);
            a += s * x * u(k);
            b += s * (y(i) - own(i));
        });
        if (rows.empty()) continue;
        const double t0 = tau(j);
        auto logDensity = [&](double v) {
            const double d = std::exp(v) - t0;
            if (!std::isfinite(d)) return kNegInf;
            return logHalfTOnLog(v, tauDf, tauScale).value + b * d - 0.5 * a * d * d;
        };
        const double next = std::exp(sliceStep(std::log(t0), 1.0, logDensity, rng));
        const double d = next - t0;
        if (!(next > 0.0) || !std::isfinite(next) || d == 0.0) continue;

        if (fractional) {
            // The affected records' densities under every component and the ratio on the
            // extended target.
            const auto m = static_cast<Eigen::Index>(rows.size());
            Dnext.resize(m, K);
            lrNext.resize(m);
            double logRatio = 0.0;
            for (Eigen::Index r = 0; r < m; ++r) {
                const Eigen::Index i = rows[static_cast<std::size_t>(r)];
                const double x = X.dense()(i, j);
                for (Eigen::Index k = 0; k < K; ++k) {
                    // As normalLogDensities, so every block's densities round alike.
                    const double z = (y(i) - means(i, k) - x * u(k) * d) * invSigma(k);
                    Dnext(r, k) = -kLogSqrt2Pi - logSigma(k) - 0.5 * z * z;
                }
                const Eigen::Index zi = labels.z[static_cast<std::size_t>(i)];
                if (zi < 0 || alpha(i) >= 1.0) continue;
                const double top = (logPi + Dnext.row(r).transpose()).maxCoeff();
                double sum = 0.0;
                for (Eigen::Index k = 0; k < K; ++k) {
                    const double t = logPi(k) + Dnext(r, k) - top;
                    if (t > -kNegligibleLog) sum += std::exp(t);  // mostly empty components
                }
                lrNext(r) = logPi(zi) + Dnext(r, zi) - (top + std::log(sum));
                logRatio += (1.0 - alpha(i)) * (lrNext(r) - lr(i));
            }
            if (!acceptLog(logRatio, rng)) continue;
            for (Eigen::Index r = 0; r < m; ++r) {
                const Eigen::Index i = rows[static_cast<std::size_t>(r)];
                const double x = X.dense()(i, j);
                for (Eigen::Index k = 0; k < K; ++k) means(i, k) += x * u(k) * d;
                D.row(i) = Dnext.row(r);
                const Eigen::Index zi = labels.z[static_cast<std::size_t>(i)];
                if (zi >= 0 && alpha(i) < 1.0) lr(i) = lrNext(r);
            }
        }
        for (const Eigen::Index i : rows) {
            const Eigen::Index k = labels.z[static_cast<std::size_t>(i)];
            if (k >= 0) own(i) += X.dense()(i, j) * u(k) * d;
        }
        B.row(j) = (u * next).transpose();
        tau(j) = next;
        ++moved;
    }
    if (moved == 0) return 0;
    if (!fractional && !keepCache) return moved;
    if (!fractional) {
        X.times(B, means);
        D.resize(n, K);
        for (Eigen::Index k = 0; k < K; ++k)
            D.col(k) = normalLogDensities(y, means.col(k), logSigma(k));
    }
    cache = MixtureCache(std::move(D), logPi);
    labelLogResponsibilities(labels, cache, lr);  // every record's, from the new cache
    return moved;
}

}  // namespace ppsynth::models::detail
