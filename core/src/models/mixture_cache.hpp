// The mixture's per-record log likelihoods kept current while one component at a time
// changes, for the exact Metropolis moves of NormalMixture::exactMove:
//   L_i = log sum_k exp(logPi_k + D(i, k)),  D(i, k) = log Normal(y_i | x_i' beta_k, sigma_k).
// A move that changes component k needs the other components' part of L_i,
// rest_i = log (exp(L_i) - exp(logPi_k + D(i, k))); taking it from L_i costs O(n) instead of
// O(n K), and where component k holds most of record i's mass (share above 1/2, where the
// difference would cancel) it is summed afresh from the row. Private to core/src/models.
#pragma once

#include <Eigen/Core>

namespace ppsynth::models::detail {

class MixtureCache {
  public:
    // D is n x K (component k's log densities contiguous), logPi has K entries; without
    // withLogLik, L is left empty (for a caller that never reads it).
    MixtureCache(Eigen::ArrayXXd D, Eigen::ArrayXd logPi, bool withLogLik = true);

    // Empty once the weights changed without it (setWeights).
    const Eigen::ArrayXd& logLik() const { return L_; }
    const Eigen::ArrayXd& logWeights() const { return logPi_; }
    const Eigen::ArrayXXd& densities() const { return D_; }

    // rest_i = log sum_{j != k} exp(logPi_j + D(i, j)) (-inf when K = 1).
    void rest(Eigen::Index k, Eigen::ArrayXd& out) const;
    // Makes k the component the next changes concern and keeps its rest current through
    // them (setWeight shifts it with the other weights), so no caller holds a stale copy.
    void focus(Eigen::Index k);
    const Eigen::ArrayXd& focusedRest() const { return rest_; }
    // log(1 - pi_k) = log sum_{j != k} pi_j, computed from the other weights.
    double logRestWeight(Eigen::Index k) const;

    // The L_i that would follow if component k took log densities Dk and log weight logPiK
    // while every other log weight moved by shift: logaddexp(rest_i + shift, logPiK + Dk_i).
    static void candidate(const Eigen::ArrayXd& rest, double shift, const Eigen::ArrayXd& Dk,
                          double logPiK, Eigen::ArrayXd& out);

    // Accept such a change (L the candidate computed for it).
    void setComponent(Eigen::Index k, const Eigen::ArrayXd& Dk, const Eigen::ArrayXd& L);
    void setWeight(Eigen::Index k, double logPiK, double shift, const Eigen::ArrayXd& L);
    // Change every weight, leaving L (and any focus) behind.
    void setWeights(const Eigen::ArrayXd& logPi);

  private:
    // log sum_{j != skip} exp(logPi_j + D(i, j)).
    double rowLogSumExp(Eigen::Index i, Eigen::Index skip) const;

    Eigen::ArrayXXd D_;
    Eigen::ArrayXd logPi_;
    Eigen::ArrayXd L_;
    Eigen::Index focus_ = -1;
    Eigen::ArrayXd rest_;  // rest(focus_)
};

// A term below exp(-kNegligibleLog) times its row's largest changes a log-sum-exp over the
// K components by less than the sum's own rounding (each is under 2e-22 of a sum of at least
// 1). Most of the K = 20 components of a fit are empty, with weights near exp(-20) and below
// and parameters from the prior, so whole columns of their terms are skipped: their exp()
// was a third of a Gibbs sweep's time on income_survey.
inline constexpr double kNegligibleLog = 50.0;

// log(exp(a) + exp(b)) without overflow; -inf when both are -inf.
double logAddExp(double a, double b);

// sum_i alpha_i (next_i - current_i) over records with alpha_i != 0: the log Metropolis ratio
// of a proposal from the conditional prior. -inf when any weighted record's next value is
// -inf or NaN (the proposal leaves the support).
double weightedLogRatio(const Eigen::VectorXd& alpha, const Eigen::ArrayXd& next,
                        const Eigen::ArrayXd& current);

}  // namespace ppsynth::models::detail
