// Normal regression on the transformed y: y_i ~ Normal(x_i' beta, sigma),
// sigma ~ half-t(sigmaDf, 0, sigmaScale), the common beta/tau prior.
// q = [beta (p), log tau (p unless Priors::fixedTau), log sigma (unless Priors::fixedSigma)].
#pragma once

#include <atomic>

#include "ppsynth/models/regression_model.hpp"

namespace ppsynth::models {

class NormalRegression final : public RegressionModel {
  public:
    NormalRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                     std::vector<std::string> columnNames = {}, Priors priors = {},
                     bool allowSparse = true, const std::atomic<bool>* cancel = nullptr);

    std::string family() const override { return "normal"; }
    std::size_t dimension() const override;
    std::vector<std::string> parameterNames() const override;
    Eigen::VectorXd constrain(const Eigen::VectorXd& q) const override;
    double logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                        Eigen::VectorXd& grad) const override;
    void recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const override;
    void predict(const Eigen::VectorXd& q, Rng& rng,
                 Eigen::Ref<Eigen::VectorXd> out) const override;
    Eigen::VectorXd initialPoint(Rng& rng) const override;
    double meanPrediction(const Eigen::VectorXd& q) const override;

  private:
    double logSigma(const Eigen::VectorXd& q) const;
};

// The exact pseudo posterior of beta when sigma and tau are known:
// beta | y ~ Normal(mean, covariance), precision = X' A X / sigma^2 + I / tau^2,
// mean = covariance X' A y / sigma^2, A = diag(alpha). Used by conjugate validation tests.
struct GaussianPosterior {
    Eigen::VectorXd mean;
    Eigen::MatrixXd covariance;
};
GaussianPosterior normalConjugatePosterior(const Eigen::MatrixXd& X, const Eigen::VectorXd& y,
                                           const Eigen::VectorXd& alpha, double sigma, double tau);

}  // namespace ppsynth::models
