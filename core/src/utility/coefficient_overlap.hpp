// The synthetic side of one regression coefficient: its m estimates and variances combined
// by the rules for partially synthetic data, and the CI overlap with the confidential
// interval (the single-variable regression and the cross-regressions share it).
#pragma once

#include <span>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/utility/ci_overlap.hpp"
#include "ppsynth/utility/combining_rules.hpp"
#include "ppsynth/utility/ols.hpp"

namespace ppsynth::utility::detail {

// c holds the name, the confidential estimate and interval; fills synthetic and overlap.
inline Status combineCoefficient(CoefficientUtility& c, std::span<const double> q,
                                 std::span<const double> u, double level) {
    auto combined = combinePartiallySynthetic(q, u, level);
    if (!combined) return combined.error().prefixed("coefficient '" + c.name + "': ");
    c.synthetic = *combined;
    auto ov = ciOverlap(c.originalInterval, c.synthetic.interval);
    if (!ov) return ov.error().prefixed("coefficient '" + c.name + "': ");
    c.overlap = *ov;
    return {};
}

}  // namespace ppsynth::utility::detail
