// Gaussian kernel density estimates on a grid, for density plots and violins. Bandwidth by
// Silverman's rule of thumb exactly as R's bw.nrd0, grid as R's density() (cut = 3), and
// optional reflection at the bounds of a bounded support (weights and risks lie in [0, 1]).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "ppsynth/common/expected.hpp"

namespace ppsynth::utility {

// R's bw.nrd0: 0.9 * min(sd, IQR / 1.34) * n^(-1/5), falling back to sd, then |x[0]|,
// then 1 when the spread is zero. n = 1 uses sd = 0. `values` must be non-empty and finite.
double bandwidthNrd0(std::span<const double> values);

struct KdeOptions {
    std::size_t gridSize = 512;        // evaluation points, at least 2
    double bandwidthMultiplier = 1.0;  // scales the rule-of-thumb (or explicit) bandwidth
    std::optional<double> bandwidth;   // explicit bandwidth instead of bw.nrd0
    // Support [lower, upper]: the grid is clipped to it and the kernel mass that would fall
    // outside is reflected back at the bound (with both bounds, reflections of reflections
    // too), so the density integrates to 1 inside.
    std::optional<double> lower;
    std::optional<double> upper;
    // Explicit grid range (e.g. only the upper tail); default [min - 3h, max + 3h] clipped to
    // the support. The estimate still uses all values.
    std::optional<double> from;
    std::optional<double> to;
    // Linear-binning resolution: about this many bins span the grid range (a multiple of the
    // grid, so grid points are bin centres and need no interpolation).
    std::size_t bins = 2048;
};

struct Density {
    std::vector<double> x;  // grid, ascending, evenly spaced
    std::vector<double> y;  // density at x
    double bandwidth = 0;   // h actually used (after the multiplier)
};

// O(n + bins * kernel width): linear binning onto a fine lattice, then a direct convolution
// with the Gaussian kernel truncated at 5 h (relative error below 4e-6 of the peak).
// Errors: empty input, a non-finite value, a value outside the support, bad options.
Expected<Density> kernelDensity(std::span<const double> values, const KdeOptions& options = {});

// Everything a violin needs: the density outline plus the box-plot marks (type 7 quartiles).
struct ViolinSummary {
    std::vector<double> grid;
    std::vector<double> density;
    double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, mean = 0;
    double bandwidth = 0;
    std::size_t n = 0;
    // logViolinSummary only: the outline is a density per decade (of log10 of the positive
    // values), `zeros` values (0 or below) are left out of it, and the outline ends at the
    // smallest positive value.
    bool logScale = false;
    std::size_t zeros = 0;
    double minPositive = 0;
};

Expected<ViolinSummary> violinSummary(std::span<const double> values,
                                      const KdeOptions& options = {});

// Whether values are best shown on a log scale: the positive ones span at least `ratio`
// (two orders of magnitude by default) from the smallest to the largest. Record bounds on
// a skewed income (most near 10, a few near 10^4) drawn on a linear scale are a line with a
// spike; on a log scale every record's bound is seen.
bool spansOrdersOfMagnitude(std::span<const double> values, double ratio = 100.0);

// A violin for a log axis: the marks (quartiles, median, range, mean, n) are those of all
// the values, as violinSummary's; the outline is the KDE of log10 of the positive values
// (bw.nrd0 on that scale), with its grid given back in the values' units. Needs at least
// one positive value.
Expected<ViolinSummary> logViolinSummary(std::span<const double> values,
                                         const KdeOptions& options = {});

// Confidential vs synthetic densities on one common grid (each with its own bw.nrd0 unless
// options.bandwidth is set), and optionally both again on a finer grid over the upper tail,
// from the confidential tailQuantile (e.g. 0.9) to the common upper end.
struct DensityComparison {
    Density confidential;
    Density synthetic;
    std::optional<Density> confidentialTail;
    std::optional<Density> syntheticTail;
};

Expected<DensityComparison> compareDensities(std::span<const double> confidential,
                                             std::span<const double> synthetic,
                                             const KdeOptions& options = {},
                                             std::optional<double> tailQuantile = std::nullopt);

}  // namespace ppsynth::utility
