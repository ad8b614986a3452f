// Equal-width histogram of a sample: the counts behind the weight-distribution preview and
// any other bar chart, computed in core so ui only draws.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace ppsynth::utility {

struct Histogram {
    double lo = 0, hi = 0;            // range covered; bin b is [lo + b w, lo + (b+1) w)
    std::vector<std::size_t> counts;  // the last bin includes hi
    std::size_t outside = 0;          // finite values outside [lo, hi]
    std::size_t nonFinite = 0;        // NaN and infinities, never binned

    double binWidth() const { return counts.empty() ? 0.0 : (hi - lo) / double(counts.size()); }
};

// `bins` >= 1 equal-width bins over [lo, hi]; lo == hi puts every value equal to it in the
// last bin. Throws std::invalid_argument for bins == 0 or hi < lo (programming errors).
Histogram histogram(std::span<const double> values, std::size_t bins, double lo, double hi);

// Over the finite values' own range.
Histogram histogram(std::span<const double> values, std::size_t bins);

}  // namespace ppsynth::utility
