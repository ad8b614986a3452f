// Confidence-interval overlap (Karr et al. 2006), METHOD.md section 6:
//   I = 1/2 [ (min(U_o,U_s) - max(L_o,L_s)) / (U_o - L_o)
//           + (min(U_o,U_s) - max(L_o,L_s)) / (U_s - L_s) ].
// I = 1 for identical intervals, 0 when they only touch, and it is kept negative when they
// do not overlap at all (the formula as published, not truncated at 0): the more negative,
// the farther apart the intervals relative to their widths.
#pragma once

#include "ppsynth/common/expected.hpp"
#include "ppsynth/utility/interval.hpp"

namespace ppsynth::utility {

// Error when either interval has zero or negative width (the ratio is undefined) or an end
// is not finite.
Expected<double> ciOverlap(const Interval& original, const Interval& synthetic);

}  // namespace ppsynth::utility
