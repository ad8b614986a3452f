#include "ppsynth/utility/ci_overlap.hpp"

#include <algorithm>
#include <cmath>

#include "ppsynth/data/number_format.hpp"

namespace ppsynth::utility {

namespace {
Status checkInterval(const Interval& i, const char* which) {
    if (!std::isfinite(i.lower) || !std::isfinite(i.upper) || !(i.upper > i.lower))
        return Error{std::string("the ") + which + " interval [" + data::formatNumber(i.lower) +
                     ", " + data::formatNumber(i.upper) +
                     "] has no positive width, so the CI overlap is undefined"};
    return {};
}
}  // namespace

Expected<double> ciOverlap(const Interval& original, const Interval& synthetic) {
    if (auto st = checkInterval(original, "original"); !st) return st.error();
    if (auto st = checkInterval(synthetic, "synthetic"); !st) return st.error();
    const double common =
        std::min(original.upper, synthetic.upper) - std::max(original.lower, synthetic.lower);
    return 0.5 * (common / original.width() + common / synthetic.width());
}

}  // namespace ppsynth::utility
