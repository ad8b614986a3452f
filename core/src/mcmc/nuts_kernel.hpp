// One NUTS chain's transition (Stan 2.21+ base_nuts): multinomial sampling within the
// trajectory, biased progressive sampling between the old trajectory and each new subtree,
// and the generalized no-U-turn criterion checked across every merge, including the two
// extra checks that span the boundary between merged subtrees. Diagonal Euclidean metric,
// leapfrog integrator. All vectors are allocated once per chain; the leapfrog loop does not
// allocate.
#pragma once

#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <vector>

#include "ppsynth/common/rng.hpp"
#include "ppsynth/mcmc/log_density.hpp"

namespace ppsynth::mcmc::detail {

struct PhasePoint {
    Eigen::VectorXd q;
    Eigen::VectorXd p;
    Eigen::VectorXd g;  // gradient of the log density at q
    double lp = 0;
};

// What a proposal must carry to become the next state: p is resampled, so it is not kept.
struct Proposal {
    Eigen::VectorXd q;
    Eigen::VectorXd g;
    double lp = 0;
    double energy = 0;
};

struct TransitionInfo {
    int depth = 0;
    int nLeapfrog = 0;
    bool divergent = false;
    double acceptStat = 0;
    double energy = 0;
    bool cancelled = false;
};

class NutsKernel {
  public:
    // stop / cancel are polled before every leapfrog step (cancel may be null).
    NutsKernel(const LogDensity& target, Rng& rng, const std::atomic<bool>& stop,
               const std::atomic<bool>* cancel, int maxDepth, double maxEnergyError);

    // Sets the current point; false when the log density or its gradient is not finite.
    bool setState(const Eigen::VectorXd& q);
    const Eigen::VectorXd& q() const { return state_.q; }
    double lp() const { return state_.lp; }

    Eigen::VectorXd& invMetric() { return invMetric_; }
    double stepSize() const { return stepSize_; }
    void setStepSize(double eps) { stepSize_ = eps; }

    enum class StepSizeSearch { Ok, Improper, Cancelled };
    // Stan's heuristic: double or halve the step size until the acceptance probability of a
    // single leapfrog step crosses 0.8. Leaves the state unchanged.
    StepSizeSearch initStepSize();

    // One NUTS transition from the current state; the state becomes the draw.
    TransitionInfo transition();

    std::int64_t gradientEvaluations() const { return gradEvals_; }

  private:
    struct Level {  // workspace for one tree depth
        Eigen::VectorXd pInitEnd, pSharpInitEnd, rhoInit;
        Eigen::VectorXd pFinalBeg, pSharpFinalBeg, rhoFinal;
        Proposal proposeFinal;
    };

    bool stopRequested() const;
    void leapfrog(PhasePoint& z, double eps);
    void sampleMomentum(PhasePoint& z);
    double kinetic(const Eigen::VectorXd& p, Eigen::VectorXd& pSharp) const;
    // Asks the target which coordinates to hold this transition (LogDensity::holdFixed) and
    // sets used_ = invMetric_ with zeros there.
    void holdCoordinates();
    bool buildTree(int depth, PhasePoint& z, Proposal& propose, Eigen::VectorXd& pSharpBeg,
                   Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBeg,
                   Eigen::VectorXd& pEnd, double H0, double sign, double& logSumWeight);

    const LogDensity& target_;
    Rng& rng_;
    const std::atomic<bool>& stop_;
    const std::atomic<bool>* cancel_;
    int maxDepth_;
    double maxEnergyError_;
    double stepSize_ = 1;
    Eigen::VectorXd invMetric_;
    Eigen::VectorXd movable_;  // 1, or 0 where the target holds a coordinate this transition
    Eigen::VectorXd used_;     // invMetric_ * movable_: the metric the transition moves with
    std::int64_t gradEvals_ = 0;

    PhasePoint state_;
    // Per-transition scratch, sized once.
    PhasePoint fwd_, bck_, scratch_;
    Proposal sample_, propose_;
    Eigen::VectorXd pFwdFwd_, pSharpFwdFwd_, pFwdBck_, pSharpFwdBck_;
    Eigen::VectorXd pBckFwd_, pSharpBckFwd_, pBckBck_, pSharpBckBck_;
    Eigen::VectorXd rho_, rhoFwd_, rhoBck_, normals_;
    std::vector<Level> levels_;

    // Running totals of the current transition.
    int nLeapfrog_ = 0;
    double sumMetroProb_ = 0;
    bool divergent_ = false;
    bool cancelled_ = false;
};

}  // namespace ppsynth::mcmc::detail
