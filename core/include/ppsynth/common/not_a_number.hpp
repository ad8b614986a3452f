// The quiet NaN that marks a value as not computed or not applicable (a missing cell, a
// diagnostic a fit does not have). One definition, so sources compiled in one unity batch
// do not each bring their own.
#pragma once

#include <limits>

namespace ppsynth {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace ppsynth
