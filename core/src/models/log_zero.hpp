#pragma once

#include <limits>

namespace ppsynth::models {

// log(0): the log density or log weight of an impossible value. One definition for the
// models' sources (each had its own, which clash when sources share a translation unit).
inline constexpr double kNegInf = -std::numeric_limits<double>::infinity();

}  // namespace ppsynth::models
