#include "ppsynth/models/regression_model.hpp"

#include <bit>
#include <boost/random/normal_distribution.hpp>

#include "models/design.hpp"
#include "models/integrated_tau.hpp"
#include "models/prior_terms.hpp"
#include "ppsynth/common/cancel.hpp"

namespace ppsynth::models {

RegressionModel::RegressionModel(Eigen::MatrixXd X, Eigen::VectorXd y,
                                 std::vector<std::string> columnNames, Priors priors,
                                 Eigen::Index components, bool allowSparse,
                                 const std::atomic<bool>* cancel)
    : y_(std::move(y)),
      columnNames_(std::move(columnNames)),
      priors_(std::move(priors)),
      p_(X.cols()),
      K_(components) {
    nonCentred_.assign(static_cast<std::size_t>(p_), false);
    const bool integrate = priors_.tau == TauForm::Integrated ||
                           (priors_.tau == TauForm::Automatic && components == 1);
    if (!priors_.fixedTau && integrate)
        integrated_ = detail::integratedTau(priors_.tauDf, priors_.tauScale, static_cast<int>(K_));
    if (tauSampled() && !priors_.centeredCoefficients)
        for (Eigen::Index j = 1; j < p_; ++j) {
            if (j % kColumnsPerPoll == 0 && stopRequested(cancel)) break;
            nonCentred_[static_cast<std::size_t>(j)] =
                (X.col(j).array() != 0.0).count() < kNonCentredBelow;
        }
    X_ = std::make_unique<const detail::Design>(std::move(X), allowSparse, cancel);
    if (columnNames_.size() != static_cast<std::size_t>(p_)) {
        columnNames_.clear();
        for (Eigen::Index j = 0; j < p_; ++j) columnNames_.push_back(std::to_string(j + 1));
    }
}

RegressionModel::~RegressionModel() = default;

const Eigen::MatrixXd& RegressionModel::design() const {
    return X_->dense();
}
bool RegressionModel::designIsSparse() const {
    return X_->isSparse();
}

std::vector<std::string> RegressionModel::coefficientNames() const {
    std::vector<std::string> names;
    for (Eigen::Index k = 0; k < K_; ++k)
        for (const auto& c : columnNames_)
            names.push_back(K_ == 1 ? "beta[" + c + "]"
                                    : "beta[" + std::to_string(k + 1) + "," + c + "]");
    if (!priors_.fixedTau)
        for (const auto& c : columnNames_) names.push_back("tau[" + c + "]");
    return names;
}

Eigen::MatrixXd RegressionModel::coefficients(const Eigen::VectorXd& q) const {
    Eigen::MatrixXd B = Eigen::Map<const Eigen::MatrixXd>(q.data(), p_, K_);
    if (integrated_) {
        // beta_j = T(||w_j||) w_j / ||w_j|| (T(rho) / rho -> 0 as rho -> 0).
        for (Eigen::Index j = 0; j < p_; ++j) {
            const double rho = B.row(j).norm();
            B.row(j) *= rho > 0.0 ? integrated_->radius(rho).value / rho : 0.0;
        }
        return B;
    }
    const Eigen::Index nb = p_ * K_;
    for (Eigen::Index j = 0; j < p_; ++j)
        if (nonCentred(j)) B.row(j) *= std::exp(q(nb + j));
    return B;
}

void RegressionModel::constrainCoefficients(const Eigen::VectorXd& q, Eigen::VectorXd& out) const {
    const Eigen::Index nb = p_ * K_;
    const Eigen::MatrixXd B = coefficients(q);
    out.head(nb) = B.reshaped();
    if (tauSampled()) out.segment(nb, p_) = q.segment(nb, p_).array().exp().matrix();
    if (!integrated_) return;
    // The stream seed mixes the row's r2 bits with the column: a continuous beta_j never
    // repeats between distinct draws, and a repeated state reports the same tau.
    for (Eigen::Index j = 0; j < p_; ++j) {
        const double r2 = B.row(j).squaredNorm();
        const std::uint64_t seed =
            mix64(std::bit_cast<std::uint64_t>(r2) ^ mix64(static_cast<std::uint64_t>(j)));
        out(nb + j) = integrated_->drawTau(r2, seed);
    }
}

// beta_kj ~ Normal(0, tau_j), tau_j = exp(u_j) ~ half-t(df, 0, scale) with its Jacobian.
// Centred row: log N(beta_kj | 0, tau_j) summed over k. Non-centred row: z_kj ~ N(0, 1),
// since N(tau z | 0, tau) times the Jacobian tau of z -> beta is N(z | 0, 1); the likelihood
// gradient becomes dl/dz = tau dl/dbeta and adds dl/du = sum_k beta_kj dl/dbeta_kj.
double RegressionModel::coefficientLogPrior(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const {
    const Eigen::Map<const Eigen::MatrixXd> Q(q.data(), p_, K_);
    Eigen::Map<Eigen::MatrixXd> gQ(grad.data(), p_, K_);
    const Eigen::Index nb = p_ * K_;
    const auto K = static_cast<double>(K_);
    double lp = 0.0;
    for (Eigen::Index j = 0; j < p_; ++j) {
        const double ss = Q.row(j).squaredNorm();
        if (integrated_) {
            // Row j of Q is w_j ~ Normal(0, I); the chain rule through the radial map
            // beta_j = s w_j, s = T(rho) / rho: dbeta/dw = s I + (T'(rho) - s) u u', u = w / rho.
            const double rho = std::sqrt(ss);
            lp += -K * detail::kLogSqrt2Pi - 0.5 * ss;
            if (rho > 0.0) {
                const auto map = integrated_->radius(rho);
                const double sc = map.value / rho;
                const double along = gQ.row(j).dot(Q.row(j)) / ss;  // (u . g) / rho
                gQ.row(j) = sc * gQ.row(j) + (map.slope - sc) * along * Q.row(j);
            } else {
                gQ.row(j).setZero();
            }
            gQ.row(j) -= Q.row(j);
            continue;
        }
        if (priors_.fixedTau) {
            const double tau = *priors_.fixedTau;
            const double inv2 = 1.0 / (tau * tau);
            lp += -K * (detail::kLogSqrt2Pi + std::log(tau)) - 0.5 * ss * inv2;
            gQ.row(j) -= Q.row(j) * inv2;
            continue;
        }
        const double u = q(nb + j);
        const detail::ValueGrad h = detail::logHalfTOnLog(u, priors_.tauDf, priors_.tauScale);
        lp += h.value;
        grad(nb + j) += h.grad;
        if (nonCentred(j)) {
            const double tau = std::exp(u);
            grad(nb + j) += tau * gQ.row(j).dot(Q.row(j));
            gQ.row(j) = gQ.row(j) * tau - Q.row(j);
            lp += -K * detail::kLogSqrt2Pi - 0.5 * ss;
        } else {
            const double inv2 = std::exp(-2.0 * u);
            lp += -K * (detail::kLogSqrt2Pi + u) - 0.5 * ss * inv2;
            gQ.row(j) -= Q.row(j) * inv2;
            grad(nb + j) += -K + ss * inv2;
        }
    }
    return lp;
}

// Start values are chosen on the beta scale and then mapped to q (z = beta / tau).
void RegressionModel::initialCoefficients(const Eigen::VectorXd& intercepts, Rng& rng,
                                          Eigen::VectorXd& q) const {
    boost::random::normal_distribution<double> jitter(0.0, 0.1);
    const Eigen::Index nb = p_ * K_;
    const double scale = std::max(1.0, intercepts.cwiseAbs().maxCoeff());
    if (tauSampled())
        for (Eigen::Index j = 0; j < p_; ++j)
            q(nb + j) = (j == 0 ? std::log(scale) : 0.0) + jitter(rng);
    for (Eigen::Index k = 0; k < K_; ++k)
        for (Eigen::Index j = 0; j < p_; ++j) {
            const double beta = (j == 0 ? intercepts(k) : 0.0) + jitter(rng);
            q(k * p_ + j) = nonCentred(j) ? beta * std::exp(-q(nb + j)) : beta;
        }
    if (!integrated_) return;
    // The start values above are beta; map each row back to w (radius T^-1(||beta_j||)).
    Eigen::Map<Eigen::MatrixXd> Q(q.data(), p_, K_);
    for (Eigen::Index j = 0; j < p_; ++j) {
        const double r = Q.row(j).norm();
        if (r > 0.0) Q.row(j) *= integrated_->inverseRadius(r) / r;
    }
}

bool RegressionModel::drawCoefficientColumn(Eigen::Index k, Rng& rng, Eigen::VectorXd& q) const {
    if (integrated_) return false;
    boost::random::normal_distribution<double> z(0.0, 1.0);
    const Eigen::Index nb = p_ * K_;
    for (Eigen::Index j = 0; j < p_; ++j) {
        const double scale = priors_.fixedTau ? *priors_.fixedTau
                             : nonCentred(j)  ? 1.0
                                              : std::exp(q(nb + j));
        q(k * p_ + j) = scale * z(rng);
    }
    return true;
}

}  // namespace ppsynth::models
