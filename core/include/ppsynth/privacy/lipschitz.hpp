// Lipschitz bounds (sensitivity) of the weighted log-likelihood, METHOD.md section 2,
// accumulated as draws stream past so memory stays O(n + S), never O(S x n).
#pragma once

#include <Eigen/Core>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ppsynth::privacy {

// alpha_i |l_{s,i}|: 0 for a record left out (alpha_i = 0, whatever its density), and
// unbounded for a weighted record whose log-likelihood is not finite, so such a draw can never
// pass for a small Delta (Assumption 2 zeroes those records' weights in later fits instead).
inline double weightedAbsLogLik(double alpha, double l) {
    if (alpha == 0.0) return 0.0;
    return std::isfinite(l) ? alpha * std::abs(l) : std::numeric_limits<double>::infinity();
}

// One accumulator per chain (not thread-safe); merge them in chain order afterwards.
class LipschitzAccumulator {
  public:
    LipschitzAccumulator() = default;
    // alpha: the fit's record weights (all ones for an unweighted fit).
    explicit LipschitzAccumulator(Eigen::VectorXd alpha);

    // loglik_i = log p(y_i | x_i, theta_s) for one retained draw s.
    void addDraw(const Eigen::Ref<const Eigen::VectorXd>& loglik);
    // Appends other's draws after this one's and takes per-record maxima.
    void merge(const LipschitzAccumulator& other);

    std::size_t drawCount() const { return drawMax_.size(); }
    // max_s alpha_i |l_{s,i}| per record (f_i when alpha = 1); +inf for a weighted record
    // with a non-finite l_{s,i} in some draw.
    const Eigen::VectorXd& recordMax() const { return recordMax_; }
    // max_i alpha_i |l_{s,i}| per draw; +inf where a weighted record's l_{s,i} is not finite.
    const std::vector<double>& drawMax() const { return drawMax_; }
    // Per draw, the record attaining drawMax() (0-based; the first on ties) and its l_{s,i}
    // with its sign: what sets D_s.
    const std::vector<std::size_t>& drawArgmax() const { return drawArgmax_; }
    const std::vector<double>& drawArgmaxLogLik() const { return drawArgmaxLogLik_; }
    // 1 where some draw gave a non-finite l_{s,i}: such records get alpha_i = 0 in weighted
    // fits (Assumption 2).
    const std::vector<std::uint8_t>& nonFinite() const { return nonFinite_; }

  private:
    Eigen::VectorXd alpha_;
    Eigen::VectorXd recordMax_;
    std::vector<double> drawMax_;
    std::vector<std::size_t> drawArgmax_;
    std::vector<double> drawArgmaxLogLik_;
    std::vector<std::uint8_t> nonFinite_;
};

struct LipschitzBound {
    double delta = 0;                    // Delta_{alpha,x}
    double quantile = 1.0;               // q of the robust option; 1 = the maximum
    std::vector<std::size_t> keptDraws;  // draws whose max is <= delta (all when q = 1)
    std::string method() const;          // "max over draws" or "0.95-quantile over draws"
};

// Delta as the q-quantile over draws of max_i alpha_i |l_{s,i}| (q = 1: the maximum, the
// default). Draws above it are listed as left out so synthesis can skip them.
LipschitzBound lipschitzBound(const LipschitzAccumulator& acc, double q = 1.0);
// The same rule on any list of draw maxima (e.g. one chain's): 0 when empty.
LipschitzBound lipschitzBound(const std::vector<double>& drawMax, double q = 1.0);

// Privacy accounting for releasing m datasets (METHOD.md section 2).
struct EpsilonAccount {
    double perDataset = 0;  // epsilon_x = 2 Delta_{alpha,x}
    double total = 0;       // m * epsilon_x
    int m = 1;
};
EpsilonAccount epsilonAccount(double delta, int m);

// Global recommendation (paper 000, sec. 4.5): epsilon = 2 s Delta with the safety factor s
// in [1, 1.05] for n >= 1000 and [1.05, 1.10] for n < 1000.
struct GlobalEpsilon {
    double safetyLow = 1, safetyHigh = 1.05;
    double epsilonLow = 0, epsilonHigh = 0;
};
GlobalEpsilon globalEpsilon(double delta, std::size_t n);

}  // namespace ppsynth::privacy
