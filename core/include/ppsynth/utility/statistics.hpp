// Summary statistics compared between confidential and synthetic data (METHOD.md section 6):
// mean, median and user quantiles. Quantiles use R's default (type 7) definition so figures
// match what users compute in R.
#pragma once

#include <array>
#include <span>
#include <string>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/moments.hpp"

namespace ppsynth::utility {

enum class StatisticKind { Mean, Median, Quantile };

struct Statistic {
    StatisticKind kind = StatisticKind::Mean;
    double probability = 0.5;  // used by Quantile only, in [0, 1]

    static Statistic mean() { return {StatisticKind::Mean, 0.5}; }
    static Statistic median() { return {StatisticKind::Median, 0.5}; }
    static Statistic quantile(double p) { return {StatisticKind::Quantile, p}; }

    // "mean", "median", "quantile 0.15"
    std::string name() const;
    // The probability at which the statistic reads the sorted sample; Mean has none.
    bool isOrderStatistic() const { return kind != StatisticKind::Mean; }
    double orderProbability() const { return kind == StatisticKind::Median ? 0.5 : probability; }
    bool operator==(const Statistic&) const = default;
};

// METHOD.md section 6's quantiles, compared unless the user chooses others.
inline constexpr std::array<double, 2> kDefaultQuantiles{0.15, 0.90};

// Mean, median and `quantiles`, in that order; no quantiles gives mean and median only.
std::vector<Statistic> defaultStatistics(std::span<const double> quantiles = kDefaultQuantiles);

// Checks probabilities lie in [0, 1] and the list is not empty.
Status validateStatistics(const std::vector<Statistic>& statistics);
// Checks the sample is non-empty and has no NaN or infinity; `what` names it in the message
// ("synthetic dataset 3").
Status validateSample(std::span<const double> values, const std::string& what);

// Mean and sample variance (n - 1 denominator, 0 for a single value): common/moments.hpp.
using ppsynth::mean;
using ppsynth::variance;
double median(std::span<const double> values);

// One statistic on a sample that is already sorted ascending and non-empty.
double evaluateSorted(const Statistic& statistic, std::span<const double> sorted);
// Several statistics of one sample, sorting a copy once.
std::vector<double> evaluate(const std::vector<Statistic>& statistics,
                             std::span<const double> values);

}  // namespace ppsynth::utility
