// Shared part of the regression families (Poisson, negative binomial, normal, normal
// mixture): the design matrix X (intercept first), the response y, column names, priors,
// and the coefficient block beta ~ Normal(0, tau_j), tau_j ~ half-t, in the common layout
//   q = [ vec(Q) (p x K, column k = coefficients of component k; K = 1 for plain
//         regressions), log tau (p; only when tau is sampled), family extras ].
// With tau integrated out (Priors::tau; the default for K = 1) row j of Q is w_j ~ Normal(0, I)
// and beta_j = T(||w_j||) w_j / ||w_j|| has the marginal prior (detail::IntegratedTau). With tau
// sampled, row j of Q is beta_j itself (centred) or z_j with beta_j = tau_j z_j (non-centred, for
// columns with few nonzero entries). Every form targets the same posterior; coefficients(q) gives
// beta, and every family computes its likelihood gradient with respect to beta and lets
// coefficientLogPrior apply the chain rule, so the parameterization lives in this one class.
// Reported draws (constrain) are
//   [ vec(beta), tau (p, unless Priors::fixedTau), family extras ]
// whatever the form, so the extras sit at reportedExtraOffset() there.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

namespace detail {
class Design;
class IntegratedTau;
}  // namespace detail

class RegressionModel : public Model {
  public:
    // Columns (other than the intercept) with fewer nonzero entries than this are sampled
    // non-centred (see Priors::centeredCoefficients).
    static constexpr Eigen::Index kNonCentredBelow = 100;

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
    // cancel is polled while X is scanned; once it is set the object may be incomplete and
    // must be discarded (makeModel does).
    RegressionModel(Eigen::MatrixXd X, Eigen::VectorXd y, std::vector<std::string> columnNames,
                    Priors priors, Eigen::Index components, bool allowSparse,
                    const std::atomic<bool>* cancel = nullptr);

    Eigen::Index p() const { return p_; }
    Eigen::Index components() const { return K_; }
    // log tau coordinates in q.
    Eigen::Index tauCount() const { return tauSampled() ? p_ : 0; }
    // Offset in q of the first family-specific parameter.
    Eigen::Index extraOffset() const { return p_ * K_ + tauCount(); }
    // Offset of the first family-specific parameter in constrain()'s output.
    Eigen::Index reportedExtraOffset() const { return p_ * K_ + (priors_.fixedTau ? 0 : p_); }

    // True when row j of Q holds z_j (beta_j = tau_j z_j) rather than beta_j.
    bool nonCentred(Eigen::Index j) const { return nonCentred_[static_cast<std::size_t>(j)]; }
    // beta (p x K) at q.
    Eigen::MatrixXd coefficients(const Eigen::VectorXd& q) const;
    // "beta[name]" (or "beta[k,name]" when K > 1) then "tau[name]".
    std::vector<std::string> coefficientNames() const;
    // Writes beta then tau (constrained) into the head of out. With tau integrated out,
    // tau_j is an exact draw from p(tau_j | beta_j) seeded by beta_j's bits: constrain stays
    // a function of q (the same draw reports the same tau everywhere).
    void constrainCoefficients(const Eigen::VectorXd& q, Eigen::VectorXd& out) const;
    // On entry the head p*K entries of grad hold d(log likelihood)/d(beta) (p x K, column
    // major). Turns them into the gradient with respect to q's coefficient block (chain rule
    // through beta = tau z for non-centred rows) and adds the log prior of the block
    // (Jacobian included) and its gradient; returns the log prior.
    double coefficientLogPrior(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const;
    // Coefficients at a start value: intercepts (column 0, one per component) as given,
    // others 0; log tau so that tau_0 covers the intercept. Jittered by N(0, 0.1) on every
    // unconstrained coordinate.
    void initialCoefficients(const Eigen::VectorXd& intercepts, Rng& rng, Eigen::VectorXd& q) const;
    bool tauIntegrated() const { return integrated_ != nullptr; }
    // Redraws q's coefficient column k (component k) from its prior given tau: centred rows
    // beta_kj ~ Normal(0, tau_j), non-centred rows z_kj ~ Normal(0, 1). False (q untouched)
    // when tau is integrated out: there a row's prior couples the K components.
    bool drawCoefficientColumn(Eigen::Index k, Rng& rng, Eigen::VectorXd& q) const;

    std::unique_ptr<const detail::Design> X_;
    Eigen::VectorXd y_;
    std::vector<std::string> columnNames_;
    Priors priors_;

  private:
    bool tauSampled() const { return !priors_.fixedTau && !integrated_; }

    Eigen::Index p_ = 0;
    Eigen::Index K_ = 1;
    std::vector<bool> nonCentred_;                             // per column
    std::shared_ptr<const detail::IntegratedTau> integrated_;  // set when tau is integrated out
};

}  // namespace ppsynth::models
