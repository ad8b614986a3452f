// Convergence of epsilon (METHOD.md section 2): D_s = max_i alpha_i |l_{s,i}| is a scalar
// chain like any parameter. Its split R-hat (bulk and tail) and ESS, Delta per chain, the
// record that sets Delta with the sign of its l, and for the unweighted fit how well the
// chains agree on f_i (the LW weights are built from it) give one verdict: "epsilon
// converged: yes / no (reasons)". The thresholds are calibrated by tests/bench/bench_epsilon
// (silent on well-mixed chains, firing on stuck ones).
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace ppsynth::privacy {

struct EpsilonThresholds {
    double rhat = 1.05;       // split R-hat of D_s and of the total log-likelihood
    double essPerChain = 25;  // bulk and tail ESS of D_s, per chain
    // The chains' agreement on f_i is judged as split R-hat judges a parameter: against the
    // same figure between the two halves of each chain (fAgreementHolds). Chains disagree
    // when their median relative difference in f_i exceeds `fDisagreementRatio` times that of
    // the halves of one chain and `fRelativeDifferenceFloor`, or their rank disagreement
    // (1 - rank correlation) exceeds the ratio times the halves' and `fRankCorrelationFloor`
    // is not met.
    double fDisagreementRatio = 2.0;
    double fRelativeDifferenceFloor = 0.02;
    double fRankCorrelationFloor = 0.95;
    // Fewer retained draws than this in a half chain: too few to judge the agreement.
    std::size_t fMinDrawsPerHalf = 10;
};

// f_i over the retained draws of each half of one chain (the first half: draws s < S/2),
// and how many retained draws each half holds.
struct HalfChainRecordMax {
    Eigen::VectorXd first, second;
    std::size_t firstDraws = 0, secondDraws = 0;
};

// How well chains agree on the record bounds f_i, on half chains of equal length (as split
// R-hat compares them): between chains, the worst pair of chains for each figure (the lowest
// correlation, the largest difference), each pair's figure the mean over the four pairings
// of their halves; within a chain, the two halves of each chain, averaged over chains.
struct FAgreement {
    double rankCorrelation = std::numeric_limits<double>::quiet_NaN();
    double medianRelativeDifference = std::numeric_limits<double>::quiet_NaN();
    double withinRankCorrelation = std::numeric_limits<double>::quiet_NaN();
    double withinMedianRelativeDifference = std::numeric_limits<double>::quiet_NaN();
    std::size_t drawsPerHalf = 0;  // the fewest retained draws in a half chain
};

struct EpsilonDiagnostics {
    bool diagnosed = false;  // false: a run made before ppsynth diagnosed epsilon
    bool converged = false;
    std::vector<std::string> reasons;  // why not converged (empty when converged)
    double rhatBulk = std::numeric_limits<double>::quiet_NaN();
    double rhatTail = std::numeric_limits<double>::quiet_NaN();
    double essBulk = std::numeric_limits<double>::quiet_NaN();
    double essTail = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> deltaPerChain;
    // Delta over the first and over the second half of every chain (the same q): the max over
    // draws of a heavy-tailed D_s keeps growing with the number of draws, and then the two
    // halves disagree although R-hat of D_s is fine.
    double deltaFirstHalf = std::numeric_limits<double>::quiet_NaN();
    double deltaSecondHalf = std::numeric_limits<double>::quiet_NaN();
    // Split R-hat of the fit's total log-likelihood: epsilon is a property of the posterior,
    // and chains that have not settled on it (the K = 20 mixture) may agree on D_s within a
    // run while another seed gives another epsilon. NaN where not measured (exact draws).
    double loglikRhatBulk = std::numeric_limits<double>::quiet_NaN();
    double loglikRhatTail = std::numeric_limits<double>::quiet_NaN();
    // The record whose alpha_i |l_{s,i}| sets Delta (in the draw with the largest retained
    // D_s): as given by the caller (the runner gives the row in the data file, 1-based), and
    // its log-likelihood l_{s,i} in that draw, with its sign: a positive l is a density above
    // 1 (for the mixture a narrow component, not the data, may be setting epsilon).
    std::size_t argmaxRecord = 0;
    double argmaxLoglik = std::numeric_limits<double>::quiet_NaN();
    std::optional<FAgreement> fAgreement;  // the unweighted fit (f_i feed weights)
};

// What diagnoseEpsilon needs from a fit, chain by chain.
struct EpsilonChains {
    std::vector<std::vector<double>> drawMax;  // D_s per chain, all chains the same length
    std::vector<double> deltaPerChain;         // the bound (same q) of each chain's draws
    double deltaFirstHalf = std::numeric_limits<double>::quiet_NaN();   // first halves, pooled
    double deltaSecondHalf = std::numeric_limits<double>::quiet_NaN();  // second halves
    // Split R-hat (bulk, tail) of the fit's total log-likelihood; NaN when not measured.
    double loglikRhatBulk = std::numeric_limits<double>::quiet_NaN();
    double loglikRhatTail = std::numeric_limits<double>::quiet_NaN();
    std::size_t argmaxRecord = 0;
    double argmaxLoglik = std::numeric_limits<double>::quiet_NaN();
    // f_i of each half of each chain (over the retained draws), for the unweighted fit only.
    std::vector<HalfChainRecordMax> recordMaxPerHalf;
};

// What a reason advises: a fixed-length run samples longer chains (mcmc.draws); a run until
// converged ("draws": "auto"), whose length its budget set, raises mcmc.budget_seconds.
enum class LengthRemedy { Draws, Budget };

EpsilonDiagnostics diagnoseEpsilon(const EpsilonChains& chains,
                                   const EpsilonThresholds& thresholds = {},
                                   LengthRemedy remedy = LengthRemedy::Draws);

// Spearman rank correlation (average ranks for ties; +inf ranks above every finite value).
// NaN when either side is constant or the sizes differ or are below 2.
double rankCorrelation(const Eigen::VectorXd& a, const Eigen::VectorXd& b);
// Median over records of |a_i - b_i| / max(|a_i|, |b_i|) (0 where both are 0 or both are
// the same infinity, 1 where only one is infinite).
double medianRelativeDifference(const Eigen::VectorXd& a, const Eigen::VectorXd& b);
// Between and within chains (FAgreement); nullopt with fewer than two chains.
std::optional<FAgreement> fAgreement(const std::vector<HalfChainRecordMax>& recordMaxPerHalf);

// Whether the chains agree well enough on f_i: the one test the verdict and the stopping
// rule of a run until converged both use. A NaN figure (constant f_i) does not fail it; too
// few draws in a half chain (fMinDrawsPerHalf) do.
bool fAgreementHolds(const FAgreement& f, const EpsilonThresholds& thresholds = {});

// Why the chains' agreement on f_i is not good enough, or nullopt when it is.
std::optional<std::string> fAgreementReason(const FAgreement& f,
                                            const EpsilonThresholds& thresholds = {},
                                            LengthRemedy remedy = LengthRemedy::Draws);

// A line for people: "epsilon converged: yes" or "epsilon converged: no (reason; reason)";
// "epsilon convergence: not diagnosed (...)" for older runs.
std::string verdictLine(const EpsilonDiagnostics& d);
// The note on the record that sets Delta when its l is positive (a density above 1), empty
// otherwise; `mixture` adds that a narrow component may be setting epsilon.
std::string argmaxNote(const EpsilonDiagnostics& d, bool mixture);

}  // namespace ppsynth::privacy
