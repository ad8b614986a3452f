#include "ppsynth/utility/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ppsynth::utility {

Histogram histogram(std::span<const double> values, std::size_t bins, double lo, double hi) {
    if (bins == 0) throw std::invalid_argument("histogram: bins must be at least 1");
    if (!(hi >= lo)) throw std::invalid_argument("histogram: hi must not be below lo");
    Histogram h;
    h.lo = lo;
    h.hi = hi;
    h.counts.assign(bins, 0);
    const double width = (hi - lo) / double(bins);
    for (double v : values) {
        if (!std::isfinite(v)) {
            ++h.nonFinite;
            continue;
        }
        if (v < lo || v > hi) {
            ++h.outside;
            continue;
        }
        // Values on the upper edge (and every value when the range is a point) go in the
        // last bin, so max(values) is always counted.
        std::size_t b = bins - 1;
        if (width > 0) b = std::min(bins - 1, static_cast<std::size_t>((v - lo) / width));
        ++h.counts[b];
    }
    return h;
}

Histogram histogram(std::span<const double> values, std::size_t bins) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double v : values) {
        if (!std::isfinite(v)) continue;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (lo > hi) lo = hi = 0;  // no finite value
    return histogram(values, bins, lo, hi);
}

}  // namespace ppsynth::utility
