// Record weights of the weighting schemes (METHOD.md section 3). Every function returns a
// vector in [0, 1]^n; (c, g, k, M) are the user's knobs.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <span>
#include <vector>

namespace ppsynth::privacy {

double clamp01(double v);

// LW: ft_i = (f_i - min f) / (max f - min f) (0 when all f are equal);
// alpha_i = clamp(c (1 - ft_i) + g).
Eigen::VectorXd lipschitzWeights(const Eigen::VectorXd& f, double c = 1.0, double g = 0.0);

// M truncation on top of LW: alpha_i = 0 where alpha_i f_i > M.
Eigen::VectorXd truncateAtM(Eigen::VectorXd alpha, const Eigen::VectorXd& f, double M);

// CW / marginal: alpha_i = clamp(c (1 - IR_i) + g).
Eigen::VectorXd riskWeights(std::span<const double> ir, double c = 1.0, double g = 0.0);

// Pairwise: alpha_i = clamp(c at_i + g).
Eigen::VectorXd pairwiseWeights(std::span<const double> at, double c = 1.0, double g = 0.0);

// Sigmoid-scaled marginal (optional scheme of paper 002; the logistic form is ours):
// alpha_i = max(0, 1 - c_i IR_i), c_i = cMin + (cMax - cMin) / (1 + exp(-a (IR_i - 0.5))).
Eigen::VectorXd sigmoidRiskWeights(std::span<const double> ir, double a = 10.0, double cMin = 1.0,
                                   double cMax = 1.5);

// Scalar weight (exponential mechanism) from a target epsilon: a = epsilon / (2 Delta_x),
// capped at 1 (a weight above 1 would not be a pseudo posterior).
double scalarWeightForEpsilon(double epsilon, double deltaUnweighted);

// Re-weighting (Algorithm 3 of paper 001): alpha_w_i = clamp(k alpha_i Delta / Delta_i);
// alpha_i = 0 stays 0, and Delta_i = 0 with alpha_i > 0 (a record that contributes no
// sensitivity) gets weight 1.
Eigen::VectorXd reweight(const Eigen::VectorXd& alpha, const Eigen::VectorXd& recordDelta,
                         double delta, double k);

// Records with a non-finite log-likelihood in any draw get alpha_i = 0 (Assumption 2).
void zeroNonFinite(Eigen::VectorXd& alpha, const std::vector<std::uint8_t>& nonFinite);

// Top-coding comparator (not a synthesizer): y_tc = min(y, t), t the q-quantile of y
// (R type 7). Returns the threshold and the top-coded values.
struct TopCoded {
    double threshold = 0;
    std::vector<double> values;
};
TopCoded topCode(std::span<const double> y, double q = 0.975);

struct WeightSummary {
    double min = 0, q1 = 0, median = 0, mean = 0, q3 = 0, max = 0;
    std::size_t zeros = 0;  // records left out entirely
};
WeightSummary summarizeWeights(const Eigen::VectorXd& alpha);

}  // namespace ppsynth::privacy
