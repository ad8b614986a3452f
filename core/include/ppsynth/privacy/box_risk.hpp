// Identification risk of several sensitive variables (METHOD.md section 9): "h is close to i"
// when |y*_h^(k) - y_i^(k)| < r_k |y_i^(k)| (or < r_k, absolute) for EVERY variable k, a box
// around i's true values. T_i, IR_i, IR_ij and at_i are section 4's with this closeness, and
// every count is exact: a pair's "close to neither" is |M| - |c_i| - |c_j| + |c_i ∩ c_j|, with
// c_i ∩ c_j counted record by record (bit sets over the pattern, never sampled).
//
// Layout: q variables of n records each, variable after variable: y[k n + i] is y_i^(k) (the
// same for every synthetic dataset). With q = 1 the results equal marginalRisk and
// pairwiseRisk exactly (same arithmetic in the same order).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/privacy/identification_risk.hpp"

namespace ppsynth::privacy {

// radii: one per variable; empty = options.radius for every variable.
Expected<std::vector<double>> boxMarginalRisk(std::span<const double> y, std::size_t q,
                                              const std::vector<std::vector<double>>& synthetic,
                                              std::span<const std::int32_t> pattern,
                                              const RiskOptions& options = {},
                                              const std::vector<Radius>& radii = {});

// at_i and IR_i with box closeness. Cost per pattern and dataset: O(|M| log |M|) to sort on
// the first variable, the close sets within each record's first-variable interval (q checks a
// candidate), and for each pair of records with T = 1 the words of their bit sets where their
// first-variable intervals overlap: at most O(|M|^3 / 64), O(|M|^2) when intervals are short.
Expected<PairwiseRisk> boxPairwiseRisk(std::span<const double> y, std::size_t q,
                                       const std::vector<std::vector<double>>& synthetic,
                                       std::span<const std::int32_t> pattern,
                                       const RiskOptions& options = {},
                                       const std::vector<Radius>& radii = {});

}  // namespace ppsynth::privacy
