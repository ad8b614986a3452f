#include "mcmc/nuts_kernel.hpp"

#include <algorithm>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>
#include <limits>
#include <utility>

namespace ppsynth::mcmc::detail {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

double logSumExp(double a, double b) {
    if (a == kNegInf) return b;
    if (b == kNegInf) return a;
    const double m = std::max(a, b);
    return m + std::log1p(std::exp(-std::abs(a - b)));
}

// The no-U-turn condition on one span: both end velocities still point along the summed
// momentum.
bool noUTurn(const Eigen::VectorXd& pSharpA, const Eigen::VectorXd& pSharpB,
             const Eigen::VectorXd& rho) {
    return pSharpA.dot(rho) > 0 && pSharpB.dot(rho) > 0;
}

template <typename Expr>
bool noUTurnExpr(const Eigen::VectorXd& pSharpA, const Eigen::VectorXd& pSharpB, const Expr& rho) {
    return pSharpA.dot(rho) > 0 && pSharpB.dot(rho) > 0;
}

void resize(PhasePoint& z, Eigen::Index d) {
    z.q.setZero(d);
    z.p.setZero(d);
    z.g.setZero(d);
}

void resize(Proposal& z, Eigen::Index d) {
    z.q.setZero(d);
    z.g.setZero(d);
}

void copyInto(Proposal& out, const PhasePoint& z, double energy) {
    out.q = z.q;
    out.g = z.g;
    out.lp = z.lp;
    out.energy = energy;
}

}  // namespace

NutsKernel::NutsKernel(const LogDensity& target, Rng& rng, const std::atomic<bool>& stop,
                       const std::atomic<bool>* cancel, int maxDepth, double maxEnergyError)
    : target_(target),
      rng_(rng),
      stop_(stop),
      cancel_(cancel),
      maxDepth_(maxDepth),
      maxEnergyError_(maxEnergyError) {
    const auto d = static_cast<Eigen::Index>(target.dimension());
    invMetric_.setOnes(d);
    used_.setOnes(d);
    movable_.setOnes(d);
    for (PhasePoint* z : {&state_, &fwd_, &bck_, &scratch_}) resize(*z, d);
    resize(sample_, d);
    resize(propose_, d);
    for (Eigen::VectorXd* v :
         {&pFwdFwd_, &pSharpFwdFwd_, &pFwdBck_, &pSharpFwdBck_, &pBckFwd_, &pSharpBckFwd_,
          &pBckBck_, &pSharpBckBck_, &rho_, &rhoFwd_, &rhoBck_, &normals_})
        v->setZero(d);
    levels_.resize(static_cast<std::size_t>(maxDepth) + 1);
    for (Level& l : levels_) {
        for (Eigen::VectorXd* v : {&l.pInitEnd, &l.pSharpInitEnd, &l.rhoInit, &l.pFinalBeg,
                                   &l.pSharpFinalBeg, &l.rhoFinal})
            v->setZero(d);
        resize(l.proposeFinal, d);
    }
}

bool NutsKernel::setState(const Eigen::VectorXd& q) {
    state_.q = q;
    state_.lp = target_.evaluate(state_.q, state_.g);
    ++gradEvals_;
    return std::isfinite(state_.lp) && state_.g.allFinite();
}

bool NutsKernel::stopRequested() const {
    return stop_.load(std::memory_order_relaxed) ||
           (cancel_ != nullptr && cancel_->load(std::memory_order_relaxed));
}

void NutsKernel::leapfrog(PhasePoint& z, double eps) {
    z.p.noalias() += (0.5 * eps) * z.g;
    z.q.array() += eps * used_.array() * z.p.array();
    z.lp = target_.evaluate(z.q, z.g);
    ++gradEvals_;
    z.p.noalias() += (0.5 * eps) * z.g;
}

void NutsKernel::sampleMomentum(PhasePoint& z) {
    boost::random::normal_distribution<double> normal;
    for (Eigen::Index i = 0; i < normals_.size(); ++i) normals_[i] = normal(rng_);
    // p ~ Normal(0, M) with M = diag(1 / invMetric); held coordinates get none (their
    // velocity invMetric p is 0 whatever p becomes, so they add nothing to H or the U-turn).
    z.p.array() = (movable_.array() > 0.0).select(normals_.array() / used_.array().sqrt(), 0.0);
}

double NutsKernel::kinetic(const Eigen::VectorXd& p, Eigen::VectorXd& pSharp) const {
    pSharp.array() = used_.array() * p.array();
    return 0.5 * p.dot(pSharp);
}

void NutsKernel::holdCoordinates() {
    movable_.setOnes();
    target_.holdFixed(state_.q, movable_);
    used_ = invMetric_.cwiseProduct(movable_);
}

NutsKernel::StepSizeSearch NutsKernel::initStepSize() {
    if (stepSize_ == 0 || stepSize_ > 1e7 || std::isnan(stepSize_)) return StepSizeSearch::Ok;
    holdCoordinates();
    // Acceptance log-probability of one leapfrog step from a fresh momentum.
    auto oneStepDeltaH = [this]() {
        scratch_.q = state_.q;
        scratch_.g = state_.g;
        scratch_.lp = state_.lp;
        sampleMomentum(scratch_);
        const double h0 = -scratch_.lp + kinetic(scratch_.p, pSharpFwdFwd_);
        leapfrog(scratch_, stepSize_);
        double h = -scratch_.lp + kinetic(scratch_.p, pSharpFwdFwd_);
        if (std::isnan(h)) h = std::numeric_limits<double>::infinity();
        return h0 - h;
    };
    const double logTarget = std::log(0.8);
    const int direction = oneStepDeltaH() > logTarget ? 1 : -1;
    while (true) {
        if (stopRequested()) return StepSizeSearch::Cancelled;
        const double deltaH = oneStepDeltaH();
        if (direction == 1 && !(deltaH > logTarget)) break;
        if (direction == -1 && !(deltaH < logTarget)) break;
        stepSize_ = direction == 1 ? 2 * stepSize_ : 0.5 * stepSize_;
        if (stepSize_ > 1e7 || stepSize_ == 0) return StepSizeSearch::Improper;
    }
    return StepSizeSearch::Ok;
}

TransitionInfo NutsKernel::transition() {
    boost::random::uniform_01<double> uniform;
    holdCoordinates();
    sampleMomentum(state_);
    const double H0 = -state_.lp + kinetic(state_.p, pSharpFwdFwd_);

    fwd_.q = state_.q;
    fwd_.p = state_.p;
    fwd_.g = state_.g;
    fwd_.lp = state_.lp;
    bck_.q = state_.q;
    bck_.p = state_.p;
    bck_.g = state_.g;
    bck_.lp = state_.lp;
    copyInto(sample_, state_, H0);

    pFwdFwd_ = state_.p;
    pFwdBck_ = state_.p;
    pBckFwd_ = state_.p;
    pBckBck_ = state_.p;
    pSharpFwdBck_ = pSharpFwdFwd_;
    pSharpBckFwd_ = pSharpFwdFwd_;
    pSharpBckBck_ = pSharpFwdFwd_;
    rho_ = state_.p;

    double logSumWeight = 0;  // log(exp(H0 - H0))
    nLeapfrog_ = 0;
    sumMetroProb_ = 0;
    divergent_ = false;
    cancelled_ = false;
    int depth = 0;

    while (depth < maxDepth_) {
        rhoFwd_.setZero();
        rhoBck_.setZero();
        double logSumWeightSubtree = kNegInf;
        bool valid = false;
        if (uniform(rng_) > 0.5) {
            // Extend forward: the old trajectory becomes the backward part.
            rhoBck_ = rho_;
            pBckFwd_ = pFwdBck_;
            pSharpBckFwd_ = pSharpFwdBck_;
            valid = buildTree(depth, fwd_, propose_, pSharpFwdBck_, pSharpFwdFwd_, rhoFwd_,
                              pFwdBck_, pFwdFwd_, H0, 1, logSumWeightSubtree);
        } else {
            rhoFwd_ = rho_;
            pFwdBck_ = pBckFwd_;
            pSharpFwdBck_ = pSharpBckFwd_;
            valid = buildTree(depth, bck_, propose_, pSharpBckFwd_, pSharpBckBck_, rhoBck_,
                              pBckFwd_, pBckBck_, H0, -1, logSumWeightSubtree);
        }
        if (!valid) break;
        ++depth;

        // Biased progressive sampling: prefer the new subtree when it carries more weight.
        if (logSumWeightSubtree > logSumWeight) {
            std::swap(sample_, propose_);
        } else if (uniform(rng_) < std::exp(logSumWeightSubtree - logSumWeight)) {
            std::swap(sample_, propose_);
        }
        logSumWeight = logSumExp(logSumWeight, logSumWeightSubtree);

        rho_ = rhoBck_ + rhoFwd_;
        bool persist = noUTurn(pSharpBckBck_, pSharpFwdFwd_, rho_);
        persist = persist && noUTurnExpr(pSharpBckBck_, pSharpFwdBck_, rhoBck_ + pFwdBck_);
        persist = persist && noUTurnExpr(pSharpBckFwd_, pSharpFwdFwd_, rhoFwd_ + pBckFwd_);
        if (!persist) break;
    }

    TransitionInfo info;
    info.cancelled = cancelled_;
    info.depth = depth;
    info.nLeapfrog = nLeapfrog_;
    info.divergent = divergent_;
    info.acceptStat = nLeapfrog_ > 0 ? sumMetroProb_ / nLeapfrog_ : 0;
    info.energy = sample_.energy;
    state_.q = sample_.q;
    state_.g = sample_.g;
    state_.lp = sample_.lp;
    return info;
}

bool NutsKernel::buildTree(int depth, PhasePoint& z, Proposal& propose, Eigen::VectorXd& pSharpBeg,
                           Eigen::VectorXd& pSharpEnd, Eigen::VectorXd& rho, Eigen::VectorXd& pBeg,
                           Eigen::VectorXd& pEnd, double H0, double sign, double& logSumWeight) {
    if (depth == 0) {
        if (stopRequested()) {
            cancelled_ = true;
            return false;
        }
        leapfrog(z, sign * stepSize_);
        ++nLeapfrog_;
        double h = -z.lp + kinetic(z.p, pSharpBeg);
        if (std::isnan(h)) h = std::numeric_limits<double>::infinity();
        if (h - H0 > maxEnergyError_) divergent_ = true;
        logSumWeight = logSumExp(logSumWeight, H0 - h);
        sumMetroProb_ += H0 - h > 0 ? 1 : std::exp(H0 - h);
        copyInto(propose, z, h);
        pSharpEnd = pSharpBeg;
        rho += z.p;
        pBeg = z.p;
        pEnd = z.p;
        return !divergent_;
    }

    Level& l = levels_[static_cast<std::size_t>(depth)];
    double logSumWeightInit = kNegInf;
    l.rhoInit.setZero();
    if (!buildTree(depth - 1, z, propose, pSharpBeg, l.pSharpInitEnd, l.rhoInit, pBeg, l.pInitEnd,
                   H0, sign, logSumWeightInit))
        return false;

    double logSumWeightFinal = kNegInf;
    l.rhoFinal.setZero();
    if (!buildTree(depth - 1, z, l.proposeFinal, l.pSharpFinalBeg, pSharpEnd, l.rhoFinal,
                   l.pFinalBeg, pEnd, H0, sign, logSumWeightFinal))
        return false;

    // Multinomial choice between the two halves of this subtree.
    const double logSumWeightSubtree = logSumExp(logSumWeightInit, logSumWeightFinal);
    logSumWeight = logSumExp(logSumWeight, logSumWeightSubtree);
    if (logSumWeightFinal > logSumWeightSubtree) {
        std::swap(propose, l.proposeFinal);
    } else if (boost::random::uniform_01<double>()(rng_) <
               std::exp(logSumWeightFinal - logSumWeightSubtree)) {
        std::swap(propose, l.proposeFinal);
    }

    rho += l.rhoInit;
    rho += l.rhoFinal;
    // Around the merged subtree, then across its two halves' junction in both directions.
    bool persist = noUTurnExpr(pSharpBeg, pSharpEnd, l.rhoInit + l.rhoFinal);
    persist = persist && noUTurnExpr(pSharpBeg, l.pSharpFinalBeg, l.rhoInit + l.pFinalBeg);
    persist = persist && noUTurnExpr(l.pSharpInitEnd, pSharpEnd, l.rhoFinal + l.pInitEnd);
    return persist;
}

}  // namespace ppsynth::mcmc::detail
