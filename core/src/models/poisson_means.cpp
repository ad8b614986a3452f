#include "ppsynth/models/poisson_means.hpp"

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cassert>

#include "models/count_draws.hpp"
#include "models/prior_terms.hpp"

namespace ppsynth::models {

PoissonMeans::PoissonMeans(Eigen::VectorXd y, Priors priors)
    : y_(std::move(y)), priors_(std::move(priors)) {
    lfact_ = detail::logFactorials(y_);
}

GammaPosterior PoissonMeans::conjugatePosterior(const Eigen::VectorXd& alpha) const {
    assert(alpha.size() == y_.size());
    return {priors_.meanShape + alpha.dot(y_), priors_.meanRate + alpha.sum()};
}

Eigen::VectorXd PoissonMeans::drawExact(const Eigen::VectorXd& alpha, std::size_t S,
                                        Rng& rng) const {
    const GammaPosterior post = conjugatePosterior(alpha);
    boost::random::gamma_distribution<double> g(post.shape, 1.0 / post.rate);
    Eigen::VectorXd mu(static_cast<Eigen::Index>(S));
    for (Eigen::Index s = 0; s < mu.size(); ++s) mu(s) = g(rng);
    return mu;
}

Eigen::VectorXd PoissonMeans::constrain(const Eigen::VectorXd& q) const {
    return q.array().exp().matrix();
}

double PoissonMeans::logPosterior(const Eigen::VectorXd& q, const Eigen::VectorXd& alpha,
                                  Eigen::VectorXd& grad) const {
    assert(alpha.size() == y_.size());
    const double u = q(0);
    const double mu = std::exp(u);
    // l_i = y_i u - mu - lgamma(y_i + 1); records with alpha_i = 0 contribute exactly 0.
    const double ll = detail::weighted(alpha, y_.array() * u - mu - lfact_.array()).sum();
    const double sumAy = detail::weighted(alpha, y_).sum();
    const double sumA = alpha.sum();
    const detail::ValueGrad prior = detail::logGammaOnLog(u, priors_.meanShape, priors_.meanRate);
    grad.resize(1);
    grad(0) = sumAy - sumA * mu + prior.grad;
    return detail::guardedLogDensity(ll + prior.value, grad);
}

void PoissonMeans::recordLogLik(const Eigen::VectorXd& q, Eigen::Ref<Eigen::VectorXd> out) const {
    const double u = q(0);
    out = (y_.array() * u - std::exp(u) - lfact_.array()).matrix();
}

void PoissonMeans::predict(const Eigen::VectorXd& q, Rng& rng,
                           Eigen::Ref<Eigen::VectorXd> out) const {
    const double mu = std::exp(q(0));
    for (Eigen::Index i = 0; i < out.size(); ++i) out(i) = detail::drawPoisson(mu, rng);
}

Eigen::VectorXd PoissonMeans::initialPoint(Rng& rng) const {
    boost::random::normal_distribution<double> jitter(0.0, 0.1);
    Eigen::VectorXd q(1);
    q(0) = std::log(std::max(detail::sampleMean(y_), 0.1)) + jitter(rng);
    return q;
}

}  // namespace ppsynth::models
