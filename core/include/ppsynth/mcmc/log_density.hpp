// What a gradient-based sampler needs from a target: its dimension and the log density
// with gradient on an unconstrained space. Implementations are called concurrently from
// several chains, so evaluate() must be const and thread-safe (no shared scratch).
#pragma once

#include <Eigen/Core>
#include <cstddef>

namespace ppsynth::mcmc {

class LogDensity {
public:
    virtual ~LogDensity() = default;
    virtual std::size_t dimension() const = 0;
    // log density (up to a constant) at q; writes its gradient into grad (resized by caller
    // to dimension()). Returns -infinity or NaN outside the support; samplers treat that as
    // a divergence, never as an error.
    virtual double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const = 0;
};

}  // namespace ppsynth::mcmc
