// Negative binomial (NB2) regression: y_i ~ NB(mean mu_i = exp(x_i' beta), size phi),
// Var = mu + mu^2 / phi; inv_phi = 1/phi ~ half-Cauchy(0, Priors::invPhiScale); the
// common beta/tau prior. q = [beta (p), log tau (p), log inv_phi]; reported: beta, tau, phi.
// The lgamma/digamma terms depend on y only through its distinct values, which counts
// repeat a lot: they are computed once per distinct value and weighted by the summed alphas.
#pragma once

#include <atomic>

#include "ppsynth/models/regression_model.hpp"

namespace ppsynth::models {

namespace detail {
class RecordGroups;
}

class NegBinRegression final : public RegressionModel {
  public:
    // y: non-negative integers (checked by makeModel).
    NegBinRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                     std::vector<std::string> columnNames = {}, Priors priors = {},
                     bool allowSparse = true, const std::atomic<bool>* cancel = nullptr);
    ~NegBinRegression() override;

    std::string family() const override { return "negbin"; }
    std::size_t dimension() const override { return static_cast<std::size_t>(extraOffset() + 1); }
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
    Eigen::VectorXd lfact_;            // lgamma(y_i + 1)
    Eigen::VectorXd distinct_;         // distinct values of y
    std::vector<Eigen::Index> which_;  // y_i = distinct_(which_[i])
    // logPosterior's records: the distinct (x_i, y_i) pairs when there are few of them.
    std::unique_ptr<const detail::RecordGroups> groups_;
    Eigen::VectorXd evalLfact_;
    std::vector<Eigen::Index> evalWhich_;
};

}  // namespace ppsynth::models
