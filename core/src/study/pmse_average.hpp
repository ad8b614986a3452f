// The pMSE of m synthetic datasets, each computed on its own, averaged into one report, and
// that average recorded in a utility report (the single-variable and the joint utility share
// both; defined in utility_report.cpp).
#pragma once

#include <optional>
#include <vector>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/study/utility_report.hpp"
#include "ppsynth/utility/pmse.hpp"

namespace ppsynth::study::detail {

// The first dataset that failed is returned as the error, naming the dataset.
Expected<utility::PmseUtility> averagePmse(
    const std::vector<std::optional<Expected<utility::PmseResult>>>& results);

// The averaged pMSE's figures into `to`, its warning into `to` and the report's `warnings`;
// a failure becomes such a warning too, except a cancellation, which is returned. The
// reference S_pMSE and its note depend on the setting: the caller sets them.
Status recordPmse(const Expected<utility::PmseUtility>& pm, PmseReport& to,
                  std::vector<std::string>& warnings);

}  // namespace ppsynth::study::detail
