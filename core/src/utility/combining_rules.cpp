#include "ppsynth/utility/combining_rules.hpp"

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <string>

#include "ppsynth/data/number_format.hpp"
#include "ppsynth/utility/statistics.hpp"

namespace ppsynth::utility {

Expected<CombinedEstimate> combinePartiallySynthetic(std::span<const double> q,
                                                     std::span<const double> u, double level) {
    const std::size_t m = q.size();
    if (m < 2)
        return Error{"the combining rules need at least 2 synthetic datasets (m = " +
                     std::to_string(m) + "): the between-dataset variance b is not estimable"};
    if (u.size() != m)
        return Error{"the combining rules got " + std::to_string(m) + " estimates but " +
                     std::to_string(u.size()) + " variances"};
    if (!(level > 0 && level < 1))
        return Error{"interval level " + data::formatNumber(level) +
                     " must lie strictly between 0 and 1"};
    for (std::size_t l = 0; l < m; ++l) {
        if (!std::isfinite(q[l]))
            return Error{"synthetic dataset " + std::to_string(l + 1) + ": the estimate " +
                         data::formatNumber(q[l]) + " is not a finite number"};
        if (!std::isfinite(u[l]) || u[l] < 0)
            return Error{"synthetic dataset " + std::to_string(l + 1) + ": the variance " +
                         data::formatNumber(u[l]) + " is not a finite non-negative number"};
    }

    CombinedEstimate c;
    c.qbar = mean(q);
    c.b = variance(q);
    c.ubar = mean(u);
    const double md = static_cast<double>(m);
    c.T = c.b / md + c.ubar;
    const double p = (1 + level) / 2;
    if (c.b > 0) {
        const double r = c.ubar / (c.b / md);
        c.df = (md - 1) * (1 + r) * (1 + r);
    } else {
        c.df = std::numeric_limits<double>::infinity();
    }
    // Boost's students_t needs a finite df; beyond ~1e10 it equals the normal to double precision.
    if (std::isfinite(c.df) && c.df < 1e10)
        c.quantile = boost::math::quantile(boost::math::students_t_distribution<double>(c.df), p);
    else
        c.quantile = boost::math::quantile(boost::math::normal_distribution<double>(), p);
    const double half = c.quantile * std::sqrt(c.T);
    c.interval = {c.qbar - half, c.qbar + half};
    return c;
}

}  // namespace ppsynth::utility
