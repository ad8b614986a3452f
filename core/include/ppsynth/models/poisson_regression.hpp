// Poisson regression: y_i ~ Poisson(exp(x_i' beta)), beta_j ~ Normal(0, tau_j),
// tau_j ~ half-t(3, 0, 1). q = [beta (p), log tau (p)].
#pragma once

#include <atomic>

#include "ppsynth/models/regression_model.hpp"

namespace ppsynth::models {

namespace detail {
class RecordGroups;
}

class PoissonRegression final : public RegressionModel {
  public:
    // y: non-negative integers (checked by makeModel).
    PoissonRegression(Eigen::MatrixXd X, Eigen::VectorXd y,
                      std::vector<std::string> columnNames = {}, Priors priors = {},
                      bool allowSparse = true, const std::atomic<bool>* cancel = nullptr);
    ~PoissonRegression() override;

    std::string family() const override { return "poisson"; }
    std::size_t dimension() const override { return static_cast<std::size_t>(extraOffset()); }
    std::vector<std::string> parameterNames() const override { return coefficientNames(); }
    Eigen::VectorXd constrain(const Eigen::VectorXd& q) const override;
    double logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                        Eigen::VectorXd& grad) const override;
    void recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const override;
    void predict(const Eigen::VectorXd& q, Rng& rng,
                 Eigen::Ref<Eigen::VectorXd> out) const override;
    Eigen::VectorXd initialPoint(Rng& rng) const override;
    double meanPrediction(const Eigen::VectorXd& q) const override;

  private:
    Eigen::VectorXd lfact_;  // lgamma(y_i + 1)
    // logPosterior's records: the distinct (x_i, y_i) pairs when there are few of them.
    std::unique_ptr<const detail::RecordGroups> groups_;
    Eigen::VectorXd evalLfact_;
};

}  // namespace ppsynth::models
