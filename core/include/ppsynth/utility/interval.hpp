// A closed interval [lower, upper], the currency of the utility measures.
#pragma once

namespace ppsynth::utility {

struct Interval {
    double lower = 0;
    double upper = 0;
    double width() const { return upper - lower; }
    bool contains(double v) const { return lower <= v && v <= upper; }
};

}  // namespace ppsynth::utility
