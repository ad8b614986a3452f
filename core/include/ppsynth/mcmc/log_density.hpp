// What a gradient-based sampler needs from a target: its dimension and the log density
// with gradient on an unconstrained space. Implementations are called concurrently from
// several chains, so evaluate() must be const and thread-safe (no shared scratch).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <functional>
#include <limits>

#include "ppsynth/common/rng.hpp"

namespace ppsynth::mcmc {

// What one iteration of a chain is. Nuts: a NUTS transition followed by the target's
// exactMove. Gibbs: the target's gibbsSweep alone; nothing is adapted, the first half of
// the warm-up anneals (gibbsSweep's anneal rises linearly to 1), the rest is burn-in at the
// target, and each draw's tree statistics are empty (depth 0, no leapfrog steps,
// energy NaN, so E-BFMI is not computed).
enum class Kernel { Nuts, Gibbs };

// Asked between the blocks of a long computation; true means stop (cancelled).
using StopCheck = std::function<bool()>;

class LogDensity {
  public:
    virtual ~LogDensity() = default;
    virtual std::size_t dimension() const = 0;
    // log density (up to a constant) at q; writes its gradient into grad (resized by caller
    // to dimension()). Returns -infinity or NaN outside the support; samplers treat that as
    // a divergence, never as an error.
    virtual double evaluate(const Eigen::VectorXd& q, Eigen::VectorXd& grad) const = 0;
    // An optional second Markov kernel the sampler applies after every transition (warm-up
    // and sampling), e.g. a Metropolis move from a conditional prior that NUTS's fixed
    // metric serves badly. It must leave this density invariant and keep q inside its
    // support; returns true when it changed q. The default does nothing and draws nothing
    // from rng, so targets without one sample exactly as before.
    virtual bool exactMove(Eigen::VectorXd& /*q*/, Rng& /*rng*/) const { return false; }
    // An optional sampler of its own (Kernel::Gibbs): one sweep that leaves this density
    // invariant and, repeated, reaches every part of it (every coordinate moves), e.g. a
    // blocked Gibbs sampler. A long sweep polls stop (may be empty) between its blocks and
    // returns early, q still a valid state, when it says so. anneal in (0, 1] is 1 except in
    // warm-up, where a sweep may target an easier relative of this density that reaches it
    // at 1 (a weighted posterior: its weights only partly applied). Returns false when the
    // target has no sweep (the default).
    virtual bool gibbsSweep(Eigen::VectorXd& /*q*/, Rng& /*rng*/, const StopCheck& /*stop*/,
                            double /*anneal*/) const {
        return false;
    }
    // Parallel tempering (SamplerOptions::tempering): one sweep, as gibbsSweep with the same
    // anneal, of the tempered relative whose likelihood part (temperedLogLik) is raised to
    // the power t in (0, 1], the prior untouched; t = 1 is gibbsSweep. False when the target
    // has none (the default).
    virtual bool temperedSweep(Eigen::VectorXd& /*q*/, Rng& /*rng*/, const StopCheck& /*stop*/,
                               double /*anneal*/, double /*t*/) const {
        return false;
    }
    // The likelihood part t multiplies, at q and anneal: -infinity outside its support.
    virtual double temperedLogLik(const Eigen::VectorXd& /*q*/, double /*anneal*/) const {
        return std::numeric_limits<double>::quiet_NaN();
    }
    // Coordinates NUTS must not move in the transition starting at q: set movable(j) = 0
    // (it arrives all ones). NUTS then samples the conditional of the others given them, which
    // is exact only if the choice depends on nothing but the coordinates held (they do not
    // change during the transition); exactMove must move them. The default holds none.
    virtual void holdFixed(const Eigen::VectorXd& /*q*/, Eigen::VectorXd& /*movable*/) const {}
    // Called when a warm-up window closes, with the window's mean and its sample variances
    // (one per coordinate) before they are regularized into the diagonal metric. A target
    // whose coordinates come in exchangeable groups (a mixture's components, which trade
    // labels and switch between occupied and empty) may pool them so the metric suits the
    // typical member rather than whichever state each happened to be in. Any positive metric
    // leaves NUTS exact; the default keeps the estimates.
    virtual void poolMetric(const Eigen::VectorXd& /*windowMean*/,
                            Eigen::VectorXd& /*variance*/) const {}
};

}  // namespace ppsynth::mcmc
