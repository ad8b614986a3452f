// Combining rules for partially synthetic data (Reiter 2003), METHOD.md section 6. From m
// synthetic datasets with estimates q_l and their variance estimates u_l:
//   qbar = mean q_l,  b = sum (q_l - qbar)^2 / (m - 1),  ubar = mean u_l,
//   T = b / m + ubar,  df = (m - 1) (1 + ubar / (b / m))^2,
// and the interval qbar +/- t_{df, (1 + level)/2} sqrt(T). When b = 0 the degrees of freedom
// are infinite and the normal quantile is used.
#pragma once

#include <limits>
#include <span>

#include "ppsynth/common/expected.hpp"
#include "ppsynth/utility/interval.hpp"

namespace ppsynth::utility {

struct CombinedEstimate {
    double qbar = 0;
    double b = 0;     // between-dataset variance of the estimates
    double ubar = 0;  // mean within-dataset variance
    double T = 0;     // total variance of qbar
    double df = std::numeric_limits<double>::infinity();
    double quantile = 0;  // the t (or normal) quantile used for the interval
    Interval interval;
};

// Needs m >= 2 (b is not estimable from one dataset), equal lengths, u_l >= 0, level in (0,1).
Expected<CombinedEstimate> combinePartiallySynthetic(std::span<const double> q,
                                                     std::span<const double> u,
                                                     double level = 0.95);

}  // namespace ppsynth::utility
