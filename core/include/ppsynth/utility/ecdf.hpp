// ECDF distances between the confidential and a synthetic sample (Woo et al. 2009), METHOD.md
// section 6. Over the N = n_o + n_s pooled values z_j (each record counted once, ties too):
//   U_m = max_j |F_o(z_j) - F_s(z_j)|,   U_a = (1/N) sum_j (F_o(z_j) - F_s(z_j))^2,
// with F(z) = #{values <= z} / n. Computed by sorting and one merge: O((n_o + n_s) log).
#pragma once

#include <span>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/common/progress.hpp"

namespace ppsynth::utility {

struct EcdfDistance {
    double maxAbs = 0;      // U_m
    double meanSquare = 0;  // U_a
};

// Both samples non-empty and finite.
Expected<EcdfDistance> ecdfDistance(std::span<const double> original,
                                    std::span<const double> synthetic);

struct EcdfUtility {
    double maxAbs = 0;      // U_m averaged over the m datasets
    double meanSquare = 0;  // U_a averaged over the m datasets
    std::vector<EcdfDistance> perDataset;
};

// Each synthetic dataset against the original; the original is sorted once.
// progress: stage "ecdf", done/total in datasets, asked before each; Stop returns a
// "cancelled" error.
Expected<EcdfUtility> ecdfUtility(std::span<const double> original,
                                  const std::vector<std::vector<double>>& synthetic,
                                  const ProgressCallback& progress = {});

}  // namespace ppsynth::utility
