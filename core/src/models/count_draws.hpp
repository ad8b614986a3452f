// Draws of counts for predictive sampling. Private to core/src/models.
#pragma once

#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/poisson_distribution.hpp>
#include <cmath>
#include <limits>

#include "ppsynth/common/rng.hpp"

namespace ppsynth::models::detail {

// y ~ Poisson(mu) as a double. Boost's PTRD sampler for mu < 1e12; beyond, the normal
// approximation (relative error of the moments < 1e-6 there) rounded to an integer, so
// that a wild draw of theta still yields a finite count. NaN for a non-finite mu.
inline double drawPoisson(double mu, Rng& rng) {
    if (!(mu >= 0.0) || !std::isfinite(mu)) return std::numeric_limits<double>::quiet_NaN();
    if (mu == 0.0) return 0.0;
    if (mu < 1e12) {
        boost::random::poisson_distribution<long long, double> d(mu);
        return static_cast<double>(d(rng));
    }
    boost::random::normal_distribution<double> z(mu, std::sqrt(mu));
    return std::max(0.0, std::round(z(rng)));
}

// NB2(mean mu, size phi) as the Gamma-Poisson mixture: lambda ~ Gamma(phi, mu / phi).
inline double drawNegBin(double mu, double phi, Rng& rng) {
    if (!(mu >= 0.0) || !std::isfinite(mu) || !(phi > 0.0))
        return std::numeric_limits<double>::quiet_NaN();
    if (mu == 0.0) return 0.0;
    boost::random::gamma_distribution<double> g(phi, mu / phi);
    return drawPoisson(g(rng), rng);
}

}  // namespace ppsynth::models::detail
