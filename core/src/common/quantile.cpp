#include "ppsynth/common/quantile.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ppsynth {

double quantileSorted(std::span<const double> sorted, double q) {
    assert(!sorted.empty());
    const double h = (static_cast<double>(sorted.size()) - 1.0) * q;
    const auto lo = static_cast<std::size_t>(std::floor(h));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

double quantile(std::span<const double> values, double q) {
    std::vector<double> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    return quantileSorted(v, q);
}

}  // namespace ppsynth
