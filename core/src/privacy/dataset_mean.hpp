// Identification risks are computed per synthetic dataset and reported as their mean over the
// m datasets (METHOD.md 4.1): the one averaging step of the interval and the box risks.
#pragma once

#include <cstddef>
#include <vector>

#include "ppsynth/privacy/identification_risk.hpp"

namespace ppsynth::privacy::detail {

// perDataset[l][i] -> mean over l; every row has n entries.
inline std::vector<double> meanOverDatasets(const std::vector<std::vector<double>>& perDataset,
                                            std::size_t n) {
    std::vector<double> mean(n, 0.0);
    for (const auto& row : perDataset)
        for (std::size_t i = 0; i < n; ++i) mean[i] += row[i];
    for (auto& v : mean) v /= static_cast<double>(perDataset.size());
    return mean;
}

// at_i and IR_i averaged over datasets; `singletons` is left for the caller to count.
inline PairwiseRisk meanPairwise(const std::vector<std::vector<double>>& atPerDataset,
                                 const std::vector<std::vector<double>>& irPerDataset,
                                 std::size_t n) {
    PairwiseRisk out;
    out.at = meanOverDatasets(atPerDataset, n);
    out.marginal = meanOverDatasets(irPerDataset, n);
    return out;
}

}  // namespace ppsynth::privacy::detail
