#include "ppsynth/models/regression_model.hpp"

#include <boost/random/normal_distribution.hpp>

#include "models/design.hpp"
#include "models/prior_terms.hpp"

namespace ppsynth::models {

RegressionModel::RegressionModel(Eigen::MatrixXd X, Eigen::VectorXd y,
                                 std::vector<std::string> columnNames, Priors priors,
                                 Eigen::Index components, bool allowSparse)
    : y_(std::move(y)),
      columnNames_(std::move(columnNames)),
      priors_(std::move(priors)),
      p_(X.cols()),
      K_(components) {
    X_ = std::make_unique<const detail::Design>(std::move(X), allowSparse);
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

void RegressionModel::constrainCoefficients(const Eigen::VectorXd& q, Eigen::VectorXd& out) const {
    const Eigen::Index nb = p_ * K_;
    out.head(nb) = q.head(nb);
    if (!priors_.fixedTau) out.segment(nb, p_) = q.segment(nb, p_).array().exp().matrix();
}

double RegressionModel::coefficientLogPrior(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const {
    const detail::CoefficientPrior prior{priors_.tauDf, priors_.tauScale, priors_.fixedTau};
    const Eigen::Map<const Eigen::MatrixXd> B(q.data(), p_, K_);
    Eigen::Map<Eigen::MatrixXd> gB(grad.data(), p_, K_);
    const Eigen::Index nb = p_ * K_;
    if (priors_.fixedTau) {
        Eigen::VectorXd none;
        return prior.evaluate(B, none, gB, none);
    }
    auto gTau = grad.segment(nb, p_);
    return prior.evaluate(B, q.segment(nb, p_), gB, gTau);
}

void RegressionModel::initialCoefficients(double intercept, Rng& rng, Eigen::VectorXd& q) const {
    boost::random::normal_distribution<double> jitter(0.0, 0.1);
    const Eigen::Index nb = p_ * K_;
    for (Eigen::Index k = 0; k < K_; ++k)
        for (Eigen::Index j = 0; j < p_; ++j)
            q(k * p_ + j) = (j == 0 ? intercept : 0.0) + jitter(rng);
    if (!priors_.fixedTau)
        for (Eigen::Index j = 0; j < p_; ++j)
            q(nb + j) = (j == 0 ? std::log(std::max(1.0, std::abs(intercept))) : 0.0) + jitter(rng);
}

}  // namespace ppsynth::models
