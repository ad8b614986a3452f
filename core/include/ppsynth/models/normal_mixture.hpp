// Mixture of normal regressions, a truncated Dirichlet process (METHOD.md section 1):
//   p(y_i | theta) = sum_k pi_k Normal(y_i | x_i' beta_k, sigma_k),  k = 1..K,
//   pi ~ Dirichlet(gamma/K, ..., gamma/K), gamma ~ Gamma(gammaShape, gammaRate),
//   beta_kj ~ Normal(0, tau_j) (tau shared over k), sigma_k ~ half-t(sigmaDf, 0, sigmaScale).
// The weight multiplies the record's MARGINAL log likelihood (labels integrated out by a
// row-wise log-sum-exp); the gradient uses the responsibilities.
// q = [vec(B) (p x K, beta_k = column k), log tau (p unless fixed),
//      log sigma_k (K unless fixed), a_1..a_{K-1}, log gamma].
// Simplex: additive log-ratio (softmax with a_K = 0): log pi = a - logsumexp(a), with
// log |J| = sum_k log pi_k. Everything stays in log pi, so components with pi_k far below
// the double range (Dirichlet(gamma/K) puts mass near the edges) remain finite.
#pragma once

#include <atomic>

#include "ppsynth/models/regression_model.hpp"

namespace ppsynth::models {

namespace detail {
class MixtureCache;
struct SplitMergeState;
}  // namespace detail

class NormalMixture final : public RegressionModel {
  public:
    static constexpr int kDefaultComponents = 20;

    NormalMixture(Eigen::MatrixXd X, Eigen::VectorXd y, int components = kDefaultComponents,
                  std::vector<std::string> columnNames = {}, Priors priors = {},
                  bool allowSparse = true, const std::atomic<bool>* cancel = nullptr);

    std::string family() const override { return "normal-mixture"; }
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
    // With tau sampled or fixed: for each component k in turn, (1) redraw (beta_k, sigma_k)
    // from their prior given tau, (2) redraw pi_k's share pi_k / (1 - pi_k) from its
    // Dirichlet conditional (keeping the other weights' proportions), each accepted with
    // the weighted likelihood ratio, (3) redraw that share from a proposal built on the
    // weighted responsibilities, with its Metropolis-Hastings correction. An empty component is
    // thus refreshed every iteration, which NUTS, its metric tuned to occupied components, cannot
    // do. No-op with tau integrated out (the rows couple the components' priors).
    // normal_mixture_moves.cpp.
    bool exactMove(const Eigen::VectorXd& alpha, Eigen::VectorXd& q, Rng& rng) const override;
    // One sweep of the augmented (label) Gibbs sampler, exact for the weighted posterior by a
    // Metropolis-Hastings correction that is 1 when alpha = 1 (normal_mixture_gibbs.cpp):
    // labels from the responsibilities, then each occupied component's beta_k and sigma_k,
    // tau with the empty components, the weights and gamma. False with tau integrated out.
    // Polls stop after the labels and every block (at n = 99,328 a sweep takes ~0.3 s).
    bool gibbsSweep(const Eigen::VectorXd& alpha, Eigen::VectorXd& q, Rng& rng,
                    const mcmc::StopCheck& stop) const override;
    // Gibbs with tau sampled or fixed (the default for K > 1), NUTS with tau integrated out.
    mcmc::Kernel preferredKernel() const override {
        return tauIntegrated() ? mcmc::Kernel::Nuts : mcmc::Kernel::Gibbs;
    }
    // With the moves on, NUTS holds the weights' coordinates (moved only by the moves, so
    // holding a component may depend on them) and every coordinate of a component whose
    // expected record count n pi_k is below kHeldBelowRecords (moved by (1) alone).
    static constexpr double kHeldBelowRecords = 0.5;
    void holdFixed(const Eigen::VectorXd& q, Eigen::VectorXd& movable) const override;
    // Replaces each exchangeable group's window variances (coefficient j over the K
    // components, sigma_k, the weights' coordinates) by their geometric mean weighted by the
    // components' weights at the window mean: NUTS's metric then suits occupied components,
    // not the prior width an empty component had during the window.
    void poolMetric(const Eigen::VectorXd& windowMean, Eigen::VectorXd& variance) const override;

    // log pi (K entries) at q, computed stably from the free coordinates.
    Eigen::VectorXd logWeights(const Eigen::VectorXd& q) const;

    // Split-merge proposals per Gibbs sweep (normal_mixture_split_merge.cpp).
    static constexpr int kSplitMergeTries = 1;

  private:
    // One split-merge proposal on the sweep's extended target; true when accepted.
    bool splitMerge(const Eigen::VectorXd& alpha, detail::SplitMergeState& s, Rng& rng) const;
    // Move (3) for component k (the cache's focus); N = sum of alpha.
    bool shareFromResponsibilities(const Eigen::VectorXd& alpha, double N, Eigen::Index k, double c,
                                   detail::MixtureCache& cache, Rng& rng) const;
    Eigen::Index sigmaOffset() const { return extraOffset(); }
    Eigen::Index sigmaCount() const { return priors_.fixedSigma ? 0 : components(); }
    Eigen::Index simplexOffset() const { return sigmaOffset() + sigmaCount(); }
    Eigen::Index gammaOffset() const { return simplexOffset() + components() - 1; }
    Eigen::VectorXd logSigmas(const Eigen::VectorXd& q) const;
    // For records first .. first + count - 1, K x count each (a record's K values
    // contiguous): Z(k,i) = (y_i - x_i' beta_k) / sigma_k and
    // lp(k,i) = log pi_k + log Normal(y_i | x_i' beta_k, sigma_k) = c_k - Z(k,i)^2 / 2, given
    // Bt = beta' (K x p), invS_k = 1 / sigma_k, c_k = log pi_k - log sigma_k - log sqrt(2 pi).
    void componentLogDensities(const Eigen::MatrixXd& Bt, const Eigen::ArrayXd& invS,
                               const Eigen::ArrayXd& c, Eigen::Index first, Eigen::Index count,
                               Eigen::ArrayXXd& Z, Eigen::ArrayXXd& lp) const;

    // max |x_ij|: bounds every x_i' beta by xMax_ sum_j |beta_j| (the unweighted sweep's
    // test that a prior draw cannot overflow).
    double xMax_ = 0.0;
};

}  // namespace ppsynth::models
