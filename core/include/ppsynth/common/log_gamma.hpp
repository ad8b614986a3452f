// log |Gamma(x)| without a data race. std::lgamma stores the sign of Gamma(x) in the global
// `signgam` (POSIX), so two chains evaluating it on their threads write the same variable.
// glibc's lgamma_r returns the sign through an argument instead and computes the same value
// bit for bit (lgamma is lgamma_r plus the store), so results and seeds' outputs are
// unchanged. Every log-gamma in core goes through logGamma.
#pragma once

#include <math.h>  // lgamma_r (glibc, BSD, macOS): not part of <cmath>

namespace ppsynth {

inline double logGamma(double x) {
    int sign = 0;
    return ::lgamma_r(x, &sign);
}

}  // namespace ppsynth
