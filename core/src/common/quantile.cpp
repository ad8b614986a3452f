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
    const double frac = h - static_cast<double>(lo);
    // No interpolation when h falls on an order statistic or both neighbours are equal: an
    // infinite neighbour would otherwise give 0 * inf or inf - inf, i.e. NaN.
    if (frac == 0.0 || sorted[lo] == sorted[hi]) return sorted[lo];
    return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

double quantile(std::span<const double> values, double q) {
    std::vector<double> v(values.begin(), values.end());
    std::sort(v.begin(), v.end());
    return quantileSorted(v, q);
}

}  // namespace ppsynth
