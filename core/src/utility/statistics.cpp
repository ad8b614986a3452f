#include "ppsynth/utility/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ppsynth/common/moments.hpp"
#include "ppsynth/common/quantile.hpp"
#include "ppsynth/data/number_format.hpp"

namespace ppsynth::utility {

std::string Statistic::name() const {
    switch (kind) {
        case StatisticKind::Mean:
            return "mean";
        case StatisticKind::Median:
            return "median";
        case StatisticKind::Quantile:
            break;
    }
    return "quantile " + data::formatNumber(probability);
}

std::vector<Statistic> defaultStatistics(std::span<const double> quantiles) {
    std::vector<Statistic> s{Statistic::mean(), Statistic::median()};
    for (double p : quantiles) s.push_back(Statistic::quantile(p));
    return s;
}

Status validateStatistics(const std::vector<Statistic>& statistics) {
    if (statistics.empty()) return Error{"no statistic was chosen"};
    for (const auto& s : statistics)
        if (s.kind == StatisticKind::Quantile && !(s.probability >= 0 && s.probability <= 1))
            return Error{"quantile probability " + data::formatNumber(s.probability) +
                         " is outside [0, 1]"};
    return {};
}

Status validateSample(std::span<const double> values, const std::string& what) {
    if (values.empty()) return Error{what + " has no values"};
    for (std::size_t i = 0; i < values.size(); ++i)
        if (!std::isfinite(values[i]))
            return Error{what + " record " + std::to_string(i + 1) + ": " +
                         data::formatNumber(values[i]) + " is not a finite number"};
    return {};
}

double median(std::span<const double> values) {
    return quantile(values, 0.5);
}

double evaluateSorted(const Statistic& statistic, std::span<const double> sorted) {
    if (!statistic.isOrderStatistic()) return mean(sorted);
    return quantileSorted(sorted, statistic.orderProbability());
}

std::vector<double> evaluate(const std::vector<Statistic>& statistics,
                             std::span<const double> values) {
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<double> out;
    out.reserve(statistics.size());
    for (const auto& s : statistics) out.push_back(evaluateSorted(s, sorted));
    return out;
}

}  // namespace ppsynth::utility
