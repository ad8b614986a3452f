#include "ppsynth/common/moments.hpp"

#include <cmath>
#include <limits>
#include <numeric>

namespace ppsynth {

double mean(std::span<const double> values) {
    return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

double variance(std::span<const double> values) {
    if (values.size() < 2) return 0;
    const double m = mean(values);
    double ss = 0;
    for (double v : values) ss += (v - m) * (v - m);
    return ss / static_cast<double>(values.size() - 1);
}

double standardDeviation(std::span<const double> values) {
    return std::sqrt(variance(values));
}

double vectorMean(const Eigen::Ref<const Eigen::VectorXd>& values) {
    if (values.size() == 0) return std::numeric_limits<double>::quiet_NaN();
    return values.mean();
}

double vectorVariance(const Eigen::Ref<const Eigen::VectorXd>& values) {
    if (values.size() < 2) return std::numeric_limits<double>::quiet_NaN();
    return (values.array() - values.mean()).square().sum() / static_cast<double>(values.size() - 1);
}

}  // namespace ppsynth
