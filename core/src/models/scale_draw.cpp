#include "models/scale_draw.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "models/log_zero.hpp"

namespace ppsynth::models::detail {

namespace {

struct Tangent {
    double x, h, d;  // abscissa, log density, slope
};

// The log density on u = log s (Jacobian included, constant dropped), with v = log r2:
//   -(m - 1) u - e^(v - 2u) / 2 - (df + 1) / 2 log(1 + e^(2u) / (df scale^2)),
// and its first two derivatives.
struct Kernel {
    double m, v, df, scale2;
    double value(double u) const {
        const double t2 = std::exp(2.0 * u) / scale2;
        return -(m - 1.0) * u - 0.5 * std::exp(v - 2.0 * u) -
               0.5 * (df + 1.0) * std::log1p(t2 / df);
    }
    double slope(double u) const {
        const double t2 = std::exp(2.0 * u) / scale2;
        return -(m - 1.0) + std::exp(v - 2.0 * u) - (df + 1.0) * t2 / (df + t2);
    }
    double curvature(double u) const {
        const double t2 = std::exp(2.0 * u) / scale2;
        return -2.0 * std::exp(v - 2.0 * u) - 2.0 * (df + 1.0) * df * t2 / ((df + t2) * (df + t2));
    }
    // The slope falls strictly, from e^(v - 2u) > 0 (or 1 - m when r2 = 0) far left to
    // -(m - 1) - df - 1 < 0 far right: Newton steps inside a shrinking bracket.
    double mode(double logScale) const {
        double lo = 0.5 * v - 20.0;
        double hi = std::max(0.5 * v, logScale) + 20.0;
        double x = std::clamp(0.5 * (v - std::log(std::max(m - 1.0, 1.0))), lo, hi);
        for (int it = 0; it < 200 && hi - lo > 1e-9; ++it) {
            const double s = slope(x);
            if (s == 0.0) break;
            (s > 0 ? lo : hi) = x;
            const double newton = x - s / curvature(x);
            x = (newton > lo && newton < hi) ? newton : 0.5 * (lo + hi);
        }
        return x;
    }
    // About one standard deviation at the mode.
    double width(double at) const {
        const double c = curvature(at);
        return std::clamp(c < 0.0 ? 1.0 / std::sqrt(-c) : 4.0, 0.01, 4.0);
    }
};

}  // namespace

// The envelope is the minimum of tangents to the concave log kernel: exact draws whatever
// the tangents, and every rejected point becomes a tangent, so acceptance climbs quickly.
double drawScale(double m, double r2, double df, double scale,
                 const std::function<double()>& uniform) {
    const Kernel f{m, std::log(std::max(r2, std::numeric_limits<double>::min())), df,
                   scale * scale};
    auto tangent = [&](double u) { return Tangent{u, f.value(u), f.slope(u)}; };

    const double mode = f.mode(std::log(scale));
    // Outer tangents where the log kernel has fallen by 4 from the mode, so their slopes
    // reflect the real decay of each tail even where the top is flat (m = 1, small r2).
    const double top = f.value(mode);
    const double width = f.width(mode);
    auto outer = [&](double dir) {
        double step = width;
        while (step < 400.0 && f.value(mode + dir * step) > top - 4.0) step *= 2.0;
        return mode + dir * step;
    };
    std::vector<Tangent> hull = {tangent(outer(-1.0)), tangent(mode), tangent(outer(1.0))};

    std::vector<double> z, logMass;
    for (int attempt = 0; attempt < 10000; ++attempt) {
        // Segment j runs from z[j - 1] to z[j] under tangent j (z[-1] = -inf, z[J-1] = inf).
        const std::size_t J = hull.size();
        z.assign(J, std::numeric_limits<double>::infinity());
        for (std::size_t j = 0; j + 1 < J; ++j) {
            const Tangent& a = hull[j];
            const Tangent& b = hull[j + 1];
            const double dd = a.d - b.d;
            z[j] = dd > 1e-12 ? (b.h - a.h + a.d * a.x - b.d * b.x) / dd : 0.5 * (a.x + b.x);
            z[j] = std::clamp(z[j], a.x, b.x);
        }
        logMass.assign(J, kNegInf);
        double maxMass = kNegInf;
        for (std::size_t j = 0; j < J; ++j) {
            const Tangent& t = hull[j];
            const double L = j == 0 ? kNegInf : z[j - 1];
            const double R = z[j];
            const double a = t.h + t.d * (L - t.x), b = t.h + t.d * (R - t.x);
            if (std::abs(t.d) < 1e-10)
                logMass[j] = t.h + std::log(R - L);
            else if (t.d > 0)
                logMass[j] = b + std::log1p(-std::exp(a - b)) - std::log(t.d);
            else
                logMass[j] = a + std::log1p(-std::exp(b - a)) - std::log(-t.d);
            maxMass = std::max(maxMass, logMass[j]);
        }
        double total = 0.0;
        for (double& lm : logMass) total += (lm = std::exp(lm - maxMass));
        double pick = uniform() * total;
        std::size_t j = 0;
        while (j + 1 < J && pick >= logMass[j]) pick -= logMass[j++];

        const Tangent& t = hull[j];
        const double L = j == 0 ? kNegInf : z[j - 1];
        const double R = z[j];
        const double U = uniform();
        double u = 0.0;
        if (std::abs(t.d) < 1e-10) {
            u = L + U * (R - L);
        } else {
            const double a = t.h + t.d * (L - t.x), b = t.h + t.d * (R - t.x);
            const double e = t.d > 0 ? b + std::log(std::exp(a - b) + U * -std::expm1(a - b))
                                     : a + std::log1p(U * std::expm1(b - a));
            u = t.x + (e - t.h) / t.d;
        }
        const double envelope = t.h + t.d * (u - t.x);
        if (std::log(uniform()) <= f.value(u) - envelope) return std::exp(u);
        const Tangent add = tangent(u);
        if (hull.size() < 64 && std::isfinite(add.h) && std::isfinite(add.d))
            hull.insert(std::upper_bound(hull.begin(), hull.end(), u,
                                         [](double x, const Tangent& s) { return x < s.x; }),
                        add);
    }
    return std::exp(mode);  // unreachable in practice: acceptance is near 1 after a few tangents
}

// The kernel is log-concave and smooth: the trapezoid rule with 200 steps per width, out to
// where it has fallen to 4e-18 of its top on each side, is exact far below what a ratio needs.
double scaleLogDensity(double m, double r2, double df, double scale, double u) {
    const Kernel f{m, std::log(std::max(r2, std::numeric_limits<double>::min())), df,
                   scale * scale};
    const double mode = f.mode(std::log(scale));
    const double top = f.value(mode);
    const double h = f.width(mode) / 200.0;
    double mass = 1.0;  // the mode's node
    for (const double dir : {-1.0, 1.0}) {
        for (int i = 1; i < 10000000; ++i) {
            const double w = std::exp(f.value(mode + dir * h * i) - top);
            mass += w;
            if (w < 4e-18) break;
        }
    }
    return f.value(u) - top - std::log(mass * h);
}

}  // namespace ppsynth::models::detail
