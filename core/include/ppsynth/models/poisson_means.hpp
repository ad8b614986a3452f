// Poisson means: y_i ~ Poisson(mu), mu ~ Gamma(shape, rate) (Priors::meanShape/meanRate).
// Conjugate: the weighted pseudo posterior is Gamma(shape + sum alpha_i y_i,
// rate + sum alpha_i), so fits draw exactly (drawExact) and need no MCMC. The Model
// interface is also provided, on q = (log mu) with its Jacobian, so gradient samplers and
// the generic tests treat this family like the others. X is not used (intercept only).
#pragma once

#include <cmath>

#include "ppsynth/models/model.hpp"
#include "ppsynth/models/priors.hpp"

namespace ppsynth::models {

struct GammaPosterior {
    double shape = 0.0;
    double rate = 0.0;  // mean shape / rate
};

class PoissonMeans final : public Model {
  public:
    // y: non-negative integers (checked by makeModel).
    explicit PoissonMeans(Eigen::VectorXd y, Priors priors = {});

    // Gamma parameters of the pseudo posterior of mu under weights alpha.
    GammaPosterior conjugatePosterior(const Eigen::VectorXd& alpha) const;
    // S independent exact draws of mu from that posterior (the q-scale draw is log mu).
    Eigen::VectorXd drawExact(const Eigen::VectorXd& alpha, std::size_t S, Rng& rng) const;

    std::string family() const override { return "poisson-means"; }
    std::size_t recordCount() const override { return static_cast<std::size_t>(y_.size()); }
    std::size_t dimension() const override { return 1; }
    std::vector<std::string> parameterNames() const override { return {"mu"}; }
    Eigen::VectorXd constrain(const Eigen::VectorXd& q) const override;
    double logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                        Eigen::VectorXd& grad) const override;
    void recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const override;
    void predict(const Eigen::VectorXd& q, Rng& rng,
                 Eigen::Ref<Eigen::VectorXd> out) const override;
    Eigen::VectorXd initialPoint(Rng& rng) const override;
    double meanPrediction(const Eigen::VectorXd& q) const override { return std::exp(q(0)); }

  private:
    Eigen::VectorXd y_;
    Eigen::VectorXd lfact_;  // lgamma(y_i + 1)
    Priors priors_;
};

}  // namespace ppsynth::models
