// Parallel tempering for Kernel::Gibbs (SamplerOptions::tempering): the replicas 2..R of one
// chain, their likelihood parts, the ladder t_1 = 1 > t_2 > ... > t_R > 0 and the swaps
// between neighbours. Replica 1 (the target) lives in the chain's own state; the caller
// sweeps it and hands it to swap().
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/mcmc/log_density.hpp"
#include "ppsynth/mcmc/nuts.hpp"

namespace ppsynth::mcmc::detail {

class Tempering {
  public:
    // The replicas start at start's replicas and ladder when their sizes fit, else at q0 and
    // the geometric ladder from 1 to options.hottest.
    Tempering(const LogDensity& target, const TemperingOptions& options, const ChainStart* start,
              const Eigen::VectorXd& q0);
    bool active() const { return ladder_.size() > 1; }

    // One tempered sweep of every replica but the first; an error when the target has no
    // tempered sweep.
    Status sweepOthers(Rng& rng, const StopCheck& stop, double anneal);
    // Swap proposals between neighbours (j, j + 1) for j of this iteration's parity (even and
    // odd pairs alternate), cold being replica 1's state; learn adapts the ladder (warm-up),
    // otherwise the acceptance is recorded. True when cold changed.
    bool swap(Eigen::VectorXd& cold, double anneal, Rng& rng, bool learn);

    const std::vector<Eigen::VectorXd>& replicas() const { return states_; }
    const std::vector<double>& ladder() const { return ladder_; }
    int parity() const { return parity_; }
    // Per pair: mean swap acceptance probability over the recorded (non-learning) proposals.
    std::vector<double> acceptance() const;

    // The log acceptance ratio of swapping states with likelihood parts lj (at t_j) and lk
    // (at t_k): (t_j - t_k) (lk - lj). Exposed for tests.
    static double swapLogRatio(double tj, double tk, double lj, double lk);

  private:
    void setLadderFromGaps();

    const LogDensity& target_;
    TemperingOptions options_;
    std::vector<Eigen::VectorXd> states_;  // replicas 2..R
    std::vector<double> logLik_;           // their likelihood parts (after their last sweep)
    std::vector<double> ladder_;           // t_1 = 1, ..., t_R
    std::vector<double> logGaps_;          // log(log t_j - log t_{j+1}), adapted in warm-up
    std::vector<double> acceptSum_;
    std::vector<std::int64_t> attempts_, recorded_;
    int parity_ = 0;
};

}  // namespace ppsynth::mcmc::detail
