// Identification risk of records in synthetic data (METHOD.md section 4), on the original
// scale of y. An intruder knows a record's pattern (its known variables) and looks for
// synthetic values close to the record's true value.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"

namespace ppsynth::privacy {

// "h is close to i" when |y*_h - y_i| < r |y_i| (percentage) or < r (absolute); strict, as
// in the authors' implementation.
struct Radius {
    double r = 0.20;
    bool percentage = true;
    double around(double y) const { return percentage ? r * (y < 0 ? -y : y) : r; }
};

struct RiskOptions {
    Radius radius;
    int threads = 1;            // datasets are processed in parallel
    ProgressCallback progress;  // stage "risk", done/total in datasets
};

// pattern[i] in [0, P): the record's pattern id (all zero when there are no known
// variables). synthetic[l] holds dataset l's y* in record order (same length as y).

// IR_i = mean over l of T_i * #{h in M : h not close to i} / |M|. O(L n log n).
Expected<std::vector<double>> marginalRisk(std::span<const double> y,
                                           const std::vector<std::vector<double>>& synthetic,
                                           std::span<const std::int32_t> pattern,
                                           const RiskOptions& options = {});

struct PairwiseRisk {
    std::vector<double> at;        // at_i, in [0, 1]; the pairwise weight before (c, g)
    std::vector<double> marginal;  // IR_i, computed alongside
    std::size_t singletons = 0;    // records alone in their pattern (fell back to 1 - IR_i)
};

// at_i = mean over l of sum_{j in M, j != i} (1 - IR_ij) / (|M| - 1), with
// IR_ij = T_i T_j * #{h in M : h close to neither i nor j} / |M|. Each close set is an
// interval of the pattern's sorted synthetic values, so a pair costs O(1) after O(log |M|)
// searches: O(|M|^2) per pattern and dataset.
Expected<PairwiseRisk> pairwiseRisk(std::span<const double> y,
                                    const std::vector<std::vector<double>>& synthetic,
                                    std::span<const std::int32_t> pattern,
                                    const RiskOptions& options = {});

struct RiskSummary {
    double mean = 0, median = 0, q1 = 0, q3 = 0, iqr = 0, max = 0;
    double threshold = 0.5;
    std::size_t aboveThreshold = 0;
    std::vector<std::size_t> top;  // indices of the highest risks, highest first
};

// Quartiles use R's default (type 7) definition so figures match what users compute in R.
RiskSummary summarizeRisk(std::span<const double> ir, double threshold = 0.5,
                          std::size_t topK = 10);

// Records whose risk rises by more than `rise` from the baseline synthesizer to another
// (the whack-a-mole effect of paper 004).
std::vector<std::size_t> whackAMole(std::span<const double> baseline, std::span<const double> other,
                                    double rise = 0.25);

}  // namespace ppsynth::privacy
