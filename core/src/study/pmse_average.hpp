// The pMSE of m synthetic datasets, each computed on its own, averaged into one report (the
// single-variable and the joint utility share it; defined in utility_report.cpp).
#pragma once

#include <optional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/utility/pmse.hpp"

namespace ppsynth::study::detail {

// The first dataset that failed is returned as the error, naming the dataset.
Expected<utility::PmseUtility> averagePmse(
    const std::vector<std::optional<Expected<utility::PmseResult>>>& results);

}  // namespace ppsynth::study::detail
