// Sample quantiles with R's default (type 7) definition, so figures match R.
#pragma once

#include <span>
#include <vector>

namespace ppsynth {

// q in [0, 1]; `sorted` must be sorted ascending and non-empty.
double quantileSorted(std::span<const double> sorted, double q);
// Copies and sorts; for several quantiles of one sample sort once and use quantileSorted.
double quantile(std::span<const double> values, double q);

}  // namespace ppsynth
