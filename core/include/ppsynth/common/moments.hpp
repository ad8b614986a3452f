// Sample mean, variance and standard deviation: the one definition of each (quantiles are in
// quantile.hpp). Two summation orders exist on purpose and give results that can differ in
// the last bits, so each caller keeps the one its figures were made with:
//  - mean/variance/standardDeviation add in the order of the values (a plain loop, as R's
//    mean and var do up to rounding): the utility statistics, the data summaries, the KDE
//    bandwidth, the risk summary;
//  - vectorMean/vectorVariance use Eigen's vectorised reductions: MCMC diagnostics, parameter
//    summaries and the models' starting points.
// Variances are two-pass (the sum of squares about the mean) with the n - 1 denominator.
#pragma once

#include <Eigen/Core>
#include <span>

namespace ppsynth {

// NaN for no values.
double mean(std::span<const double> values);
// 0 for fewer than two values.
double variance(std::span<const double> values);
double standardDeviation(std::span<const double> values);

// NaN for no values.
double vectorMean(const Eigen::Ref<const Eigen::VectorXd>& values);
// NaN for fewer than two values.
double vectorVariance(const Eigen::Ref<const Eigen::VectorXd>& values);

}  // namespace ppsynth
