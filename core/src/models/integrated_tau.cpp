#include "models/integrated_tau.hpp"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <numbers>
#include <tuple>

#include "models/log_zero.hpp"
#include "models/scale_draw.hpp"
#include "ppsynth/common/log_gamma.hpp"
#include "ppsynth/common/rng.hpp"

namespace ppsynth::models::detail {

namespace {
// Whitening-map nodes in x = log rho: from -23 / K (chi(K) CDF there below 1e-10) to
// log(sqrt(K) + 12) (upper tail below 1e-30); outside, the map continues as a power law.
// log T is nearly linear in x below rho = e^-3 and curves like rho^2 above, hence the finer
// step there (interpolation error h^4 / 384 times the fourth derivative: about 1e-8).
constexpr double kXLowK1 = -23.0;
constexpr double kXStepLow = 0.1;
constexpr double kXStepHigh = 0.02;
constexpr double kXFine = -3.0;
// Quadrature steps (trapezoid on the log scale). Every integrand here is analytic in a
// strip around the real line and decays at both ends, so the rule converges geometrically:
// at these steps its error is far below double precision.
constexpr double kUStep = 0.05;
constexpr double kCStep = 0.15;

double logSumExp(const std::vector<double>& v) {
    double peak = kNegInf;
    for (double x : v) peak = std::max(peak, x);
    if (!std::isfinite(peak)) return peak;
    double sum = 0.0;
    for (double x : v) sum += std::exp(x - peak);
    return peak + std::log(sum);
}

// SplitMix64 stream of uniforms in (0, 1).
struct Uniforms {
    std::uint64_t state;
    double next() {
        state += 0x9e3779b97f4a7c15ULL;
        return (static_cast<double>(mix64(state) >> 11) + 0.5) * 0x1.0p-53;
    }
};

}  // namespace

IntegratedTau::IntegratedTau(double df, double scale, int components)
    : df_(df), scale_(scale), K_(components) {
    logConst_ = -K_ * kLogSqrt2Pi + logHalfTConst(df, scale);
    const double halfK = 0.5 * K_;
    const double logSurface = std::log(2.0) + halfK * std::log(std::numbers::pi) - logGamma(halfK);
    logChiConst_ = (halfK - 1.0) * std::log(2.0) + logGamma(halfK);
    const double xHigh = std::log(std::sqrt(static_cast<double>(K_)) + 12.0);
    // log T grows like K log rho: its curvature, and so the interpolation error, with K.
    const double fine = kXStepHigh / std::sqrt(std::sqrt(static_cast<double>(K_)));
    for (double x = kXLowK1 / K_; x < xHigh + fine; x += x < kXFine ? kXStepLow : fine)
        x_.push_back(x);
    const std::size_t nodes = x_.size();
    logT_.resize(nodes);
    slope_.resize(nodes);
    double guess = std::log(scale) + x_.front();
    for (std::size_t i = 0; i < nodes; ++i) {
        const double x = x_[i];
        const double rho = std::exp(x);
        const double lr = solveRadius(rho, guess);
        logT_[i] = lr;
        // dlogT/dlog rho = rho f_chi(rho) / (T f_R(T)), f_R(r) = S_K r^(K-1) p(beta at r).
        const double logChiDensity = (K_ - 1) * x - 0.5 * rho * rho - logChiConst_;
        const double logRadialDensity =
            logSurface + (K_ - 1) * lr + integrate(std::exp(2.0 * lr)).value;
        slope_[i] = std::exp(x + logChiDensity - lr - logRadialDensity);
        // Next node's start: this node's tangent, usually within 1e-4 of the root.
        if (i + 1 < nodes) guess = lr + slope_[i] * (x_[i + 1] - x);
    }
}

// ||beta_j|| = tau chi with chi ~ chi(K) independent of tau, so
//   P(||beta_j|| <= r) = E_chi[P(tau <= r / chi)],
// integrated over c = log chi, where the integrand decays at both ends (unlike the same
// integral over tau, whose integrand steps from 1 to 0 at tau = r).
double IntegratedTau::logRadialCdf(double r, bool upper) const {
    // Below lo the integrand is P(tau <= r / chi) f_chi(chi) chi ~ chi^K, under 1e-16 of H.
    const double lo = std::min(std::log(r / scale_), 0.0) - 38.0 / K_ - 2.0;
    const double hi = std::log(std::sqrt(static_cast<double>(K_)) + 14.0);
    std::vector<double> terms;
    // f_chi(e^c) e^c has width about 1 / sqrt(2K) in c: the step scales with it.
    const double step = kCStep / std::sqrt(static_cast<double>(K_));
    for (double c = lo; c <= hi; c += step) {
        const double chi = std::exp(c);
        const double z = r / (chi * scale_);
        // P(tau <= s z) = P(|t_df| <= z) = I(z^2 / (df + z^2); 1/2, df/2), and the upper
        // tail as I(df / (df + z^2); df/2, 1/2): each without cancellation in its own tail.
        const double z2 = z * z;
        double p = upper ? 0.0 : 1.0;
        if (std::isfinite(z2))
            p = upper ? boost::math::ibeta(0.5 * df_, 0.5, df_ / (df_ + z2))
                      : boost::math::ibeta(0.5, 0.5 * df_, z2 / (df_ + z2));
        if (p <= 0.0) continue;
        terms.push_back(std::log(p) + K_ * c - 0.5 * chi * chi - logChiConst_);  // f_chi(chi) chi
    }
    return logSumExp(terms) + std::log(step);
}

// log r with H(r) = F_chi(rho): below the median on log H, above it on log(1 - H), so the
// equation keeps full relative precision in both tails. Illinois false position on a
// bracket found by stepping out from the guess.
double IntegratedTau::solveRadius(double rho, double guess) const {
    const double halfK = 0.5 * K_;
    const double lower = boost::math::gamma_p(halfK, 0.5 * rho * rho);
    const bool upper = lower > 0.5;
    const double target =
        upper ? std::log(boost::math::gamma_q(halfK, 0.5 * rho * rho)) : std::log(lower);
    // f increases with log r.
    auto f = [&](double lr) {
        const double v = logRadialCdf(std::exp(lr), upper) - target;
        return upper ? -v : v;
    };
    double a = guess, fa = f(a);
    double step = 1e-3;
    double b = a + (fa < 0 ? step : -step), fb = f(b);
    while ((fa < 0) == (fb < 0)) {
        step *= 2.0;
        a = b;
        fa = fb;
        b = a + (fa < 0 ? step : -step);
        fb = f(b);
    }
    int side = 0;
    for (int it = 0; it < 200 && std::abs(b - a) > 1e-13; ++it) {
        const double c = (a * fb - b * fa) / (fb - fa);
        const double fc = f(c);
        if (fc == 0.0) return c;
        if ((fc < 0) == (fb < 0)) {
            b = c;
            fb = fc;
            if (side == -1) fa *= 0.5;
            side = -1;
        } else {
            a = c;
            fa = fc;
            if (side == 1) fb *= 0.5;
            side = 1;
        }
        if (std::abs(fc) < 1e-13) return c;
    }
    return 0.5 * (a + b);
}

IntegratedTau::Radius IntegratedTau::radius(double rho) const {
    if (!(rho > 0.0)) return {0.0, 0.0};
    const double x = std::log(rho);
    double y = 0.0, dy = 0.0;  // log T and dlogT/dlog rho
    if (x <= x_.front() || x >= x_.back()) {
        const std::size_t i = x <= x_.front() ? 0 : x_.size() - 1;
        dy = slope_[i];
        y = logT_[i] + dy * (x - x_[i]);
    } else {
        const auto i =
            static_cast<std::size_t>(std::upper_bound(x_.begin(), x_.end(), x) - x_.begin()) - 1;
        const double h = x_[i + 1] - x_[i];
        const double t = (x - x_[i]) / h;
        const double y0 = logT_[i], y1 = logT_[i + 1];
        const double m0 = slope_[i] * h, m1 = slope_[i + 1] * h;
        const double t2 = t * t, t3 = t2 * t;
        y = (2 * t3 - 3 * t2 + 1) * y0 + (t3 - 2 * t2 + t) * m0 + (-2 * t3 + 3 * t2) * y1 +
            (t3 - t2) * m1;
        dy = ((6 * t2 - 6 * t) * y0 + (3 * t2 - 4 * t + 1) * m0 + (-6 * t2 + 6 * t) * y1 +
              (3 * t2 - 2 * t) * m1) /
             h;
    }
    const double T = std::exp(y);
    return {T, T / rho * dy};
}

double IntegratedTau::inverseRadius(double r) const {
    if (!(r > 0.0)) return 0.0;
    double lo = -60.0, hi = 60.0;  // log rho; T is increasing
    for (int it = 0; it < 200 && hi - lo > 1e-14; ++it) {
        const double mid = 0.5 * (lo + hi);
        (radius(std::exp(mid)).value < r ? lo : hi) = mid;
    }
    return std::exp(0.5 * (lo + hi));
}

// tau = e^u: prod_k N(beta_kj | 0, tau) half-t(tau) dtau
//   = (2 pi)^(-K/2) e^(-K u) exp(-r2 e^(-2u) / 2) half-t(e^u) e^u du.
double IntegratedTau::logKernel(double u, double v) const {
    const double t2 = std::exp(2.0 * u) / (scale_ * scale_);
    return logConst_ - (K_ - 1) * u - 0.5 * std::exp(v - 2.0 * u) -
           0.5 * (df_ + 1.0) * std::log1p(t2 / df_);
}
// Trapezoid rule on u over the whole mass: below v/2 - 5 the factor exp(-r2 / (2 tau^2))
// is below exp(-10^4); above max(v/2, log scale) the integrand decays like
// e^(-(K + df) u).
ValueGrad IntegratedTau::integrate(double r2) const {
    const double v = std::log(r2);
    const double lo = 0.5 * v - 5.0;
    const double hi = std::max(0.5 * v, std::log(scale_)) + 45.0 / (K_ + df_) + 5.0;
    const auto count = static_cast<std::size_t>(std::ceil((hi - lo) / kUStep)) + 1;
    std::vector<double> logK(count);
    for (std::size_t i = 0; i < count; ++i)
        logK[i] = logKernel(lo + kUStep * static_cast<double>(i), v);
    const double peak = *std::max_element(logK.begin(), logK.end());
    double mass = 0.0, moment = 0.0;
    for (std::size_t i = 0; i < count; ++i) {
        const double w = std::exp(logK[i] - peak);
        mass += w;
        moment += w * std::exp(-2.0 * (lo + kUStep * static_cast<double>(i)));  // E[1 / tau^2]
    }
    // d log p / d r2 = -E[1 / tau^2] / 2 under p(tau | beta).
    return {peak + std::log(mass * kUStep), -0.5 * moment / mass};
}

// p(tau | beta_j) is drawScale's density with m = K values of sum of squares r2.
double IntegratedTau::drawTau(double r2, std::uint64_t seed) const {
    Uniforms rng{mix64(seed)};
    return drawScale(K_, r2, df_, scale_, [&rng] { return rng.next(); });
}

std::shared_ptr<const IntegratedTau> integratedTau(double df, double scale, int components) {
    static std::mutex mutex;
    static std::map<std::tuple<double, double, int>, std::shared_ptr<const IntegratedTau>> cache;
    const std::lock_guard lock(mutex);
    auto& slot = cache[{df, scale, components}];
    if (!slot) slot = std::make_shared<const IntegratedTau>(df, scale, components);
    return slot;
}

}  // namespace ppsynth::models::detail
