// Nonparametric bootstrap of summary statistics (METHOD.md section 6): percentile intervals
// for the confidential data, and for synthetic data the replicates of each of the m datasets
// pooled, plus the distribution of a statistic across the datasets as the Wasserstein
// barycenter of the per-dataset bootstrap distributions (their quantile functions averaged),
// which the violins draw.
//
// Reproducibility: replicate b of source s uses its own stream
// makeRng(seed, (s << 32) | b, Purpose::Bootstrap), where source 0 is the confidential
// sample and source l + 1 is synthetic dataset l (0-based). Results are therefore identical
// for every thread count.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"
#include "ppsynth/common/rng.hpp"
#include "ppsynth/utility/interval.hpp"
#include "ppsynth/utility/statistics.hpp"

namespace ppsynth::utility {

struct BootstrapOptions {
    int replicates = 1000;  // B, per sample
    double level = 0.95;    // percentile interval coverage
    std::uint64_t seed = 1;
    int gridPoints = 201;  // quantile-function grid j / (gridPoints - 1), j = 0..gridPoints-1
    int threads = 1;
    ProgressCallback progress;  // stage "bootstrap", done/total in replicates, after each one

    Status validate() const;
};

struct BootstrapSummary {
    Statistic statistic;
    // The statistic of the sample; for synthetic data the mean over the m datasets.
    double estimate = 0;
    // Standard deviation of the (pooled) replicates (n - 1 denominator).
    double standardError = 0;
    // Percentile interval: type-7 quantiles (1 -/+ level) / 2 of the (pooled) replicates.
    Interval interval;
    // Quantile function of the bootstrap distribution on the grid; for synthetic data the
    // average over datasets of each dataset's quantile function (Wasserstein barycenter).
    std::vector<double> quantileFunction;
    // The statistic of each dataset (one entry for the confidential sample).
    std::vector<double> perDataset;
};

// The resampling draw: an index uniform on [0, n) from one 64-bit output by Lemire's
// multiply-shift with rejection (exactly uniform, no division in the common case; Boost's
// uniform_int_distribution divides twice per draw, which dominated the bootstrap's time).
// Part of the reproducibility contract: replicate b draws its n indices with this, in order.
inline std::size_t uniformIndex(Rng& rng, std::uint64_t n) {
    __extension__ using U128 = unsigned __int128;
    std::uint64_t x = rng();
    U128 product = static_cast<U128>(x) * n;
    auto low = static_cast<std::uint64_t>(product);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            x = rng();
            product = static_cast<U128>(x) * n;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::size_t>(product >> 64);
}

// Grid probabilities j / (points - 1) matching BootstrapSummary::quantileFunction.
std::vector<double> quantileGrid(int points);

// One entry per statistic, in the order given.
Expected<std::vector<BootstrapSummary>> bootstrapOriginal(std::span<const double> y,
                                                          const std::vector<Statistic>& statistics,
                                                          const BootstrapOptions& options = {});

// synthetic[l] is dataset l's y*. Replicates are drawn within each dataset and pooled for the
// interval and standard error.
Expected<std::vector<BootstrapSummary>> bootstrapSynthetic(
    const std::vector<std::vector<double>>& synthetic, const std::vector<Statistic>& statistics,
    const BootstrapOptions& options = {});

}  // namespace ppsynth::utility
