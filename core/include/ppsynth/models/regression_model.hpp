// Shared part of the regression families (Poisson, negative binomial, normal, normal
// mixture): the design matrix X (intercept first), the response y, column names, priors,
// and the coefficient block beta ~ Normal(0, tau_j), tau_j ~ half-t, in the common layout
//   q = [ vec(B) (p x K, column k = coefficients of component k; K = 1 for plain
//         regressions), log tau (p; absent when Priors::fixedTau is set), family extras ].
// Centered parameterization (the sampler moves beta itself): beta is well identified by
// the data in the intended uses, and the reported draws are the sampled values.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

namespace detail {
class Design;
}

class RegressionModel : public Model {
  public:
    ~RegressionModel() override;

    std::size_t recordCount() const override { return static_cast<std::size_t>(y_.size()); }
    const Eigen::MatrixXd& design() const;
    const Eigen::VectorXd& response() const { return y_; }
    const Priors& priors() const { return priors_; }
    // True when products with X use the sparse copy (dummy-coded designs).
    bool designIsSparse() const;

  protected:
    // columnNames: one per column of X, or empty for "1".."p". Inputs are assumed valid
    // (makeModel checks them); allowSparse = false forces dense products (benchmarks).
    RegressionModel(Eigen::MatrixXd X, Eigen::VectorXd y, std::vector<std::string> columnNames,
                    Priors priors, Eigen::Index components, bool allowSparse);

    Eigen::Index p() const { return p_; }
    Eigen::Index components() const { return K_; }
    Eigen::Index tauCount() const { return priors_.fixedTau ? 0 : p_; }
    // Offset in q of the first family-specific parameter.
    Eigen::Index extraOffset() const { return p_ * K_ + tauCount(); }

    // "beta[name]" (or "beta[k,name]" when K > 1) then "tau[name]".
    std::vector<std::string> coefficientNames() const;
    // Writes beta then tau (constrained) into the head of out.
    void constrainCoefficients(const Eigen::VectorXd& q, Eigen::VectorXd& out) const;
    // log prior of the coefficient block (Jacobian included); adds its gradient to grad.
    double coefficientLogPrior(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const;
    // Coefficients at a start value: intercept (column 0) = intercept, others 0; log tau
    // so that tau_0 covers the intercept. Jittered by N(0, 0.1) on every coordinate.
    void initialCoefficients(double intercept, Rng& rng, Eigen::VectorXd& q) const;

    std::unique_ptr<const detail::Design> X_;
    Eigen::VectorXd y_;
    std::vector<std::string> columnNames_;
    Priors priors_;

  private:
    Eigen::Index p_ = 0;
    Eigen::Index K_ = 1;
};

}  // namespace ppsynth::models
