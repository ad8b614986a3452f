// Exact draws of a normal scale s > 0 from
//   p(s) proportional to half-t(s | df, 0, scale) s^(-m) exp(-r2 / (2 s^2)),
// its conditional given m normal values with sum of squares r2 (m and r2 may be weighted,
// m = 0 gives the prior): tau_j given a coefficient row, sigma_k given a mixture
// component's residuals. Log-concave in u = log s, so adaptive rejection sampling (Gilks
// and Wild 1992) draws it exactly. Private to core/src/models.
#pragma once

#include <functional>

namespace ppsynth::models::detail {

// uniform() must return values in (0, 1).
double drawScale(double m, double r2, double df, double scale,
                 const std::function<double()>& uniform);
// The normalized log density of u = log s under the same distribution (the trapezoid rule
// over the kernel's mass gives the constant): what a Metropolis-Hastings ratio needs when
// drawScale is a proposal.
double scaleLogDensity(double m, double r2, double df, double scale, double u);

}  // namespace ppsynth::models::detail
