// The synthesizer model interface (METHOD.md section 1). A model owns its data (design
// matrix X and transformed y) and priors; the record weights alpha are given per call so
// one fitted model serves every weighting scheme. A new model is one file implementing
// this interface plus its tests.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/mcmc/log_density.hpp"

namespace ppsynth::models {

class Model {
  public:
    virtual ~Model() = default;

    virtual std::string family() const = 0;  // "poisson", "negbin", "normal", ...
    virtual std::size_t recordCount() const = 0;
    // Unconstrained parameter dimension (what the sampler moves in).
    virtual std::size_t dimension() const = 0;
    // Names of the reported (constrained) parameters, in the order constrain() returns them.
    virtual std::vector<std::string> parameterNames() const = 0;
    virtual Eigen::VectorXd constrain(const Eigen::VectorXd& q) const = 0;

    // Weighted log pseudo posterior on the unconstrained scale, Jacobians included:
    // sum_i alpha_i log p(y_i | x_i, theta) + log prior(theta) + log |J|. Writes the gradient.
    virtual double logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                Eigen::VectorXd& grad) const = 0;
    // out_i = log p(y_i | x_i, theta(q)) with every normalizing constant; out has n entries.
    virtual void recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const = 0;
    // One posterior predictive draw y*_i ~ p(. | x_i, theta(q)) per record (transformed scale).
    virtual void predict(const Eigen::VectorXd& q, Rng& rng,
                         Eigen::Ref<Eigen::VectorXd> out) const = 0;
    // A sensible starting point on the unconstrained scale, jittered by rng.
    virtual Eigen::VectorXd initialPoint(Rng& rng) const = 0;

    // Label-invariant summaries of one draw (mixture diagnostics: R-hat on these is
    // meaningful where per-component parameters switch labels).
    // E[y_i | x_i, theta(q)] averaged over the records, on the transformed scale.
    virtual double meanPrediction(const Eigen::VectorXd& q) const = 0;
    // Optional exact Metropolis moves run after every NUTS transition (see
    // mcmc::LogDensity::exactMove), for the weighted posterior with weights alpha. Must leave
    // that posterior invariant; the default draws nothing.
    virtual bool exactMove(const Eigen::VectorXd& /*alpha*/, Eigen::VectorXd& /*q*/,
                           Rng& /*rng*/) const {
        return false;
    }
    // Optional: one sweep of a sampler of the model's own for the weighted posterior (see
    // mcmc::LogDensity::gibbsSweep); false when it has none (the default).
    virtual bool gibbsSweep(const Eigen::VectorXd& /*alpha*/, Eigen::VectorXd& /*q*/, Rng& /*rng*/,
                            const mcmc::StopCheck& /*stop*/) const {
        return false;
    }
    // The kernel fitModel uses unless the configuration names one; Gibbs only with a sweep.
    virtual mcmc::Kernel preferredKernel() const { return mcmc::Kernel::Nuts; }
    // Optional: coordinates NUTS holds fixed in a transition (see
    // mcmc::LogDensity::holdFixed); only with an exactMove that moves them.
    virtual void holdFixed(const Eigen::VectorXd& /*q*/, Eigen::VectorXd& /*movable*/) const {}
    // Optional: pools the warm-up window's variance estimates over coordinates the model
    // knows to be exchangeable (see mcmc::LogDensity::poolMetric). The default keeps them.
    virtual void poolMetric(const Eigen::VectorXd& /*windowMean*/,
                            Eigen::VectorXd& /*variance*/) const {}

    // sum_i log p(y_i | x_i, theta(q)), unweighted, with every normalizing constant.
    double totalLogLik(const Eigen::VectorXd& q) const {
        Eigen::VectorXd l(static_cast<Eigen::Index>(recordCount()));
        recordLogLik(q, l);
        return l.sum();
    }
};

// Binds a model to a weight vector as a sampler target.
class WeightedPosterior final : public mcmc::LogDensity {
  public:
    WeightedPosterior(const Model& model, Eigen::VectorXd alpha)
        : model_(model), alpha_(std::move(alpha)) {}
    std::size_t dimension() const override { return model_.dimension(); }
    double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const override {
        return model_.logPosterior(q, alpha_, grad);
    }
    bool exactMove(Eigen::VectorXd& q, Rng& rng) const override {
        return model_.exactMove(alpha_, q, rng);
    }
    // Annealed (warm-up): the weights partly applied, alpha_i + (1 - alpha_i) (1 - anneal),
    // so a cold chain first settles where every proposal is an exact conditional draw (every
    // alpha_i at 1) and then follows the target as it sharpens. Why: the mixture's sweep,
    // started cold at alpha = 0.2 on income_survey, kept all 20 components occupied and its
    // weights never moved (0 of 600 proposals accepted). 4 x (1000 + 1000) sweeps there: max
    // R-hat 2.70 without annealing, 1.76 with it, 1.21 with it and the weights' marginal move
    // (detail::marginalWeights).
    bool gibbsSweep(Eigen::VectorXd& q, Rng& rng, const mcmc::StopCheck& stop,
                    double anneal) const override {
        if (anneal >= 1.0) return model_.gibbsSweep(alpha_, q, rng, stop);
        return model_.gibbsSweep(annealed(anneal), q, rng, stop);
    }
    // Tempered: the (annealed) weights times t; the model's sweep is exact for any weights.
    bool temperedSweep(Eigen::VectorXd& q, Rng& rng, const mcmc::StopCheck& stop, double anneal,
                       double t) const override {
        if (t >= 1.0) return gibbsSweep(q, rng, stop, anneal);
        return model_.gibbsSweep(annealed(anneal) * t, q, rng, stop);
    }
    // sum_i w_i log p(y_i | theta(q)) with w the (annealed) weights; records at w_i = 0 are
    // not in the target and add nothing.
    double temperedLogLik(const Eigen::VectorXd& q, double anneal) const override {
        Eigen::VectorXd l(static_cast<Eigen::Index>(model_.recordCount()));
        model_.recordLogLik(q, l);
        const Eigen::VectorXd w = anneal >= 1.0 ? alpha_ : annealed(anneal);
        double sum = 0.0;
        for (Eigen::Index i = 0; i < l.size(); ++i) {
            if (w(i) == 0.0) continue;
            if (!std::isfinite(l(i))) return -std::numeric_limits<double>::infinity();
            sum += w(i) * l(i);
        }
        return sum;
    }
    void poolMetric(const Eigen::VectorXd& windowMean, Eigen::VectorXd& variance) const override {
        model_.poolMetric(windowMean, variance);
    }
    void holdFixed(const Eigen::VectorXd& q, Eigen::VectorXd& movable) const override {
        model_.holdFixed(q, movable);
    }
    const Eigen::VectorXd& weights() const { return alpha_; }

  private:
    Eigen::VectorXd annealed(double anneal) const {
        return (1.0 - (1.0 - alpha_.array()) * std::max(anneal, 0.0)).matrix();
    }
    const Model& model_;
    Eigen::VectorXd alpha_;
};

}  // namespace ppsynth::models
